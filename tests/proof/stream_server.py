"""The stream server as production runs it, for the stream proof tests: uvicorn serving
``indulgence_site.asgi`` with production settings and psycopg's pool (``DB_POOL=1``), on
a free loopback port, against the test database; and an SSE reader that reports each
message, the end of the stream, and how long things took."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import Game
from tests.procs import Uvicorn


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


class Stream:
    """One SSE connection read in a thread: ("status", code), ("id", n) for a data-less
    id block, ("message", (id, data)), ("comment", line), ("end", None), ("error", text)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.items: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.status: int | None = None
        self.body = b""
        self._client = httpx.Client(timeout=httpx.Timeout(60, connect=5))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(url, headers or {}), daemon=True)
        self._thread.start()

    def _run(self, url: str, headers: dict[str, str]) -> None:
        try:
            with self._client.stream("GET", url, headers=headers) as response:
                self.status = response.status_code
                self.items.put(("status", response.status_code))
                if response.status_code != 200:
                    self.body = response.read()
                    self.items.put(("end", None))
                    return
                event_id: int | None = None
                data: str | None = None
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line.startswith(":"):
                        self.items.put(("comment", line))
                    elif line == "":
                        if data is not None:
                            self.items.put(("message", (event_id, json.loads(data))))
                        elif event_id is not None:
                            self.items.put(("id", event_id))
                        event_id, data = None, None
                self.items.put(("end", None))
        except httpx.HTTPError as exc:
            if not self._stop.is_set():
                self.items.put(("error", repr(exc)))

    def next(self, kind: str, timeout: float) -> Any:
        """The next item of ``kind`` (others are skipped); fails after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                got, value = self.items.get(timeout=left)
            except queue.Empty:
                break
            assert got != "error", value
            if got == kind:
                return value
            assert got != "end", f"the stream ended while waiting for {kind}"
        raise AssertionError(f"no {kind} within {timeout} s")

    def until_end(self, timeout: float) -> list[tuple[str, Any]]:
        """Everything read until the stream ends; fails if it is still open after
        ``timeout`` s."""
        seen: list[tuple[str, Any]] = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                got, value = self.items.get(timeout=left)
            except queue.Empty:
                break
            if got == "end":
                return seen
            seen.append((got, value))
        raise AssertionError(f"the stream was still open after {timeout} s: read {seen}")

    def close(self) -> None:
        self._stop.set()
        self._client.close()
        self._thread.join(timeout=5)


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
