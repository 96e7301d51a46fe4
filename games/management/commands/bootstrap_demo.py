"""Create the demo accounts a fresh install needs: an admin and one account per built-in bot.

Idempotent: running it again keeps existing accounts and prints the same credentials.
The admin password is generated once and kept in var/demo_credentials.json (never
committed); set DEMO_ADMIN_PASSWORD to choose it instead.
"""

from __future__ import annotations

import json
import os
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import BotKind, Player

ADMIN_USERNAME = "admin"
BOT_ACCOUNTS = {kind: f"bot-{kind.value}" for kind in BotKind}


class Command(BaseCommand):
    help = "Create the demo admin and the built-in bot accounts, then print how to log in."

    def handle(self, *args: Any, **options: Any) -> None:
        credentials_file = settings.VAR_DIR / "demo_credentials.json"
        stored: dict[str, str] = {}
        if credentials_file.exists():
            stored = json.loads(credentials_file.read_text())
        password = os.environ.get("DEMO_ADMIN_PASSWORD") or stored.get("password")
        if not password:
            password = secrets.token_urlsafe(12)

        user_model = get_user_model()
        with transaction.atomic():
            admin, created = user_model.objects.get_or_create(
                username=ADMIN_USERNAME, defaults={"is_staff": True, "is_superuser": True}
            )
            if created or not admin.check_password(password):
                admin.is_staff = admin.is_superuser = True
                admin.set_password(password)
                admin.save()
            Player.objects.get_or_create(user=admin, defaults={"display_name": "Admin"})
            for kind, username in BOT_ACCOUNTS.items():
                bot_user, _ = user_model.objects.get_or_create(username=username)
                if bot_user.has_usable_password():
                    bot_user.set_unusable_password()
                    bot_user.save()
                Player.objects.update_or_create(
                    user=bot_user,
                    defaults={
                        "display_name": f"{kind.label} bot",
                        "is_bot": True,
                        "bot_kind": kind.value,
                    },
                )

        credentials_file.write_text(json.dumps({"username": ADMIN_USERNAME, "password": password}))
        credentials_file.chmod(0o600)
        self.stdout.write(f"Admin account: {ADMIN_USERNAME} / {password}")
        self.stdout.write(f"Bot accounts: {', '.join(BOT_ACCOUNTS.values())}")
