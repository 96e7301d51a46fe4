"""Outbound webhook requests that cannot be steered into the server's own network.

One attempt (:func:`post`) is:

1. **Parse** the URL: http or https, a host name, a port among ``WEBHOOK_ALLOWED_PORTS``
   (80 and 443 in production).
2. **Resolve once** (``socket.getaddrinfo``) and **check every address**: with
   ``WEBHOOK_ALLOW_PRIVATE_ADDRESSES`` off, each must be public; IPv6 forms that carry an
   IPv4 address (IPv4-mapped ``::ffff:0:0/96``, IPv4-translated ``::ffff:0:0:0/96``,
   IPv4-compatible ``::/96``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) are judged by
   that IPv4 address. One private answer refuses the whole name.
3. **Connect to a checked address**, never to the name: a second lookup (DNS rebinding)
   never happens. The request still names the host: ``Host`` header, TLS SNI and the
   certificate check (``ssl.create_default_context()``: verification on, host name
   checked) all use the URL's host name.
4. **No redirect is followed**: a 3xx answer is a failed attempt; its ``Location`` is
   never fetched.
5. **One deadline for the whole attempt** (``WEBHOOK_TIMEOUT_SECONDS``): the lookup,
   the connection, the TLS handshake, sending and every read get only the time left, so
   a receiver that drips its answer is cut off at the deadline (a timeout per socket read
   never expires while bytes keep coming). At most ``WEBHOOK_MAX_RESPONSE_BYTES`` of the
   answer are read; only its status line matters and the body is never read.

Why ``http.client`` with a connection of our own rather than ``urllib.request`` (used
before) or ``requests``/``urllib3``: urllib follows redirects and resolves the name again
when it connects; urllib3 is not a runtime dependency here, and its ``Timeout(total=...)``
is still a limit per socket operation, not a deadline. ``http.client`` (the standard
library, which urllib and urllib3 build on) lets :class:`PinnedConnection` override the
documented ``connect()`` to open the socket to the checked address and wrap it with
``server_hostname`` = the URL's host, while the rest (request line, ``Host`` header,
status parsing) stays the standard library's.
"""

from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_EMBEDDING_LOW_32 = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "::ffff:0:0/96",  # IPv4-mapped
        "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
        "64:ff9b::/96",  # NAT64, well-known prefix
        "::/96",  # IPv4-compatible (deprecated), also :: and ::1
    )
)
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")  # the IPv4 address is bits 16..48
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: local use, never public


class Refused(Exception):
    """The URL or its addresses are not allowed; ``str()`` is a sentence for the user."""


class DeadlineExceeded(TimeoutError):
    pass


class ResponseTooLarge(OSError):
    pass


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, translated, compatible, NAT64,
    6to4), or None."""
    if any(address in network for network in _EMBEDDING_LOW_32):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _SIX_TO_FOUR:
        return ipaddress.IPv4Address((int(address) >> 80) & 0xFFFFFFFF)
    return None


def is_public(address: IPAddress) -> bool:
    """Whether a webhook may connect to ``address`` in production."""
    if isinstance(address, ipaddress.IPv6Address):
        if address in _NAT64_LOCAL:
            return False
        carried = embedded_ipv4(address)
        if carried is not None:
            return is_public(carried)
    return bool(address.is_global and not address.is_multicast)


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # IDNA-encoded, without brackets
    port: int
    path: str  # path and query


def parse(url: str) -> Target:
    """Check the URL's form and port; raises :class:`Refused`."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused(f"The webhook URL is not a valid address ({exc}).") from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("The webhook URL must be an http:// or https:// address.")
    try:
        host = parts.hostname.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise Refused("The webhook URL's host name is not valid.") from exc
    port = port or (443 if parts.scheme == "https" else 80)
    allowed = list(getattr(settings, "WEBHOOK_ALLOWED_PORTS", []) or [])
    if allowed and port not in allowed:
        names = [str(p) for p in allowed]
        ports = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise Refused(f"The webhook URL must use port {ports}, not {port}.")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlineExceeded("deadline passed")
    return left


def resolve(host: str, port: int, deadline: float) -> list[IPAddress]:
    """The addresses of ``host``, looked up once, within the deadline (``getaddrinfo``
    cannot be interrupted: a lookup still running at the deadline is left to finish in
    its daemon thread)."""
    try:
        return [ipaddress.ip_address(host)]  # a literal: no lookup
    except ValueError:
        pass
    answer: dict[str, Any] = {}
    done = threading.Event()

    def lookup() -> None:
        try:
            answer["infos"] = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            answer["error"] = exc
        finally:
            done.set()

    threading.Thread(target=lookup, name="webhook-dns", daemon=True).start()
    if not done.wait(_remaining(deadline)):
        raise DeadlineExceeded("DNS lookup")
    if "error" in answer:
        raise Refused(f"The webhook's host name {host!r} does not resolve.")
    addresses: list[IPAddress] = []
    for info in answer["infos"]:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise Refused(f"The webhook's host name {host!r} does not resolve.")
    return addresses


