"""The main actions as JSON (H.7): their exact shapes, every legal one, and the dispatch.

``main_options(t, kinds, bys)`` lists every main action of those kinds and ``by`` values
that can be completed now (R80): candidates are built from the map, then kept only if
``main_problem`` finds nothing wrong, payment included. ``main_problem`` is also what
names the rule when ``apply`` refuses an action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.core import JsonDict
from engine.pax import actions as ac
from engine.pax import board as b
from engine.pax.flow import Ctx, Proc
from engine.pax.oust import do_oust, oust_problem
from engine.pax.state import PLACARD, Table

SHAPES: dict[str, tuple[str, ...]] = {
    "scout": ("type", "by", "acting", "target"),
    "influence": ("type", "by", "target", "n"),
    "extort": ("type", "by", "target"),
    "organize": ("type", "by", "faction", "target"),
    "expel": ("type", "by", "acting", "target", "card"),
    "oust": ("type", "by", "acting", "target", "defender", "k"),
}
"""H.7: the keys of each main action, always all present."""
MAIN = tuple(SHAPES)

PROBLEMS: dict[str, Callable[[Table, JsonDict], ac.Problem]] = {
    "scout": ac.scout_problem,
    "influence": ac.influence_problem,
    "extort": ac.extort_problem,
    "organize": ac.organize_problem,
    "expel": ac.expel_problem,
    "oust": oust_problem,
}
DOERS: dict[str, Callable[[Table, Ctx, JsonDict], Proc[None]]] = {
    "scout": ac.do_scout,
    "influence": ac.do_influence,
    "extort": ac.do_extort,
    "organize": ac.do_organize,
    "expel": ac.do_expel,
    "oust": do_oust,
}


def shape_problem(a: Any) -> ac.Problem:
    if not isinstance(a, dict) or not isinstance(a.get("type"), str):
        return ("malformed", "An action is a JSON object with a 'type' (H.7).")
    keys = SHAPES.get(a["type"])
    if keys is not None and set(a) != set(keys):
        return ("malformed", f"A {a['type']} action has exactly the keys {list(keys)} (H.7).")
    return None


def main_problem(t: Table, a: JsonDict, bys: tuple[str, ...]) -> ac.Problem:
    """What is wrong with a main action taken now with one of ``bys``, or None."""
    p = shape_problem(a)
    if p:
        return p
    if a["by"] not in bys:
        return ("by", f"'{a['by']}' is not open here: choose one of {list(bys)} (H.7).")
    return ac.by_problem(t, a) or PROBLEMS[a["type"]](t, a)


def _refs(t: Table) -> list[int]:
    return b.acting_refs(t, t.active)


def _ref(t: Table, r: int) -> Any:
    return t.ref_json(r)


def candidates(t: Table, kind: str, by: str) -> Iterator[JsonDict]:
    """Every action of that kind and ``by`` worth checking (a superset of the legal)."""
    seat = t.active
    n = len(t.cards)
    codes = t.g.cat.factions
    if kind == "scout":
        if by in ("main", "advance"):
            for r in _refs(t):
                for x in b.ref_neighbours(t, seat, r):
                    if not t.up[x]:
                        yield {"type": kind, "by": by, "acting": _ref(t, r), "target": t.pos(x)}
        else:
            for x in range(n):
                if not t.up[x]:
                    yield {"type": kind, "by": by, "acting": None, "target": t.pos(x)}
    elif kind == "influence":
        xs = [c for c in dict.fromkeys(t.cubes)] if by == "cube" else range(n)
        for x in xs:
            room = min(b.usable(t, seat, x), t.disks[seat], 3)
            for k in range(1, room + 1):
                yield {"type": kind, "by": by, "target": t.pos(x), "n": k}
    elif kind == "extort":
        yield {"type": kind, "by": by, "target": "placard"}
        for x in range(n):
            if t.up[x]:
                yield {"type": kind, "by": by, "target": t.pos(x)}
    elif kind == "organize":
        if by == "main":
            for f in codes:
                yield {"type": kind, "by": by, "faction": f, "target": None}
        elif by == "cube":
            for x in dict.fromkeys(t.cubes):
                for f in codes:
                    yield {"type": kind, "by": by, "faction": f, "target": t.pos(x)}
        else:
            yield {"type": kind, "by": by, "faction": None, "target": None}
    elif kind == "expel":
        hand = list(dict.fromkeys(t.hands[seat]))
        if hand:
            for r in _refs(t):
                for x in b.ref_neighbours(t, seat, r):
                    for c in hand:
                        yield {
                            "type": kind,
                            "by": by,
                            "acting": _ref(t, r),
                            "target": t.pos(x),
                            "card": c,
                        }
    elif kind == "oust":
        for r in _refs(t):
            for x in b.ref_neighbours(t, seat, r):
                if by == "cube" and x not in t.cubes:
                    continue
                for d in b.seats_on(t, x):
                    if d == seat:
                        continue
                    for k in range(1, b.disks_on(t, d, x) + 1):
                        yield {
                            "type": kind,
                            "by": by,
                            "acting": _ref(t, r),
                            "target": t.pos(x),
                            "defender": d,
                            "k": k,
                        }


def main_options(t: Table, kinds: tuple[str, ...], bys: tuple[str, ...]) -> list[JsonDict]:
    return list(iter_main_options(t, kinds, bys))


def iter_main_options(t: Table, kinds: tuple[str, ...], bys: tuple[str, ...]) -> Iterator[JsonDict]:
    for kind in kinds:
        for by in bys:
            if by not in ac.BYS[kind]:
                continue
            probe = {"type": kind, "by": by}
            if ac.by_problem(t, probe) is not None:
                continue
            problem = PROBLEMS[kind]
            for a in candidates(t, kind, by):
                if problem(t, a) is None:
                    yield a


def do_main(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    yield from DOERS[a["type"]](t, ctx, a)


__all__ = [
    "MAIN",
    "PLACARD",
    "candidates",
    "do_main",
    "iter_main_options",
    "main_options",
    "main_problem",
]
