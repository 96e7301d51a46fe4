"""What the public evidence says about the rule (NE-30.2): the hypotheses that survive it
and the posterior probability that a card, a string or a no play is right.

Evidence is read from the main line, the side lines and the exhibits (:func:`evidence`):
every main-line card after the starters was right after the cards before it; a wrong
single card was wrong there; a wrong string says only that *not all* of its cards were
right in sequence; a correct no play's shown hand was wrong card by card. The server
judges exactly, so the likelihood is 0 or 1; when no hypothesis of any family survives,
the posterior switches to a soft likelihood (each contradicted judgement divides a
hypothesis' weight by 16, about NE-30.2's 0.05) instead of failing.

Weights are integers (powers of two), so the posterior, and every decision made from it,
is the same on every machine: the prior of a hypothesis is 2^-(lam x half size) times a
penalty on its share of right cells outside NE-22.5's usual 15-65%.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.eleusis.science.atoms import FULL
from engine.eleusis.science.families import Family, families

Context = tuple[int, int]  # (n, prev): a main line of n cards ending in prev
Cell = tuple[int, int, int]  # (n, prev, card)

DEFAULT_LAMBDA = 5
"""Half-size units per halving of the prior (3: lambda = 1.5 ln 2 = 1.04 per unit size,
NE-30.2's lambda = 1)."""
SOFT_SHIFT = 4
"""A contradicted judgement divides the weight by 2^4 in the soft likelihood."""


@dataclass(frozen=True)
class Evidence:
    """Judgements read from the public record of a round."""

    right: frozenset[Cell] = frozenset()
    wrong: frozenset[Cell] = frozenset()
    wrong_strings: frozenset[tuple[Cell, ...]] = frozenset()
    """Strings judged wrong: not every card was right in sequence (NE-8.2)."""
    some_right: frozenset[tuple[Cell, ...]] = frozenset()
    """Shown hands of wrong no plays with no card placed (E22): some card was right."""

    def __len__(self) -> int:
        return len(self.right) + len(self.wrong) + len(self.wrong_strings) + len(self.some_right)

    def __le__(self, other: Evidence) -> bool:
        return (
            self.right <= other.right
            and self.wrong <= other.wrong
            and self.wrong_strings <= other.wrong_strings
            and self.some_right <= other.some_right
        )


def evidence(
    main: Sequence[int],
    starters: int,
    side_plays: Iterable[tuple[int, Sequence[int]]] = (),
    exhibits: Iterable[tuple[int, Sequence[int]]] = (),
) -> Evidence:
    """Evidence from the main line (faces, the first ``starters`` of them turned up by the
    server), the wrong plays (the main-line index of the card each followed, and its faces
    in the order played) and the exhibits of correct no plays (index, faces)."""
    right = {(i, main[i - 1], main[i]) for i in range(max(1, starters), len(main))}
    wrong: set[Cell] = set()
    strings: set[tuple[Cell, ...]] = set()
    for after, faces in side_plays:
        n, prev = after + 1, main[after]
        if len(faces) == 1:
            wrong.add((n, prev, faces[0]))
            continue
        cells = []
        for face in faces:
            cells.append((n, prev, face))
            n, prev = n + 1, face
        strings.add(tuple(cells))
    for after, faces in exhibits:
        wrong.update((after + 1, main[after], face) for face in faces)
    return Evidence(frozenset(right), frozenset(wrong), frozenset(strings))


@functools.cache
def _share_penalties(family: Family) -> tuple[int, ...]:
    """A prior penalty (in halvings) for a rule whose share of right cells is unusual
    (NE-22.5: dealers' rules are mostly 15-65% right)."""
    out = []
    for row in family.rows:
        share = row.bit_count() / family.cells
        if 0.15 <= share <= 0.65:
            out.append(0)
        elif 0.05 <= share <= 0.85:
            out.append(2)
        else:
            out.append(5)
    return tuple(out)


@dataclass
class _FamilyEvidence:
    family: Family
    right: int
    wrong: int
    strings: tuple[tuple[int, ...], ...]
    some: tuple[int, ...]


def _family_evidence(family: Family, ev: Evidence) -> _FamilyEvidence:
    right = 0
    for n, prev, card in ev.right:
        right |= 1 << family.cell_of(n, prev, card)
    wrong = 0
    for n, prev, card in ev.wrong:
        wrong |= 1 << family.cell_of(n, prev, card)
    strings = tuple(
        tuple(family.cell_of(n, prev, card) for n, prev, card in cells)
        for cells in sorted(ev.wrong_strings)
    )
    some = tuple(
        sum(1 << family.cell_of(n, prev, card) for n, prev, card in cells)
        for cells in sorted(ev.some_right)
    )
    return _FamilyEvidence(family, right, wrong, strings, some)


def _all_set(row: int, cells: tuple[int, ...]) -> bool:
    return all(row >> cell & 1 for cell in cells)


def _survivors(fe: _FamilyEvidence, among: Iterable[int] | None = None) -> list[int]:
    """The hypotheses (of ``among``, default all) that the family's evidence leaves."""
    rows = fe.family.rows
    right, wrong = fe.right, fe.wrong
    indices = range(len(rows)) if among is None else among
    alive = [i for i in indices if rows[i] & right == right and not rows[i] & wrong]
    for cells in fe.strings:
        alive = [i for i in alive if not _all_set(rows[i], cells)]
    for mask in fe.some:
        alive = [i for i in alive if rows[i] & mask]
    return alive


def _violations(fe: _FamilyEvidence, row: int) -> int:
    count = ((fe.right & ~row) | (fe.wrong & row)).bit_count()
    count += sum(1 for cells in fe.strings if _all_set(row, cells))
    return count + sum(1 for mask in fe.some if not row & mask)


@dataclass
class Posterior:
    """The posterior over every family's surviving hypotheses: ``members`` lists
    (family, index, weight) with integer weights."""

    members: list[tuple[Family, int, int]]
    soft: bool = False
    total: int = field(init=False)
    rows: list[tuple[Family, int, int]] = field(init=False)
    """The distinct (family, row) among the members with their summed weights: every
    probability is computed over these (many hypotheses judge alike)."""

    def __post_init__(self) -> None:
        self.total = sum(w for _, _, w in self.members) or 1
        distinct: dict[tuple[Family, int], int] = {}
        for family, index, weight in self.members:
            key = (family, family.rows[index])
            distinct[key] = distinct.get(key, 0) + weight
        self.rows = [(family, row, weight) for (family, row), weight in distinct.items()]

    def __len__(self) -> int:
        return len(self.members)

    def face_weights(self, n: int, prev: int) -> list[int]:
        """For each of the 52 faces, the weight of the hypotheses calling it right next."""
        groups: dict[int, int] = {}
        for family, row, weight in self.rows:
            seg = (row >> family.segment_of(n, prev)) & FULL
            groups[seg] = groups.get(seg, 0) + weight
        out = [0] * 52
        for seg, weight in groups.items():
            while seg:
                low = seg & -seg
                out[low.bit_length() - 1] += weight
                seg ^= low
        return out

    def p_right(self, n: int, prev: int) -> list[float]:
        """P(face is right next) for each of the 52 faces."""
        return [w / self.total for w in self.face_weights(n, prev)]

    def p_none_right(self, n: int, prev: int, faces: Iterable[int]) -> float:
        """P(no face of ``faces`` is right next): a no play is correct (E14)."""
        hand = sum(1 << f for f in set(faces))
        none = 0
        for family, row, weight in self.rows:
            if not (row >> family.segment_of(n, prev)) & hand:
                none += weight
        return none / self.total

    def p_string(self, n: int, prev: int, faces: Sequence[int]) -> float:
        """P(every card of the string is right in sequence) (NE-8.2)."""
        good = 0
        for family, row, weight in self.rows:
            m, p = n, prev
            for face in faces:
                if not row >> family.cell_of(m, p, face) & 1:
                    break
                m, p = m + 1, face
            else:
                good += weight
        return good / self.total

    def disagreement(self, contexts: Iterable[Context]) -> float:
        """The mean, over every face judged in each context, of the posterior mass against
        the majority call: the chance that a call by majority is wrong (NE-30.2)."""
        total = 0.0
        count = 0
        for n, prev in contexts:
            for w in self.face_weights(n, prev):
                total += min(w, self.total - w) / self.total
                count += 1
        return total / count if count else 1.0

    def call_error(self, contexts: Iterable[Context]) -> float:
        """The expected error of a call by majority on the next play, averaged over the
        contexts: the play is a face drawn half uniformly and half in proportion to its
        chance of being right (players mostly play what they think is right)."""
        errors = []
        for n, prev in contexts:
            p = [w / self.total for w in self.face_weights(n, prev)]
            mass = sum(p)
            error = 0.0
            for x in p:
                share = 0.5 / 52 + (0.5 * x / mass if mass else 0.5 / 52)
                error += share * min(x, 1 - x)
            errors.append(error)
        return sum(errors) / len(errors) if errors else 1.0

    def best(self) -> tuple[Family, int] | None:
        """The hypothesis of largest weight (the first in family order on a tie)."""
        if not self.members:
            return None
        family, index, _ = max(self.members, key=lambda m: m[2])
        return family, index


class Science:
    """Posteriors for one set of families and one prior (``lam``), with a small cache of
    survivor lists: evidence only grows within a round, so a new posterior filters the
    survivors of the largest cached evidence it contains instead of every hypothesis."""

    def __init__(self, fams: Sequence[Family] | None = None, lam: int = DEFAULT_LAMBDA) -> None:
        self.families = tuple(fams) if fams is not None else families()
        self.lam = lam
        self._cache: list[tuple[Evidence, list[list[int]]]] = []

    def _cached_base(self, ev: Evidence) -> list[list[int]] | None:
        best: list[list[int]] | None = None
        best_size = 0
        for old, survivors in self._cache:
            size = sum(map(len, survivors))
            if old <= ev and (best is None or size < best_size):
                best, best_size = survivors, size
        return best

    def posterior(self, ev: Evidence) -> Posterior:
        base = self._cached_base(ev)
        per_family: list[list[int]] = []
        fes = [_family_evidence(f, ev) for f in self.families]
        for k, fe in enumerate(fes):
            per_family.append(_survivors(fe, None if base is None else base[k]))
        self._cache.append((ev, per_family))
        del self._cache[:-8]
        members: list[tuple[Family, int, int]] = []
        costs: list[tuple[Family, int, int]] = []
        for fe, alive in zip(fes, per_family, strict=True):
            penalties = _share_penalties(fe.family)
            sizes = fe.family.half_sizes
            costs.extend((fe.family, i, self.lam * sizes[i] + penalties[i]) for i in alive)
        if costs:
            top = max(c for _, _, c in costs)
            members = [(f, i, 1 << (top - c)) for f, i, c in costs]
            return Posterior(members)
        return self._soft(fes)

    def _soft(self, fes: list[_FamilyEvidence]) -> Posterior:
        costs: list[tuple[Family, int, int]] = []
        for fe in fes:
            penalties = _share_penalties(fe.family)
            sizes = fe.family.half_sizes
            for i, row in enumerate(fe.family.rows):
                cost = self.lam * sizes[i] + penalties[i] + SOFT_SHIFT * _violations(fe, row)
                costs.append((fe.family, i, cost))
        least = min(c for _, _, c in costs)
        # Keep what is within 2^-40 of the best: the rest cannot change a decision.
        members = [(f, i, 1 << (least + 40 - c)) for f, i, c in costs if c <= least + 40]
        return Posterior(members, soft=True)
