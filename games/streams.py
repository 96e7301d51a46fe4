"""Live streams: Server-Sent Events for one game and for one account (docs/streams.md).

``GET /api/v1/games/{id}/stream``: the game's events as the caller's seat may see them
(spectators: the public part only). ``GET /api/v1/stream``: the caller's account events.

Each message is ``id: <event id>`` plus one ``data:`` line holding one JSON object with
at least ``type``, ``game`` and ``version``; there is no ``event:`` field, so browsers
dispatch every message as ``message``. A client that reconnects with ``Last-Event-ID``
(or ``?last_event_id=``) first gets exactly the events after that id, then live ones. A
new connection starts with ``id: <latest>`` and no data: browsers remember the id without
dispatching anything, so even a client that saw no event resumes without a gap.
``: keep-alive`` comments go out every STREAM_KEEPALIVE_SECONDS; a connection ends after
STREAM_MAX_SECONDS and the client reconnects.

Under ASGI (uvicorn, the ``streams`` service) the response is an async generator woken
by Redis pub/sub; under WSGI (``manage.py runserver``, gunicorn) a plain generator. Both
read the event table, which is the source of truth; without Redis they poll it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.db.models import Max
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from games import events, selectors, services
from games.models import Event, Game, TokenScope

BATCH = 200
KEEP_ALIVE = ": keep-alive\n\n"


@dataclass(frozen=True)
class StreamSource:
    """Which events a connection reads, and as which seat."""

    channel: str
    game_id: int | None = None
    user_id: int | None = None
    seat: int | None = None

    def events(self) -> Any:
        if self.game_id is not None:
            return Event.objects.filter(game_id=self.game_id)
        assert self.user_id is not None
        return Event.objects.filter(user_id=self.user_id)

    def latest(self) -> int:
        return int(self.events().aggregate(latest=Max("id"))["latest"] or 0)

    def fetch(self, cursor: int, *, close: bool = False) -> list[tuple[int, str]]:
        """The next messages after ``cursor``, as (event id, SSE text)."""
        try:
            rows = list(self.events().filter(id__gt=cursor).order_by("id")[:BATCH])
            return [(e.pk, sse_message(e.pk, events.event_data(e, seat=self.seat))) for e in rows]
        finally:
            if close:  # an executor thread: give the connection back (or to the pool)
                connection.close()


def sse_message(event_id: int, data: dict[str, Any]) -> str:
    return f"id: {event_id}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _preamble(cursor: int) -> str:
    # ``retry`` sets the browser's reconnection delay; a data-less ``id`` sets its
    # Last-Event-ID without dispatching a message.
    return f"retry: {settings.STREAM_RETRY_MILLISECONDS}\nid: {cursor}\n\n"


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def _caller(request: HttpRequest) -> tuple[User | AnonymousUser, JsonResponse | None]:
    """The session's user, or the bearer token's (which needs the ``read`` scope)."""
    scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return request.user, None
    token = services.token_authenticate(raw=raw.strip())
    if token is None:
        return AnonymousUser(), _error(
            401, "not_authenticated", "The bearer token is unknown or has been revoked."
        )
    if TokenScope.READ not in token.scopes:
        return AnonymousUser(), _error(
            403, "insufficient_scope", "This token lacks the 'read' scope needed for streams."
        )
    return token.user, None


def _resume_from(request: HttpRequest) -> tuple[int | None, JsonResponse | None]:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw is None or raw.strip() == "":
        return None, None
    try:
        value = int(raw.strip())
    except ValueError:
        value = -1
    if value < 0:
        return None, _error(
            400, "invalid_request", "Last-Event-ID must be a non-negative integer event id."
        )
    return value, None


@require_GET
def game_stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """A game's live events, filtered for the caller's seat (spectators: public only)."""
    user, error = _caller(request)
    if error is not None:
        return error
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return _error(404, "not_found", f"There is no game {game_id}.")
    source = StreamSource(
        channel=events.game_channel(game.pk),
        game_id=game.pk,
        seat=selectors.seat_of(game=game, user=user),
    )
    return _response(request, source)


@require_GET
def account_stream(request: HttpRequest) -> HttpResponseBase:
    """The caller's account events: game started, your turn, reminders, game finished..."""
    user, error = _caller(request)
    if error is not None:
        return error
    if not user.is_authenticated:
        return _error(
            401,
            "not_authenticated",
            "Authentication is required: send 'Authorization: Bearer <token>' or log in.",
        )
    return _response(request, StreamSource(channel=events.user_channel(user.pk), user_id=user.pk))


