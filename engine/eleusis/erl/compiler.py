"""ERL compiled to Python closures (NE-21.9). User text is never passed to eval or exec.

Every closure reads one environment list ``e``:

- ``e[0]`` the candidate face (``card``), ``e[1]`` the visited face (``c``),
- ``e[2]`` the main line (a tuple of faces), ``e[3]`` the folded state values,
- ``e[4]`` the kept aggregate values, ``e[5]`` the state value inside a state step,
- ``e[6 + i]`` the value of ``let`` number ``i``.

A :class:`Line` is an immutable main line together with what is kept incrementally:
the state values and, per aggregate, one running value ("inc"), 52 running values, one
per candidate face ("inc_card"), or the value for this line ("line"); "general"
aggregates are recomputed by every judgement (their cost is bounded by the cost model).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

from engine.eleusis.erl.checker import Aggregate, Program
from engine.eleusis.erl.errors import ErlError
from engine.eleusis.erl.tree import Node
from engine.eleusis.faces import ATTRIBUTES, COLOR_INDEX, FACES, SUIT_COLOR, SUIT_INDEX

Env = list[Any]
Fn = Callable[[Env], Any]
CARD, C, FACE_LINE, STATES, AGGS, STEP, LET0 = range(7)

COST_LINE_LENGTH = 300
COST_BUDGET = 20_000
"""Cost model of NE-21.6 (Our ruling OR05): evaluation steps of one judgement on a main
line of 300 cards. 20,000 steps take under 2 ms here (docs/eleusis.md, measured)."""

_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin with the first 13 primes as bases: exact for n below
    3.3e24, bounded work for any n (Our ruling OR04)."""
    if n < 2:
        return False
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def internal(value: int | bool | str) -> int | bool:
    """A constant as the evaluator holds it: suits 0..3, colours 0 (red) / 1 (black)."""
    if isinstance(value, str):
        return SUIT_INDEX[value] if value in SUIT_INDEX else COLOR_INDEX[value]
    return value


class Line(NamedTuple):
    """A main line and its incremental evaluation state (immutable)."""

    faces: tuple[int, ...]
    states: tuple[Any, ...]
    aggs: tuple[Any, ...]


class _Fold(NamedTuple):
    init: Any
    step: Callable[[Any, Any], Any]


_FOLDS: dict[str, _Fold] = {
    "count": _Fold(0, lambda acc, v: acc + 1 if v else acc),
    "any": _Fold(False, lambda acc, v: acc or bool(v)),
    "all": _Fold(True, lambda acc, v: acc and bool(v)),
    "sum": _Fold(0, operator.add),
    "run": _Fold(0, lambda acc, v: acc + 1 if v else 0),
}


def _over_line(op: str, pred: Fn) -> Fn:
    """The aggregate recomputed over the whole main line ``e[2]``."""
    if op == "run":

        def run(e: Env) -> int:
            n = 0
            for f in reversed(e[FACE_LINE]):
                e[C] = f
                if not pred(e):
                    break
                n += 1
            return n

        return run
    if op == "count":

        def count(e: Env) -> int:
            n = 0
            for f in e[FACE_LINE]:
                e[C] = f
                if pred(e):
                    n += 1
            return n

        return count
    if op == "sum":

        def total(e: Env) -> int:
            n = 0
            for f in e[FACE_LINE]:
                e[C] = f
                n += pred(e)
            return n

        return total
    want = op == "all"

    def quantifier(e: Env) -> bool:
        for f in e[FACE_LINE]:
            e[C] = f
            if bool(pred(e)) is not want:
                return not want
        return want

    return quantifier


