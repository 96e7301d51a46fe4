"""The bot kit's tests: the client package, the example bots, the conformance tool.

The client lives in ``clients/python`` (``pip install -e clients/python``); when it is
not installed, this puts it on ``sys.path`` so that the tests run either way. Servers
are pytest-django's ``live_server`` (a threaded WSGI server in this process; without a
broker, bot turns run in the request right after each commit).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from pytest_django.fixtures import Settings as SettingsWrapper

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "clients" / "python"
try:
    import indulgence_client  # noqa: F401
except ImportError:
    sys.path.insert(0, str(CLIENT_DIR))


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def unthrottled(settings: SettingsWrapper) -> None:
    rates = {"anon": None, "user": None, "actions": None}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture
def fast_streams(settings: SettingsWrapper) -> None:
    """Streams that poll often, keep alive often and end soon (so reconnections happen)."""
    settings.STREAM_POLL_SECONDS = 0.05
    settings.STREAM_KEEPALIVE_SECONDS = 0.5
    settings.STREAM_MAX_SECONDS = 4


@pytest.fixture
def bot_token(transactional_db: None) -> Callable[[str], str]:
    """A bot account named ``username`` and a new read+play token for it."""
    from games import services

    def make(username: str) -> str:
        user = get_user_model().objects.create_user(username=username)
        services.player_ensure(user=user, is_bot=True, bot_kind="")
        return services.token_issue(user=user, name="kit")[1]

    return make


@pytest.fixture
def streams_drained(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Wait, after the test, until the live server's stream threads have ended.

    A stream whose client went away (a stopped bot, a cut connection) ends at its next
    write; if it still read the event table while the test database is flushed, the
    flush could deadlock with it.
    """
    from games import streams

    active: list[int] = []
    original = streams._stream_sync

    def counted(source: Any, cursor: int) -> Iterator[str]:
        active.append(1)
        try:
            yield from original(source, cursor)
        finally:
            active.pop()

    monkeypatch.setattr(streams, "_stream_sync", counted)
    yield
    deadline = time.monotonic() + 10
    while active and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not active, f"{len(active)} live streams did not end"


@pytest.fixture
def server(live_server: Any, unthrottled: None, fast_streams: None, streams_drained: None) -> str:
    return str(live_server.url)
