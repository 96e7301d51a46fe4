"""Hypothesis strategies: well-typed ERL programs (NE-21.3, NE-21.4) and main lines."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

INT_ATTRS = ("rank", "suitnum")
BOOL_ATTRS = ("red", "black", "even", "odd", "face", "number", "prime")
SUITS = ("clubs", "diamonds", "hearts", "spades", "♥", "♠")
TOP_CARDS = ("card", "prev", "prev1", "prev2", "first")
AGG_CARDS = ("c", "card", "prev")


@st.composite
def expr(draw: Any, type_: str, depth: int, ctx: dict[str, Any]) -> str:
    """A source expression of ``type_``; ``ctx``: where ("top"/"agg"), names in scope."""
    cards = {"agg": AGG_CARDS, "start": ("card",), "start_agg": ("c", "card")}.get(
        ctx["where"], TOP_CARDS
    )
    leaf = depth <= 0
    choices: list[str] = ["lit", "attr"]
    names = [n for n, t in ctx["names"] if t == type_]
    if names:
        choices.append("name")
    if not leaf:
        choices += ["op", "op", "if"]
        if ctx["where"] in ("top", "start") and ctx["aggs"] < 2 and type_ in ("int", "bool"):
            choices.append("agg")
    kind = draw(st.sampled_from(choices))
    card = draw(st.sampled_from(cards))
    sub = depth - 1
    if kind == "name":
        return draw(st.sampled_from(names))
    if kind == "if":
        c = draw(expr("bool", sub, ctx))
        a = draw(expr(type_, sub, ctx))
        b = draw(expr(type_, sub, ctx))
        return f"(if {c} then {a} else {b})"
    if kind == "agg":
        ctx["aggs"] += 1
        inner = {**ctx, "where": "agg" if ctx["where"] == "top" else "start_agg", "names": []}
        if type_ == "int":
            op = draw(st.sampled_from(("count", "sum", "run")))
            body = draw(expr("int" if op == "sum" else "bool", sub, inner))
        else:
            op = draw(st.sampled_from(("any", "all")))
            body = draw(expr("bool", sub, inner))
        return f"{op}({body})"
    if type_ == "int":
        if kind == "lit":
            return draw(
                st.sampled_from(
                    ["0", "1", "2", "7", "13", "len"]
                    if ctx["where"] in ("top", "start")
                    else ["0", "1", "2", "7", "13"]
                )
            )
        if kind == "attr":
            return f"{card}.{draw(st.sampled_from(INT_ATTRS))}"
        op = draw(st.sampled_from(("+", "-", "*", "mod", "neg", "abs", "min", "max", "case")))
        a = draw(expr("int", sub, ctx))
        if op == "mod":
            return f"({a} mod {draw(st.integers(1, 13))})"
        if op == "neg":
            return f"(-{a})"
        if op == "abs":
            return f"abs({a})"
        b = draw(expr("int", sub, ctx))
        if op in ("min", "max"):
            return f"{op}({a}, {b})"
        if op == "case":
            s = draw(expr("suit", sub, ctx))
            return f"case {s} of hearts, clubs -> {a} | else -> {b} end"
        if op == "*" and ctx.setdefault("muls", 0) >= 8:
            op = "+"
        if op == "*":
            ctx["muls"] += 1
        return f"({a} {op} {b})"
    if type_ == "bool":
        if kind == "lit":
            return draw(st.sampled_from(["true", "false"]))
        if kind == "attr":
            return f"{card}.{draw(st.sampled_from(BOOL_ATTRS))}"
        op = draw(
            st.sampled_from(
                ("cmp", "cmp", "and", "or", "xor", "implies", "not", "in", "range", "eqs", "prime")
            )
        )
        if op == "cmp":
            a, b = draw(expr("int", sub, ctx)), draw(expr("int", sub, ctx))
            return f"({a} {draw(st.sampled_from(('==', '!=', '<', '<=', '>', '>=')))} {b})"
        if op == "eqs":
            t = draw(st.sampled_from(("suit", "color", "bool")))
            a, b = draw(expr(t, sub, ctx)), draw(expr(t, sub, ctx))
            return f"({a} {draw(st.sampled_from(('==', '!=')))} {b})"
        if op == "not":
            return f"(not {draw(expr('bool', sub, ctx))})"
        if op == "in":
            a = draw(expr("int", sub, ctx))
            items = draw(st.lists(st.integers(-2, 14), min_size=1, max_size=5))
            neg = draw(st.sampled_from(("in", "not in")))
            return f"({a} {neg} {{{', '.join(map(str, items))}}})"
        if op == "range":
            a, lo, hi = (draw(expr("int", sub, ctx)) for _ in range(3))
            return f"({a} in {lo} .. {hi})"
        if op == "prime":
            return f"isprime({draw(expr('int', sub, ctx))})"
        a, b = draw(expr("bool", sub, ctx)), draw(expr("bool", sub, ctx))
        return f"({a} {op} {b})"
    if type_ == "suit":
        if kind == "lit":
            return draw(st.sampled_from(SUITS))
        if kind == "attr":
            return f"{card}.suit"
        f = draw(st.sampled_from(("succ", "pred")))
        return f"{f}({draw(expr('suit', sub, ctx))})"
    # color
    if kind == "lit":
        return draw(st.sampled_from(("red", "black")))
    if kind == "attr":
        return f"{card}.color"
    return f"colorof({draw(expr('suit', sub, ctx))})"


STATES = (
    ("m", "int", "state m mod 3 = 1 then m + c.rank"),
    ("flip", "bool", "state flip = false then if c.face then not flip else flip"),
    ("fav", "suit", "state fav = clubs then if c.red then succ(fav) else fav"),
)


@st.composite
def programs(draw: Any, depth: int = 3) -> str:
    """A well-typed program: optional state and lets, optional start, one accept."""
    ctx: dict[str, Any] = {"where": "top", "names": [], "aggs": 0, "muls": 0}
    lines = []
    if draw(st.booleans()):
        name, type_, text = draw(st.sampled_from(STATES))
        lines.append(text)
        ctx["names"].append((name, type_))
    for i in range(draw(st.integers(0, 2))):
        type_ = draw(st.sampled_from(("int", "bool", "suit")))
        lines.append(f"let v{i} = {draw(expr(type_, depth - 1, ctx))}")
        ctx["names"].append((f"v{i}", type_))
    if draw(st.booleans()):
        # NE-21.5.3: start sees card, len, aggregates and states, never prevk or first.
        states = [(n, t) for n, t in ctx["names"] if not n.startswith("v")]
        start_ctx = {**ctx, "where": "start", "names": states}
        lines.append(f"start {draw(expr('bool', depth - 1, start_ctx))}")
    lines.append(f"accept {draw(expr('bool', depth, ctx))}")
    return "\n".join(lines)


main_lines = st.lists(st.integers(0, 51), min_size=0, max_size=30)
