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

from engine.eleusis.erl import Line
from engine.eleusis.science.atoms import FULL
from engine.eleusis.science.evidence import Context, Evidence
from engine.eleusis.science.families import Family, families
from engine.eleusis.science.programs import Judged, checks, compiled, programs

DEFAULT_LAMBDA = 5
"""Half-size units per halving of the prior (3: lambda = 1.5 ln 2 = 1.04 per unit size,
NE-30.2's lambda = 1)."""
SOFT_SHIFT = 4
"""A contradicted judgement divides the weight by 2^4 in the soft likelihood."""
SOFT_WINDOW = 40
"""The soft posterior keeps the hypotheses within 2^-40 of the best."""


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
    strings: tuple[int, ...]
    """Per wrong string, the mask of its cells: a row calls the string right iff it has
    every bit of the mask (a cell met twice in a string is one bit)."""
    some: tuple[int, ...]


def _family_evidence(family: Family, ev: Evidence) -> _FamilyEvidence:
    right = 0
    for n, prev, card in ev.right:
        right |= 1 << family.cell_of(n, prev, card)
    wrong = 0
    for n, prev, card in ev.wrong:
        wrong |= 1 << family.cell_of(n, prev, card)
    strings = tuple(
        sum({1 << family.cell_of(n, prev, card) for n, prev, card in cells})
        for cells in sorted(ev.wrong_strings)
    )
    some = tuple(
        sum(1 << family.cell_of(n, prev, card) for n, prev, card in cells)
        for cells in sorted(ev.some_right)
    )
    return _FamilyEvidence(family, right, wrong, strings, some)


def _survivors(fe: _FamilyEvidence, among: Iterable[int] | None = None) -> list[int]:
    """The hypotheses (of ``among``, default all) that the family's evidence leaves."""
    rows = fe.family.rows
    right, wrong = fe.right, fe.wrong
    indices = range(len(rows)) if among is None else among
    alive = [i for i in indices if rows[i] & right == right and not rows[i] & wrong]
    for mask in fe.strings:
        alive = [i for i in alive if rows[i] & mask != mask]
    for mask in fe.some:
        alive = [i for i in alive if rows[i] & mask]
    return alive


def _violation_counts(
    fe: _FamilyEvidence, since: tuple[_FamilyEvidence, list[int]] | None = None
) -> list[int]:
    """For every hypothesis of the family, how many judgements (cells, strings, shown
    hands) it contradicts: one pass per kind of evidence over the rows (a function call
    per row would cost 5 times more). ``since``: the counts for less evidence of the same
    family, so that only what is new is counted (the same numbers as counting afresh)."""
    rows = fe.family.rows
    right, wrong = fe.right, fe.wrong
    strings, some = fe.strings, fe.some
    if since is None:
        counts = [((right & ~row) | (wrong & row)).bit_count() for row in rows]
    else:
        old, counts = since
        right, wrong = right & ~old.right, wrong & ~old.wrong
        strings = tuple(m for m in strings if m not in set(old.strings))
        some = tuple(m for m in some if m not in set(old.some))
        if right or wrong:
            counts = [
                c + ((right & ~row) | (wrong & row)).bit_count()
                for c, row in zip(counts, rows, strict=True)
            ]
    for mask in strings:
        counts = [c + (row & mask == mask) for c, row in zip(counts, rows, strict=True)]
    for mask in some:
        counts = [c + (not row & mask) for c, row in zip(counts, rows, strict=True)]
    return counts


