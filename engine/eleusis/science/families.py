"""The scientist bot's hypothesis space (NE-30.2): families of candidate rules stored as
truth tables.

Every hypothesis of a family is a bit row over the family's *cells*: a cell is what the
family's rules can tell apart about a judgement (the candidate and the previous card for
lookback-1 rules; the candidate and the position for periodic ones). Bit ``cell`` of a
row is set when the hypothesis calls that judgement right. Each hypothesis also has a
size in half units (NE-30.2's prior: an atom 1, a relation 1.5, and/or/xor +0.5, a
conditional +2; periodic patterns cost per phase) and a descriptor from which its ERL
source is written, so a hypothesis can be compiled and compared with the real judge
(``tests/engine/eleusis/test_science.py`` does so for samples of every family).

Families:
- ``L1`` (lookback <= 1): set rules over the unary predicates and their and/or/xor pairs,
  relations to the previous card and their and/or/xor pairs, predicate-relation pairs,
  and conditionals "if S(prev) then A else B" over the splits and core atoms of
  :mod:`atoms`. Cells: ``prev * 52 + card`` (2,704).
- ``P12`` (periodic in the position, NE-30.2's periodic family): for k = 2, 3, 4 a
  predicate per phase of ``len mod k``; for k = 6 and 12 a two-valued pattern of a
  complementary pair of predicates. Cells: ``(len mod 12) * 52 + card`` (624).
- ``P2R`` (phase x previous card, k = 2): "if len mod 2 == 1 then A else B" over core
  atoms and small rank steps. Cells: ``(len mod 2) * 2704 + prev * 52 + card`` (5,408).

Building all three takes well under a second (big-integer operations on whole rows);
:func:`families` builds them once per process.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from engine.eleusis.science import atoms
from engine.eleusis.science.atoms import FULL, Relation, Unary

Descriptor = tuple[object, ...]
L1_CELLS = 52 * 52


@dataclass(frozen=True, eq=False)
class Family:
    """Hypotheses over one cell space: ``rows[i]``, ``half_sizes[i]``, ``descriptors[i]``.
    Compared and hashed by identity (a family is built once per process)."""

    name: str
    cells: int
    rows: tuple[int, ...]
    half_sizes: tuple[int, ...]
    descriptors: tuple[Descriptor, ...]
    cell_of: Callable[[int, int, int], int]
    """``cell_of(n, prev, card)``: the cell of judging ``card`` after a main line of ``n``
    cards whose last is ``prev``."""
    segment_of: Callable[[int, int], int]
    """``segment_of(n, prev)``: the bit offset of the 52 cells of that context."""
    source_of: Callable[[Descriptor], str]

    def __len__(self) -> int:
        return len(self.rows)

    def source(self, index: int) -> str:
        """The ERL source of hypothesis ``index``."""
        return self.source_of(self.descriptors[index])


# --- L1 -----------------------------------------------------------------------------------

_UNARY_ROWS = tuple(atoms.unary_row(u) for u in atoms.UNARIES)
_RELATION_ROWS = tuple(atoms.relation_row(r) for r in atoms.RELATIONS)
_L1_FULL = (1 << L1_CELLS) - 1


def _l1_expr(d: Descriptor) -> str:
    kind = d[0]
    if kind == "u":
        return atoms.UNARIES[int(d[1])].on("card")  # type: ignore[call-overload]
    if kind == "r":
        return atoms.RELATIONS[int(d[1])].text  # type: ignore[call-overload]
    if kind == "c":
        return str(d[1])
    if kind in ("and", "or", "xor"):
        return f"({_l1_expr(d[1])}) {kind} ({_l1_expr(d[2])})"  # type: ignore[arg-type]
    if kind == "xnor":
        return f"not (({_l1_expr(d[1])}) xor ({_l1_expr(d[2])}))"  # type: ignore[arg-type]
    if kind == "if":
        split = atoms.SPLITS[int(d[1])].on("prev")  # type: ignore[call-overload]
        return f"if {split} then {_l1_expr(d[2])} else {_l1_expr(d[3])}"  # type: ignore[arg-type]
    raise ValueError(f"unknown descriptor {d!r}")


def l1_source(d: Descriptor) -> str:
    return f"accept {_l1_expr(d)}"


def _core_atoms() -> list[tuple[Descriptor, int, int]]:
    """(descriptor, row, half size) of the atoms a conditional's branches use."""
    true: Descriptor = ("c", "true")
    false: Descriptor = ("c", "false")
    out: list[tuple[Descriptor, int, int]] = [(true, _L1_FULL, 1), (false, 0, 1)]
    unary_index = {u.text: i for i, u in enumerate(atoms.UNARIES)}
    relation_index = {r.text: i for i, r in enumerate(atoms.RELATIONS)}
    for text in atoms.CORE_UNARY_TEXTS:
        i = unary_index[text]
        out.append((("u", i), _UNARY_ROWS[i], atoms.UNARIES[i].half_size))
    for text in atoms.CORE_RELATION_TEXTS:
        i = relation_index[text]
        out.append((("r", i), _RELATION_ROWS[i], atoms.RELATIONS[i].half_size))
    return out


