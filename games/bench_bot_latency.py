"""Bot reply latency: from a human move's commit to the commit of the bot's answer, with
Redis and one real Celery worker process (docs/performance.md, "Bot reply latency").

    createdb -h 127.0.0.1 indulgence_bench                  # once
    DATABASE_URL=postgresql://127.0.0.1:5432/indulgence_bench \\
    REDIS_URL=redis://127.0.0.1:6379/14 \\
    python -m games.bench_bot_latency --moves 300 [--bot random] [--concurrency 1]

It migrates that database, starts ``celery -A indulgence_site worker`` (killed at the end),
plays random legal moves for a person in seat 0 of three-player games against two bots,
and after each of the person's moves that hands the turn to a bot, times the interval
from the end of ``action_submit`` (the commit has happened) to the arrival of the bot
move's stream wake-up on Redis pub/sub (published right after the bot's commit).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import django


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="bot replies to time")
    parser.add_argument("--bot", default="random", help="built-in bot kind in seats 1 and 2")
    parser.add_argument("--concurrency", type=int, default=1, help="worker pool processes")
    args = parser.parse_args(argv)
    if not os.environ.get("REDIS_URL") or not os.environ.get("DATABASE_URL", "").startswith(
        "postgres"
    ):
        parser.error("set DATABASE_URL (PostgreSQL) and REDIS_URL: see the module docstring")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    django.setup()

    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    worker = _start_worker(args.concurrency)
    try:
        samples = _measure(args.moves, args.bot)
    finally:
        worker.send_signal(signal.SIGTERM)  # warm shutdown: the current task completes
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=30)
    ms = [s * 1000 for s in samples]
    print(
        f"bot reply latency over {len(ms)} moves ({args.bot} bot, Redis + 1 worker, "
        f"concurrency {args.concurrency}): p50 {percentile(ms, 0.5):.1f} ms, "
        f"p90 {percentile(ms, 0.9):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms, mean {statistics.fmean(ms):.1f} ms"
    )
    return 0


def _start_worker(concurrency: int) -> subprocess.Popen[bytes]:
    from indulgence_site.celery import app

    name = f"bench-{os.getpid()}@{socket.gethostname()}"
    celery = Path(sys.executable).parent / "celery"
    worker = subprocess.Popen(  # noqa: S603 (our own executable, fixed arguments)
        [str(celery), "-A", "indulgence_site", "worker", "--loglevel", "WARNING",
         "--concurrency", str(concurrency), "-n", name,
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise SystemExit("the worker exited at start")
        if any(name in reply for reply in app.control.ping(destination=[name], timeout=0.5)):
            return worker
    os.killpg(worker.pid, signal.SIGKILL)
    raise SystemExit("the worker did not answer a ping within 60 s")


def _measure(moves: int, bot: str) -> list[float]:
    import redis
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games import events, selectors, services
    from games.models import Event, Game, GameStatus

    human, _ = get_user_model().objects.get_or_create(username="bench-human")
    client = redis.Redis.from_url(settings.REDIS_URL)
    rng = random.Random(7)
    samples: list[float] = []
    game: Game | None = None
    pubsub: Any = None
    while len(samples) < moves:
        if game is None or game.status != GameStatus.IN_PROGRESS:
            if pubsub is not None:
                pubsub.close()
            game = services.game_create(
                creator=human, player_count=3, bots=[(1, bot), (2, bot)], rated=False
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(events.game_channel(game.pk))
        _wait_for_human(game, pubsub)
        if game.status != GameStatus.IN_PROGRESS:
            continue
        view = selectors.game_view(game=game, user=human)
        result = services.action_submit(
            game_id=game.pk, user=human, action=rng.choice(view["legal_actions"])
        )
        committed = time.perf_counter()
        game = result.game
        if game.to_act_seat in (None, 0):
            continue  # a settlement or the person again: no bot reply to time
        # Wake-ups still buffered from earlier moves are older than the person's move's event.
        after = Event.objects.get(game=game, type="move", payload__seq=game.move_count).pk
        deadline = time.monotonic() + 10
        while True:
            # None: nothing yet, or a subscription confirmation (ignored).
            message = pubsub.get_message(timeout=max(deadline - time.monotonic(), 0))
            if message is None:
                if time.monotonic() < deadline:
                    continue
                game.refresh_from_db()
                raise SystemExit(
                    f"no bot reply within 10 s in game {game.pk} (to act: seat "
                    f"{game.to_act_seat}, {game.move_count} moves): is the worker running?"
                )
            if int(message["data"]) <= after:
                continue
            event = Event.objects.get(pk=int(message["data"]))
            if event.type == "move" and event.payload.get("seat") not in (None, 0):
                samples.append(time.perf_counter() - committed)
                break
    return samples


def _wait_for_human(game: Any, pubsub: Any) -> None:
    """Until seat 0 is to act (or the game is over), following the wake-ups."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.to_act_seat == 0 or game.status != "in_progress":
            return
        pubsub.get_message(timeout=0.5)
    raise SystemExit("the bots did not hand the turn back within 30 s")


if __name__ == "__main__":
    sys.exit(main())
