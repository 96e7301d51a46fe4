"""Open streams do not hold database connections: the real stream server (uvicorn,
production settings, psycopg's pool with DB_POOL_MAX=3) keeps more streams open than its
pool holds, survives clients that hang up while waiting, and still answers a player's
stream at once, during and after the crowd."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import Event, Game
from tests.procs import Uvicorn, wait_until
from tests.proof.stream_server import Stream, abandoned_requests, stream_server, three_player_game
from tests.streams.conftest import users
from tests.streams.test_events import step

__all__ = ["users"]

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

POOL_MAX = 3
CROWD = 3 * POOL_MAX  # spectators kept open: three times what the pool holds
PROMPT = 3.0  # seconds: "at once" for a player (the pool's own timeout is 30 s)


@pytest.fixture
def server(transactional_db: None, tmp_path: Path, settings: SettingsWrapper) -> Iterator[Uvicorn]:
    started = stream_server(
        tmp_path,
        settings,
        DB_POOL_MAX=str(POOL_MAX),
        STREAM_MAX_PER_ADDRESS="500",  # this test is about the pool, not the limits
        STREAM_MAX_PER_ACCOUNT="500",
        STREAM_KEEPALIVE_SECONDS="2",
        STREAM_FALLBACK_POLL_SECONDS="2",
        STREAM_MAX_SECONDS="60",
    )
    yield started
    started.kill()


def _open_player_stream(url: str, raw: str) -> tuple[Stream, float]:
    started = time.monotonic()
    stream = Stream(url, {"Authorization": f"Bearer {raw}"})
    assert stream.next("status", PROMPT) == 200
    stream.next("id", PROMPT)
    return stream, time.monotonic() - started


def test_more_streams_than_the_pool_holds_and_hang_ups_leave_a_player_served_at_once(
    users: list[Any], server: Uvicorn
) -> None:
    game = three_player_game(users)
    rng = random.Random(7)
    _, raw = services.token_issue(user=users[0], scopes=["read"])
    path = f"/api/v1/games/{game.pk}/stream"
    url = server.url + path
    crowd: list[Stream] = []
    player: Stream | None = None
    try:
        for n in range(CROWD):
            spectator = Stream(url)
            crowd.append(spectator)
            assert spectator.next("status", PROMPT) == 200, f"spectator {n + 1}: {spectator.body!r}"
            spectator.next("id", PROMPT)
        # Clients that hang up while their request may still wait for the database.
        abandoned_requests(server.port, path, 40)
        player, answered_in = _open_player_stream(url, raw)
        print(f"\n{CROWD} streams open, pool of {POOL_MAX}: player answered in {answered_in:.2f} s")
        # Every open stream is alive: one move reaches all of them.
        step(game, users, rng)
        latest = Event.objects.filter(game=game).order_by("-id")[0].pk
        for stream in [player, *crowd]:
            event_id, data = stream.next("message", 5)
            assert (event_id, data["type"]) == (latest, "move")
    finally:
        for stream in crowd:
            stream.close()
        if player is not None:
            player.close()

    # A burst of short-lived connections, then nobody: the server answers at once.
    for _ in range(4):
        abandoned_requests(server.port, path, 100, linger=0.05)
    time.sleep(1.0)
    again, answered_in = _open_player_stream(url, raw)
    try:
        print(f"after a burst of 400 hang-ups: player answered in {answered_in:.2f} s")
        game.refresh_from_db()
        step(game, users, rng)
        event_id, _ = again.next("message", 5)
        assert event_id == Event.objects.filter(game=game).order_by("-id")[0].pk
    finally:
        again.close()


def test_requests_abandoned_while_waiting_for_the_pool_give_their_connections_back(
    users: list[Any], server: Uvicorn
) -> None:
    """The database stalls (a table lock), so requests hold every pooled connection and
    more wait for one; all those clients hang up. Once the database moves again, the
    server must answer at once: no connection stays with a request that is gone."""
    game = three_player_game(users)
    _, raw = services.token_issue(user=users[0], scopes=["read"])
    path = f"/api/v1/games/{game.pk}/stream"
    stuck: list[Stream] = []
    with transaction.atomic():
        with connection.cursor() as cursor:  # why: every stream request reads this table
            cursor.execute(f"LOCK TABLE {Game._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        stuck = [Stream(server.url + path) for _ in range(POOL_MAX)]
        wait_until(lambda: _lock_waiters() >= POOL_MAX, timeout=10, what="the pool to fill")
        # They wait for the pool: for streams, and for a game that does not exist.
        abandoned_requests(server.port, path, 30, linger=0.2)
        abandoned_requests(server.port, f"/api/v1/games/{game.pk + 999}/stream", 20, linger=1.0)
        for stream in stuck:
            stream.close()
    time.sleep(1.0)
    player, answered_in = _open_player_stream(server.url + path, raw)
    player.close()
    print(f"\nafter hang-ups while the pool was full: player answered in {answered_in:.2f} s")


def _lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0
