"""`manage.py bootstrap_demo` gives a fresh install an admin and the bot accounts."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from pytest_django.fixtures import Settings as SettingsWrapper

from games.models import Player


@pytest.mark.django_db
def test_it_creates_an_admin_and_one_account_per_bot(
    settings: SettingsWrapper, tmp_path: Path
) -> None:
    settings.VAR_DIR = tmp_path
    out = StringIO()
    call_command("bootstrap_demo", stdout=out)
    printed = out.getvalue()
    password = printed.split("Admin account: admin / ", 1)[1].split()[0]
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    assert admin.check_password(password)
    bots = Player.objects.filter(is_bot=True).order_by("bot_kind")
    assert [(p.user.username, p.bot_kind) for p in bots] == [
        ("bot-heuristic", "heuristic"),
        ("bot-ismcts", "ismcts"),
        ("bot-novice", "novice"),  # New Eleusis' bots (issue 24)
        ("bot-random", "random"),
        ("bot-scientist", "scientist"),
    ]
    assert not any(p.user.has_usable_password() for p in bots)


@pytest.mark.django_db
def test_running_it_twice_keeps_the_same_credentials(
    settings: SettingsWrapper, tmp_path: Path
) -> None:
    settings.VAR_DIR = tmp_path
    first, second = StringIO(), StringIO()
    call_command("bootstrap_demo", stdout=first)
    call_command("bootstrap_demo", stdout=second)
    assert first.getvalue() == second.getvalue()
    assert get_user_model().objects.filter(username__startswith="bot-").count() == 5
