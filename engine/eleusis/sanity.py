"""The sanity check before a round (NE-22): starter, dead ends, acceptance share, supply.

:func:`sanity_check` is pure and deterministic: its random walks draw from a
``random.Random`` seeded from the rule's source (or a given seed), so the same rule gets
the same report on every machine. The cost check of NE-21.6 is done when the rule is
compiled (a deterministic cost model, Our ruling OR05), so a rule that reaches this
check is never "too slow".
"""

from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from engine.eleusis.erl import Line, Rule
from engine.eleusis.erl.tree import Node, walk
from engine.eleusis.faces import FACE_COUNT, FACE_IDS, FACES
from engine.eleusis.library import library

JUDGEMENT_OVERHEAD = 12
"""A judgement's fixed cost in evaluation steps (environment, lets), for OR15."""
SAMPLE_LENGTH = 12
"""Main-line cards shown in each of the report's three samples (NE-22.6)."""


@dataclass(frozen=True)
class SanitySettings:
    """The thresholds of NE-22.4-22.5 (table settings)."""

    walks: int = 300
    length: int = 100
    decks: int = 2
    max_exact_states: int = 250_000
    reject_above: float = 0.85
    reject_below: float = 0.04
    warn_above: float = 0.65
    warn_below: float = 0.12
    warn_min_right: int = 3
    warn_exhausted_within: int = 40
    warn_starters_below: int = 4
    library_probes: int = 2000
    max_steps: int = 300_000_000
    """NE-22.7's CPU cap as a deterministic budget (OR15): walks x length x 52 x
    (cost + JUDGEMENT_OVERHEAD) evaluation steps; fewer walks are run beyond it."""


@dataclass(frozen=True)
class Reason:
    code: str
    verdict: str  # "reject" or "warn"
    message: str


@dataclass
class SanityReport:
    verdict: str  # "ok", "warn" or "reject"
    reasons: list[Reason]
    lookback: int
    cost: int
    starter_faces: list[str]
    exact: str  # "passed", "dead_end", "skipped" (too many states) or "not_finite"
    exact_states: int
    walks: int  # walks run (fewer than asked when the step budget is reached, OR15)
    walks_reduced_from: int | None
    judgements: int
    mean_share: float
    min_right: int
    histogram: list[int]  # histogram[k]: judgement points with k right faces
    ever_wrong: bool
    exhausted_at: int | None  # the shortest main line that used up every right copy
    dead_end: list[str] | None  # a main line after which no face is right
    first_turn: dict[str, list[str]] | None  # lookback 1: the right faces after each starter
    samples: list[dict[str, Any]] = field(default_factory=list)
    features: list[str] = field(default_factory=list)  # what the rule reads (for hints)
    like_library: str | None = None  # a library rule judging alike on every probe (OR14)

    def to_json(self) -> dict[str, Any]:
        """The report as the dealer's editor receives it (NE-22.6)."""
        return {
            "verdict": self.verdict,
            "reasons": [
                {"code": r.code, "verdict": r.verdict, "message": r.message} for r in self.reasons
            ],
            "lookback": self.lookback,
            "cost": self.cost,
            "starter_faces": self.starter_faces,
            "exact": self.exact,
            "exact_states": self.exact_states,
            "walks": self.walks,
            "walks_reduced_from": self.walks_reduced_from,
            "judgements": self.judgements,
            "mean_share": round(self.mean_share, 4),
            "min_right": self.min_right,
            "histogram": self.histogram,
            "ever_wrong": self.ever_wrong,
            "exhausted_at": self.exhausted_at,
            "dead_end": self.dead_end,
            "first_turn": self.first_turn,
            "samples": self.samples,
            "features": self.features,
            "like_library": self.like_library,
        }


def _ids(faces: tuple[int, ...] | list[int]) -> list[str]:
    return [FACE_IDS[f] for f in faces]


# --- NE-22.3: the exact dead-end check -----------------------------------------------


