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
from dataclasses import dataclass, field, replace

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


def kinds() -> list[tuple[int, str]]:
    """Every (seat count, variant) the game offers (``META``): the invariant run covers
    each variant ``new_game`` accepts, the automa ones too once they are offered."""
    from engine.pax.game import PaxGame
    from engine.pax.setup import SetupError

    out = []
    for variant in PaxGame.META.variants:
        for players in PaxGame.META.player_counts:
            try:
                E.new_game(players, variant, "probe")
            except SetupError:
                continue
            out.append((players, variant))
    return out


@dataclass
class CheckFigure:
    """An invariant run: games and steps per (seats, variant), how the games ended."""

    games: dict[tuple[int, str], int] = field(default_factory=dict)
    steps: dict[tuple[int, str], int] = field(default_factory=dict)
    stalled: dict[tuple[int, str], int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)
    rounds: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def check_games(
    games: int,
    seed: int,
    round_cap: int = 100,
    first: int = 0,
    on_game: Callable[[CheckFigure], None] | None = None,
) -> CheckFigure:
    """Random games over every seat count and variant in turn (``kinds``), with every
    16.3 invariant checked after every step (``apply`` and ``advance``); stops at the
    first broken one. Games are numbered from ``first`` (one run may be split across
    processes: games 0-999 and 1000-1999 are the games of one run of 2,000). A game
    *stalls* (15.5.3, P-21) when the round cap ends it: no plot or bot victory and fewer
    than 5 edicts discarded (no final round). ``on_game`` sees the figure after each game."""
    from engine.pax.invariants import problems

    fig = CheckFigure()
    plays = kinds()
    for i in range(first, first + games):
        players, variant = kind = plays[i % len(plays)]
        rng = random.Random(f"check-{seed}-{i}")
        state = E.new_game(players, variant, f"check-{seed}-{i}", {"round_cap": round_cap})
        fig.games[kind] = fig.games.get(kind, 0) + 1
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
            else:
                state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            fig.steps[kind] = fig.steps.get(kind, 0) + 1
            found = problems(state)
            if found:
                fig.problems = [f"game {i} ({players} seats, {variant}): {p}" for p in found]
                return fig
        result = state.result or {}
        reason = str(result.get("reason"))
        fig.reasons[reason] = fig.reasons.get(reason, 0) + 1
        fig.rounds.append(state.round)
        stalled = reason == "faction_scoring" and not state.final_round
        fig.stalled[kind] = fig.stalled.get(kind, 0) + stalled
        if on_game is not None:
            on_game(fig)
    return fig


def replay_times(games: int, cap: int, seed: int, clock: Clock) -> list[tuple[int, float]]:
    """What an undo costs the server (15.5.2, P-80): the replay of a whole game's server
    log (``apply`` and ``advance``) from its seed, for random games of 2, 3 and 4 seats
    capped at ``cap`` rounds; (moves, seconds) per game."""
    out = []
    for i in range(games):
        players, name = 2 + i % 3, f"undo-{seed}-{i}"
        state = E.new_game(players, "standard", name, {"round_cap": cap})
        rng = random.Random(f"{seed}-{i}")
        log: list[tuple[int | None, JsonDict | None]] = []
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state, action = E.advance(state), None
            else:
                action = rng.choice(E.legal_actions(state, seat))
                state = E.apply(state, seat, action)
            log.append((seat, action))
        start = clock()
        again = E.new_game(players, "standard", name, {"round_cap": cap})
        for seat, action in log:
            again = E.advance(again) if seat is None else E.apply(again, seat, action or {})
        out.append((len(log), clock() - start))
        assert again == state
    return out


@dataclass
class PayViewFigure:
    """Per decision of the seat to act (15.5.1, P-87): its offered actions, the CPU of
    its whole view (payment help included), of the view as before P-87 (without it), of
    the payment help alone once the actions are listed (what it adds to the view), and of
    the way before it (``suggest_payment``, an ``apply`` per action, for every offered
    action)."""

    actions: list[int] = field(default_factory=list)
    view: list[float] = field(default_factory=list)
    help: list[float] = field(default_factory=list)
    suggest: list[float] = field(default_factory=list)


def pay_view_times(games: int, seed: int, clock: Clock) -> PayViewFigure:
    """Seeded random 2-seat games, round cap 30: at each decision, the seat's view, its
    ``payment_help`` and ``suggest_payment`` for each offered action, each on a copy of
    the state as ``apply`` returned it (the Action menu not listed yet, as the server's
    state read from its snapshot); ``payment_help`` again on the copy whose actions are
    listed, which is what it adds to a view."""
    from engine.pax.payhelp import payment_help
    from engine.pax.view import suggest_payment, view

    fig = PayViewFigure()
    for g in range(games):
        rng = random.Random(f"pay-{seed}-{g}")
        state = E.new_game(2, "standard", f"pay-{seed}-{g}", {"round_cap": 30})
        while not E.is_over(state):
            seat = E.to_act(state)
            if seat is None:
                state = E.advance(state)
                continue
            start = clock()
            v = view(replace(state), seat)
            fig.view.append(clock() - start)
            listed = replace(state)
            actions = E.legal_actions(listed, seat)
            start = clock()
            payment_help(listed, seat)
            fig.help.append(clock() - start)
            start = clock()
            for a in actions:
                suggest_payment(listed, seat, a)
            fig.suggest.append(clock() - start)
            fig.actions.append(len(v["legal_actions"]))
            state = E.apply(state, seat, rng.choice(actions))
    return fig