class Compiler:
    def __init__(self, program: Program) -> None:
        self.program = program
        self.aggs: dict[int, Aggregate] = {id(a.node): a for a in program.aggregates}
        self.preds: dict[int, Fn] = {}
        self.step_state: int | None = None

    def let_plan(self, indexes: set[int]) -> list[tuple[int, Fn]]:
        return [(LET0 + i, self.fn(self.program.lets[i].node)) for i in sorted(indexes)]

    def fn(self, node: Node) -> Fn:
        k, a = node.kind, node.args
        if k in ("int", "bool", "suit", "color"):
            v = internal(a[0])
            return lambda e: v
        if k == "name":
            return self.name(a[0])
        if k == "attr":
            table = ATTRIBUTES[a[1]][1]
            ref = a[0].args[0]
            if ref == "card":
                return lambda e: table[e[CARD]]
            if ref == "c":
                return lambda e: table[e[C]]
            if ref == "first":
                return lambda e: table[e[FACE_LINE][0]]
            back = -1 if ref == "prev" else -int(ref[4:])
            return lambda e: table[e[FACE_LINE][back]]
        if k == "call":
            return self.call(node)
        if k == "neg":
            x = self.fn(a[0])
            return lambda e: -x(e)
        if k == "not":
            x = self.fn(a[0])
            return lambda e: not x(e)
        if k == "arith":
            op, left, right = a
            lf = self.fn(left)
            if op == "mod":
                m = right.args[0]
                return lambda e: lf(e) % m
            rf = self.fn(right)
            if op == "+":
                return lambda e: lf(e) + rf(e)
            if op == "-":
                return lambda e: lf(e) - rf(e)
            return lambda e: lf(e) * rf(e)
        if k == "cmp":
            cmp = _CMP[a[0]]
            lf, rf = self.fn(a[1]), self.fn(a[2])
            return lambda e: cmp(lf(e), rf(e))
        if k == "logic":
            op = a[0]
            lf, rf = self.fn(a[1]), self.fn(a[2])
            if op == "and":
                return lambda e: lf(e) and rf(e)
            if op == "or":
                return lambda e: lf(e) or rf(e)
            if op == "xor":
                return lambda e: lf(e) != rf(e)
            return lambda e: (not lf(e)) or rf(e)
        if k in ("in", "notin"):
            x = self.fn(a[0])
            coll = a[1]
            if coll.kind == "set":
                items = frozenset(internal(c.value) for c in coll.args[0])
                if k == "in":
                    return lambda e: x(e) in items
                return lambda e: x(e) not in items
            lo, hi = self.fn(coll.args[0]), self.fn(coll.args[1])
            if k == "in":
                return lambda e: lo(e) <= x(e) <= hi(e)
            return lambda e: not lo(e) <= x(e) <= hi(e)
        if k == "if":
            cf, yf, nf = self.fn(a[0]), self.fn(a[1]), self.fn(a[2])
            return lambda e: yf(e) if cf(e) else nf(e)
        if k == "case":
            subject = self.fn(a[0])
            arms: dict[Any, Fn] = {}
            default: Fn | None = None
            for labels, body in a[1]:
                bf = self.fn(body)
                if labels is None:
                    default = bf
                else:
                    for label in labels:
                        arms[internal(label.value)] = bf
            if default is None:  # the checker proved the labels cover every value
                return lambda e: arms[subject(e)](e)
            fallback = default
            return lambda e: arms.get(subject(e), fallback)(e)
        raise AssertionError(k)

    def name(self, name: str) -> Fn:
        if name == "len":
            return lambda e: len(e[FACE_LINE])
        kind, index = self.lookup(name)
        if kind == "state":
            if index == self.step_state:
                return lambda e: e[STEP]
            return lambda e: e[STATES][index]
        slot = LET0 + index
        return lambda e: e[slot]

    def lookup(self, name: str) -> tuple[str, int]:
        for i, st in enumerate(self.program.states):
            if st.name == name:
                return ("state", i)
        for i, let in enumerate(self.program.lets):
            if let.name == name:
                return ("let", i)
        raise AssertionError(name)  # the checker resolved every name

    def call(self, node: Node) -> Fn:
        fname, args = node.args
        agg = self.aggs.get(id(node))
        if agg is not None:
            pred = self.fn(args[0])
            self.preds[agg.index] = pred
            j = agg.index
            if agg.kind in ("inc", "line"):
                return lambda e: e[AGGS][j]
            if agg.kind == "inc_card":
                return lambda e: e[AGGS][j][e[CARD]]
            # "general": the lets it reads were evaluated before the accept expression.
            return _over_line(agg.op, pred)
        fs = [self.fn(x) for x in args]
        if fname == "abs":
            f0 = fs[0]
            return lambda e: abs(f0(e))
        if fname in ("min", "max"):
            f0, f1 = fs
            pick = min if fname == "min" else max
            return lambda e: pick(f0(e), f1(e))
        if fname == "isprime":
            f0 = fs[0]
            return lambda e: is_prime(f0(e))
        if fname == "succ":
            f0 = fs[0]
            return lambda e: (f0(e) + 1) % 4
        if fname == "pred":
            f0 = fs[0]
            return lambda e: (f0(e) + 3) % 4
        f0 = fs[0]
        return lambda e: SUIT_COLOR[f0(e)]


def cost(program: Program) -> int:
    """Evaluation steps of one judgement on a main line of 300 cards (OR05)."""
    aggs = {id(a.node): a for a in program.aggregates}

    def size(node: Node) -> int:
        agg = aggs.get(id(node))
        if agg is not None:
            inner = size(node.args[1][0])
            return 1 + (COST_LINE_LENGTH * inner if agg.kind == "general" else 0)
        return 1 + sum(size(child) for child in node.children())

    def total(body: Node | None, lets: set[int]) -> int:
        if body is None:
            return 0
        return size(body) + sum(size(program.lets[i].node) for i in lets)

    return max(
        total(program.accept, program.accept_facts.lets),
        total(program.start, program.start_facts.lets),
    )