@dataclass
class Posterior:
    """The posterior over the surviving hypotheses: ``members`` lists (family, index,
    weight) of the table families, ``programs`` (judged program, weight) of the generated
    family (judged on the round's main line of ``n_main`` cards); integer weights."""

    members: list[tuple[Family, int, int]]
    soft: bool = False
    programs: list[tuple[Judged, int]] = field(default_factory=list)
    n_main: int = 0
    total: int = field(init=False)
    rows: list[tuple[Family, int, int]] = field(init=False)
    """The distinct (family, row) among the members with their summed weights: every
    probability is computed over these (many hypotheses judge alike)."""

    def __post_init__(self) -> None:
        self.total = (sum(w for _, _, w in self.members) + sum(w for _, w in self.programs)) or 1
        distinct: dict[tuple[Family, int], int] = {}
        for family, index, weight in self.members:
            key = (family, family.rows[index])
            distinct[key] = distinct.get(key, 0) + weight
        self.rows = [(family, row, weight) for (family, row), weight in distinct.items()]

    def __len__(self) -> int:
        return len(self.members) + len(self.programs)

    def _program_line(self, judged: Judged, n: int, prev: int) -> Line | None:
        """A program's line for a context: the main line itself, or one card more."""
        if n == self.n_main:
            return judged.line(n)
        if n == self.n_main + 1:
            line = judged.line(self.n_main)
            return None if line is None else judged.rule.extend(line, prev)
        return None

    def face_weights(self, n: int, prev: int) -> list[int]:
        """For each of the 52 faces, the weight of the hypotheses calling it right next."""
        groups: dict[int, int] = {}
        for family, row, weight in self.rows:
            seg = (row >> family.segment_of(n, prev)) & FULL
            groups[seg] = groups.get(seg, 0) + weight
        for judged, weight in self.programs:
            line = self._program_line(judged, n, prev)
            if line is not None:
                seg = sum(1 << f for f in judged.rule.right_faces(line))
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
        for judged, weight in self.programs:
            line = self._program_line(judged, n, prev)
            if line is not None and not any(
                judged.rule.judge(line, f) for f in range(52) if hand >> f & 1
            ):
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
        for judged, weight in self.programs:
            line = self._program_line(judged, n, prev)
            if line is not None and judged.rule.judge_string(line, faces):
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

    def best_source(self) -> str | None:
        """The ERL source of the hypothesis of largest weight (the first on a tie)."""
        best: tuple[int, str] | None = None
        for family, index, weight in self.members:
            if best is None or weight > best[0]:
                best = (weight, family.source(index))
        for judged, weight in self.programs:
            if best is None or weight > best[0]:
                best = (weight, judged.rule.source)
        return None if best is None else best[1]


@functools.cache
def _candidates(starters: int) -> tuple[int, ...]:
    """The generated programs a round with that many starter cards may have (E09)."""
    return tuple(
        i for i, p in enumerate(programs()) if compiled(p.source).starters_needed == starters
    )


