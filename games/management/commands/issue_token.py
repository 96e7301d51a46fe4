"""Issue an API token for an account: ``manage.py issue_token USERNAME [options]``.

The token is printed alone on the last line of standard output, so that a script can
take it with ``| tail -n 1``; lines before it say what was done. It is shown only this
once (only its hash is stored).
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import services
from games.errors import ServiceError
from games.models import BotKind, TokenScope


class Command(BaseCommand):
    help = (
        "Issue an API token for USERNAME and print it alone on the last line. "
        "--create makes the account if it does not exist; --bot marks it a bot account."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--create",
            action="store_true",
            help="Create the account (with no usable password) if it does not exist.",
        )
        parser.add_argument("--bot", action="store_true", help="Mark the account as a bot.")
        parser.add_argument(
            "--bot-kind",
            choices=BotKind.values,
            default="",
            help="The built-in bot this account runs as (implies --bot).",
        )
        parser.add_argument("--name", default="", help="A label for the token (max 64).")
        parser.add_argument(
            "--scopes",
            default=",".join(TokenScope.values),
            help="Comma-separated scopes: read (GET requests), play (POST). Default: read,play.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        scopes = [scope.strip() for scope in options["scopes"].split(",") if scope.strip()]
        is_bot = bool(options["bot"] or options["bot_kind"])
        user_model = get_user_model()
        lines: list[str] = []
        try:
            with transaction.atomic():
                user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
                if user is None:
                    if not options["create"]:
                        raise CommandError(
                            f"There is no user {username!r}. Pass --create to make the account."
                        )
                    user = user_model(**{user_model.USERNAME_FIELD: username})
                    user.set_unusable_password()
                    user.full_clean(exclude=["password"])
                    user.save()
                    lines.append(f"Created the account {username!r} (no password: token only).")
                services.player_ensure(user=user, is_bot=is_bot, bot_kind=options["bot_kind"])
                if is_bot:
                    lines.append(f"{username!r} is a bot account.")
                token, raw = services.token_issue(user=user, name=options["name"], scopes=scopes)
        except ServiceError as exc:
            raise CommandError(exc.detail) from exc
        except ValidationError as exc:
            problems = " ".join(" ".join(messages) for messages in exc.message_dict.values())
            raise CommandError(f"Cannot create the account {username!r}: {problems}") from exc
        lines.append(
            f"API token {token.prefix}… for {username!r}, scopes {', '.join(token.scopes)}. "
            "It is shown only now; send it as 'Authorization: Bearer <token>':"
        )
        for line in lines:
            self.stdout.write(line)
        self.stdout.write(raw)
