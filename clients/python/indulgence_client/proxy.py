"""A small HTTP proxy between a bot and a server that the conformance tool controls.

The bot talks to ``proxy.url`` instead of the server. The proxy forwards every request
(one request per TCP connection: it answers with ``Connection: close``), records what the
bot did, and lets the tool script situations:

* ``illegal``: answer the bot's first action that had a choice with ``400 illegal_action``
  (and the same action at the same version again each time it is resent);
* ``conflict``: before forwarding the bot's first action, make a legal move for the bot's
  seat itself (with the bot's token), so that the server refuses the bot's now stale
  action with a real ``409 version_conflict``;
* ``drop``: on an action after the bot's first success, stop relaying the bot's open
  streams, forward the action, relay its answer, then cut the streams' TCP connections
  (a reset, with the events since the action undelivered). A bot with no stream open gets
  its action applied and the answer's connection cut instead;
* ``timing``: note, for each action, how long the turn had been running on the server and
  how long it had left (from the view's ``turn_deadline`` and the server's clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import json
import re
import threading
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import httpx

HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "content-encoding",
    "upgrade",
    "host",
    "accept-encoding",
    "proxy-connection",
}
ACTION_PATH = re.compile(r"^/api/v1/games/(\d+)/actions/?$")
GAME_PATH = re.compile(r"^/api/v1/games/(\d+)/")
FAKE_ILLEGAL = {
    "code": "illegal_action",
    "detail": (
        "Conformance check: this action is refused on purpose; choose another legal action."
    ),
}


@dataclass
class Record:
    """One request of the bot, as the proxy saw it."""

    at: float
    method: str
    path: str
    game: int | None
    kind: str  # action, stream, view, other
    status: int | None = None  # what the bot was answered (None: connection cut)
    action: Any = None
    version: int | None = None
    last_event_id: str | None = None
    injected: str | None = None  # illegal, conflict, dropped, answer_lost
    elapsed: float | None = None  # timing: seconds the turn had run on the server
    remaining: float | None = None  # timing: seconds left before the deadline


@dataclass
class Plan:
    """The situation to script for one game (``kind``: plain, illegal, conflict, drop,
    timing)."""

    kind: str = "plain"
    game: int | None = None
    injected_at: float | None = None
    refused: tuple[int | None, Any] | None = None
    dropped_streams: int = 0
    detail: str = ""


@dataclass(eq=False)
class _StreamConn:
    writer: asyncio.StreamWriter
    frozen: bool = False
    cut: bool = False


@dataclass
class Proxy:
    upstream: str
    host: str = "127.0.0.1"
    records: list[Record] = field(default_factory=list)
    plan: Plan = field(default_factory=Plan)

    def __post_init__(self) -> None:
        self.upstream = self.upstream.rstrip("/")
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._streams: set[_StreamConn] = set()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> Proxy:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._start(), self._loop)
        future.result(timeout=10)
        return self

    async def _start(self) -> None:
        self._http = httpx.AsyncClient(base_url=self.upstream, timeout=httpx.Timeout(30.0))
        self._server = await asyncio.start_server(self._handle, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        async def _stop() -> None:
            if self._server is not None:
                self._server.close()
            for conn in list(self._streams):
                conn.writer.transport.abort()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            await self._http.aclose()
            await self._loop.shutdown_asyncgens()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(_stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    def __enter__(self) -> Proxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- what the tool reads and sets --------------------------------------------------

    def set_plan(self, plan: Plan) -> None:
        with self._lock:
            self.plan = plan

    def snapshot(self) -> list[Record]:
        with self._lock:
            return list(self.records)

    def _record(self, record: Record) -> Record:
        with self._lock:
            self.records.append(record)
        return record

    # --- one connection, one request ---------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await _read_request(reader)
            if request is None:
                return
            method, path, headers, body = request
            bare = path.split("?", 1)[0]
            game_match = GAME_PATH.match(bare + ("/" if not bare.endswith("/") else ""))
            game = int(game_match.group(1)) if game_match else None
            if bare.rstrip("/").endswith("/stream"):
                kind = "stream"
            elif ACTION_PATH.match(bare) and method == "POST":
                kind = "action"
            elif game is not None and method == "GET":
                kind = "view"
            else:
                kind = "other"
            record = self._record(
                Record(
                    at=time.monotonic(),
                    method=method,
                    path=path,
                    game=game,
                    kind=kind,
                    last_event_id=headers.get("last-event-id"),
                )
            )
            if kind == "stream":
                await self._relay_stream(method, path, headers, body, writer, record)
            elif kind == "action":
                await self._action(method, path, headers, body, writer, record)
            else:
                await self._forward(method, path, headers, body, writer, record)
        except (ConnectionError, asyncio.IncompleteReadError, httpx.HTTPError):
            pass
        except asyncio.CancelledError:
            # stop() cancels the connections still open (streams): end quietly. A handler
            # task that ends cancelled makes asyncio (3.11) log a traceback for it.
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _upstream(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> httpx.Response:
        request = self._http.build_request(
            method, path, headers=_forwarded(headers), content=body or None
        )
        response = await self._http.send(request)
        await response.aread()
        return response

    async def _forward(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
        writer: asyncio.StreamWriter,
        record: Record,
    ) -> None:
        response = await self._upstream(method, path, headers, body)
        record.status = response.status_code
        await _write_response(writer, response.status_code, response.headers, response.content)

    async def _relay_stream(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
        writer: asyncio.StreamWriter,
        record: Record,
    ) -> None:
        request = self._http.build_request(
            method, path, headers=_forwarded(headers), timeout=httpx.Timeout(30.0, read=None)
        )
        response = await self._http.send(request, stream=True)
        record.status = response.status_code
        conn = _StreamConn(writer)
        self._streams.add(conn)
        try:
            await _write_head(writer, response.status_code, response.headers, None)
            # Closed here, not by the garbage collector: a generator left behind by `break`
            # is closed by a task that the loop's stop destroys pending (logged as an error).
            raw = cast(AsyncGenerator[bytes, None], response.aiter_raw())  # httpx: a generator
            async with contextlib.aclosing(raw) as chunks:
                async for chunk in chunks:
                    if conn.cut:
                        break
                    if conn.frozen:
                        continue
                    writer.write(chunk)
                    await writer.drain()
        finally:
            self._streams.discard(conn)
            await response.aclose()

    async def _view(self, game: int, headers: dict[str, str]) -> tuple[dict[str, Any], float]:
        """The bot's view of the game now, and the server's clock (epoch seconds)."""
        response = await self._upstream("GET", f"/api/v1/games/{game}/", headers, b"")
        date = response.headers.get("date")
        server_now = email.utils.parsedate_to_datetime(date).timestamp() if date else time.time()
        return response.json(), server_now

    async def _action(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
        writer: asyncio.StreamWriter,
        record: Record,
    ) -> None:
        try:
            sent = json.loads(body or b"{}")
        except ValueError:
            sent = {}
        record.action = sent.get("action") if isinstance(sent, dict) else None
        version = sent.get("version") if isinstance(sent, dict) else None
        record.version = version if isinstance(version, int) else None
        plan = self.plan
        if plan.game is None or record.game != plan.game:
            await self._forward(method, path, headers, body, writer, record)
            return

        if plan.kind == "timing":
            view, server_now = await self._view(plan.game, headers)
            deadline, timeout = view.get("turn_deadline"), view.get("turn_timeout_seconds")
            if deadline and timeout:
                end = datetime.fromisoformat(deadline).astimezone(UTC).timestamp()
                record.remaining = end - server_now
                record.elapsed = timeout - record.remaining

        if plan.kind == "illegal":
            if plan.refused is not None and plan.refused == (record.version, record.action):
                record.injected = "illegal"
                record.status = 400
                await _write_json(writer, 400, FAKE_ILLEGAL)
                return
            if plan.injected_at is None:
                view, _ = await self._view(plan.game, headers)
                explicit = [a for a in view.get("legal_actions") or [] if "template" not in a]
                if len(explicit) >= 2 and record.version in (
                    None,
                    view.get("version"),
                ):
                    plan.refused = (record.version, record.action)
                    plan.injected_at = record.at
                    record.injected = "illegal"
                    record.status = 400
                    await _write_json(writer, 400, FAKE_ILLEGAL)
                    return

        if plan.kind == "conflict" and plan.injected_at is None:
            view, _ = await self._view(plan.game, headers)
            # Entries with a "template" describe a family (New Eleusis): not sendable.
            legal = [a for a in view.get("legal_actions") or [] if "template" not in a]
            if legal:
                move = {"action": legal[-1], "version": view.get("version")}
                own = {k: v for k, v in headers.items() if k != "idempotency-key"}
                moved = await self._upstream(
                    "POST",
                    f"/api/v1/games/{plan.game}/actions",
                    {**own, "content-type": "application/json"},
                    json.dumps(move).encode(),
                )
                if moved.status_code == 200:
                    plan.injected_at = record.at
                    plan.detail = f"the tool played {legal[-1]} for the bot's seat first"
                    record.injected = "conflict"

        if plan.kind == "drop" and plan.injected_at is None and self._armed(plan):
            streams = list(self._streams)
            plan.injected_at = record.at
            if streams:
                plan.dropped_streams = len(streams)
                record.injected = "dropped"
                for conn in streams:
                    conn.frozen = True
                await self._forward(method, path, headers, body, writer, record)
                await asyncio.sleep(0.3)  # events of the bots' replies reach the frozen streams
                for conn in streams:
                    conn.cut = True
                    conn.writer.transport.abort()
            else:
                response = await self._upstream(method, path, headers, body)
                record.injected = "answer_lost"
                record.status = None
                plan.detail = f"the action was applied ({response.status_code}), its answer cut"
                writer.transport.abort()
            return

        await self._forward(method, path, headers, body, writer, record)

    def _armed(self, plan: Plan) -> bool:
        """``drop`` strikes once the bot has made one successful move in the game."""
        return any(
            r.kind == "action" and r.game == plan.game and r.status == 200 for r in self.snapshot()
        )


def _forwarded(headers: dict[str, str]) -> dict[str, str]:
    kept = {k: v for k, v in headers.items() if k not in HOP_BY_HOP}
    kept["accept-encoding"] = "identity"
    return kept


async def _read_request(
    reader: asyncio.StreamReader,
) -> tuple[str, str, dict[str, str], bytes] | None:
    line = await reader.readline()
    if not line.strip():
        return None
    method, path, _version = line.decode("latin-1").split(" ", 2)
    headers: dict[str, str] = {}
    while True:
        header = await reader.readline()
        if header in (b"\r\n", b"\n", b""):
            break
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length") or 0)
    body = await reader.readexactly(length) if length else b""
    return method.upper(), path, headers, body


async def _write_head(
    writer: asyncio.StreamWriter, status: int, headers: httpx.Headers, length: int | None
) -> None:
    reason = httpx.codes.get_reason_phrase(status) or "Unknown"
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{k}: {v}" for k, v in headers.items() if k.lower() not in HOP_BY_HOP]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: close")
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    await writer.drain()


async def _write_response(
    writer: asyncio.StreamWriter, status: int, headers: httpx.Headers, body: bytes
) -> None:
    await _write_head(writer, status, headers, len(body))
    writer.write(body)
    await writer.drain()


async def _write_json(writer: asyncio.StreamWriter, status: int, data: dict[str, Any]) -> None:
    body = json.dumps(data).encode()
    headers = httpx.Headers({"Content-Type": "application/json"})
    await _write_response(writer, status, headers, body)
