"""Simultaneous requests on PostgreSQL: the game row's lock lets exactly one move through."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

import engine.indulgence as rules
from games import compiled, selectors, services
from games.models import IdempotencyRecord, Move
from games.services import steps
from tests.api.support import game_url, three_player_game
from tests.helpers import wait_until_a_request_waits_for_a_lock

THREADS = 8


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_accepts_exactly_one_of_eight_simultaneous_identical_moves(
    owner: Any, opponent: Any, third: Any
) -> None:
    game = three_player_game(owner, opponent, third)
    assert game.to_act_seat is not None
    actor = [owner, opponent, third][game.to_act_seat]
    _token, raw = services.token_issue(user=actor)
    view = selectors.game_view(game=game, user=actor)
    body = {"action": view["legal_actions"][0], "version": game.version}
    start = threading.Barrier(THREADS)
    answers: list[tuple[int, str | None]] = []

    def submit() -> None:
        try:
            client = APIClient(HTTP_AUTHORIZATION=f"Bearer {raw}")
            start.wait(timeout=10)
            response = client.post(game_url(game, "actions"), body, format="json")
            answers.append((response.status_code, response.json().get("code")))
        finally:
            connections.close_all()  # this thread's connection, before the test DB is flushed

    threads = [threading.Thread(target=submit) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(answers, key=lambda answer: answer[0]) == [(200, None)] + [
        (409, "version_conflict")
    ] * (THREADS - 1)
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == body["version"] + 1


def _first_ruler(seed: str) -> int:
    return rules.new_game(3, "basic", seed).first_ruler


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_refuses_one_idempotency_key_sent_for_two_games_at_once(
    owner: Any, opponent: Any, third: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games where the same player is to act; the same key is sent for both at once.
    seed_b = next(
        f"race-{n}" for n in range(100) if _first_ruler(f"race-{n}") == _first_ruler("race")
    )
    game_a = three_player_game(owner, opponent, third, seed="race")
    game_b = three_player_game(owner, opponent, third, seed=seed_b)
    assert game_a.to_act_seat is not None
    assert game_a.to_act_seat == game_b.to_act_seat
    actor = [owner, opponent, third][game_a.to_act_seat]
    _token, raw = services.token_issue(user=actor)

    # Hold game A's transaction open after its idempotency record is written (with the
    # rest of the move's writes, in one batch: games.compiled.batched), until game B's
    # request waits on that record's unique key.
    inserted, release = threading.Event(), threading.Event()
    flush = compiled.WriteBatch.flush

    def paused(batch: compiled.WriteBatch) -> None:
        records_a = [
            item.obj
            for item in batch.items
            if isinstance(item.obj, IdempotencyRecord) and item.obj.game_id == game_a.pk
        ]
        flush(batch)
        if records_a:
            assert records_a[0].pk is not None  # written, not yet committed
            inserted.set()
            release.wait(timeout=20)

    monkeypatch.setattr(compiled.WriteBatch, "flush", paused)
    answers: dict[str, tuple[int, Any]] = {}

    def submit(name: str, game: Any) -> None:
        try:
            client = APIClient(HTTP_AUTHORIZATION=f"Bearer {raw}", raise_request_exception=False)
            action = selectors.game_view(game=game, user=actor)["legal_actions"][0]
            response = client.post(
                game_url(game, "actions"),
                {"action": action},
                format="json",
                HTTP_IDEMPOTENCY_KEY="same-key",
            )
            answers[name] = (response.status_code, response.json().get("code"))
        finally:
            connections.close_all()

    first = threading.Thread(target=submit, args=("a", game_a))
    first.start()
    assert inserted.wait(timeout=20)
    second = threading.Thread(target=submit, args=("b", game_b))
    second.start()
    wait_until_a_request_waits_for_a_lock()  # B, for A's uncommitted record
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)

    assert answers["a"] == (200, None)
    assert answers["b"] == (422, "idempotency_key_reused")
    assert Move.objects.filter(game=game_b).count() == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_retry_that_arrives_while_the_first_request_holds_the_game_gets_its_answer(
    owner: Any, opponent: Any, third: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client whose first POST timed out retries with the same Idempotency-Key while the
    first is still inside its transaction: the retry waits for the game's lock, then is
    answered with the first request's result (replayed), not a 409 and not a second move.
    (The retry's locking query started before the first committed, so it cannot see the
    first's record; the service looks again once refused.)"""
    game = three_player_game(owner, opponent, third)
    assert game.to_act_seat is not None
    actor = [owner, opponent, third][game.to_act_seat]
    _token, raw = services.token_issue(user=actor)
    view = selectors.game_view(game=game, user=actor)
    body = {"action": view["legal_actions"][0], "version": game.version}

    inserted, release = threading.Event(), threading.Event()
    schedule = steps.schedule_next_step

    def paused(*args: Any, **kwargs: Any) -> Any:
        if not inserted.is_set():
            inserted.set()
            release.wait(timeout=20)
        return schedule(*args, **kwargs)

    monkeypatch.setattr(steps, "schedule_next_step", paused)
    answers: dict[str, Any] = {}

    def submit(name: str) -> None:
        try:
            client = APIClient(HTTP_AUTHORIZATION=f"Bearer {raw}", raise_request_exception=False)
            response = client.post(
                game_url(game, "actions"), body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1"
            )
            answers[name] = response
        finally:
            connections.close_all()

    first = threading.Thread(target=submit, args=("first",))
    first.start()
    assert inserted.wait(timeout=20)
    retry = threading.Thread(target=submit, args=("retry",))
    retry.start()
    wait_until_a_request_waits_for_a_lock()  # the retry, for the game's lock
    release.set()
    first.join(timeout=30)
    retry.join(timeout=30)

    assert answers["first"].status_code == 200
    assert answers["retry"].status_code == 200, answers["retry"].json()
    assert answers["retry"]["Idempotent-Replayed"] == "true"
    assert answers["retry"].json() == answers["first"].json()
    assert Move.objects.filter(game=game).count() == 1
