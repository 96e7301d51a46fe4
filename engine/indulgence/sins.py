"""The Sin side: whether the sinner has met their sin, failed it, or not yet.

``sin_status`` answers between tricks, for the early end with a sinner (docs/engine.md
"House rulings", Early end: fail as soon as the sin can no longer be met, success once
it is met for good); ``sin_met`` answers at the end of the hand, with the sinner's tie
choices for "the most of a family" (Ties; Settlement). ``SIN_STATUS`` is the check of
each edict kind, read by :mod:`.settlement` (``hand_context``) and :mod:`.triggers`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import FAMILY_MASKS, FULL_DECK
from engine.indulgence.edicts import Edict
from engine.indulgence.progress import (
    FAIL,
    SUCCESS,
    UNDECIDED,
    Progress,
    SinStatusFn,
    family_counts,
)


def take_every_card(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    # Take every scoring card (per-card edicts; pairs: all 18 cards of both families).
    mine = p.taken[sinner]
    if mine & mask == mask:
        return SUCCESS
    if mask & ~(p.remaining | mine) & FULL_DECK:
        return FAIL  # another seat took one
    return UNDECIDED


def _sin_last(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    taker = p.last_takers[edict.family_idx[0]]
    if taker is None:
        return UNDECIDED
    return SUCCESS if taker == sinner else FAIL


def _sin_first_last(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    if p.first_winner is not None and p.first_winner != sinner:
        return FAIL
    if p.tricks_left == 0:
        return SUCCESS if p.last_winner == sinner else FAIL
    return UNDECIDED


def _sin_first_to_three(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    if p.first_to_three is None:
        return UNDECIDED
    return SUCCESS if p.first_to_three == sinner else FAIL


def _sin_no_tricks(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    if sum(p.trick_counts) != p.trick_counts[sinner]:
        return FAIL  # another seat took a trick
    return SUCCESS if p.tricks_left == 0 else UNDECIDED


def _sin_most(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    # SUCCESS here may still need the sinner's tie choices (see sin_met, pending_tie).
    status = SUCCESS
    mine_all = p.taken[sinner]
    others = [t for seat, t in enumerate(p.taken) if seat != sinner]
    for fm in FAMILY_MASKS:
        left = (p.remaining & fm).bit_count()
        mine = (mine_all & fm).bit_count()
        best_other = max([(t & fm).bit_count() for t in others])
        if best_other > mine + left:
            return FAIL
        if mine < best_other + left:
            status = UNDECIDED
    return status


SIN_STATUS: dict[str, SinStatusFn] = {
    "any_family": take_every_card,
    "ranks": take_every_card,
    "even": take_every_card,
    "any_trump": take_every_card,
    "pairs": take_every_card,
    "last_of_family": _sin_last,
    "first_last": _sin_first_last,
    "first_to_three": _sin_first_to_three,
    "no_tricks": _sin_no_tricks,
    "most_of_family": _sin_most,
}


def sin_status(edict: Edict, mask: int, sinner: int, p: Progress) -> int:
    """UNDECIDED, SUCCESS (for most-of-family: pending the sinner's tie choices) or FAIL."""
    return SIN_STATUS[edict.kind](edict, mask, sinner, p)


def sin_met(edict: Edict, mask: int, sinner: int, p: Progress, ties: Mapping[int, int]) -> bool:
    """Whether the sinner met a Sin side, at the end of the hand."""
    if edict.kind == "most_of_family":
        for family in range(4):
            counts = family_counts(p.taken, family)
            mine = counts[sinner]
            best_other = max(c for seat, c in enumerate(counts) if seat != sinner)
            if mine < best_other or (mine == best_other and ties.get(family) != sinner):
                return False
        return True
    return sin_status(edict, mask, sinner, p) == SUCCESS
