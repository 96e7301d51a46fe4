"""Issue 26, item 7 (low): dead pooled connections after a PostgreSQL restart.

The stream server (ASGI) keeps its connections in psycopg's pool (``DB_POOL``). When
PostgreSQL restarts, or an idle connection is cut, the pool handed the dead connection to
the next request, which failed. Now the pool checks a connection when it is taken out
(``check``) and replaces a dead one, so the request gets a live connection.

The test runs a small Django process with the production pool settings, has its pooled
connection killed from outside (``pg_terminate_backend``, what a restart does to every
connection), then asks it for one more query.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.settings import TEST_DATABASE_URL

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import sys
import django
django.setup()
from django.db import connection
def query():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        print("ok", flush=True)
    except Exception as exc:
        print(f"error {type(exc).__name__}", flush=True)
    connection.close()  # back to the pool, as at the end of a request
query()
sys.stdin.readline()
query()
"""


def _probe(env_extra: dict[str, str]) -> list[str]:
    name = f"pool-probe-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "indulgence_site.settings",
        "DJANGO_ENV": "development",
        "DATABASE_URL": f"{TEST_DATABASE_URL}?application_name={name}",
        "DB_POOL": "1",
        "DB_POOL_MAX": "2",
        "REDIS_URL": "",
        **env_extra,
    }
    process = subprocess.Popen(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdin is not None
        first = process.stdout.readline().strip()
        with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT count(*) FROM ("
                " SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s) AS t",
                (name,),
            ).fetchone()
        process.stdin.write("go\n")
        process.stdin.flush()
        second = process.stdout.readline().strip()
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert killed is not None
    assert killed[0] >= 1, "the pooled connection was not found"
    return [first, second]


def test_a_pooled_connection_killed_while_idle_is_replaced_on_checkout() -> None:
    assert _probe({}) == ["ok", "ok"]
