"""Suite-wide fixtures and the service gate for PostgreSQL and Redis tests."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

SERVICE_MARKERS = {
    "postgres": ("POSTGRES_AVAILABLE", "PostgreSQL", "TEST_DATABASE_URL"),
    "redis": ("REDIS_AVAILABLE", "Redis", "TEST_REDIS_URL"),
    "browser": ("CHROMIUM_AVAILABLE", "Chromium (apt-get install chromium)", "CHROMIUM_PATH"),
}


def _require_services() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker, (flag, label, url_setting) in SERVICE_MARKERS.items():
            if item.get_closest_marker(marker) is None or getattr(settings, flag):
                continue
            reason = f"{label} is not available at {getattr(settings, url_setting)}"
            if not _require_services():  # with REQUIRE_SERVICES, setup fails it instead
                item.add_marker(pytest.mark.skip(reason=reason))


def pytest_runtest_setup(item: pytest.Item) -> None:
    if not _require_services():
        return
    for marker, (flag, label, url_setting) in SERVICE_MARKERS.items():
        if item.get_closest_marker(marker) is not None and not getattr(settings, flag):
            url = getattr(settings, url_setting)
            pytest.fail(f"REQUIRE_SERVICES=1 but {label} is not available at {url}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    database = settings.DATABASES["default"]
    terminalreporter.write_line(
        f"SERVICES: database={database['ENGINE'].rsplit('.', 1)[-1]} "
        f"postgres={'reachable' if settings.POSTGRES_AVAILABLE else 'UNREACHABLE'} "
        f"redis={'reachable' if settings.REDIS_AVAILABLE else 'UNREACHABLE'} "
        f"chromium={'found' if settings.CHROMIUM_AVAILABLE else 'MISSING'}"
    )
    # Counted from the skip reports, so that it also works under pytest-xdist, where
    # collection (and the skip markers above) happen in the workers, not here.
    skips = {name: 0 for name in SERVICE_MARKERS}
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
        for name, (_flag, label, _url) in SERVICE_MARKERS.items():
            if reason.startswith(f"Skipped: {label} is not available at"):
                skips[name] += 1
    skipped = sum(skips.values())
    if skipped:
        detail = ", ".join(f"{n} {name}" for name, n in skips.items() if n)
        terminalreporter.write_line(
            f"!!! SERVICE TESTS NOT RUN: {skipped} ({detail}): start the services or install "
            "chromium, see README",
            red=True,
            bold=True,
        )


def _uses_database(item: pytest.Item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    return item.get_closest_marker("django_db") is not None or bool(
        fixtures & {"db", "transactional_db", "live_server"}
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """After every test that touched the database: each game's snapshot must equal a
    replay of its seed and move log (the move log is the truth, the snapshot a cache)."""
    result = yield
    if _uses_database(item):
        from tests.helpers import snapshot_mismatches

        mismatches = snapshot_mismatches()
        if mismatches:
            pytest.fail("snapshot differs from replay for: " + "; ".join(mismatches))
    return result


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request in Japanese activates it for
    the thread (as on a server, where the next request activates its own)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_rate_counters() -> None:
    """Rate counters live in the (local-memory) cache: each test starts with none, as a
    new minute would (every test signs up and logs in from the same 127.0.0.1)."""
    from django.core.cache import cache

    cache.clear()


# --- the cast: owner (creates games, seat 0), opponent, third, outsider (no seat), staff ---


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    def make(username: str, **extra: Any) -> Any:
        extra.setdefault("email", f"{username}@example.org")
        return get_user_model().objects.create_user(username=username, password="pw", **extra)

    return make


@pytest.fixture
def owner(make_user: Callable[..., Any]) -> Any:
    return make_user("owner")


@pytest.fixture
def opponent(make_user: Callable[..., Any]) -> Any:
    return make_user("opponent")


@pytest.fixture
def third(make_user: Callable[..., Any]) -> Any:
    return make_user("third")


@pytest.fixture
def outsider(make_user: Callable[..., Any]) -> Any:
    return make_user("outsider")


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> Any:
    return make_user("staff", is_staff=True)
