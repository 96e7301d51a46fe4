"""Log-in attempts are limited per username as the log-in reads it (spaces, full-width
letters and case do not make a new name), per client address, and on /admin/login/ too."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"


def _limits(settings: SettingsWrapper, **rates: str) -> None:
    settings.WEB_RATE_LIMITS = {**settings.WEB_RATE_LIMITS, **rates}


def _attempt(url: str, username: str, password: str = "wrong", **extra: Any) -> int:  # noqa: S107
    return int(
        Client().post(url, {"username": username, "password": password}, **extra).status_code
    )


def test_variants_of_one_username_share_its_limit(settings: SettingsWrapper, owner: Any) -> None:
    _limits(settings, login="3/min", login_address="100/min")
    for variant in (" owner", "ＯＷＮＥＲ", "Owner"):
        assert _attempt(LOGIN, variant) == 200  # the form again, with its error
    for variant in ("owner ", "ｏｗｎｅｒ", "OWNER", "owner"):
        assert _attempt(LOGIN, variant) == 429, variant
    # Even the right password is refused until the window passes.
    assert _attempt(LOGIN, "owner", "pw") == 429
    # Another name is counted apart.
    assert _attempt(LOGIN, "opponent") == 200


def test_an_address_trying_many_names_is_limited(settings: SettingsWrapper) -> None:
    _limits(settings, login="100/min", login_address="5/min")
    for n in range(5):
        assert _attempt(LOGIN, f"guess{n}") == 200
    assert _attempt(LOGIN, "guess5") == 429
    # A forged X-Forwarded-For (no trusted proxy) is not a new address...
    assert _attempt(LOGIN, "guess6", HTTP_X_FORWARDED_FOR="198.51.100.9") == 429
    # ...another address is.
    assert _attempt(LOGIN, "guess7", REMOTE_ADDR="203.0.113.5") == 200


def test_the_admin_login_is_limited_and_shares_the_counters(
    settings: SettingsWrapper, staff: Any
) -> None:
    _limits(settings, login="3/min", login_address="100/min")
    assert _attempt(LOGIN, "staff") == 200
    assert _attempt(ADMIN_LOGIN, "STAFF") == 200
    assert _attempt(ADMIN_LOGIN, " staff") == 200
    refused = Client().post(ADMIN_LOGIN, {"username": "staff", "password": "pw"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert _attempt(LOGIN, "staff", "pw") == 429


def test_the_admin_login_has_the_per_address_limit(settings: SettingsWrapper) -> None:
    _limits(settings, login="100/min", login_address="2/min")
    assert _attempt(ADMIN_LOGIN, "a1") == 200
    assert _attempt(ADMIN_LOGIN, "a2") == 200
    assert _attempt(ADMIN_LOGIN, "a3") == 429


def test_below_the_limits_logging_in_works(settings: SettingsWrapper, owner: Any) -> None:
    _limits(settings, login="3/min", login_address="5/min")
    assert _attempt(LOGIN, "owner") == 200
    assert _attempt(LOGIN, " owner ", "pw") == 302  # the log-in strips and normalises too
