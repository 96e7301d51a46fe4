"""Queue a Celery task by its name, after the current transaction commits.

The writers (``games.services``, ``games.notifications``, ``games.webhooks``, the mail
senders, the deadline sweep) queue work here by the task's *name*
(``"games.bot_turn"``), so none of them imports :mod:`games.tasks`, which imports them:
the tasks are thin wrappers around the writers, and the writers never import the
wrappers. ``GamesConfig.ready`` imports :mod:`games.tasks`, which registers every task
with the Celery app, in every process (web, worker, management commands).

With a broker (REDIS_URL), workers run the tasks. Without one (the embedded default,
``CELERY_TASK_ALWAYS_EAGER``), they run in the process that committed, right after the
commit, one after another: a game of four bots is a loop here, not a recursion.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from celery import Task, current_app
from celery.exceptions import Retry
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

from games import compiled

logger = logging.getLogger(__name__)
_eager = threading.local()


def task_named(name: str) -> Task:
    """The registered task of that name (``KeyError`` if ``games.tasks`` has none)."""
    task: Task = current_app.tasks[name]
    return task


def enqueue_on_commit(name: str, *args: Any) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits (never
    before). An argument may be a :class:`games.compiled.Ref`: the key of an object still
    waiting in a write batch, read when the task is sent."""

    def send() -> None:
        values = tuple(arg.value() if isinstance(arg, compiled.Ref) else arg for arg in args)
        task = task_named(name)
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _run_eagerly(task, values)
        else:
            try:
                task.apply_async(args=values)
            except BrokerUnavailable as exc:
                # The change is committed: failing the request now would tell the client
                # it was not. Bot turns and settlements are queued again by the deadline
                # sweep (deadlines.stalled_games_kick, after STALLED_GAME_SECONDS).
                logger.warning("could not queue %s%r: broker unavailable: %s", name, args, exc)

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
            try:
                next_task.apply(args=next_args, throw=True)
            except Retry as exc:
                # A transient database error a worker would retry later. The change that
                # queued this step is committed: failing the request now would tell the
                # client it was not. The deadline sweep queues the stalled step again
                # (deadlines.stalled_games_kick, after STALLED_GAME_SECONDS).
                logger.warning("in-process %s%r not done: %s", next_task.name, next_args, exc)
    finally:
        _eager.queue = None
