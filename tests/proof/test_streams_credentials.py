"""An open stream ends when the credential that opened it no longer holds: a revoked
token, a logged-out session, a session whose password was changed elsewhere. After that,
no further event reaches it (the real stream server: uvicorn, production settings, Redis
wake-ups)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from games import services
from games.models import ApiToken, Event, Game
from tests.procs import Uvicorn
from tests.proof.stream_server import Stream, stream_server, three_player_game
from tests.streams.conftest import users
from tests.streams.test_events import step

__all__ = ["users"]

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ENDS_WITHIN = 4.0  # seconds


@pytest.fixture
def server(transactional_db: None, tmp_path: Path, settings: SettingsWrapper) -> Iterator[Uvicorn]:
    # The fallback poll is long: the stream must notice at the next wake-up (the event).
    started = stream_server(
        tmp_path,
        settings,
        STREAM_FALLBACK_POLL_SECONDS="30",
        STREAM_KEEPALIVE_SECONDS="30",
        STREAM_MAX_SECONDS="120",
    )
    yield started
    started.kill()


def _live(stream: Stream, game: Game, users: list[Any], rng: random.Random) -> None:
    """The stream is open and carries the game's moves."""
    assert stream.next("status", 5) == 200
    stream.next("id", 5)
    game.refresh_from_db()
    step(game, users, rng)
    _, data = stream.next("message", 5)
    assert data["type"] == "move"


def _latest_event() -> int:
    return int(Event.objects.order_by("-id").values_list("id", flat=True).first() or 0)


def _ends_carrying_nothing_after(stream: Stream, last: int) -> None:
    """The stream ends within ENDS_WITHIN seconds, and carries no event after ``last``
    (the newest event when the credential stopped holding)."""
    seen = stream.until_end(ENDS_WITHIN)
    late = [value for kind, value in seen if kind == "message" and value[0] > last]
    assert late == [], f"events after the credential ended: {late}"


def _ends_without_another_event(
    stream: Stream, game: Game, users: list[Any], rng: random.Random
) -> float:
    """An event happens; the stream ends without carrying it. Returns how long it took."""
    last = _latest_event()
    game.refresh_from_db()
    started = time.monotonic()
    step(game, users, rng)
    assert _latest_event() > last
    _ends_carrying_nothing_after(stream, last)
    return time.monotonic() - started


def test_a_revoked_token_ends_its_stream(users: list[Any], server: Uvicorn) -> None:
    game = three_player_game(users)
    rng = random.Random(11)
    token, raw = services.token_issue(user=users[0], scopes=["read"])
    stream = Stream(
        f"{server.url}/api/v1/games/{game.pk}/stream", {"Authorization": f"Bearer {raw}"}
    )
    account = Stream(f"{server.url}/api/v1/stream", {"Authorization": f"Bearer {raw}"})
    try:
        assert account.next("status", 5) == 200
        account.next("id", 5)
        _live(stream, game, users, rng)
        services.token_revoke(token_id=token.pk, user=users[0])
        assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
        last = _latest_event()
        took = _ends_without_another_event(stream, game, users, rng)
        print(f"\nrevoked token: stream ended {took:.2f} s after the next event")
        # The account stream ends too, at its next wake-up: an event for the owner's
        # account (someone joins a game the owner sits at).
        other = services.game_create(creator=users[0], player_count=3, rated=False)
        services.game_join(game_id=other.pk, user=users[1])
        assert Event.objects.filter(user=users[0], id__gt=last).exists()
        _ends_carrying_nothing_after(account, last)
    finally:
        stream.close()
        account.close()


def _logged_in(user: Any) -> tuple[Client, dict[str, str]]:
    client = Client()
    client.force_login(user)
    key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return client, {"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={key}"}


def _log_out(client: Client, user: Any) -> None:
    client.logout()


def _password_changed_elsewhere(client: Client, user: Any) -> None:
    user.set_password("a new password, changed on another device")
    user.save()


@pytest.mark.parametrize(
    "end_session", [_log_out, _password_changed_elsewhere], ids=["logout", "password-change"]
)
def test_a_session_that_no_longer_holds_ends_its_stream(
    users: list[Any], server: Uvicorn, end_session: Callable[[Client, Any], None]
) -> None:
    game = three_player_game(users)
    rng = random.Random(12)
    client, cookie = _logged_in(users[0])
    stream = Stream(f"{server.url}/api/v1/games/{game.pk}/stream", cookie)
    try:
        _live(stream, game, users, rng)
        end_session(client, users[0])
        took = _ends_without_another_event(stream, game, users, rng)
        print(f"\n{end_session.__name__}: stream ended {took:.2f} s after the next event")
    finally:
        stream.close()
