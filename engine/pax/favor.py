"""Favor: costs as requirement units, whether they can be paid, paying them one unit at a
time, gains with overturn, favor values and Conspire (2.2, 2.6.3, 7.2.3, 7.3).

A ``Bill`` lists units (2.2.4), each the tuple of factions that may pay it directly. The
active payer may pay a unit with ``rate`` tokens of one faction (exchange, 2.2.5: 3, or
2 with FC-PRO) and, with FC-ART, with one ART token (wild). Influence bills also carry
reductions (7.2.3): per-slot budgets (G08, Nobility passive; never below 1 icon per
slot) and a global budget (G01's d); ``None`` pays a unit by a reduction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from engine.core import JsonDict
from engine.pax.board import ART, PRO
from engine.pax.flow import Ctx, Proc
from engine.pax.state import Card, Table

Unit = tuple[int, ...]
ANY: Unit = (0, 1, 2, 3, 4, 5)


@dataclass
class Bill:
    """What remains to pay. ``slot_of[i]`` is unit i's slot for reductions, or -1."""

    units: list[Unit]
    slot_of: list[int] = field(default_factory=list)
    budgets: list[int] = field(default_factory=list)
    d: int = 0

    def reducible(self, i: int) -> bool:
        if not self.slot_of or self.slot_of[i] < 0:
            return False
        return self.budgets[self.slot_of[i]] > 0 or self.d > 0


def holds(t: Table, seat: int, f: int) -> bool:
    """Whether ``seat`` holds (owns or has borrowed) the faction card of faction f."""
    fid = t.g.cat.fc_by_faction.get(f)
    for fc in t.fcards:  # noqa: SIM110 (no genexpr: every bill checks this; docs/pax.md)
        if fc[0] == fid and fc[1] == seat:
            return True
    return False


def passive(t: Table, f: int) -> bool:
    """A faction card's passive works for the active player who holds it (9.4, R36)."""
    return holds(t, t.active, f)


def exchange_rate(t: Table) -> int:
    return 2 if passive(t, PRO) else 3


def wild(t: Table) -> bool:
    return passive(t, ART)


# --- can it be paid? -------------------------------------------------------------------


def _payable(counts: list[int], units: list[Unit], rate: int, wild_art: bool) -> bool:
    """Exact: can ``counts`` pay every unit (direct, exchange, wild ART)?"""
    if not units:
        return True
    if sum(counts) < len(units):
        return False
    singles = [0] * 6
    sets: dict[Unit, int] = {}
    anys = 0
    for u in units:
        if len(u) == 1:
            singles[u[0]] += 1
        elif len(u) == 6:
            anys += 1
        else:
            sets[u] = sets.get(u, 0) + 1
    if anys and (sets or any(singles)):
        return _dfs(tuple(counts), tuple(sorted(units, key=len)), rate, wild_art, {})
    if anys:
        return sum(counts) >= anys
    if len(sets) > 1:
        return _dfs(tuple(counts), tuple(sorted(units, key=len)), rate, wild_art, {})
    c = list(counts)
    short = 0
    for f in range(6):
        s = min(singles[f], c[f])
        c[f] -= s
        short += singles[f] - s
    if not sets:
        return _spare(c, rate, wild_art) >= short
    ((s_units, m),) = sets.items()
    avail = [c[f] for f in s_units]
    direct = min(m, sum(avail))
    short += m - direct
    for x in _splits(avail, direct):
        left = list(c)
        for f, n in zip(s_units, x, strict=True):
            left[f] -= n
        if _spare(left, rate, wild_art) >= short:
            return True
    return False


