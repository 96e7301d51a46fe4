"""An SSE client for the tests: one connection read in a thread, its items taken as they
come (tests/streams over ASGI, and the stream proof tests)."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import httpx


class Stream:
    """One SSE connection read in a thread: ("status", code), ("id", n) for a data-less
    id block, ("message", (id, data)), ("comment", line), ("end", None), ("error", text)."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.items: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.status: int | None = None
        self.body = b""
        self._client = httpx.Client(timeout=httpx.Timeout(60, connect=5))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(url, headers or {}), daemon=True)
        self._thread.start()

    def _run(self, url: str, headers: dict[str, str]) -> None:
        try:
            with self._client.stream("GET", url, headers=headers) as response:
                self.status = response.status_code
                self.items.put(("status", response.status_code))
                if response.status_code != 200:
                    self.body = response.read()
                    self.items.put(("end", None))
                    return
                event_id: int | None = None
                data: str | None = None
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: "):
                        data = line[6:]
                    elif line.startswith(":"):
                        self.items.put(("comment", line))
                    elif line == "":
                        if data is not None:
                            self.items.put(("message", (event_id, json.loads(data))))
                        elif event_id is not None:
                            self.items.put(("id", event_id))
                        event_id, data = None, None
                self.items.put(("end", None))
        except httpx.HTTPError as exc:
            if not self._stop.is_set():
                self.items.put(("error", repr(exc)))

    def next(self, kind: str, timeout: float) -> Any:
        """The next item of ``kind`` (others are skipped); fails after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                got, value = self.items.get(timeout=left)
            except queue.Empty:
                break
            assert got != "error", value
            if got == kind:
                return value
            assert got != "end", f"the stream ended while waiting for {kind}"
        raise AssertionError(f"no {kind} within {timeout} s")

    def until_end(self, timeout: float) -> list[tuple[str, Any]]:
        """Everything read until the stream ends; fails if it is still open after
        ``timeout`` s."""
        seen: list[tuple[str, Any]] = []
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                got, value = self.items.get(timeout=left)
            except queue.Empty:
                break
            if got == "end":
                return seen
            seen.append((got, value))
        raise AssertionError(f"the stream was still open after {timeout} s: read {seen}")

    def close(self) -> None:
        self._stop.set()
        self._client.close()
        self._thread.join(timeout=5)
