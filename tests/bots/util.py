"""Helpers for the bot tests: whole games driven through views, hand-built positions."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine import indulgence as game
from engine.cards import mask_from_ids
from engine.indulgence.edicts import EDICT_INDEX
from engine.indulgence.start import start_hand
from engine.indulgence.state import State

JsonDict = dict[str, Any]
Bot = Callable[[JsonDict, random.Random], JsonDict]


def positions(
    player_count: int, variant: str, seed: str, rng: random.Random, choose: Bot | None = None
) -> Iterator[tuple[State, int]]:
    """Every decision point (state, seat to act) of one game, moves picked by ``choose``
    (uniformly at random when None)."""
    state = game.new_game(player_count, variant, seed)
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        yield state, seat
        view = game.view(state, seat)
        action = choose(view, rng) if choose is not None else rng.choice(view["legal_actions"])
        state = game.apply(state, seat, action)


def hand_state(
    player_count: int,
    hands: list[list[str]],
    row: list[str],
    ruler: int = 0,
    variant: str = "basic",
) -> State:
    """A game whose current hand has the given deal, edict row and Ruler (edict choice
    pending). Cards not listed are dealt round the seats that still have room."""
    base = game.new_game(player_count, variant, "hand-built")
    masks = [mask_from_ids(h) for h in hands] + [0] * (player_count - len(hands))
    per_seat = 36 // player_count
    used = 0
    for m in masks:
        used |= m
    spare = [c for c in range(36) if not used >> c & 1]
    for seat in range(player_count):
        while masks[seat].bit_count() < per_seat:
            masks[seat] |= 1 << spare.pop(0)
    state = start_hand(base._replace(first_ruler=ruler), 1, tuple(masks))
    return state._replace(row=tuple(EDICT_INDEX[e] for e in row))


def act(state: State, *actions: JsonDict) -> State:
    """Apply actions in turn for whoever is to act."""
    for action in actions:
        seat = game.to_act(state)
        assert seat is not None
        state = game.apply(state, seat, action)
    return state


def play(card: str, ring: bool = False) -> JsonDict:
    return {"type": "play", "card": card, "indulgence": ring}
