"""Concurrent streams are limited per client address and per account: beyond the limit
the answer is 429 with a JSON error and ``Retry-After``; a client that hangs up gives its
place back. The real stream server (uvicorn, production settings, counted in Redis), behind
a trusted proxy (127.0.0.1) that names the clients in ``X-Forwarded-For``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.test import Client as DjangoClient
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from tests.procs import Uvicorn, wait_until
from tests.proof.stream_server import Stream, stream_server, three_player_game
from tests.streams.conftest import users

__all__ = ["users"]

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PER_ADDRESS = 3
PER_ACCOUNT = 2


@pytest.fixture
def server(transactional_db: None, tmp_path: Path, settings: SettingsWrapper) -> Iterator[Uvicorn]:
    started = stream_server(
        tmp_path,
        settings,
        STREAM_MAX_PER_ADDRESS=str(PER_ADDRESS),
        STREAM_MAX_PER_ACCOUNT=str(PER_ACCOUNT),
        TRUSTED_PROXIES="127.0.0.1",
        STREAM_KEEPALIVE_SECONDS="1",
        STREAM_MAX_SECONDS="60",
    )
    yield started
    started.kill()


def _refused(stream: Stream) -> dict[str, Any]:
    assert stream.next("status", 5) == 429
    stream.until_end(5)
    data: dict[str, Any] = json.loads(stream.body)
    return data


def test_streams_beyond_the_limits_are_refused_with_429_and_places_come_back(
    users: list[Any], server: Uvicorn
) -> None:
    game = three_player_game(users)
    _, raw = services.token_issue(user=users[0], scopes=["read"])
    game_url = f"{server.url}/api/v1/games/{game.pk}/stream"
    client = {"X-Forwarded-For": "198.51.100.1"}
    player = {**client, "Authorization": f"Bearer {raw}"}
    opened: list[Stream] = []

    def open_stream(url: str, headers: dict[str, str]) -> Stream:
        stream = Stream(url, headers)
        opened.append(stream)
        return stream

    try:
        # Per account: the player's third stream is refused (account and game streams alike).
        for url in (f"{server.url}/api/v1/stream", game_url):
            assert open_stream(url, player).next("status", 5) == 200
        refused = open_stream(f"{server.url}/api/v1/stream", player)
        error = _refused(refused)
        assert error["code"] == "too_many_streams", error
        assert str(PER_ACCOUNT) in error["detail"]
        assert refused.status == 429
        # Per address: a spectator from the same address takes the third place, the
        # fourth stream from there is refused, with a Retry-After.
        spectator = open_stream(game_url, client)
        assert spectator.next("status", 5) == 200
        spectator.next("id", 5)
        with_retry = Stream(game_url, client)
        opened.append(with_retry)
        assert _refused(with_retry)["code"] == "too_many_streams"
        # Another client behind the same proxy is counted apart.
        other = open_stream(game_url, {"X-Forwarded-For": "198.51.100.2"})
        assert other.next("status", 5) == 200

        # Hanging up gives the place back.
        spectator.close()

        def admitted() -> bool:
            stream = open_stream(game_url, client)
            return bool(stream.next("status", 5) == 200)

        wait_until(admitted, timeout=10, what="the hung-up stream's place", every=0.5)
    finally:
        for stream in opened:
            stream.close()


def test_the_refusal_carries_retry_after(users: list[Any], server: Uvicorn) -> None:
    game = three_player_game(users)
    url = f"{server.url}/api/v1/games/{game.pk}/stream"
    client = {"X-Forwarded-For": "198.51.100.9"}
    streams = [Stream(url, client) for _ in range(PER_ADDRESS)]
    try:
        for stream in streams:
            assert stream.next("status", 5) == 200
        with httpx.Client(timeout=5) as http:
            response = http.get(url, headers=client)
        assert response.status_code == 429
        assert response.headers["Content-Type"].startswith("application/json")
        assert 1 <= int(response.headers["Retry-After"]) <= 60
        assert response.json()["code"] == "too_many_streams"
    finally:
        for stream in streams:
            stream.close()


@pytest.mark.django_db
def test_without_redis_the_limits_hold_in_each_process(
    users: list[Any], settings: SettingsWrapper
) -> None:
    """The embedded default (no REDIS_URL, WSGI): slots are counted in the process."""
    settings.REDIS_URL = ""
    settings.STREAM_MAX_PER_ADDRESS = 2
    settings.STREAM_MAX_SECONDS = 0.3
    settings.STREAM_POLL_SECONDS = 0.05
    game = three_player_game(users)
    url = f"/api/v1/games/{game.pk}/stream"
    client = DjangoClient(REMOTE_ADDR="192.0.2.5")
    first, second = client.get(url), client.get(url)
    assert (first.status_code, second.status_code) == (200, 200)
    refused = client.get(url)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_streams"
    assert refused["Retry-After"]
    assert DjangoClient(REMOTE_ADDR="192.0.2.6").get(url).status_code == 200
    b"".join(first.streaming_content)  # this stream ends: its place comes back
    again = client.get(url)
    assert again.status_code == 200
    for response in (second, again):
        b"".join(response.streaming_content)
