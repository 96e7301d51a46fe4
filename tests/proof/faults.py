"""Private service instances for the fault tests: they are started on free ports inside
the fixtures, stopped and restarted by PID, and never touch the machine's shared
PostgreSQL (5432) or Redis (6379)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
from pathlib import Path

from tests.procs import Proc, free_port, wait_until


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class PrivateRedis:
    """``redis-server`` on a free loopback port, no persistence; stop() kills it by PID."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        self.log_dir = log_dir
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: Proc | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        args = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--dir",
            str(self.log_dir),
        ]
        self.proc = Proc(args, {}, self.log_dir / f"redis-{self.port}-{self.starts}.log")
        wait_until(lambda: _answers(self.port), timeout=20, what="the private Redis")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill(signal.SIGKILL)
            self.proc = None
        wait_until(lambda: not _answers(self.port), timeout=10, what="Redis to stop")


def run(args: list[str], user: str = "postgres") -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL server binary as the ``postgres`` OS user (initdb refuses root)."""
    return subprocess.run(
        ["runuser", "-u", user, "--", *args], capture_output=True, text=True, timeout=120
    )


PG_BIN = Path("/usr/lib/postgresql/15/bin")


class PrivatePostgres:
    """A throw-away PostgreSQL 15 cluster in a temporary directory owned by the
    ``postgres`` OS user, on a free loopback port, trust auth, no fsync."""

    def __init__(self, root: Path) -> None:
        self.port = free_port()
        self.root = root
        self.data = root / "data"
        root.mkdir(parents=True, exist_ok=True)
        subprocess.run(["chown", "-R", "postgres", str(root)], check=True)
        done = run(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        )
        assert done.returncode == 0, done.stderr
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/indulgence"

    def pg_ctl(self, *args: str) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} -c fsync=off"
        done = run(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                *args,
            ]
        )
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> None:
        self.pg_ctl("start")

    def restart(self) -> None:
        self.pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        """Stop it; if pg_ctl cannot, kill the postmaster by the PID in postmaster.pid."""
        pid_file = self.data / "postmaster.pid"
        if not pid_file.exists():
            return
        done = run(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "-w",
                "-t",
                "30",
                "stop",
            ]
        )
        if done.returncode != 0 and pid_file.exists():
            pid = int(pid_file.read_text().splitlines()[0])
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def createdb(self, name: str) -> None:
        done = run([str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), name])
        assert done.returncode == 0, done.stderr
