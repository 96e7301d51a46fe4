"""Account event streams held open while the load test plays (``loadtest.run --streams N``).

The stream server is the production one (uvicorn, ASGI, psycopg's pool: ``DB_POOL=1``,
as compose.yaml's ``streams`` service), started beside gunicorn. During each move phase
N token clients each hold ``GET /api/v1/stream`` open for the phase's length (reconnecting
if a stream ends) and count the events that reach them: every "your turn" of the games
being played is one. Every loop is bounded by time.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

STREAM_ENV = {
    "DB_POOL": "1",
    "DB_POOL_MAX": "4",
    # All load clients come from 127.0.0.1: the per-address limit would refuse them.
    "STREAM_MAX_PER_ADDRESS": "100000",
    # Keep-alives this often let a client notice the end of its phase on a quiet stream.
    "STREAM_KEEPALIVE_SECONDS": "2",
}


def _hold(url: str, token: str, stop_at: float, out: list[dict[str, Any]]) -> None:
    events = connects = 0
    errors: list[str] = []
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    with httpx.Client(timeout=httpx.Timeout(5.0, read=10.0)) as client:
        while time.monotonic() < stop_at:
            try:
                with client.stream("GET", f"{url}/api/v1/stream", headers=headers) as response:
                    connects += 1
                    if response.status_code != 200:
                        errors.append(f"HTTP {response.status_code}")
                        time.sleep(0.5)
                        continue
                    for line in response.iter_lines():
                        if line.startswith("data:"):
                            events += 1
                        if time.monotonic() >= stop_at:
                            break
            except httpx.HTTPError as exc:
                errors.append(type(exc).__name__)
                time.sleep(0.2)
    out.append({"events": events, "connects": connects, "errors": errors})


class StreamHolders:
    """N streams held open from ``start()`` for ``seconds``; ``figures()`` after
    ``join()``."""

    def __init__(self, url: str, tokens: list[str], count: int, seconds: float) -> None:
        self.url, self.seconds = url, seconds
        self.tokens = [tokens[i % len(tokens)] for i in range(count)]
        self.out: list[dict[str, Any]] = []
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        stop_at = time.monotonic() + self.seconds
        self.threads = [
            threading.Thread(target=_hold, args=(self.url, token, stop_at, self.out), daemon=True)
            for token in self.tokens
        ]
        for thread in self.threads:
            thread.start()

    def join(self) -> None:
        for thread in self.threads:
            thread.join(self.seconds + 30)

    def figures(self) -> dict[str, Any]:
        errors = [e for r in self.out for e in r["errors"]]
        return {
            "streams": len(self.tokens),
            "stream_events": sum(r["events"] for r in self.out),
            "stream_connects": sum(r["connects"] for r in self.out),
            "stream_errors": len(errors),
            "stream_error_samples": errors[:5],
        }
