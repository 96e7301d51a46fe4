"""Schemathesis over the whole OpenAPI schema, against the Django app in WSGI mode.

Every operation of ``/api/v1/schema/`` gets a bounded, derandomized batch of generated
requests, once with the bearer token of a seated player and once anonymously. Every
answer must be below 500 and conform to the schema (status documented, body matching
its declared shape, content type declared).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from pytest_django.fixtures import Settings as SettingsWrapper
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
)

from games import mail_limits, webhook_net
from games.models import Game
from tests.api.conftest import Bearer

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = 25
# Leniency is not a fault: the API accepts some values the schema is stricter about
# (``rated: 0`` as false, an empty ``?status=`` as no filter), and a schema-valid action
# may still be illegal in the game (400 ``illegal_action``). Everything else is checked:
# no 5xx, documented status codes, content types and response bodies.
EXCLUDED = [negative_data_rejection, positive_data_acceptance]
# The event streams' body is documented as one string (OpenAPI 3.0 has no per-event
# schema); schemathesis 4 validates each parsed SSE event (an object: id, event, data)
# against it and fails every stream. Their status, content type and auth stay checked;
# their events are checked by tests/streams and test_hidden_cards_all_channels.py.
STREAM_EXCLUDED = [*EXCLUDED, response_schema_conformance]


def _excluded(case: Any) -> list[Any]:
    return STREAM_EXCLUDED if case.path.endswith("/stream") else EXCLUDED


@pytest.fixture
def _keep_test_connection() -> Iterator[None]:
    """Django's test client detaches close_old_connections from the request signals (the
    test's transaction lives on that connection); schemathesis' WSGI client must too."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fuzzed webhooks point anywhere: their deliveries must not leave the machine."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise urllib.error.URLError("no network in the fuzz tests")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)

    def no_post(*args: Any, **kwargs: Any) -> tuple[int | None, str]:
        return None, "no network in the fuzz tests"

    monkeypatch.setattr(webhook_net, "post", no_post)  # how deliveries are made


@pytest.fixture(autouse=True)
def _unthrottled(settings: SettingsWrapper, _keep_test_connection: None) -> None:
    # Throttles would answer most generated requests with 429 before any code under test
    # runs; the rate limits have their own tests (tests/proof/test_secrets_and_limits.py,
    # tests/api/test_throttles.py, tests/api/test_errors.py; the web pages':
    # tests/web/test_rate_limits.py).
    rates = {"anon": None, "user": None, "actions": None}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    # The mail limits (challenges, disputes): tests/proof/test_mail_limits.py.
    settings.MAIL_RATE_LIMITS = dict.fromkeys(mail_limits.DEFAULT_LIMITS)
    # A stream answers for STREAM_MAX_SECONDS (300 s): fuzzing reads each to its end.
    settings.STREAM_MAX_SECONDS = 0.2
    settings.STREAM_POLL_SECONDS = 0.05


@pytest.fixture
def seated_token(game: Game, owner: Any, bearer: Bearer) -> Iterator[tuple[Game, str]]:
    yield game, bearer(owner).token
    cache.clear()


schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())
FUZZ = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _aim(case: Any, game: Game) -> None:
    """Half the generated game ids point at the real game, so that the checks reach past
    the 404 into the endpoints' own code."""
    params = case.path_parameters or {}
    if "game_id" in params and isinstance(params["game_id"], int) and params["game_id"] % 2 == 0:
        params["game_id"] = game.pk


@schema.parametrize()
@FUZZ
def test_a_seated_player_never_gets_a_5xx_or_an_answer_off_the_schema(
    case: Any, seated_token: tuple[Game, str]
) -> None:
    game, token = seated_token
    _aim(case, game)
    case.call_and_validate(
        headers={"Authorization": f"Bearer {token}"}, excluded_checks=_excluded(case)
    )


@schema.parametrize()
@FUZZ
def test_an_anonymous_caller_never_gets_a_5xx_or_an_answer_off_the_schema(
    case: Any, game: Game
) -> None:
    _aim(case, game)
    case.call_and_validate(excluded_checks=_excluded(case))
