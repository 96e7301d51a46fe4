"""The cast of the web tests: an owner, an opponent, a third player and an outsider."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Game
from tests.helpers import game_with_seed


@pytest.fixture
def make_user(db: None) -> Any:
    def make(username: str, **extra: Any) -> Any:
        user = get_user_model().objects.create_user(username=username, password="pw", **extra)
        services.player_ensure(user=user)
        return user

    return make


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: Any) -> Client:
    return client_for(owner)


@pytest.fixture
def three_humans(owner: Any, opponent: Any, third: Any) -> Game:
    """A started 3-player unrated game with a fixed seed: owner, opponent, third."""
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="web-test")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


@pytest.fixture
def bot_game(owner: Any) -> Game:
    """A started 4-player unrated game: owner against three random bots."""
    game = services.game_create(
        creator=owner,
        player_count=4,
        rated=False,
        seed="web-bots",
        bots=[(1, "random"), (2, "random"), (3, "random")],
    )
    game.refresh_from_db()
    return game


@pytest.fixture(scope="session", autouse=True)
def compiled_translations() -> None:
    """The .mo files are build products: compile them (polib) before any page renders."""
    compile_translations_once()


def compile_translations_once() -> None:
    from django.core.management import call_command
    from django.utils.translation import trans_real

    call_command("compile_translations", verbosity=0)
    trans_real._translations = {}  # forget catalogues loaded before the .mo existed
    trans_real._default = None