def _response(request: HttpRequest, source: StreamSource) -> HttpResponseBase:
    cursor, error = _resume_from(request)
    if error is not None:
        return error
    if cursor is None:
        cursor = source.latest()
    content: Iterator[str] | AsyncIterator[str]
    if isinstance(request, ASGIRequest):
        content = _stream_async(source, cursor)
    else:
        content = _stream_sync(source, cursor)
    response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: do not buffer the stream
    return response


def _poll_seconds() -> float:
    if settings.REDIS_URL:
        return float(settings.STREAM_FALLBACK_POLL_SECONDS)
    return float(settings.STREAM_POLL_SECONDS)


class _Pace:
    """When a stream connection ends, and how long it may wait before its next write
    (a keep-alive comment is due every STREAM_KEEPALIVE_SECONDS of silence)."""

    def __init__(self) -> None:
        self.started = self.last_write = time.monotonic()

    def left(self) -> float:
        return settings.STREAM_MAX_SECONDS - (time.monotonic() - self.started)

    def wrote(self) -> None:
        self.last_write = time.monotonic()

    def keep_alive_due(self) -> bool:
        return time.monotonic() - self.last_write >= settings.STREAM_KEEPALIVE_SECONDS

    def wait(self) -> float:
        silence = time.monotonic() - self.last_write
        return max(
            min(_poll_seconds(), self.left(), settings.STREAM_KEEPALIVE_SECONDS - silence), 0.01
        )


def _stream_sync(source: StreamSource, cursor: int) -> Iterator[str]:
    """WSGI: a thread per connection, woken by Redis when configured, else polling."""
    pubsub = None
    client = None
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(source.channel)
    try:
        yield _preamble(cursor)
        pace = _Pace()
        while pace.left() > 0:
            batch = source.fetch(cursor)
            for event_id, message in batch:
                yield message
                cursor = event_id
            if batch:
                pace.wrote()
                continue
            if pace.keep_alive_due():
                yield KEEP_ALIVE
                pace.wrote()
            wait = pace.wait()
            if pubsub is not None:
                pubsub.get_message(timeout=wait)
            else:
                time.sleep(wait)
    finally:
        if pubsub is not None and client is not None:
            pubsub.close()
            client.close()


async def _stream_async(source: StreamSource, cursor: int) -> AsyncIterator[str]:
    """ASGI: one coroutine per connection, woken by Redis pub/sub (or polling)."""
    fetch = sync_to_async(source.fetch, thread_sensitive=False)
    pubsub = None
    client = None
    if settings.REDIS_URL:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(source.channel)  # before the first read: no wake-up is lost
    try:
        yield _preamble(cursor)
        pace = _Pace()
        while pace.left() > 0:
            batch = await fetch(cursor, close=True)
            for event_id, message in batch:
                yield message
                cursor = event_id
            if batch:
                pace.wrote()
                continue
            if pace.keep_alive_due():
                yield KEEP_ALIVE
                pace.wrote()
            wait = pace.wait()
            if pubsub is not None:
                await pubsub.get_message(timeout=wait)
            else:
                await asyncio.sleep(wait)
    finally:
        if pubsub is not None and client is not None:
            await pubsub.aclose()
            await client.aclose()
