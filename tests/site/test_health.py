"""/healthz tells a person or a load balancer what works."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client, override_settings
from pytest_django.fixtures import Settings as SettingsWrapper

from tests.tasks.conftest import live_broker, start_worker

__all__ = ["live_broker", "start_worker"]  # fixtures shared with the background-work tests


@pytest.mark.django_db
def test_it_reports_the_database_and_the_embedded_worker(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["status"] == "ok"
    assert body["redis"] == {"status": "not_configured"}
    assert body["worker"]["status"] == "embedded"


@pytest.mark.django_db
@pytest.mark.redis
def test_it_reports_redis_up_and_no_worker_listening(
    client: Client, settings: SettingsWrapper
) -> None:
    # Database 14: no test worker ever consumes it (worker tests use the test URL's db).
    redis_url = settings.TEST_REDIS_URL.rsplit("/", 1)[0] + "/14"
    with override_settings(REDIS_URL=redis_url, CELERY_TASK_ALWAYS_EAGER=False):
        from indulgence_site.celery import app

        app.conf.broker_url = redis_url
        try:
            body = client.get("/healthz").json()
        finally:
            app.conf.broker_url = "memory://"
    assert body["redis"] == {"status": "ok"}
    # No worker consumes the test Redis database, so the site says so instead of "ok".
    assert body["worker"]["status"] == "no_workers"
    assert body["status"] == "degraded"


@pytest.mark.django_db
def test_it_reports_an_unreachable_redis_without_failing_the_request(client: Client) -> None:
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0", CELERY_TASK_ALWAYS_EAGER=False):
        response = client.get("/healthz")
    assert response.status_code == 200  # the database still works: keep serving
    body = response.json()
    assert body["redis"]["status"] == "error"
    assert body["status"] == "degraded"


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_suite_runs_on_postgresql_when_it_is_reachable(client: Client, staff: Any) -> None:
    client.force_login(staff)  # the details (vendor, errors, workers) are for staff
    assert client.get("/healthz").json()["database"]["vendor"] == "postgresql"


@pytest.mark.django_db
@pytest.mark.redis
def test_a_redis_failure_while_reading_is_reported_as_an_error_not_a_500(
    client: Client, settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    import redis

    def refuse(*_: object, **__: object) -> None:
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(redis.client.Pipeline, "execute", refuse)
    with override_settings(REDIS_URL=settings.TEST_REDIS_URL, CELERY_TASK_ALWAYS_EAGER=False):
        response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["redis"] == {"status": "error"}  # the error text is for staff
    assert body["worker"]["status"] == "unknown"
    assert body["status"] == "degraded"


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_reports_a_live_worker_as_ok(start_worker: Any, client: Client, staff: Any) -> None:
    """A real worker process on the test broker writes the heartbeat the check reads."""
    start_worker()
    client.force_login(staff)
    deadline = time.monotonic() + 30
    body: dict[str, Any] = {}
    while time.monotonic() < deadline:
        body = client.get("/healthz").json()
        if body["worker"]["status"] == "ok":
            break
        time.sleep(0.5)
    assert body["worker"]["status"] == "ok", body
    assert body["worker"]["workers"]
    assert body["redis"] == {"status": "ok"}
    assert body["status"] == "ok"
