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
read the event table, which is the source of truth; without Redis, or while Redis cannot
be reached, they poll it (and subscribe again once Redis answers).

No database connection stays with a stream: the view gives its connection back before the
response starts, and each read takes one and gives it back at once, in the thread that
took it (Django's connections are per thread; with psycopg's pool, closing returns it).
Each read first checks that the credential that opened the stream still holds (the token
is not revoked, the session still exists and its password hash still matches); the stream
ends when it does not. Open streams are limited per client address and per account
(:mod:`games.stream_slots`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.db.models import Max
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.crypto import constant_time_compare
from django.views.decorators.http import require_GET

from games import events, selectors, services, stream_slots
from games.client_address import client_address
from games.models import ApiToken, Event, Game, TokenScope
from games.warnings_every import WarnEvery

logger = logging.getLogger(__name__)

BATCH = 200
KEEP_ALIVE = ": keep-alive\n\n"
# What an unreachable Redis raises (redis-py wraps socket errors, but not always).
REDIS_DOWN = (redis.RedisError, OSError)


def connection_release() -> None:
    """Give this thread's database connection back: closed, or returned to psycopg's pool.
    Never inside a transaction (a caller's atomic block keeps its connection)."""
    if not connection.in_atomic_block:
        connection.close()


@dataclass(frozen=True)
class Credential:
    """What opened the stream, checked again before every read: a bearer token, or a
    login session (its key, whose account, and that account's password hash in it)."""

    user_id: int
    token_id: int | None = None
    session_key: str | None = None

    def holds(self) -> bool:
        if self.token_id is not None:
            return ApiToken.objects.filter(
                pk=self.token_id, revoked_at__isnull=True, user__is_active=True
            ).exists()
        if self.session_key is None:
            return True
        # Logged out, expired or flushed: the session is gone (load() gives {}).
        data = import_module(settings.SESSION_ENGINE).SessionStore(self.session_key).load()
        if str(data.get(SESSION_KEY)) != str(self.user_id):
            return False
        user = get_user_model()._default_manager.filter(pk=self.user_id, is_active=True).first()
        stored = data.get(HASH_SESSION_KEY)
        # A password changed since the login changes the hash (Django's own check).
        return bool(
            user is not None
            and stored
            and constant_time_compare(stored, user.get_session_auth_hash())
        )


@dataclass(frozen=True)
class StreamSource:
    """Which events a connection reads, and as which seat."""

    channel: str
    game_id: int | None = None
    user_id: int | None = None
    seat: int | None = None
    credential: Credential | None = None
    slot: stream_slots.Slot | None = field(default=None, compare=False)

    def events(self) -> Any:
        if self.game_id is not None:
            return Event.objects.filter(game_id=self.game_id)
        assert self.user_id is not None
        return Event.objects.filter(user_id=self.user_id)

    def latest(self) -> int:
        return int(self.events().aggregate(latest=Max("id"))["latest"] or 0)

    def fetch(self, cursor: int) -> list[tuple[int, str]]:
        """The next messages after ``cursor``, as (event id, SSE text)."""
        rows = list(self.events().filter(id__gt=cursor).order_by("id")[:BATCH])
        return [(e.pk, sse_message(e.pk, events.event_data(e, seat=self.seat))) for e in rows]

    def poll(self, cursor: int) -> list[tuple[int, str]] | None:
        """The next messages, or None when the stream must end (its credential no longer
        holds). Takes a database connection and gives it back before returning."""
        try:
            if self.credential is not None and not self.credential.holds():
                return None
            return self.fetch(cursor)
        finally:
            connection_release()


def sse_message(event_id: int, data: dict[str, Any]) -> str:
    return f"id: {event_id}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _preamble(cursor: int) -> str:
    # ``retry`` sets the browser's reconnection delay; a data-less ``id`` sets its
    # Last-Event-ID without dispatching a message.
    return f"retry: {settings.STREAM_RETRY_MILLISECONDS}\nid: {cursor}\n\n"


def _error(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


Caller = tuple[User | AnonymousUser, Credential | None, JsonResponse | None]


def _caller(request: HttpRequest) -> Caller:
    """The session's user, or the bearer token's (which needs the ``read`` scope), with
    the credential the stream re-checks."""
    scheme, _, raw = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        user = request.user
        if not user.is_authenticated:
            return user, None, None
        session_key = request.session.session_key
        credential = Credential(user_id=user.pk, session_key=session_key or "")
        return user, credential, None
    token = services.token_authenticate(raw=raw.strip())
    if token is None:
        return (
            AnonymousUser(),
            None,
            _error(401, "not_authenticated", "The bearer token is unknown or has been revoked."),
        )
    if TokenScope.READ not in token.scopes:
        return (
            AnonymousUser(),
            None,
            _error(
                403, "insufficient_scope", "This token lacks the 'read' scope needed for streams."
            ),
        )
    return token.user, Credential(user_id=token.user_id, token_id=token.pk), None


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


def _gives_connection_back(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """The view gives its thread's database connection back before its response starts
    streaming, whatever it answers: the stream's reads take their own connections. (The
    old views kept it for the whole stream, and under ASGI the connections of requests
    whose clients hung up while waiting for the pool never came back: tests/proof/
    test_streams_pool.py.)"""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, *args, **kwargs)
        finally:
            connection_release()

    return wrapped


@require_GET
@_gives_connection_back
def game_stream(request: HttpRequest, game_id: int) -> HttpResponseBase:
    """A game's live events, filtered for the caller's seat (spectators: public only)."""
    user, credential, error = _caller(request)
    if error is not None:
        return error
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return _error(404, "not_found", f"There is no game {game_id}.")
    source = StreamSource(
        channel=events.game_channel(game.pk),
        game_id=game.pk,
        seat=selectors.seat_of(game=game, user=user),
        credential=credential,
    )
    return _response(request, source, user)


@require_GET
@_gives_connection_back
def account_stream(request: HttpRequest) -> HttpResponseBase:
    """The caller's account events: game started, your turn, reminders, game finished..."""
    user, credential, error = _caller(request)
    if error is not None:
        return error
    if not user.is_authenticated:
        return _error(
            401,
            "not_authenticated",
            "Authentication is required: send 'Authorization: Bearer <token>' or log in.",
        )
    source = StreamSource(
        channel=events.user_channel(user.pk), user_id=user.pk, credential=credential
    )
    return _response(request, source, user)


def _too_many(refusal: stream_slots.Refusal) -> JsonResponse:
    who = "this address" if refusal.scope == "address" else "this account"
    response = _error(
        429,
        "too_many_streams",
        f"Too many open streams for {who} (at most {refusal.limit}): close one, or retry "
        f"in {stream_slots.RETRY_AFTER_SECONDS} seconds.",
    )
    response["Retry-After"] = str(stream_slots.RETRY_AFTER_SECONDS)
    return response


def _response(
    request: HttpRequest, source: StreamSource, user: User | AnonymousUser
) -> HttpResponseBase:
    cursor, error = _resume_from(request)
    if error is not None:
        return error
    slot = stream_slots.slot_take(
        address=client_address(request), user_id=user.pk if user.is_authenticated else None
    )
    if isinstance(slot, stream_slots.Refusal):
        return _too_many(slot)
    try:
        source = dataclasses.replace(source, slot=slot)
        if cursor is None:
            cursor = source.latest()
        content: Iterator[str] | AsyncIterator[str]
        if isinstance(request, ASGIRequest):
            content = _stream_async(source, cursor)
        else:
            content = _stream_sync(source, cursor)
        response = StreamingHttpResponse(content, content_type="text/event-stream; charset=utf-8")
    except BaseException:
        slot.release()
        raise
    # The stream gives its place back when it ends; a request cancelled before its
    # stream began gives it back when its response is dropped (or it expires).
    weakref.finalize(response, slot.release)
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


_warn = WarnEvery(logger)


def _redis_down(exc: BaseException) -> None:
    """Log (at most every 10 s per process) that streams poll instead of being woken."""
    _warn("stream wake-ups unavailable, polling the event table: %s", exc)


class _Wakeups:
    """Redis pub/sub on the stream's channel (WSGI: blocking). While Redis cannot be
    reached, wait() just sleeps (the stream polls) and subscribing is tried again."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.client: redis.Redis | None = None
        self.pubsub: Any = None

    def open(self) -> None:
        if not settings.REDIS_URL or self.pubsub is not None:
            return
        try:
            self.client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
            self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            self.pubsub.subscribe(self.channel)
        except REDIS_DOWN as exc:
            _redis_down(exc)
            self.close()

    def wait(self, timeout: float) -> None:
        if self.pubsub is None:
            time.sleep(timeout)
            self.open()  # back: the next event wakes the stream at once again
            return
        try:
            self.pubsub.get_message(timeout=timeout)
        except REDIS_DOWN as exc:
            _redis_down(exc)
            self.close()

    def close(self) -> None:
        pubsub, client, self.pubsub, self.client = self.pubsub, self.client, None, None
        try:
            if pubsub is not None:
                pubsub.close()
            if client is not None:
                client.close()
        except REDIS_DOWN:
            pass  # closing a connection to a Redis that is gone


class _AsyncWakeups:
    """The same for ASGI: asyncio Redis pub/sub, or sleeping while Redis is down."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.client: redis.asyncio.Redis | None = None
        self.pubsub: Any = None

    async def open(self) -> None:
        if not settings.REDIS_URL or self.pubsub is not None:
            return
        try:
            self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
            self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            await self.pubsub.subscribe(self.channel)
        except REDIS_DOWN as exc:
            _redis_down(exc)
            await self.close()

    async def wait(self, timeout: float) -> None:
        if self.pubsub is None:
            await asyncio.sleep(timeout)
            await self.open()
            return
        try:
            await self.pubsub.get_message(timeout=timeout)
        except REDIS_DOWN as exc:
            _redis_down(exc)
            await self.close()

    async def close(self) -> None:
        pubsub, client, self.pubsub, self.client = self.pubsub, self.client, None, None
        try:
            if pubsub is not None:
                await pubsub.aclose()
            if client is not None:
                await client.aclose()
        except REDIS_DOWN:
            pass


def _stream_sync(source: StreamSource, cursor: int) -> Iterator[str]:
    """WSGI: a thread per connection, woken by Redis when configured, else polling."""
    wakeups = _Wakeups(source.channel)
    try:
        wakeups.open()  # before the first read: no wake-up is lost
        yield _preamble(cursor)
        pace = _Pace()
        while pace.left() > 0:
            batch = source.poll(cursor)
            if batch is None:
                return  # the credential no longer holds
            for event_id, message in batch:
                yield message
                cursor = event_id
            if source.slot is not None and source.slot.renew_due():
                source.slot.renew()
            if batch:
                pace.wrote()
                continue
            if pace.keep_alive_due():
                yield KEEP_ALIVE
                pace.wrote()
            wakeups.wait(pace.wait())
    except DatabaseError as exc:
        logger.warning("stream on %s ended: the database failed: %s", source.channel, exc)
    finally:
        wakeups.close()
        if source.slot is not None:
            source.slot.release()


async def _stream_async(source: StreamSource, cursor: int) -> AsyncIterator[str]:
    """ASGI: one coroutine per connection, woken by Redis pub/sub (or polling). Each read
    runs in an executor thread, which gives its database connection back before the
    next await."""
    poll = sync_to_async(source.poll, thread_sensitive=False)
    wakeups = _AsyncWakeups(source.channel)
    try:
        # Anything the request's own thread still holds (middleware after the view) goes
        # back too: thread-sensitive code of this request runs in that same thread.
        await sync_to_async(connection_release, thread_sensitive=True)()
        await wakeups.open()  # before the first read: no wake-up is lost
        yield _preamble(cursor)
        pace = _Pace()
        while pace.left() > 0:
            batch = await poll(cursor)
            if batch is None:
                return  # the credential no longer holds
            for event_id, message in batch:
                yield message
                cursor = event_id
            if source.slot is not None and source.slot.renew_due():
                await sync_to_async(source.slot.renew, thread_sensitive=False)()
            if batch:
                pace.wrote()
                continue
            if pace.keep_alive_due():
                yield KEEP_ALIVE
                pace.wrote()
            await wakeups.wait(pace.wait())
    except DatabaseError as exc:
        logger.warning("stream on %s ended: the database failed: %s", source.channel, exc)
    finally:
        await wakeups.close()
        if source.slot is not None:
            await sync_to_async(source.slot.release, thread_sensitive=False)()
