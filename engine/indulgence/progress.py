"""What the scoring code reads: a hand in progress and the fixed facts of a hand.

The definitions shared by :mod:`.settlement`, :mod:`.sins` and :mod:`.triggers`, which
import them from here (never from each other in a circle): the Sin statuses, the
:class:`Progress` of a hand between tricks, the signatures of the per-edict checks, the
:class:`HandContext` and ``family_counts`` (the counts "the most of a family" compares).
Rules: docs/engine.md "House rulings" (Early end, Ties, Settlement).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.cards import FAMILY_MASKS
from engine.indulgence.edicts import Edict

UNDECIDED = 0
SUCCESS = 1
FAIL = 2


class Progress(NamedTuple):
    """Where a hand stands between tricks (or at its end).

    Every card is either ``remaining`` (still in a hand) or in exactly one ``taken``
    set: progress is only looked at between tricks.
    """

    taken: Sequence[int]  # card set taken per seat
    remaining: int  # cards not yet played (still in hands)
    trick_counts: Sequence[int]
    tricks_left: int
    first_winner: int | None  # winner of the first trick
    last_winner: int | None  # winner of the final trick, once all tricks are played
    first_to_three: int | None  # the first seat to have taken three tricks
    last_takers: Sequence[int | None]  # per family: taker of the trick with its final card


DecidedFn = Callable[[Edict, int, int, Progress], bool]
"""(edict, scoring cards, ruler, progress) -> whether an Edict side's payments are final."""
SinStatusFn = Callable[[Edict, int, int, Progress], int]
"""(edict, scoring cards, sinner, progress) -> UNDECIDED, SUCCESS or FAIL."""


class HandContext(NamedTuple):
    """The fixed facts of a hand once play starts (built once per hand, cached)."""

    player_count: int
    ruler: int
    sinner: int | None
    edicts: tuple[Edict, ...]
    masks: tuple[int, ...]  # each edict's scoring card set (trump resolved)
    papal_bull: bool
    trump: int | None
    restricted_lead: int  # cards the first leader may not lead unless holding nothing else
    never_early: bool  # no sinner and an edict that is only decided by the last trick
    needs_last_takers: bool  # a "last of a family" edict is in force
    has_most: bool  # "the most of any family" is in force (ties may need choices)
    payer_order: tuple[int, ...]  # the seat left of the Ruler, ..., the Ruler
    decided_checks: tuple[tuple[DecidedFn, Edict, int], ...]  # no sinner: one per edict
    sin_checks: tuple[tuple[SinStatusFn, Edict, int], ...]  # a sinner: one per edict
    # When hand_decided can become True before the last trick (see may_decide): after a
    # trick holding one of ``check_cards`` or whose 0-based index has its bit in
    # ``check_tricks``, once none of ``need_gone`` is unplayed, (``need_three``) once
    # someone has taken three tricks, and (``sin_cards``) after a trick the sinner won
    # only once none of ``sin_cards`` is unplayed.
    check_cards: int
    check_tricks: int
    need_gone: int
    need_three: bool
    sin_cards: int


def family_counts(taken: Sequence[int], family: int) -> list[int]:
    """How many cards of a family each seat took."""
    fm = FAMILY_MASKS[family]
    return [(t & fm).bit_count() for t in taken]
