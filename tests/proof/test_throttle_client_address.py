"""The anonymous API throttle counts per client address, and a client cannot pick its own
address with a forged ``X-Forwarded-For``; behind a trusted proxy the proxy's header is
what tells clients apart (games/client_address.py, TRUSTED_PROXIES)."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from tests.api.support import Client

pytestmark = pytest.mark.django_db

LIMIT = 3


@pytest.fixture
def tight_anon_limit(settings: SettingsWrapper) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": f"{LIMIT}/min", "user": None, "actions": None},
    }


def _get(remote_addr: str, forwarded_for: str | None = None) -> Any:
    extra: dict[str, str] = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return Client().get("/api/v1/games/", **extra)


def test_a_forged_forwarded_for_gets_no_fresh_anonymous_allowance(
    tight_anon_limit: None,
) -> None:
    for _ in range(LIMIT):
        assert _get("203.0.113.7").status_code == 200
    assert _get("203.0.113.7").status_code == 429
    # The same client claiming to be someone else each time is still the same client.
    for n in range(1, 4):
        refused = _get("203.0.113.7", forwarded_for=f"198.51.100.{n}")
        assert refused.status_code == 429, refused.content
        assert int(refused["Retry-After"]) >= 1
    # Another address is counted apart.
    assert _get("203.0.113.8").status_code == 200


def test_behind_a_trusted_proxy_each_forwarded_client_is_counted_apart(
    tight_anon_limit: None, settings: SettingsWrapper
) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    proxy = "10.1.2.3"
    for _ in range(LIMIT):
        assert _get(proxy, forwarded_for="198.51.100.1").status_code == 200
    assert _get(proxy, forwarded_for="198.51.100.1").status_code == 429
    # Another client behind the same proxy has its own allowance...
    assert _get(proxy, forwarded_for="198.51.100.2").status_code == 200
    # ...but a forged left part of the header, appended to by the proxy, is not believed.
    forged = _get(proxy, forwarded_for="192.0.2.99, 198.51.100.1")
    assert forged.status_code == 429
