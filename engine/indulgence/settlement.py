"""Scoring, shared by the validated rules and the fast path.

Both paths describe a hand in progress as a :class:`Progress` (bit sets of what each
seat took, what is still unplayed, trick counts...) and ask this module whether the hand
is decided (early end), which tie must be resolved next, and what the settlement is.

Early end (house, docs/engine.md): after each completed trick the hand ends when its
settlement is already determined whatever happens to the remaining cards, where
"whatever happens" = any assignment of every unplayed card and remaining trick to any
seat, ignoring what play could actually achieve.

Parts live beside it and are re-exported here: :class:`Progress`, :class:`HandContext`
and the Sin statuses in :mod:`.progress`, the Sin side's checks in :mod:`.sins`, when
:func:`hand_decided` is worth asking in :mod:`.triggers`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache

from engine.cards import FAMILY_MASKS, FAMILY_PLURALS
from engine.indulgence.edicts import (
    CATALOG,
    PAPAL_BULL_FAILURE,
    Edict,
    named_families_mask,
    scoring_cards,
)
from engine.indulgence.progress import (
    FAIL,
    SUCCESS,
    UNDECIDED,
    DecidedFn,
    HandContext,
    Progress,
    SinStatusFn,
    family_counts,
)
from engine.indulgence.sins import SIN_STATUS, sin_met, sin_status
from engine.indulgence.state import Payment, Play, Settlement
from engine.indulgence.triggers import decision_needs, decision_triggers, may_decide

__all__ = [
    "EDICT_DECIDED",
    "EDICT_PAYMENTS",
    "FAIL",
    "SIN_STATUS",
    "SUCCESS",
    "UNDECIDED",
    "DecidedFn",
    "HandContext",
    "Owed",
    "Progress",
    "SinStatusFn",
    "combined_sin_status",
    "decision_needs",
    "decision_triggers",
    "edict_decided",
    "edict_payments",
    "family_counts",
    "hand_context",
    "hand_decided",
    "may_decide",
    "most_of",
    "pending_tie",
    "settle",
    "sin_met",
    "sin_status",
    "trick_winner",
    "winner_by_florins",
]


def trick_winner(plays: Sequence[Play], trump: int | None) -> int:
    """The winning seat: highest trump if any was played, else highest of the led family.

    A card played with the Indulgence ring counts as a 10 of its own family.
    """
    led = plays[0][1] // 9
    best_seat = plays[0][0]
    best_key = -1
    for seat, card, ring in plays:
        family = card // 9
        if family == trump:
            key = 20 + (9 if ring else card % 9)
        elif family == led:
            key = 10 + (9 if ring else card % 9)
        else:
            continue
        if key > best_key:
            best_key = key
            best_seat = seat
    return best_seat


# --- Edict side (no sinner): is it decided? ---------------------------------------------


def _decided_cards(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    # Per-card edicts and "the last X": final once no scoring card is left unplayed.
    return not p.remaining & mask


def _decided_pairs(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    # A rank is open while both its cards could still end with one non-Ruler seat.
    a, b = edict.family_idx
    rem_a = (p.remaining >> (9 * a)) & 511
    rem_b = (p.remaining >> (9 * b)) & 511
    others = 0
    for seat, t in enumerate(p.taken):
        if seat != ruler:
            others |= t
    oth_a = (others >> (9 * a)) & 511
    oth_b = (others >> (9 * b)) & 511
    return not ((rem_a & rem_b) | (rem_a & oth_b) | (rem_b & oth_a))


def _decided_first_to_three(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    return p.first_to_three is not None


def _decided_most(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    # A family is final when none is left, or a unique leader is out of reach.
    for fm in FAMILY_MASKS:
        left = (p.remaining & fm).bit_count()
        if left:
            counts = sorted([(t & fm).bit_count() for t in p.taken], reverse=True)
            if counts[0] <= counts[1] + left:
                return False
    return True


def _decided_at_end(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    # "First or last trick", "no tricks": only the last trick decides.
    return p.tricks_left == 0


EDICT_DECIDED: dict[str, DecidedFn] = {
    "any_family": _decided_cards,
    "ranks": _decided_cards,
    "even": _decided_cards,
    "any_trump": _decided_cards,
    "last_of_family": _decided_cards,
    "pairs": _decided_pairs,
    "first_to_three": _decided_first_to_three,
    "most_of_family": _decided_most,
    "first_last": _decided_at_end,
    "no_tricks": _decided_at_end,
}


def edict_decided(edict: Edict, mask: int, ruler: int, p: Progress) -> bool:
    """Whether an Edict side's payments can no longer change (no sinner)."""
    return p.tricks_left == 0 or EDICT_DECIDED[edict.kind](edict, mask, ruler, p)


