"""Webhook SSRF, as an attacker on the production settings would try it.

Production refuses private addresses (``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` off) and ports
other than 80 and 443. Nothing here touches real DNS or the internet: :class:`FakeNet`
stands in for the resolver (``socket.getaddrinfo``) and for the network
(``socket.create_connection``). Public addresses that a test "routes" reach a receiver on
127.0.0.1; the server's own network (127.0.0.1 port 80, the "internal" service) is
reachable as it would be from a production host; every other connection is refused and
recorded. The attacker sees what the API shows: the creation answer and the delivery list.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games import notifications
from games.models import NotificationKind, Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db(transaction=True)  # deliveries are queued after commit

PUBLIC_IP = "8.8.8.8"  # never really contacted: FakeNet routes it to a local receiver
REAL_GETADDRINFO = socket.getaddrinfo
REAL_CREATE_CONNECTION = socket.create_connection


class Receiver:
    """An HTTP server on 127.0.0.1 recording every request; answers ``status`` (and a
    ``Location`` when given)."""

    def __init__(self, status: int = 204, location: str = "", tls: ssl.SSLContext | None = None):
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.server_names: list[str | None] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                receiver.requests.append((self.command, self.path, dict(self.headers)))
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:

            def sni(sock: ssl.SSLObject, name: str | None, context: ssl.SSLContext) -> None:
                receiver.server_names.append(name)

            tls.sni_callback = sni  # type: ignore[assignment]
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = int(self.server.server_port)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


class FakeNet:
    """The resolver and the network, as the code under test sees them."""

    def __init__(self) -> None:
        self.answers: dict[str, list[list[str]]] = {}  # name -> answers, one per lookup
        self.lookups: list[str] = []
        self.connections: list[tuple[str, int]] = []
        self.routes: dict[tuple[str, int], int] = {}  # (address, port) -> local port

    def name(self, host: str, *answers: list[str]) -> None:
        """``host`` resolves to each answer in turn; the last one repeats."""
        self.answers[host] = [list(answer) for answer in answers]

    def getaddrinfo(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name not in self.answers:
            return REAL_GETADDRINFO(host, port, *args, **kwargs)  # literals, localhost
        self.lookups.append(name)
        queue = self.answers[name]
        addresses = queue.pop(0) if len(queue) > 1 else queue[0]
        number = int(port or 0)
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (a, number, 0, 0))
            if ":" in a
            else (socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, number))
            for a in addresses
        ]

    def create_connection(self, address: Any, timeout: Any = None, *args: Any, **kw: Any) -> Any:
        host, port = str(address[0]), int(address[1])
        error: OSError = ConnectionRefusedError(f"FakeNet: nothing answers at {host}:{port}")
        for info in socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM):
            ip = str(info[4][0])
            self.connections.append((ip, port))
            local = self.routes.get((ip, port))
            if local is not None:
                return REAL_CREATE_CONNECTION(("127.0.0.1", local), timeout)
        raise error


@pytest.fixture
def net(monkeypatch: pytest.MonkeyPatch) -> FakeNet:
    fake = FakeNet()
    monkeypatch.setattr(socket, "getaddrinfo", fake.getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", fake.create_connection)
    return fake


@pytest.fixture
def production(settings: Any) -> None:
    """The webhook settings of DJANGO_ENV=production."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    settings.WEBHOOK_ALLOWED_PORTS = [80, 443]
    settings.WEBHOOK_MAX_ATTEMPTS = 8
    settings.WEBHOOK_TIMEOUT_SECONDS = 3


@pytest.fixture
def internal(net: FakeNet) -> Iterator[Receiver]:
    """A service of the server's own network: http://127.0.0.1/ (port 80)."""
    server = Receiver(status=200)
    net.routes[("127.0.0.1", 80)] = server.port
    yield server
    server.close()


def register(user: Any, url: str) -> Any:
    client = Client()
    client.force_login(user)
    return client.post("/api/v1/webhooks", {"url": url}, content_type="application/json")


def notify(user: Any) -> WebhookDelivery:
    notifications.notifications_send(
        [
            notifications.NotificationSpec(
                user_id=user.pk, kind=NotificationKind.YOUR_TURN, title="Your turn"
            )
        ]
    )
    return WebhookDelivery.objects.get()


def listed(user: Any, hook_id: int) -> list[dict[str, Any]]:
    client = Client()
    client.force_login(user)
    response = client.get(f"/api/v1/webhooks/{hook_id}/deliveries")
    assert response.status_code == 200
    return list(response.json()["results"])


