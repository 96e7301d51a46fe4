"""Plots: the witnesses of the 13 conditions, the two matching restrictions, claims and
the Plot Check (10, 11.1, Appendix B, R66-R73).

A witness is ``(cells, lodge)``: a bitmask of map positions and, for lodge-based plots,
the identity of the maximal lodge that contains the lodge set (R09), else None.
Witnesses are listed lazily and capped at ``CAP`` per plot (Appendix B).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, pairwise

from engine.pax import board as b
from engine.pax.state import Table

CAP = 100_000
Witness = tuple[int, tuple[int, int] | None]


def _mask(cells: list[int] | tuple[int, ...]) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m


def _cells(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def connected_subsets(t: Table, nodes: list[int], min_size: int) -> Iterator[int]:
    """Every connected subset (six-neighbour adjacency) of ``nodes`` with at least
    ``min_size`` cards, each exactly once, as bitmasks (ESU enumeration, capped)."""
    allowed = set(nodes)
    nbrs = t.g.nbrs
    count = 0

    def grow(root: int, sub: int, size: int, near: frozenset[int], ext: list[int]) -> Iterator[int]:
        nonlocal count
        if count >= CAP:
            return
        if size >= min_size:
            count += 1
            yield sub
        ext = list(ext)
        while ext:
            w = ext.pop()
            more = [u for u in nbrs[w] if u in allowed and u > root and u not in near]
            yield from grow(root, sub | (1 << w), size + 1, near | {w, *nbrs[w]}, ext + more)

    for root in sorted(nodes):
        first = [u for u in nbrs[root] if u in allowed and u > root]
        yield from grow(root, 1 << root, 1, frozenset({root, *nbrs[root]}), first)


def _lodge_id(t: Table, f: int, cell: int) -> tuple[int, int]:
    for comp in b.components(t, b.faction_cells(t, f)):
        if cell in comp:
            return (f, _mask(comp))
    raise AssertionError("a lodge set outside its lodge")


def _subsets(cells: list[int], least: int, full: bool) -> Iterator[int]:
    """Subsets of at least ``least`` cards, the largest first. Not ``full``: only the
    whole set and the whole set less one card (the basis of P-28)."""
    lowest = least if full else max(least, len(cells) - 1)
    for size in range(len(cells), lowest - 1, -1):
        for combo in combinations(cells, size):
            yield _mask(combo)


def witnesses(t: Table, seat: int, plot: str, full: bool = False) -> Iterator[Witness]:
    """The witnesses of ``plot`` for ``seat`` now (Appendix B).

    P05, P06, P07, P09 and P10 are upward closed within a set Q of qualifying cards (a
    superset of a witness inside Q is one). For them only Q and Q less one card are
    listed unless ``full``: that basis holds a witness compatible (10.4) with a given set
    whenever the whole family does (P-28), so claims and the victory check lose nothing.
    """
    n = len(t.cards)
    pl = t.g.cat.data.plots[plot]
    prm = pl.params
    up = [i for i in range(n) if t.up[i]]
    mine = [i for i in up if seat in t.slots[i]]
    count = 0

    def controlled() -> list[int]:
        return [i for i in up if b.controller(t, i) == seat]

    def lodge_sets(f: int, pool: list[int], least: int) -> Iterator[tuple[int, list[int]]]:
        for m in connected_subsets(t, pool, least):
            yield m, _cells(m)

    def worth(pool: list[int], cards: int, disks: int) -> bool:
        """A quick necessary condition: enough cards, and enough of the seat's disks."""
        return len(pool) >= cards and sum(b.disks_on(t, seat, i) for i in pool) >= disks

    if plot == "P01":
        for f in range(6):
            pool = [i for i in up if t.g.edge[i] and f in b.card(t, i).factions]
            if not worth(pool, prm["min_cards"], prm["min_disks"]):
                continue
            for m, cells in lodge_sets(f, pool, prm["min_cards"]):
                if b.set_controller(t, cells, prm["min_disks"]) == seat:
                    yield m, _lodge_id(t, f, cells[0])
    elif plot == "P02":
        for x in mine:
            rank = b.card(t, x).rank
            ys = [y for y in t.g.nbrs[x] if y in mine and b.card(t, y).rank == rank]
            for combo in combinations(ys, prm["neighbours"]):
                yield _mask((x, *combo)), None
    elif plot == "P03":
        crowns = [i for i in up if b.card(t, i).rank == "K"]
        tot = b.set_totals(t, crowns)
        if tot[seat] >= prm["min_disks"] and all(
            tot[seat] > tot[q] for q in range(t.g.players) if q != seat
        ):
            yield _mask([i for i in crowns if seat in t.slots[i]]), None
    elif plot == "P04":
        pool = [i for i in mine if t.g.interior[i]]
        for m in connected_subsets(t, pool, prm["min_cards"]):
            cells = _cells(m)
            if all(
                sum(1 for y in t.g.nbrs[x] if (m >> y) & 1) >= prm["min_neighbours_in_set"]
                for x in cells
            ):
                yield m, None
    elif plot == "P05":
        fm = [i for i in controlled() if b.card(t, i).affiliation == "FM"]
        for m in _subsets(fm, 1, full):
            shown = {f for i in _cells(m) for f in b.card(t, i).factions}
            if len(shown) >= prm["factions"]:
                count += 1
                if count > CAP:
                    return
                yield m, None
    elif plot in ("P06", "P07", "P09"):
        if plot == "P06":
            pool = controlled()
        elif plot == "P07":
            pool = [i for i in controlled() if b.card(t, i).knight]
        else:
            pool = [i for i in mine if b.others_on(t, seat, i) > 0]
        least = pl.threshold(t.g.players)
        if len(pool) >= least:
            for m in _subsets(pool, least, full):
                count += 1
                if count > CAP:
                    return
                yield m, None
    elif plot == "P10":
        kind = pl.p10_kind or "RC"

        def fits(i: int) -> bool:
            c = b.card(t, i)
            return c.affiliation == "RC" if kind == "RC" else b.CLE in c.factions

        mine_rc = []
        theirs = [0] * t.g.players
        for i in up:
            who = b.controller(t, i)
            if who is not None and fits(i):
                theirs[who] += 1
                if who == seat:
                    mine_rc.append(i)
        if all(len(mine_rc) > theirs[q] for q in range(t.g.players) if q != seat):
            for m in _subsets(mine_rc, prm["min_cards"], full):
                cells = _cells(m)
                if sum(b.disks_on(t, seat, i) for i in cells) >= prm["min_disks"]:
                    count += 1
                    if count > CAP:
                        return
                    yield m, None
    elif plot == "P11":
        row = [i for i in up if t.g.row[i] == prm["row"]]
        for f in range(6):
            cells = sorted(i for i in row if f in b.card(t, i).factions)
            if not worth(cells, prm["min_cards"], 3):  # set_controller needs 3 (2.8.3)
                continue
            for a in range(len(cells)):
                for z in range(a + prm["min_cards"] - 1, len(cells)):
                    seg = cells[a : z + 1]
                    cols = [t.g.positions[i][1] for i in seg]
                    if any(q - p != 2 for p, q in pairwise(cols)):
                        break
                    if b.set_controller(t, seg) == seat:
                        yield _mask(seg), _lodge_id(t, f, seg[0])
    elif plot == "P08":
        for f in range(6):
            pool = [i for i in mine if f in b.card(t, i).factions]
            reach = {t.g.row[i] for i in pool}
            if t.g.top_row not in reach or t.g.bottom_row not in reach:
                continue
            for m, cells in lodge_sets(f, pool, 3):
                rows = {t.g.row[i] for i in cells}
                if t.g.top_row in rows and t.g.bottom_row in rows:
                    yield m, _lodge_id(t, f, cells[0])
    elif plot == "P12":
        for f in range(6):
            pool = b.faction_cells(t, f)
            if not worth(pool, prm["min_cards"], prm["min_disks"]):
                continue
            for m, cells in lodge_sets(f, pool, prm["min_cards"]):
                if b.set_controller(t, cells, prm["min_disks"]) == seat:
                    yield m, _lodge_id(t, f, cells[0])
    elif plot == "P13":
        own = set(t.g.touch[seat])
        other = {x for q in range(t.g.players) if q != seat for x in t.g.touch[q]}
        for f in range(6):
            pool = b.faction_cells(t, f)
            if not worth(pool, 3, 3) or not (own & set(pool) and other & set(pool)):
                continue
            for m, cells in lodge_sets(f, pool, 3):
                cs = set(cells)
                if cs & own and cs & other and b.set_controller(t, cells) == seat:
                    yield m, _lodge_id(t, f, cells[0])
    else:
        raise KeyError(plot)