def _spare(c: list[int], rate: int, wild_art: bool) -> int:
    """Units the leftover tokens can still pay by exchange or as wild ART."""
    return sum(n if (wild_art and f == ART) else n // rate for f, n in enumerate(c))


def _splits(avail: list[int], total: int) -> list[tuple[int, ...]]:
    out = []
    for combo in product(*(range(min(a, total) + 1) for a in avail)):
        if sum(combo) == total:
            out.append(combo)
    return out


def _dfs(
    counts: tuple[int, ...],
    units: tuple[Unit, ...],
    rate: int,
    wild_art: bool,
    memo: dict[tuple[tuple[int, ...], int], bool],
    i: int = 0,
) -> bool:
    if i == len(units):
        return True
    key = (counts, i)
    if key in memo:
        return memo[key]
    ways = set(units[i])
    if wild_art:
        ways.add(ART)
    ok = False
    for f in sorted(ways):
        if counts[f] >= 1:
            nxt = (*counts[:f], counts[f] - 1, *counts[f + 1 :])
            if _dfs(nxt, units, rate, wild_art, memo, i + 1):
                ok = True
                break
    if not ok:
        for f in range(6):
            if counts[f] >= rate:
                nxt = (*counts[:f], counts[f] - rate, *counts[f + 1 :])
                if _dfs(nxt, units, rate, wild_art, memo, i + 1):
                    ok = True
                    break
    memo[key] = ok
    return ok


def feasible(counts: list[int], bill: Bill, start: int, rate: int, wild_art: bool) -> bool:
    """Can units ``start:`` of the bill be paid, reductions included?"""
    units = bill.units[start:]
    if not bill.slot_of or (not any(bill.budgets) and bill.d == 0):
        return _payable(counts, units, rate, wild_art)
    slot_of = bill.slot_of[start:]
    fixed = [u for u, s in zip(units, slot_of, strict=True) if s < 0]
    by_slot: dict[int, list[int]] = {}
    for u, s in zip(units, slot_of, strict=True):
        if s >= 0:
            by_slot.setdefault(s, []).append(u[0])
    demands: set[tuple[int, ...]] = {tuple(sorted(f for icons in by_slot.values() for f in icons))}
    for s, icons in by_slot.items():
        r = min(bill.budgets[s], len(icons))
        if r == 0:
            continue
        nxt = set()
        for dem in demands:
            for removed in _choose(icons, r):
                rest = list(dem)
                for f in removed:
                    rest.remove(f)
                nxt.add(tuple(rest))
        demands = nxt
    if bill.d:
        nxt = set()
        for dem in demands:
            for removed in _choose(list(dem), min(bill.d, len(dem))):
                rest = list(dem)
                for f in removed:
                    rest.remove(f)
                nxt.add(tuple(rest))
        demands = nxt
    return any(_payable(counts, [(f,) for f in dem] + fixed, rate, wild_art) for dem in demands)


def _choose(icons: list[int], r: int) -> set[tuple[int, ...]]:
    """The distinct multisets of ``r`` icons taken from ``icons``."""
    out: set[tuple[int, ...]] = {()}
    for _ in range(r):
        out = {
            tuple(sorted((*o, f)))
            for o in out
            for f in set(icons)
            if (*o, f).count(f) <= icons.count(f)
        }
    return out


def can_pay(t: Table, seat: int, bill: Bill) -> bool:
    cache = t.pay_cache
    if cache is None:
        return feasible(t.favor[seat], bill, 0, exchange_rate(t), wild(t))
    key = (seat, tuple(bill.units), tuple(bill.slot_of), tuple(bill.budgets), bill.d)
    found = cache.get(key)
    if found is None:
        found = cache[key] = feasible(t.favor[seat], bill, 0, exchange_rate(t), wild(t))
    return found


def pay_options(t: Table, seat: int, bill: Bill, i: int) -> list[JsonDict]:
    """The ways to pay unit i that leave the rest payable (R80)."""
    codes = t.g.cat.factions
    counts = t.favor[seat]
    rate = exchange_rate(t)
    wa = wild(t)
    out: list[JsonDict] = []
    if bill.reducible(i):
        saved = (list(bill.budgets), bill.d)
        reduce_unit(bill, i)
        if feasible(counts, bill, i + 1, rate, wa):
            out.append({"type": "pay", "faction": None, "exchange": False})
        bill.budgets, bill.d = saved
    direct = set(bill.units[i])
    if wa:
        direct.add(ART)
    for f in range(6):
        if f in direct and counts[f] >= 1:
            counts[f] -= 1
            if feasible(counts, bill, i + 1, rate, wa):
                out.append({"type": "pay", "faction": codes[f], "exchange": False})
            counts[f] += 1
    for f in range(6):
        if counts[f] >= rate:
            counts[f] -= rate
            if feasible(counts, bill, i + 1, rate, wa):
                out.append({"type": "pay", "faction": codes[f], "exchange": True})
            counts[f] += rate
    return out


def reduce_unit(bill: Bill, i: int) -> None:
    """Unit i of the bill is waived: one reduction of its slot's budget, else of the
    bill's own."""
    s = bill.slot_of[i]
    if bill.budgets[s] > 0:
        bill.budgets[s] -= 1
    else:
        bill.d -= 1


def settle_unit(t: Table, bill: Bill, i: int, answer: JsonDict) -> tuple[int, int] | None:
    """Unit i of ``bill`` paid by a ``pay`` answer: a reduction is used up on the bill
    (None); otherwise the faction and the number of its tokens the unit takes (1, or the
    exchange rate, 2.2.4). ``pay`` spends them; ``payhelp`` takes them on a copy."""
    if answer["faction"] is None:
        reduce_unit(bill, i)
        return None
    return t.g.cat.factions.index(answer["faction"]), exchange_rate(t) if answer["exchange"] else 1


def pay(t: Table, ctx: Ctx, seat: int, bill: Bill) -> Proc[None]:
    """Pay a bill one unit at a time (H.7 ``pay``)."""
    for i in range(len(bill.units)):
        unit = [t.g.cat.factions[f] for f in bill.units[i]]
        a = yield from ctx.ask(
            seat,
            "pay",
            lambda i=i: pay_options(t, seat, bill, i),  # type: ignore[misc]
            context={"unit": unit, "units_left": len(bill.units) - i},
        )
        cost = settle_unit(t, bill, i, a)
        if cost is not None:
            spend(t, seat, *cost)


def spend(t: Table, seat: int, f: int, n: int) -> None:
    """Tokens from a supply to the pool (2.2.3)."""
    if n <= 0:
        return
    t.favor[seat][f] -= n
    t.pool[f] += n
    t.step("favor", faction=t.g.cat.factions[f], n=n, **{"from": seat, "to": "pool"})


# --- gains -----------------------------------------------------------------------------


def gain(t: Table, ctx: Ctx, seat: int, f: int, n: int) -> Proc[int]:
    """Gain n of faction f from the pool, then overturn by choice (2.2.6, R02)."""
    take = min(n, t.pool[f])
    code = t.g.cat.factions[f]
    if take:
        t.pool[f] -= take
        t.favor[seat][f] += take
        t.step("favor", faction=code, n=take, **{"from": "pool", "to": seat})
    short = n - take
    while short > 0:

        def options() -> list[JsonDict]:
            victims = [q for q in range(t.g.players) if q != seat and t.favor[q][f] > 0]
            return [{"type": "overturn", "from": q} for q in victims] + [
                {"type": "overturn", "from": None}
            ]

        a = yield from ctx.ask(seat, "overturn", options, context={"faction": code, "short": short})
        q = a["from"]
        if q is None:
            break
        t.favor[q][f] -= 1
        t.favor[seat][f] += 1
        t.step("favor", faction=code, n=1, **{"from": q, "to": seat})
        take += 1
        short -= 1
    return take


def gain_all(t: Table, ctx: Ctx, seat: int, vec: list[int]) -> Proc[list[int]]:
    """Gain a favor vector, faction by faction in faction order; returns what was gained."""
    got = [0] * 6
    for f in range(6):
        if vec[f]:
            got[f] = yield from gain(t, ctx, seat, f, vec[f])
    return got


def value(t: Table, ctx: Ctx, seat: int, c: Card, disks: int | None = None) -> Proc[list[int]]:
    """A card's favor value (2.6.3), asking the rank I/III picks. ``disks``: an Extort
    yield, where a Crown gives its per-disk value (R08)."""
    vec = [0] * 6
    if disks is not None and c.extort_per_disk is not None:
        vec[c.top] += c.extort_per_disk * disks
        return vec
    codes = t.g.cat.factions
    for sym in c.favor:
        if sym in ("T", "F"):
            vec[c.top] += 1
        elif sym == "B":
            vec[c.bottom if c.bottom is not None else c.top] += 1
        else:
            pick = [c.top] if c.bottom is None else [c.top, c.bottom]
            a = yield from ctx.ask(
                seat,
                "gain",
                [{"type": "gain", "faction": codes[f]} for f in pick],
                context={"card": c.id},
            )
            vec[codes.index(a["faction"])] += 1
    return vec


def gain_value(t: Table, ctx: Ctx, seat: int, c: Card) -> Proc[list[int]]:
    """Gain a card's favor value (Quick Favor, Ace, Scout buff)."""
    vec = yield from value(t, ctx, seat, c)
    return (yield from gain_all(t, ctx, seat, vec))


def gain_any(t: Table, ctx: Ctx, seat: int, n: int) -> Proc[None]:
    """Gain n favor, naming each faction first (2.2.6; the defender's k favor, 7.6.8)."""
    codes = t.g.cat.factions
    for k in range(n):
        a = yield from ctx.ask(
            seat,
            "gain",
            [{"type": "gain", "faction": c} for c in codes],
            context={"left": n - k},
        )
        yield from gain(t, ctx, seat, codes.index(a["faction"]), 1)


def conspire(t: Table, ctx: Ctx, seat: int, yielded: list[int], gained: list[int]) -> Proc[None]:
    """7.3.6: give each other player 1 favor per disk on a card that yielded, from the
    favor just gained first; recipients in turn order after the extorter (R23)."""
    n = t.g.players
    codes = t.g.cat.factions
    owed = [0] * n
    for i in yielded:
        if i < 0:
            continue
        for s in t.slots[i]:
            if s is not None and s != seat:
                owed[s] += 1
    fresh = list(gained)
    for k in range(1, n):
        q = (seat + k) % n
        for _ in range(owed[q]):
            held = t.favor[seat]
            if any(fresh[f] and held[f] for f in range(6)):
                pool = [f for f in range(6) if fresh[f] and held[f]]
            else:
                pool = [f for f in range(6) if held[f]]
            if not pool:
                return
            a = yield from ctx.ask(
                seat,
                "conspire",
                [{"type": "conspire", "faction": codes[f]} for f in pool],
                context={"to": q, "owed": owed[q]},
            )
            f = codes.index(a["faction"])
            owed[q] -= 1
            if fresh[f]:
                fresh[f] -= 1
            t.favor[seat][f] -= 1
            t.favor[q][f] += 1
            t.step("favor", faction=codes[f], n=1, **{"from": seat, "to": q})