class Evaluator:
    """The judging half of a compiled rule (see :class:`engine.eleusis.erl.Rule`)."""

    def __init__(self, program: Program) -> None:
        self.program = program
        steps_units = cost(program)
        if steps_units > COST_BUDGET:
            general = [a for a in program.aggregates if a.kind == "general"]
            where = general[0].node.pos if general else program.accept.pos
            raise ErlError(
                "too_slow",
                f"A judgement would take about {steps_units:,} steps on a main line of "
                f"{COST_LINE_LENGTH} cards (at most {COST_BUDGET:,}): an aggregate that uses "
                "both card and the previous cards or len recounts the whole main line for "
                "every judgement.",
                where,
            )
        self.cost = steps_units
        comp = Compiler(program)
        self.n_slots = LET0 + len(program.lets)
        self.accept = comp.fn(program.accept)
        self.start = comp.fn(program.start) if program.start is not None else None
        lets = program.lets
        acc = program.accept_facts.lets
        self.accept_lets = comp.let_plan(acc)
        self.accept_fixed = comp.let_plan({i for i in acc if not lets[i].facts.card})
        self.accept_varying = comp.let_plan({i for i in acc if lets[i].facts.card})
        self.start_lets = comp.let_plan(program.start_facts.lets)
        comp.let_plan(set(range(len(lets))))  # every aggregate gets its predicate compiled
        self.steps: list[tuple[Fn, int | None]] = []
        for i, st in enumerate(program.states):
            comp.step_state = i
            self.steps.append((comp.fn(st.node), st.modulus))
        comp.step_state = None
        self.state0 = tuple(internal(st.start) for st in program.states)
        self.agg_plan: list[tuple[Aggregate, Fn, list[tuple[int, Fn]], int]] = []
        for agg in program.aggregates:
            need = max(agg.facts.lookback, 1 if agg.facts.first else 0)
            pred = comp.preds[agg.index]
            if agg.kind == "line":
                pred = _over_line(agg.op, pred)
            self.agg_plan.append((agg, pred, comp.let_plan(agg.facts.lets), need))
        self.aggs0 = tuple(self._initial(agg) for agg, _, _, _ in self.agg_plan)
        self.lookback = program.lookback

    @staticmethod
    def _initial(agg: Aggregate) -> Any:
        init = _FOLDS[agg.op].init
        if agg.kind == "inc_card":
            return (init,) * 52
        if agg.kind == "line":
            return init if agg.facts.lookback == 0 and not agg.facts.first else None
        return init

    def env(self, line: Line, face: int) -> Env:
        e: Env = [None] * self.n_slots
        e[CARD] = face
        e[FACE_LINE] = line.faces
        e[STATES] = line.states
        e[AGGS] = line.aggs
        return e

    def empty(self) -> Line:
        return Line((), self.state0, self.aggs0)

    def extend(self, line: Line, face: int) -> Line:
        faces = (*line.faces, face)
        e = self.env(line, face)
        e[C] = face
        states = []
        for (step, modulus), value in zip(self.steps, line.states, strict=True):
            e[STEP] = value
            new = step(e)
            states.append(new % modulus if modulus is not None else new)
        new_states = tuple(states)
        aggs: list[Any] = []
        for (agg, pred, lets, need), old in zip(self.agg_plan, line.aggs, strict=True):
            fold = _FOLDS[agg.op].step
            if agg.kind == "inc":
                e[C] = face
                for slot, let in lets:
                    e[slot] = let(e)
                aggs.append(fold(old, pred(e)))
            elif agg.kind == "inc_card":
                values = []
                for f in FACES:
                    e[CARD] = f
                    e[C] = face
                    for slot, let in lets:
                        e[slot] = let(e)
                    values.append(fold(old[f], pred(e)))
                aggs.append(tuple(values))
            elif agg.kind == "line":
                if len(faces) < need:
                    aggs.append(None)
                    continue
                le = self.env(Line(faces, new_states, ()), 0)
                for slot, let in lets:
                    le[slot] = let(le)
                aggs.append(pred(le))  # pred is the whole-line loop here
            else:
                aggs.append(None)
        return Line(faces, new_states, tuple(aggs))

    def judge(self, line: Line, face: int) -> bool:
        e = self.env(line, face)
        for slot, let in self.accept_lets:
            e[slot] = let(e)
        return bool(self.accept(e))

    def right_faces(self, line: Line) -> list[int]:
        """Every face the rule accepts next, in face order (52 judgements)."""
        e = self.env(line, 0)
        for slot, let in self.accept_fixed:
            e[slot] = let(e)
        varying, accept = self.accept_varying, self.accept
        out = []
        for f in FACES:
            e[CARD] = f
            for slot, let in varying:
                e[slot] = let(e)
            if accept(e):
                out.append(f)
        return out

    def may_start(self, line: Line, face: int) -> bool:
        """Whether ``face`` may be the next starter card (NE-21.5.3)."""
        if self.lookback == 0 and not self.judge(line, face):
            return False
        if self.start is None:
            return True
        e = self.env(line, face)
        for slot, let in self.start_lets:
            e[slot] = let(e)
        return bool(self.start(e))