def test_a_redirect_to_an_internal_host_is_not_followed(
    owner: Any, net: FakeNet, production: None, internal: Receiver
) -> None:
    """The attacker's public receiver answers 302 to http://127.0.0.1/admin: before the fix
    the server followed it, and the delivery list showed the internal service's status."""
    outside = Receiver(status=302, location="http://127.0.0.1/admin/")
    try:
        net.name("hooks.example.com", [PUBLIC_IP])
        net.routes[(PUBLIC_IP, 80)] = outside.port
        created = register(owner, "http://hooks.example.com/hook")
        assert created.status_code == 201, created.json()
        notify(owner)
        assert [r[0] for r in outside.requests] == ["POST"]
        assert internal.requests == []  # the Location was never fetched
        assert net.connections == [(PUBLIC_IP, 80)]
        (delivery,) = listed(owner, created.json()["id"])
        assert delivery["status"] == "retrying"  # a 3xx is a failed attempt
        assert delivery["attempts"] == 1
        assert delivery["last_status_code"] == 302
        assert "redirect" in delivery["last_error"]
        assert "127.0.0.1" not in delivery["last_error"]
    finally:
        outside.close()


def test_dns_rebinding_cannot_steer_the_connection_to_an_internal_address(
    owner: Any, net: FakeNet, production: None, internal: Receiver
) -> None:
    """The attacker's name answers a public address to the check and 127.0.0.1 to the
    next lookup. The attempt resolves once and connects to the address it checked."""
    outside = Receiver(status=204)
    try:
        net.name("rebind.example.com", [PUBLIC_IP])
        net.routes[(PUBLIC_IP, 80)] = outside.port
        created = register(owner, "http://rebind.example.com/hook")
        assert created.status_code == 201, created.json()
        net.lookups.clear()
        net.name("rebind.example.com", [PUBLIC_IP], ["127.0.0.1"])  # first public, then not
        notify(owner)
        assert internal.requests == []
        assert net.lookups == ["rebind.example.com"]  # resolved once for the attempt
        assert net.connections == [(PUBLIC_IP, 80)]  # connected to the checked address
        assert len(outside.requests) == 1
        method, path, headers = outside.requests[0]
        assert (method, path) == ("POST", "/hook")
        assert headers["Host"] == "rebind.example.com"  # the Host header keeps the name
        (delivery,) = listed(owner, created.json()["id"])
        assert (delivery["status"], delivery["last_status_code"]) == ("succeeded", 204)
    finally:
        outside.close()


def test_a_name_that_rebinds_to_a_private_address_is_refused_without_connecting(
    owner: Any, net: FakeNet, production: None, internal: Receiver
) -> None:
    net.name("rebind2.example.com", [PUBLIC_IP])
    created = register(owner, "http://rebind2.example.com/hook")
    assert created.status_code == 201
    net.name("rebind2.example.com", ["127.0.0.1"])  # from now on
    notify(owner)
    assert net.connections == []
    assert internal.requests == []
    (delivery,) = listed(owner, created.json()["id"])
    assert delivery["status"] == "retrying"
    assert delivery["last_status_code"] is None
    assert "refused" in delivery["last_error"]


EMBEDDED_PRIVATE = [
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254 (cloud metadata)
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2002:a00:1::",  # 6to4 of 10.0.0.1
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
    "::ffff:7f00:1",  # IPv4-mapped 127.0.0.1
    "::ffff:c0a8:101",  # IPv4-mapped 192.168.1.1
    "::ffff:0:a00:1",  # IPv4-translated 10.0.0.1
]


@pytest.mark.parametrize("address", EMBEDDED_PRIVATE)
def test_ipv6_forms_that_embed_a_private_ipv4_are_refused_at_creation(
    owner: Any, net: FakeNet, production: None, address: str
) -> None:
    response = register(owner, f"http://[{address}]/hook")
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid_request"
    assert "public address" in body["detail"]
    assert body["detail"].endswith(".")
    net.name("aaaa.example.com", [address])
    response = register(owner, "http://aaaa.example.com/hook")
    assert response.status_code == 400, response.json()
    assert Webhook.objects.count() == 0


def test_ipv6_forms_that_embed_a_public_ipv4_are_accepted(
    owner: Any, net: FakeNet, production: None
) -> None:
    for address in ("64:ff9b::808:808", "2002:808:808::1", "::ffff:808:808"):
        response = register(owner, f"http://[{address}]/hook")
        assert response.status_code == 201, (address, response.json())


@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "2002:7f00:1::1", "::7f00:1"])
def test_embedded_private_ipv4_is_refused_at_delivery_too(
    owner: Any, net: FakeNet, production: None, internal: Receiver, address: str
) -> None:
    """A webhook stored before the check (or a name whose answer changed since): the
    attempt refuses it and never connects."""
    net.name("later.example.com", [address])
    hook = Webhook.objects.create(user=owner, url="http://later.example.com/hook", secret="s")
    notify(owner)
    assert net.connections == []
    (delivery,) = listed(owner, hook.pk)
    assert delivery["status"] == "retrying"
    assert "refused" in delivery["last_error"]


