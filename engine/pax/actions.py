"""The main actions Scout, Influence, Extort, Organize and Expel (7.1-7.5, 7.7, A.1, C, D).

Each action has a ``*_problem(t, a)`` (None, or ``(code, message)`` naming the rule that
refuses it), a bill (what it costs) and a program that carries it out. ``a["by"]`` says
how it is counted and paid (H.7): main, advance (S09), scheme (a Bonus), faction (a
faction card's ability) or cube (a follow-up on the cube's card, 7.7).
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.flow import Ctx, Proc
from engine.pax.piles import at_map, move, to_discard
from engine.pax.state import PLACARD, Table

Problem = tuple[str, str] | None

FC_ACTION = {
    "Scout": b.SCH,
    "Influence": b.NOB,
    "Extort": b.PRO,
    "Organize": b.ART,
    "Expel": b.MAG,
    "Oust": b.CLE,
}
"""Appendix C: the faction whose card grants each extra action."""
BONUS = {"G01": "influence", "G03": "oust", "G05": "expel", "G06": "scout", "G07": "organize"}
"""A.1: the Bonus abilities and their actions."""
BYS = {
    "scout": ("main", "advance", "scheme", "faction"),
    "influence": ("main", "advance", "scheme", "faction", "cube"),
    "extort": ("main", "faction"),
    "organize": ("main", "scheme", "faction", "cube"),
    "expel": ("main", "advance", "scheme", "faction"),
    "oust": ("main", "scheme", "faction", "cube"),
}


def special_active(t: Table, sid: str) -> bool:
    """Whether some player has special event ``sid`` active (5.5, 12.3)."""
    return sid in t.active_event


def fc_entry(t: Table, f: int) -> list[Any] | None:
    fid = t.g.cat.fc_by_faction.get(f)
    for entry in t.fcards:
        if entry[0] == fid:
            return entry
    return None


def parse_pos(t: Table, value: Any) -> int | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is int
    ):
        return t.g.index.get((value[0], value[1]))
    return None


def parse_ref(t: Table, value: Any) -> int | None:
    return PLACARD if value == "placard" else parse_pos(t, value)


def by_problem(t: Table, a: JsonDict) -> Problem:
    """The conditions of ``by`` shared by every main action (6.3, 7.7, 9.4, D)."""
    by = a.get("by")
    kind = a["type"]
    if by not in BYS[kind]:
        return ("by", f"A {kind} cannot be taken by '{by}' (H.7).")
    if by == "main" and t.turn.main_used >= t.turn.main_allowed:
        return ("no_main_action", "You have used all your main actions this turn (6.3).")
    if by == "advance" and not special_active(t, "S09"):
        return ("no_advance", "Rosicrucian Advance (S09) is not active.")
    if by == "faction":
        entry = fc_entry(t, FC_ACTION[kind.capitalize()])
        if entry is None or entry[1] != t.active:
            return ("no_faction_card", f"You do not hold the faction card for {kind} (9.4).")
        if entry[3]:
            return ("exhausted", "That faction card is exhausted this turn (9.4).")
    return None


def acting_problem(t: Table, seat: int, acting: int | None) -> Problem:
    if acting is None:
        return ("acting", "The acting card must be a map position or 'placard' (2.13).")
    if acting != PLACARD and not (t.up[acting] and seat in t.slots[acting]):
        return ("acting", "The acting card must be face up and hold your disk (2.13).")
    return None


def matching(t: Table, seat: int, acting: int) -> fv.Unit:
    return tuple(sorted(b.ref_factions(t, seat, acting)))


def is_rc(t: Table, i: int) -> bool:
    return i >= 0 and t.up[i] and b.card(t, i).affiliation == "RC"


def start(t: Table, a: JsonDict, cube_at: int | None = None) -> None:
    """Count the action against its source (main allowance, faction card, cube)."""
    by = a["by"]
    if by == "main":
        t.turn.main_used += 1
    elif by == "faction":
        entry = fc_entry(t, FC_ACTION[a["type"].capitalize()])
        assert entry is not None
        entry[3] = True
    elif by == "cube" and cube_at is not None:
        t.cubes.remove(cube_at)
        t.step("cube", pos=t.pos(cube_at), on=False)


def flag_reveal(t: Table, card_id: str) -> None:
    """11.2.1: an Ace or a Crown came out this turn."""
    if t.g.cat.cards[card_id].rank in ("A", "K"):
        t.turn.revealed = True


def disk_step(t: Table, seat: int, src: Any, dst: Any) -> None:
    t.step("disk", seat=seat, **{"from": src, "to": dst})


def slot_ref(t: Table, i: int, k: int) -> list[int]:
    r, c = t.g.positions[i]
    return [r, c, k]


# --- Scout (7.1) -----------------------------------------------------------------------


def scout_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    target = parse_pos(t, a["target"])
    if target is None or t.up[target]:
        return ("scout_target", "A Scout target must be a face-down map card (7.1.1).")
    by = a["by"]
    if by in ("main", "advance"):
        acting = parse_ref(t, a["acting"])
        p = acting_problem(t, seat, acting)
        if p:
            return p
        assert acting is not None
        if target not in b.ref_neighbours(t, seat, acting):
            return ("not_adjacent", "The Scout target must be adjacent to the acting card (7.1.1).")
        if by == "advance" and not is_rc(t, acting):
            return ("no_advance", "Rosicrucian Advance needs a Rosicrucian acting card (S09).")
    elif a["acting"] is not None:
        return ("acting", f"A Scout by {by} has no acting card (7.1.7, H.7).")
    if not fv.can_pay(t, seat, scout_bill(t, a)):
        return ("cannot_pay", "You cannot pay for this Scout (7.1.2).")
    return None


def scout_bill(t: Table, a: JsonDict) -> fv.Bill:
    if a["by"] in ("main", "advance"):
        acting = parse_ref(t, a["acting"])
        assert acting is not None
        return fv.Bill([matching(t, t.active, acting)])
    if a["by"] == "faction":
        return fv.Bill([(b.SCH,)])
    return fv.Bill([])


def do_scout(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    target = parse_pos(t, a["target"])
    assert target is not None
    start(t, a)
    yield from fv.pay(t, ctx, seat, scout_bill(t, a))
    scouted = t.cards[target]
    t.step("seen", seat=seat, of=None, cards=[scouted], private=[seat])
    choices = [*dict.fromkeys([*t.hands[seat], scouted])]
    ans = yield from ctx.ask(
        seat, "place", [{"type": "place", "card": c} for c in choices], cards=[scouted]
    )
    yield from place_card(t, ctx, seat, target, ans["card"])
    if a["by"] == "scheme":
        t.turn.scout_adjacent.append(target)


def place_card(t: Table, ctx: Ctx, seat: int, target: int, chosen: str) -> Proc[None]:
    """7.1.3-7.1.5 and G12: the scouted card to hand, the chosen card face up."""
    scouted = t.cards[target]
    if chosen == scouted:
        t.up[target] = True
        t.slots[target] = (None,) * len(t.g.cat.cards[scouted].slots)
        t.step("flip", card=scouted, pos=t.pos(target))
    else:
        t.hands[seat].remove(chosen)
        t.hands[seat].append(scouted)
        move(t, scouted, at_map(t, target), ["hand", seat], private=[seat])
        t.cards[target] = chosen
        t.up[target] = True
        t.slots[target] = (None,) * len(t.g.cat.cards[chosen].slots)
        move(t, chosen, ["hand", seat], at_map(t, target))
    flag_reveal(t, chosen)
    for buff in t.turn.buffs:
        if buff == "G12":
            yield from fv.gain_value(t, ctx, seat, t.g.cat.cards[chosen])


# --- Influence (7.2) -------------------------------------------------------------------


def influence_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    target = parse_pos(t, a["target"])
    n = a["n"]
    if target is None or not t.up[target]:
        return ("influence_target", "An Influence target must be a face-up map card (7.2.1).")
    if type(n) is not int or not 1 <= n <= 3:
        return ("influence_n", "You place 1 to 3 disks (7.2.2).")
    by = a["by"]
    if by in ("main", "advance", "cube") and not (
        b.next_to_influence(t, seat, target)
        or (special_active(t, "S02") and t.g.edge[target])
        or target in t.turn.scout_adjacent
    ):
        return ("not_adjacent", "The target must be adjacent to your influence (7.2.1).")
    if by == "advance" and not is_rc(t, target):
        return ("no_advance", "Rosicrucian Advance needs a Rosicrucian target (S09).")
    if by == "cube" and target not in t.cubes:
        return ("no_cube", "A follow-up Influence must target the cube's card (7.7.1, R31).")
    usable = b.usable(t, seat, target)
    if usable == 0 and b.is_crown(t, target) and b.others_on(t, seat, target):
        return ("crown_exclusive", "Another player has a disk on this Crown (2.6.9).")
    if n > usable:
        return ("no_slot", f"The target has {usable} open slots you can use (7.2.2).")
    if n > t.disks[seat]:
        return ("no_disks", f"You have {t.disks[seat]} disks in supply (7.2.2).")
    if not fv.can_pay(t, seat, influence_bill(t, a)):
        return ("cannot_pay", "You cannot pay for this Influence (7.2.3).")
    return None


def influence_bill(t: Table, a: JsonDict) -> fv.Bill:
    seat = t.active
    target = parse_pos(t, a["target"])
    assert target is not None
    c = b.card(t, target)
    sl = t.slots[target]
    open_idx = [k for k, s in enumerate(sl) if s is None][: a["n"]]
    buffs = t.turn.buffs.count("G08")
    nobility = fv.passive(t, b.NOB) and b.total_on(t, target) == 0
    units: list[fv.Unit] = []
    slot_of: list[int] = []
    budgets = []
    if a["by"] == "faction":
        units.append((b.NOB,))
        slot_of.append(-1)
    for j, k in enumerate(open_idx):
        icons = c.slots[k]
        cut = buffs + (1 if nobility and j == 0 else 0)
        budgets.append(min(cut, len(icons) - 1))
        for f in icons:
            units.append((f,))
            slot_of.append(j)
    d = b.others_on(t, seat, target) if a["by"] == "scheme" else 0
    return fv.Bill(units, slot_of, budgets, d)


def do_influence(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    target = parse_pos(t, a["target"])
    assert target is not None
    bill = influence_bill(t, a)
    start(t, a, target)
    yield from fv.pay(t, ctx, seat, bill)
    for _ in range(a["n"]):
        k = b.place_disk(t, seat, target)
        t.disks[seat] -= 1
        disk_step(t, seat, "supply", slot_ref(t, target, k))


# --- Extort (7.3) ----------------------------------------------------------------------


def extort_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    target = parse_ref(t, a["target"])
    if target is None:
        return ("extort_target", "An Extort target is a map position or your placard (7.3.1).")
    if target in t.turn.yielded:
        return ("yielded", "That card has already yielded favor this turn (7.3.5).")
    if target != PLACARD:
        if not t.up[target]:
            return ("extort_target", "A face-down card has no favor value (7.3.1).")
        if seat not in t.slots[target] and "G14" not in t.turn.buffs:
            return ("extort_target", "The target must hold your disk (7.3.1).")
    return None


def do_extort(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    target = parse_ref(t, a["target"])
    assert target is not None
    start(t, a)
    any_disk = "G14" in t.turn.buffs
    yielded = [target]
    if target != PLACARD and a["by"] != "faction":
        rank = b.card(t, target).rank
        for w in t.g.nbrs[target]:
            if (
                t.up[w]
                and b.card(t, w).rank == rank
                and w not in t.turn.yielded
                and (seat in t.slots[w] or (any_disk and b.total_on(t, w) > 0))
            ):
                yielded.append(w)
    t.turn.yielded.extend(yielded)
    vec = [0] * 6
    for y in yielded:
        if y == PLACARD:
            part = [1 if f in t.g.contact[seat] else 0 for f in range(6)]
        else:
            part = yield from fv.value(t, ctx, seat, b.card(t, y), disks=b.total_on(t, y))
        vec = [x + z for x, z in zip(vec, part, strict=True)]
    gained = yield from fv.gain_all(t, ctx, seat, vec)
    if a["by"] != "faction" and not special_active(t, "S07"):
        yield from fv.conspire(t, ctx, seat, yielded, gained)


# --- Organize (7.4) --------------------------------------------------------------------


def organize_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    by = a["by"]
    codes = t.g.cat.factions
    f = codes.index(a["faction"]) if a["faction"] in codes else None
    if by in ("main", "cube"):
        if f is None:
            return ("organize_faction", "Choose a faction to Organize (7.4.1).")
        if by == "main":
            if a["target"] is not None:
                return ("organize_target", "Only a cube follow-up names a target (H.7).")
            if not any(seat in t.slots[i] and b.shows(t, i, f) for i in range(len(t.cards))):
                return ("organize_faction", "You have no disk on a card of that faction (7.4.1).")
        else:
            target = parse_pos(t, a["target"])
            if target is None or target not in t.cubes:
                return ("no_cube", "A follow-up Organize ends on the cube's card (7.7.1, R25).")
    elif a["faction"] is not None or a["target"] is not None:
        return ("organize_faction", f"An Organize by {by} names no faction or target (H.7).")
    if not move_options(t, seat, _mode(a), f, parse_pos(t, a["target"]), None, {}):
        return ("no_move", "No disk can move (7.4.3, R24).")
    if not fv.can_pay(t, seat, organize_bill(t, a)):
        return ("cannot_pay", "You cannot pay for this Organize (7.4.2).")
    return None


def _mode(a: JsonDict) -> str:
    return {"main": "faction", "cube": "cube", "faction": "one", "scheme": "any"}[a["by"]]


def organize_bill(t: Table, a: JsonDict) -> fv.Bill:
    by = a["by"]
    if by == "main":
        return fv.Bill([(t.g.cat.factions.index(a["faction"]),)])
    if by == "cube":
        return fv.Bill([fv.ANY])
    if by == "faction":
        return fv.Bill([(b.ART,)])
    return fv.Bill([])


def move_options(
    t: Table,
    seat: int,
    mode: str,
    f: int | None,
    target: int | None,
    source: int | None,
    arrived: dict[int, int],
) -> list[JsonDict]:
    """Organize steps (7.4.3-7.4.5): ``mode`` faction (F cards to neighbours, or
    anywhere under S05), cube (onto the cube card), one (FC-ART: from one card), any (G07:
    each disk once)."""
    n = len(t.cards)
    out = []
    fair = special_active(t, "S05")
    for x in range(n):
        if not t.up[x] or seat not in t.slots[x]:
            continue
        if mode == "faction" and (f is None or not b.shows(t, x, f)):
            continue
        if mode == "cube" and (
            target is None or x not in t.g.nbrs[target] or f is None or not b.shows(t, x, f)
        ):
            continue
        if mode == "one" and source is not None and x != source:
            continue
        if mode == "any" and t.slots[x].count(seat) - arrived.get(x, 0) < 1:
            continue
        if mode == "cube":
            ys: Any = (target,)
        elif mode == "faction" and not fair:
            ys = t.g.nbrs[x]
        else:
            ys = range(n)
        for y in ys:
            if y != x and b.usable(t, seat, y) > 0:
                out.append({"type": "move", "from": t.pos(x), "to": t.pos(y)})
    return out


def do_organize(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    codes = t.g.cat.factions
    f = codes.index(a["faction"]) if a["faction"] is not None else None
    target = parse_pos(t, a["target"])
    start(t, a, target)
    yield from fv.pay(t, ctx, seat, organize_bill(t, a))
    mode = _mode(a)
    source: int | None = None
    arrived: dict[int, int] = {}
    for step_no in range(3):

        def options(first: bool = step_no == 0, source: int | None = source) -> list[JsonDict]:
            opts = move_options(t, seat, mode, f, target, source, arrived)
            return opts if first else [*opts, {"type": "stop"}]

        ans = yield from ctx.ask(
            seat, "move", options, context={"mode": mode, "moves_left": 3 - step_no}
        )
        if ans["type"] == "stop":
            return
        x = parse_pos(t, ans["from"])
        y = parse_pos(t, ans["to"])
        assert x is not None
        assert y is not None
        move_disk(t, seat, x, y)
        source = x
        arrived[y] = arrived.get(y, 0) + 1


def move_disk(t: Table, seat: int, x: int, y: int) -> None:
    k1 = b.remove_disk(t, seat, x)
    k2 = b.place_disk(t, seat, y)
    disk_step(t, seat, slot_ref(t, x, k1), slot_ref(t, y, k2))


# --- Expel (7.5) -----------------------------------------------------------------------


def expel_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    acting = parse_ref(t, a["acting"])
    p = acting_problem(t, seat, acting)
    if p:
        return p
    assert acting is not None
    target = parse_pos(t, a["target"])
    if target is None or target not in b.ref_neighbours(t, seat, acting):
        return ("not_adjacent", "The Expel target must be adjacent to the acting card (7.5.1).")
    if a["card"] not in t.hands[seat]:
        return ("not_in_hand", "You must put down a card from your hand (7.5.2).")
    new = t.g.cat.cards[a["card"]]
    others = b.others_on(t, seat, target)
    if others:
        if not special_active(t, "S04"):
            return ("others_disks", "The target holds another player's disk (7.5.1).")
        if len(new.slots) < others:
            return ("decree_room", "The new card must have room for their disks (S04, R74).")
        if new.rank == "K" and len([s for s in b.seats_on(t, target) if s != seat]) > 1:
            return ("crown_exclusive", "A Crown can take one other player's disks (R74).")
    if a["by"] == "advance" and new.affiliation != "RC":
        return ("no_advance", "Rosicrucian Advance needs a Rosicrucian card put down (S09).")
    if not fv.can_pay(t, seat, expel_bill(t, a)):
        return ("cannot_pay", "You cannot pay for this Expel (7.5.3).")
    return None


def expel_bill(t: Table, a: JsonDict) -> fv.Bill:
    seat = t.active
    acting = parse_ref(t, a["acting"])
    target = parse_pos(t, a["target"])
    assert acting is not None
    assert target is not None
    units: list[fv.Unit] = [(b.MAG,)] if a["by"] == "faction" else []
    if "G11" not in t.turn.buffs:
        units += [matching(t, seat, acting)] * max(1, b.total_on(t, target))
    return fv.Bill(units)


def do_expel(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    target = parse_pos(t, a["target"])
    assert target is not None
    bill = expel_bill(t, a)
    start(t, a)
    yield from fv.pay(t, ctx, seat, bill)
    old = t.cards[target]
    if not t.up[target]:
        t.step("flip", card=old, pos=t.pos(target))
    old_slots = t.slots[target]
    to_discard(t, old, at_map(t, target))
    new = a["card"]
    t.hands[seat].remove(new)
    t.cards[target] = new
    t.up[target] = True
    t.slots[target] = (None,) * len(t.g.cat.cards[new].slots)
    move(t, new, ["hand", seat], at_map(t, target))
    flag_reveal(t, new)
    crown = t.g.cat.cards[new].rank == "K"
    n = t.g.players
    order = [(seat + k) % n for k in range(1, n)] + [seat]
    first: int | None = None
    for s in order:
        for k, who in enumerate(old_slots):
            if who != s:
                continue
            src = slot_ref(t, target, k)
            if (crown and first is not None and first != s) or None not in t.slots[target]:
                t.disks[s] += 1
                disk_step(t, s, src, "supply")
                continue
            first = s if first is None else first
            k2 = b.place_disk(t, s, target)
            disk_step(t, s, src, slot_ref(t, target, k2))
    if a["by"] == "scheme":
        yield from bonus_expel_move(t, ctx, seat, target)


def bonus_expel_move(t: Table, ctx: Ctx, seat: int, target: int) -> Proc[None]:
    """G05 (R64): then you may move 1 of your disks from any map card onto the new card."""

    def options() -> list[JsonDict]:
        if b.usable(t, seat, target) == 0:
            return [{"type": "stop"}]
        opts: list[JsonDict] = [
            {"type": "move", "from": t.pos(x), "to": t.pos(target)}
            for x in range(len(t.cards))
            if x != target and t.up[x] and seat in t.slots[x]
        ]
        return [*opts, {"type": "stop"}]

    ans = yield from ctx.ask(seat, "move", options)
    if ans["type"] == "move":
        x = parse_pos(t, ans["from"])
        assert x is not None
        move_disk(t, seat, x, target)
