"""Fixtures for the background-work tests: the cast, a live Redis broker for this
process, and real Celery worker processes (stopped, or killed, at teardown)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from indulgence_site.celery import app as celery_app
from tests.procs import QUEUE, Worker, queue_drop


@pytest.fixture
def make_user() -> Callable[..., Any]:
    def make(username: str, **extra: Any) -> Any:
        extra.setdefault("email", f"{username}@example.org")
        return get_user_model().objects.create_user(username=username, password="pw", **extra)

    return make


@pytest.fixture
def users(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("owner", "opponent", "third")]


def _reset_producer_pool() -> None:
    # New connections follow the new broker_url; pools already handed out stay open (a
    # closed pool cached by kombu elsewhere would fail the next test).
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def live_broker(settings: Any) -> Iterator[None]:
    """This process queues tasks on Redis db 15 (and publishes stream wake-ups there)
    instead of running them in-process."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = settings.TEST_REDIS_URL
    keys = ("broker_url", "task_always_eager", "task_default_queue")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(
        broker_url=settings.TEST_REDIS_URL, task_always_eager=False, task_default_queue=QUEUE
    )
    _reset_producer_pool()
    yield
    celery_app.conf.update(saved)
    _reset_producer_pool()
    queue_drop()


@pytest.fixture
def start_worker(
    transactional_db: None, live_broker: None, tmp_path: Path
) -> Iterator[Callable[..., Worker]]:
    """Start real worker processes; every one is killed at teardown, before the test
    database is flushed."""
    started: list[Worker] = []

    def start(**env: str) -> Worker:
        worker = Worker(tmp_path, **env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.kill()
