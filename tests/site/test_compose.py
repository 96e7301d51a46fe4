"""compose.yaml describes the production-like stack completely."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_it_has_every_service_of_the_stack() -> None:
    services = compose()["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)


def test_services_with_a_daemon_have_health_checks() -> None:
    services = compose()["services"]
    for name in ("postgres", "redis", "web", "streams", "worker"):
        assert "test" in services[name]["healthcheck"], name


def test_app_services_are_configured_from_the_environment() -> None:
    services = compose()["services"]
    for name in ("web", "streams", "worker", "beat", "migrate"):
        env = services[name]["environment"]
        assert env["DJANGO_ENV"] == "production", name
        assert env["DATABASE_URL"].startswith("postgresql://"), name
        assert env["REDIS_URL"].startswith("redis://redis:6379"), name
        assert "SECRET_KEY" in env, name


def test_app_services_wait_for_migrations() -> None:
    services = compose()["services"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--no-input"]
    for name in ("web", "streams", "worker", "beat"):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully", name


def test_commands_name_modules_that_exist() -> None:
    services = compose()["services"]
    assert services["web"]["command"][1] == "indulgence_site.wsgi:application"
    assert services["streams"]["command"][1] == "indulgence_site.asgi:application"
    assert (ROOT / "indulgence_site" / "wsgi.py").exists()
    assert (ROOT / "indulgence_site" / "asgi.py").exists()
    assert (ROOT / "indulgence_site" / "celery.py").exists()
