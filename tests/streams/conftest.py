"""The streams tests share the background-work tests' cast and broker fixtures."""

from tests.tasks.conftest import live_broker, make_user, users

__all__ = ["live_broker", "make_user", "users"]
