"""The cast of the server tests: an owner, an opponent, an outsider and staff."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def make_user(db: None) -> Any:
    def make(username: str, **extra: Any) -> Any:
        return get_user_model().objects.create_user(username=username, password="pw", **extra)

    return make


@pytest.fixture
def owner(make_user: Any) -> Any:
    return make_user("owner")


@pytest.fixture
def opponent(make_user: Any) -> Any:
    return make_user("opponent")


@pytest.fixture
def third(make_user: Any) -> Any:
    return make_user("third")


@pytest.fixture
def outsider(make_user: Any) -> Any:
    return make_user("outsider")
