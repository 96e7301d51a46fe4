"""The proof suites (issue 10) share the API tests' clients and game: bearer / session
clients and a three-player game (the cast of users is tests/conftest.py's)."""

from tests.api.conftest import _fresh_throttles, anonymous, bearer, game, session

__all__ = ["_fresh_throttles", "anonymous", "bearer", "game", "session"]
