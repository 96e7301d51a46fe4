"""The proof suites (issue 10) share the API tests' cast: owner (seat 0), opponent
(seat 1), third (seat 2), outsider, staff, and their bearer / session clients."""

from tests.api.conftest import (
    _fresh_throttles,
    anonymous,
    bearer,
    game,
    make_user,
    opponent,
    outsider,
    owner,
    session,
    staff,
    third,
)

__all__ = [
    "_fresh_throttles",
    "anonymous",
    "bearer",
    "game",
    "make_user",
    "opponent",
    "outsider",
    "owner",
    "session",
    "staff",
    "third",
]
