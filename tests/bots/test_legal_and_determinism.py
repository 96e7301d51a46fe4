"""Bots only ever return legal actions, and they are deterministic given their seed."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import bots
from engine import indulgence as game
from engine.bots.ismcts import IsmctsBot
from tests.bots.util import Bot, JsonDict

TINY = 3  # ISMCTS iterations in these tests: enough to exercise the search, fast


def _bot(kind: str) -> Bot:
    if kind == "ismcts":
        return IsmctsBot(TINY)

    def registered(view: JsonDict, rng: random.Random) -> JsonDict:
        return bots.choose(kind, view, rng)

    return registered


def _play(
    player_count: int, variant: str, seed: str, lineup: list[str]
) -> list[tuple[int, JsonDict]]:
    """A whole game driven through views only; checks every action is legal."""
    state = game.new_game(player_count, variant, seed)
    players = [_bot(kind) for kind in lineup]
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(player_count)]
    moves = []
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        view = game.view(state, seat)
        action = players[seat](view, rngs[seat])
        assert action in view["legal_actions"], (lineup[seat], action, view["legal_actions"])
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    assert game.result(state) is not None
    return moves


def test_registry_keeps_random_and_adds_the_built_in_bots() -> None:
    assert {"random", "heuristic", "ismcts"} <= set(bots.available())
    for kind in ("random", "heuristic", "ismcts"):
        assert bots.version(kind)


def test_bots_only_return_legal_actions_over_200_games() -> None:
    kinds = ["random", "heuristic", "ismcts"]
    rng = random.Random(2026)
    for i in range(200):
        n = 3 + i % 2
        variant = ("basic", "expert")[(i // 2) % 2]
        lineup = [rng.choice(kinds) for _ in range(n)]
        if i % 8:  # ISMCTS in one game of eight keeps the test fast
            lineup = ["heuristic" if k == "ismcts" else k for k in lineup]
        _play(n, variant, f"legal-{i}", lineup)


@pytest.mark.parametrize("variant", ["basic", "expert"])
def test_games_are_deterministic_given_the_seeds(variant: str) -> None:
    lineup = ["ismcts", "heuristic", "random", "heuristic"]
    first = _play(4, variant, "det", lineup)
    second = _play(4, variant, "det", lineup)
    assert first == second


def test_ismcts_with_a_wall_time_cap_is_deterministic_under_an_injected_clock() -> None:
    state = game.new_game(3, "expert", "clock")
    seat = game.to_act(state)
    assert seat is not None
    view = game.view(state, seat)
    actions = []
    for _ in range(2):
        ticks = iter(range(10_000))

        def clock(ticks: Iterator[int] = ticks) -> float:
            return float(next(ticks))

        bot = IsmctsBot(10_000, max_seconds=30.0, min_iterations=5, clock=clock)
        actions.append(bot(view, random.Random(5)))
        # The clock is read at the start (0) and after each iteration from the 5th on
        # (1, 2, ...): it reaches the 30 s cap after iteration 34.
        assert bot.last_iterations == 34
    assert actions[0] == actions[1]
    assert actions[0] in view["legal_actions"]


def test_ismcts_runs_its_iteration_budget() -> None:
    state = game.new_game(4, "basic", "budget")
    seat = game.to_act(state)
    assert seat is not None
    bot = IsmctsBot(40)
    bot(game.view(state, seat), random.Random(1))
    assert bot.last_iterations == 40
    with pytest.raises(ValueError, match="iterations"):
        IsmctsBot(0)


def test_a_time_cap_needs_a_clock_from_the_caller() -> None:
    # The engine has no clock of its own: max_seconds without a clock is refused.
    with pytest.raises(ValueError, match="clock"):
        IsmctsBot(100, max_seconds=1.0)
    assert IsmctsBot(100).clock is None


def test_a_bot_refuses_to_move_without_legal_actions() -> None:
    state = game.new_game(3, "basic", "none")
    seat = game.to_act(state)
    assert seat is not None
    idle = game.view(state, (seat + 1) % 3)
    for kind in ("random", "heuristic", "ismcts"):
        with pytest.raises(ValueError, match="no legal action"):
            bots.choose(kind, idle, random.Random(0))
