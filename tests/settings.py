"""Test settings: the real settings, pointed at PostgreSQL when it is reachable.

The whole suite runs on PostgreSQL (the production database) when a server answers at
TEST_DATABASE_URL (default: postgresql://127.0.0.1:5432/test, trust auth); otherwise it
falls back to SQLite and every test marked ``postgres`` is skipped, with one loud line in
the summary. ``REQUIRE_SERVICES=1`` (set by .ci/run) turns such skips into failures.
Set TEST_DATABASE_URL=sqlite to force SQLite.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import dj_database_url

from indulgence_site.settings import *  # noqa: F403
from indulgence_site.settings import VAR_DIR

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://127.0.0.1:5432/test")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def reachable(url: str, default_port: int) -> bool:
    """True when something accepts a TCP connection at the URL's host and port."""
    parsed = urlparse(url)
    host = parsed.hostname or "127.0.0.1"
    try:
        with socket.create_connection((host, parsed.port or default_port), timeout=0.5):
            return True
    except OSError:
        return False


POSTGRES_AVAILABLE = TEST_DATABASE_URL.startswith("postgres") and reachable(TEST_DATABASE_URL, 5432)
REDIS_AVAILABLE = reachable(TEST_REDIS_URL, 6379)

if POSTGRES_AVAILABLE:
    DATABASES = {"default": dj_database_url.parse(TEST_DATABASE_URL, conn_max_age=0)}
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
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
