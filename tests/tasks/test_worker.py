"""Bot turns and settlements through Redis and a real Celery worker process."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import transaction

from games import deadlines, selectors, services, tasks
from games.models import Game, GameStatus, HandSettlement, Move, Seat
from tests.procs import QUEUE, Worker, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GAME_TIMEOUT = 90.0


def four_bot_game(seed: str) -> Game:
    """A game whose four seats are all played by the random bot.

    A game needs a creator in seat 0; here it is the random bot's own account, and seat 0
    is marked as played by that bot in the same transaction (the first step is queued
    after commit, like every step)."""
    creator = services.bot_player(kind="random").user
    with transaction.atomic():
        game = services.game_create(
            creator=creator,
            player_count=4,
            bots=[(1, "random"), (2, "random"), (3, "random")],
            rated=False,
            seed=seed,
        )
        Seat.objects.filter(game=game, number=0).update(bot_kind="random")
        if game.to_act_seat == 0:
            tasks.enqueue_on_commit(tasks.bot_turn, game.pk, game.version)
    return game


def wait_finished(game: Game, *, sweep: bool = False) -> Game:
    def finished() -> bool:
        if sweep:
            deadlines.sweep()
        game.refresh_from_db()
        return game.status == GameStatus.FINISHED

    wait_until(finished, timeout=GAME_TIMEOUT, what=f"game {game.pk} to finish", every=0.25)
    return game


def assert_played_once(game: Game) -> None:
    """Every hand settled exactly once, the move log contiguous, the record consistent."""
    export = selectors.game_export(game=game)
    assert selectors.record_verify(export) == []
    seqs = list(
        Move.objects.filter(game=game, archived_at=None)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
    assert game.move_count == len(seqs)
    hands = [
        hand
        for hand in HandSettlement.objects.filter(game=game, archived_at=None).values_list(
            "hand_number", flat=True
        )
    ]
    assert sorted(hands) == list(range(1, len(export["hands"]) + 1))
    advances = Move.objects.filter(game=game, archived_at=None, action__type="advance").count()
    assert advances == len(hands)


def test_it_plays_a_game_of_four_bots_to_the_end(start_worker: Callable[..., Worker]) -> None:
    start_worker()
    game = four_bot_game("worker-four-bots")
    wait_finished(game)
    assert_played_once(game)
    assert game.result is not None


def test_it_finishes_the_game_after_the_worker_is_killed_mid_game(
    start_worker: Callable[..., Worker], settings: Any
) -> None:
    settings.STALLED_GAME_SECONDS = 1.0
    first = start_worker()
    game = four_bot_game("worker-sigkill")
    wait_until(
        lambda: Game.objects.get(pk=game.pk).move_count >= 40,
        timeout=GAME_TIMEOUT,
        what="the bots to play 40 moves",
    )
    first.kill()  # SIGKILL to the worker and its pool processes, mid-game
    stopped_at = Game.objects.get(pk=game.pk).move_count
    time.sleep(0.5)
    assert Game.objects.get(pk=game.pk).move_count == stopped_at  # nobody is playing
    start_worker()
    # The sweep re-queues the step whose message died with the worker.
    wait_finished(game, sweep=True)
    assert game.move_count > stopped_at
    assert_played_once(game)


def _unacked_here() -> int:
    """Messages of this session's queue that a worker took but never acknowledged."""
    client = redis.Redis.from_url(settings.TEST_REDIS_URL)
    try:
        return sum(json.loads(raw)[2] == QUEUE for raw in client.hvals("unacked"))
    finally:
        client.close()


def test_redis_redelivers_the_task_a_killed_worker_held(
    start_worker: Callable[..., Worker], settings: Any
) -> None:
    """With a short CELERY_VISIBILITY_TIMEOUT the task the killed worker was running comes
    back from Redis itself (acks_late): no sweep runs here, the game still finishes, every
    hand settled once and no move twice."""
    settings.STALLED_GAME_SECONDS = 3600.0  # the sweep would not kick; and it is not run
    env = {"CELERY_VISIBILITY_TIMEOUT": "2", "LOG_LEVEL": "WARNING"}
    game = four_bot_game("worker-redelivery")
    for _attempt in range(8):
        worker = start_worker(**env)
        target = Game.objects.get(pk=game.pk).move_count + 15
        wait_until(
            lambda target=target: (
                Game.objects.get(pk=game.pk).move_count >= target
                or Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
            ),
            timeout=GAME_TIMEOUT,
            what="the bots to play on",
        )
        assert Game.objects.get(pk=game.pk).status != GameStatus.FINISHED, "no kill landed"
        worker.kill()  # SIGKILL, most likely while it holds a task
        if _unacked_here():
            break
        # It died between two tasks: the next one waits in the queue; try again.
    else:
        raise AssertionError("no kill caught a task in hand in 8 attempts")
    stopped_at = Game.objects.get(pk=game.pk).move_count
    time.sleep(2.5)  # past the visibility timeout: the held message may be restored
    restarted = start_worker(**env)
    wait_finished(game)  # no sweep
    assert game.move_count > stopped_at
    assert_played_once(game)
    assert "redelivered task runs again" in restarted.log.read_text()
