"""What the map says: disks, slots, control, lodges, faction scores (2.5, 2.7, 2.8, 9.2, 13.3).

Functions read a ``Table`` (positions are indexes, factions indexes, seats ints).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.pax.state import PLACARD, Card, Table

NOB, PRO, MAG, ART, SCH, CLE = range(6)


def card(t: Table, i: int) -> Card:
    return t.g.cat.cards[t.cards[i]]


def info(t: Table, card_id: str) -> Card:
    return t.g.cat.cards[card_id]


def disks_on(t: Table, seat: int, i: int) -> int:
    """disks(P, X) (2.5.1): 0 on a face-down card."""
    return t.slots[i].count(seat)


def others_on(t: Table, seat: int, i: int) -> int:
    return sum(1 for s in t.slots[i] if s is not None and s != seat)


def total_on(t: Table, i: int) -> int:
    return sum(1 for s in t.slots[i] if s is not None)


def seats_on(t: Table, i: int) -> list[int]:
    """The seats with disks on a card, ascending."""
    return sorted({s for s in t.slots[i] if s is not None})


def open_slots(t: Table, i: int) -> int:
    return t.slots[i].count(None) if t.up[i] else 0


def is_crown(t: Table, i: int) -> bool:
    return card(t, i).rank == "K"


def usable(t: Table, seat: int, i: int) -> int:
    """Open slots of face-up card i that ``seat`` may use (2.5.5, 2.6.9)."""
    if not t.up[i]:
        return 0
    sl = t.slots[i]
    if is_crown(t, i) and any(s is not None and s != seat for s in sl):
        return 0
    return sl.count(None)


def place_disk(t: Table, seat: int, i: int) -> int:
    """A disk from nowhere into the topmost open slot (2.5.3); returns the slot index."""
    sl = t.slots[i]
    k = sl.index(None)
    t.slots[i] = (*sl[:k], seat, *sl[k + 1 :])  # rows are tuples: thaw copies no row
    return k


def remove_disk(t: Table, seat: int, i: int) -> int:
    """Take ``seat``'s bottom-most disk off card i (R07); returns the slot index."""
    sl = t.slots[i]
    for k in range(len(sl) - 1, -1, -1):
        if sl[k] == seat:
            t.slots[i] = (*sl[:k], None, *sl[k + 1 :])
            return k
    raise ValueError(f"seat {seat} has no disk on {i}")


