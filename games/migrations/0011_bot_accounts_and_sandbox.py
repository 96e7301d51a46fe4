"""The built-in bots' accounts exist from the start, chosen-seed games are sandboxes, and
staff reads of a running game's full record are audited.

Before this migration a bot's shared account (``bot-random``, ``bot-heuristic``,
``bot-ismcts``) was created on its first use, so anyone who signed up under that name
first owned the account the bot later played under (issue 26, item 1). Here each is
created with no usable password; an account that already holds the name is taken back:
its password is made unusable (which also ends its sessions, whose hash no longer
matches) and its API tokens are revoked.

Games created with a chosen seed are marked ``sandbox`` (issue 26, item 2). The server drew
its seeds as 32 lowercase hex characters, so an unrated game with any other seed was
chosen by its creator. (A creator who chose exactly such a string is missed; the seed
would still have been theirs to compute offline, but only for games already made.)
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import migrations, models
from django.utils import timezone

BOT_KINDS = ("random", "heuristic", "ismcts")
SERVER_SEED = re.compile(r"[0-9a-f]{32}")


def bot_accounts(apps: Any, schema_editor: Any) -> None:
    User = apps.get_model("auth", "User")
    Player = apps.get_model("games", "Player")
    ApiToken = apps.get_model("games", "ApiToken")
    now = timezone.now()
    for kind in BOT_KINDS:
        username = f"bot-{kind}"
        user = User.objects.filter(username__iexact=username).order_by("pk").first()
        if user is None:
            user = User.objects.create(username=username, password=make_password(None))
        else:
            user.username, user.password = username, make_password(None)
            user.save(update_fields=["username", "password"])
            ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=now)
        player = Player.objects.filter(user=user).first()
        if player is None:
            Player.objects.create(user=user, display_name=username, is_bot=True, bot_kind=kind)
        else:
            player.is_bot, player.bot_kind = True, kind
            player.save(update_fields=["is_bot", "bot_kind"])


def sandboxes(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    chosen = [
        pk
        for pk, seed in Game.objects.filter(rated=False).values_list("pk", "seed").iterator()
        if not SERVER_SEED.fullmatch(seed)
    ]
    for start in range(0, len(chosen), 1000):
        Game.objects.filter(pk__in=chosen[start : start + 1000]).update(sandbox=True)


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("games", "0010_documents_as_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="sandbox",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("dispute_review", "Dispute taken up for review"),
                    ("dispute_dismiss", "Dispute dismissed"),
                    ("dispute_uphold", "Dispute upheld"),
                    ("game_void", "Game voided"),
                    ("game_rewind", "Game rewound"),
                    ("florins_adjust", "Florins adjusted"),
                    ("record_read", "Full record of a running game read"),
                ],
                max_length=32,
            ),
        ),
        migrations.RunPython(bot_accounts, migrations.RunPython.noop),
        migrations.RunPython(sandboxes, migrations.RunPython.noop),
    ]
