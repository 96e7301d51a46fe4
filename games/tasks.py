"""Celery tasks: thin, idempotent wrappers around the writers, queued only after commit.

The writers queue them by name through ``games.jobs`` (never importing this module,
which imports them); ``GamesConfig.ready`` imports this module so that every process has
the tasks registered. With a broker (REDIS_URL), workers run them. Without one (the
embedded default), they run in the process that committed, right after the commit
(``games.jobs``).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.signals import task_prerun
from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone

from games import deadlines, email_addresses, jobs, mail_limits, notifications, services, webhooks
from games.models import EmailStatus, Notification

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
    """Queue ``task(*args)`` once the current transaction commits (``games.jobs``, by the
    task's name)."""
    jobs.enqueue_on_commit(task.name, *args)


# --- play by notification (issue 5) ------------------------------------------------------


@shared_task(name="games.deadlines_sweep", **RETRY_POLICY)
def deadlines_sweep() -> dict[str, int]:
    """Celery beat runs this every DEADLINE_SWEEP_SECONDS (``manage.py sweep_deadlines``
    does the same without beat)."""
    return deadlines.sweep().as_dict()


@shared_task(name="games.notification_email", **RETRY_POLICY)
def notification_email(notification_id: int) -> str | None:
    """One attempt at a notification's email, claimed once (a repeat finds nothing to do).

    A failed send is retried by a fresh message after the backoff (the attempt count lives
    in the row, which marks the email failed after the last one; the sweep re-queues due
    emails should that message be lost)."""
    status = notifications.notification_email_send(notification_id=notification_id)
    if status == EmailStatus.PENDING and not settings.CELERY_TASK_ALWAYS_EAGER:
        due = Notification.objects.get(pk=notification_id).email_due_at or timezone.now()
        countdown = max((due - timezone.now()).total_seconds(), 0)
        notification_email.apply_async(args=(notification_id,), countdown=countdown)
    return status


@shared_task(name="games.webhook_deliver", **RETRY_POLICY)
def webhook_deliver(delivery_id: int) -> str | None:
    """One signed attempt at a webhook delivery; a failure is retried after backoff."""
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
    return email_addresses.confirmation_send(user_id=user_id, address=address, base_url=base_url)
