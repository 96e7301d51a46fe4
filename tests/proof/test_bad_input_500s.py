"""Inputs that used to be 500s: deeply nested JSON, digits that ``str.isdigit`` accepts but
``int`` refuses (a superscript ², 5,000 digits), malformed webhook addresses. Each is now a
clear 400, and nothing changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client as DjangoClient

from games import services, webhooks
from games.models import ApiToken, Game, Webhook
from tests.api.conftest import Bearer
from tests.api.support import assert_error, fingerprint, finished_game, game_url

pytestmark = pytest.mark.django_db

NESTED = "[" * 50_000  # within the 64 KiB body limit, far past the parser's recursion limit
NESTED_OBJECTS = '{"a":' * 12_000
HUGE = "9" * 5_000  # int() refuses more than 4,300 digits
ODD_DIGITS = ["²", "١٢", "𝟗", HUGE]  # isdigit() says yes to each


def _api_writes(game: Game) -> list[tuple[str, str]]:
    return [
        ("post", "/api/v1/games/"),
        ("post", game_url(game, "actions")),
        ("post", game_url(game, "disputes")),
        ("post", "/api/v1/webhooks"),
        ("patch", "/api/v1/notifications/preferences"),
    ]


def _state(game: Game) -> tuple[Any, ...]:
    return (fingerprint(game), Game.objects.count(), Webhook.objects.count())


@pytest.mark.parametrize("body", [NESTED, NESTED_OBJECTS], ids=["arrays", "objects"])
def test_deeply_nested_json_is_a_400_on_every_api_write(
    body: str, game: Game, owner: Any, bearer: Bearer
) -> None:
    client = bearer(owner)
    before = _state(game)
    for method, url in _api_writes(game):
        response = getattr(client, method)(url, data=body, content_type="application/json")
        assert_error(response, 400, "malformed_json")
        assert _state(game) == before, url
    # Joining and marking read read no body: whatever it is, the answer is not a 500.
    for url in (game_url(game, "join"), "/api/v1/notifications/read"):
        answer = client.post(url, data=body, content_type="application/json")
        assert answer.status_code < 500, url
    # Tokens are issued from a session.
    session = DjangoClient(raise_request_exception=False)
    session.force_login(owner)
    response = session.post("/api/v1/tokens", data=body, content_type="application/json")
    assert_error(response, 400, "malformed_json")
    assert ApiToken.objects.filter(name="").count() == 0


def test_a_hundred_thousand_brackets_are_refused_without_a_500(
    game: Game, owner: Any, bearer: Bearer
) -> None:
    before = _state(game)
    response = bearer(owner).post(
        game_url(game, "actions"), data="[" * 100_000, content_type="application/json"
    )
    assert response.status_code in {400, 413}, response.content[:200]
    assert _state(game) == before


def _to_act(game: Game, players: list[Any]) -> DjangoClient:
    assert game.to_act_seat is not None
    client = DjangoClient(raise_request_exception=False)
    client.force_login(players[game.to_act_seat])
    return client


def test_nested_json_in_the_move_form_is_a_400(
    game: Game, owner: Any, opponent: Any, third: Any
) -> None:
    client = _to_act(game, [owner, opponent, third])
    before = fingerprint(game)
    for htmx in (True, False):
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.post(
            f"/games/{game.pk}/act", {"action": NESTED, "version": str(game.version)}, **extra
        )
        assert response.status_code in ({400} if htmx else {302}), response.status_code
    assert fingerprint(game) == before


@pytest.mark.parametrize("version", ODD_DIGITS)
def test_an_odd_version_on_the_move_form_is_a_400(
    version: str, game: Game, owner: Any, opponent: Any, third: Any
) -> None:
    client = _to_act(game, [owner, opponent, third])
    legal = client.get(f"/api/v1/games/{game.pk}/").json()["legal_actions"][0]  # a real move
    before = fingerprint(game)
    response = client.post(
        f"/games/{game.pk}/act",
        {"action": json.dumps(legal), "version": version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400, response.content[:300]
    assert fingerprint(game) == before


@pytest.mark.parametrize("since", ODD_DIGITS)
def test_an_odd_since_on_the_table_is_a_400(since: str, game: Game) -> None:
    response = DjangoClient(raise_request_exception=False).get(
        f"/games/{game.pk}/", {"since": since}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400


@pytest.mark.parametrize("step", ODD_DIGITS)
def test_an_odd_replay_step_is_a_400(step: str, owner: Any, opponent: Any, third: Any) -> None:
    game = finished_game(owner, opponent, third)
    response = DjangoClient(raise_request_exception=False).get(
        f"/games/{game.pk}/replay", {"move": step}
    )
    assert response.status_code == 400


@pytest.mark.parametrize("value", ODD_DIGITS)
def test_odd_ids_on_the_settings_page_are_a_400_and_revoke_nothing(value: str, owner: Any) -> None:
    token, _raw = services.token_issue(user=owner, name="keep")
    hook = webhooks.webhook_create(user=owner, url="https://example.org/hook")
    client = DjangoClient(raise_request_exception=False)
    client.force_login(owner)
    revoke = client.post("/settings/", {"form": "revoke", "token": value})
    assert revoke.status_code == 400
    delete = client.post("/settings/", {"form": "webhook_delete", "webhook": value})
    assert delete.status_code == 400
    token.refresh_from_db()
    assert token.revoked_at is None
    assert Webhook.objects.filter(pk=hook.pk).exists()


BAD_URLS: list[Any] = [
    "http://[::1",
    "http://[not-an-address]/",
    "http://a:99999/",
    "http://a:-1/",
    "http://example.org:port/",
    "http://",
    "https:///path",
    "http://exa mple.org/",
    "http://example.org/\x00",
    12,
    ["https://example.org/hook"],
    {"href": "https://example.org/hook"},
    True,
]


@pytest.mark.parametrize("url", BAD_URLS, ids=[repr(u)[:30] for u in BAD_URLS])
def test_a_malformed_webhook_url_is_a_400_and_creates_nothing(
    url: Any, owner: Any, bearer: Bearer
) -> None:
    response = bearer(owner).post("/api/v1/webhooks", data={"url": url}, format="json")
    assert_error(response, 400, "invalid_request")
    assert Webhook.objects.count() == 0


@pytest.mark.parametrize("url", ["http://a:99999/", "http://[::1", "http://example.org:0x50/"])
def test_a_malformed_webhook_url_on_the_settings_page_is_refused_not_a_500(
    url: str, owner: Any
) -> None:
    client = DjangoClient(raise_request_exception=False)
    client.force_login(owner)
    response = client.post("/settings/", {"form": "webhook", "url": url})
    assert response.status_code in {200, 400}, response.status_code
    assert Webhook.objects.count() == 0
