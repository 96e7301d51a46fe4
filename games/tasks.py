"""Celery tasks: thin, idempotent wrappers around services, queued only after commit.

With a broker (REDIS_URL), workers run them. Without one (the embedded default), the
tasks run in the process that committed, right after the commit, one after another: a
game of four bots is a loop here, not a recursion.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError, transaction

from games import services

_eager = threading.local()

RETRY_POLICY: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(name="games.bot_turn", **RETRY_POLICY)
def bot_turn(game_id: int, expected_version: int) -> bool:
    """Play the bot's move if the game is still at ``expected_version`` (else no-op)."""
    return services.bot_turn_play(game_id=game_id, expected_version=expected_version)


@shared_task(name="games.hand_settle", **RETRY_POLICY)
def hand_settle(game_id: int, hand_number: int) -> bool:
    """Settle ``hand_number`` and deal the next hand; a repeat finds nothing to do."""
    return services.hand_settle(game_id=game_id, hand_number=hand_number)


def enqueue_on_commit(task: Task, *args: Any) -> None:
    """Queue ``task(*args)`` once the current transaction commits (never before)."""

    def send() -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _run_eagerly(task, args)
        else:
            task.apply_async(args=args)

    transaction.on_commit(send)


def _run_eagerly(task: Task, args: tuple[Any, ...]) -> None:
    queue: deque[tuple[Task, tuple[Any, ...]]] | None = getattr(_eager, "queue", None)
    if queue is not None:  # a task is already running here: the loop below picks this up
        queue.append((task, args))
        return
    _eager.queue = queue = deque([(task, args)])
    try:
        while queue:
            next_task, next_args = queue.popleft()
            next_task.apply(args=next_args, throw=True)
    finally:
        _eager.queue = None
