"""The address a request comes from, trusting ``X-Forwarded-For`` only from our proxies.

``REMOTE_ADDR`` is the peer that opened the connection. Behind a reverse proxy that peer is
the proxy, and the client's address is in ``X-Forwarded-For``, which anyone can also send
themselves. So the header is read only when the peer is one of ``TRUSTED_PROXIES``
(addresses or networks, e.g. ``127.0.0.1,10.0.0.0/8``; empty by default: the header is
ignored), and then from the right: each trusted hop is skipped, and the first address not
among them is the client. A forged left part of the header is never reached.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in spec if item.strip())


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or the nearest untrusted hop of
    ``X-Forwarded-For`` when the peer is a trusted proxy."""
    peer = str(request.META.get("REMOTE_ADDR", "") or "")
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    if not networks or not _trusted(peer, networks):
        return peer
    hops = [hop.strip() for hop in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    for hop in reversed([hop for hop in hops if hop]):
        if not _trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # a malformed hop: count the request against the proxy
    return peer
