"""Test settings: the real settings, pointed at PostgreSQL when it is reachable.

The whole suite runs on PostgreSQL (the production database) when a server answers at
TEST_DATABASE_URL (default: postgresql://127.0.0.1:5432/test, trust auth); otherwise it
falls back to SQLite and every test marked ``postgres`` is skipped, with one loud line in
the summary. ``REQUIRE_SERVICES=1`` (set by .ci/run) turns such skips into failures.
Set TEST_DATABASE_URL=sqlite to force SQLite.
"""

from __future__ import annotations

import os

import dj_database_url

from indulgence_site.settings import *  # noqa: F403
from indulgence_site.settings import POSTGRES_BINDING_OPTIONS, VAR_DIR

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://127.0.0.1:5432/test")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def postgres_answers(url: str) -> bool:
    """True when a real connection to the URL's database succeeds (a TCP port that answers
    is not enough: a refused role or a missing database falls back to SQLite, loudly)."""
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:  # any failure means: not usable for the suite
        return False


def redis_answers(url: str) -> bool:
    """True when the Redis server at the URL answers PING."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # any failure: no Redis for the suite
        return False


POSTGRES_AVAILABLE = TEST_DATABASE_URL.startswith("postgres") and postgres_answers(
    TEST_DATABASE_URL
)
REDIS_AVAILABLE = redis_answers(TEST_REDIS_URL)
# Browser tests drive Debian's Chromium (apt-get install chromium) through Playwright.
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_AVAILABLE = os.access(CHROMIUM_PATH, os.X_OK)

if POSTGRES_AVAILABLE:
    DATABASES = {"default": dj_database_url.parse(TEST_DATABASE_URL, conn_max_age=0)}
    DATABASES["default"]["OPTIONS"] = dict(POSTGRES_BINDING_OPTIONS)  # as in production
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_DATABASE_NAME", "test_indulgence")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "test.sqlite3"),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            "TEST": {"NAME": str(VAR_DIR / "test.sqlite3")},
        }
    }

# Tests run tasks eagerly (after commit) unless a test starts a real worker itself.
REDIS_URL = ""
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast test logins
BOT_MIN_THINK_SECONDS: dict[str, float] = {}  # tests that time bots set their own floor
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Each test session (and each pytest-xdist worker, a session of its own) publishes live
# events under its own channel prefix on the shared Redis database, as it already takes
# tasks from its own queue (tests.procs.QUEUE): two sessions' game 1 never meet.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
EVENTS_CHANNEL_PREFIX = f"indulgence-test-{_WORKER}-{os.getpid()}"