def check(target: Target, addresses: list[IPAddress]) -> None:
    """Every address must be public (unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES)."""
    if settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        return
    for address in addresses:
        if not is_public(address):
            raise Refused("The webhook URL must point to a public address.")


def check_url(url: str, *, timeout: float) -> None:
    """At registration: the form, the port and (unless private addresses are allowed,
    as in development) every address the name has now."""
    target = parse(url)
    if settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        return
    try:
        addresses = resolve(target.host, target.port, time.monotonic() + timeout)
    except DeadlineExceeded as exc:
        raise Refused(f"The webhook's host name {target.host!r} does not resolve.") from exc
    check(target, addresses)


class _DeadlineReader(io.RawIOBase):
    """The socket's answer, read with the time left before the deadline, up to a cap."""

    def __init__(self, sock: socket.socket, deadline: float, limit: int) -> None:
        self.sock, self.deadline, self.limit, self.total = sock, deadline, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.total >= self.limit:
            raise ResponseTooLarge(f"larger than {self.limit} bytes")
        self.sock.settimeout(_remaining(self.deadline))
        view = memoryview(buffer).cast("B")
        count = self.sock.recv_into(view, min(len(view), self.limit - self.total))
        self.total += count
        return count


class _DeadlineSocket:
    """What ``http.client`` uses of a socket (``sendall``, ``makefile``, ``close``), each
    given only the time left before the deadline."""

    def __init__(self, sock: socket.socket, deadline: float, limit: int) -> None:
        self.sock, self.deadline, self.limit = sock, deadline, limit

    def sendall(self, data: Any) -> None:
        self.sock.settimeout(_remaining(self.deadline))
        self.sock.sendall(data)

    def makefile(self, mode: str, *args: Any, **kwargs: Any) -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self.sock, self.deadline, self.limit))

    def close(self) -> None:
        self.sock.close()


class PinnedConnection(http.client.HTTPConnection):
    """An HTTP(S) connection to the URL's host that opens its socket to ``addresses``
    (already checked) and never looks the name up again."""

    def __init__(
        self, target: Target, addresses: list[IPAddress], deadline: float, limit: int
    ) -> None:
        super().__init__(target.host, target.port, timeout=_remaining(deadline))
        # The Host header leaves out the scheme's own port (http.client compares with this).
        self.default_port = 443 if target.scheme == "https" else 80
        self.target, self.addresses, self.deadline, self.limit = target, addresses, deadline, limit

    def connect(self) -> None:
        error: OSError = OSError("no address to connect to")
        for address in self.addresses:
            try:
                sock = socket.create_connection(
                    (str(address), self.port), timeout=_remaining(self.deadline)
                )
                break
            except DeadlineExceeded:
                raise
            except OSError as exc:
                error = exc
        else:
            raise error
        try:
            if self.target.scheme == "https":
                context = ssl.create_default_context()  # verifies, checks the host name
                sock.settimeout(_remaining(self.deadline))  # covers the whole handshake
                sock = context.wrap_socket(sock, server_hostname=self.target.host)
        except BaseException:
            sock.close()
            raise
        self.sock = _DeadlineSocket(sock, self.deadline, self.limit)


def post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """One attempt: ``(status code or None, error or "")``; a 2xx with "" is success."""
    timeout = float(settings.WEBHOOK_TIMEOUT_SECONDS)
    limit = int(getattr(settings, "WEBHOOK_MAX_RESPONSE_BYTES", 65536))
    deadline = time.monotonic() + timeout
    connection: PinnedConnection | None = None
    try:
        target = parse(url)
        addresses = resolve(target.host, target.port, deadline)
        check(target, addresses)
        connection = PinnedConnection(target, addresses, deadline, limit)
        connection.request("POST", target.path, body=body, headers=headers)
        status = int(connection.getresponse().status)  # the headers only; never the body
    except Refused as exc:
        return None, f"refused: {exc}"
    except TimeoutError:
        return None, f"no complete answer within {timeout:g} s (the attempt's deadline)"
    except ResponseTooLarge as exc:
        return None, f"the answer was {exc}"
    except ssl.SSLCertVerificationError as exc:
        return None, f"TLS certificate not valid for this host: {exc.verify_message}"
    except http.client.HTTPException as exc:
        return None, f"not a valid HTTP answer ({type(exc).__name__})"
    except OSError as exc:
        return None, str(exc) or type(exc).__name__
    finally:
        if connection is not None:
            connection.close()
    if 300 <= status < 400:
        return status, f"HTTP {status}: a redirect, not followed"
    if not 200 <= status < 300:
        return status, f"HTTP {status}"
    return status, ""
