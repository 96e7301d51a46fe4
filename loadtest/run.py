# ruff: noqa: S603, S607  (runs the stack's own programs, with fixed arguments)
"""Many concurrent games played by token clients over HTTP on loopback, against the
production-like stack this script starts and stops itself:

* gunicorn, 2 sync workers (``--web-workers``), on 127.0.0.1:<free port> (DJANGO_ENV=production);
* the shared PostgreSQL at 127.0.0.1:5432 with a dedicated database (created, then dropped);
* Redis database 13 at 127.0.0.1:6379 (own queue name; keys removed at the end);
* one Celery worker (hand settlements run there);
* with ``--streams N``: the stream server (uvicorn, ``DB_POOL``) and N account streams held
  open during the move phases (``loadtest.streams``).

Reported, all in the same run: the GET game-view rate, moves/s and p50/p95/p99 latency
of ``POST .../actions``, and ``pgbench`` single-row-update tps on a scratch database.

Each client owns one unrated game at a time (``--game``: Indulgence with 3 seats by
default, or New Eleusis with 4, ``--players``), dealt from a seed it drew (set in the
database before the deal, as if the server had drawn it), and holds the tokens of its
seats; it follows the game with the offline engine (``engine.registry``), so every
request it sends is a legal move of the seat to act (no polling) except while the worker
takes the game's automatic step (a hand's settlement, the end of a round). Every loop is
bounded by time and by count.

    .venv/bin/python -m loadtest.run --clients 32 --seconds 20
    .venv/bin/python -m loadtest.run --game eleusis --clients 16 --seconds 20
    .venv/bin/python -m loadtest.run --game pax --clients 16 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from loadtest import streams as load_streams
from loadtest.clients import GAMES, Http, new_game, run_clients

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PG = "postgresql://127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/13"
SETUP = """
import json
from django.contrib.auth import get_user_model
from games import services
count = {clients}
out = []
User = get_user_model()
for c in range(count):
    users = [
        User.objects.create_user(username=f"load{{c}}-{{s}}", password=None)
        for s in range({players})
    ]
    tokens = [services.token_issue(user=u, name="load")[1] for u in users]
    out.append(tokens)