# --- Edict side: payments ---------------------------------------------------------------

Owed = list[tuple[int, int, str]]
"""[(payer, amount, reason)] for one edict, zero amounts left out."""


def _pay_cards(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    owed = []
    for payer in payers:
        units = (p.taken[payer] & mask).bit_count()
        if units:
            owed.append(
                (payer, edict.edict_amount * units, f"{edict.id}: {units} {edict.unit[units > 1]}")
            )
    return owed


def _pay_pairs(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    a, b = edict.family_idx
    owed = []
    for payer in payers:
        t = p.taken[payer]
        units = ((t >> (9 * a)) & (t >> (9 * b)) & 511).bit_count()
        if units:
            owed.append(
                (payer, edict.edict_amount * units, f"{edict.id}: {units} {edict.unit[units > 1]}")
            )
    return owed


def _pay_last(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    # Nobody took "the last X" when the hand ended with some still in hand: nobody pays.
    taker = p.last_takers[edict.family_idx[0]]
    if taker is None or taker not in payers:
        return []
    return [(taker, edict.edict_amount, f"{edict.id}: took the {edict.unit[0]}")]


def _pay_first_last(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    owed = []
    for payer in payers:
        which = [
            name for name, w in (("first", p.first_winner), ("last", p.last_winner)) if w == payer
        ]
        if which:
            owed.append(
                (
                    payer,
                    edict.edict_amount * len(which),
                    f"{edict.id}: took the {' and '.join(which)} trick",
                )
            )
    return owed


def _pay_first_to_three(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    first = p.first_to_three
    if first is None or first not in payers:
        return []
    return [(first, edict.edict_amount, f"{edict.id}: first to take three tricks")]


def _pay_tricks(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    owed = []
    for payer in payers:
        units = p.trick_counts[payer]
        if units:
            owed.append(
                (payer, edict.edict_amount * units, f"{edict.id}: {units} {edict.unit[units > 1]}")
            )
    return owed


def _pay_most(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    most = [most_of(family_counts(p.taken, f), f, ties) for f in range(4)]
    owed = []
    for payer in payers:
        families = [f for f in range(4) if most[f] == payer]
        if families:
            names = _and_list([FAMILY_PLURALS[f] for f in families])
            owed.append((payer, edict.edict_amount * len(families), f"{edict.id}: most {names}"))
    return owed


EDICT_PAYMENTS: dict[
    str, Callable[[Edict, int, Progress, Mapping[int, int], Sequence[int]], Owed]
] = {
    "any_family": _pay_cards,
    "ranks": _pay_cards,
    "even": _pay_cards,
    "any_trump": _pay_cards,
    "pairs": _pay_pairs,
    "last_of_family": _pay_last,
    "first_last": _pay_first_last,
    "first_to_three": _pay_first_to_three,
    "no_tricks": _pay_tricks,
    "most_of_family": _pay_most,
}


def edict_payments(
    edict: Edict, mask: int, p: Progress, ties: Mapping[int, int], payers: Sequence[int]
) -> Owed:
    """What each payer owes the Ruler for an Edict side, at the end of the hand."""
    return EDICT_PAYMENTS[edict.kind](edict, mask, p, ties, payers)


def _and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def most_of(counts: Sequence[int], family: int, ties: Mapping[int, int]) -> int | None:
    """The seat counting as having the most of a family (a tie: the recorded choice)."""
    top = max(counts)
    if top == 0:
        return None
    leaders = [seat for seat, c in enumerate(counts) if c == top]
    if len(leaders) == 1:
        return leaders[0]
    return ties.get(family)


# --- The hand as a whole ----------------------------------------------------------------


@cache
def _edict_parts(
    index: int, trump: int | None, has_sinner: bool
) -> tuple[Edict, int, tuple[DecidedFn, Edict, int], tuple[SinStatusFn, Edict, int], int, int]:
    """(edict, scoring cards, decided check, Sin status check, trigger cards, trigger
    tricks) of one edict in force (at most 20 x 5 x 2 entries)."""
    edict = CATALOG[index]
    mask = scoring_cards(edict, trump)
    trigger_cards, trigger_tricks = decision_triggers(edict, mask, 0 if has_sinner else None)
    return (
        edict,
        mask,
        (EDICT_DECIDED[edict.kind], edict, mask),
        (SIN_STATUS[edict.kind], edict, mask),
        trigger_cards,
        trigger_tricks,
    )


_PAYER_ORDERS = {
    (n, ruler): tuple((ruler + k) % n for k in range(1, n + 1))
    for n in (3, 4)
    for ruler in range(n)
}


@lru_cache(maxsize=8192)
def hand_context(
    player_count: int,
    ruler: int,
    sinner: int | None,
    in_force: tuple[int, ...],
    papal_bull: bool,
    trump: int | None,
) -> HandContext:
    """The context of a hand (cached: contexts are immutable)."""
    has_sinner = sinner is not None
    parts = [_edict_parts(i, trump, has_sinner) for i in in_force]
    edicts = tuple([part[0] for part in parts])
    masks = tuple([part[1] for part in parts])
    kinds = {edict.kind for edict in edicts}
    check_cards = 0
    check_tricks = 1  # always after the first trick
    for part in parts:
        check_cards |= part[4]
        check_tricks |= part[5]
    need_gone, need_three, sin_cards = decision_needs(edicts, masks, sinner)
    return HandContext(
        player_count,
        ruler,
        sinner,
        edicts,
        masks,
        papal_bull,
        trump,
        named_families_mask(edicts, trump),
        not has_sinner and not kinds.isdisjoint(("first_last", "no_tricks")),
        "last_of_family" in kinds,
        "most_of_family" in kinds,
        _PAYER_ORDERS[player_count, ruler],
        () if has_sinner else tuple([part[2] for part in parts]),
        tuple([part[3] for part in parts]) if has_sinner else (),
        check_cards,
        check_tricks,
        need_gone,
        need_three,
        sin_cards,
    )


def combined_sin_status(ctx: HandContext, p: Progress) -> int:
    """A (papal-bull) sinner must meet every Sin side in force: FAIL as soon as one
    fails, SUCCESS once all succeeded."""
    assert ctx.sinner is not None
    sinner = ctx.sinner
    status = SUCCESS
    for fn, edict, mask in ctx.sin_checks:
        s = fn(edict, mask, sinner, p)
        if s == FAIL:
            return FAIL
        if s == UNDECIDED:
            status = UNDECIDED
    return status


def hand_decided(ctx: HandContext, p: Progress) -> bool:
    """Whether the hand is over: all tricks played, or no payment can change any more."""
    if p.tricks_left == 0:
        return True
    if ctx.sinner is not None:
        return combined_sin_status(ctx, p) != UNDECIDED
    if ctx.never_early:
        return False
    ruler = ctx.ruler
    for fn, edict, mask in ctx.decided_checks:  # noqa: SIM110 (a plain loop: hot path)
        if not fn(edict, mask, ruler, p):
            return False
    return True


def pending_tie(
    ctx: HandContext, p: Progress, choices: Sequence[tuple[int, int, int]]
) -> tuple[int, int, tuple[int, ...]] | None:
    """The next "most of a family" tie someone must resolve: (family, chooser, tied seats).

    Ties are asked in family order, one per family, only while they matter: with no
    sinner every tie for the most (count > 0) is asked to the Ruler; with a sinner, the
    sinner is asked about families where they are tied for the most, as long as the sin
    has not failed otherwise (another Sin side, a family where the sinner is behind, or
    an earlier choice conceding a family).
    """
    if not ctx.has_most:
        return None
    chosen = {family: seat for family, _chooser, seat in choices}
    sinner = ctx.sinner
    if sinner is not None:
        if any(seat != sinner for seat in chosen.values()):
            return None
        for edict, mask in zip(ctx.edicts, ctx.masks, strict=True):
            if edict.kind != "most_of_family" and sin_status(edict, mask, sinner, p) != SUCCESS:
                return None
    all_counts = [family_counts(p.taken, family) for family in range(4)]
    if sinner is not None and any(counts[sinner] < max(counts) for counts in all_counts):
        return None
    for family, counts in enumerate(all_counts):
        if family in chosen:
            continue
        top = max(counts)
        tied = tuple(seat for seat, c in enumerate(counts) if c == top)
        if top > 0 and len(tied) > 1:
            return family, ctx.ruler if sinner is None else sinner, tied
    return None


def settle(
    ctx: HandContext, p: Progress, choices: Sequence[tuple[int, int, int]], florins: Sequence[int]
) -> Settlement:
    """Pay what the hand says, in order (docs/engine.md "Settlement").

    No sinner: for each edict in force (in order), each non-Ruler seat clockwise from the
    Ruler's left pays the Ruler. Sin success: each other seat clockwise from the Ruler's
    left (the Ruler last) pays the sinner the reward; a papal-bull sin success pays
    nothing and wins the game. Sin failure: the sinner pays the Ruler. A debtor pays what
    they have; the creditor is credited the full amount owed.
    """
    ruler = ctx.ruler
    sinner = ctx.sinner
    ties = {family: seat for family, _chooser, seat in choices}
    order = ctx.payer_order
    owed: list[tuple[int, int, int, str]] = []
    sin_succeeded: bool | None = None
    papal_win = False
    if sinner is None:
        non_rulers = order[:-1]
        for edict, mask in zip(ctx.edicts, ctx.masks, strict=True):
            for payer, amount, reason in EDICT_PAYMENTS[edict.kind](
                edict, mask, p, ties, non_rulers
            ):
                owed.append((payer, ruler, amount, reason))
    else:
        sin_succeeded = True
        for fn, edict, mask in ctx.sin_checks:
            met = (
                sin_met(edict, mask, sinner, p, ties)
                if edict.kind == "most_of_family"
                else fn(edict, mask, sinner, p) == SUCCESS
            )
            if not met:
                sin_succeeded = False
                break
        name = "papal bull" if ctx.papal_bull else ctx.edicts[0].id
        if sin_succeeded:
            if ctx.papal_bull:
                papal_win = True
            else:
                reward = ctx.edicts[0].sin_reward
                reason = f"{name}: sin succeeded"
                for payer in order:
                    if payer != sinner:
                        owed.append((payer, sinner, reward, reason))
        else:
            penalty = PAPAL_BULL_FAILURE if ctx.papal_bull else ctx.edicts[0].fail_penalty
            owed.append((sinner, ruler, penalty, f"{name}: sin failed"))
    purse = list(florins)
    payments = []
    bankruptcy = False
    for payer, payee, amount, reason in owed:
        paid = amount if amount <= purse[payer] else purse[payer]
        purse[payer] -= paid
        purse[payee] += amount
        if paid < amount:
            bankruptcy = True
        payments.append(Payment(payer, payee, amount, paid, reason))
    return Settlement(tuple(payments), tuple(purse), sin_succeeded, papal_win, bankruptcy)


def winner_by_florins(florins: Sequence[int], last_ruler: int) -> int:
    """Most florins; on a tie, the tied seat that was Ruler most recently.

    Seats are tried counter-clockwise from the last Ruler (the last Ruler, the seat to
    its right, ...): with Rulers moving left every hand this is most-recent-Ruler first.
    Seats that never ruled (a game that ended in round 1) thereby come after all who did.
    """
    n = len(florins)
    top = max(florins)
    for k in range(n):
        seat = (last_ruler - k) % n
        if florins[seat] == top:
            return seat
    raise AssertionError("unreachable")
