"""A receiver that drips its answer cannot hold a worker past the attempt's deadline.

The attack: a receiver sent one header line every 3 s and held a worker 36 s although
the timeout was 5 s (a timeout per socket read never expires while bytes keep coming).
Here a raw TCP receiver on a free loopback port drips one header line every 0.5 s for up
to 15 s; the attempt must end within WEBHOOK_TIMEOUT_SECONDS plus a small margin and be
recorded as failed with a reason that says so. Another receiver floods headers: the
answer is cut at the response size cap.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from games import webhooks
from games.models import NotificationKind, Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE = 2.0
MARGIN = 1.0


class RawReceiver:
    """Accepts connections on 127.0.0.1 and, for each, reads the request and then calls
    ``answer(connection)``; stops answering when closed."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.stop = threading.Event()
        self.sent = 0
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._one, args=(connection,), daemon=True).start()

    def _one(self, connection: socket.socket) -> None:
        with connection:
            connection.settimeout(5)
            data = b""
            try:
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                self.answer(self, connection)
            except OSError:
                return  # the client hung up: what the deadline does

    def send(self, connection: socket.socket, data: bytes) -> None:
        connection.sendall(data)
        self.sent += len(data)

    def close(self) -> None:
        self.stop.set()
        self.listener.close()
        self.thread.join(timeout=5)


def drip(receiver: RawReceiver, connection: socket.socket) -> None:
    """200, then one header line every 0.5 s; ends the headers after 15 s."""
    receiver.send(connection, b"HTTP/1.1 200 OK\r\n")
    started = time.monotonic()
    line = 0
    while time.monotonic() - started < 15 and not receiver.stop.is_set():
        time.sleep(0.5)
        line += 1
        receiver.send(connection, f"X-Drip-{line}: {line}\r\n".encode())
    receiver.send(connection, b"Content-Length: 0\r\n\r\n")


def flood(receiver: RawReceiver, connection: socket.socket) -> None:
    """200, then 50 MB of header lines as fast as the client reads them."""
    receiver.send(connection, b"HTTP/1.1 200 OK\r\n")
    line = b"X-Flood: " + b"a" * 1000 + b"\r\n"
    for _ in range(50_000):
        receiver.send(connection, line)
    receiver.send(connection, b"\r\n")


@pytest.fixture
def dripping() -> Iterator[RawReceiver]:
    server = RawReceiver(drip)
    yield server
    server.close()


@pytest.fixture
def flooding() -> Iterator[RawReceiver]:
    server = RawReceiver(flood)
    yield server
    server.close()


def delivery_to(owner: Any, port: int) -> WebhookDelivery:
    # Test settings allow 127.0.0.1 and any port (WEBHOOK_ALLOW_PRIVATE_ADDRESSES, as in
    # development): the receiver is local.
    hook = Webhook.objects.create(user=owner, url=f"http://127.0.0.1:{port}/hook", secret="s")
    return WebhookDelivery.objects.create(
        webhook=hook, kind=NotificationKind.YOUR_TURN, body="{}", next_attempt_at=hook.created_at
    )


def test_a_dripping_receiver_is_cut_off_at_the_attempt_deadline(
    owner: Any, dripping: RawReceiver, settings: Any
) -> None:
    settings.WEBHOOK_TIMEOUT_SECONDS = DEADLINE
    delivery = delivery_to(owner, dripping.port)
    started = time.monotonic()
    status = webhooks.delivery_attempt(delivery_id=delivery.pk)
    took = time.monotonic() - started
    print(f"attempt against the dripping receiver: {took:.2f} s (deadline {DEADLINE} s)")
    assert took < DEADLINE + MARGIN, f"the attempt took {took:.1f} s"
    assert took >= DEADLINE - 0.2  # it was the deadline, not an early error
    delivery.refresh_from_db()
    assert status == delivery.status == "retrying"
    assert delivery.last_status_code is None
    assert "deadline" in delivery.last_error
    assert f"{DEADLINE:g} s" in delivery.last_error


def test_the_default_deadline_holds_against_the_reported_drip(owner: Any, settings: Any) -> None:
    """The report's figures: timeout 5 s, one header line every 3 s."""

    def slow_drip(receiver: RawReceiver, connection: socket.socket) -> None:
        receiver.send(connection, b"HTTP/1.1 200 OK\r\n")
        for line in range(5):
            if receiver.stop.wait(3):
                return
            receiver.send(connection, f"X-Drip-{line}: {line}\r\n".encode())
        receiver.send(connection, b"\r\n")

    server = RawReceiver(slow_drip)
    try:
        settings.WEBHOOK_TIMEOUT_SECONDS = 5
        delivery = delivery_to(owner, server.port)
        started = time.monotonic()
        webhooks.delivery_attempt(delivery_id=delivery.pk)
        took = time.monotonic() - started
        print(f"attempt against a 3 s drip: {took:.2f} s (deadline 5 s)")
        assert 4.8 <= took < 5 + MARGIN
        delivery.refresh_from_db()
        assert "deadline" in delivery.last_error
    finally:
        server.close()


def test_a_flood_of_headers_is_cut_at_the_response_size_cap(
    owner: Any, flooding: RawReceiver, settings: Any
) -> None:
    settings.WEBHOOK_TIMEOUT_SECONDS = DEADLINE
    settings.WEBHOOK_MAX_RESPONSE_BYTES = 65536
    delivery = delivery_to(owner, flooding.port)
    started = time.monotonic()
    status = webhooks.delivery_attempt(delivery_id=delivery.pk)
    took = time.monotonic() - started
    delivery.refresh_from_db()
    print(f"header flood: cut after {took:.2f} s, {flooding.sent} bytes sent by the receiver")
    assert status == delivery.status == "retrying"
    assert "larger than 65536 bytes" in delivery.last_error
    assert took < DEADLINE + MARGIN
    assert flooding.sent < 50_000_000  # the client stopped reading and hung up


def test_a_slow_name_lookup_counts_against_the_deadline(
    owner: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attacker's DNS server takes its time to answer: the lookup is part of the
    attempt, and the attempt still ends at its deadline."""
    settings.WEBHOOK_TIMEOUT_SECONDS = DEADLINE
    release = threading.Event()
    real = socket.getaddrinfo

    def slow(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "slow.example.com":
            release.wait(30)
        return real("127.0.0.1", *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", slow)
    hook = Webhook.objects.create(user=owner, url="http://slow.example.com/hook", secret="s")
    delivery = WebhookDelivery.objects.create(
        webhook=hook, kind=NotificationKind.YOUR_TURN, body="{}", next_attempt_at=hook.created_at
    )
    started = time.monotonic()
    try:
        webhooks.delivery_attempt(delivery_id=delivery.pk)
    finally:
        release.set()
    took = time.monotonic() - started
    assert took < DEADLINE + MARGIN
    delivery.refresh_from_db()
    assert "deadline" in delivery.last_error