def first_witness(t: Table, seat: int, plot: str) -> Witness | None:
    return next(witnesses(t, seat, plot), None)


def compatible(a: Witness, z: Witness) -> bool:
    """10.4: neither set inside the other (1), and not the same lodge (2)."""
    if a[0] & z[0] in (a[0], z[0]):
        return False
    return a[1] is None or z[1] is None or a[1] != z[1]


def compatible_pair(t: Table, seat: int, p1: str, p2: str) -> tuple[Witness, Witness] | None:
    later = list(witnesses(t, seat, p2))
    if not later:
        return None
    for w1 in witnesses(t, seat, p1):
        for w2 in later:
            if compatible(w1, w2):
                return w1, w2
    return None


def on_top(t: Table, seat: int) -> list[str]:
    return sorted(p for p, seats in t.claims_on.items() if seat in seats)


def has_claim(t: Table, seat: int, plot: str) -> bool:
    return seat in t.claims_on.get(plot, []) or seat in t.claims_under.get(plot, [])


def claim_candidates(t: Table, seat: int) -> list[str]:
    """The public plots and the seat's own private plot (10.1)."""
    plots = list(t.public_plots)
    own = t.plot[seat]
    if own is not None and own not in plots:
        plots.append(own)
    return plots


def claim_ok(t: Table, seat: int, p: str) -> bool:
    """Whether ``seat`` may claim plot p now (10.1, 10.2, 10.5, R38, R39)."""
    if t.turn.claimed_plot or t.disks[seat] < 1 or seat >= t.g.humans:
        return False
    if p not in claim_candidates(t, seat) or has_claim(t, seat, p):
        return False
    held = on_top(t, seat)
    if not held:
        return first_witness(t, seat, p) is not None
    others = {q: list(witnesses(t, seat, q)) for q in held}
    return any(
        all(any(compatible(w, v) for v in others[q]) for q in held) for w in witnesses(t, seat, p)
    )


