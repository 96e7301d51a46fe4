"""A tiny, straightforward reference interpretation of ERL (NE-21.5), for tests only.

It reads the canonical form (NE-29.3.8) and recomputes everything from the whole main
line on every judgement: no closures, no incremental values, its own card attributes.
The compiled evaluator must agree with it on every judgement.
"""

from __future__ import annotations

from typing import Any

SUITS = ["clubs", "diamonds", "hearts", "spades"]


def attribute(face: int, name: str) -> Any:
    rank, suit = face // 4 + 1, SUITS[face % 4]
    colour = "red" if suit in ("diamonds", "hearts") else "black"
    return {
        "rank": rank,
        "suit": suit,
        "suitnum": SUITS.index(suit) + 1,
        "color": colour,
        "red": colour == "red",
        "black": colour == "black",
        "even": rank % 2 == 0,
        "odd": rank % 2 == 1,
        "face": rank > 10,
        "number": rank <= 10,
        "prime": rank in (2, 3, 5, 7, 11, 13),
    }[name]


def _isprime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


class Reference:
    def __init__(self, program: list[Any]) -> None:
        self.program = program
        self.lets = {st[1]: st[2] for st in program if st[0] == "let"}
        self.states = [st for st in program if st[0] == "state"]
        self.accept = next(st[1] for st in program if st[0] == "accept")
        self.start = next((st[1] for st in program if st[0] == "start"), None)
        self.lookback = max(self._lookback(self.accept), self._lookback(self.start))

    def _lookback(self, node: Any, seen: frozenset[str] = frozenset()) -> int:
        if not isinstance(node, list):
            return 0
        if node and node[0] == "name":
            name = node[1]
            if name == "prev":
                return 1
            if name.startswith("prev"):
                return int(name[4:])
            if name == "first":
                return 1
            if name in self.lets and name not in seen:
                return self._lookback(self.lets[name], seen | {name})
            return 0
        return max([0, *(self._lookback(x, seen) for x in node)])

    def judge(self, line: list[int], card: int) -> bool:
        return bool(self.eval(self.accept, line, card, None, None))

    def may_start(self, line: list[int], card: int) -> bool:
        if self.lookback == 0 and not self.judge(line, card):
            return False
        return self.start is None or bool(self.eval(self.start, line, card, None, None))

    def state_value(self, name: str, line: list[int]) -> Any:
        st = next(s for s in self.states if s[1] == name)
        _, _, modulus, value, step = st
        if modulus is not None:
            value %= modulus
        for face in line:
            value = self.eval(step, line, None, face, (name, value))
            if modulus is not None:
                value %= modulus
        return value

    def card_of(self, name: str, line: list[int], card: Any, c: Any) -> int:
        if name == "card":
            return int(card)
        if name == "c":
            return int(c)
        if name == "first":
            return line[0]
        k = 1 if name == "prev" else int(name[4:])
        return line[len(line) - k]

    def eval(self, node: Any, line: list[int], card: Any, c: Any, step: Any) -> Any:
        k = node[0]

        def ev(x: Any, cc: Any = c) -> Any:
            return self.eval(x, line, card, cc, step)

        if k in ("int", "bool", "suit", "color"):
            return node[1]
        if k == "name":
            name = node[1]
            if name == "len":
                return len(line)
            if step is not None and name == step[0]:
                return step[1]
            if name in self.lets:
                return ev(self.lets[name])
            return self.state_value(name, line)
        if k == "attr":
            return attribute(self.card_of(node[1][1], line, card, c), node[2])
        if k == "call":
            f, args = node[1], node[2]
            if f in ("count", "any", "all", "sum", "run"):
                values = [ev(args[0], face) for face in line]
                if f == "count":
                    return sum(1 for v in values if v)
                if f == "any":
                    return any(values)
                if f == "all":
                    return all(values)
                if f == "sum":
                    return sum(values)
                n = 0
                for v in reversed(values):
                    if not v:
                        break
                    n += 1
                return n
            vals = [ev(a) for a in args]
            if f == "abs":
                return abs(vals[0])
            if f == "min":
                return min(vals)
            if f == "max":
                return max(vals)
            if f == "isprime":
                return _isprime(vals[0])
            if f == "succ":
                return SUITS[(SUITS.index(vals[0]) + 1) % 4]
            if f == "pred":
                return SUITS[(SUITS.index(vals[0]) - 1) % 4]
            if f == "colorof":
                return "red" if vals[0] in ("diamonds", "hearts") else "black"
            raise AssertionError(f)
        if k == "neg":
            return -ev(node[1])
        if k == "not":
            return not ev(node[1])
        if k == "arith":
            a, b = ev(node[2]), ev(node[3])
            return {"+": a + b, "-": a - b, "*": a * b}[node[1]] if node[1] != "mod" else a % b
        if k == "cmp":
            a, b = ev(node[2]), ev(node[3])
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[
                node[1]
            ]
        if k == "logic":
            a, b = bool(ev(node[2])), bool(ev(node[3]))
            return {"and": a and b, "or": a or b, "xor": a != b, "implies": (not a) or b}[node[1]]
        if k in ("in", "notin"):
            x, coll = ev(node[1]), node[2]
            inside = x in coll[1] if coll[0] == "set" else ev(coll[1]) <= x <= ev(coll[2])
            return inside if k == "in" else not inside
        if k == "if":
            return ev(node[2]) if ev(node[1]) else ev(node[3])
        if k == "case":
            subject = ev(node[1])
            for labels, body in node[2]:
                if labels is None or subject in labels:
                    return ev(body)
            raise AssertionError("incomplete case")
        raise AssertionError(k)
