"""Server-Sent Events: a parser and a reconnecting stream (docs/streams.md).

The server sends ``id:`` + one JSON ``data:`` line per event, ``retry:`` and a data-less
``id:`` when a connection opens (the newest event id, to resume from) and ``: keep-alive``
comments. :class:`EventStream` yields each event's JSON object as a dict, remembers the
last id and, when the connection drops, reconnects with ``Last-Event-ID`` (bounded
exponential backoff), so no event is lost or repeated.
"""

from __future__ import annotations

import datetime
import email.utils
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from indulgence_client.errors import IndulgenceError, TransportError, error_for

logger = logging.getLogger(__name__)


@dataclass
class SseMessage:
    """One dispatched block: ``id`` (None if the block had none), ``data`` (joined lines)."""

    id: str | None
    data: str | None
    retry: int | None = None


@dataclass
class SseParser:
    """Incremental parser: feed text chunks, get complete blocks (comments dropped)."""

    _buffer: str = ""
    _lines: list[str] = field(default_factory=list)

    def feed(self, chunk: str) -> list[SseMessage]:
        self._buffer += chunk.replace("\r\n", "\n").replace("\r", "\n")
        messages: list[SseMessage] = []
        while "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            if line == "":
                if self._lines:
                    messages.append(self._block(self._lines))
                self._lines = []
            elif not line.startswith(":"):  # ": keep-alive" and other comments
                self._lines.append(line)
        return messages

    @staticmethod
    def _block(lines: list[str]) -> SseMessage:
        event_id: str | None = None
        data: list[str] = []
        retry: int | None = None
        for line in lines:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                event_id = value
            elif name == "data":
                data.append(value)
            elif name == "retry" and value.isdigit():
                retry = int(value)
        return SseMessage(id=event_id, data="\n".join(data) if data else None, retry=retry)


class EventStream:
    """Iterate over a stream's events (dicts); reconnects with ``Last-Event-ID``.

    ``last_event_id`` starts at the value given (None: from the newest event when the first
    connection opens) and follows every event received, so that a new ``EventStream`` (or
    a new process) can resume from it too. Consecutive failed connections back off from
    ``backoff`` to ``max_backoff`` seconds, except that a refusal with ``Retry-After`` (429
    throttled, 503 unavailable) waits what the server says (at most ``max_retry_after``);
    after ``max_reconnects`` in a row without one
    successful connection the iteration raises :class:`TransportError`. A refusal (4xx)
    raises the matching :class:`ApiError` at once.
    """

    def __init__(
        self,
        http: httpx.Client,
        path: str,
        *,
        last_event_id: int | None = None,
        read_timeout: float = 45.0,
        max_reconnects: int = 8,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.http = http
        self.path = path
        self.last_event_id = last_event_id
        self.read_timeout = read_timeout
        self.max_reconnects = max_reconnects
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self.sleep = sleep
        self.connections = 0  # successful connections so far (1 + reconnections)
        self._response: httpx.Response | None = None
        self._chunks: Iterator[str] | None = None
        self._parser = SseParser()
        self._closed = False
        self._pending: list[dict[str, Any]] = []

    def open(self) -> EventStream:
        """Connect now (iteration connects by itself): afterwards no event is missed."""
        if self._response is None:
            self._connect_with_retries()
        return self

    def close(self) -> None:
        self._closed = True
        self._drop()

    def __enter__(self) -> EventStream:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while not self._closed:
            if self._response is None:
                self._connect_with_retries()
            while self._pending:
                yield self._pending.pop(0)
            assert self._chunks is not None
            try:
                for chunk in self._chunks:
                    for message in self._parser.feed(chunk):
                        event = self._take(message)
                        if event is not None:
                            yield event
                    if self._closed:
                        return
            except httpx.HTTPError as exc:  # a dropped connection or a silent one
                logger.info("stream %s dropped (%s); resuming", self.path, exc)
            self._drop()  # the server ended it (STREAM_MAX_SECONDS) or it broke: resume

    def _take(self, message: SseMessage) -> dict[str, Any] | None:
        if message.id is not None and message.id.strip().isdigit():
            self.last_event_id = int(message.id)
        if message.data is None:
            return None  # the opening block: only the id to resume from
        try:
            data = json.loads(message.data)
        except ValueError:
            logger.warning("stream %s sent a data line that is not JSON", self.path)
            return None
        return data if isinstance(data, dict) else {"data": data}

    def _drop(self) -> None:
        if self._response is not None:
            self._response.close()
        self._response = None
        self._chunks = None
        self._parser = SseParser()

    def _connect_with_retries(self) -> None:
        failures = 0
        while True:
            try:
                self._connect()
                return
            except (httpx.TransportError, httpx.StreamError, _Unavailable) as exc:
                failures += 1
                if failures > self.max_reconnects:
                    raise TransportError(
                        f"Could not reconnect to {self.path} after {failures} attempts: {exc}"
                    ) from exc
                delay = min(self.backoff * 2 ** (failures - 1), self.max_backoff)
                if isinstance(exc, _Unavailable) and exc.retry_after is not None:
                    # The server said when to come back (429 throttled, 503 while its
                    # database restarts): not sooner, and not later than max_retry_after.
                    delay = min(exc.retry_after, self.max_retry_after)
                logger.info(
                    "stream %s: connection failed (%s), retry in %.1fs", self.path, exc, delay
                )
                self.sleep(delay)

    def _connect(self) -> None:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        timeout = httpx.Timeout(10.0, read=self.read_timeout)
        request = self.http.build_request("GET", self.path, headers=headers, timeout=timeout)
        response = self.http.send(request, stream=True)
        if response.status_code == 429 or response.status_code >= 500:
            response.close()
            raise _Unavailable(
                f"HTTP {response.status_code}", retry_after(response.headers.get("Retry-After"))
            )
        if response.status_code >= 400:
            response.read()
            try:
                body = response.json()
            except ValueError:
                body = None
            response.close()
            raise error_for(response.status_code, body)
        self._response = response
        self._chunks = response.iter_text()
        self.connections += 1
        if self.last_event_id is None:
            # Read the opening block now: its id is where a reconnection resumes from.
            try:
                for chunk in self._chunks:
                    messages = self._parser.feed(chunk)
                    for message in messages:
                        event = self._take(message)
                        if event is not None:
                            self._pending.append(event)
                    if messages:
                        break
            except httpx.HTTPError:
                self._drop()
                raise


class _Unavailable(Exception):
    """The server answered 429 or 5xx to a stream request: try again later (after
    ``retry_after`` seconds when the server said so)."""

    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(header: str | None) -> float | None:
    """A ``Retry-After`` header's delay in seconds (delta-seconds or an HTTP date), or
    None when absent or unreadable."""
    if header is None:
        return None
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max(0.0, (when - datetime.datetime.now(datetime.UTC)).total_seconds())


__all__ = ["EventStream", "IndulgenceError", "SseMessage", "SseParser"]