def _build_l1() -> Family:
    rows: list[int] = []
    sizes: list[int] = []
    descs: list[Descriptor] = []

    def add(d: Descriptor, row: int, size: int) -> None:
        rows.append(row)
        sizes.append(size)
        descs.append(d)

    singles: list[tuple[Descriptor, int, int]] = []
    for i, row in enumerate(_UNARY_ROWS):
        singles.append((("u", i), row, atoms.UNARIES[i].half_size))
    for i, row in enumerate(_RELATION_ROWS):
        singles.append((("r", i), row, atoms.RELATIONS[i].half_size))
    for d, row, size in singles:
        add(d, row, size)
    # Pairs: and, or, xor and its negation (NE-30.2: "and/or pairs"; xor for rules such as
    # R14 even-red and R23 colour-xor-parity).
    for (da, ra, sa), (db, rb, sb) in itertools.combinations(singles, 2):
        size = sa + sb + 1
        add(("and", da, db), ra & rb, size)
        add(("or", da, db), ra | rb, size)
        x = ra ^ rb
        add(("xor", da, db), x, size)
        add(("xnor", da, db), x ^ _L1_FULL, size)
    core = _core_atoms()
    for k, split in enumerate(atoms.SPLITS):
        yes = atoms.prev_row(split)
        no = yes ^ _L1_FULL
        for (da, ra, sa), (db, rb, sb) in itertools.permutations(core, 2):
            add(("if", k, da, db), (yes & ra) | (no & rb), split.half_size + sa + sb + 4)
    return Family(
        name="L1",
        cells=L1_CELLS,
        rows=tuple(rows),
        half_sizes=tuple(sizes),
        descriptors=tuple(descs),
        cell_of=lambda n, prev, card: prev * 52 + card,
        segment_of=lambda n, prev: prev * 52,
        source_of=l1_source,
    )


# --- P12 ----------------------------------------------------------------------------------

PERIOD = 12
_PHASE_TEXTS = (
    "card.red",
    "card.black",
    "card.even",
    "card.odd",
    "card.face",
    "card.number",
    "card.suit == clubs",
    "card.suit == diamonds",
    "card.suit == hearts",
    "card.suit == spades",
    "card.rank <= 7",
    "card.rank >= 8",
)
_PAIRS = (
    ("card.red", "card.black"),
    ("card.even", "card.odd"),
    ("card.face", "card.number"),
    ("card.rank <= 7", "card.rank >= 8"),
    ("card.suit in {hearts, spades}", "card.suit in {clubs, diamonds}"),
    ("card.suit in {clubs, hearts}", "card.suit in {diamonds, spades}"),
)


def _mask_of(text: str) -> int:
    for u in atoms.UNARIES:
        if u.on("card") == text:
            return u.mask
    raise KeyError(text)


def _minimal_period(pattern: tuple[int, ...]) -> int:
    k = len(pattern)
    for d in range(1, k + 1):
        if k % d == 0 and all(pattern[i] == pattern[i % d] for i in range(k)):
            return d
    return k


