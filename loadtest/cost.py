# ruff: noqa: S603, S607  (runs the stack's own programs, with fixed arguments)
"""What one request costs, measured in one process: CPU milliseconds of this process
(Django, DRF and the services, without any web server) and of its PostgreSQL backend,
and the statements sent, per ``GET /api/v1/games/<id>/`` and per ``POST .../actions``.

Far less noisy than the load test (``loadtest.run``), because it counts CPU time rather
than requests per second on a shared machine; use it for A/B comparisons of the request
path. Production settings (``DJANGO_ENV=production``, kept-open connection, prepared
statements), a scratch PostgreSQL database (created, then dropped) and Redis database 13.

    .venv/bin/python -m loadtest.cost --moves 600

Hand settlements, which the Celery worker does in production, are called directly here
and are not counted. ``--profile move`` (or ``get``) prints a cProfile of those requests,
timed by the CPU clock, to stderr; ``COST_SORT=tottime``, ``COST_LINES=80`` and
``COST_CALLERS=<regex>`` shape that listing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from typing import Any

from loadtest.run import REDIS, manage, process_cpu_seconds, stack_env


def measure(
    moves: int, gets: int, keys: bool, rounds: int, profile: str | None = None
) -> dict[str, Any]:
    import django

    django.setup()
    from indulgence_site.runtime import settle_heap

    settle_heap()  # as the web processes do (indulgence_site.wsgi)
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    import engine.indulgence as rules
    from games import services
    from games.models import Game

    users = [get_user_model().objects.create_user(f"cost-{s}", password=None) for s in range(3)]
    tokens = [services.token_issue(user=u, name="cost")[1] for u in users]
    clients = [
        Client(HTTP_AUTHORIZATION=f"Bearer {t}", HTTP_ACCEPT="application/json") for t in tokens
    ]
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = int(cursor.fetchone()[0])

    def new_game() -> tuple[int, int, Any]:
        # Dealt from a seed drawn here, set before the others join as if the server had
        # drawn it (a seed chosen through the API makes a sandbox nobody else may join).
        seed = f"cost-{uuid.uuid4().hex}"
        body = {"player_count": 3, "rated": False}
        view = clients[0].post("/api/v1/games/", body, content_type="application/json").json()
        Game.objects.filter(pk=view["id"]).update(
            seed=seed, seed_commitment=rules.seed_commitment(seed)
        )
        for client in clients[1:]:
            view = client.post(f"/api/v1/games/{view['id']}/join").json()
        return int(view["id"]), int(view["version"]), rules.new_game(3, "basic", seed=seed)

    rng = random.Random(1)
    per_round: dict[str, list[float]] = {
        k: [] for k in ("get_cpu", "get_pg", "move_cpu", "move_pg")
    }
    queries = {"get": 0, "move": 0}
    game_id, version, state = new_game()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)
    for _ in range(rounds):
        # Moves: whole games, each request a legal move of the seat to act.
        cpu = pg = 0.0
        done = 0
        while done < moves:
            if rules.is_over(state):
                game_id, version, state = new_game()
            seat = rules.to_act(state)
            if seat is None:
                services.hand_settle(
                    game_id=game_id, hand_number=rules.view(state, None)["hand_number"]
                )
                state, version = rules.advance(state), version + 1
                continue
            action = rng.choice(rules.legal_actions(state, seat))
            headers = {"Idempotency-Key": uuid.uuid4().hex} if keys else {}
            pg0, cpu0 = process_cpu_seconds(backend), time.process_time()
            if profiler is not None and profile == "move":
                profiler.enable()
            answer = clients[seat].post(
                f"/api/v1/games/{game_id}/actions",
                {"action": action, "version": version},
                content_type="application/json",
                headers=headers,
            )
            if profiler is not None:
                profiler.disable()
            cpu += time.process_time() - cpu0
            pg += process_cpu_seconds(backend) - pg0
            if answer.status_code != 200:
                raise SystemExit(f"move refused: {answer.status_code} {answer.content[:300]!r}")
            state, version = rules.apply(state, seat, action), version + 1
            done += 1
        per_round["move_cpu"].append(cpu * 1000 / moves)
        per_round["move_pg"].append(pg * 1000 / moves)
        # GETs of the current game's view.
        pg0, cpu0 = process_cpu_seconds(backend), time.process_time()
        for _ in range(gets):
            if profiler is not None and profile == "get":
                profiler.enable()
            answer = clients[0].get(f"/api/v1/games/{game_id}/")
            if profiler is not None:
                profiler.disable()
            if answer.status_code != 200:
                raise SystemExit(f"GET refused: {answer.status_code}")
        per_round["get_cpu"].append((time.process_time() - cpu0) * 1000 / gets)
        per_round["get_pg"].append((process_cpu_seconds(backend) - pg0) * 1000 / gets)
    # The statements of one more GET and one more move (not timed: counting them costs).
    with CaptureQueriesContext(connection) as captured:
        clients[0].get(f"/api/v1/games/{game_id}/")
    queries["get"] = len(captured)
    while rules.to_act(state) is None and not rules.is_over(state):
        services.hand_settle(game_id=game_id, hand_number=rules.view(state, None)["hand_number"])
        state, version = rules.advance(state), version + 1
    last = rules.to_act(state)
    if last is not None:
        seat = last
        with CaptureQueriesContext(connection) as captured:
            clients[seat].post(
                f"/api/v1/games/{game_id}/actions",
                {"action": rng.choice(rules.legal_actions(state, seat)), "version": version},
                content_type="application/json",
                headers={"Idempotency-Key": uuid.uuid4().hex} if keys else {},
            )
        queries["move"] = len(captured)
    if profiler is not None:
        import pstats

        stats = pstats.Stats(profiler, stream=sys.stderr)
        if os.environ.get("COST_CALLERS"):
            stats.print_callers(os.environ["COST_CALLERS"])
        order = os.environ.get("COST_SORT", "cumulative")  # e.g. tottime
        stats.sort_stats(order).print_stats(int(os.environ.get("COST_LINES", "60")))
    medians = {k: round(statistics.median(v), 2) for k, v in per_round.items()}
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "rounds": rounds,
        "moves_per_round": moves,
        "gets_per_round": gets,
        "idempotency_keys": keys,
        "ms_per_get": {"django": medians["get_cpu"], "postgres": medians["get_pg"]},
        "ms_per_move": {"django": medians["move_cpu"], "postgres": medians["move_pg"]},
        "move_over_get": round(
            (medians["move_cpu"] + medians["move_pg"]) / (medians["get_cpu"] + medians["get_pg"]), 2
        ),
        "statements": queries,
        "rounds_ms": {k: [round(x, 2) for x in v] for k, v in per_round.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves per round")
    parser.add_argument("--gets", type=int, default=300, help="GETs per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--idempotency-keys", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--profile", choices=["move", "get"], help="cProfile these requests (to stderr)"
    )
    args = parser.parse_args()
    if os.environ.get("LOADTEST_COST_CHILD") != "1":
        tag = uuid.uuid4().hex[:8]
        database = f"indulgence_cost_{tag}"
        env = stack_env(database, f"indulgence-cost-{tag}")
        env["ALLOWED_HOSTS"] = "testserver"
        subprocess.run(["createdb", "-h", "127.0.0.1", database], check=True)
        try:
            manage(env, "migrate", "--no-input", "-v", "0")
            env["LOADTEST_COST_CHILD"] = "1"
            done = subprocess.run(
                [sys.executable, "-m", "loadtest.cost", *sys.argv[1:]], env=env, check=False
            )
        finally:
            subprocess.run(
                ["dropdb", "-h", "127.0.0.1", "--if-exists", "--force", database], check=False
            )
            import redis

            client = redis.Redis.from_url(REDIS)
            queue = env["CELERY_TASK_DEFAULT_QUEUE"]
            for key in [queue, *client.scan_iter(match=f"*{queue}*", count=1000)]:
                client.delete(key)
            client.close()
        raise SystemExit(done.returncode)
    print(
        json.dumps(
            measure(args.moves, args.gets, args.idempotency_keys, args.rounds, args.profile),
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
