"""ERL, the rule language of New Eleusis (NE-21), version ``erl-1``.

>>> rule = compile_rule("accept card.color != prev.color")
>>> line = rule.extend(rule.empty(), parse_face("9D"))
>>> rule.judge(line, parse_face("10S")), rule.judge(line, parse_face("3H"))
(True, False)

:func:`compile_rule` parses, checks (NE-21.6) and compiles a source, or raises
:class:`ErlError` with one of the codes of NE-21.10 and a line and column. The compiled
:class:`Rule` judges cards against immutable :class:`Line` values (NE-21.5).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from engine.eleusis.erl.canonical import expr_source, to_source
from engine.eleusis.erl.checker import Program, check
from engine.eleusis.erl.compiler import COST_BUDGET, Evaluator, Line
from engine.eleusis.erl.errors import ERROR_CODES, ErlError
from engine.eleusis.erl.lexer import MAX_SOURCE, normalise
from engine.eleusis.erl.parser import parse
from engine.eleusis.erl.tree import Json
from engine.eleusis.faces import parse_face

LANGUAGE = "erl-1"

__all__ = [
    "COST_BUDGET",
    "ERROR_CODES",
    "LANGUAGE",
    "MAX_SOURCE",
    "ErlError",
    "Line",
    "Rule",
    "canonical",
    "compile_rule",
    "expr_source",
    "normalise",
    "parse_face",
    "to_source",
]


class Rule:
    """A compiled rule. Judging is a pure function of (rule, main line, candidate face)."""

    def __init__(self, source: str, program: Program, canonical_form: Json) -> None:
        self.source = source
        self.program = program
        self.canonical = canonical_form
        self._ev = Evaluator(program)
        self.lookback: int = program.lookback
        self.starters_needed: int = max(1, program.lookback)
        self.cost: int = self._ev.cost

    def empty(self) -> Line:
        """The empty main line."""
        return self._ev.empty()

    def extend(self, line: Line, face: int) -> Line:
        """The main line with ``face`` added at its end."""
        return self._ev.extend(line, face)

    def line_of(self, faces: Iterable[int]) -> Line:
        line = self._ev.empty()
        for face in faces:
            line = self._ev.extend(line, face)
        return line

    def _check_length(self, line: Line) -> None:
        if len(line.faces) < self.lookback:
            raise ValueError(
                f"The rule looks back {self.lookback} card(s); the main line has "
                f"{len(line.faces)} (use may_start while drawing starters)."
            )

    def judge(self, line: Line, face: int) -> bool:
        """J(M, x) of NE-21.5.1; ``line`` holds at least :attr:`lookback` cards
        (``ValueError`` otherwise; in play it holds :attr:`starters_needed`)."""
        if len(line.faces) < self.lookback:
            self._check_length(line)
        return self._ev.judge(line, face)

    def right_faces(self, line: Line) -> list[int]:
        """The faces that would be right next, in face order."""
        self._check_length(line)
        return self._ev.right_faces(line)

    def judge_string(self, line: Line, faces: Iterable[int]) -> bool:
        """A string is right iff each card is right after the ones before it (NE-8.2)."""
        self._check_length(line)
        for face in faces:
            if not self._ev.judge(line, face):
                return False
            line = self._ev.extend(line, face)
        return True

    def no_play_correct(self, line: Line, hand: Iterable[int]) -> bool:
        """A no-play declaration is correct iff no card of the hand is right (E14)."""
        self._check_length(line)
        return not any(self._ev.judge(line, face) for face in hand)

    def may_start(self, line: Line, face: int) -> bool:
        """Whether ``face`` may be the next starter card while the line is shorter than
        :attr:`starters_needed` (NE-21.5.3)."""
        return self._ev.may_start(line, face)


@functools.lru_cache(maxsize=256)
def compile_rule(source: str) -> Rule:
    """The compiled rule of a source; raises :class:`ErlError`."""
    text = normalise(source)
    statements, end = parse(text)
    program = check(statements, end)
    return Rule(text, program, [st.to_json() for st in statements])


def canonical(source: str) -> Json:
    """The canonical form of a valid source (NE-21.8); raises :class:`ErlError`."""
    return compile_rule(source).canonical
