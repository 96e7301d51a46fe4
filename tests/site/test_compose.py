"""compose.yaml describes the production-like stack completely."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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


def test_every_long_running_service_has_a_health_check() -> None:
    services = compose()["services"]
    long_running = {name for name, service in services.items() if name != "migrate"}
    assert long_running == {
        "postgres",
        "redis",
        "web",
        "streams",
        "worker",
        "notify-worker",
        "beat",
    }
    for name in long_running:
        assert "test" in services[name]["healthcheck"], name


def test_the_beat_health_check_fails_on_a_stale_schedule_file(tmp_path: Path) -> None:
    """Run beat's health check command itself against a fresh and a stale schedule file."""
    test = compose()["services"]["beat"]["healthcheck"]["test"]
    assert test[:2] == ["CMD", "python"]
    code = test[3].replace("/tmp/celerybeat-schedule", str(tmp_path / "celerybeat-schedule"))
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 1  # none
    schedule = tmp_path / "celerybeat-schedule"
    schedule.write_bytes(b"")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
    old = time.time() - 11 * 60
    os.utime(schedule, (old, old))
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 1


def test_the_secret_key_is_required_without_breaking_compose_config() -> None:
    """`${SECRET_KEY:?}` would make `docker compose config` fail without the variable; an
    empty default parses, and production settings refuse to start without a key."""
    env = compose()["x-app"]["environment"]
    assert env["SECRET_KEY"] == "${SECRET_KEY:-}"
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "indulgence_site.settings",
            "DJANGO_ENV": "production",
            "SECRET_KEY": "",
        },
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


def test_app_services_are_configured_from_the_environment() -> None:
    services = compose()["services"]
    for name in ("web", "streams", "worker", "notify-worker", "beat", "migrate"):
        env = services[name]["environment"]
        assert env["DJANGO_ENV"] == "production", name
        assert env["DATABASE_URL"].startswith("postgresql://"), name
        assert env["REDIS_URL"].startswith("redis://redis:6379"), name
        assert "SECRET_KEY" in env, name


def test_app_services_wait_for_migrations() -> None:
    services = compose()["services"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--no-input"]
    for name in ("web", "streams", "worker", "notify-worker", "beat"):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully", name


def test_commands_name_modules_that_exist() -> None:
    services = compose()["services"]
    assert services["web"]["command"][1] == "indulgence_site.wsgi:application"
    assert services["streams"]["command"][1] == "indulgence_site.asgi:application"
    assert (ROOT / "indulgence_site" / "wsgi.py").exists()
    assert (ROOT / "indulgence_site" / "asgi.py").exists()
    assert (ROOT / "indulgence_site" / "celery.py").exists()