@dataclass
class _Abstraction:
    """What a finite-state rule's judgement depends on (NE-22.3)."""

    lookback: int
    first: bool
    modulus: int  # len mod this (1: len mod unused)
    cap: int  # len capped at this (0: len compared with no constant)
    size: int  # an upper bound on the number of abstract states

    def key(self, line: Line) -> tuple[Any, ...]:
        n = len(line.faces)
        last = line.faces[-self.lookback :] if self.lookback else ()
        return (
            last,
            line.faces[0] if self.first and n else None,
            line.states,
            n % self.modulus,
            min(n, self.cap),
        )


def _len_pattern(parent: Node, child: Node) -> tuple[str, int] | None:
    """How a ``len`` node is used: ("mod", m), ("const", c) or None (any other use)."""
    k, a = parent.kind, parent.args
    if k == "arith" and a[0] == "mod" and a[1] is child:
        return ("mod", a[2].args[0])
    if k == "cmp":
        other = a[2] if a[1] is child else a[1]
        if other.kind == "int":
            return ("const", other.args[0])
        if other.kind == "neg" and other.args[0].kind == "int":
            return ("const", 0)
    if k in ("in", "notin") and a[0] is child:
        coll = a[1]
        if coll.kind == "set":
            return ("const", max([0, *(int(c.value) for c in coll.args[0])]))
        if all(x.kind == "int" for x in coll.args):
            return ("const", max(0, *(x.args[0] for x in coll.args)))
    return None


def abstraction(rule: Rule) -> _Abstraction | None:
    """The finite abstraction of a rule, or None when it has none (NE-22.3)."""
    program = rule.program
    if program.aggregates:
        return None
    roots = [program.accept] + ([program.start] if program.start is not None else [])
    roots += [program.lets[i].node for i in program.accept_facts.lets | program.start_facts.lets]
    modulus, cap = 1, 0
    for root in roots:
        for parent in walk(root):
            for child in parent.children():
                if child.kind == "name" and child.args[0] == "len":
                    use = _len_pattern(parent, child)
                    if use is None:
                        return None
                    if use[0] == "mod":
                        modulus = math.lcm(modulus, use[1])
                    else:
                        cap = max(cap, use[1] + 1)
        if root.kind == "name" and root.args[0] == "len":
            return None
    first = program.accept_facts.first or program.start_facts.first
    size = FACE_COUNT**program.lookback * (FACE_COUNT if first else 1) * modulus * (cap + 1)
    for st in program.states:
        size *= {"bool": 2, "suit": 4, "color": 2}.get(st.type, st.modulus or 1)
    return _Abstraction(program.lookback, first, modulus, cap, size)


def _starter_lines(rule: Rule) -> list[Line]:
    """Every starter sequence the server could turn up (a line per sequence)."""
    lines = [rule.empty()]
    for _ in range(rule.starters_needed):
        lines = [rule.extend(line, f) for line in lines for f in FACES if rule.may_start(line, f)]
    return lines


def exact_check(rule: Rule, limit: int) -> tuple[str, int, Line | None]:
    """("passed" | "dead_end" | "skipped" | "not_finite", states explored, dead end)."""
    abstract = abstraction(rule)
    if abstract is None:
        return ("not_finite", 0, None)
    if abstract.size > limit or FACE_COUNT**rule.starters_needed > limit:
        return ("skipped", 0, None)
    seen: set[tuple[Any, ...]] = set()
    queue: deque[Line] = deque()
    for line in _starter_lines(rule):
        key = abstract.key(line)
        if key not in seen:
            seen.add(key)
            queue.append(line)
    while queue:
        line = queue.popleft()
        rights = rule.right_faces(line)
        if not rights:
            return ("dead_end", len(seen), line)
        for f in rights:
            nxt = rule.extend(line, f)
            key = abstract.key(nxt)
            if key not in seen:
                seen.add(key)
                queue.append(nxt)
    return ("passed", len(seen), None)


# --- NE-22.6: a rule that behaves like a library rule ---------------------------------


PROBE_SEQUENCES = 50
PROBE_FIRST, PROBE_LAST = 6, 45
"""50 random sequences of 45 faces; after each prefix of 6 to 45 cards one random candidate
is judged: 50 x 40 = 2,000 probes (OR14), with one ``extend`` per card, not per probe."""


