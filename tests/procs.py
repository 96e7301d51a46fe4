"""Real processes for the service tests: a Celery worker and a uvicorn ASGI server, run
against the pytest PostgreSQL test database and Redis database 15 (TEST_REDIS_URL).

Each process runs in its own session (process group), so that stopping it, or killing it
with SIGKILL, takes its children along. Fixtures always stop what they started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
from django.conf import settings
from django.db import connection

from indulgence_site.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent
# This session's own Celery queue on Redis db 15, so that test sessions running at the same
# time never take each other's tasks (and nobody needs to flush the database).
QUEUE = f"indulgence-test-{uuid.uuid4().hex[:12]}"
BIN = Path(sys.executable).parent
STARTUP_TIMEOUT = 40.0


def queue_drop() -> None:
    """Remove this session's queue (and its unacknowledged leftovers) from Redis db 15."""
    client = redis.Redis.from_url(settings.TEST_REDIS_URL)
    assert client.connection_pool.connection_kwargs.get("db") == 15, "tests use Redis db 15 only"
    client.delete(QUEUE, f"{QUEUE}-notify")  # webhooks and emails: games.tasks.notify_queue
    client.close()


def database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database)."""
    db = connection.settings_dict
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return (
        f"postgresql://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


def service_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "indulgence_site.settings",
            "DJANGO_ENV": "development",
            "DATABASE_URL": database_url(),
            "DB_CONN_MAX_AGE": "60",
            "REDIS_URL": settings.TEST_REDIS_URL,
            "EVENTS_CHANNEL_PREFIX": settings.EVENTS_CHANNEL_PREFIX,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_TASK_DEFAULT_QUEUE": QUEUE,
            "AUTOPILOT_BOT": settings.AUTOPILOT_BOT,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(extra)
    return env


def wait_until(check: Callable[[], Any], *, timeout: float, what: str, every: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class Proc:
    """A child process in its own process group, with its output in a log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._out = log.open("wb")
        self.popen = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Signal the whole process group and wait for the leader to exit."""
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=15)
        # Children of a killed leader (prefork pool) may outlive it for a moment.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self._out.close()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


class Worker(Proc):
    """``celery -A indulgence_site worker`` against the test database and Redis db 15."""

    def __init__(self, log_dir: Path, *, concurrency: int = 2, **env: str) -> None:
        self.name = f"test-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
        super().__init__(
            [
                str(BIN / "celery"),
                "-A",
                "indulgence_site",
                "worker",
                "--loglevel",
                "WARNING",
                "--concurrency",
                str(concurrency),
                "-n",
                self.name,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            service_env(**env),
            log_dir / f"worker-{self.name.split('@')[0]}.log",
        )
        try:
            self.wait_ready()
        except BaseException:
            self.kill()  # never leave a half-started worker behind
            raise

    def wait_ready(self) -> None:
        def ready() -> bool:
            if self.popen.poll() is not None:
                raise AssertionError(f"the worker exited at start:\n{self.output()}")
            replies = celery_app.control.ping(destination=[self.name], timeout=0.5)
            return any(self.name in reply for reply in replies)

        wait_until(ready, timeout=STARTUP_TIMEOUT, what=f"worker {self.name} to answer a ping")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Uvicorn(Proc):
    """``uvicorn indulgence_site.asgi:application`` (the ``streams`` service) on a free port."""

    def __init__(self, log_dir: Path, **env: str) -> None:
        self.port = free_port()
        super().__init__(
            [
                str(BIN / "uvicorn"),
                "indulgence_site.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            service_env(DB_POOL="1", **env),
            log_dir / f"uvicorn-{self.port}.log",
        )
        self.url = f"http://127.0.0.1:{self.port}"

        def ready() -> bool:
            if self.popen.poll() is not None:
                raise AssertionError(f"uvicorn exited at start:\n{self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        try:
            wait_until(ready, timeout=STARTUP_TIMEOUT, what="uvicorn to listen")
        except BaseException:
            self.kill()
            raise
