"""Indulgence: the public contract of the rules engine (docs/engine.md).

>>> from engine import indulgence as game
>>> state = game.new_game(4, "basic", seed="demo")
>>> seat = game.to_act(state)
>>> state = game.apply(state, seat, game.legal_actions(state, seat)[0])
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.indulgence.record import (
    full_record,
    hand_records_json,
    play_snapshot,
    settled_count,
    settled_hand,
    snapshot_history_start,
    state_from_json,
    state_to_json,
)
from engine.indulgence.rules import (
    advance,
    apply,
    is_over,
    legal_actions,
    replay,
    result,
    to_act,
)
from engine.indulgence.shuffle import DEFAULT_SEED, seed_commitment
from engine.indulgence.start import new_game
from engine.indulgence.state import Phase, State
from engine.indulgence.view import hand_summaries, view

__all__ = [
    "DEFAULT_SEED",
    "IllegalAction",
    "Phase",
    "State",
    "advance",
    "apply",
    "full_record",
    "hand_records_json",
    "hand_summaries",
    "is_over",
    "legal_actions",
    "new_game",
    "play_snapshot",
    "replay",
    "result",
    "seed_commitment",
    "settled_count",
    "settled_hand",
    "snapshot_history_start",
    "state_from_json",
    "state_to_json",
    "to_act",
    "view",
]
