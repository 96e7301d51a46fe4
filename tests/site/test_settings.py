"""Settings come from the environment, with safe defaults and a strict production mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_settings(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Import indulgence_site.settings in a fresh interpreter with exactly this environment."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "SECRET_KEY",
            "DATABASE_URL",
            "REDIS_URL",
            "DEBUG",
            "DJANGO_ENV",
            "ALLOWED_HOSTS",
        }
    }
    clean.update({"INDULGENCE_VAR_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}, **env)
    code = (
        "import json; from indulgence_site import settings as s; print(json.dumps({"
        "'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], "
        "'db_name': str(s.DATABASES['default']['NAME']), 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
        "'broker': s.CELERY_BROKER_URL, 'hosts': s.ALLOWED_HOSTS, 'key_len': len(s.SECRET_KEY)}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=clean, capture_output=True, text=True, cwd=ROOT
    )


def test_it_defaults_to_sqlite_eager_tasks_and_a_generated_key(tmp_path: Path) -> None:
    result = load_settings(tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"engine": "django.db.backends.sqlite3"' in result.stdout
    assert str(tmp_path / "db.sqlite3") in result.stdout
    assert '"eager": true' in result.stdout
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # private to its owner
    again = load_settings(tmp_path)
    assert again.stdout == result.stdout  # the generated key is kept, not regenerated


def test_it_refuses_production_without_a_secret_key(tmp_path: Path) -> None:
    result = load_settings(tmp_path, DJANGO_ENV="production")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DJANGO_ENV=production" in result.stderr


def test_production_mode_turns_debug_off(tmp_path: Path) -> None:
    result = load_settings(tmp_path, DJANGO_ENV="production", SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert '"debug": false' in result.stdout


def test_it_reads_database_and_redis_urls(tmp_path: Path) -> None:
    result = load_settings(
        tmp_path,
        DATABASE_URL="postgresql://u@db.example:5432/indulgence",
        REDIS_URL="redis://cache.example:6379/0",
        ALLOWED_HOSTS="play.example, api.example",
    )
    assert result.returncode == 0, result.stderr
    assert '"engine": "django.db.backends.postgresql"' in result.stdout
    assert '"eager": false' in result.stdout
    assert '"broker": "redis://cache.example:6379/0"' in result.stdout
    assert '"hosts": ["play.example", "api.example"]' in result.stdout


def test_it_rejects_a_malformed_boolean(tmp_path: Path) -> None:
    result = load_settings(tmp_path, DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr
