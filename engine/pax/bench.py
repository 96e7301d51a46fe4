"""Measures of Pax Illuminaten, run by ``python -m engine.bench --game pax``.

Pure: the caller passes the clock (engine/bench.py owns time and printing).
- validated ``apply`` decisions/s over the decisions of recorded random games (each
  decision re-applied to the state it was taken in: replay of the open program, the
  membership check, the rules, the freeze);
- ``legal_actions`` + ``apply`` decisions/s;
- whole random games/s through the contract, the random bot reading its seat's view;
- the share of random games that stall (15.5.3): games still going after ``cap`` rounds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.core import JsonDict
from engine.pax import engine as E
from engine.pax.bots import play_game
from engine.pax.state import State

Clock = Callable[[], float]


def recorded_decisions(
    games: int, seed: int, round_cap: int = 30
) -> list[tuple[State, int, JsonDict]]:
    """(state, seat, action) of every decision of some random games (2, 3, 4 seats)."""
    rng = random.Random(seed)
    out = []
    for i in range(games):
        state = E.new_game(2 + i % 3, "standard", f"bench-{seed}-{i}", {"round_cap": round_cap})
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
                continue
            fresh = replace(state)  # as apply returned it (the Action menu is not listed)
            action = rng.choice(E.legal_actions(state, seat))
            out.append((fresh, seat, action))
            state = E.apply(state, seat, action)
    return out


def apply_rate(
    triples: list[tuple[State, int, JsonDict]], clock: Clock, seconds: float, with_legal: bool
) -> float:
    """Decisions/s: ``apply`` (and ``legal_actions`` first, if asked) on recorded states.
    The states hold no listed options (as ``apply`` returns them), so ``legal_actions``
    lists them, and ``apply`` of the Action phase checks the one action it is given."""
    count = 0
    elapsed = 0.0
    while elapsed < seconds:
        start = clock()
        for state, seat, action in triples:
            if with_legal:
                E.legal_actions(replace(state), seat)
            else:
                E.apply(state, seat, action)
        elapsed += clock() - start
        count += len(triples)
    return count / elapsed


@dataclass
class GamesFigure:
    games: int
    seconds: float
    decisions: int
    rounds: int

    @property
    def per_s(self) -> float:
        return self.games / self.seconds


def games_rate(clock: Clock, seconds: float, seed: int, round_cap: int = 100) -> GamesFigure:
    """Whole random games through the contract (views included) for about ``seconds``."""
    games = decisions = rounds = 0
    start = clock()
    while clock() - start < seconds or games == 0:
        run = play_game(2 + games % 3, f"games-{seed}-{games}", round_cap=round_cap)
        games += 1
        decisions += run.decisions
        rounds += run.state.round
    return GamesFigure(games, clock() - start, decisions, rounds)


@dataclass
class StallFigure:
    games: int
    stalled: int
    cap: int
    rounds: list[int]
    plot_wins: int = 0

    @property
    def share(self) -> float:
        return self.stalled / self.games


def stall_share(games: int, cap: int, seed: int) -> StallFigure:
    """15.5.3: random games (2, 3, 4 seats in turn) that reach ``cap`` rounds with no
    plot victory and no final round (fewer than 5 edicts discarded)."""
    stalled = plot_wins = 0
    rounds = []
    for i in range(games):
        run = play_game(2 + i % 3, f"stall-{seed}-{i}", round_cap=cap)
        state = run.state
        rounds.append(state.round)
        result = state.result or {}
        if result.get("reason") != "plot" and not state.final_round:
            stalled += 1
        plot_wins += result.get("reason") == "plot"
    return StallFigure(games, stalled, cap, rounds, plot_wins)


def check_games(games: int, seed: int, round_cap: int = 100) -> tuple[int, int, list[str]]:
    """Random games (2, 3, 4 seats in turn) with every 16.3 invariant checked after every
    step: (games, steps checked, the first problems found, if any)."""
    from engine.pax.invariants import problems

    checked = 0
    for i in range(games):
        rng = random.Random(f"check-{seed}-{i}")
        state = E.new_game(2 + i % 3, "standard", f"check-{seed}-{i}", {"round_cap": round_cap})
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
            else:
                state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            checked += 1
            found = problems(state)
            if found:
                return i + 1, checked, found
    return games, checked, []
