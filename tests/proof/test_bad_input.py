"""Malformed JSON, oversized bodies and unknown addresses: clear 4xx everywhere, in the
API's JSON error shape under /api/ and as plain refusals on the HTMX posts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client as DjangoClient

from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import assert_error, fingerprint, game_url

pytestmark = pytest.mark.django_db

OVER_LIMIT = 64 * 1024 + 1


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_an_unknown_api_address_is_a_json_404_even_for_a_browser_without_csrf(
    method: str,
) -> None:
    # A real client: CSRF checks enforced, as for any browser or script with a cookie.
    client = DjangoClient(enforce_csrf_checks=True)
    response = getattr(client, method)("/api/v1/games/null,null/join")
    assert response["Content-Type"] == "application/json", response.content[:200]
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize(
    "suffix", ["", "actions", "disputes"], ids=["create", "actions", "disputes"]
)
def test_every_api_post_with_a_body_refuses_malformed_json_and_changes_nothing(
    suffix: str, game: Game, owner: Any, bearer: Bearer
) -> None:
    url = "/api/v1/games/" if not suffix else game_url(game, suffix)
    before = fingerprint(game)
    response = bearer(owner).post(url, data='{"action": {', content_type="application/json")
    assert_error(response, 400, "malformed_json")
    assert fingerprint(game) == before
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "suffix", ["", "actions", "join", "disputes"], ids=["create", "actions", "join", "disputes"]
)
def test_every_api_post_refuses_an_oversized_body_with_413(
    suffix: str, game: Game, owner: Any, bearer: Bearer
) -> None:
    url = "/api/v1/games/" if not suffix else game_url(game, suffix)
    before = fingerprint(game)
    body = json.dumps({"reason": "x" * OVER_LIMIT, "action": {"type": "pass"}})
    response = bearer(owner).post(url, data=body, content_type="application/json")
    assert_error(response, 413, "payload_too_large")
    assert fingerprint(game) == before


def test_the_htmx_action_post_refuses_garbage_json_with_a_400_and_changes_nothing(
    game: Game, owner: Any, opponent: Any, third: Any
) -> None:
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    client = DjangoClient()
    client.force_login(players[game.to_act_seat])
    before = fingerprint(game)
    for garbage in ['{"type": "pass"', "[1, 2]", "null", "x" * 5000]:
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": garbage, "version": str(game.version)},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 400, garbage
    assert fingerprint(game) == before


def test_an_oversized_htmx_post_is_refused_with_a_4xx_not_a_500(game: Game, owner: Any) -> None:
    client = DjangoClient(raise_request_exception=False)
    client.force_login(owner)
    before = fingerprint(game)
    # Django refuses form bodies over DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) with a 400.
    response = client.post(
        f"/games/{game.pk}/act",
        {"action": "x" * (3 * 1024 * 1024), "version": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert 400 <= response.status_code < 500
    assert fingerprint(game) == before
