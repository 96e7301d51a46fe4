"""Cards, families and 36-bit card sets.

Card ``c`` (0..35) is family ``c // 9`` and rank ``c % 9 + 1``. Families are, in
order, borgia, medici, orsini, sforza; a card's public id is the family initial and the
rank ("B1".."B9", "M1".., "O1".., "S1".."S9"). A set of cards is an ``int`` whose bit
``c`` is set when card ``c`` is in the set.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

FAMILIES: tuple[str, ...] = ("borgia", "medici", "orsini", "sforza")
FAMILY_INDEX: dict[str, int] = {name: i for i, name in enumerate(FAMILIES)}
FAMILY_TITLES: tuple[str, ...] = ("Borgia", "Medici", "Orsini", "Sforza")
FAMILY_PLURALS: tuple[str, ...] = ("Borgias", "Medicis", "Orsinis", "Sforzas")
RANKS_PER_FAMILY = 9
DECK_SIZE = 36

CARD_IDS: tuple[str, ...] = tuple(
    f"{name[0].upper()}{rank}" for name in FAMILIES for rank in range(1, 10)
)
CARD_INDEX: dict[str, int] = {card_id: c for c, card_id in enumerate(CARD_IDS)}

FULL_DECK = (1 << DECK_SIZE) - 1
FAMILY_MASKS: tuple[int, ...] = tuple(
    ((1 << RANKS_PER_FAMILY) - 1) << (RANKS_PER_FAMILY * f) for f in range(4)
)
# RANK_MASKS[r] for r in 1..9 (index 0 is the empty set, so ranks index naturally).
RANK_MASKS: tuple[int, ...] = (
    0,
    *tuple(sum(1 << f * RANKS_PER_FAMILY + rank - 1 for f in range(4)) for rank in range(1, 10)),
)
CARD_FAMILY: tuple[int, ...] = tuple(c // RANKS_PER_FAMILY for c in range(DECK_SIZE))
CARD_RANK: tuple[int, ...] = tuple(c % RANKS_PER_FAMILY + 1 for c in range(DECK_SIZE))


def family_of(card: int) -> int:
    """The family index (0..3) of a card."""
    return card // RANKS_PER_FAMILY


def rank_of(card: int) -> int:
    """The printed rank (1..9) of a card."""
    return card % RANKS_PER_FAMILY + 1


def card_of(family: int, rank: int) -> int:
    """The card of a family index and a printed rank."""
    return family * RANKS_PER_FAMILY + rank - 1


def popcount(mask: int) -> int:
    """Number of cards in a card set."""
    return mask.bit_count()


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a set, in increasing id order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The set holding the given cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_from_ids(card_ids: Iterable[str]) -> int:
    """The set of the given public card ids ("M7", ...). Raises KeyError on a bad id."""
    mask = 0
    for card_id in card_ids:
        mask |= 1 << CARD_INDEX[card_id]
    return mask


def ids_of(mask: int) -> list[str]:
    """The public ids of a set's cards, sorted by family then rank."""
    return [CARD_IDS[c] for c in cards_in(mask)]


def family_count(mask: int, family: int) -> int:
    """How many cards of a family a set holds."""
    return (mask & FAMILY_MASKS[family]).bit_count()
