"""Pax Illuminaten behind the common contract (engine/core.py ``GameModule``, H.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import GameMeta, JsonDict
from engine.pax import engine as E
from engine.pax import record
from engine.pax.bots import BOTS
from engine.pax.rng import seed_commitment as _commitment
from engine.pax.state import State
from engine.pax.view import view as _view


class PaxGame:
    """``META`` and the contract's functions. ``META.variants`` is ``standard`` and the
    automa variants of H.2 (P-22): the automa (section 14) takes seat N-1 and is never
    to act; ``advance`` plays its turns."""

    META = GameMeta(
        key="pax",
        title="Pax Illuminaten",
        player_counts=(2, 3, 4),
        variants=E.VARIANTS,
        rated_player_counts=(2, 3, 4),
        bots=BOTS,
    )

    @staticmethod
    def new_game(
        player_count: int,
        variant: str = "standard",
        seed: str = "pax",
        options: Mapping[str, Any] | None = None,
    ) -> State:
        return E.new_game(player_count, variant, seed, options)

    to_act = staticmethod(E.to_act)
    legal_actions = staticmethod(E.legal_actions)
    advance = staticmethod(E.advance)
    is_over = staticmethod(E.is_over)
    result = staticmethod(E.result)
    full_record = staticmethod(record.full_record)
    state_to_json = staticmethod(record.state_to_json)
    state_from_json = staticmethod(record.state_from_json)

    @staticmethod
    def apply(state: State, seat: int, action: JsonDict, by: str | None = None) -> State:
        """The engine's ``apply``; who acted (``by``: the server's autopilot or a timeout)
        is in the server's move log, not in this record."""
        return E.apply(state, seat, action)

    @staticmethod
    def timeout_action(state: State) -> JsonDict | None:
        """No default of its own for a missed deadline: the seat's autopilot plays."""
        return None

    @staticmethod
    def view(state: State, seat: int | None) -> JsonDict:
        return _view(state, seat)

    @staticmethod
    def seed_commitment(seed: str) -> str:
        return _commitment(seed)
