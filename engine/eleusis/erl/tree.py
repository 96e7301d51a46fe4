"""The ERL syntax tree and its canonical form (NE-21.8, NE-29.3.8).

A :class:`Node` is one node of the canonical form. Constants that the canonical form
writes as plain JSON values (a state's start value, set items, case labels) are
:class:`Const`. ``height`` is the node's nesting depth counted on the canonical form
(a leaf is 1); parentheses leave no node (E41).
"""

from __future__ import annotations

from typing import Any

from engine.eleusis.erl.errors import Pos

Json = Any


class Const:
    """A constant: ``type`` is "int", "bool", "suit" or "color"; ``value`` is the int,
    the bool, or the suit/colour word."""

    __slots__ = ("pos", "type", "value")

    def __init__(self, type_: str, value: int | bool | str, pos: Pos) -> None:
        self.type = type_
        self.value = value
        self.pos = pos

    def to_json(self) -> Json:
        return self.value


class Node:
    """``kind`` is the canonical tag ("int", "name", "attr", "call", "if", ...)."""

    __slots__ = ("args", "height", "kind", "pos")

    def __init__(self, kind: str, pos: Pos, args: tuple[Any, ...], height: int) -> None:
        self.kind = kind
        self.pos = pos
        self.args = args
        self.height = height

    def children(self) -> list[Node]:
        """The expression nodes directly below this one."""
        k, a = self.kind, self.args
        if k in ("int", "bool", "suit", "color", "name"):
            return []
        if k == "attr":
            return [a[0]]
        if k == "call":
            return list(a[1])
        if k in ("neg", "not"):
            return [a[0]]
        if k in ("arith", "cmp", "logic"):
            return [a[1], a[2]]
        if k in ("in", "notin"):
            coll = a[1]
            return [a[0]] + ([] if coll.kind == "set" else [coll.args[0], coll.args[1]])
        if k == "if":
            return list(a)
        if k == "case":
            return [a[0]] + [body for _, body in a[1]]
        if k in ("let", "state", "start", "accept"):
            return [a[-1]]
        raise AssertionError(k)

    def to_json(self) -> Json:
        k, a = self.kind, self.args
        if k in ("int", "bool", "suit", "color", "name"):
            return [k, a[0]]
        if k == "attr":
            return [k, a[0].to_json(), a[1]]
        if k == "call":
            return [k, a[0], [x.to_json() for x in a[1]]]
        if k in ("neg", "not", "start", "accept"):
            return [k, a[0].to_json()]
        if k in ("arith", "cmp", "logic"):
            return [k, a[0], a[1].to_json(), a[2].to_json()]
        if k in ("in", "notin"):
            coll = a[1]
            if coll.kind == "set":
                shape: Json = ["set", [c.to_json() for c in coll.args[0]]]
            else:
                shape = ["range", coll.args[0].to_json(), coll.args[1].to_json()]
            return [k, a[0].to_json(), shape]
        if k == "if":
            return [k, a[0].to_json(), a[1].to_json(), a[2].to_json()]
        if k == "case":
            arms = [
                [None if labels is None else [c.to_json() for c in labels], body.to_json()]
                for labels, body in a[1]
            ]
            return [k, a[0].to_json(), arms]
        if k == "let":
            return [k, a[0], a[1].to_json()]
        if k == "state":
            name, modulus, start, step = a
            return [k, name, modulus, start.to_json(), step.to_json()]
        raise AssertionError(k)

    def __repr__(self) -> str:
        return f"Node({self.to_json()!r})"


def walk(node: Node) -> list[Node]:
    """Every node of the subtree, this one first (the tree is at most 24 deep)."""
    out = [node]
    for child in node.children():
        out.extend(walk(child))
    return out
