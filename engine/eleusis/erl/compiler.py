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
from engine.eleusis.erl.primes import is_prime
from engine.eleusis.erl.tree import Node
from engine.eleusis.faces import ATTRIBUTES, COLOR_INDEX, FACES, SUIT_COLOR, SUIT_INDEX

Env = list[Any]
Fn = Callable[[Env], Any]
CARD, C, FACE_LINE, STATES, AGGS, STEP, LET0 = range(7)

COST_LINE_LENGTH = 300
COST_BUDGET = 20_000
"""Cost model of NE-21.6 (Our ruling OR05): evaluation steps of one judgement on a main
line of 300 cards. 20,000 steps take under 2 ms here (docs/eleusis.md, measured)."""


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
        self.hoisting = False
        self.hoisted: list[tuple[int, Fn]] = []
        self.next_slot = LET0 + len(program.lets)

    def uses_card(self, node: Node) -> bool:
        """Whether the value of ``node`` depends on the candidate card."""
        k, a = node.kind, node.args
        if k == "attr":
            return bool(a[0].args[0] == "card")
        if k == "name":
            if a[0] in ("len", "card"):
                return a[0] == "card"
            kind, index = self.lookup(a[0])
            return kind == "let" and self.program.lets[index].facts.card
        if k == "call" and id(node) in self.aggs:
            return self.aggs[id(node)].kind in ("inc_card", "general")
        if k == "case":
            return self.uses_card(a[0]) or any(self.uses_card(body) for _, body in a[1])
        return any(self.uses_card(child) for child in node.children())

    def hoisted_fn(self, node: Node) -> Fn | None:
        """While compiling ``accept``: a part that does not depend on the candidate card
        (``(prev.rank + 1) mod 13``, ``isprime(len + 1)``, ``count(c.red)``) gets a slot
        of its own, filled once per judgement, or once for all 52 faces in
        ``right_faces``, and read by a C-level item getter."""
        if node.kind in ("int", "bool", "suit", "color", "name", "attr") or self.uses_card(node):
            return None
        self.hoisting = False
        try:
            f = self.fn(node)
        finally:
            self.hoisting = True
        slot = self.next_slot
        self.next_slot += 1
        self.hoisted.append((slot, f))
        return operator.itemgetter(slot)

    def let_plan(self, indexes: set[int]) -> list[tuple[int, Fn]]:
        return [(LET0 + i, self.fn(self.program.lets[i].node)) for i in sorted(indexes)]

    def fn(self, node: Node) -> Fn:
        if self.hoisting:
            hoisted = self.hoisted_fn(node)
            if hoisted is not None:
                return hoisted
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
        if k == "arith" and a[0] == "+" and self.hoisting:
            return self.addition(node)
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
            return self.compare(a[0], a[1], a[2])
        if k == "logic":
            op = a[0]
            if op in ("and", "or"):
                return self.chain(op, node)
            lf, rf = self.fn(a[1]), self.fn(a[2])
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

    def addition(self, node: Node) -> Fn:
        """``a + b + c`` while hoisting: integer addition is associative and commutative,
        so the terms that do not depend on the card are added once, as one hoisted part
        (``card.rank + prev.rank + prev2.rank`` sums the previous ranks once for all 52
        faces)."""
        terms: list[Node] = []

        def flatten(n: Node) -> None:
            if n.kind == "arith" and n.args[0] == "+":
                flatten(n.args[1])
                flatten(n.args[2])
            else:
                terms.append(n)

        flatten(node)
        varying = [t for t in terms if self.uses_card(t)]
        fixed = [t for t in terms if not self.uses_card(t)]
        fs = [self.fn(t) for t in varying]
        if len(fixed) > 1:
            fixed_sum = fixed[0]
            for t in fixed[1:]:
                height = max(fixed_sum.height, t.height) + 1
                fixed_sum = Node("arith", t.pos, ("+", fixed_sum, t), height)
            fs.append(self.fn(fixed_sum))
        else:
            fs.extend(self.fn(t) for t in fixed)
        if len(fs) == 2:
            f0, f1 = fs
            return lambda e: f0(e) + f1(e)
        if len(fs) == 3:
            f0, f1, f2 = fs
            return lambda e: f0(e) + f1(e) + f2(e)
        return lambda e: sum(f(e) for f in fs)

    def chain(self, op: str, node: Node) -> Fn:
        """``a and b and c ...`` (or ``or``) as one closure over its operands, in order,
        short-circuiting as Python does (one call instead of one per ``and``)."""
        parts: list[Node] = []

        def flatten(n: Node) -> None:
            if n.kind == "logic" and n.args[0] == op:
                flatten(n.args[1])
                flatten(n.args[2])
            else:
                parts.append(n)

        flatten(node)
        fs = [self.fn(part) for part in parts]
        if op == "and":
            if len(fs) == 2:
                f0, f1 = fs
                return lambda e: f0(e) and f1(e)
            if len(fs) == 3:
                f0, f1, f2 = fs
                return lambda e: f0(e) and f1(e) and f2(e)
            if len(fs) == 4:
                f0, f1, f2, f3 = fs
                return lambda e: f0(e) and f1(e) and f2(e) and f3(e)
            if len(fs) == 5:
                f0, f1, f2, f3, f4 = fs
                return lambda e: f0(e) and f1(e) and f2(e) and f3(e) and f4(e)
            return lambda e: all(f(e) for f in fs)
        if len(fs) == 2:
            g0, g1 = fs
            return lambda e: g0(e) or g1(e)
        if len(fs) == 3:
            g0, g1, g2 = fs
            return lambda e: g0(e) or g1(e) or g2(e)
        if len(fs) == 4:
            g0, g1, g2, g3 = fs
            return lambda e: g0(e) or g1(e) or g2(e) or g3(e)
        return lambda e: any(f(e) for f in fs)

    def compare(self, op: str, left: Node, right: Node) -> Fn:
        """A comparison, one closure per operator (no operator-module call per judgement),
        with a constant right side read once (``card.rank <= 7``)."""
        lf = self.fn(left)
        if right.kind in ("int", "bool", "suit", "color"):
            c = internal(right.args[0])
            if op == "==":
                return lambda e: lf(e) == c
            if op == "!=":
                return lambda e: lf(e) != c
            if op == "<":
                return lambda e: lf(e) < c
            if op == "<=":
                return lambda e: lf(e) <= c
            if op == ">":
                return lambda e: lf(e) > c
            return lambda e: lf(e) >= c
        rf = self.fn(right)
        if op == "==":
            return lambda e: lf(e) == rf(e)
        if op == "!=":
            return lambda e: lf(e) != rf(e)
        if op == "<":
            return lambda e: lf(e) < rf(e)
        if op == "<=":
            return lambda e: lf(e) <= rf(e)
        if op == ">":
            return lambda e: lf(e) > rf(e)
        return lambda e: lf(e) >= rf(e)

    def name(self, name: str) -> Fn:
        if name == "len":
            return lambda e: len(e[FACE_LINE])
        kind, index = self.lookup(name)
        if kind == "state":
            if index == self.step_state:
                return lambda e: e[STEP]
            return lambda e: e[STATES][index]
        return operator.itemgetter(LET0 + index)

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
            hoisting, self.hoisting = self.hoisting, False  # c changes inside
            try:
                pred = self.fn(args[0])
            finally:
                self.hoisting = hoisting
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
        comp.hoisting = True
        self.accept = comp.fn(program.accept)
        comp.hoisting = False
        self.hoisted = comp.hoisted
        self.n_slots = comp.next_slot
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
        self._tables: list[Any] | None = None
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
        tables = self._tables if self._tables is not None else self._tabulate()
        for (agg, pred, lets, need), old, table in zip(
            self.agg_plan, line.aggs, tables, strict=True
        ):
            fold = _FOLDS[agg.op].step
            if agg.kind == "inc":
                aggs.append(fold(old, table[face]))
            elif agg.kind == "inc_card":
                aggs.append(tuple(map(fold, old, table[face])))
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

    def _tabulate(self) -> list[Any]:
        """The predicate values of the incremental aggregates, computed once per rule
        (NE-21.9): an ``inc`` predicate reads only ``c`` (52 values), an ``inc_card`` one
        only ``c`` and ``card`` (52 x 52), so extending a line folds looked-up values."""
        tables: list[Any] = []
        e: Env = [None] * self.n_slots
        for agg, pred, lets, _ in self.agg_plan:
            if agg.kind not in ("inc", "inc_card"):
                tables.append(None)
                continue
            rows = []
            for c in FACES:
                values = []
                for f in FACES if agg.kind == "inc_card" else (0,):
                    e[CARD], e[C] = f, c
                    for slot, let in lets:
                        e[slot] = let(e)
                    values.append(pred(e))
                rows.append(tuple(values) if agg.kind == "inc_card" else values[0])
            tables.append(tuple(rows))
        self._tables = tables
        return tables

    def judge(self, line: Line, face: int) -> bool:
        e = self.env(line, face)
        for slot, let in self.accept_lets:
            e[slot] = let(e)
        for slot, part in self.hoisted:
            e[slot] = part(e)
        return bool(self.accept(e))

    def right_faces(self, line: Line) -> list[int]:
        """Every face the rule accepts next, in face order (52 judgements)."""
        e = self.env(line, 0)
        for slot, let in self.accept_fixed:
            e[slot] = let(e)
        for slot, part in self.hoisted:
            e[slot] = part(e)
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
