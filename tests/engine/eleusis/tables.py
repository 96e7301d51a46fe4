"""Rigged tables for rule tests: a real game whose first round's stock starts with the
cards a test chooses (the hands in deal order, then the starter draws, then the cards
penalties and new hands will take), so the deal, the starters and every draw go through
the engine's own code. Such a round does not verify against its seed, by design."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import eleusis as game
from engine.core import JsonDict
from engine.eleusis.deck import card_id, parse_card
from engine.eleusis.state import State
from engine.eleusis.table import scientists

FAST = {"sanity_walks": 5}


def rigged(
    player_count: int,
    hands: dict[int, list[str]],
    starters: list[str],
    then: list[str] | tuple[str, ...] = (),
    *,
    rule: str = "accept card.red",
    dealer: int = 0,
    options: dict[str, Any] | None = None,
    variant: str = "standard",
    no_play_choice: str = "random",
    seed: str = "rigged",
) -> State:
    """A game in its first turn: ``dealer`` deals ``hands`` (seat -> ids, each of the
    table's hand size) and turns up ``starters`` (the cards turned up in order, put back
    or kept) under ``rule``; ``then`` are the next cards of the stock."""
    state = game.new_game(player_count, variant, seed, {**FAST, **(options or {})})
    state = replace(state, first_dealer=dealer, rounds=(replace(state.round, dealer=dealer),))
    order = scientists(player_count, dealer, 1)
    size = state.settings.hand_size
    assert sorted(hands) == sorted(order), "one hand per scientist"
    assert all(len(h) == size for h in hands.values()), f"hands of {size} cards"
    top = [hands[seat][i] for i in range(size) for seat in order] + list(starters) + list(then)
    cards = [parse_card(c) for c in top]
    assert len(set(cards)) == len(cards), "each card once"
    rest = [c for c in state.round.stock if c not in set(cards)]
    state = replace(state, rounds=(replace(state.round, stock=tuple(cards + rest)),))
    return game.apply(
        state,
        dealer,
        {
            "type": "set_rule",
            "source": rule,
            "no_play_choice": no_play_choice,
            "confirm_warnings": True,
        },
    )


def play(state: State, seat: int, *cards: str, prophet: str = "no") -> State:
    return game.apply(state, seat, {"type": "play", "cards": list(cards), "prophet": prophet})


def no_play(state: State, seat: int, prophet: str = "no") -> State:
    return game.apply(state, seat, {"type": "no_play", "prophet": prophet})


def call(state: State, verdict: str | None, card: str | None = None) -> State:
    seat = state.round.prophet
    assert seat is not None
    action: JsonDict = {"type": "call", "verdict": verdict}
    if card is not None:
        action["card"] = card
    return game.apply(state, seat, action)


def hand(state: State, seat: int) -> list[str]:
    return [card_id(c) for c in state.round.hands[seat]]


def main_line(state: State) -> list[str]:
    return [card_id(m.card) for m in state.round.main]


def events(state: State, index: int = -1) -> list[JsonDict]:
    """The events of a log entry of the current round (the last by default)."""
    return list(json.loads(state.round.log[index].events))


def event_types(state: State, index: int = -1) -> list[str]:
    return [e["type"] for e in events(state, index)]


def of_type(state: State, kind: str, index: int = -1) -> list[JsonDict]:
    return [e for e in events(state, index) if e["type"] == kind]


def stock_top(state: State, count: int) -> list[str]:
    return [card_id(c) for c in state.round.stock[:count]]


def with_pc(state: State, pc: int) -> State:
    """The same table with ``pc`` cards already played to the main line (for tests of
    thresholds; the played cards themselves do not matter to them)."""
    return replace(state, rounds=(replace(state.round, main_played=pc),))


def refused(state: State, seat: int, action: JsonDict) -> str:
    """The code of the refusal; the state is unchanged (it is immutable, and its JSON is
    the same before and after)."""
    before = json.dumps(game.state_to_json(state), sort_keys=True)
    try:
        game.apply(state, seat, action)
    except game.IllegalAction as exc:
        assert json.dumps(game.state_to_json(state), sort_keys=True) == before
        return exc.code
    raise AssertionError(f"{action} was accepted")


Move = tuple[int | None, JsonDict | None, str | None]
"""(seat, action, by) of one step; (None, None, None) is an automatic step (advance)."""


def play_out(
    state: State,
    kinds: list[str],
    rng: random.Random,
    on_step: Callable[[State], None] | None = None,
    max_steps: int = 20_000,
) -> tuple[State, list[Move]]:
    """Play to the end with the META bots of ``kinds`` (one per seat), each on its view."""
    moves: list[Move] = []
    for _ in range(max_steps):
        if game.is_over(state):
            return state, moves
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            moves.append((None, None, None))
        else:
            action = game.META.bots[kinds[seat]](game.view(state, seat), rng)
            state = game.apply(state, seat, action)
            moves.append((seat, action, None))
        if on_step is not None:
            on_step(state)
    raise AssertionError("the game did not end")


def replay(
    player_count: int, variant: str, seed: str, options: dict[str, Any], moves: list[Move]
) -> State:
    state = game.new_game(player_count, variant, seed, options)
    for seat, action, by in moves:
        if seat is None or action is None:
            state = game.advance(state)
        else:
            state = game.apply(state, seat, action, by=by)
    return state
