"""The cast of the API tests and their HTTP clients.

owner (seat 0, creates the games), opponent (seat 1), third (seat 2), outsider (no seat),
staff (no seat, ``is_staff``) and anonymous (no credentials). Players call with bearer
tokens (``bearer``), the web site's users with a session (``session``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games import services
from games.models import Game
from tests.api.support import Client, three_player_game

Bearer = Callable[..., Client]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Throttle counters live in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def bearer(db: None) -> Bearer:
    """A client sending ``Authorization: Bearer <a new token of user>``."""

    def make(user: Any, scopes: tuple[str, ...] = ("read", "play")) -> Client:
        _token, raw = services.token_issue(user=user, name="test", scopes=scopes)
        client = Client()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
        client.token = raw
        return client

    return make


@pytest.fixture
def session(db: None) -> Callable[[Any], APIClient]:
    """A client logged in to the web site as ``user`` (CSRF not enforced: see test_auth)."""

    def make(user: Any) -> APIClient:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def anonymous() -> Client:
    return Client()


@pytest.fixture
def game(owner: Any, opponent: Any, third: Any) -> Game:
    """A 3-player unrated game in progress: owner seat 0, opponent 1, third 2."""
    return three_player_game(owner, opponent, third)
