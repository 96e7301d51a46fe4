"""The building blocks of the scientist bot's hypotheses (NE-30.2): predicates on one card
and relations between the candidate and the previous card, each with its ERL text and its
truth table.

A *unary* predicate is a 52-bit mask over faces (bit ``f`` set when face ``f`` satisfies
it) with an ERL expression written over a placeholder card ``@`` (``"@.suit == hearts"``),
so the same predicate reads the candidate (``card``) or the previous card (``prev``).

A *relation* is a table of 52 masks, one per previous face: bit ``c`` of ``table[p]`` is
set when the candidate ``c`` stands in the relation to ``p``; its ERL text uses ``card``
and ``prev``.

Sizes follow NE-30.2's prior (an atom 1, a relation 1.5), counted in half units so that
every size is an integer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from engine.eleusis.faces import (
    COLOR,
    FACES,
    IS_EVEN,
    IS_FACE,
    IS_PRIME,
    RANK,
    SUIT,
    SUITS,
)

FULL = (1 << 52) - 1
CLOSED_LOOPS = (1, 4, 6, 8, 9, 10, 12)
"""Ranks whose printed figure has a closed loop (A 4 6 8 9 10 Q), as library rule R26."""
_CLOSED = "{1, 4, 6, 8, 9, 10, 12}"


@dataclass(frozen=True)
class Unary:
    """A predicate on one card: ``text`` is ERL over the placeholder ``@``."""

    text: str
    mask: int
    half_size: int = 2

    def on(self, card: str) -> str:
        """The ERL expression for this predicate on ``card`` (``"card"``, ``"prev"``)."""
        return self.text.replace("@", card)


@dataclass(frozen=True)
class Relation:
    """The candidate against the previous card: ``table[prev]`` is the mask of candidates."""

    text: str
    table: tuple[int, ...]
    half_size: int = 3


def _mask(test: Callable[[int], bool]) -> int:
    return sum(1 << f for f in FACES if test(f))


def _relation_mask(test: Callable[[int, int], bool], p: int) -> int:
    return sum(1 << c for c in FACES if test(p, c))


def _unary(text: str, test: Callable[[int], bool], half_size: int = 2) -> Unary:
    return Unary(text, _mask(test), half_size)


def _relation(text: str, test: Callable[[int, int], bool]) -> Relation:
    return Relation(text, tuple(_relation_mask(test, p) for p in FACES))


def _suit_in(suits: tuple[int, ...], f: int) -> bool:
    return SUIT[f] in suits


def _others(s: int) -> tuple[int, ...]:
    return tuple(x for x in range(4) if x != s)


def _rank_in(ranks: Sequence[int], f: int) -> bool:
    return RANK[f] in ranks


def _unaries() -> tuple[Unary, ...]:
    out = [
        _unary("@.red", lambda f: COLOR[f] == 0),
        _unary("@.black", lambda f: COLOR[f] == 1),
        _unary("@.even", lambda f: IS_EVEN[f]),
        _unary("@.odd", lambda f: not IS_EVEN[f]),
        _unary("@.face", lambda f: IS_FACE[f]),
        _unary("@.number", lambda f: not IS_FACE[f]),
        _unary("@.prime", lambda f: IS_PRIME[f]),
        _unary("not @.prime", lambda f: not IS_PRIME[f]),
        _unary(f"@.rank in {_CLOSED}", lambda f: RANK[f] in CLOSED_LOOPS),
        _unary(f"not (@.rank in {_CLOSED})", lambda f: RANK[f] not in CLOSED_LOOPS),
    ]
    for s, name in enumerate(SUITS):
        out.append(_unary(f"@.suit == {name}", partial(_suit_in, (s,))))
        out.append(_unary(f"@.suit != {name}", partial(_suit_in, _others(s))))
    # The suit pairs that are not a colour (the colours are above).
    for a, b in ((0, 1), (0, 2), (1, 3), (2, 3)):
        out.append(_unary(f"@.suit in {{{SUITS[a]}, {SUITS[b]}}}", partial(_suit_in, (a, b))))
    for t in range(1, 13):
        out.append(_unary(f"@.rank <= {t}", partial(_rank_in, range(1, t + 1))))
        out.append(_unary(f"@.rank >= {t + 1}", partial(_rank_in, range(t + 1, 14))))
    for r in range(3):
        out.append(_unary(f"@.rank mod 3 == {r}", partial(_rank_in, range(r or 3, 14, 3))))
        out.append(
            _unary(
                f"@.rank mod 3 != {r}", partial(_rank_in, [k for k in range(1, 14) if k % 3 != r])
            )
        )
    for r in range(4):
        out.append(_unary(f"@.rank mod 4 == {r}", partial(_rank_in, range(r or 4, 14, 4))))
    return tuple(out)


def _same_and_different(text: str, key: Callable[[int], object]) -> list[Relation]:
    return [
        _relation(text.replace("{op}", "=="), lambda p, c: key(c) == key(p)),
        _relation(text.replace("{op}", "!="), lambda p, c: key(c) != key(p)),
    ]


_OTHER_SUIT_CYCLES = ((0, 2, 1, 3), (0, 1, 3, 2), (0, 3, 1, 2), (0, 2, 3, 1))
"""Directed cycles of the four suits other than succ's and pred's (clubs, diamonds,
hearts, spades and back): the remaining four of the six."""


def _suit_cycle_text(cycle: tuple[int, ...]) -> str:
    arms = " | ".join(f"{SUITS[cycle[i]]} -> {SUITS[cycle[(i + 1) % 4]]}" for i in range(4))
    return f"card.suit == case prev.suit of {arms} end"


def _distance(low: int, high: int, p: int, c: int) -> bool:
    return low <= abs(RANK[c] - RANK[p]) <= high


def _step(steps: tuple[int, ...], p: int, c: int) -> bool:
    return (RANK[c] - RANK[p]) % 13 in steps


def _sum_mod(m: int, r: int, p: int, c: int) -> bool:
    return (RANK[c] + RANK[p]) % m == r


def _follows(following: tuple[int, ...], p: int, c: int) -> bool:
    """The candidate's suit follows the previous card's in a cycle (``following[suit]``)."""
    return SUIT[c] == following[SUIT[p]]


def _relations() -> tuple[Relation, ...]:
    out: list[Relation] = []
    out += _same_and_different("card.color {op} prev.color", lambda f: COLOR[f])
    out += _same_and_different("card.suit {op} prev.suit", lambda f: SUIT[f])
    out += _same_and_different("card.even {op} prev.even", lambda f: IS_EVEN[f])
    out += _same_and_different("card.face {op} prev.face", lambda f: IS_FACE[f])
    out += _same_and_different("card.prime {op} prev.prime", lambda f: IS_PRIME[f])
    out += _same_and_different(
        f"(card.rank in {_CLOSED}) {{op}} (prev.rank in {_CLOSED})",
        lambda f: RANK[f] in CLOSED_LOOPS,
    )
    out += _same_and_different(
        "(card.suit in {hearts, spades}) {op} (prev.suit in {hearts, spades})",
        lambda f: SUIT[f] in (2, 3),
    )
    out += _same_and_different(
        "(card.suit in {clubs, hearts}) {op} (prev.suit in {clubs, hearts})",
        lambda f: SUIT[f] in (0, 2),
    )
    out += _same_and_different("(card.rank >= 8) {op} (prev.rank >= 8)", lambda f: RANK[f] >= 8)
    for op, test in (
        (">", lambda p, c: RANK[c] > RANK[p]),
        ("<", lambda p, c: RANK[c] < RANK[p]),
        (">=", lambda p, c: RANK[c] >= RANK[p]),
        ("<=", lambda p, c: RANK[c] <= RANK[p]),
        ("==", lambda p, c: RANK[c] == RANK[p]),
        ("!=", lambda p, c: RANK[c] != RANK[p]),
    ):
        out.append(_relation(f"card.rank {op} prev.rank", test))
    for k in range(1, 5):
        out.append(_relation(f"abs(card.rank - prev.rank) <= {k}", partial(_distance, 0, k)))
        out.append(_relation(f"abs(card.rank - prev.rank) in 1..{k}", partial(_distance, 1, k)))
    for k in range(2, 5):
        out.append(_relation(f"abs(card.rank - prev.rank) >= {k}", partial(_distance, k, 13)))
    for s in range(1, 13):
        out.append(_relation(f"(card.rank - prev.rank) mod 13 == {s}", partial(_step, (s,))))
    for s in range(1, 7):
        out.append(
            _relation(
                f"(card.rank - prev.rank) mod 13 in {{{s}, {13 - s}}}",
                partial(_step, (s, 13 - s)),
            )
        )
    for m in range(2, 6):
        for r in range(m):
            out.append(
                _relation(f"(card.rank + prev.rank) mod {m} == {r}", partial(_sum_mod, m, r))
            )
    out.append(_relation("card.suit == succ(prev.suit)", lambda p, c: SUIT[c] == (SUIT[p] + 1) % 4))
    out.append(_relation("card.suit == pred(prev.suit)", lambda p, c: SUIT[c] == (SUIT[p] + 3) % 4))
    out.append(
        _relation("card.suit == succ(succ(prev.suit))", lambda p, c: SUIT[c] == (SUIT[p] + 2) % 4)
    )
    for cycle in _OTHER_SUIT_CYCLES:
        following = tuple(cycle[(cycle.index(s) + 1) % 4] for s in range(4))
        out.append(_relation(_suit_cycle_text(cycle), partial(_follows, following)))
    return tuple(out)


UNARIES: tuple[Unary, ...] = _unaries()
RELATIONS: tuple[Relation, ...] = _relations()

SPLITS: tuple[Unary, ...] = tuple(
    u
    for u in UNARIES
    if u.text
    in {
        "@.red",
        "@.even",
        "@.face",
        "@.prime",
        f"@.rank in {_CLOSED}",
        "@.suit == clubs",
        "@.suit == diamonds",
        "@.suit == hearts",
        "@.suit == spades",
        "@.suit in {clubs, diamonds}",
        "@.suit in {clubs, hearts}",
        "@.rank mod 3 == 0",
        "@.rank mod 4 == 0",
        *(f"@.rank <= {t}" for t in range(2, 13)),
    }
)
"""The 24 splits of the previous card for conditionals ("if P(prev) then A else B")."""

TRUE = Unary("true", FULL, 1)
FALSE = Unary("false", 0, 1)
CORE_UNARY_TEXTS = (
    "@.red",
    "@.black",
    "@.even",
    "@.odd",
    "@.face",
    "@.number",
    "@.prime",
    "not @.prime",
    "@.suit == clubs",
    "@.suit == diamonds",
    "@.suit == hearts",
    "@.suit == spades",
    "@.rank <= 7",
    "@.rank >= 8",
)
CORE_RELATION_TEXTS = (
    "card.color == prev.color",
    "card.color != prev.color",
    "card.suit == prev.suit",
    "card.suit != prev.suit",
    "card.even == prev.even",
    "card.even != prev.even",
    "card.rank > prev.rank",
    "card.rank < prev.rank",
    "card.rank >= prev.rank",
    "card.rank <= prev.rank",
    "card.rank == prev.rank",
    "card.rank != prev.rank",
)
"""The atoms a conditional's branches are made of (NE-30.2's conditionals, kept small)."""


def unary_row(unary: Unary) -> int:
    """The truth table over (previous face, candidate) of a predicate on the candidate:
    the same 52 bits for every previous face."""
    return sum(unary.mask << (52 * p) for p in FACES)


def prev_row(unary: Unary) -> int:
    """The table of "the previous card satisfies it": all 52 candidates where it does."""
    return sum(FULL << (52 * p) for p in FACES if unary.mask >> p & 1)


def relation_row(relation: Relation) -> int:
    return sum(mask << (52 * p) for p, mask in enumerate(relation.table))
