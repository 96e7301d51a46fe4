"""Celery tasks: thin, idempotent wrappers around services, queued only after commit.

With a broker (REDIS_URL), workers run them. Without one (the embedded default), the
tasks run in the process that committed, right after the commit, one after another: a
game of four bots is a loop here, not a recursion.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from celery import Task, shared_task
from celery.exceptions import Retry
from celery.signals import task_prerun
from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from games import compiled, services

_eager = threading.local()
logger = logging.getLogger(__name__)

RETRY_POLICY: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


# Tasks that talk to the outside world (receivers, mail servers) wait in their own queue,
# consumed by their own worker in production (compose.yaml "notify-worker"), so that a
# slow receiver never delays a bot turn or a settlement.
NOTIFY_TASKS = frozenset(
    {
        "games.webhook_deliver",
        "games.notification_email",
        "games.password_reset_email",
        "games.email_confirmation_email",
    }
)


def notify_queue() -> str:
    """The queue of NOTIFY_TASKS: CELERY_NOTIFY_QUEUE, by default the default queue's name
    followed by ``-notify`` (read when a task is sent, so a test that moves the default
    queue moves this one too)."""
    from celery import current_app

    return settings.TASK_NOTIFY_QUEUE or f"{current_app.conf.task_default_queue}-notify"


def route_task(
    name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **_: Any
) -> dict[str, str] | None:
    """Celery's ``task_routes`` (settings): NOTIFY_TASKS to :func:`notify_queue`, the
    rest to the default queue."""
    if name in NOTIFY_TASKS:
        return {"queue": notify_queue()}
    return None


@shared_task(name="games.bot_turn", bind=True, **RETRY_POLICY)
def bot_turn(self: Task, game_id: int, expected_version: int) -> bool:
    """Play the bot's move if the game is still at ``expected_version`` (else no-op)."""
    played = services.bot_turn_play(game_id=game_id, expected_version=expected_version)
    if not played and _redelivered(self):
        _next_step_kick(game_id)
    return played


@shared_task(name="games.hand_settle", bind=True, **RETRY_POLICY)
def hand_settle(self: Task, game_id: int, hand_number: int) -> bool:
    """Settle ``hand_number`` and deal the next hand; a repeat finds nothing to do."""
    settled = services.hand_settle(game_id=game_id, hand_number=hand_number)
    if not settled and _redelivered(self):
        _next_step_kick(game_id)
    return settled


def _redelivered(task: Task) -> bool:
    delivery_info = getattr(task.request, "delivery_info", None) or {}
    return bool(delivery_info.get("redelivered"))


def _next_step_kick(game_id: int) -> None:
    """A redelivered step that was already done: the worker that died holding it may have
    committed it without queueing the next step, so queue that (a spare is harmless)."""
    from games import deadlines

    with transaction.atomic():
        if deadlines.next_step_kick(game_id=game_id):
            logger.warning("redelivered step of game %s was done; next step queued", game_id)


@task_prerun.connect
def _log_redelivery(task_id: str, task: Task, **kwargs: Any) -> None:
    """Say so when a task runs again after Redis redelivered it (acks_late: a worker died
    holding it, and CELERY_VISIBILITY_TIMEOUT passed); it is idempotent, so this is safe."""
    if _redelivered(task):
        logger.warning(
            "redelivered task runs again: %s[%s] %r", task.name, task_id, kwargs.get("args")
        )


def enqueue_on_commit(task: Task, *args: Any) -> None:
    """Queue ``task(*args)`` once the current transaction commits (never before). An
    argument may be a :class:`games.compiled.Ref`: the key of an object still waiting in a
    write batch, read when the task is sent."""

    def send() -> None:
        values = tuple(arg.value() if isinstance(arg, compiled.Ref) else arg for arg in args)
        if settings.CELERY_TASK_ALWAYS_EAGER:
            _run_eagerly(task, values)
        else:
            try:
                task.apply_async(args=values)
            except BrokerUnavailable as exc:
                # The change is committed: failing the request now would tell the client
                # it was not. Bot turns and settlements are queued again by the deadline
                # sweep (deadlines.stalled_games_kick, after STALLED_GAME_SECONDS).
                logger.warning("could not queue %s%r: broker unavailable: %s", task.name, args, exc)

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


# --- play by notification (issue 5) ------------------------------------------------------


@shared_task(name="games.deadlines_sweep", **RETRY_POLICY)
def deadlines_sweep() -> dict[str, int]:
    """Celery beat runs this every DEADLINE_SWEEP_SECONDS (``manage.py sweep_deadlines``
    does the same without beat)."""
    from games import deadlines

    return deadlines.sweep().as_dict()


@shared_task(name="games.notification_email", **RETRY_POLICY)
def notification_email(notification_id: int) -> str | None:
    """One attempt at a notification's email, claimed once (a repeat finds nothing to do).

    A failed send is retried by a fresh message after the backoff (the attempt count lives
    in the row, which marks the email failed after the last one; the sweep re-queues due
    emails should that message be lost)."""
    from games import notifications
    from games.models import EmailStatus, Notification

    status = notifications.notification_email_send(notification_id=notification_id)
    if status == EmailStatus.PENDING and not settings.CELERY_TASK_ALWAYS_EAGER:
        due = Notification.objects.get(pk=notification_id).email_due_at or timezone.now()
        countdown = max((due - timezone.now()).total_seconds(), 0)
        notification_email.apply_async(args=(notification_id,), countdown=countdown)
    return status


@shared_task(name="games.webhook_deliver", **RETRY_POLICY)
def webhook_deliver(delivery_id: int) -> str | None:
    """One signed attempt at a webhook delivery; a failure is retried after backoff."""
    from games import webhooks

    status = webhooks.delivery_attempt(delivery_id=delivery_id)
    if status == "retrying" and not settings.CELERY_TASK_ALWAYS_EAGER:
        # A fresh message (not self.retry): the attempt count lives in the row, and the
        # deadline sweep re-queues due retries should this message be lost.
        delivery = webhooks.WebhookDelivery.objects.get(pk=delivery_id)
        countdown = max((delivery.next_attempt_at - timezone.now()).total_seconds(), 0)
        webhook_deliver.apply_async(args=(delivery_id,), countdown=countdown)
    return status


@shared_task(
    name="games.password_reset_email",
    **{**RETRY_POLICY, "autoretry_for": (OperationalError, OSError)},  # SMTP errors too
)
def password_reset_email(
    user_id: int, email: str, domain: str, site_name: str, use_https: bool
) -> bool:
    """Send a password-reset email (queued by the reset form, games.mail_limits)."""
    from games import mail_limits

    return mail_limits.password_reset_send(
        user_id=user_id, email=email, domain=domain, site_name=site_name, use_https=use_https
    )


@shared_task(
    name="games.email_confirmation_email",
    **{**RETRY_POLICY, "autoretry_for": (OperationalError, OSError)},  # SMTP errors too
)
def email_confirmation_email(user_id: int, address: str, base_url: str) -> bool:
    """Send the message that confirms an address (games.email_addresses); the task makes
    the link itself, so no token travels through the broker."""
    from games import email_addresses

    return email_addresses.confirmation_send(user_id=user_id, address=address, base_url=base_url)