print(json.dumps(out))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stack_env(database: str, queue: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "indulgence_site.settings",
            "DJANGO_ENV": "production",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SECURE_COOKIES": "false",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": f"{PG}/{database}",
            "REDIS_URL": REDIS,
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "EVENTS_CHANNEL_PREFIX": f"loadtest-{queue}",
            "API_RATE_ANON": "1000000/min",
            "API_RATE_USER": "1000000/min",
            "API_RATE_ACTIONS": "1000000/min",
            "LOG_LEVEL": "WARNING",
            "STATIC_ROOT": str(ROOT / "var" / "loadtest-static"),
        }
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "python"), "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return done.stdout


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- CPU accounting (Linux /proc) ----------------------------------------------------------


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) one process has used so far (a PostgreSQL backend's,
    for ``loadtest.cost`` and ``loadtest.roundtrip``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_group(groups: dict[str, int]) -> dict[str, float]:
    """CPU seconds used so far by each named process group (``pgid``), plus every
    ``postgres`` process (the server's backends) and the whole machine (busy time)."""
    tick = os.sysconf("SC_CLK_TCK")
    totals = {name: 0.0 for name in [*groups, "postgres"]}
    by_pgid = {pgid: name for name, pgid in groups.items()}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        used = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
        pgid = int(fields[2])
        if pgid in by_pgid:
            totals[by_pgid[pgid]] += used
        elif comm == "postgres":
            totals["postgres"] += used
    cpu = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    idle = int(cpu[3]) + int(cpu[4])
    totals["machine_busy"] = (sum(int(x) for x in cpu[:8]) - idle) / tick
    import resource

    totals["clients"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + (
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime
    )
    return totals


def cpu_per_request(before: dict[str, float], after: dict[str, float], n: int) -> dict[str, float]:
    """Milliseconds of CPU per request, by process group, between two readings."""
    return {k: round((after[k] - before[k]) * 1000 / max(n, 1), 2) for k in after}


# --- pgbench --------------------------------------------------------------------------------


def pgbench(seconds: int) -> float:
    name = f"indulgence_pgbench_{uuid.uuid4().hex[:8]}"
    subprocess.run(["createdb", "-h", "127.0.0.1", name], check=True)
    try:
        subprocess.run(
            ["pgbench", "-h", "127.0.0.1", "-i", "-q", "-s", "1", name],
            check=True,
            capture_output=True,
        )
        script = ROOT / "var" / "loadtest-update.sql"
        script.write_text(
            "\\set aid random(1, 100000)\n"
            "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n"
        )
        done = subprocess.run(
            [
                "pgbench",
                "-h",
                "127.0.0.1",
                "-n",
                "-c",
                "8",
                "-j",
                "2",
                "-T",
                str(seconds),
                "-f",
                str(script),
                name,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        line = next(x for x in done.stdout.splitlines() if x.startswith("tps ="))
        return float(line.split()[2])
    finally:
        subprocess.run(["dropdb", "-h", "127.0.0.1", "--if-exists", name], check=False)


# --- figures ------------------------------------------------------------------------------


def latency_figures(gets: list[Any], moves: list[Any]) -> dict[str, Any]:
    get_latencies = [x for r in gets for x in r["latencies"]]
    latencies = [x for r in moves for x in r["latencies"]]
    return {
        "get_p50_ms": round(percentile(get_latencies, 0.50) * 1000, 1),
        "get_p99_ms": round(percentile(get_latencies, 0.99) * 1000, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else None,
    }


def cycle_figures(
    gets: list[Any],
    moves: list[Any],
    cpu_0: dict[str, float],
    cpu_1: dict[str, float],
    cpu_2: dict[str, float],
    seconds: float,
    both: bool,
) -> dict[str, Any]:
    """One GET phase and the move phase after it."""
    get_count = sum(r["gets"] for r in gets)
    move_count = sum(len(r["latencies"]) for r in moves)
    move_errors = sum(len(r["errors"]) for r in moves)
    figures: dict[str, Any] = {
        "get_per_s": round(get_count / seconds, 1),
        "get_errors": sum(r["errors"] for r in gets),
        "moves_per_s": round((move_count - move_errors) / seconds, 1),
        "move_errors": move_errors,
        **latency_figures(gets, moves),
        # CPU milliseconds per request during each phase, by process group: the web
        # server (gunicorn), the Celery worker, PostgreSQL, the load clients, and the
        # machine's total busy time (2 cores = 2000 ms per second of wall time).
        "cpu_ms_per_get": cpu_per_request(cpu_0, cpu_1, get_count),
        "cpu_ms_per_move": cpu_per_request(cpu_1, cpu_2, move_count),
    }
    figures["moves_vs_get"] = (
        round(figures["moves_per_s"] / figures["get_per_s"], 3)
        if both and figures["get_per_s"]
        else None
    )
    return figures


def aggregate(per_cycle: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the cycles of each cycle's rates, ratio and CPU figures; error counts
    summed."""

    def median(values: list[Any]) -> Any:
        present = [v for v in values if v is not None]
        return round(statistics.median(present), 3) if present else None

    cpu = {
        kind: {group: median([c[kind][group] for c in per_cycle]) for group in per_cycle[0][kind]}
        for kind in ("cpu_ms_per_get", "cpu_ms_per_move")
    }
    return {
        "get_per_s": median([c["get_per_s"] for c in per_cycle]),
        "get_errors": sum(c["get_errors"] for c in per_cycle),
        "moves_per_s": median([c["moves_per_s"] for c in per_cycle]),
        "move_errors": sum(c["move_errors"] for c in per_cycle),
        "moves_vs_get": median([c["moves_vs_get"] for c in per_cycle]),
        **cpu,
    }


# --- the run --------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument(
        "--game",
        choices=sorted(GAMES),
        default="indulgence",
        help="the game the clients play (indulgence: 3 seats; eleusis: 4 seats, 6-card hands, "
        "one round; pax: 3 seats, 3 rounds)",
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--processes", type=int, default=4, help="client processes")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument(
        "--idempotency-keys",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="send an Idempotency-Key with every action, as indulgence_client does",
    )
    parser.add_argument(
        "--streams",
        type=int,
        default=0,
        help="account streams held open during the move phases, on the production stream "
        "server (uvicorn, DB_POOL) started beside gunicorn (loadtest.streams)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--phases",
        default="get,moves",
        help="which phases to run, comma-separated (get, moves): one alone, e.g. to profile it",
    )
    parser.add_argument(
        "--cycles",
        type=int,
        default=1,
        help="run the phases this many times, alternating (GET, moves, GET, moves, ...); "
        "each cycle has its own ratio, and the figures are their medians: the machine's "
        "speed drifts, and alternating keeps the drift out of the ratio",
    )
    args = parser.parse_args()
    if args.cycles < 1:
        parser.error("--cycles must be at least 1")
    phases = {p.strip() for p in args.phases.split(",") if p.strip()}
    if not phases or phases - {"get", "moves"}:
        parser.error("--phases takes get, moves or both")

    tag = uuid.uuid4().hex[:8]
    database = f"indulgence_load_{tag}"
    queue = f"indulgence-load-{tag}"
    env = stack_env(database, queue)
    log_dir = ROOT / "var" / f"loadtest-{tag}"
    log_dir.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen[bytes]] = []
    subprocess.run(["createdb", "-h", "127.0.0.1", database], check=True)
    try:
        manage(env, "migrate", "--no-input", "-v", "0")
        manage(env, "collectstatic", "--no-input", "-v", "0")
        tokens = json.loads(
            manage(
                env,
                "shell",
                "-c",
                SETUP.format(clients=args.clients, players=GAMES[args.game]["players"]),
            )
            .strip()
            .splitlines()[-1]
        )
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        stream_port = free_port()
        stream_url = f"http://127.0.0.1:{stream_port}"
        services: list[tuple[str, list[str], dict[str, str]]] = [
            (
                "gunicorn",
                [
                    str(BIN / "gunicorn"),
                    "indulgence_site.wsgi:application",
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--workers",
                    str(args.web_workers),
                ],
                env,
            ),
            (
                "worker",
                [
                    str(BIN / "celery"),
                    "-A",
                    "indulgence_site",
                    "worker",
                    "--loglevel",
                    "WARNING",
                    "--concurrency",
                    "1",
                    "-n",
                    f"load-{tag}@%h",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                env,
            ),
        ]
        if args.streams:
            uvicorn = [str(BIN / "uvicorn"), "indulgence_site.asgi:application"]
            services.append(
                (
                    "streams",
                    [*uvicorn, "--host", "127.0.0.1", "--port", str(stream_port)],
                    {**env, **load_streams.STREAM_ENV},
                )
            )
        for name, command, service_env in services:
            log = (log_dir / f"{name}.log").open("wb")
            procs.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=service_env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).json()["worker"]["status"] == "ok":
                    break
            except (httpx.HTTPError, ValueError, KeyError):
                pass
            time.sleep(0.5)
        else:
            raise SystemExit("the stack did not become healthy in 60 s")
        while args.streams and time.monotonic() < deadline + 30:
            try:
                if httpx.get(f"{stream_url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        load_before = os.getloadavg()

        # One game per client for the GET phases (the games the move phases play are new).
        setup = Http(url)
        work = [
            {"tokens": t, "game": new_game(setup, t, game_type=args.game)["id"]} for t in tokens
        ]
        setup.close()
        groups = {"web": procs[0].pid, "worker": procs[1].pid}
        if args.streams:
            groups["streams"] = procs[2].pid
        stream_figures: list[dict[str, Any]] = []
        cycles = []
        for _ in range(args.cycles):
            cpu_0 = cpu_by_group(groups)
            gets = (
                run_clients("get", url, work, args.seconds, args.processes)
                if "get" in phases
                else []
            )
            cpu_1 = cpu_by_group(groups)
            holders = load_streams.StreamHolders(
                stream_url, [t for ts in tokens for t in ts], args.streams, args.seconds
            )
            if args.streams and "moves" in phases:
                holders.start()
            moves = (
                run_clients(
                    "move",
                    url,
                    [
                        {
                            "tokens": t,
                            "keys": args.idempotency_keys,
                            "dsn": f"{PG}/{database}",
                            "game": args.game,
                        }
                        for t in tokens
                    ],
                    args.seconds,
                    args.processes,
                )
                if "moves" in phases
                else []
            )
            cpu_2 = cpu_by_group(groups)
            if holders.threads:
                holders.join()
                stream_figures.append(holders.figures())
            cycles.append((gets, moves, cpu_0, cpu_1, cpu_2))
        load_after = os.getloadavg()
        tps = pgbench(args.pgbench_seconds)
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, 15)
                proc.wait(20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(proc.pid, 9)
        subprocess.run(
            ["dropdb", "-h", "127.0.0.1", "--if-exists", "--force", database], check=False
        )
        import redis

        client = redis.Redis.from_url(REDIS)
        for key in [queue, *client.scan_iter(match=f"*{queue}*", count=1000)]:
            client.delete(key)  # the queue and kombu's bindings for it
        client.close()
        shutil.rmtree(ROOT / "var" / "loadtest-static", ignore_errors=True)

    both = phases == {"get", "moves"}
    per_cycle = [cycle_figures(*cycle, args.seconds, both) for cycle in cycles]
    all_moves = [r for _, moves, *_ in cycles for r in moves]
    all_gets = [r for gets, *_ in cycles for r in gets]
    figures = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "clients": args.clients,
        "game": args.game,
        "web_workers": args.web_workers,
        "idempotency_keys": args.idempotency_keys,
        "seconds": args.seconds,
        "cycles": args.cycles,
        **aggregate(per_cycle),
        # Percentiles of every request of every cycle together.
        **latency_figures(all_gets, all_moves),
        "move_error_samples": [e for r in all_moves for e in r["errors"]][:5],
        "settlement_waits": sum(r["waits"] for r in all_moves),
        "games_played": sum(r["games"] for r in all_moves),
        "pgbench_update_tps": tps,
        "streams_per_cycle": stream_figures,
        "per_cycle": per_cycle,
    }
    figures["goal_met"] = (
        None
        if not both
        else (
            figures["moves_vs_get"] >= 0.5
            and figures["p99_ms"] < 100
            and not figures["move_errors"]
            and not figures["get_errors"]
        )
    )
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
