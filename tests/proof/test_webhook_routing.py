"""Webhooks and emails wait in their own queue, so bot turns and settlements never wait
behind a slow receiver or mail server.

Messages are published to a real Redis broker (TEST_REDIS_URL) under this test's own
queue names, with no worker running, and the test reads which Redis list each landed in.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis
import yaml
from django.conf import settings as django_settings
from django.core import mail

from games import notifications, tasks
from games.models import NotificationKind, Webhook, WebhookDelivery
from indulgence_site.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
NOTIFY_TASKS = (
    "games.webhook_deliver",
    "games.notification_email",
    "games.password_reset_email",
    "games.email_confirmation_email",
)
GAME_TASKS = ("games.bot_turn", "games.hand_settle", "games.deadlines_sweep")


def _reset_producer_pool() -> None:
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker() -> Iterator[tuple[redis.Redis, str]]:
    """Publish to Redis under a queue of this test's own; the lists are removed after."""
    queue = f"indulgence-routing-{uuid.uuid4().hex[:10]}"
    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(
        broker_url=django_settings.TEST_REDIS_URL, task_always_eager=False, task_default_queue=queue
    )
    _reset_producer_pool()
    client = redis.Redis.from_url(django_settings.TEST_REDIS_URL)
    try:
        yield client, queue
    finally:
        celery_app.conf.update(saved)
        _reset_producer_pool()
        for name in (queue, f"{queue}-notify"):  # the lists and kombu's binding tables
            client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
        client.close()


@pytest.mark.redis
def test_webhook_and_email_tasks_go_to_the_notify_queue_game_tasks_do_not(
    broker: tuple[redis.Redis, str],
) -> None:
    client, queue = broker
    notify_queue = tasks.notify_queue()
    assert notify_queue == f"{queue}-notify"
    for name in NOTIFY_TASKS:
        before = client.llen(notify_queue), client.llen(queue)
        celery_app.send_task(name, args=(1,))
        assert (client.llen(notify_queue), client.llen(queue)) == (before[0] + 1, before[1]), name
    for name in GAME_TASKS:
        before = client.llen(notify_queue), client.llen(queue)
        celery_app.send_task(name, args=(1, 2) if name != "games.deadlines_sweep" else ())
        assert (client.llen(notify_queue), client.llen(queue)) == (before[0], before[1] + 1), name
    # Queued the way the code queues them (after commit, apply_async) too.
    before = client.llen(notify_queue)
    tasks.webhook_deliver.apply_async(args=(1,))
    tasks.notification_email.apply_async(args=(1,))
    assert client.llen(notify_queue) == before + 2
    before = client.llen(queue)
    tasks.bot_turn.apply_async(args=(1, 1))
    tasks.hand_settle.apply_async(args=(1, 1))
    assert client.llen(queue) == before + 2


@pytest.mark.django_db(transaction=True)
def test_eager_mode_still_delivers_in_process(owner: Any, settings: Any) -> None:
    """Without a broker (make run, the test suite) the routed tasks still run in-process
    right after the commit: the email is sent and the webhook receiver gets its POST."""
    assert settings.CELERY_TASK_ALWAYS_EAGER
    received: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            received.append(self.headers["X-Indulgence-Event"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/hook"
        Webhook.objects.create(user=owner, url=url, secret="s")
        notifications.notifications_send(
            [
                notifications.NotificationSpec(
                    user_id=owner.pk, kind=NotificationKind.YOUR_TURN, title="Your turn"
                )
            ]
        )
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert received == ["your_turn"]
    assert [m.to for m in mail.outbox] == [[owner.email]]
    assert WebhookDelivery.objects.get().status == "succeeded"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_compose_runs_a_separate_worker_for_the_notify_queue() -> None:
    services = compose()["services"]
    game_worker = services["worker"]["command"]
    notify_worker = services["notify-worker"]["command"]
    assert game_worker[game_worker.index("-Q") + 1] == "indulgence"
    assert notify_worker[notify_worker.index("-Q") + 1] == "indulgence-notify"
    for name in ("worker", "notify-worker"):
        assert "test" in services[name]["healthcheck"]
        assert services[name]["environment"]["DJANGO_ENV"] == "production"


def test_the_readme_starts_workers_for_both_queues() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "worker --loglevel INFO --concurrency 2 -Q indulgence -n" in readme
    assert "-Q indulgence-notify" in readme