class Science:
    """Posteriors for one set of families and one prior (``lam``), with a small cache of
    survivor lists: evidence only grows within a round, so a new posterior filters the
    survivors of the largest cached evidence it contains instead of every hypothesis."""

    def __init__(self, fams: Sequence[Family] | None = None, lam: int = DEFAULT_LAMBDA) -> None:
        self.families = tuple(fams) if fams is not None else families()
        self.lam = lam
        self._cache: list[tuple[Evidence, list[list[int]]]] = []
        self._program_cache: list[tuple[Evidence, int, list[int]]] = []
        self._soft_cache: list[tuple[list[_FamilyEvidence], list[list[int]]]] = []

    def _cached_base(self, ev: Evidence) -> list[list[int]] | None:
        best: list[list[int]] | None = None
        best_size = 0
        for old, survivors in self._cache:
            size = sum(map(len, survivors))
            if old <= ev and (best is None or size < best_size):
                best, best_size = survivors, size
        return best

    def posterior(self, ev: Evidence, main: Sequence[int] = (), starters: int = 1) -> Posterior:
        """The posterior given the evidence of a round whose main line is ``main`` (its
        first ``starters`` cards turned up by the server). E09 turns up max(1, L) starter
        cards for a rule of lookback L, so with two or more the rule looks back that far
        and no table family (lookback <= 1) can be it: only the generated programs of
        that lookback are weighed. With one starter the table families come first and
        the programs of lookback <= 1 join only if no table hypothesis survives."""
        tables = starters <= 1
        costs: list[tuple[Family, int, int]] = []
        fes: list[_FamilyEvidence] = []
        if tables:
            fes = [_family_evidence(f, ev) for f in self.families]
            base = self._cached_base(ev)
            per_family = [
                _survivors(fe, None if base is None else base[k]) for k, fe in enumerate(fes)
            ]
            self._cache.append((ev, per_family))
            del self._cache[:-8]
            for fe, alive in zip(fes, per_family, strict=True):
                penalties = _share_penalties(fe.family)
                sizes = fe.family.half_sizes
                costs.extend((fe.family, i, self.lam * sizes[i] + penalties[i]) for i in alive)
        program_costs: list[tuple[Judged, int]] = []
        if main and not costs:
            for index, judged in self._program_survivors(ev, main, starters):
                program_costs.append((judged, self.lam * programs()[index].half_size))
        if costs or program_costs:
            top = max([c for _, _, c in costs] + [c for _, c in program_costs])
            return Posterior(
                [(f, i, 1 << (top - c)) for f, i, c in costs],
                programs=[(j, 1 << (top - c)) for j, c in program_costs],
                n_main=len(main),
            )
        return self._soft(fes, ev, main, starters)

    def _candidates(self, starters: int) -> tuple[int, ...]:
        return _candidates(max(1, starters))

    def _program_survivors(
        self, ev: Evidence, main: Sequence[int], starters: int
    ) -> list[tuple[int, Judged]]:
        base: list[int] | None = None
        for old, old_starters, survivors in self._program_cache:
            if (
                old_starters == starters
                and old <= ev
                and (base is None or len(survivors) < len(base))
            ):
                base = survivors
        alive: list[tuple[int, Judged]] = []
        ordered = checks(ev)
        for i in self._candidates(starters) if base is None else base:
            judged = Judged(compiled(programs()[i].source), main)
            if judged.violations(ordered, limit=1) == 0:
                alive.append((i, judged))
        self._program_cache.append((ev, starters, [i for i, _ in alive]))
        del self._program_cache[:-8]
        return alive

    def _soft(
        self, fes: list[_FamilyEvidence], ev: Evidence, main: Sequence[int], starters: int
    ) -> Posterior:
        lam = self.lam
        family_costs: list[tuple[Family, list[int]]] = []
        since: list[tuple[_FamilyEvidence, list[int]]] | None = None
        for old, old_counts in self._soft_cache:
            if old[0].family is fes[0].family and all(
                o.right & ~f.right == 0
                and o.wrong & ~f.wrong == 0
                and set(o.strings) <= set(f.strings)
                and set(o.some) <= set(f.some)
                for o, f in zip(old, fes, strict=True)
            ):
                since = list(zip(old, old_counts, strict=True))
        all_counts: list[list[int]] = []
        for k, fe in enumerate(fes):
            family = fe.family
            counts = _violation_counts(fe, None if since is None else since[k])
            all_counts.append(counts)
            family_costs.append(
                (
                    family,
                    [
                        lam * size + penalty + SOFT_SHIFT * count
                        for size, penalty, count in zip(
                            family.half_sizes, _share_penalties(family), counts, strict=True
                        )
                    ],
                )
            )
        if fes:
            self._soft_cache.append((fes, all_counts))
            del self._soft_cache[:-2]
        program_costs: list[tuple[Judged, int]] = []
        if main:
            ordered = checks(ev)
            for i in self._candidates(starters):
                judged = Judged(compiled(programs()[i].source), main)
                wrong = judged.violations(ordered, limit=SOFT_WINDOW // SOFT_SHIFT + 1)
                program_costs.append(
                    (judged, self.lam * programs()[i].half_size + SOFT_SHIFT * wrong)
                )
        least = min(
            [min(costs) for _, costs in family_costs if costs] + [c for _, c in program_costs]
        )
        # Keep what is within 2^-40 of the best: the rest cannot change a decision.
        limit = least + SOFT_WINDOW
        return Posterior(
            [
                (family, i, 1 << (limit - c))
                for family, costs in family_costs
                for i, c in enumerate(costs)
                if c <= limit
            ],
            soft=True,
            programs=[(j, 1 << (limit - c)) for j, c in program_costs if c <= limit],
            n_main=len(main),
        )
