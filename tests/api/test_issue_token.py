"""manage.py issue_token: a token for scripts and bots, printed alone on the last line."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from games.models import ApiToken, Player

pytestmark = pytest.mark.django_db


def issue(*args: str) -> list[str]:
    out = StringIO()
    call_command("issue_token", *args, stdout=out)
    return out.getvalue().splitlines()


def test_it_prints_a_working_token_alone_on_the_last_line(owner: Any) -> None:
    lines = issue("owner")
    token = lines[-1]
    assert token.startswith("ind_")
    assert " " not in token
    me = APIClient(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1/me").json()
    assert (me["username"], me["auth"], me["scopes"]) == ("owner", "token", ["play", "read"])
    assert len(lines) >= 2  # what was done is said before it


def test_it_refuses_an_unknown_user_without_create() -> None:
    with pytest.raises(CommandError, match=r"There is no user 'nobody'\. Pass --create"):
        issue("nobody")
    assert not ApiToken.objects.exists()


def test_it_creates_a_missing_account_with_create() -> None:
    token = issue("newbie", "--create")[-1]
    user = get_user_model().objects.get(username="newbie")
    assert not user.has_usable_password()
    assert not Player.objects.get(user=user).is_bot
    assert APIClient(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/v1/me").status_code == 200


def test_it_keeps_an_existing_account_with_create(owner: Any) -> None:
    issue("owner", "--create")
    owner.refresh_from_db()
    assert owner.check_password("pw")


def test_it_marks_a_bot_account_with_bot() -> None:
    lines = issue("robot", "--create", "--bot", "--name", "my bot", "--scopes", "read,play")
    player = Player.objects.get(user__username="robot")
    assert player.is_bot
    token = ApiToken.objects.get()
    assert (token.name, token.scopes) == ("my bot", ["play", "read"])
    me = APIClient(HTTP_AUTHORIZATION=f"Bearer {lines[-1]}").get("/api/v1/me").json()
    assert me["is_bot"] is True


def test_it_records_the_bot_kind(owner: Any) -> None:
    issue("owner", "--bot-kind", "random")
    player = Player.objects.get(user=owner)
    assert (player.is_bot, player.bot_kind) == (True, "random")


def test_it_issues_a_read_only_token(owner: Any) -> None:
    token = issue("owner", "--scopes", "read")[-1]
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/me").status_code == 200
    response = client.post("/api/v1/games/", {"player_count": 3}, format="json")
    assert response.json()["code"] == "insufficient_scope"


def test_it_refuses_unknown_scopes(owner: Any) -> None:
    with pytest.raises(CommandError, match="Scopes must be chosen from"):
        issue("owner", "--scopes", "read,admin")
    assert not ApiToken.objects.exists()


def test_it_refuses_a_username_django_would_not_accept() -> None:
    with pytest.raises(CommandError, match="Cannot create the account"):
        issue("no spaces allowed", "--create")
    assert not get_user_model().objects.filter(username="no spaces allowed").exists()
