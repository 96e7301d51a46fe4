"""New Eleusis (shared/rules/new-eleusis.md) behind the common engine contract.

>>> from engine import eleusis as game
>>> state = game.new_game(5, "standard", "demo", {"sanity_walks": 20})
>>> dealer = game.to_act(state)
>>> state = game.apply(state, dealer, {"type": "library_rule", "id": "R09"})
>>> game.to_act(state) == state.round.first_player
True

The package: the rule language ERL (:mod:`engine.eleusis.erl`, NE-21), the sanity check,
commitment, hints and library (NE-22 to NE-25), and the game (NE-1 to NE-15, NE-26 to
NE-31): :mod:`~engine.eleusis.setup` (new game, rounds, the dealer's rule, deal and
starters), :mod:`~engine.eleusis.turns` (turns, calls, the judgement), :mod:`~engine.
eleusis.game` (to_act, legal_actions, apply, advance, timeout, result),
:mod:`~engine.eleusis.scoring`, :mod:`~engine.eleusis.view`, :mod:`~engine.eleusis.record`,
:mod:`~engine.eleusis.verify` and the bots (:mod:`~engine.eleusis.bots`,
:mod:`~engine.eleusis.novice`).
"""

from __future__ import annotations

from engine.core import GameMeta, IllegalAction
from engine.eleusis.bots import dealer_bot, random_bot
from engine.eleusis.deck import seed_commitment
from engine.eleusis.game import (
    advance,
    apply,
    is_over,
    legal_actions,
    result,
    timeout,
    timeout_action,
    to_act,
)
from engine.eleusis.novice import novice_bot
from engine.eleusis.record import full_record, state_from_json, state_to_json
from engine.eleusis.science.scientist import scientist_bot
from engine.eleusis.setup import (
    PLAYER_COUNTS,
    RATED_PLAYER_COUNTS,
    VARIANTS,
    new_game,
)
from engine.eleusis.state import State
from engine.eleusis.verify import Verification, verify
from engine.eleusis.view import view

META = GameMeta(
    key="eleusis",
    title="New Eleusis",
    player_counts=PLAYER_COUNTS,
    variants=VARIANTS,
    rated_player_counts=RATED_PLAYER_COUNTS,
    bots={
        "random": random_bot,
        "novice": novice_bot,
        "scientist": scientist_bot,
        "dealer": dealer_bot,
    },
)

__all__ = [
    "META",
    "IllegalAction",
    "State",
    "Verification",
    "advance",
    "apply",
    "full_record",
    "is_over",
    "legal_actions",
    "new_game",
    "result",
    "seed_commitment",
    "state_from_json",
    "state_to_json",
    "timeout",
    "timeout_action",
    "to_act",
    "verify",
    "view",
]
