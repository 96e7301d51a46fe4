"""Every refusal has the same shape: {"code": "<snake_case>", "detail": "<sentence>"}."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory, override_settings
from pytest_django.fixtures import Settings as SettingsWrapper
from rest_framework.test import APIClient

from games import selectors
from games.api.exceptions import (
    PayloadTooLarge,
    flatten_errors,
    handler400,
    handler403,
    handler500,
)
from games.api.parsers import LimitedJSONParser
from games.models import Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error, game_url

pytestmark = pytest.mark.django_db


def test_it_refuses_malformed_json(owner: Any, bearer: Bearer) -> None:
    response = bearer(owner).post(
        "/api/v1/games/", data='{"player_count": 3,', content_type="application/json"
    )
    error = assert_error(response, 400, "malformed_json")
    assert error["detail"].startswith("The request body is not valid JSON")


def test_it_refuses_json_with_nan(owner: Any, bearer: Bearer) -> None:
    response = bearer(owner).post(
        "/api/v1/games/", data='{"player_count": NaN}', content_type="application/json"
    )
    assert_error(response, 400, "malformed_json")


def test_it_refuses_a_body_that_is_not_json(owner: Any, bearer: Bearer) -> None:
    response = bearer(owner).post("/api/v1/games/", data={"player_count": 3}, format="multipart")
    assert "application/json" in assert_error(response, 415, "unsupported_media_type")["detail"]


def test_it_refuses_an_unsupported_method(anonymous: Client) -> None:
    assert_error(anonymous.put("/api/v1/games/"), 405, "method_not_allowed")


def test_it_refuses_a_body_over_64_kib_before_reading_it(owner: Any, bearer: Bearer) -> None:
    big = {"player_count": 3, "seed": "x" * (64 * 1024)}
    response = bearer(owner).post("/api/v1/games/", big, format="json")
    assert "65536 bytes" in assert_error(response, 413, "payload_too_large")["detail"]
    assert not Game.objects.exists()


def test_it_refuses_a_large_body_even_from_an_anonymous_caller(anonymous: Client) -> None:
    response = anonymous.post(
        "/api/v1/games/", data="[" + "1," * 40000 + "1]", content_type="application/json"
    )
    assert_error(response, 413, "payload_too_large")


def test_it_stops_reading_a_body_without_a_length_at_the_limit() -> None:
    with pytest.raises(PayloadTooLarge):
        LimitedJSONParser().parse(io.BytesIO(b" " * (64 * 1024 + 1)))
    assert LimitedJSONParser().parse(io.BytesIO(b'{"ok": true}')) == {"ok": True}


def test_it_answers_unknown_api_addresses_with_json(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/no-such-thing")
    assert "/api/v1/no-such-thing" in assert_error(response, 404, "not_found")["detail"]
    assert_error(anonymous.post("/api/v1/games/1/teleport"), 404, "not_found")
    assert_error(anonymous.get("/api/v2/games/"), 404, "not_found")


def test_it_answers_unknown_api_addresses_with_json_in_debug_mode(anonymous: Client) -> None:
    with override_settings(DEBUG=True):
        assert_error(anonymous.get("/api/v1/nothing/here/"), 404, "not_found")


def test_it_leaves_the_web_sites_own_404_page_alone(anonymous: Client) -> None:
    response = anonymous.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_it_answers_both_trailing_slash_spellings(game: Game, anonymous: Client) -> None:
    assert anonymous.get(game_url(game, "moves")).status_code == 200
    assert anonymous.get(game_url(game, "moves/")).status_code == 200
    assert anonymous.get(f"/api/v1/games/{game.pk}").json()["id"] == game.pk
    assert anonymous.get("/api/v1/games").status_code == 200
    assert anonymous.get("/api/v1/leaderboard/").status_code == 200


def test_it_answers_a_crash_with_a_json_500(
    game: Game, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**kwargs: Any) -> Game:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(selectors, "game_get", broken)
    client = APIClient(raise_request_exception=False)
    response = client.get(game_url(game))
    error = assert_error(response, 500, "server_error")
    assert "fire" not in error["detail"]  # internals stay in the log
    assert "the database caught fire" in caplog.text


def test_it_throttles_anonymous_callers_with_retry_after(
    anonymous: Client, settings: SettingsWrapper
) -> None:
    rates = {"anon": "2/min", "user": None, "actions": None}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    assert anonymous.get("/api/v1/leaderboard").status_code == 200
    assert anonymous.get("/api/v1/games/").status_code == 200
    response = anonymous.get("/api/v1/leaderboard")
    error = assert_error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert f"{response['Retry-After']} seconds" in error["detail"]


def test_it_throttles_each_account_separately(
    owner: Any, opponent: Any, bearer: Bearer, settings: SettingsWrapper
) -> None:
    rates = {"anon": None, "user": "2/min", "actions": None}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    client = bearer(owner)
    assert [client.get("/api/v1/me").status_code for _ in range(3)] == [200, 200, 429]
    assert bearer(opponent).get("/api/v1/me").status_code == 200


def test_it_flattens_nested_field_errors_into_one_sentence() -> None:
    errors = {
        "player_count": ["Required."],
        "bots": {0: {"seat": ["Too big"]}},
        "non_field_errors": ["Nope"],
    }
    assert flatten_errors(errors) == ["player_count: Required.", "bots[0].seat: Too big.", "Nope."]


def test_it_refuses_an_accept_header_without_json(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert_error(response, 406, "not_acceptable")


def test_it_answers_a_request_django_cannot_read_with_json(anonymous: Client) -> None:
    response = anonymous.get("/api/v1/games/", HTTP_HOST="evil.example")
    assert_error(response, 400, "bad_request")


def test_it_gives_djangos_own_error_pages_the_json_shape_only_under_the_api() -> None:
    factory = RequestFactory()
    api, page = factory.get("/api/v1/games/"), factory.get("/games/")
    denied = PermissionDenied()
    assert json.loads(handler403(api, denied).content)["code"] == "forbidden"
    assert json.loads(handler500(api).content)["code"] == "server_error"
    assert handler403(page, denied)["Content-Type"].startswith("text/html")
    assert handler500(page)["Content-Type"].startswith("text/html")
    assert handler400(page, denied)["Content-Type"].startswith("text/html")
