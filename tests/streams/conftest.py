"""The streams tests share the background-work tests' cast and broker fixtures."""

from typing import Any

import pytest

from tests.tasks.conftest import live_broker, make_user, users

__all__ = ["live_broker", "make_user", "users"]


@pytest.fixture
def short_streams(settings: Any) -> None:
    """Streams that end after 0.6 s, with keep-alives every 0.2 s (tests read them whole)."""
    settings.STREAM_MAX_SECONDS = 0.6
    settings.STREAM_KEEPALIVE_SECONDS = 0.2
    settings.STREAM_POLL_SECONDS = 0.05
