"""The scientist's generated family (NE-30.2's fallback): ERL programs beyond the truth-table
families, judged by the compiled rule itself.

NE-30.2 samples random programs when the families are emptied by the evidence. We
enumerate instead (OR43): a fixed list of a few thousand programs from templates of the
shapes the table families cannot hold: relations to ``prev2``..``prev4`` and to ``first``,
conditionals on how the last two cards relate, sums of the last three ranks, positions
(``isprime(len + k)``), parities of counts, the minority colour, running sums and runs.
A fixed list keeps the bot deterministic and its cost bounded; every program compiles
(tested) and has a size in half units for the prior.

A program is judged on the round's real main line (prefix lines built once per program
and evidence), so it is used only where that is cheap: when the starter count says the
rule looks back two cards or more (``max(1, L)`` starters, E09: no table family can be the
rule then), or when no hypothesis of the table families survives.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from engine.eleusis.erl import Line, Rule, compile_rule
from engine.eleusis.science import atoms
from engine.eleusis.science.evidence import Evidence


@dataclass(frozen=True)
class Program:
    source: str
    half_size: int


_CORE_RELATIONS = atoms.CORE_RELATION_TEXTS
_CORE_UNARIES = tuple(u.replace("@", "card") for u in atoms.CORE_UNARY_TEXTS)
_PAIRS = ("color", "suit", "even", "face")
_BOOL_ATTRS = ("red", "black", "even", "odd", "face", "number")


def _relation_to(ref: str, relation: str) -> str:
    return relation.replace("prev.", f"{ref}.")


def _templates() -> list[Program]:
    out: list[Program] = []
    for ref in ("prev2", "prev3", "prev4"):
        extra = {"prev2": 1, "prev3": 2, "prev4": 3}[ref]
        for relation in atoms.RELATIONS:
            out.append(Program(f"accept {_relation_to(ref, relation.text)}", 3 + extra))
    for relation in atoms.RELATIONS:
        out.append(Program(f"accept {_relation_to('first', relation.text)}", 4))
    first_core = [_relation_to("first", r) for r in _CORE_RELATIONS]
    for i, a in enumerate(first_core):
        for b in first_core[i + 1 :]:
            out.append(Program(f"accept ({a}) or ({b})", 9))
            out.append(Program(f"accept ({a}) and ({b})", 9))
    branches = _CORE_RELATIONS + _CORE_UNARIES
    for attr in _PAIRS:
        for a in branches:
            for b in branches:
                if a != b:
                    source = f"accept if prev.{attr} == prev2.{attr} then {a} else {b}"
                    out.append(Program(source, 16))
    for m in (2, 3, 4):
        for r in range(m):
            source = f"accept (card.rank + prev.rank + prev2.rank) mod {m} == {r}"
            out.append(Program(source, 10))
    for attr in _BOOL_ATTRS:
        for k in (0, 1, 2):
            out.append(Program(f"accept card.{attr} == isprime(len + {k})", 8))
        for counted in _BOOL_ATTRS:
            for r in (0, 1):
                source = f"accept card.{attr} == (count(c.{counted}) mod 2 == {r})"
                out.append(Program(source, 10))
    for attr, other in (("red", "black"), ("even", "odd"), ("face", "number")):
        for tie in ("card.color != prev.color", "card.suit != prev.suit", f"card.{attr}"):
            source = (
                f"let n = count(c.{attr}) accept if n > len - n then card.{other} "
                f"else if len - n > n then card.{attr} else {tie}"
            )
            out.append(Program(source, 16))
    for m in (2, 3, 4):
        for residues in range(1, 2**m - 1):
            chosen = ", ".join(str(r) for r in range(m) if residues >> r & 1)
            source = f"accept (card.rank - sum(c.rank)) mod {m} in {{{chosen}}}"
            out.append(Program(source, 10))
    for attr in ("suit", "color", "even"):
        for k in (2, 3, 4):
            source = (
                f"accept if run(c.{attr} == prev.{attr}) >= {k} then card.{attr} != prev.{attr} "
                f"else card.{attr} == prev.{attr}"
            )
            out.append(Program(source, 12))
    return out


@functools.cache
def programs() -> tuple[Program, ...]:
    """The generated family, in a fixed order."""
    return tuple(_templates())


@functools.cache
def compiled(source: str) -> Rule:
    """A program's compiled rule (cached for the process; ``compile_rule`` keeps 256)."""
    return compile_rule(source)


def lookback(program: Program) -> int:
    return compiled(program.source).lookback


Check = tuple[int, int, tuple[int, ...]]
"""(n, kind, faces): a judgement after the first n main-line cards. Kinds: 0 right,
1 wrong, 2 a wrong string (not all right in sequence), 3 some card right."""


def checks(ev: Evidence) -> list[Check]:
    """The evidence as checks in main-line order, so that a program that fails early is
    dropped before the lines of later positions are built."""
    out: list[Check] = [(n, 0, (card,)) for n, _, card in ev.right]
    out += [(n, 1, (card,)) for n, _, card in ev.wrong]
    out += [(cells[0][0], 2, tuple(c for _, _, c in cells)) for cells in ev.wrong_strings]
    out += [(cells[0][0], 3, tuple(c for _, _, c in cells)) for cells in ev.some_right]
    out.sort()
    return out


class Judged:
    """One program over one main line: the lines of its prefixes, built as far as they
    are asked for (from the first position the program can judge), and judgements."""

    def __init__(self, rule: Rule, main: Sequence[int]) -> None:
        self.rule = rule
        self.main = tuple(main)
        self.lines: dict[int, Line] = {}
        self._line = rule.empty()
        self._folded = 0

    def line(self, n: int) -> Line | None:
        """The line of the first ``n`` main-line cards, or None where the program cannot
        judge (fewer cards than its lookback needs, or more than the main line has)."""
        if n < self.rule.starters_needed or n > len(self.main):
            return None
        while self._folded < n:
            self._line = self.rule.extend(self._line, self.main[self._folded])
            self._folded += 1
            if self._folded >= self.rule.starters_needed:
                self.lines[self._folded] = self._line
        return self.lines[n]

    def violations(self, ordered: Sequence[Check], limit: int | None = None) -> int:
        """How many checks (:func:`checks`) the program contradicts, stopping at
        ``limit``: a judgement at a position it cannot judge counts against it."""
        rule, count = self.rule, 0
        for n, kind, faces in ordered:
            line = self.line(n)
            if line is None:
                ok = False
            elif kind == 0:
                ok = rule.judge(line, faces[0])
            elif kind == 1:
                ok = not rule.judge(line, faces[0])
            elif kind == 2:
                ok = not rule.judge_string(line, faces)
            else:
                ok = any(rule.judge(line, f) for f in faces)
            if not ok:
                count += 1
                if limit is not None and count >= limit:
                    return count
        return count
