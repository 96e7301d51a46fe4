"""Email delivery: nothing lost, never twice (claim, sweep re-queue, failed after the last
attempt), and quiet hours released when the clock passes their end."""

from __future__ import annotations

import smtplib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import deadlines, jobs, notifications, services, tasks
from games.models import EmailStatus, Notification, NotificationKind
from indulgence_site.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)  # emails go out after commit


def notify(user: Any) -> Notification:
    [notification] = notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=user.pk, kind=NotificationKind.YOUR_TURN, title="Your turn", body="Go"
            )
        ]
    )
    notification.refresh_from_db()
    return notification


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """Set the server's clock (django.utils.timezone.now, which every module reads)."""
    current: list[datetime] = [timezone.now()]
    monkeypatch.setattr(timezone, "now", lambda: current[0])

    def set_to(moment: datetime) -> None:
        current[0] = moment

    return set_to


@pytest.fixture
def broker_down(settings: Any) -> Iterator[None]:
    """Tasks go to a broker nobody listens on: queueing fails after commit."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    keys = ("broker_url", "task_always_eager", "broker_connection_retry", "task_publish_retry")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(
        broker_url="redis://127.0.0.1:9/0",
        task_always_eager=False,
        broker_connection_retry=False,
        task_publish_retry=False,
    )
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    yield
    celery_app.conf.update(saved)
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    settings.CELERY_TASK_ALWAYS_EAGER = True


class FailingBackend:
    """An email backend whose server refuses every message."""

    calls = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def send_messages(self, messages: list[Any]) -> int:
        FailingBackend.calls += 1
        raise smtplib.SMTPServerDisconnected("the mail server went away")


def test_a_task_delivered_twice_sends_one_email(users: list[Any], settings: Any) -> None:
    owner = users[0]
    settings.CELERY_TASK_ALWAYS_EAGER = False  # queue nothing: run the task by hand
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jobs, "enqueue_on_commit", lambda *args: None)
        notification = notify(owner)
    assert notification.email_status == EmailStatus.PENDING
    assert tasks.notification_email.apply(args=(notification.pk,)).get() == EmailStatus.SENT
    assert tasks.notification_email.apply(args=(notification.pk,)).get() is None
    assert [m.subject for m in mail.outbox] == ["Your turn"]
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.SENT
    assert notification.email_attempts == 1
    assert mail.outbox[0].extra_headers["Message-ID"] == (
        f"<notification-{notification.pk}@127.0.0.1>"
    )


def test_an_email_whose_queueing_failed_is_sent_by_the_sweep(
    users: list[Any], broker_down: None, settings: Any, caplog: Any
) -> None:
    owner = users[0]
    notification = notify(owner)  # committed; queueing it failed (logged)
    assert "broker unavailable" in caplog.text
    assert notification.email_status == EmailStatus.PENDING
    assert mail.outbox == []
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the broker is back (tasks run here)
    assert deadlines.sweep().emails_requeued == 0  # not yet overdue: it may still be queued
    later = timezone.now() + timedelta(seconds=settings.EMAIL_REQUEUE_SECONDS + 1)
    assert deadlines.sweep(now=later).emails_requeued == 1
    assert [m.to for m in mail.outbox] == [["owner@example.org"]]
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.SENT
    assert deadlines.sweep(now=later).emails_requeued == 0
    assert len(mail.outbox) == 1


def test_a_stale_sending_claim_is_sent_again_by_the_sweep_once(
    users: list[Any], settings: Any
) -> None:
    owner = users[0]
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jobs, "enqueue_on_commit", lambda *args: None)
        notification = notify(owner)
    # A worker claimed it and died before sending.
    claimed_at = timezone.now() - timedelta(seconds=settings.EMAIL_CLAIM_STALE_SECONDS + 5)
    Notification.objects.filter(pk=notification.pk).update(
        email_status=EmailStatus.SENDING, email_claimed_at=claimed_at, email_attempts=1
    )
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert tasks.notification_email.apply(args=(notification.pk,)).get() is None  # claimed
    assert deadlines.sweep(now=claimed_at + timedelta(seconds=60)).emails_requeued == 0
    assert mail.outbox == []
    assert deadlines.sweep().emails_requeued == 1
    assert deadlines.sweep().emails_requeued == 0
    assert len(mail.outbox) == 1
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.SENT
    assert notification.email_attempts == 2


def test_an_email_is_marked_failed_after_the_last_attempt(users: list[Any], settings: Any) -> None:
    owner = users[0]
    settings.EMAIL_BACKEND = f"{__name__}.FailingBackend"
    settings.EMAIL_MAX_ATTEMPTS = 3
    settings.EMAIL_RETRY_BASE_SECONDS = 0
    FailingBackend.calls = 0
    notification = notify(owner)  # the first attempt ran after commit, and failed
    assert notification.email_status == EmailStatus.PENDING
    assert notification.email_attempts == 1
    assert "SMTPServerDisconnected" in notification.email_error
    later = timezone.now() + timedelta(seconds=settings.EMAIL_REQUEUE_SECONDS + 1)
    deadlines.sweep(now=later)  # attempt 2
    deadlines.sweep(now=later)  # attempt 3: the last
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.FAILED
    assert notification.email_attempts == 3
    assert FailingBackend.calls == 3
    assert deadlines.sweep(now=later).emails_requeued == 0
    assert FailingBackend.calls == 3
    # The player sees it in their list.
    client = Client()
    client.force_login(owner)
    [listed] = client.get("/api/v1/notifications").json()["results"]
    assert listed["email"] == "failed"


def test_a_held_email_goes_out_when_the_quiet_hours_end_and_not_before(
    users: list[Any], clock: Callable[[datetime], None]
) -> None:
    owner = users[0]
    services.player_ensure(user=owner)
    notifications.preferences_update(
        user=owner,
        changes={"quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Asia/Tokyo"}},
    )
    clock(datetime(2026, 11, 22, 14, 0, tzinfo=UTC))  # 23:00 in Tokyo
    notification = notify(owner)
    assert notification.email_status == EmailStatus.HELD
    assert notification.email_due_at == datetime(2026, 11, 22, 22, 30, tzinfo=UTC)
    clock(datetime(2026, 11, 22, 22, 29, tzinfo=UTC))  # 07:29 in Tokyo
    assert deadlines.sweep().emails_released == 0
    assert mail.outbox == []
    # A stray send task before the end sends nothing either.
    assert notifications.notification_email_send(notification_id=notification.pk) is None
    clock(datetime(2026, 11, 22, 22, 30, 1, tzinfo=UTC))  # 07:30:01 in Tokyo
    assert deadlines.sweep().emails_released == 1
    assert [m.subject for m in mail.outbox] == ["Your turn"]
    notification.refresh_from_db()
    assert notification.email_status == EmailStatus.SENT
    assert notification.emailed_at == datetime(2026, 11, 22, 22, 30, 1, tzinfo=UTC)
    assert deadlines.sweep().emails_released == 0
    assert len(mail.outbox) == 1
