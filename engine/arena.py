"""Bot arena: duplicate-style matches between built-in bots.

    python -m engine.arena [indulgence] --games 1000 --bots ismcts,heuristic,random,random \
        [--players 3|4] [--variant basic|expert] [--seed S] [--ismcts-iterations K]
    python -m engine.arena eleusis --seats novice,random,random,random --rounds 100 \
        [--tiers easy,medium] [--compare novice random] [--seed S] [--workers 2] [--json F]
    python -m engine.arena pax [--suite | --variant V --players N --seats a,b] --games G \
        [--seed S] [--round-cap R] [--workers 2] [--time-limit S] [--json F]

Pax Illuminaten (``pax`` first): see engine/pax/arena.py and docs/pax.md.

New Eleusis (``eleusis`` first): seeded one-round games, see engine/eleusis/arena.py and
docs/eleusis.md. The rest of this text is about Indulgence (the default game).

A duplicate set is one game seed played ``n`` times (n = player count) with the bot
line-up rotated one seat each time, so every bot plays every seat on the same deals and
edict deck. Bots are handed only ``view(state, seat)`` and their own seeded
``random.Random``; the arena applies their actions and takes the automatic steps.

Reported per bot: mean florins won per game (final florins - 30) with a 95% confidence
interval over duplicate sets, win rate, sin attempts (per game) and sin success rate,
seconds per decision (median, p95 and mean over decisions that had a choice) and, for
ISMCTS, playouts per decision; and for each pair of bots the mean difference of their
per-set means with its 95% CI (paired over duplicate sets). Confidence intervals use
Student's t over the duplicate-set means (sets are the independent units).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import bots as registry
from engine import indulgence as game
from engine.bots.ismcts import DEFAULT_ITERATIONS, IsmctsBot
from engine.eleusis.arena import (
    ArenaConfig,
    ArenaError,
    RoundOutcome,
    config_problems,
    format_report,
    play_round,
    scientist_kinds,
    summarise,
)
from engine.eleusis.state import DIFFICULTIES

JsonDict = dict[str, Any]
Bot = Callable[[JsonDict, random.Random], JsonDict]


@dataclass
class BotTally:
    """What one bot did in some games (summed over its seats)."""

    florins: float = 0.0
    seat_games: int = 0
    wins: int = 0
    sins: int = 0
    sin_successes: int = 0
    decision_seconds: list[float] = field(default_factory=list)
    playouts: list[int] = field(default_factory=list)

    def merge(self, other: BotTally) -> None:
        self.florins += other.florins
        self.seat_games += other.seat_games
        self.wins += other.wins
        self.sins += other.sins
        self.sin_successes += other.sin_successes
        self.decision_seconds.extend(other.decision_seconds)
        self.playouts.extend(other.playouts)


@dataclass(frozen=True)
class Match:
    players: int
    variant: str
    lineup: tuple[str, ...]
    seed: str
    ismcts_iterations: int
    ismcts_seconds: float | None


def make_bot(kind: str, match: Match) -> Bot:
    """A fresh bot of a kind (ISMCTS at the match's budget)."""
    if kind == "ismcts":
        return IsmctsBot(
            match.ismcts_iterations,
            match.ismcts_seconds,
            clock=time.perf_counter if match.ismcts_seconds is not None else None,
        )

    def registered(view: JsonDict, rng: random.Random) -> JsonDict:
        return registry.choose(kind, view, rng)

    return registered


def play_game(
    match: Match, seed: str, lineup: Sequence[str], rng_label: str
) -> tuple[Any, dict[str, BotTally]]:
    """One game; returns the final state and a tally per bot kind."""
    n = match.players
    state = game.new_game(n, match.variant, seed)
    seats_bots = [make_bot(kind, match) for kind in lineup]
    rngs = [random.Random(f"{rng_label}/seat{s}") for s in range(n)]
    tallies = {kind: BotTally() for kind in lineup}
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        view = game.view(state, seat)
        bot = seats_bots[seat]
        start = time.perf_counter()
        action = bot(view, rngs[seat])
        elapsed = time.perf_counter() - start
        if len(view["legal_actions"]) > 1:
            tally = tallies[lineup[seat]]
            tally.decision_seconds.append(elapsed)
            if isinstance(bot, IsmctsBot):
                tally.playouts.append(bot.last_iterations)
        state = game.apply(state, seat, action)
    res = state.result
    assert res is not None
    for seat, kind in enumerate(lineup):
        tally = tallies[kind]
        tally.florins += res.florins[seat] - 30
        tally.seat_games += 1
        tally.wins += 1 if res.winner == seat else 0
    for record in state.history:
        if record.sinner is not None:
            tally = tallies[lineup[record.sinner]]
            tally.sins += 1
            tally.sin_successes += 1 if record.settlement.sin_succeeded else 0
    return state, tallies


def play_set(match: Match, index: int) -> dict[str, BotTally]:
    """One duplicate set: the same game seed, the line-up rotated through every seat."""
    n = match.players
    seed = f"{match.seed}-{index}"
    totals: dict[str, BotTally] = {}
    for rotation in range(n):
        lineup = [match.lineup[(seat + rotation) % n] for seat in range(n)]
        _state, tallies = play_game(match, seed, lineup, f"{seed}/r{rotation}")
        for kind, tally in tallies.items():
            totals.setdefault(kind, BotTally()).merge(tally)
    return totals


def _play_set_args(args: tuple[Match, int]) -> dict[str, BotTally]:
    return play_set(*args)


# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t (1.96 from 120 degrees of freedom on)."""
    if df <= len(_T95):
        return _T95[df - 1]
    if df < 60:
        return 2.021 if df < 40 else 2.009
    return 2.000 if df < 120 else 1.96


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (Student's t)."""
    k = len(values)
    if k == 0:
        return 0.0, math.nan
    mean = sum(values) / k
    if k < 2:
        return mean, math.nan
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return mean, t95(k - 1) * math.sqrt(var / k)


def _quantile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    match: Match,
    sets: int,
    workers: int = 1,
    progress: bool = False,
    time_limit: float | None = None,
) -> JsonDict:
    """Play ``sets`` duplicate sets and summarise them (a JSON-able dict).

    With ``time_limit`` (seconds), no result is collected after that time: the summary
    then covers the sets completed (in order) and says how many were planned.
    """
    jobs = [(match, i) for i in range(sets)]
    per_set: list[dict[str, BotTally]] = []
    start = time.perf_counter()

    def collect(i: int, result: dict[str, BotTally]) -> bool:
        per_set.append(result)
        elapsed = time.perf_counter() - start
        if progress and (i + 1) % max(1, sets // 20) == 0:
            print(f"  {i + 1}/{sets} sets, {elapsed:.0f} s", file=sys.stderr)
        return time_limit is None or elapsed < time_limit

    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for i, result in enumerate(pool.imap(_play_set_args, jobs)):
                if not collect(i, result):
                    break
    else:
        for i, job in enumerate(jobs):
            if not collect(i, _play_set_args(job)):
                break
    planned = sets
    sets = len(per_set)
    wall = time.perf_counter() - start
    kinds = list(dict.fromkeys(match.lineup))
    summary: JsonDict = {
        "players": match.players,
        "variant": match.variant,
        "lineup": list(match.lineup),
        "seed": match.seed,
        "ismcts_iterations": match.ismcts_iterations,
        "ismcts_max_seconds": match.ismcts_seconds,
        "sets": sets,
        "games": sets * match.players,
        "planned_games": planned * match.players,
        "ci_method": "student-t",
        "wall_seconds": round(wall, 1),
        "bots": {},
        "pairs": [],
    }
    set_means: dict[str, list[float]] = {kind: [] for kind in kinds}
    for result in per_set:
        for kind in kinds:
            t = result[kind]
            set_means[kind].append(t.florins / t.seat_games)
    for kind in kinds:
        total = BotTally()
        for result in per_set:
            total.merge(result[kind])
        mean, half = mean_ci(set_means[kind])
        games_per_seat = total.seat_games
        secs = total.decision_seconds
        summary["bots"][kind] = {
            "seats": match.lineup.count(kind),
            "mean_florins": mean,
            "ci95": half,
            "win_rate": total.wins / games_per_seat,
            "sins": total.sins,
            "sins_per_game": total.sins / games_per_seat,
            "sin_success_rate": (total.sin_successes / total.sins) if total.sins else None,
            "decisions": len(secs),
            "seconds_per_decision_mean": (sum(secs) / len(secs)) if secs else None,
            "seconds_per_decision_median": _quantile(secs, 0.5) if secs else None,
            "seconds_per_decision_p95": _quantile(secs, 0.95) if secs else None,
            "playouts_per_decision_median": _quantile(total.playouts, 0.5)
            if total.playouts
            else None,
        }
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            diffs = [x - y for x, y in zip(set_means[a], set_means[b], strict=True)]
            mean, half = mean_ci(diffs)
            summary["pairs"].append(
                {
                    "a": a,
                    "b": b,
                    "mean_difference": mean,
                    "ci95": half,
                    "above_zero": mean - half > 0,
                }
            )
    return summary


def format_summary(summary: JsonDict) -> str:
    """The summary as a plain-text table."""
    lines = [
        f"{summary['players']} players, {summary['variant']}, "
        f"line-up {','.join(summary['lineup'])}, seed {summary['seed']!r}: "
        f"{summary['games']} games ({summary['sets']} duplicate sets)"
        + (
            f" (stopped by the time limit; {summary['planned_games']} planned)"
            if summary["games"] < summary["planned_games"]
            else ""
        )
        + f", ISMCTS {summary['ismcts_iterations']} iterations"
        + (f" / {summary['ismcts_max_seconds']} s" if summary["ismcts_max_seconds"] else "")
        + f", {summary['wall_seconds']} s wall",
        "",
        f"{'bot':<10} {'seats':>5} {'florins/game':>14} {'95% CI':>9} {'win rate':>9} "
        f"{'sins/game':>9} {'sin success':>11} "
        f"{'s/decision (median, p95, mean)':>32} {'playouts':>9}",
    ]
    for kind, b in summary["bots"].items():
        success = "-" if b["sin_success_rate"] is None else f"{b['sin_success_rate']:.1%}"
        if b["decisions"]:
            secs = (
                f"{b['seconds_per_decision_median']:.5f}, {b['seconds_per_decision_p95']:.5f}, "
                f"{b['seconds_per_decision_mean']:.5f}"
            )
        else:
            secs = "-"
        playouts = (
            "-"
            if b["playouts_per_decision_median"] is None
            else str(b["playouts_per_decision_median"])
        )
        ci = "±" + format(b["ci95"], ".2f")
        lines.append(
            f"{kind:<10} {b['seats']:>5} {b['mean_florins']:>+14.2f} {ci:>9} "
            f"{b['win_rate']:>9.1%} {b['sins_per_game']:>9.2f} {success:>11} "
            f"{secs:>32} {playouts:>9}"
        )
    lines.append("")
    for p in summary["pairs"]:
        verdict = "above zero" if p["above_zero"] else "NOT above zero"
        low = p["mean_difference"] - p["ci95"]
        high = p["mean_difference"] + p["ci95"]
        lines.append(
            f"{p['a']} - {p['b']}: {p['mean_difference']:+.2f} florins/game, "
            f"95% CI ±{p['ci95']:.2f} [{low:+.2f}, {high:+.2f}] ({verdict})"
        )
    return "\n".join(lines)


def run_eleusis(config: ArenaConfig, workers: int = 1, progress: bool = False) -> JsonDict:
    """Play ``config.rounds`` rounds of every tier of New Eleusis and summarise them
    (engine/eleusis/arena.py). Every round is played from its own seed, so the report is
    the same for any number of ``workers``; only ``wall_seconds`` is not."""
    jobs = [(config, t, i) for t in config.tiers for i in range(config.rounds)]
    outcomes: list[RoundOutcome] = []
    start = time.perf_counter()
    step = max(1, len(jobs) // 20)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.imap(_play_eleusis_round, jobs, chunksize=4)
            for outcome in results:
                outcomes.append(outcome)
                _progress(progress, len(outcomes), len(jobs), step, start)
    else:
        for job in jobs:
            outcomes.append(_play_eleusis_round(job))
            _progress(progress, len(outcomes), len(jobs), step, start)
    report = summarise(config, outcomes)
    report["wall_seconds"] = round(time.perf_counter() - start, 1)
    return report


def _play_eleusis_round(job: tuple[ArenaConfig, str, int]) -> RoundOutcome:
    return play_round(*job)


def _progress(show: bool, done: int, total: int, step: int, start: float) -> None:
    if show and (done % step == 0 or done == total):
        print(f"  {done}/{total} rounds, {time.perf_counter() - start:.0f} s", file=sys.stderr)


def eleusis_main(argv: Sequence[str]) -> int:
    """``python -m engine.arena eleusis ...``: see engine/eleusis/arena.py."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena eleusis",
        description="Seeded one-round New Eleusis games between bots: per bot kind and "
        "difficulty tier, true-prophet share, plays to office, overthrows and points per "
        "round with 95% intervals (docs/eleusis.md).",
    )
    parser.add_argument(
        "--seats",
        default="novice,random,random,random",
        help="the scientists' bot kinds from the dealer's left, comma-separated "
        f"(kinds: {', '.join(scientist_kinds())}); the dealer seat is the dealer bot",
    )
    parser.add_argument("--rounds", type=int, default=100, help="rounds per tier")
    parser.add_argument(
        "--tiers", default=",".join(DIFFICULTIES), help="difficulty tiers, comma-separated"
    )
    parser.add_argument("--seed", default="arena", help="base seed")
    parser.add_argument(
        "--compare", nargs=2, metavar=("A", "B"), help="paired difference A - B per round"
    )
    parser.add_argument(
        "--sanity-walks", type=int, default=300, help="the table's NE-22 walks (1-300)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument(
        "--json", dest="json_path", help="write the report as JSON to this file ('-': stdout)"
    )
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    config = ArenaConfig(
        seats=tuple(k.strip() for k in args.seats.split(",") if k.strip()),
        tiers=tuple(t.strip() for t in args.tiers.split(",") if t.strip()),
        rounds=args.rounds,
        seed=args.seed,
        sanity_walks=args.sanity_walks,
        compare=tuple(args.compare) if args.compare else None,
    )
    problems = config_problems(config)
    if args.workers < 1:
        problems.append("--workers must be at least 1")
    if problems:
        parser.error("; ".join(problems))
    try:
        report = run_eleusis(config, args.workers, args.progress)
    except ArenaError as exc:
        print(f"python -m engine.arena eleusis: {exc}", file=sys.stderr)
        return 1
    if args.json_path == "-":
        print(json.dumps(report, indent=2))
        return 0
    print(format_report(report))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    return 0


def _pax_game(job: tuple[Any, str, int, int | None]) -> Any:
    from engine.pax import arena as pax_arena

    return pax_arena.play_game(*job, clock=time.process_time)


def run_pax(
    pairing: Any, games: int, seed: str, round_cap: int | None, workers: int, limit: float | None
) -> JsonDict:
    """Games 0..games-1 of a Pax pairing (engine/pax/arena.py); with ``limit`` (seconds of
    wall time), the games finished by then, in order."""
    from engine.pax import arena as pax_arena

    jobs = [(pairing, seed, i, round_cap) for i in range(games)]
    outcomes: list[Any] = []
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for outcome in pool.imap(_pax_game, jobs):
                outcomes.append(outcome)
                if limit is not None and time.perf_counter() - start > limit:
                    pool.terminate()
                    break
    else:
        for job in jobs:
            outcomes.append(_pax_game(job))
            if limit is not None and time.perf_counter() - start > limit:
                break
    summary = pax_arena.summarise(pairing, outcomes, games)
    summary["wall_seconds"] = round(time.perf_counter() - start, 1)
    return summary


def pax_main(argv: Sequence[str]) -> int:
    """``python -m engine.arena pax ...``: see engine/pax/arena.py and docs/pax.md."""
    from engine.pax import arena as pax_arena

    parser = argparse.ArgumentParser(
        prog="python -m engine.arena pax",
        description="Seeded Pax Illuminaten games between seat bots and against each "
        "automa: win rates with Wilson 95%% intervals, CPU seconds per decision.",
    )
    parser.add_argument("--variant", default="standard", help="standard or automa-<bot>")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seats", default="heuristic,random", help="bot kinds of the bot seats")
    parser.add_argument("--suite", action="store_true", help="every pairing of docs/pax.md")
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--round-cap", type=int, default=pax_arena.DEFAULT_ROUND_CAP)
    parser.add_argument("--workers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--time-limit", type=float, default=None, help="wall seconds a pairing")
    parser.add_argument("--json", dest="json_path", help="write the summaries as JSON here")
    args = parser.parse_args(argv)
    if args.suite:
        pairings = pax_arena.suite()
    else:
        pairings = [pax_arena.parse_pairing(args.variant, args.players, args.seats)]
    problems = [x for p in pairings for x in pax_arena.pairing_problems(p)]
    if args.games < 1:
        problems.append("--games must be at least 1")
    if problems:
        parser.error("; ".join(problems))
    summaries = []
    for p in pairings:
        try:
            s = run_pax(p, args.games, args.seed, args.round_cap, args.workers, args.time_limit)
        except pax_arena.ArenaError as exc:
            print(f"python -m engine.arena pax: {exc}", file=sys.stderr)
            return 1
        summaries.append(s)
        print(pax_arena.format_summary(s), flush=True)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(summaries, fh, indent=2)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] == "eleusis":
        return eleusis_main(args_in[1:])
    if args_in and args_in[0] == "pax":
        return pax_main(args_in[1:])
    if args_in and args_in[0] == "indulgence":
        args_in = args_in[1:]
    parser = argparse.ArgumentParser(
        prog="python -m engine.arena", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games", type=int, default=100, help="games to play (rounded up to whole duplicate sets)"
    )
    parser.add_argument(
        "--bots", default="heuristic,random,random,random", help="comma-separated line-up"
    )
    parser.add_argument(
        "--players", type=int, choices=(3, 4), help="player count (default: line-up length)"
    )
    parser.add_argument("--variant", choices=("basic", "expert"), default="basic")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--ismcts-iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument(
        "--ismcts-seconds", type=float, default=None, help="optional wall-time cap per decision"
    )
    parser.add_argument(
        "--workers", type=int, default=1, choices=(1, 2), help="processes (2 at most)"
    )
    parser.add_argument(
        "--json", dest="json_path", help="also write the summary as JSON to this file"
    )
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="stop after this many seconds; report the sets completed",
    )
    args = parser.parse_args(args_in)
    lineup = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    players = args.players or len(lineup)
    if len(lineup) != players:
        parser.error(f"--bots names {len(lineup)} bots for {players} players")
    unknown = [b for b in lineup if b not in registry.available()]
    if unknown:
        parser.error(
            f"unknown bot(s): {', '.join(unknown)} (available: {', '.join(registry.available())})"
        )
    if args.games < 1:
        parser.error("--games must be at least 1")
    match = Match(
        players, args.variant, lineup, args.seed, args.ismcts_iterations, args.ismcts_seconds
    )
    sets = -(-args.games // players)
    summary = run(match, sets, args.workers, args.progress, args.time_limit)
    print(format_summary(summary))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
