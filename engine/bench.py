"""Benchmark the engine: ``python -m engine.bench [--runs 5] [--seconds 1.0] [--clock wall]``.

Prints the median over ``--runs`` rounds of:

- the fast path: whole random games (deals from an ``rng``), hands/s and tricks/s, for
  4 players basic and expert and 3 players basic; random playouts of hand 1 from a
  dealt ``State`` (what a Monte Carlo bot does), hands/s;
- the validated path: ``apply`` decisions/s over recorded random games (only the
  ``apply`` calls are timed), and ``legal_actions`` + ``apply`` together;
- if OpenSpiel (``pyspiel``) is importable: ``oh_hell`` with players=4, num_suits=4,
  num_cards_per_suit=9, random play driven from Python, hands/s and tricks/s, both with
  its default random number of tricks per hand (1..8) and with num_tricks_fixed=8 (the
  most 36 cards allow beside the trump card), and the ratios fast path / OpenSpiel.

``--game pax`` measures Pax Illuminaten: validated ``apply`` decisions/s, ``legal_actions``
+ ``apply``, whole random games/s through the contract, with ``--stall N`` the share of
N random games that stall (15.5.3; engine/pax/bench.py, docs/pax.md), and with
``--check N`` N random games over every seat count and variant with the 16.3 invariants
after every step (``--check-first K`` numbers them from K, to split one run across
processes), and with ``--undo N`` the time an undo's replay takes at the end of N random
games (15.5.2, P-80).

``--game eleusis`` measures New Eleusis instead: ERL judgements/s on a 300-card main line
per library rule, whole random rounds/s (random bots, seeded) and every bot kind's
decision time (median and maximum over ``--views`` seeded views), and with ``--walks N``
the sanity check of every library rule (engine/eleusis/bench.py, docs/eleusis.md);
``--parts judgements,rounds,decisions`` picks among the first three.

Each round times every figure once (interleaved), so that a busy machine slows all of
them alike and the ratios stay fair. ``--clock cpu`` times with the process's CPU time
instead of the wall clock (steadier when other processes compete for the cores).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import indulgence as game
from engine.indulgence import fast

Clock = Callable[[], float]
Measure = Callable[[float, Clock], tuple[float, float]]
"""Runs for about the given seconds; returns (units done, seconds measured)."""


class _Counter:
    """Tricks and hands seen by a measure (for tricks per hand)."""

    def __init__(self) -> None:
        self.tricks = 0
        self.hands = 0

    def per_hand(self) -> float:
        return self.tricks / max(1, self.hands)


def _fast_games(players: int, variant: str, seed: int, counter: _Counter) -> Measure:
    rng = random.Random(seed)

    def measure(seconds: float, clock: Clock) -> tuple[float, float]:
        hands = 0
        start = clock()
        while True:
            out = fast.random_game(players, variant, rng)
            hands += out.hands_played
            counter.tricks += out.tricks_played
            counter.hands += out.hands_played
            elapsed = clock() - start
            if elapsed >= seconds:
                return hands, elapsed

    return measure


def _fast_playouts(players: int, variant: str, seed: int) -> Measure:
    rng = random.Random(seed)
    states = [game.new_game(players, variant, f"bench-{i}") for i in range(64)]

    def measure(seconds: float, clock: Clock) -> tuple[float, float]:
        count = 0
        start = clock()
        while True:
            for state in states:
                fast.playout(state, rng)
            count += len(states)
            elapsed = clock() - start
            if elapsed >= seconds:
                return count, elapsed

    return measure


def recorded_decisions(games: int, seed: int) -> list[tuple[game.State, int, dict[str, Any]]]:
    """(state, seat, action) of every player decision of some random games."""
    rng = random.Random(seed)
    triples = []
    for i in range(games):
        state = game.new_game(4 if i % 2 else 3, "expert" if i % 3 else "basic", f"bench-{i}")
        while not game.is_over(state):
            seat = game.to_act(state)
            if seat is None:
                state = game.advance(state)
                continue
            action = rng.choice(game.legal_actions(state, seat))
            triples.append((state, seat, action))
            state = game.apply(state, seat, action)
    return triples


def _validated(triples: list[tuple[game.State, int, dict[str, Any]]], with_legal: bool) -> Measure:
    apply = game.apply
    legal = game.legal_actions

    def measure(seconds: float, clock: Clock) -> tuple[float, float]:
        count = 0
        elapsed = 0.0
        while elapsed < seconds:
            start = clock()
            if with_legal:
                for state, seat, action in triples:
                    legal(state, seat)
                    apply(state, seat, action)
            else:
                for state, seat, action in triples:
                    apply(state, seat, action)
            elapsed += clock() - start
            count += len(triples)
        return count, elapsed

    return measure


def _openspiel(params: dict[str, int], seed: int, counter: _Counter) -> Measure | None:
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    spiel_game = pyspiel.load_game("oh_hell", params)
    rng = random.Random(seed)

    def measure(seconds: float, clock: Clock) -> tuple[float, float]:
        hands = 0
        start = clock()
        while True:
            state = spiel_game.new_initial_state()
            plays = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])
                    plays += 1
            hands += 1
            counter.hands += 1
            counter.tricks += (plays - 4) // 4  # 4 bids, then 4 cards a trick
            elapsed = clock() - start
            if elapsed >= seconds:
                return hands, elapsed

    return measure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--runs", type=int, default=5, help="rounds (the median is reported)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--games", type=int, default=40, help="random games recorded for apply")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--game", choices=("indulgence", "eleusis", "pax"), default="indulgence")
    parser.add_argument("--walks", type=int, default=0, help="eleusis: also time NE-22")
    parser.add_argument(
        "--parts",
        default=",".join(ELEUSIS_PARTS),
        help=f"eleusis: which measures, comma-separated ({', '.join(ELEUSIS_PARTS)})",
    )
    parser.add_argument(
        "--views", type=int, default=200, help="eleusis: seeded views per bot decision figure"
    )
    parser.add_argument(
        "--view-rounds", type=int, default=20, help="eleusis: random rounds the views come from"
    )
    parser.add_argument("--stall", type=int, default=0, help="pax: random games for 15.5.3")
    parser.add_argument("--cap", type=int, default=100, help="pax: the stall round cap")
    parser.add_argument("--check", type=int, default=0, help="pax: games checking 16.3")
    parser.add_argument("--undo", type=int, default=0, help="pax: games replayed (an undo)")
    parser.add_argument(
        "--pay-views", type=int, default=0, help="pax: 2-seat games timing views' payment help"
    )
    parser.add_argument(
        "--check-first", type=int, default=0, help="pax: number of the first --check game"
    )
    args = parser.parse_args(argv)
    clock: Clock = time.perf_counter if args.clock == "wall" else time.process_time
    if args.game == "eleusis":
        parts = [p.strip() for p in args.parts.split(",") if p.strip()]
        unknown = [p for p in parts if p not in ELEUSIS_PARTS]
        if unknown:
            parser.error(f"unknown part(s) {', '.join(unknown)} ({', '.join(ELEUSIS_PARTS)})")
        return _eleusis(
            args.seconds, args.walks, args.clock, clock, parts, args.views, args.view_rounds
        )
    if args.game == "pax":
        return _pax(args, clock)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(
        f"engine.bench: Python {platform.python_version()}, {os.cpu_count()} CPUs (load {load}),"
        f" {args.runs} rounds x {args.seconds:g} s per figure, {args.clock} clock, medians"
    )

    counters: dict[str, _Counter] = {}
    measures: dict[str, Measure] = {}
    for players, variant in ((4, "basic"), (4, "expert"), (3, "basic")):
        name = f"fast path, random games {players}p {variant}"
        counters[name] = _Counter()
        measures[name] = _fast_games(players, variant, 1, counters[name])
    measures["fast path, playouts from a dealt State 4p expert"] = _fast_playouts(4, "expert", 2)
    triples = recorded_decisions(args.games, seed=3)
    measures["validated apply"] = _validated(triples, with_legal=False)
    measures["validated legal_actions + apply"] = _validated(triples, with_legal=True)
    base = {"players": 4, "num_suits": 4, "num_cards_per_suit": 9}
    spiel_names = []
    for label, params in (
        ("default", base),
        ("num_tricks_fixed=8", {**base, "num_tricks_fixed": 8}),
    ):
        name = f"OpenSpiel oh_hell 4p 36 cards, {label}"
        counters[name] = _Counter()
        spiel = _openspiel(params, 4, counters[name])
        if spiel is not None:
            measures[name] = spiel
            spiel_names.append(name)

    rates: dict[str, list[float]] = {name: [] for name in measures}
    for measure in measures.values():
        measure(min(0.2, args.seconds), clock)  # warm up
    for _ in range(args.runs):
        for name, measure in measures.items():
            units, elapsed = measure(args.seconds, clock)
            rates[name].append(units / elapsed)
    medians = {name: statistics.median(values) for name, values in rates.items()}

    for name, rate in medians.items():
        unit = "decisions/s" if name.startswith("validated") else "hands/s"
        line = f"{name:50} {rate:10,.0f} {unit}"
        if name in counters:
            per_hand = counters[name].per_hand()
            line += f"  ({per_hand:.2f} tricks/hand, {rate * per_hand:,.0f} tricks/s)"
        if name == "validated apply":
            line += f"  ({len(triples)} recorded decisions)"
        print(line)
    if not spiel_names:
        print("OpenSpiel (pyspiel) is not installed: no oh_hell comparison")
    for spiel_name in spiel_names:
        for players_variant in ("4p basic", "4p expert"):
            fast_name = f"fast path, random games {players_variant}"
            ratio = medians[fast_name] / medians[spiel_name]
            print(f"ratio {fast_name} / {spiel_name}: {ratio:.2f}")
    return 0


def _pax_pay_views(fig: Any) -> None:
    """15.5.1, P-87: what the payment help adds to the acting seat's view (CPU ms)."""

    def spread(xs: list[float]) -> str:
        tenth = statistics.quantiles(xs, n=10)
        return (
            f"median {statistics.median(xs) * 1000:.3f}, p90 {tenth[-1] * 1000:.3f},"
            f" max {max(xs) * 1000:.3f} ms"
        )

    acts = sorted(fig.actions)
    print(
        f"payment help (P-87): {len(acts)} decisions, offered actions median"
        f" {statistics.median(acts):g}, max {acts[-1]}"
    )
    print(f"  {'view (payment help included)':44} {spread(fig.view)}")
    print(f"  {'payment_help once the actions are listed':44} {spread(fig.help)}")
    print(f"  {'suggest_payment for every offered action':44} {spread(fig.suggest)}")
    shares = [h / v for h, v in zip(fig.help, fig.view, strict=True) if v > 0]
    print(f"  payment help's share of a view: median {statistics.median(shares):.1%}")


