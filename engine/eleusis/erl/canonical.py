"""Canonical form (NE-21.8, NE-29.3.8) back to ERL source.

:func:`to_source` prints a canonical form as a source that parses to the same canonical
form (every compound operand is parenthesised; parentheses leave no node), so
``canonical(to_source(canonical(s))) == canonical(s)`` for every valid ``s``.
"""

from __future__ import annotations

from typing import Any

from engine.eleusis.erl.tree import Json

_ATOMS = frozenset({"int", "bool", "suit", "color", "name", "attr", "call", "case"})


def _const(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _operand(node: Json) -> str:
    text = expr_source(node)
    return text if node[0] in _ATOMS and not (node[0] == "int" and node[1] < 0) else f"({text})"


def expr_source(node: Json) -> str:
    """One expression of a canonical form as source text."""
    k = node[0]
    if k == "int":
        return str(node[1])
    if k == "bool":
        return "true" if node[1] else "false"
    if k in ("suit", "color", "name"):
        return str(node[1])
    if k == "attr":
        return f"{_operand(node[1])}.{node[2]}"
    if k == "call":
        return f"{node[1]}({', '.join(expr_source(x) for x in node[2])})"
    if k == "neg":
        return f"-{_operand(node[1])}"
    if k == "not":
        return f"not {_operand(node[1])}"
    if k in ("arith", "cmp", "logic"):
        return f"{_operand(node[2])} {node[1]} {_operand(node[3])}"
    if k in ("in", "notin"):
        word = "in" if k == "in" else "not in"
        coll = node[2]
        if coll[0] == "set":
            shape = "{" + ", ".join(_const(v) for v in coll[1]) + "}"
        else:
            shape = f"{_operand(coll[1])} .. {_operand(coll[2])}"
        return f"{_operand(node[1])} {word} {shape}"
    if k == "if":
        return f"if {expr_source(node[1])} then {expr_source(node[2])} else {expr_source(node[3])}"
    if k == "case":
        arms = []
        for labels, body in node[2]:
            head = "else" if labels is None else ", ".join(_const(v) for v in labels)
            arms.append(f"{head} -> {expr_source(body)}")
        return f"case {expr_source(node[1])} of {' | '.join(arms)} end"
    raise ValueError(f"Not a canonical ERL node: {node!r}")


def to_source(canonical: Json) -> str:
    """A whole program (the list of statements) as source text, one statement a line."""
    lines = []
    for st in canonical:
        k = st[0]
        if k == "let":
            lines.append(f"let {st[1]} = {expr_source(st[2])}")
        elif k == "state":
            modulus = "" if st[2] is None else f" mod {st[2]}"
            lines.append(f"state {st[1]}{modulus} = {_const(st[3])} then {expr_source(st[4])}")
        elif k in ("start", "accept"):
            lines.append(f"{k} {expr_source(st[1])}")
        else:
            raise ValueError(f"Not a canonical ERL statement: {st!r}")
    return "\n".join(lines) + "\n"
