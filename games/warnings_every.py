"""A warning logged at most once in a while: for a fault that every request meets (Redis
unreachable) and that should be said, not said a thousand times a second."""

from __future__ import annotations

import logging
import threading
import time


class WarnEvery:
    """``warn(message, *args)`` logs through ``logger`` at most once every ``seconds``
    per process; the calls in between are dropped."""

    def __init__(self, logger: logging.Logger, seconds: float = 10.0) -> None:
        self.logger = logger
        self.seconds = seconds
        self._last = -seconds
        self._lock = threading.Lock()

    def __call__(self, message: str, *args: object) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._last < self.seconds:
                return
            self._last = now
        self.logger.warning(message, *args)
