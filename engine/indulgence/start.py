"""Building states: a new game and the start of each of its hands.

``new_game`` checks the table (3 or 4 players, basic or expert, a string seed) and opens
hand 1; ``start_hand`` refills the edict row, deals from the seed (docs/engine.md
"Seeds"), makes the next seat Ruler and opens the hand with the Ruler to choose an edict;
``refill_row`` is the row between hands (docs/engine.md "The edict row"). The validated
rules (:mod:`.rules`) start hands here; the fast path (:mod:`.fast`) reuses the starting
florins and ``refill_row``.
"""

from __future__ import annotations

from typing import Any

from engine.indulgence import shuffle
from engine.indulgence.state import Phase, State

STARTING_FLORINS = 30
ROW_SIZE = 3
VARIANTS = ("basic", "expert")
PLAYER_COUNTS = (3, 4)
_EMPTY_LAST_TAKERS: tuple[int | None, ...] = (None, None, None, None)


def _open_hand(n: int, leader: int) -> dict[str, Any]:
    """The fields every hand starts with: nothing in force, played or taken yet."""
    return {
        "in_force": (),
        "papal_bull": False,
        "trump": None,
        "sin_decisions": (),
        "sinner": None,
        "ring_used": False,
        "leader": leader,
        "plays": (),
        "tricks": (),
        "taken": (0,) * n,
        "trick_counts": (0,) * n,
        "first_to_three": None,
        "last_takers": _EMPTY_LAST_TAKERS,
        "ended_early": False,
        "tie_choices": (),
        "pending_tie": None,
        "hand_moves": (),
    }


def new_game(player_count: int, variant: str = "basic", seed: str = shuffle.DEFAULT_SEED) -> State:
    """A new game, hand 1 dealt and the first Ruler to choose an edict."""
    if player_count not in PLAYER_COUNTS or isinstance(player_count, bool):
        raise ValueError(f"player_count must be 3 or 4, not {player_count!r}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be 'basic' or 'expert', not {variant!r}")
    if not isinstance(seed, str):
        raise ValueError("seed must be a string")
    n = player_count
    blank = State(
        player_count=n,
        variant=variant,
        seed=seed,
        edict_deck=shuffle.edict_deck(seed, variant),
        deck_drawn=0,
        first_ruler=shuffle.first_ruler(seed, n),
        florins=(STARTING_FLORINS,) * n,
        papal_bulls=(variant == "expert",) * n,
        history=(),
        result=None,
        hand_number=0,
        ruler=0,
        row=(),
        deal=(0,) * n,
        hands=(0,) * n,
        phase=Phase.SETTLING,
        to_act=None,
        **_open_hand(n, 0),
    )
    return start_hand(blank, 1)


def start_hand(state: State, hand_number: int, hands: tuple[int, ...] | None = None) -> State:
    """Refill the row, deal (from the seed unless ``hands`` is given) and open the hand."""
    n = state.player_count
    row, drawn = refill_row(state.row, state.in_force, state.edict_deck, state.deck_drawn)
    ruler = (state.first_ruler + hand_number - 1) % n
    if hands is None:
        hands = shuffle.deal(state.seed, hand_number, n)
    return state._replace(
        deck_drawn=drawn,
        hand_number=hand_number,
        ruler=ruler,
        row=row,
        deal=hands,
        hands=hands,
        phase=Phase.CHOOSING_EDICT,
        to_act=ruler,
        **_open_hand(n, ruler),
    )


def refill_row(
    row: tuple[int, ...], in_force: tuple[int, ...], deck: tuple[int, ...], drawn: int
) -> tuple[tuple[int, ...], int]:
    """The next hand's row: the edicts in force leave, then refill to three from the
    front of the undrawn deck (fewer when it runs out). Returns (row, edicts drawn)."""
    row = tuple(e for e in row if e not in in_force)
    take = min(ROW_SIZE - len(row), len(deck) - drawn)
    if take > 0:
        row += deck[drawn : drawn + take]
        drawn += take
    return row, drawn