def claimable(t: Table, seat: int) -> list[str]:
    """The plots ``seat`` may claim now."""
    if t.turn.claimed_plot or t.disks[seat] < 1 or seat >= t.g.humans:
        return []
    return [p for p in claim_candidates(t, seat) if claim_ok(t, seat, p)]


def victory(t: Table, seat: int) -> tuple[str, str] | None:
    """11.1.3: two plots with the seat's disk on top and compatible witnesses."""
    held = on_top(t, seat)
    for i, p1 in enumerate(held):
        for p2 in held[i + 1 :]:
            if compatible_pair(t, seat, p1, p2):
                return p1, p2
    return None


def plot_check(t: Table) -> None:
    """11.1.1 and 11.1.2, every player in turn order from the active one (R40)."""
    n = t.g.players
    order = [(t.active + k) % n for k in range(n)]
    for s in order:
        for p in sorted(t.claims_on):
            if s in t.claims_on[p] and first_witness(t, s, p) is None:
                t.claims_on[p].remove(s)
                t.claims_under.setdefault(p, []).append(s)
                t.claims_under[p].sort()
                t.step("disk", seat=s, **{"from": [p, "on"], "to": [p, "under"]})
    for s in order:
        for p in sorted(t.claims_under):
            if s in t.claims_under[p] and first_witness(t, s, p) is not None:
                t.claims_under[p].remove(s)
                t.claims_on.setdefault(p, []).append(s)
                t.claims_on[p].sort()
                t.step("disk", seat=s, **{"from": [p, "under"], "to": [p, "on"]})
