"""How many streams a client address and an account may hold open at once.

Each open stream holds a *slot* under its client address (``games.client_address``) and,
when signed in, under its account: ``STREAM_MAX_PER_ADDRESS`` and ``STREAM_MAX_PER_ACCOUNT``
(0 = no limit). A stream beyond either limit is refused with ``429 too_many_streams``.

Slots are counted in Redis when ``REDIS_URL`` is set, so that every stream process (and
machine) shares the count: one sorted set per address or account, the members are the
streams' slot ids, the scores their expiry times. Taking a slot is one atomic script
(drop expired members, check both counts, add to both). An open stream renews its slot
as it goes (:meth:`Slot.renew`, every ``SLOT_SECONDS / 3``) and gives it back when it ends;
a slot whose stream vanished without giving it back (a killed process, a request cancelled
before its stream began) expires after ``SLOT_SECONDS``. Without Redis, or when Redis
cannot be reached, slots are counted the same way in this process only (a warning is
logged): the limits then hold per process instead of failing closed.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings

from games.events import redis_client
from games.warnings_every import WarnEvery

logger = logging.getLogger(__name__)

SLOT_SECONDS = 30.0  # how long a slot lives without being renewed
RETRY_AFTER_SECONDS = 10  # what a refused client is told to wait

# KEYS: the sorted sets; ARGV: now, expiry, member, then each key's limit (0: none).
# Returns 0 when the slot was taken, else the 1-based index of the key that is full.
_TAKE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  local limit = tonumber(ARGV[3 + i])
  if limit > 0 and redis.call('ZCARD', key) >= limit then return i end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('PEXPIRE', key, math.ceil((tonumber(ARGV[2]) - tonumber(ARGV[1])) * 1000))
end
return 0
"""


class _LocalSlots:
    """The same bookkeeping in this process (no Redis, or Redis unreachable)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sets: dict[str, dict[str, float]] = {}

    def take(self, keys: list[str], limits: list[int], member: str, now: float) -> int:
        with self._lock:
            for index, (key, limit) in enumerate(zip(keys, limits, strict=True), start=1):
                members = self._sets.setdefault(key, {})
                for stale in [m for m, expiry in members.items() if expiry <= now]:
                    del members[stale]
                if limit > 0 and len(members) >= limit:
                    return index
            for key in keys:
                self._sets[key][member] = now + SLOT_SECONDS
            return 0

    def renew(self, keys: list[str], member: str, now: float) -> None:
        with self._lock:
            for key in keys:
                if member in self._sets.get(key, {}):
                    self._sets[key][member] = now + SLOT_SECONDS

    def release(self, keys: list[str], member: str) -> None:
        with self._lock:
            for key in keys:
                members = self._sets.get(key, {})
                members.pop(member, None)
                if not members:
                    self._sets.pop(key, None)


_LOCAL = _LocalSlots()
_warn_every = WarnEvery(logger)


def _warn(exc: BaseException) -> None:
    _warn_every("stream slots counted in this process only: Redis unreachable (%s)", exc)


def _redis() -> Any:
    return redis_client(settings.REDIS_URL) if settings.REDIS_URL else None


@functools.cache
def _take_script(url: str) -> Any:
    return redis_client(url).register_script(_TAKE)  # EVALSHA, loaded once


@dataclass
class Slot:
    """A stream's place under its address and account; give it back with release()."""

    keys: list[str]
    member: str
    local: bool
    renewed: float = field(default_factory=time.monotonic)
    released: bool = False

    def renew_due(self) -> bool:
        """A third of the slot's lifetime has passed since it was last renewed."""
        return not self.released and time.monotonic() - self.renewed >= SLOT_SECONDS / 3

    def renew(self) -> None:
        """Keep the slot alive (a no-op unless :meth:`renew_due`)."""
        if not self.renew_due():
            return
        self.renewed = time.monotonic()
        now = time.time()
        client = None if self.local else _redis()
        if client is None:
            _LOCAL.renew(self.keys, self.member, now)
            return
        try:
            pipe = client.pipeline(transaction=False)
            for key in self.keys:
                pipe.zadd(key, {self.member: now + SLOT_SECONDS}, xx=True)
                pipe.expire(key, int(SLOT_SECONDS) + 1)
            pipe.execute()
        except redis.RedisError as exc:
            _warn(exc)  # it expires in Redis; the stream goes on

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        client = None if self.local else _redis()
        if client is None:
            _LOCAL.release(self.keys, self.member)
            return
        try:
            pipe = client.pipeline(transaction=False)
            for key in self.keys:
                pipe.zrem(key, self.member)
            pipe.execute()
        except redis.RedisError as exc:
            _warn(exc)  # it expires by itself


@dataclass(frozen=True)
class Refusal:
    """Why a stream was refused: the limit that is full."""

    scope: str  # "address" or "account"
    limit: int


def slot_take(*, address: str, user_id: int | None) -> Slot | Refusal:
    """Take a place for a new stream, or say which limit is full."""
    prefix = f"{settings.EVENTS_CHANNEL_PREFIX}:streams"
    keys = [f"{prefix}:addr:{address}"]
    limits = [int(settings.STREAM_MAX_PER_ADDRESS)]
    scopes = ["address"]
    if user_id is not None:
        keys.append(f"{prefix}:user:{user_id}")
        limits.append(int(settings.STREAM_MAX_PER_ACCOUNT))
        scopes.append("account")
    member = uuid.uuid4().hex
    now = time.time()
    client = _redis()
    full: int
    local = client is None
    if client is not None:
        try:
            take = _take_script(settings.REDIS_URL)
            full = int(take(keys=keys, args=[now, now + SLOT_SECONDS, member, *limits]))
        except redis.RedisError as exc:
            _warn(exc)
            local = True
    if local:
        full = _LOCAL.take(keys, limits, member, now)
    if full:
        return Refusal(scope=scopes[full - 1], limit=limits[full - 1])
    return Slot(keys=keys, member=member, local=local)
