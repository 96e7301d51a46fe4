"""The stream server as production runs it, for the stream proof tests: uvicorn serving
``indulgence_site.asgi`` with production settings and psycopg's pool (``DB_POOL=1``), on
a free loopback port, against the test database; clients that hang up; and the tests'
SSE reader (tests/sse_client.py)."""

from __future__ import annotations

import socket
import time
import uuid
from pathlib import Path
from typing import Any

from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import Game
from tests.procs import Uvicorn
from tests.sse_client import Stream

__all__ = ["Stream", "abandoned_requests", "stream_server", "three_player_game"]


def three_player_game(users: list[Any]) -> Game:
    """A basic game of the three users, in progress (seat 0 created it)."""
    owner, opponent, third = users
    game = services.game_create(creator=owner, player_count=3, variant="basic", rated=False)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def stream_server(
    tmp_path: Path, settings: SettingsWrapper, *, redis_url: str | None = None, **env: str
) -> Uvicorn:
    """Start uvicorn in production mode. This test process publishes its wake-ups on the
    same Redis and channel prefix (a fresh prefix: nothing left over from other runs)."""
    prefix = f"proof-{uuid.uuid4().hex[:10]}"
    settings.REDIS_URL = redis_url or settings.TEST_REDIS_URL
    settings.EVENTS_CHANNEL_PREFIX = prefix
    return Uvicorn(
        tmp_path,
        DJANGO_ENV="production",
        SECRET_KEY=settings.SECRET_KEY,  # the sessions this process logs in are signed with it
        SECURE_COOKIES="false",
        DEBUG="false",
        REDIS_URL=settings.REDIS_URL,
        EVENTS_CHANNEL_PREFIX=prefix,
        **env,
    )


def abandoned_requests(port: int, path: str, count: int, *, linger: float = 0.3) -> None:
    """``count`` clients send a stream request and hang up without waiting for the answer
    (the connection closes while the server may still be waiting for a database
    connection for it)."""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(request)
            sockets.append(sock)
        time.sleep(linger)
    finally:
        for sock in sockets:
            sock.close()