def _pax(args: argparse.Namespace, clock: Clock) -> int:
    """Pax Illuminaten (engine/pax/bench.py): medians over ``--runs`` rounds."""
    from engine.pax import bench as pax_bench

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(
        f"engine.bench pax: Python {platform.python_version()}, {os.cpu_count()} CPUs "
        f"(load {load}), {args.runs} rounds x {args.seconds:g} s, {args.clock} clock, medians"
    )
    if args.runs:
        triples = pax_bench.recorded_decisions(args.games, seed=3)
        print(f"recorded {len(triples)} decisions of {args.games} random games (2-4 seats)")
        applies: list[float] = []
        legals: list[float] = []
        games: list[float] = []
        figure = None
        for _ in range(args.runs):
            applies.append(pax_bench.apply_rate(triples, clock, args.seconds, with_legal=False))
            legals.append(pax_bench.apply_rate(triples, clock, args.seconds, with_legal=True))
            figure = pax_bench.games_rate(clock, args.seconds, seed=len(games))
            games.append(figure.per_s)
        print(f"{'validated apply':40} {statistics.median(applies):10,.0f} decisions/s")
        listing = "legal_actions on the same states"
        print(f"{listing:40} {statistics.median(legals):10,.0f} listings/s")
        assert figure is not None
        print(
            f"{'random games through the contract':40} {statistics.median(games):10.2f} games/s"
            f"  (last run: {figure.decisions / figure.games:.0f} decisions,"
            f" {figure.rounds / figure.games:.1f} rounds a game)"
        )
    if args.stall:
        start = clock()
        stall = pax_bench.stall_share(args.stall, args.cap, seed=1)
        spent = clock() - start
        rounds = sorted(stall.rounds)
        print(
            f"stalled games (15.5.3): {stall.stalled}/{stall.games} = {stall.share:.1%} reach"
            f" round {stall.cap} with no plot victory and fewer than 5 edicts discarded;"
            f" rounds median {rounds[len(rounds) // 2]}, max {rounds[-1]};"
            f" {stall.plot_wins} plot victories ({spent:.0f} s)"
        )
    if args.undo:
        times = pax_bench.replay_times(args.undo, args.cap, seed=1, clock=clock)
        per_move = sorted(t / n for n, t in times)
        moves = sorted(n for n, _ in times)
        print(
            f"an undo's replay (15.5.2, P-80): {len(times)} random games of {moves[0]} to"
            f" {moves[-1]} server moves; {max(t for _, t in times):.3f} s at most,"
            f" {per_move[len(per_move) // 2] * 1000:.2f} ms a move (median)"
        )
    if args.pay_views:
        _pax_pay_views(pax_bench.pay_view_times(args.pay_views, 1, clock))
    if args.check:
        start = clock()

        def progress(fig: Any) -> None:
            played = sum(fig.games.values())
            if played % 50 == 0:
                steps = sum(fig.steps.values())
                stalled = sum(fig.stalled.values())
                print(
                    f"  ... {played} games, {steps:,} steps, {stalled} stalled,"
                    f" {clock() - start:.0f} s",
                    flush=True,
                )

        fig = pax_bench.check_games(args.check, 1, args.cap, args.check_first, progress)
        spent = clock() - start
        for (players, variant), n in sorted(fig.games.items()):
            kind = (players, variant)
            print(
                f"  {variant:10} {players} seats: {n:5} games, {fig.steps[kind]:8,} steps,"
                f" {fig.stalled.get(kind, 0)} stalled"
            )
        played, steps = sum(fig.games.values()), sum(fig.steps.values())
        stalled = sum(fig.stalled.values())
        verdict = "every 16.3 invariant held" if not fig.problems else f"BROKEN: {fig.problems}"
        rounds = sorted(fig.rounds) or [0]
        print(
            f"{played} random games (from game {args.check_first}), {steps:,} steps checked:"
            f" {verdict} ({spent:.0f} s);"
            f" stalled (15.5.3, cap {args.cap}): {stalled}/{played};"
            f" ends {dict(sorted(fig.reasons.items()))};"
            f" rounds median {rounds[len(rounds) // 2]}, max {rounds[-1]}"
        )
    return 0


