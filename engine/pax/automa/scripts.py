"""The direction-priority scripts: Count of St. Germain (14.10.1) and Joseph II
(14.10.2). Each returns the first letter that holds (14.3.2, R44) as a ``Letter``, or
None; ``turn`` runs it. Candidates are ranked by their direction number from the
reference card, highest first (14.5.4).
"""

from __future__ import annotations

from engine.pax import board as b
from engine.pax.automa.base import (
    Letter,
    b_expel,
    b_influence,
    b_scout,
    can_expel,
    can_influence,
    direction_number,
    follow,
    humans_on,
    mark,
    move_token,
    neighbours,
    only_bot,
    ref_pos,
    say,
    shares,
    where,
)
from engine.pax.automa.favor import b_extort
from engine.pax.automa.oust import b_oust
from engine.pax.flow import Ctx, Proc
from engine.pax.geometry import distance
from engine.pax.state import PLACARD, Table


def scout(rule: str, y: int) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        say(t, rule, y, f"turns {where(t, y)} face up (B-Scout)")
        b_scout(t, y)
        yield from ()

    return Letter(rule, y, run)


def influence(rule: str, y: int, then_extort: bool = False) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        label, at = where(t, y), mark(t)
        words = b_influence(t, bot, y)
        say(t, rule, y, f"influences {label}: {words}", at)
        if then_extort:
            b_extort(t, bot, y, rule)
        follow(t, bot, y)
        yield from ()

    return Letter(rule, y, run)


def oust(rule: str, y: int, acting: int, token: int | None = None) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        if token is not None:
            say(t, rule, token, f"charges: its token moves to {where(t, token)}")
            move_token(t, token)
        yield from b_oust(t, ctx, bot, y, acting, rule)
        follow(t, bot, y)

    return Letter(rule, y, run)


def expel(rule: str, y: int) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        label, at = where(t, y), mark(t)
        words = b_expel(t, bot, y)
        say(t, rule, y, f"expels {label}: it {words}", at)
        follow(t, bot, y)
        yield from ()

    return Letter(rule, y, run)


# --- Count of St. Germain (14.10.1) -------------------------------------------------------


def next_to_humans(t: Table, bot: int, i: int) -> bool:
    return any(humans_on(t, bot, n) for n in t.g.nbrs[i])


def nearest(t: Table, bot: int, ref: int, cells: list[int]) -> list[int]:
    """The cells nearest to B (14.5.6): neighbours of B by direction priority, others in
    reading order (R83, P-34)."""
    if not cells:
        return []
    origin = ref_pos(t, bot, ref)
    best = min(distance(origin, t.g.positions[i]) for i in cells)
    tied = [i for i in cells if distance(origin, t.g.positions[i]) == best]
    rank = {i: k for k, (i, _) in enumerate(neighbours(t, bot, ref))}
    return sorted(tied, key=lambda i: (rank.get(i, 6), i))


def sg(t: Table, bot: int) -> Letter | None:
    B = t.token
    assert B is not None
    nb = neighbours(t, bot, B)
    for y, _ in nb:  # a
        if not t.up[y]:
            return scout("a", y)
    for y, _ in nb:  # b
        if t.up[y] and shares(t, bot, y, B):
            if can_influence(t, bot, y):
                return influence("b1", y, then_extort=True)
            if humans_on(t, bot, y):
                return oust("b2", y, B)
    for y, _ in nb:  # c
        if t.up[y] and not shares(t, bot, y, B):
            if not humans_on(t, bot, y):
                if can_expel(t):
                    return expel("c1", y)
            else:
                return oust("c2", y, B)
    if nb and all(only_bot(t, bot, y) and b.usable(t, bot, y) == 0 for y, _ in nb):  # d
        zs = [
            i
            for i in range(len(t.cards))
            if t.up[i] and bot in t.slots[i] and next_to_humans(t, bot, i)
        ]
        near = [y for y, _ in nb if y in zs]
        pick = near[0] if near else next(iter(nearest(t, bot, B, zs)), None)
        if pick is not None:
            return sg_d(pick)
    return None


def sg_d(z: int) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        bot = t.active
        say(t, "d", z, f"is hemmed in by its own disks: its token moves to {where(t, z)}")
        move_token(t, z)
        b_extort(t, bot, z, "d")
        if PLACARD not in t.turn.yielded:
            b_extort(t, bot, PLACARD, "d")
        yield from ()

    return Letter("d", z, run)


# --- Joseph II (14.10.2) -----------------------------------------------------------------


def strongest_neighbour(t: Table, bot: int, y: int) -> int | None:
    """Y's neighbour with the most bot disks; ties to the highest direction number from
    Y in the bot's frame (14.10.2 b, d); None without one."""
    cands = [n for n in t.g.nbrs[y] if t.up[n] and bot in t.slots[n]]
    if not cands:
        return None
    return max(cands, key=lambda n: (t.slots[n].count(bot), direction_number(t, bot, y, n)))


def j2(t: Table, bot: int) -> Letter | None:
    B = t.token
    assert B is not None
    nb = neighbours(t, bot, B)
    for y, _ in nb:  # a
        if t.up[y] and humans_on(t, bot, y):
            return oust("a", y, B)
    charge = [  # b
        i
        for i in range(len(t.cards))
        if t.up[i] and humans_on(t, bot, i) and strongest_neighbour(t, bot, i) is not None
    ]
    if charge:

        def key(i: int) -> tuple[int, int, int]:
            z = strongest_neighbour(t, bot, i)
            assert z is not None
            return (-t.slots[z].count(bot), -humans_on(t, bot, i), i)

        target = min(charge, key=key)
        z = strongest_neighbour(t, bot, target)
        assert z is not None
        return oust("b", target, z, token=z)
    for y, _ in nb:  # c
        if bot not in t.slots[y]:
            if t.up[y] and can_influence(t, bot, y):
                return influence("c", y)
            if not t.up[y]:
                return scout("c", y)
    ds = [  # d
        i
        for i in range(len(t.cards))
        if bot not in t.slots[i]
        and strongest_neighbour(t, bot, i) is not None
        and (not t.up[i] or can_influence(t, bot, i))
    ]
    for y in nearest(t, bot, B, ds)[:1]:
        z = strongest_neighbour(t, bot, y)
        assert z is not None
        inner = scout("d", y) if not t.up[y] else influence("d", y)
        return j2_d(y, z, inner)
    return None


def j2_d(y: int, z: int, inner: Letter) -> Letter:
    def run(t: Table, ctx: Ctx) -> Proc[None]:
        say(t, "d", y, f"reaches out: its token moves to {where(t, z)}")
        move_token(t, z)
        yield from inner.run(t, ctx)

    return Letter("d", y, run)
