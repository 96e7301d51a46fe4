"""Static checks of ERL (NE-21.4, NE-21.6): names, types, scopes and limits.

:func:`check` turns parsed statements into a :class:`Program`: every expression's type,
what each ``let``, aggregate and statement depends on (:class:`Facts`), the lookback
(NE-21.5.2) and the features the verified hints read (NE-24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.eleusis.erl.errors import ErlError, Pos
from engine.eleusis.erl.tree import Const, Node
from engine.eleusis.faces import ATTRIBUTES, COLORS, SUITS

MAX_LETS = 12
MAX_STATES = 3
MAX_AGGREGATES = 6
MAX_LOOKBACK = 6
MAX_SET = 52
MAX_MULTIPLICATIONS = 8
MODULUS_RANGE = (2, 52)

FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "abs": (("int",), "int"),
    "min": (("int", "int"), "int"),
    "max": (("int", "int"), "int"),
    "isprime": (("int",), "bool"),
    "succ": (("suit",), "suit"),
    "pred": (("suit",), "suit"),
    "colorof": (("suit",), "color"),
}
AGGREGATES: dict[str, tuple[str, str]] = {
    "count": ("bool", "int"),
    "any": ("bool", "bool"),
    "all": ("bool", "bool"),
    "sum": ("int", "int"),
    "run": ("bool", "int"),
}
CARD_NAMES = frozenset({"card", "prev", "first", "c", *(f"prev{k}" for k in range(2, 7))})
BUILTIN_NAMES = frozenset({*CARD_NAMES, "prev1", "len", *FUNCTIONS, *AGGREGATES})
_PREV = re.compile(r"prev([0-9]+)\Z")
SUIT_FEATURES = frozenset({"suit", "suitnum"})
COLOR_FEATURES = frozenset({"color", "red", "black"})
RANK_FEATURES = frozenset({"rank", "even", "odd", "face", "number", "prime"})
ALL_VALUES = {"bool": (False, True), "suit": SUITS, "color": COLORS}


@dataclass
class Facts:
    """What an expression reaches, directly or through ``let``s."""

    lookback: int = 0
    first: bool = False
    card: bool = False
    c: bool = False
    len: bool = False
    states: set[int] = field(default_factory=set)
    lets: set[int] = field(default_factory=set)
    aggregates: int = 0
    features: set[str] = field(default_factory=set)

    def merge(self, other: Facts) -> None:
        self.lookback = max(self.lookback, other.lookback)
        self.first |= other.first
        self.card |= other.card
        self.c |= other.c
        self.len |= other.len
        self.states |= other.states
        self.lets |= other.lets
        self.aggregates += other.aggregates
        self.features |= other.features

    @property
    def line_bound(self) -> bool:
        """Depends on the main line other than through ``c`` (prevk, first, len, states)."""
        return bool(self.lookback or self.first or self.len or self.states)


@dataclass
class Aggregate:
    """One aggregate call. ``kind`` says how the evaluator keeps it (NE-21.9):
    "inc" one running value (predicate uses only ``c``), "inc_card" 52 running values
    (also ``card``), "line" recomputed once per main line (no ``card``), "general"
    recomputed for every judgement."""

    node: Node
    op: str
    facts: Facts
    kind: str
    index: int


@dataclass
class Let:
    name: str
    node: Node
    type: str
    facts: Facts


@dataclass
class State:
    name: str
    modulus: int | None
    start: int | bool | str
    type: str
    node: Node
    facts: Facts


@dataclass
class Program:
    statements: list[Node]
    lets: list[Let]
    states: list[State]
    start: Node | None
    accept: Node
    start_facts: Facts
    accept_facts: Facts
    aggregates: list[Aggregate]
    types: dict[int, str]
    lookback: int

    @property
    def features(self) -> set[str]:
        out = set(self.accept_facts.features) | set(self.start_facts.features)
        return out


class _Ctx:
    """Where an expression is being checked."""

    def __init__(self, where: str, step_state: int | None = None) -> None:
        self.where = where  # "accept", "start", "let", "step"
        self.step_state = step_state
        self.facts: list[Facts] = []  # every Facts object collecting for this position
        self.in_aggregate = False


class Checker:
    def __init__(self, statements: list[Node], end: Pos) -> None:
        self.statements = statements
        self.end = end
        self.types: dict[int, str] = {}
        self.names: dict[str, tuple[str, int]] = {}  # name -> ("let"|"state", index)
        self.lets: list[Let] = []
        self.states: list[State] = []
        self.aggregates: list[Aggregate] = []
        self.multiplications = 0

    def record(self, ctx: _Ctx, **kw: object) -> None:
        for facts in ctx.facts:
            for key, value in kw.items():
                if key == "lookback":
                    assert isinstance(value, int)
                    facts.lookback = max(facts.lookback, value)
                elif key == "feature":
                    assert isinstance(value, str)
                    facts.features.add(value)
                else:
                    setattr(facts, key, True)

    def run(self) -> Program:
        start: Node | None = None
        accept: Node | None = None
        start_facts, accept_facts = Facts(), Facts()
        for st in self.statements:
            if st.kind == "let":
                name, body = st.args
                self.define(name, st.pos)
                if len(self.lets) == MAX_LETS:
                    raise ErlError("too_big", f"A rule may have at most {MAX_LETS} lets.", st.pos)
                facts = Facts()
                ctx = _Ctx("let")
                ctx.facts.append(facts)
                type_ = self.expr(body, ctx)
                if type_ == "card":
                    raise ErlError(
                        "type",
                        f"{name!r} would hold a card; name one of its attributes "
                        "instead (e.g. prev.rank).",
                        body.pos,
                    )
                self.names[name] = ("let", len(self.lets))
                self.lets.append(Let(name, body, type_, facts))
            elif st.kind == "state":
                self.state(st)
            else:
                body = st.args[0]
                if (st.kind == "start" and start is not None) or (
                    st.kind == "accept" and accept is not None
                ):
                    raise ErlError(
                        "duplicate_name", f"A rule has at most one {st.kind!r} statement.", st.pos
                    )
                facts = start_facts if st.kind == "start" else accept_facts
                ctx = _Ctx(st.kind)
                ctx.facts.append(facts)
                type_ = self.expr(body, ctx)
                if type_ != "bool":
                    raise ErlError(
                        "type", f"{st.kind!r} needs a true/false expression, not {type_}.", body.pos
                    )
                if st.kind == "start":
                    start = body
                else:
                    accept = body
        if accept is None:
            raise ErlError("missing_accept", "The rule has no 'accept' statement.", self.end)
        lookback = max(
            start_facts.lookback,
            accept_facts.lookback,
            1 if (start_facts.first or accept_facts.first) else 0,
        )
        return Program(
            self.statements,
            self.lets,
            self.states,
            start,
            accept,
            start_facts,
            accept_facts,
            self.aggregates,
            self.types,
            lookback,
        )

    def define(self, name: str, pos: Pos) -> None:
        if name in self.names or name in BUILTIN_NAMES or _PREV.match(name):
            raise ErlError("duplicate_name", f"The name {name!r} is already defined.", pos)

    def state(self, st: Node) -> None:
        name, modulus, start, step = st.args
        self.define(name, st.pos)
        if len(self.states) == MAX_STATES:
            raise ErlError("too_big", f"A rule may have at most {MAX_STATES} states.", st.pos)
        assert isinstance(start, Const)
        value = start.value
        if start.type == "int":
            if modulus is None:
                raise ErlError(
                    "bad_modulus",
                    f"The int state {name!r} needs 'mod M' (M from 2 to 52).",
                    st.pos,
                )
            if not MODULUS_RANGE[0] <= modulus <= MODULUS_RANGE[1]:
                raise ErlError(
                    "bad_modulus",
                    f"A state's modulus must be from 2 to 52, not {modulus}.",
                    st.pos,
                )
            assert isinstance(value, int)
            value %= modulus
        elif modulus is not None:
            raise ErlError(
                "type", f"Only an int state takes 'mod'; {name!r} is a {start.type}.", st.pos
            )
        index = len(self.states)
        ctx = _Ctx("step", step_state=index)
        step_facts = Facts()
        ctx.facts.append(step_facts)
        self.names[name] = ("state", index)
        type_ = self.expr(step, ctx)
        if type_ != start.type:
            raise ErlError(
                "type",
                f"The step of {name!r} gives a {type_}, but the state is a {start.type}.",
                step.pos,
            )
        if start.type in ("suit", "color"):
            step_facts.features.add(start.type)
        self.states.append(State(name, modulus, value, start.type, step, step_facts))

    # --- expressions ----------------------------------------------------------------

    def expr(self, node: Node, ctx: _Ctx) -> str:
        type_ = self._expr(node, ctx)
        self.types[id(node)] = type_
        return type_

    def value(self, node: Node, ctx: _Ctx, want: str | None = None, what: str = "") -> str:
        """An operand that must not be a card (and must be ``want`` if given)."""
        type_ = self.expr(node, ctx)
        if type_ == "card":
            raise ErlError(
                "type", "A card can only be used through an attribute, e.g. prev.rank.", node.pos
            )
        if want is not None and type_ != want:
            raise ErlError("type", f"{what} needs {want}, not {type_}.", node.pos)
        return type_

    def _expr(self, node: Node, ctx: _Ctx) -> str:
        k, a = node.kind, node.args
        if k in ("int", "bool", "suit", "color"):
            if k in ("suit", "color"):
                self.record(ctx, feature=k)
            return k
        if k == "name":
            return self.name(node, ctx)
        if k == "attr":
            base_type = self.expr(a[0], ctx)
            if base_type != "card":
                raise ErlError("type", f"Only a card has attributes, not a {base_type}.", node.pos)
            self.record(ctx, feature=a[1])
            return ATTRIBUTES[a[1]][0]
        if k == "call":
            return self.call(node, ctx)
        if k == "neg":
            self.value(a[0], ctx, "int", "'-'")
            return "int"
        if k == "not":
            self.value(a[0], ctx, "bool", "'not'")
            return "bool"
        if k == "arith":
            op, left, right = a
            self.value(left, ctx, "int", f"{op!r}")
            if op == "mod":
                if right.kind != "int" or right.args[0] < 1:
                    raise ErlError(
                        "bad_modulus",
                        "The right side of 'mod' must be a whole number >= 1.",
                        right.pos,
                    )
            else:
                self.value(right, ctx, "int", f"{op!r}")
            if op == "*":
                self.multiplications += 1
                if self.multiplications > MAX_MULTIPLICATIONS:
                    raise ErlError(
                        "too_big",
                        f"A rule may multiply at most {MAX_MULTIPLICATIONS} times.",
                        node.pos,
                    )
            self.types[id(right)] = "int"
            return "int"
        if k == "cmp":
            op, left, right = a
            lt = self.value(left, ctx)
            rt = self.value(right, ctx)
            if op in ("==", "!="):
                if lt != rt:
                    raise ErlError("type", f"Cannot compare a {lt} with a {rt}.", node.pos)
            elif lt != "int" or rt != "int":
                raise ErlError("type", f"{op!r} compares numbers, not {lt} and {rt}.", node.pos)
            return "bool"
        if k == "logic":
            op, left, right = a
            self.value(left, ctx, "bool", f"{op!r}")
            self.value(right, ctx, "bool", f"{op!r}")
            return "bool"
        if k in ("in", "notin"):
            subject, coll = a
            st = self.value(subject, ctx)
            if coll.kind == "set":
                items = coll.args[0]
                if len(items) > MAX_SET:
                    raise ErlError("too_big", f"A set may list at most {MAX_SET} items.", coll.pos)
                for item in items:
                    self.constant(item, st, ctx)
            else:
                if st != "int":
                    raise ErlError("type", f"A range holds numbers, not a {st}.", node.pos)
                self.value(coll.args[0], ctx, "int", "A range")
                self.value(coll.args[1], ctx, "int", "A range")
            return "bool"
        if k == "if":
            self.value(a[0], ctx, "bool", "The condition of 'if'")
            yes = self.value(a[1], ctx)
            no = self.value(a[2], ctx)
            if yes != no:
                raise ErlError(
                    "type",
                    f"Both branches of 'if' must have one type, not {yes} and {no}.",
                    node.pos,
                )
            return yes
        if k == "case":
            return self.case(node, ctx)
        raise AssertionError(k)

    def constant(self, item: Const, want: str, ctx: _Ctx) -> None:
        if item.type != want:
            raise ErlError(
                "type", f"Expected a {want} here, not the {item.type} {item.value!r}.", item.pos
            )
        if item.type in ("suit", "color"):
            self.record(ctx, feature=item.type)

    def case(self, node: Node, ctx: _Ctx) -> str:
        subject, arms = node.args
        st = self.value(subject, ctx)
        seen: set[object] = set()
        result: str | None = None
        has_else = False
        for labels, body in arms:
            if labels is None:
                has_else = True
            else:
                for label in labels:
                    self.constant(label, st, ctx)
                    key = (label.type, label.value)
                    if key in seen:
                        raise ErlError(
                            "duplicate_name",
                            f"The case label {label.value!r} appears twice.",
                            label.pos,
                        )
                    seen.add(key)
            bt = self.value(body, ctx)
            if result is not None and bt != result:
                raise ErlError(
                    "type",
                    f"Every arm of a case must have one type, not {result} and {bt}.",
                    body.pos,
                )
            result = bt
        if not has_else:
            if st == "int":
                raise ErlError(
                    "incomplete_case", "A case on a number needs an 'else' arm.", node.pos
                )
            missing = [str(v).lower() for v in ALL_VALUES[st] if (st, v) not in seen]
            if missing:
                raise ErlError(
                    "incomplete_case",
                    f"The case does not cover {', '.join(missing)} "
                    "(list them or add an 'else' arm).",
                    node.pos,
                )
        assert result is not None
        return result

    def name(self, node: Node, ctx: _Ctx) -> str:
        name = node.args[0]
        pos = node.pos
        if ctx.where == "step":
            entry = self.names.get(name)
            if name == "c":
                self.record(ctx, c=True)
                return "card"
            if entry == ("state", ctx.step_state):
                return self.states_type_pending(name)
            raise ErlError(
                "scope",
                f"A state's step may use only its own state, c and constants, not {name!r}.",
                pos,
            )
        if name in CARD_NAMES:
            if name == "c":
                if not ctx.in_aggregate:
                    raise ErlError(
                        "scope", "'c' exists only inside an aggregate or a state step.", pos
                    )
                self.record(ctx, c=True)
            elif name == "card":
                self.record(ctx, card=True)
            else:
                if ctx.where == "start":
                    raise ErlError("scope", f"'start' cannot use {name!r} (NE-21.5.3).", pos)
                if name == "first":
                    self.record(ctx, first=True)
                else:
                    self.record(ctx, lookback=1 if name == "prev" else int(name[4:]))
            return "card"
        match = _PREV.match(name)
        if match and int(match.group(1)) > MAX_LOOKBACK:
            raise ErlError(
                "too_big", f"A rule may look back at most {MAX_LOOKBACK} cards ({name}).", pos
            )
        if name == "len":
            self.record(ctx, len=True, feature="len")
            return "int"
        if name in FUNCTIONS or name in AGGREGATES:
            raise ErlError("type", f"{name!r} is a function: call it, e.g. {name}(...).", pos)
        entry = self.names.get(name)
        if entry is None:
            raise ErlError("unknown_name", f"Unknown name {name!r}.", pos)
        kind, index = entry
        if kind == "state":
            for facts in ctx.facts:
                facts.states.add(index)
                facts.features.add("state")
                facts.features |= self.states[index].facts.features
            return self.states[index].type
        let = self.lets[index]
        if ctx.where == "start" and (let.facts.lookback or let.facts.first):
            raise ErlError(
                "scope",
                f"'start' cannot use {name!r}: it looks at previous cards (NE-21.5.3).",
                pos,
            )
        if ctx.in_aggregate and let.facts.aggregates:
            raise ErlError(
                "nested_aggregate",
                f"{name!r} holds an aggregate, so it cannot be used inside another aggregate.",
                pos,
            )
        for facts in ctx.facts:
            facts.merge(let.facts)
            facts.lets.add(index)
        return let.type

    def states_type_pending(self, name: str) -> str:
        # The state being defined is not in self.states yet: read its start constant.
        for st in self.statements:
            if st.kind == "state" and st.args[0] == name:
                start = st.args[2]
                assert isinstance(start, Const)
                return start.type
        raise AssertionError(name)

    def call(self, node: Node, ctx: _Ctx) -> str:
        fname, args = node.args
        if fname in AGGREGATES:
            if ctx.where == "step" or ctx.in_aggregate:
                raise ErlError(
                    "nested_aggregate",
                    f"{fname}(...) cannot be used inside "
                    + ("a state step." if ctx.where == "step" else "another aggregate."),
                    node.pos,
                )
            if len(self.aggregates) == MAX_AGGREGATES:
                raise ErlError(
                    "too_big", f"A rule may use at most {MAX_AGGREGATES} aggregates.", node.pos
                )
            want, result = AGGREGATES[fname]
            if len(args) != 1:
                raise ErlError("type", f"{fname} takes one argument, not {len(args)}.", node.pos)
            facts = Facts()
            for outer in ctx.facts:
                outer.aggregates += 1
                outer.features.add("aggregate")
            ctx.facts.append(facts)
            ctx.in_aggregate = True
            try:
                self.value(args[0], ctx, want, f"{fname}(...)")
            finally:
                ctx.in_aggregate = False
                ctx.facts.pop()
            if not facts.line_bound:
                kind = "inc_card" if facts.card else "inc"
            else:
                kind = "general" if facts.card else "line"
            self.aggregates.append(Aggregate(node, fname, facts, kind, len(self.aggregates)))
            return result
        if fname not in FUNCTIONS:
            raise ErlError("unknown_name", f"There is no function called {fname!r}.", node.pos)
        wants, result = FUNCTIONS[fname]
        if len(args) != len(wants):
            raise ErlError(
                "type", f"{fname} takes {len(wants)} argument(s), not {len(args)}.", node.pos
            )
        for arg, want in zip(args, wants, strict=True):
            self.value(arg, ctx, want, f"{fname}(...)")
        if fname in ("succ", "pred", "colorof"):
            self.record(ctx, feature="suit")
        if fname == "colorof":
            self.record(ctx, feature="color")
        return result


def check(statements: list[Node], end: Pos) -> Program:
    """The checked program; raises :class:`ErlError`."""
    return Checker(statements, end).run()
