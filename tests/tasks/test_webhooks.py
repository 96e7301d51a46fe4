"""Webhooks: signed deliveries to a local receiver, retried with backoff after a failure."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import deadlines, notifications, webhooks
from games.errors import InvalidRequest
from games.models import DeliveryStatus, NotificationKind, WebhookDelivery
from tests.procs import Worker, wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # deliveries are queued after commit


class Receiver:
    """An HTTP server on 127.0.0.1 that answers 500 to the first ``failures`` requests."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.requests: list[tuple[float, dict[str, str], bytes, int]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                status = 500 if len(receiver.requests) < receiver.failures else 204
                receiver.requests.append((time.monotonic(), dict(self.headers), body, status))
                self.send_response(status)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver(failures=1)
    yield server
    server.close()


def verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """What a receiver does (docs/notifications.md): recompute and compare."""
    timestamp = headers["X-Indulgence-Timestamp"]
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(headers["X-Indulgence-Signature"], "sha256=" + expected.hexdigest())


def register(user: Any, url: str) -> dict[str, Any]:
    client = Client()
    client.force_login(user)
    response = client.post("/api/v1/webhooks", {"url": url}, content_type="application/json")
    assert response.status_code == 201
    return dict(response.json())


def your_turn(user: Any) -> None:
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=user.pk, kind=NotificationKind.YOUR_TURN, title="Your turn"
            )
        ]
    )


def time_passes(delivery: WebhookDelivery) -> None:
    """The backoff has elapsed (the clock cannot be moved, the due time can)."""
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())


def test_it_signs_a_delivery_and_retries_it_after_a_failure(
    users: list[Any], receiver: Receiver, settings: Any
) -> None:
    settings.WEBHOOK_RETRY_BASE_SECONDS = 30
    owner = users[0]
    hook = register(owner, receiver.url)
    assert len(hook["secret"]) == 64
    your_turn(owner)  # first attempt right after commit: the receiver fails it
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.RETRYING
    assert delivery.attempts == 1
    assert delivery.last_status_code == 500
    wait = (delivery.next_attempt_at - timezone.now()).total_seconds()
    assert 25 < wait <= 30  # the first backoff step
    assert deadlines.sweep().webhook_retries == 0  # not due yet
    time_passes(delivery)
    assert deadlines.sweep().webhook_retries == 1
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.SUCCEEDED
    assert delivery.attempts == 2
    assert [r[3] for r in receiver.requests] == [500, 204]
    for _, headers, body, _ in receiver.requests:
        assert verify(hook["secret"], headers, body)
        assert headers["X-Indulgence-Event"] == "your_turn"
        assert json.loads(body)["type"] == "your_turn"
    assert receiver.requests[0][2] == receiver.requests[1][2]  # the same body, resent

    client = Client()
    client.force_login(owner)
    listed = client.get(f"/api/v1/webhooks/{hook['id']}/deliveries").json()["results"]
    assert [(d["status"], d["attempts"], d["last_status_code"]) for d in listed] == [
        ("succeeded", 2, 204)
    ]
    assert "secret" not in client.get(f"/api/v1/webhooks/{hook['id']}").json()


def test_it_gives_up_after_the_last_attempt(users: list[Any], settings: Any) -> None:
    settings.WEBHOOK_MAX_ATTEMPTS = 2
    failing = Receiver(failures=10)
    try:
        owner = users[0]
        register(owner, failing.url)
        your_turn(owner)
        delivery = WebhookDelivery.objects.get()
        time_passes(delivery)
        deadlines.sweep()
        delivery.refresh_from_db()
        assert delivery.status == DeliveryStatus.FAILED
        assert delivery.attempts == 2
        time_passes(delivery)
        assert deadlines.sweep().webhook_retries == 0
    finally:
        failing.close()


def test_backoff_doubles_with_each_failed_attempt(settings: Any) -> None:
    settings.WEBHOOK_RETRY_BASE_SECONDS = 10
    assert [webhooks.backoff_seconds(n) for n in (1, 2, 3, 4)] == [10, 20, 40, 80]


def test_it_refuses_urls_that_are_not_public_web_addresses(users: list[Any], settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(InvalidRequest, match="public address"):
        webhooks.webhook_create(user=users[0], url="http://127.0.0.1:9/hook")
    with pytest.raises(InvalidRequest, match="http"):
        webhooks.webhook_create(user=users[0], url="ftp://example.org/hook")


@pytest.mark.redis
@pytest.mark.postgres
def test_a_real_worker_retries_with_backoff_until_the_receiver_accepts(
    users: list[Any], receiver: Receiver, start_worker: Callable[..., Worker]
) -> None:
    start_worker(WEBHOOK_RETRY_BASE_SECONDS="0.5")
    owner = users[0]
    hook = register(owner, receiver.url)
    your_turn(owner)

    def succeeded() -> bool:
        return WebhookDelivery.objects.filter(status=DeliveryStatus.SUCCEEDED).exists()

    wait_until(succeeded, timeout=30, what="the delivery to succeed")
    first, second = receiver.requests
    assert [first[3], second[3]] == [500, 204]
    assert second[0] - first[0] >= 0.45  # waited for the backoff
    assert verify(hook["secret"], second[1], second[2])
    delivery = WebhookDelivery.objects.get()
    assert delivery.attempts == 2


def test_webhooks_are_listed_and_deleted_by_their_owner_only(users: list[Any]) -> None:
    owner, opponent = users[0], users[1]
    hook = register(owner, "https://example.org/hook")
    client = Client()
    client.force_login(owner)
    assert [w["id"] for w in client.get("/api/v1/webhooks").json()] == [hook["id"]]
    stranger = Client()
    stranger.force_login(opponent)
    assert stranger.get(f"/api/v1/webhooks/{hook['id']}").status_code == 404
    assert stranger.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 404
    assert stranger.get(f"/api/v1/webhooks/{hook['id']}/deliveries").status_code == 404
    assert client.delete(f"/api/v1/webhooks/{hook['id']}").status_code == 204
    assert client.get("/api/v1/webhooks").json() == []
    refused = client.post(
        "/api/v1/webhooks",
        {"url": "https://example.org/h", "kinds": ["nope"]},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_request"
