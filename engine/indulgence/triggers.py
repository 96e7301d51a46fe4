"""When the hand can end early: the tricks after which ``hand_decided`` may turn True.

docs/engine.md "House rulings", Early end, and "The fast path". ``decision_triggers``
and ``decision_needs`` are folded into each hand's :class:`HandContext` by
``settlement.hand_context``; ``may_decide`` tests them after a trick (the fast path
inlines it). The per-edict checks they stand for are ``settlement``'s
``EDICT_DECIDED`` (no sinner) and ``sins``' ``SIN_STATUS`` (a sinner).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import FAMILY_MASKS, FULL_DECK
from engine.indulgence.edicts import Edict
from engine.indulgence.progress import HandContext
from engine.indulgence.sins import SIN_STATUS, take_every_card

_EVERY_TRICK = (1 << 12) - 1
_FROM_THIRD_TRICK = _EVERY_TRICK & ~0b11
_CARD_KINDS = frozenset({"any_family", "ranks", "even", "any_trump", "last_of_family"})


def decision_triggers(edict: Edict, mask: int, sinner: int | None) -> tuple[int, int]:
    """(cards, trick bits): what a trick must hold, or which trick it must be (bit ``i``
    for the trick of 0-based index ``i``), for this edict's decided check (no sinner) or
    Sin status (a sinner) to possibly change. Those checks (``settlement.EDICT_DECIDED``,
    ``sins.SIN_STATUS``) read only:

    - per-card and last-X edicts: the scoring cards (unplayed, taken, taker of the last);
    - pairs: the cards of the two families;
    - first-to-three: ``first_to_three``, set at the third trick at the earliest;
    - most-of-family: every family count (any card);
    - first-last (a sinner): the first trick's winner, then the end;
    - no-tricks (a sinner): every trick's winner;
    - first-last and no-tricks without a sinner: only the end (``never_early``).
    """
    kind = edict.kind
    if kind == "pairs":
        a, b = edict.family_idx
        return FAMILY_MASKS[a] | FAMILY_MASKS[b], 0
    if kind == "first_to_three":
        return 0, _FROM_THIRD_TRICK
    if kind == "most_of_family":
        return FULL_DECK, 0
    if kind == "first_last":
        return 0, 0 if sinner is None else 1
    if kind == "no_tricks":
        return 0, 0 if sinner is None else _EVERY_TRICK
    return mask, 0  # per-card kinds and last-X: the scoring cards


def decision_needs(
    edicts: Sequence[Edict], masks: Sequence[int], sinner: int | None
) -> tuple[int, bool, int]:
    """(need_gone, need_three, sin_cards): necessary conditions for :func:`hand_decided`
    to say True before the last trick. No sinner, every edict must be decided: a per-card
    or last-X edict only once all its scoring cards are played (``_decided_cards``),
    first-to-three only once someone has three tricks. A sinner on one edict: last-X is
    undecided until the family is all played (its last taker is unknown), first-to-three
    until someone has three tricks; a sin on taking every card of a set (per-card kinds,
    pairs: ``take_every_card``), undecided before the trick, fails only when another seat
    takes one of them and succeeds only once none is left unplayed, so after a trick the
    sinner won the hand goes on while one is unplayed. A papal-bull sinner: one failing
    side ends the hand, so nothing is needed.
    """
    need_gone = 0
    need_three = False
    sin_cards = 0
    if sinner is None:
        for edict, mask in zip(edicts, masks, strict=True):
            if edict.kind in _CARD_KINDS:
                need_gone |= mask
            elif edict.kind == "first_to_three":
                need_three = True
    elif len(edicts) == 1:
        kind = edicts[0].kind
        if kind == "last_of_family":
            need_gone = masks[0]
        elif kind == "first_to_three":
            need_three = True
        elif SIN_STATUS[kind] is take_every_card:
            sin_cards = masks[0]
    return need_gone, need_three, sin_cards


def may_decide(
    ctx: HandContext,
    trick_cards: int,
    trick_index: int,
    winner: int,
    remaining: int,
    first_to_three: int | None,
) -> bool:
    """False when :func:`hand_decided` is certainly still False after the trick of 0-based
    ``trick_index`` holding ``trick_cards``, won by ``winner`` (``remaining``,
    ``first_to_three``: after it), given that it was False after the previous trick.
    Always True after the last trick.

    The fast path inlines this test to skip most :func:`hand_decided` calls; the tests
    check it against :func:`hand_decided` at every trick of many random hands.
    """
    if trick_index == 36 // ctx.player_count - 1:
        return True
    if ctx.never_early:
        return False
    return bool(
        (trick_cards & ctx.check_cards or ctx.check_tricks >> trick_index & 1)
        and not remaining & ctx.need_gone
        and (first_to_three is not None or not ctx.need_three)
        and (winner != ctx.sinner or not remaining & ctx.sin_cards)
    )