def probes(seed: str = "eleusis/library-probes") -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(sequence, candidates): candidate ``i`` is judged after the first ``PROBE_FIRST + i``
    cards of the sequence. The same on every call."""
    rng = random.Random(seed)
    out = []
    for _ in range(PROBE_SEQUENCES):
        faces = tuple(rng.choice(FACES) for _ in range(PROBE_LAST))
        candidates = tuple(rng.choice(FACES) for _ in range(PROBE_LAST - PROBE_FIRST + 1))
        out.append((faces, candidates))
    return out


def _judgements(rule: Rule, cases: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> Any:
    """The rule's judgement of every probe, lazily, in order."""
    for faces, candidates in cases:
        line = rule.line_of(faces[:PROBE_FIRST])
        for i, candidate in enumerate(candidates):
            yield rule.judge(line, candidate)
            if PROBE_FIRST + i < len(faces):
                line = rule.extend(line, faces[PROBE_FIRST + i])


def library_twin(rule: Rule, count: int = 2000) -> str | None:
    """The id of the first library rule that judges every probe as ``rule`` does (OR14):
    players may know it. Most library rules differ within a few probes. ``count`` is
    rounded to whole sequences of 40 probes."""
    cases = probes()[: max(1, count // (PROBE_LAST - PROBE_FIRST + 1))]
    mine = list(_judgements(rule, cases))
    for entry in library():
        theirs = _judgements(entry.rule(), cases)
        if all(a == b for a, b in zip(mine, theirs, strict=False)):
            return entry.id
    return None


# --- NE-22.4: random walks -------------------------------------------------------------


@dataclass
class _Walks:
    judgements: int = 0
    right_total: int = 0
    min_right: int = FACE_COUNT
    ever_wrong: bool = False
    exhausted_at: int | None = None
    dead_end: Line | None = None
    histogram: list[int] = field(default_factory=lambda: [0] * (FACE_COUNT + 1))
    samples: list[dict[str, Any]] = field(default_factory=list)


def _draw(rng: random.Random, faces: list[int], supply: list[int]) -> int:
    """A face among ``faces`` chosen uniformly by copy (every face has a copy left)."""
    pick = rng.randrange(sum(supply[f] for f in faces))
    for f in faces:
        pick -= supply[f]
        if pick < 0:
            return f
    raise AssertionError("no copy left")


def _walk(rule: Rule, rng: random.Random, settings: SanitySettings, out: _Walks) -> None:
    supply = [settings.decks] * FACE_COUNT
    decks = settings.decks
    line = rule.empty()
    for _ in range(rule.starters_needed):
        starters = [f for f in FACES if rule.may_start(line, f)]
        if not starters:
            out.dead_end = line
            return
        if not any(supply[f] for f in starters):
            supply = [s + 1 for s in supply]
            decks += 1
        face = _draw(rng, [f for f in starters if supply[f]], supply)
        supply[face] -= 1
        line = rule.extend(line, face)
    for _ in range(settings.length):
        rights = rule.right_faces(line)
        k = len(rights)
        out.judgements += FACE_COUNT
        out.right_total += k
        out.histogram[k] += 1
        out.min_right = min(out.min_right, k)
        if k < FACE_COUNT:
            out.ever_wrong = True
        if not rights:
            out.dead_end = line
            return
        usable = [f for f in rights if supply[f]]
        if not usable:
            n = len(line.faces)
            if decks == settings.decks and (out.exhausted_at is None or n < out.exhausted_at):
                out.exhausted_at = n
            supply = [s + 1 for s in supply]
            decks += 1
            usable = rights
        face = rng.choice(usable)  # uniform over the usable right faces (NE-22.4)
        supply[face] -= 1
        line = rule.extend(line, face)
    if len(out.samples) < 3:
        shown = rule.line_of(line.faces[:SAMPLE_LENGTH])
        accepted = set(rule.right_faces(shown))
        wrong = [f for f in FACES if f not in accepted]
        out.samples.append(
            {
                "main_line": _ids(shown.faces),
                "wrong_next": FACE_IDS[rng.choice(wrong)] if wrong else None,
            }
        )


def walks_within_budget(rule: Rule, settings: SanitySettings) -> int:
    """How many of the asked walks fit the step budget (at least one, OR15)."""
    per_walk = settings.length * FACE_COUNT * (rule.cost + JUDGEMENT_OVERHEAD)
    return max(1, min(settings.walks, settings.max_steps // per_walk))


def sanity_check(
    rule: Rule, settings: SanitySettings | None = None, seed: str | None = None
) -> SanityReport:
    """The report of NE-22 for a compiled rule."""
    settings = settings or SanitySettings()
    walks_run = walks_within_budget(rule, settings)
    reasons: list[Reason] = []
    starters = [f for f in FACES if rule.may_start(rule.empty(), f)]
    if not starters:
        reasons.append(Reason("no_starter", "reject", "No card can start the main line."))
    elif len(starters) < settings.warn_starters_below:
        reasons.append(
            Reason(
                "few_starters",
                "warn",
                f"Only {len(starters)} faces can start the main line: {' '.join(_ids(starters))}.",
            )
        )
    exact, exact_states, exact_dead = ("skipped", 0, None)
    walks = _Walks()
    first_turn = None
    if starters:
        exact, exact_states, exact_dead = exact_check(rule, settings.max_exact_states)
        rng = random.Random("eleusis/sanity\n" + (seed if seed is not None else rule.source))
        for _ in range(walks_run):
            _walk(rule, rng, settings, walks)
            if walks.dead_end is not None:
                break
        if rule.lookback == 1 and rule.starters_needed == 1:
            empty = rule.empty()
            first_turn = {
                FACE_IDS[s]: _ids(rule.right_faces(rule.extend(empty, s))) for s in starters
            }
    dead = exact_dead if exact_dead is not None else walks.dead_end
    if dead is not None:
        reasons.append(
            Reason(
                "dead_end",
                "reject",
                "After the main line " + " ".join(_ids(dead.faces)) + " no card is right.",
            )
        )
    points = sum(walks.histogram)
    mean = walks.right_total / (points * FACE_COUNT) if points else 0.0
    if points and dead is None:
        if not walks.ever_wrong:
            reasons.append(Reason("never_wrong", "reject", "Every card was always right."))
        elif mean > settings.reject_above:
            reasons.append(
                Reason("too_permissive", "reject", f"On average {mean:.0%} of the faces are right.")
            )
        elif mean < settings.reject_below:
            reasons.append(
                Reason(
                    "too_restrictive",
                    "reject",
                    f"On average only {mean:.0%} of the faces are right.",
                )
            )
        elif mean > settings.warn_above:
            reasons.append(
                Reason("permissive", "warn", f"On average {mean:.0%} of the faces are right.")
            )
        elif mean < settings.warn_below:
            reasons.append(
                Reason("restrictive", "warn", f"On average only {mean:.0%} of the faces are right.")
            )
        if walks.min_right < settings.warn_min_right:
            reasons.append(
                Reason(
                    "few_right", "warn", f"Some main lines had only {walks.min_right} right faces."
                )
            )
        if walks.exhausted_at is not None and walks.exhausted_at <= settings.warn_exhausted_within:
            reasons.append(
                Reason(
                    "supply",
                    "warn",
                    f"The right copies of {settings.decks} decks ran out after "
                    f"{walks.exhausted_at} main-line cards.",
                )
            )
    verdicts = {r.verdict for r in reasons}
    verdict = "reject" if "reject" in verdicts else "warn" if "warn" in verdicts else "ok"
    return SanityReport(
        verdict=verdict,
        reasons=reasons,
        lookback=rule.lookback,
        cost=rule.cost,
        starter_faces=_ids(starters),
        exact=exact,
        exact_states=exact_states,
        walks=walks_run,
        walks_reduced_from=settings.walks if walks_run < settings.walks else None,
        judgements=walks.judgements,
        mean_share=mean,
        min_right=walks.min_right if points else 0,
        histogram=walks.histogram,
        ever_wrong=walks.ever_wrong,
        exhausted_at=walks.exhausted_at,
        dead_end=_ids(dead.faces) if dead is not None else None,
        first_turn=first_turn,
        samples=walks.samples,
        features=sorted(rule.program.features),
        like_library=library_twin(rule, settings.library_probes)
        if settings.library_probes
        else None,
    )
