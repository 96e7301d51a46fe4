"""A task delivered more than once changes nothing: live duplicates on a real worker.

Redis with ``acks_late`` delivers at least once: a worker that dies after its commit but
before its acknowledgement gets the task again, and two workers may hold copies at the
same moment. Here every task the test process queues is sent three times, to a worker
running two processes (so copies race each other), while the tasks are still due: the
bot turn for the version just reached, the settlement of the hand just finished, the
webhook delivery just created. The game must come out move for move the same as the
same game played with each task run once, every hand settled once, and the receiver
must get one POST.

What protects it: bot turns check the version under the game's row lock (and the engine
refuses a move by a seat not to act); a settlement is claimed by its unique
``HandSettlement`` row under the same lock; a webhook attempt is claimed by a conditional
UPDATE (pending -> sending) that exactly one caller wins.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from games import jobs, selectors, services
from games.models import DeliveryStatus, Game, GameStatus, HandSettlement, Move, WebhookDelivery
from tests.helpers import snapshot_mismatches
from tests.procs import QUEUE, Worker, wait_until
from tests.tasks.test_webhooks import Receiver, register, your_turn

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

COPIES = 3
OWNER_MOVES = 40


@pytest.fixture
def every_task_thrice(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Queue every task this process sends ``COPIES`` times (after the same commit)."""
    sent: list[str] = []
    original = jobs.enqueue_on_commit

    def thrice(name: str, *args: Any) -> None:
        sent.append(name)
        for _ in range(COPIES):
            original(name, *args)

    monkeypatch.setattr(jobs, "enqueue_on_commit", thrice)
    return sent


def _queue_empty() -> bool:
    from indulgence_site.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client  # the game queue and the notify queue
        return int(client.llen(QUEUE)) + int(client.llen(f"{QUEUE}-notify")) == 0


def _play(
    owner: Any, game_id: int, *, settle_wait: Callable[[Game], None]
) -> list[tuple[Any, ...]]:
    """The owner plays the first legal action OWNER_MOVES times; bots play the rest."""
    for _ in range(OWNER_MOVES):
        game = Game.objects.get(pk=game_id)
        settle_wait(game)
        game.refresh_from_db()
        if game.status != GameStatus.IN_PROGRESS:
            break
        view = selectors.game_view(game=game, user=owner)
        services.action_submit(
            game_id=game_id,
            user=owner,
            action=view["legal_actions"][0],
            expected_version=view["version"],
        )
    settle_wait(Game.objects.get(pk=game_id))
    return list(
        Move.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "seat", "action", "actor_kind", "bot_name")
    )


def test_duplicated_bot_turns_and_settlements_change_nothing(
    users: list[Any],
    start_worker: Callable[..., Worker],
    every_task_thrice: list[str],
) -> None:
    owner = users[0]
    start_worker(concurrency=2)

    def owner_to_act_or_over(game: Game) -> None:
        def ready() -> bool:
            game.refresh_from_db()
            return game.status != GameStatus.IN_PROGRESS or game.to_act_seat == 0

        wait_until(ready, timeout=60, what="the bots and the settlement to reach the owner")

    live = services.game_create(
        creator=owner,
        player_count=3,
        rated=False,
        seed="dup",
        bots=[(1, "random"), (2, "heuristic")],
    )
    moves = _play(owner, live.pk, settle_wait=owner_to_act_or_over)
    wait_until(_queue_empty, timeout=30, what="the worker to take every copy")
    time.sleep(1.5)  # the last copies taken may still be running: let them (not) write
    live.refresh_from_db()
    after = list(
        Move.objects.filter(game=live)
        .order_by("seq")
        .values_list("seq", "seat", "action", "actor_kind", "bot_name")
    )
    assert after == moves, "a late copy of a task changed the game"
    # The copies were live: the test process queued bot turns and settlements itself.
    assert {"games.bot_turn", "games.hand_settle"} <= set(every_task_thrice)
    settled = list(HandSettlement.objects.filter(game=live).values_list("hand_number", flat=True))
    advances = [m for m in moves if m[2] == {"type": "advance"}]
    assert settled
    assert sorted(settled) == list(range(1, len(settled) + 1))
    assert len(advances) == len(settled)  # one settlement move per hand, no more

    # The same game, each task run once, in this process (the embedded mode).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    try:
        reference_game = services.game_create(
            creator=users[1],
            player_count=3,
            rated=False,
            seed="dup",
            bots=[(1, "random"), (2, "heuristic")],
        )
        reference = _play(users[1], reference_game.pk, settle_wait=lambda game: None)
    finally:
        settings.CELERY_TASK_ALWAYS_EAGER = False
    assert [m[1:] for m in moves] == [m[1:] for m in reference]
    assert not snapshot_mismatches()


def test_a_duplicated_webhook_delivery_is_posted_once(
    users: list[Any], start_worker: Callable[..., Worker], every_task_thrice: list[str]
) -> None:
    receiver = Receiver(failures=0)
    try:
        owner = users[0]
        register(owner, receiver.url)
        start_worker(concurrency=2)
        your_turn(owner)  # creates the delivery and queues it (three copies)
        assert every_task_thrice.count("games.webhook_deliver") == 1

        def delivered() -> bool:
            return WebhookDelivery.objects.filter(status=DeliveryStatus.SUCCEEDED).exists()

        wait_until(delivered, timeout=30, what="the delivery")
        wait_until(_queue_empty, timeout=30, what="the worker to take every copy")
        time.sleep(1.5)  # the last copies taken may still be running
        assert len(receiver.requests) == 1
        assert WebhookDelivery.objects.get().attempts == 1
    finally:
        receiver.close()
