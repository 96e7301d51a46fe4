"""The service gate (tests/conftest.py) as `make test` runs it: in parallel processes
(pytest-xdist), a service that is not there still ends the run with one loud line that
counts every test it skipped, whichever process ran them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The three tests of this file marked `postgres` (the raw SQL ones): skipped without it, so
# no test database is even created and the run costs only the processes' start.
SAMPLE = ["tests/disputes/test_audit_log.py", "-k", "raw_sql"]


def test_a_parallel_run_without_postgres_says_which_tests_it_skipped(tmp_path: Path) -> None:
    environ = dict(os.environ)
    environ.pop("REQUIRE_SERVICES", None)  # with it, those tests fail instead (CI's mode)
    environ.update({"TEST_DATABASE_URL": "sqlite", "INDULGENCE_VAR_DIR": str(tmp_path)})
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", *SAMPLE]
    result = subprocess.run(
        command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "SERVICES: database=sqlite3 postgres=UNREACHABLE" in result.stdout
    assert "!!! SERVICE TESTS NOT RUN: 3 (3 postgres): start the services" in result.stdout
