"""Seat bots for Pax Illuminaten and a helper that plays whole games.

A bot is ``fn(view, rng) -> action`` and reads only its seat's view (architecture.md).
``random_bot`` picks uniformly among the view's ``legal_actions``. The automa of section
14 is not a seat bot: it plays as automatic steps (``engine.pax.automa``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import Bot, JsonDict
from engine.pax import engine as E
from engine.pax.loader import data as packaged_data
from engine.pax.state import State
from engine.pax.view import view


def random_bot(view_: JsonDict, rng: random.Random) -> JsonDict:
    """A uniformly random legal action, from the view alone."""
    actions = view_["legal_actions"]
    if not actions:
        raise ValueError("this view has no legal action: it is not this seat's decision")
    return dict(rng.choice(actions))


def autopilot_oust_card(view_: JsonDict) -> JsonDict:
    """15.2.4: the public, deterministic choice for an absent defender's Oust card: the
    Ace (Dagger) if underdog; else the Crown (Hammer) if favoured; else the highest number,
    lowest card id first; else any Ace or Crown (lowest id)."""
    seat = view_["seat"]
    options = view_["legal_actions"]
    cards = sorted(o["card"] for o in options if o.get("type") == "oust_card" and o["card"])
    if not cards:
        return dict(options[0])
    oust = view_["state"]["oust"]
    favoured = oust["favoured"] if oust else None
    underdog = favoured is not None and favoured != seat
    strength = {c: packaged_data().luminaries[c].strength for c in cards}

    def first(kind: str) -> str | None:
        return next((c for c in cards if strength[c] == kind), None)

    pick = (first("DAGGER") if underdog else None) or (
        first("HAMMER") if favoured == seat else None
    )
    if pick is None:
        numbers = [c for c in cards if isinstance(strength[c], int)]
        if numbers:
            best = max(int(strength[c]) for c in numbers)
            pick = next(c for c in numbers if strength[c] == best)
        else:
            pick = cards[0]
    return {"type": "oust_card", "card": pick}


BOTS: dict[str, Bot] = {"random": random_bot}


@dataclass(frozen=True)
class GameRun:
    """A finished (or capped) game: its last state and what it took."""

    state: State
    decisions: int
    steps: int


def play_game(
    players: int,
    seed: str,
    bots: dict[int, Bot] | None = None,
    *,
    round_cap: int | None = None,
    rng: random.Random | None = None,
    on_state: Callable[[State], None] | None = None,
) -> GameRun:
    """Play a whole game through the contract: every seat's bot sees only its view."""
    rng = rng or random.Random(seed)
    bots = bots or {}
    state = E.new_game(players, "standard", seed, {"round_cap": round_cap})
    decisions = steps = 0
    while not E.is_over(state):
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
            steps += 1
        else:
            bot = bots.get(seat, random_bot)
            state = E.apply(state, seat, bot(view(state, seat), rng))
            decisions += 1
        if on_state is not None:
            on_state(state)
    return GameRun(state, decisions, steps)
