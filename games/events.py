"""Live events: written in the transaction of the change they describe, announced after.

An :class:`~games.models.Event` row is the durable record a stream reads and resumes from
(its id is the Server-Sent Events id). After the transaction commits, a wake-up is
published on Redis pub/sub (when ``REDIS_URL`` is set) on the game's or the account's
channel, so that every stream process, on any machine, reads the new rows at once; without
Redis the streams poll the table.

Ids and commit order: a stream that has delivered event N asks for ids above N, so an
event must never commit after a larger id of the same audience has committed. Game
events are only written under the game's row lock (services lock it), which serialises
them; account events lock the users' rows first (:func:`account_events_lock`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model

from games import compiled
from games.models import Event, Game

logger = logging.getLogger(__name__)


def game_channel(game_id: int) -> str:
    return f"{settings.EVENTS_CHANNEL_PREFIX}:game:{game_id}"


def user_channel(user_id: int) -> str:
    return f"{settings.EVENTS_CHANNEL_PREFIX}:user:{user_id}"


def game_event_add(
    *,
    game: Game,
    type: str,
    payload: dict[str, Any],
    seat_payloads: dict[int, dict[str, Any]] | None = None,
) -> Event:
    """Record a game event. Call under the game's row lock, inside its transaction."""
    event = Event(
        game=game,
        type=type,
        version=game.version,
        payload=payload,
        seat_payloads={str(seat): extra for seat, extra in (seat_payloads or {}).items()},
    )
    compiled.insert(event)
    _publish_on_commit(game_channel(game.pk), event)
    return event


def account_events_lock(user_ids: Iterable[int]) -> None:
    """Lock the users' rows, in id order, before writing their account events.

    Why: two games can write events for one account at the same time; without this, an
    event could take a smaller id but commit after a larger one that a stream already
    delivered, and a resume from that larger id would skip it forever. Always taken in
    ascending id order and after the game lock, so two writers cannot deadlock. In a write
    batch (games.compiled.batched) the lock is part of the batch's statement and the
    events added after it take their ids only once it is held.
    """
    compiled.lock_rows(get_user_model(), user_ids)


def account_event_add(
    *, user_id: int, type: str, payload: dict[str, Any], version: int | None = None
) -> Event:
    """Record an event for one account. Take :func:`account_events_lock` first.

    ``payload`` may hold a :class:`games.compiled.Ref` (the notification's id, while the
    notification waits in the same write batch)."""
    event = Event(user_id=user_id, type=type, version=version, payload=payload)
    compiled.insert(event)
    _publish_on_commit(user_channel(user_id), event)
    return event


def event_data(event: Event, *, seat: int | None = None) -> dict[str, Any]:
    """The JSON object a stream sends for this event to ``seat`` (None: a spectator, or
    the account owner for account events). Only the seat's own extras are merged in."""
    data: dict[str, Any] = {
        "type": event.type,
        "game": event.game_id if event.game_id is not None else event.payload.get("game"),
        "version": event.version,
    }
    data.update({k: v for k, v in event.payload.items() if k not in data})
    if seat is not None and event.game_id is not None:
        data.update(event.seat_payloads.get(str(seat), {}))
    data["at"] = event.created_at.isoformat()
    return data


# --- Redis wake-ups ---------------------------------------------------------------------


@cache
def redis_client(url: str) -> Any:
    """This process's client for short commands (publish, stream slots); it reconnects by
    itself after Redis comes back."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def _publish_on_commit(channel: str, event: Event) -> None:
    """After commit, wake the channel's streams with the event's id. The wake-ups of one
    write batch (a move's game and account events) go out in one pipelined round trip."""
    compiled.on_commit_grouped(_publish, (channel, event))


def _publish(wakeups: list[tuple[str, Event]]) -> None:
    url = settings.REDIS_URL
    if not url:
        return  # no Redis: streams poll the event table
    import redis

    try:
        pipe = redis_client(url).pipeline(transaction=False)
        for channel, event in wakeups:
            pipe.publish(channel, str(event.pk))
        pipe.execute()
    except redis.RedisError as exc:
        # The events are committed; streams also re-read the table every few seconds.
        logger.warning("could not publish events %s: %s", [(c, e.pk) for c, e in wakeups], exc)
