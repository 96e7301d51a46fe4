"""Hand evaluation shared by the heuristic bot and the ISMCTS playout policy.

Everything here works on one seat's own cards (36-bit masks, see :mod:`engine.cards`)
and public facts (the edicts, the trump, the player count): nothing reads another
seat's hand.
"""

from __future__ import annotations

from engine.cards import FAMILY_MASKS
from engine.indulgence.edicts import CATALOG, Edict, scoring_cards

# Rough chance that a card of each rank (index 1..9) wins the trick it is played to.
WIN_WEIGHT: tuple[float, ...] = (0.0, 0.01, 0.02, 0.04, 0.08, 0.15, 0.25, 0.4, 0.6, 0.9)
_MEAN_WEIGHT = sum(WIN_WEIGHT[1:]) / 9


def top_sequence(hand: int, family: int) -> int:
    """How many of the family's top cards (9, 8, ...) the hand holds in an unbroken run."""
    chunk = (hand >> (9 * family)) & 511
    run = 0
    bit = 1 << 8
    while bit and chunk & bit:
        run += 1
        bit >>= 1
    return run


def sure_winners(hand: int) -> int:
    """Tricks the hand can take by leading from the top of each family (no trump)."""
    return sum(top_sequence(hand, f) for f in range(4))


def trick_share(hand: int, player_count: int) -> float:
    """The share of the hand's tricks this hand is expected to take (about 1/n on average)."""
    size = hand.bit_count()
    if size == 0:
        return 0.0
    strength = 0.0
    mask = hand
    while mask:
        low = mask & -mask
        strength += WIN_WEIGHT[(low.bit_length() - 1) % 9 + 1]
        mask ^= low
    share = strength / (_MEAN_WEIGHT * size) / player_count
    return min(0.9, max(0.03, share))


def family_take(hand: int, family: int, player_count: int, trump: bool = False) -> float:
    """Expected number of a family's cards this hand ends up taking.

    Tricks won with the family's own high cards each carry about one card of the family
    per player; a void hand still takes a couple of dumped cards in tricks it wins.
    """
    chunk = (hand >> (9 * family)) & 511
    take = 0.0
    rank = 1
    while chunk:
        if chunk & 1:
            weight = 0.45 + 0.05 * rank if trump else WIN_WEIGHT[rank]
            take += weight * player_count
        chunk >>= 1
        rank += 1
    return take + 2.0 * trick_share(hand, player_count)


def edict_income(edict: Edict, hand: int, player_count: int, trump: int | None = None) -> float:
    """What the Ruler holding ``hand`` may expect to collect from ``edict`` (no sinner)."""
    n = player_count
    share = trick_share(hand, n)
    kind = edict.kind
    if kind == "any_family":
        return 9.0 - min(9.0, family_take(hand, edict.family_idx[0], n))
    if kind == "any_trump":
        family = trump if trump is not None else best_trump(hand, n)
        return 9.0 - min(9.0, family_take(hand, family, n, trump=True))
    if kind == "last_of_family":
        p = min(0.9, max(0.05, family_take(hand, edict.family_idx[0], n) / 9.0 * 1.3))
        return 8.0 * (1.0 - p)
    if kind in ("ranks", "even"):
        units = scoring_cards(edict, trump).bit_count()
        return units * edict.edict_amount * (1.0 - share)
    if kind == "first_last":
        return 8.0 * (1.0 - share)
    if kind == "first_to_three":
        return 6.0 * (1.0 - min(0.95, share * 1.2))
    if kind == "most_of_family":
        return 6.5 * (1.0 - share)
    if kind == "no_tricks":
        return (36 // n) * (1.0 - share)
    if kind == "pairs":
        return 18.0 * (n - 1) / (n * n) * (1.0 - share)
    return 0.0


def best_trump(hand: int, player_count: int) -> int:
    """The trump a Ruler should name: the family it would take fewest of (void first)."""
    best = 0
    best_take = 99.0
    for family in range(4):
        take = family_take(hand, family, player_count, trump=True)
        if take < best_take - 1e-9:
            best, best_take = family, take
    return best


def sin_likely(
    hand: int, in_force: tuple[int, ...], trump: int | None, player_count: int, papal_bull: bool
) -> bool:
    """Whether a player holding ``hand`` should sin against the edict(s) in force.

    Only hands that are likely to meet the Sin side say yes (thresholds calibrated with
    ``python -m engine.arena``; docs/bot-strength.md reports the success rates).
    """
    if papal_bull or len(in_force) != 1:
        return False
    edict = CATALOG[in_force[0]]
    n = player_count
    kind = edict.kind
    sure = sure_winners(hand)
    if kind in ("any_family", "any_trump"):
        family = edict.family_idx[0] if kind == "any_family" else trump
        if family is None:
            return False
        k = (hand & FAMILY_MASKS[family]).bit_count()
        top = top_sequence(hand, family)
        missing = 9 - k
        if missing == 0:
            return True
        longest_other = min(missing, -(-missing // (n - 1)) + 1)
        lead_ok = kind == "any_trump" or sure - top >= 1 or k == hand.bit_count()
        return k >= 5 and top >= 2 and top + 1 >= longest_other and lead_ok
    if kind == "last_of_family":
        family = edict.family_idx[0]
        k = (hand & FAMILY_MASKS[family]).bit_count()
        top = top_sequence(hand, family)
        return (k >= 5 and top >= 1) or (k >= 4 and top >= 2)
    if kind == "first_to_three":
        return sure >= 2
    if kind == "first_last":
        return sure >= 3
    if kind in ("ranks", "even"):
        # Holding the scoring cards is not taking them: low cards rarely win their trick.
        mask = edict.cards
        return hand & mask == mask and sure >= (36 // n) - 2
    if kind == "most_of_family":
        return sure >= (36 // n) - 2
    if kind == "no_tricks":
        return sure >= 36 // n
    return False
