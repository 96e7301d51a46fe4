"""The SSE endpoints: format, resume with Last-Event-ID, keep-alive, auth; under WSGI (the
test client, polling) and under ASGI (a real uvicorn process woken by Redis pub/sub)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import events, services
from games.models import Event, Game
from tests.procs import Uvicorn
from tests.sse_client import Stream
from tests.streams.test_events import step, three_player_game


def parse(body: str) -> tuple[list[tuple[int, dict[str, Any]]], list[str], list[int]]:
    """(messages as (id, data), comment lines, data-less ids) of an SSE body."""
    messages, comments, bare_ids = [], [], []
    for block in body.split("\n\n"):
        lines = [line for line in block.split("\n") if line]
        comments += [line for line in lines if line.startswith(":")]
        ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
        data = [line[6:] for line in lines if line.startswith("data: ")]
        assert not any(line.startswith("event:") for line in lines), "no event: field"
        if data:
            assert len(data) == 1
            assert len(ids) == 1
            messages.append((ids[0], json.loads(data[0])))
        elif ids:
            bare_ids += ids
    return messages, comments, bare_ids


def read(client: Client, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/event-stream")
    return b"".join(response.streaming_content).decode()


@pytest.mark.django_db
class TestOverWsgi:
    def test_it_resumes_with_exactly_the_events_after_last_event_id(
        self, users: list[Any], short_streams: None
    ) -> None:
        game = three_player_game(users, seed="resume")
        rng = random.Random(2)
        for _ in range(4):
            step(game, users, rng)
            game.refresh_from_db()
        all_ids = list(Event.objects.filter(game=game).values_list("id", flat=True))
        cut = all_ids[2]
        client = Client()
        client.force_login(users[1])
        body = read(client, f"/api/v1/games/{game.pk}/stream", **{"Last-Event-ID": str(cut)})
        messages, _, bare = parse(body)
        assert bare == [cut]
        assert [i for i, _ in messages] == all_ids[3:]
        expected = [
            events.event_data(e, seat=1) for e in Event.objects.filter(game=game, id__gt=cut)
        ]
        assert [data for _, data in messages] == expected
        for _, data in messages:
            assert {"type", "game", "version"} <= set(data)
            assert data["game"] == game.pk
        again = read(client, f"/api/v1/games/{game.pk}/stream?last_event_id={cut}")
        assert parse(again)[0] == messages

    def test_a_new_connection_starts_at_the_latest_event_and_keeps_alive(
        self, users: list[Any], short_streams: None
    ) -> None:
        game = three_player_game(users, seed="fresh")
        latest = Event.objects.filter(game=game).order_by("-id").first()
        assert latest is not None
        body = read(Client(), f"/api/v1/games/{game.pk}/stream")  # a spectator
        messages, comments, bare = parse(body)
        assert body.startswith("retry: ")
        assert messages == []
        assert bare == [latest.pk]
        assert ": keep-alive" in comments

    def test_the_account_stream_needs_an_account_and_takes_bearer_tokens(
        self, users: list[Any], short_streams: None
    ) -> None:
        owner = users[0]
        response = Client().get("/api/v1/stream")
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
        _, raw = services.token_issue(user=owner, scopes=["read"])
        start = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
        game = three_player_game(users, seed="account")
        body = read(
            Client(),
            "/api/v1/stream",
            Authorization=f"Bearer {raw}",
            **{"Last-Event-ID": str(start)},
        )
        types = [data["type"] for _, data in parse(body)[0]]
        expected = ["player_joined", "player_joined", "game_started"]
        if game.to_act_seat == 0:
            expected.append("your_turn")
        assert types == expected
        _, play_only = services.token_issue(user=owner, scopes=["play"])
        refused = Client().get("/api/v1/stream", headers={"Authorization": f"Bearer {play_only}"})
        assert refused.status_code == 403
        wrong = Client().get("/api/v1/stream", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401

    def test_it_refuses_a_bad_last_event_id_and_an_unknown_game(self, users: list[Any]) -> None:
        game = three_player_game(users, seed="refusals")
        bad = Client().get(f"/api/v1/games/{game.pk}/stream", headers={"Last-Event-ID": "x"})
        assert bad.status_code == 400
        assert bad.json()["code"] == "invalid_request"
        missing = Client().get(f"/api/v1/games/{game.pk + 1000}/stream")
        assert missing.status_code == 404
        assert missing.json()["code"] == "not_found"


@pytest.fixture
def uvicorn(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[Uvicorn]:
    settings.REDIS_URL = settings.TEST_REDIS_URL  # this process publishes the wake-ups
    # The fallback poll is far longer than the test waits: only pub/sub can be that quick.
    server = Uvicorn(
        tmp_path,
        STREAM_KEEPALIVE_SECONDS="1",
        STREAM_FALLBACK_POLL_SECONDS="60",
        STREAM_MAX_SECONDS="30",
    )
    yield server
    server.kill()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_client_that_reconnects_over_asgi_gets_exactly_what_it_missed(
    users: list[Any], uvicorn: Uvicorn
) -> None:
    owner = users[0]
    _, raw = services.token_issue(user=owner, scopes=["read"])
    auth = {"Authorization": f"Bearer {raw}"}
    game: Game = three_player_game(users, seed="asgi")
    rng = random.Random(3)
    url = f"{uvicorn.url}/api/v1/games/{game.pk}/stream"

    first = Stream(url, auth)
    try:
        assert first.next("status", 10) == 200
        assert first.next("id", 10) == Event.objects.filter(game=game).order_by("-id")[0].pk
        step(game, users, rng)
        sent = time.monotonic()
        event_id, data = first.next("message", 5)
        assert time.monotonic() - sent < 2.5  # woken by Redis, not by the 60 s poll
        assert data["type"] == "move"
        assert first.next("comment", 3) == ": keep-alive"
    finally:
        first.close()

    for _ in range(3):  # while the client is away
        game.refresh_from_db()
        step(game, users, rng)
    missed = list(Event.objects.filter(game=game, id__gt=event_id).order_by("id"))
    assert len(missed) >= 3

    second = Stream(url, {**auth, "Last-Event-ID": str(event_id)})
    try:
        assert second.next("status", 10) == 200
        got = [second.next("message", 5) for _ in missed]
        assert got == [(e.pk, events.event_data(e, seat=0)) for e in missed]
        game.refresh_from_db()
        step(game, users, rng)
        live_id, _ = second.next("message", 5)
        assert live_id == Event.objects.filter(game=game).order_by("-id")[0].pk
        assert live_id > missed[-1].pk
    finally:
        second.close()
