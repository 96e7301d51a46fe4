"""/api/v1/tokens: the logged-in user lists, creates and revokes their API tokens."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import ApiToken
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error

pytestmark = pytest.mark.django_db


def test_it_creates_a_token_and_shows_it_once(owner: Any, session: Any) -> None:
    client = session(owner)
    response = client.post("/api/v1/tokens", {"name": "my bot", "scopes": ["read"]}, format="json")
    assert response.status_code == 201
    created = response.json()
    assert created["name"] == "my bot"
    assert created["scopes"] == ["read"]
    assert created["token"].startswith(created["prefix"])
    listed = client.get("/api/v1/tokens").json()["results"]
    assert [token["id"] for token in listed] == [created["id"]]
    assert "token" not in listed[0]
    assert created["token"] not in client.get("/api/v1/tokens").content.decode()

    bot = APIClient(HTTP_AUTHORIZATION=f"Bearer {created['token']}")
    assert bot.get("/api/v1/me").json()["username"] == "owner"


def test_it_gives_a_new_token_both_scopes_by_default(owner: Any, session: Any) -> None:
    created = session(owner).post("/api/v1/tokens", {}, format="json").json()
    assert created["scopes"] == ["play", "read"]
    assert created["name"] == ""


def test_it_lists_only_my_tokens_newest_first(owner: Any, outsider: Any, session: Any) -> None:
    services.token_issue(user=owner, name="first")
    services.token_issue(user=owner, name="second")
    services.token_issue(user=outsider, name="not mine")
    page = session(owner).get("/api/v1/tokens").json()
    assert page["count"] == 2
    assert [token["name"] for token in page["results"]] == ["second", "first"]
    assert set(page["results"][0]) == {
        "id",
        "name",
        "prefix",
        "scopes",
        "created_at",
        "last_used_at",
        "revoked_at",
    }


def test_it_revokes_a_token(owner: Any, session: Any, bearer: Bearer) -> None:
    bot = bearer(owner)
    token = ApiToken.objects.get()
    response = session(owner).delete(f"/api/v1/tokens/{token.pk}")
    assert response.status_code == 204
    assert_error(bot.get("/api/v1/me"), 401, "not_authenticated")
    listed = session(owner).get("/api/v1/tokens").json()["results"]
    assert listed[0]["revoked_at"] is not None


def test_it_cannot_revoke_someone_elses_token(owner: Any, outsider: Any, session: Any) -> None:
    token, _ = services.token_issue(user=owner)
    assert_error(session(outsider).delete(f"/api/v1/tokens/{token.pk}"), 404, "not_found")
    assert ApiToken.objects.get().revoked_at is None


def test_it_refuses_unknown_scopes(owner: Any, session: Any) -> None:
    response = session(owner).post("/api/v1/tokens", {"scopes": ["admin"]}, format="json")
    assert "scopes" in assert_error(response, 400, "invalid_request")["errors"]
    response = session(owner).post("/api/v1/tokens", {"scopes": []}, format="json")
    assert_error(response, 400, "invalid_request")


def test_it_refuses_token_management_with_a_token(owner: Any, bearer: Bearer) -> None:
    client = bearer(owner, scopes=("read",))
    assert_error(client.get("/api/v1/tokens"), 403, "session_required")
    response = client.post("/api/v1/tokens", {"scopes": ["read", "play"]}, format="json")
    assert_error(response, 403, "session_required")
    assert ApiToken.objects.count() == 1  # a read token cannot mint a play token


def test_it_needs_a_login(anonymous: Client) -> None:
    assert_error(anonymous.get("/api/v1/tokens"), 401, "not_authenticated")
    assert_error(anonymous.delete("/api/v1/tokens/1"), 401, "not_authenticated")
