"""The web pages' writes are rate limited: 429 with Retry-After and a sentence."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import Game
from tests.helpers import game_with_seed

pytestmark = pytest.mark.django_db


def _limits(settings: SettingsWrapper, **rates: str) -> None:
    settings.WEB_RATE_LIMITS = {**settings.WEB_RATE_LIMITS, **rates}


def test_signups_beyond_the_limit_are_refused_with_429(settings: SettingsWrapper) -> None:
    _limits(settings, signup="2/hour")
    for n in range(2):
        response = Client().post(
            "/accounts/signup/",
            {
                "username": f"new{n}",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
                "language": "en",
            },
        )
        assert response.status_code == 302, response.content[:300]
    refused = Client().post(
        "/accounts/signup/",
        {
            "username": "new2",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "language": "en",
        },
    )
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert "Too many requests" in refused.content.decode()
    # Reading the form is never counted.
    assert Client().get("/accounts/signup/").status_code == 200


def test_login_attempts_are_limited_per_address_and_username(
    settings: SettingsWrapper, owner: Any
) -> None:
    _limits(settings, login="3/min")
    client = Client()
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "owner", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    refused = client.post("/accounts/login/", {"username": "owner", "password": "pw"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    # Another username from the same address is counted apart.
    other = client.post("/accounts/login/", {"username": "opponent", "password": "wrong"})
    assert other.status_code == 200


def test_game_creation_and_play_now_share_a_limit(settings: SettingsWrapper, owner: Any) -> None:
    _limits(settings, create="2/min")
    client = Client()
    client.force_login(owner)
    assert client.post("/play-now").status_code == 302
    assert client.post("/games/new", {"player_count": 3, "variant": "basic"}).status_code in {
        200,
        302,
    }
    refused = client.post("/play-now")
    assert refused.status_code == 429
    assert Game.objects.count() == 2


def test_an_htmx_move_beyond_the_limit_gets_a_fragment_and_changes_nothing(
    settings: SettingsWrapper, owner: Any, opponent: Any, third: Any
) -> None:
    _limits(settings, act="1/min")
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="limits")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    players = {0: owner, 1: opponent, 2: third}
    client = Client()
    client.force_login(players[game.to_act_seat])
    garbage = {"action": "{}", "version": str(game.version)}
    assert client.post(f"/games/{game.pk}/act", garbage, HTTP_HX_REQUEST="true").status_code == 400
    refused = client.post(f"/games/{game.pk}/act", garbage, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    body = refused.content.decode()
    assert body.startswith('<p class="error" role="alert">')
    assert "Too many requests" in body
    before = game.version
    game.refresh_from_db()
    assert game.version == before


def test_an_empty_rate_means_no_limit(settings: SettingsWrapper, owner: Any) -> None:
    _limits(settings, create="")
    client = Client()
    client.force_login(owner)
    for _ in range(5):
        assert client.post("/play-now").status_code == 302


def test_display_name_changes_are_limited(settings: SettingsWrapper, owner: Any) -> None:
    _limits(settings, profile="2/min")
    client = Client()
    client.force_login(owner)
    url = f"/players/{owner.username}/"
    for n in range(2):
        assert client.post(url, {"display_name": f"Owner {n}"}).status_code in {200, 302}
    assert client.post(url, {"display_name": "Owner 3"}).status_code == 429
    assert client.get(url).status_code == 200  # reading is never counted
