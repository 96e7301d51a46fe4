"""Bearer tokens and their scopes, the web session and its CSRF check, GET /api/v1/me."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import ApiToken, Player
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error

pytestmark = pytest.mark.django_db


def test_it_knows_a_bearer_tokens_owner(owner: Any, bearer: Bearer) -> None:
    services.player_ensure(user=owner)
    me = bearer(owner).get("/api/v1/me").json()
    assert me == {
        "username": "owner",
        "display_name": "owner",
        "is_bot": False,
        "language": "en",
        "is_staff": False,
        "auth": "token",
        "scopes": ["play", "read"],
    }


def test_it_describes_a_bot_account(make_user: Any, bearer: Bearer) -> None:
    robot = make_user("robot")
    services.player_ensure(user=robot, is_bot=True)
    me = bearer(robot, scopes=("read",)).get("/api/v1/me").json()
    assert me["is_bot"] is True
    assert me["scopes"] == ["read"]


def test_it_describes_an_account_without_a_player_profile_yet(owner: Any, bearer: Bearer) -> None:
    me = bearer(owner).get("/api/v1/me").json()
    assert (me["username"], me["display_name"], me["is_bot"]) == ("owner", "owner", False)
    assert not Player.objects.filter(user=owner).exists()  # reading creates nothing


def test_it_notes_when_a_token_was_last_used(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner)
    assert ApiToken.objects.get().last_used_at is None
    client.get("/api/v1/me")
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.parametrize(
    "header",
    ["Bearer ind_not-a-real-token", "Bearer", "Bearer two tokens", "bearer ind_nope"],
    ids=["unknown", "missing", "two parts", "lower case scheme"],
)
def test_it_refuses_a_bad_bearer_token_even_on_public_pages(header: str) -> None:
    client = APIClient(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/games/")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_it_refuses_a_revoked_token(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner)
    token = ApiToken.objects.get()
    services.token_revoke(token_id=token.pk, user=owner)
    response = client.get("/api/v1/me")
    assert "revoked" in assert_error(response, 401, "not_authenticated")["detail"]


def test_it_refuses_an_inactive_accounts_token(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner)
    owner.is_active = False
    owner.save()
    assert_error(client.get("/api/v1/me"), 401, "not_authenticated")


def test_it_needs_an_account_for_me(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/me")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_it_lets_a_read_token_read_but_not_write(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner, scopes=("read",))
    assert client.get("/api/v1/games/").status_code == 200
    response = client.post("/api/v1/games/", {"player_count": 3}, format="json")
    assert_error(response, 403, "insufficient_scope")


def test_it_lets_a_play_token_write_but_not_read(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner, scopes=("play",))
    assert client.post("/api/v1/games/", {"player_count": 3}, format="json").status_code == 201
    assert "'read'" in assert_error(client.get("/api/v1/me"), 403, "insufficient_scope")["detail"]


def test_it_gives_a_session_every_scope(owner: Any, session: Any) -> None:
    me = session(owner).get("/api/v1/me").json()
    assert (me["auth"], me["scopes"]) == ("session", ["play", "read"])


def test_it_ignores_other_authorization_schemes(anonymous: Client) -> None:
    client = APIClient(HTTP_AUTHORIZATION="Basic b3duZXI6cHc=")
    assert client.get("/api/v1/games/").status_code == 200  # anonymous, like no header
    assert_error(client.get("/api/v1/me"), 401, "not_authenticated")


class TestSessionCsrf:
    def test_it_refuses_a_session_write_without_the_csrf_token(self, owner: Any) -> None:
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(owner)
        response = client.post("/api/v1/games/", {"player_count": 3}, format="json")
        assert "X-CSRFToken" in assert_error(response, 403, "csrf_failed")["detail"]

    def test_it_accepts_a_session_write_with_the_csrf_token(self, owner: Any) -> None:
        client = APIClient(enforce_csrf_checks=True)
        client.force_login(owner)
        client.get("/accounts/login/")  # any page that sets the csrftoken cookie
        token = client.cookies["csrftoken"].value
        response = client.post(
            "/api/v1/games/", {"player_count": 3}, format="json", HTTP_X_CSRFTOKEN=token
        )
        assert response.status_code == 201

    def test_it_needs_no_csrf_token_with_a_bearer_token(self, owner: Any) -> None:
        _token, raw = services.token_issue(user=owner)
        client = APIClient(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Bearer {raw}")
        assert client.post("/api/v1/games/", {"player_count": 3}, format="json").status_code == 201