def p12_source(d: Descriptor) -> str:
    k = int(d[1])  # type: ignore[call-overload]
    texts = d[2]
    assert isinstance(texts, tuple)
    arms = " | ".join(f"{i} -> {texts[i]}" for i in range(k - 1))
    return f"accept case len mod {k} of {arms} | else -> {texts[k - 1]} end"


def _p12_row(masks: tuple[int, ...]) -> int:
    k = len(masks)
    return sum(masks[phase % k] << (52 * phase) for phase in range(PERIOD))


def _build_p12() -> Family:
    rows: list[int] = []
    sizes: list[int] = []
    descs: list[Descriptor] = []
    masks = [_mask_of(t) for t in _PHASE_TEXTS]
    for k in (2, 3, 4):
        for pattern in itertools.product(range(len(_PHASE_TEXTS)), repeat=k):
            if _minimal_period(pattern) != k:
                continue  # a shorter period, or one predicate: listed elsewhere
            rows.append(_p12_row(tuple(masks[i] for i in pattern)))
            sizes.append(4 + 2 * k)
            descs.append(("p", k, tuple(_PHASE_TEXTS[i] for i in pattern)))
    for k in (6, 12):
        for pair in _PAIRS:
            pair_masks = (_mask_of(pair[0]), _mask_of(pair[1]))
            for bits in itertools.product((0, 1), repeat=k):
                if _minimal_period(bits) != k:
                    continue
                rows.append(_p12_row(tuple(pair_masks[b] for b in bits)))
                sizes.append(4 + 2 * k)
                descs.append(("p", k, tuple(pair[b] for b in bits)))
    return Family(
        name="P12",
        cells=PERIOD * 52,
        rows=tuple(rows),
        half_sizes=tuple(sizes),
        descriptors=tuple(descs),
        cell_of=lambda n, prev, card: (n % PERIOD) * 52 + card,
        segment_of=lambda n, prev: (n % PERIOD) * 52,
        source_of=p12_source,
    )


# --- P2R ----------------------------------------------------------------------------------

_STEP_TEXTS = (
    "(card.rank - prev.rank) mod 13 == 1",
    "(card.rank - prev.rank) mod 13 == 2",
    "(card.rank - prev.rank) mod 13 == 12",
    "(card.rank - prev.rank) mod 13 == 11",
)


def p2r_source(d: Descriptor) -> str:
    odd, even = d[1], d[2]
    return f"accept if len mod 2 == 1 then {_l1_expr(odd)} else {_l1_expr(even)}"  # type: ignore[arg-type]


def _build_p2r() -> Family:
    relation_index = {r.text: i for i, r in enumerate(atoms.RELATIONS)}
    branch = [a for a in _core_atoms() if a[0][0] != "c"] + [
        (("r", relation_index[t]), _RELATION_ROWS[relation_index[t]], 3) for t in _STEP_TEXTS
    ]
    rows: list[int] = []
    sizes: list[int] = []
    descs: list[Descriptor] = []
    for (da, ra, sa), (db, rb, sb) in itertools.permutations(branch, 2):
        # Phase 1 (len odd) takes the first branch; phase 0 the second.
        rows.append(rb | (ra << L1_CELLS))
        sizes.append(sa + sb + 6)
        descs.append(("pr", da, db))
    return Family(
        name="P2R",
        cells=2 * L1_CELLS,
        rows=tuple(rows),
        half_sizes=tuple(sizes),
        descriptors=tuple(descs),
        cell_of=lambda n, prev, card: (n % 2) * L1_CELLS + prev * 52 + card,
        segment_of=lambda n, prev: (n % 2) * L1_CELLS + prev * 52,
        source_of=p2r_source,
    )


@functools.cache
def families() -> tuple[Family, ...]:
    """The hypothesis families, built once per process."""
    return (_build_l1(), _build_p12(), _build_p2r())


def segment(family: Family, row: int, n: int, prev: int) -> int:
    """The 52 bits of ``row`` for the context (``n`` cards, last ``prev``)."""
    return (row >> family.segment_of(n, prev)) & FULL


__all__ = ["Family", "Relation", "Unary", "families", "segment"]