def test_only_ports_80_and_443_are_accepted(
    owner: Any, net: FakeNet, production: None, settings: Any
) -> None:
    net.name("hooks.example.com", [PUBLIC_IP])
    for port in (22, 6379, 8000, 5432):
        response = register(owner, f"http://hooks.example.com:{port}/hook")
        assert response.status_code == 400, response.json()
        body = response.json()
        assert body["code"] == "invalid_request"
        assert "port" in body["detail"]
    for url in ("http://hooks.example.com/a", "https://hooks.example.com/b"):
        assert register(owner, url).status_code == 201
    assert register(owner, "https://hooks.example.com:443/c").status_code == 201
    settings.WEBHOOK_ALLOWED_PORTS = [80, 443, 8443]  # WEBHOOK_ALLOWED_PORTS=80,443,8443
    assert register(owner, "https://hooks.example.com:8443/d").status_code == 201


def test_a_stored_webhook_on_another_port_is_refused_at_delivery(
    owner: Any, net: FakeNet, production: None
) -> None:
    net.name("hooks.example.com", [PUBLIC_IP])
    hook = Webhook.objects.create(user=owner, url="http://hooks.example.com:6379/", secret="s")
    notify(owner)
    assert net.connections == []
    (delivery,) = listed(owner, hook.pk)
    assert "refused" in delivery["last_error"]
    assert "port" in delivery["last_error"]


def test_private_names_and_literals_are_refused_at_creation(
    owner: Any, net: FakeNet, production: None
) -> None:
    net.name("intranet.example.com", [PUBLIC_IP, "10.1.2.3"])  # one bad answer is enough
    for url in (
        "http://127.0.0.1/hook",
        "http://2130706433/hook",  # 127.0.0.1 as one number
        "http://[::1]/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://intranet.example.com/hook",
        "http://localhost/hook",
    ):
        response = register(owner, url)
        assert response.status_code == 400, (url, response.json())
        assert response.json()["code"] == "invalid_request"
    assert Webhook.objects.count() == 0


def test_the_allowed_ports_are_read_from_the_environment() -> None:
    code = (
        "from indulgence_site import settings as s; "
        "print(s.WEBHOOK_ALLOWED_PORTS, s.WEBHOOK_ALLOW_PRIVATE_ADDRESSES)"
    )
    base = {"DJANGO_ENV": "production", "SECRET_KEY": "x" * 50, "PATH": "/usr/bin:/bin"}

    def run(**env: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={**base, **env},
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
            timeout=60,
        )
        return done.stdout.strip()

    assert run() == "[80, 443] False"
    assert run(WEBHOOK_ALLOWED_PORTS="443, 8443") == "[443, 8443] False"


# --- TLS: the connection goes to the checked address, SNI and the certificate check use
# the webhook's host name ------------------------------------------------------------------


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A private CA, and a server certificate for hooks.example.com signed by it."""
    where = tmp_path_factory.mktemp("tls")
    _openssl(
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Test CA",
        "-keyout", "ca.key", "-out", "ca.pem", cwd=where,
    )  # fmt: skip
    (where / "ext.cnf").write_text("subjectAltName=DNS:hooks.example.com\n")
    _openssl(
        "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=hooks.example.com",
        "-keyout", "server.key", "-out", "server.csr", cwd=where,
    )  # fmt: skip
    _openssl(
        "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "ext.cnf", "-out", "server.pem", cwd=where,
    )  # fmt: skip
    return {"ca": where / "ca.pem", "cert": where / "server.pem", "key": where / "server.key"}


@pytest.fixture
def tls_receiver(certificates: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificates["cert"], certificates["key"])
    server = Receiver(status=204, tls=context)
    real = ssl.create_default_context

    def trusting(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        client = real(*args, **kwargs)
        client.load_verify_locations(cafile=str(certificates["ca"]))  # the test CA, too
        return client

    monkeypatch.setattr(ssl, "create_default_context", trusting)
    yield server
    server.close()


def test_https_goes_to_the_checked_address_with_the_host_name_for_sni_and_certificate(
    owner: Any, net: FakeNet, production: None, tls_receiver: Receiver
) -> None:
    net.name("hooks.example.com", [PUBLIC_IP])
    net.routes[(PUBLIC_IP, 443)] = tls_receiver.port
    created = register(owner, "https://hooks.example.com/hook")
    assert created.status_code == 201
    notify(owner)
    assert net.connections == [(PUBLIC_IP, 443)]
    assert tls_receiver.server_names == ["hooks.example.com"]
    assert tls_receiver.requests[0][2]["Host"] == "hooks.example.com"
    (delivery,) = listed(owner, created.json()["id"])
    assert (delivery["status"], delivery["last_status_code"]) == ("succeeded", 204)


def test_a_certificate_for_another_name_fails_the_attempt(
    owner: Any, net: FakeNet, production: None, tls_receiver: Receiver
) -> None:
    net.name("other.example.com", [PUBLIC_IP])
    net.routes[(PUBLIC_IP, 443)] = tls_receiver.port
    created = register(owner, "https://other.example.com/hook")
    assert created.status_code == 201
    notify(owner)
    assert tls_receiver.requests == []  # no request over a connection that failed the check
    (delivery,) = listed(owner, created.json()["id"])
    assert delivery["status"] == "retrying"
    assert "certificate" in delivery["last_error"].lower()