def controller(t: Table, i: int) -> int | None:
    """Who controls face-up card i (2.7), or None."""
    if not t.up[i]:
        return None
    sl = t.slots[i]
    seats = set(sl)
    seats.discard(None)
    if len(seats) < 2:
        return seats.pop() if seats else None
    counts: dict[int, int] = {}
    for s in sl:
        if s is not None:
            counts[s] = counts.get(s, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    top = [s for s, n in counts.items() if n == best]
    return top[0] if len(top) == 1 else None


def controls(t: Table, seat: int, i: int) -> bool:
    return controller(t, i) == seat


def set_totals(t: Table, cells: Iterable[int]) -> list[int]:
    """Per seat: disks on a set of cards."""
    tot = [0] * t.g.players
    for i in cells:
        for s in t.slots[i]:
            if s is not None:
                tot[s] += 1
    return tot


def set_controller(t: Table, cells: Iterable[int], minimum: int = 3) -> int | None:
    """Who controls a lodge or lodge set (2.8.3): at least ``minimum`` and strictly most."""
    tot = set_totals(t, cells)
    best = max(tot)
    if best < minimum or tot.count(best) > 1:
        return None
    return tot.index(best)


def shows(t: Table, i: int, f: int) -> bool:
    return t.up[i] and f in card(t, i).factions


def faction_cells(t: Table, f: int) -> list[int]:
    return [i for i in range(len(t.cards)) if t.up[i] and f in card(t, i).factions]


def components(t: Table, cells: list[int]) -> list[list[int]]:
    """Connected components (six-neighbour adjacency), each sorted, by first cell."""
    rest = set(cells)
    out = []
    nbrs = t.g.nbrs
    for start in sorted(cells):
        if start not in rest:
            continue
        rest.discard(start)
        group = [start]
        todo = [start]
        while todo:
            here = todo.pop()
            for n in nbrs[here]:
                if n in rest:
                    rest.discard(n)
                    group.append(n)
                    todo.append(n)
        out.append(sorted(group))
    return out


def lodges(t: Table, f: int) -> list[list[int]]:
    """The maximal lodges of faction f (2.8.2): components of >= 3 face-up F cards."""
    return [c for c in components(t, faction_cells(t, f)) if len(c) >= 3]


def may_control_a_lodge(t: Table, seat: int, f: int) -> bool:
    """A cheap necessary condition for controlling some lodge of f (2.8.3): at least 3
    of the seat's disks on face-up cards showing f."""
    n = 0
    for i, sl in enumerate(t.slots):
        if seat in sl and t.up[i] and f in card(t, i).factions:
            n += sl.count(seat)
            if n >= 3:
                return True
    return False


def largest_lodge_controller(t: Table, f: int) -> int | None:
    """Who controls the largest lodge of f (9.2, R35), or None."""
    best: dict[int, int] = {}
    for lodge in lodges(t, f):
        who = set_controller(t, lodge)
        if who is not None and len(lodge) > best.get(who, 0):
            best[who] = len(lodge)
    if not best:
        return None
    size = max(best.values())
    tied = [s for s, n in best.items() if n == size]
    if len(tied) == 1:
        return tied[0]
    cells = faction_cells(t, f)
    tot = set_totals(t, cells)
    top = max(tot[s] for s in tied)
    winners = [s for s in tied if tot[s] == top]
    return winners[0] if len(winners) == 1 else None


def faction_scores(t: Table) -> list[int]:
    """13.3: disks on the largest lodges of each faction (all tied lodges score)."""
    scores = [0] * t.g.players
    for f in range(6):
        ls = lodges(t, f)
        if not ls:
            continue
        size = max(len(x) for x in ls)
        for lodge in ls:
            if len(lodge) == size:
                for s, n in enumerate(set_totals(t, lodge)):
                    scores[s] += n
    return scores


def has_influence_on(t: Table, seat: int, i: int) -> bool:
    return t.up[i] and seat in t.slots[i]


def acting_refs(t: Table, seat: int) -> list[int]:
    """Acting cards (2.13): face-up map cards with the seat's disk, then its placard."""
    return [i for i in range(len(t.cards)) if t.up[i] and seat in t.slots[i]] + [PLACARD]


def ref_neighbours(t: Table, seat: int, ref: int) -> tuple[int, ...]:
    """Map positions adjacent to a ref: the card itself and its neighbours (R03), or the
    two cards a placard touches (2.4.1)."""
    if ref == PLACARD:
        return t.g.touch[seat]
    return (ref, *t.g.nbrs[ref])


def ref_factions(t: Table, seat: int, ref: int) -> tuple[int, ...]:
    """The factions of an acting card, for matching costs (2.2.4 b, 2.4.4)."""
    if ref == PLACARD:
        return t.g.contact[seat]
    return card(t, ref).factions


def next_to_influence(t: Table, seat: int, i: int) -> bool:
    """7.2.1: i holds the seat's disk, or is next to a card that does, or to its placard."""
    if seat in t.slots[i] and t.up[i]:
        return True
    if i in t.g.touch[seat]:
        return True
    return any(t.up[n] and seat in t.slots[n] for n in t.g.nbrs[i])


def init_strength(t: Table, seat: int, target: int) -> int:
    """7.6.3: the seat's disks on the target and its neighbours, +1 for its placard."""
    n = t.slots[target].count(seat)
    for x in t.g.nbrs[target]:
        if t.up[x]:
            n += t.slots[x].count(seat)
    if target in t.g.touch[seat]:
        n += 1
    return n


def map_disks(t: Table, seat: int) -> int:
    return sum(sl.count(seat) for sl in t.slots)
