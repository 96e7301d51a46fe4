"""Measures of the ERL evaluator, run by ``python -m engine.bench --game eleusis``.

Pure: the caller passes the clock (the command-line entry point, engine/bench.py, owns
time and printing). For every library rule (NE-25): a 300-card main line is grown from
the rule's starters with right faces drawn from a seeded ``random.Random``, then single
judgements (``Rule.judge``) of all 52 faces after it are timed, and the same as one
``right_faces`` call (52 judgements sharing the card-independent ``let``s).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.eleusis.erl import Line, Rule, compile_rule
from engine.eleusis.faces import FACES
from engine.eleusis.library import library
from engine.eleusis.sanity import SanitySettings, sanity_check

Clock = Callable[[], float]
LINE_LENGTH = 300

BUDGET_RULE = (
    "accept ("
    + " + ".join(["count(c.rank + card.rank > prev.rank + len)"] * 6)
    + ") mod 2 == card.rank mod 2"
)
"""Six aggregates recounted for every judgement, just under the cost budget (OR05); its
main line is random faces (growing a right one would take minutes)."""


@dataclass
class Figure:
    name: str
    judge_per_s: float  # single judgements per second
    batch_per_s: float  # judgements per second through right_faces
    cost: int  # the cost model's steps (OR05)
    right_share: float  # share of right faces after the main line


def main_line(rule: Rule, length: int, rng: random.Random, right: bool = True) -> Line:
    """A main line of ``length`` cards: starters by the start condition, then right faces
    (or any faces if not ``right``)."""
    if not right:
        return rule.line_of(rng.choice(FACES) for _ in range(length))
    line = rule.empty()
    while len(line.faces) < rule.starters_needed:
        line = rule.extend(line, rng.choice([f for f in FACES if rule.may_start(line, f)]))
    while len(line.faces) < length:
        line = rule.extend(line, rng.choice(rule.right_faces(line)))
    return line


def measure(
    name: str, rule: Rule, clock: Clock, seconds: float, seed: int = 1, right: bool = True
) -> Figure:
    line = main_line(rule, LINE_LENGTH, random.Random(seed), right)
    judge, right_faces = rule.judge, rule.right_faces
    done, start = 0, clock()
    while True:
        for f in FACES:
            judge(line, f)
        done += len(FACES)
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    single = done / elapsed
    done, start = 0, clock()
    while True:
        right_faces(line)
        done += len(FACES)
        elapsed = clock() - start
        if elapsed >= seconds:
            break
    return Figure(name, single, done / elapsed, rule.cost, len(right_faces(line)) / 52)


def library_figures(clock: Clock, seconds: float) -> Iterator[Figure]:
    for entry in library():
        yield measure(f"{entry.id} {entry.key}", entry.rule(), clock, seconds)
    yield measure("budget (OR05)", compile_rule(BUDGET_RULE), clock, seconds, right=False)


@dataclass
class SanityFigure:
    name: str
    verdict: str
    listed: str  # the verdict NE-25.2 lists
    mean_share: float
    exhausted_at: int | None
    walks: int
    seconds: float


def sanity_figures(clock: Clock, walks: int) -> Iterator[SanityFigure]:
    """The full check of NE-22 (``walks`` x 100 cards, library probes included) on every
    library rule and the budget rule, timed."""
    rules = [(f"{e.id} {e.key}", e.rule(), e.verdict) for e in library()]
    rules.append(("budget (OR05)", compile_rule(BUDGET_RULE), "-"))
    for name, rule, listed in rules:
        start = clock()
        report = sanity_check(rule, SanitySettings(walks=walks))
        yield SanityFigure(
            name,
            report.verdict,
            listed,
            report.mean_share,
            report.exhausted_at,
            report.walks,
            clock() - start,
        )