ELEUSIS_PARTS = ("judgements", "rounds", "decisions")


def _eleusis(
    seconds: float,
    walks: int,
    clock_name: str,
    clock: Clock,
    parts: Sequence[str] = ELEUSIS_PARTS,
    views: int = 200,
    view_rounds: int = 20,
) -> int:
    """ERL judgements/s on a 300-card main line per library rule, whole random rounds/s
    and bots' decision times (engine/eleusis/bench.py)."""
    from engine.eleusis import bench as eleusis_bench

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(
        f"engine.bench eleusis: Python {platform.python_version()}, {os.cpu_count()} CPUs "
        f"(load {load}), {seconds:g} s per figure, {clock_name} clock, 300-card main line"
    )
    if "judgements" in parts:
        print(
            f"{'rule':32} {'judge/s':>10} {'batch/s':>10} {'us/judge':>9} {'cost':>6} {'right':>6}"
        )
        for fig in eleusis_bench.library_figures(clock, seconds):
            print(
                f"{fig.name:32} {fig.judge_per_s:10,.0f} {fig.batch_per_s:10,.0f}"
                f" {1e6 / fig.judge_per_s:9.2f} {fig.cost:6} {fig.right_share:6.0%}",
                flush=True,
            )
    if "rounds" in parts:
        r = eleusis_bench.rounds_figure(clock, seconds)
        print(
            f"whole random rounds ({eleusis_bench.ROUND_PLAYERS} seats, random bots, seeded, "
            f"NE-22 check cached): {r.rounds / r.seconds:,.1f} rounds/s, "
            f"{r.turns / r.seconds:,.0f} judged turns/s, {r.actions / r.seconds:,.0f} actions/s "
            f"({r.rounds} rounds, {r.turns / r.rounds:.1f} turns and "
            f"{r.actions / r.rounds:.1f} actions each, {r.seconds:.2f} s)",
            flush=True,
        )
    if "decisions" in parts:
        print(
            f"bot decisions, seconds per decision on {views} seeded views from {view_rounds} "
            f"random rounds (the dealer on dealers' views); the first call apart:"
        )
        print(f"{'bot':12} {'views':>6} {'first':>10} {'median':>10} {'max':>10} {'mean':>10}")
        for d in eleusis_bench.decision_figures(clock, views, view_rounds):
            print(
                f"{d.kind:12} {d.views:6} {d.first:10.6f} {d.median:10.6f} {d.max:10.6f}"
                f" {d.mean:10.6f}",
                flush=True,
            )
    if walks:
        print(f"NE-22 sanity check, {walks} walks x 100 cards:")
        for s in eleusis_bench.sanity_figures(clock, walks):
            print(
                f"{s.name:32} {s.verdict:6} (listed {s.listed:4}) {s.mean_share:5.1%}"
                f" exhausted at {s.exhausted_at!s:>4}  walks {s.walks:3}  {s.seconds:5.2f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
