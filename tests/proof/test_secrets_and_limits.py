"""Tokens are never stored or logged in clear, and the actions scope is rate-limited.

Every log record of every logger (root, django.request, django.security.*, the SQL of
django.db.backends at DEBUG) is captured while tokens are issued (API, web page,
management command), used, used wrongly and revoked; the clear token must appear in none
of them, in no SQL statement, and in no database row (only its SHA-256 hash and a
12-character prefix are kept).
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.test import Client as DjangoClient
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import ApiToken, Game
from tests.api.conftest import Bearer
from tests.api.support import Client, assert_error, game_url

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"ind_[A-Za-z0-9_-]{20,}")


class Everything(logging.Handler):
    """Keeps every formatted record (message, arguments and traceback)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
        self.lines.append(repr(getattr(record, "request", "")))


@pytest.fixture
def every_log_line() -> Iterator[Everything]:
    handler = Everything()
    root = logging.getLogger()
    loggers = [root, *(logging.getLogger(n) for n in ("django.db.backends", "django.request"))]
    saved = [(logger, logger.level) for logger in loggers]
    root.addHandler(handler)
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    for logger, level in saved:
        logger.setLevel(level)


def database_text() -> str:
    """Every row of every table, as text."""
    rows = []
    for model in apps.get_models():
        rows.extend(map(repr, model.objects.values_list()))
    return "\n".join(rows)


def test_no_clear_token_reaches_a_log_a_query_or_a_row(
    every_log_line: Everything, game: Game, owner: Any, bearer: Bearer
) -> None:
    clear: list[str] = []
    with CaptureQueriesContext(connection) as queries:
        # Issued by the API (as a token holder would see it on the web page) ...
        client = bearer(owner)
        clear.append(client.token)
        # ... by the web settings page ...
        web = DjangoClient()
        web.force_login(owner)
        page = web.post("/settings/", {"form": "token", "name": "cli", "play": "on"})
        clear += TOKEN.findall(page.content.decode())
        # ... and by the management command (it prints the token alone on its last line).
        out = io.StringIO()
        call_command("issue_token", "owner", stdout=out)
        clear.append(out.getvalue().strip().splitlines()[-1])
        # Used, used wrongly, revoked and used again.
        assert client.get(game_url(game)).status_code == 200
        assert client.get("/api/v1/stream").status_code == 200
        wrong = Client(raise_request_exception=False)
        wrong.credentials(HTTP_AUTHORIZATION=f"Bearer {clear[0]}x")
        assert wrong.get("/api/v1/me").status_code == 401
        token = ApiToken.objects.get(token_hash=hashlib.sha256(clear[0].encode()).hexdigest())
        services.token_revoke(token_id=token.pk, user=owner)
        assert client.get("/api/v1/me").status_code == 401
    assert len(clear) == 3
    assert all(TOKEN.fullmatch(raw) for raw in clear), clear
    logged = "\n".join(every_log_line.lines)
    sql = "\n".join(str(q["sql"]) + repr(q.get("params")) for q in queries.captured_queries)
    stored = database_text()
    assert "Unauthorized" in logged, "the failed uses were logged (so the capture works)"
    for raw in clear:
        assert raw not in logged
        assert raw not in sql
        assert raw not in stored
        assert hashlib.sha256(raw.encode()).hexdigest() in stored
        assert raw[:12] in stored  # only the prefix, never the rest
        assert len(raw) >= 40


def test_the_actions_scope_answers_429_with_retry_after_and_changes_nothing(
    game: Game, owner: Any, opponent: Any, third: Any, bearer: Bearer, settings: SettingsWrapper
) -> None:
    rates = {"anon": None, "user": None, "actions": "3/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    players = [owner, opponent, third]
    assert game.to_act_seat is not None
    client = bearer(players[(game.to_act_seat + 1) % 3])  # refused actions count too
    body = {"action": {"type": "pass"}}
    statuses = [client.post(game_url(game, "actions"), body, format="json").status_code]
    statuses += [client.post(game_url(game, "actions"), body, format="json").status_code]
    statuses += [client.post(game_url(game, "actions"), body, format="json").status_code]
    game.refresh_from_db()
    version = game.version
    response = client.post(game_url(game, "actions"), body, format="json")
    assert statuses == [409, 409, 409]
    error = assert_error(response, 429, "throttled")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response["Retry-After"] in error["detail"]
    game.refresh_from_db()
    assert game.version == version
    # Reading is another scope: still served; and another account is not throttled.
    assert client.get(game_url(game)).status_code == 200
    actor = bearer(players[game.to_act_seat])
    view = actor.get(game_url(game)).json()
    answer = actor.post(
        game_url(game, "actions"), {"action": view["legal_actions"][0]}, format="json"
    )
    assert answer.status_code == 200
