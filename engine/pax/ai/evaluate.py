"""A static evaluation of a table for one seat (the bots' model, never the real state).

``value(t, seat)`` is the seat's worth minus its strongest opponent's: a won game is
worth ``WIN``; short of that, claims on plots and a compatible pair of them (11.1.3),
plots met now and progress towards the plots the seat may claim (Appendix B), faction
scores as they stand (13.3, weighted up as the final round nears), faction cards held
and largest lodges controlled (9.1), controlled cards and disks on the map, favor and
hand cards (P-51).
"""

from __future__ import annotations

from engine.pax import board as b
from engine.pax import plots as pl
from engine.pax.state import Table

WIN = 10_000.0

# Weights (P-51). Favor and cards are means to an end: worth less than what they buy.
W_CLAIM = 40.0
W_PAIR = 400.0
W_MET = 14.0
W_PROGRESS = 12.0
W_FACTION_CARD = 9.0
W_LARGEST = 5.0
W_CONTROL = 1.6
W_DISK = 0.9
W_FAVOR = 0.45
W_FAVOR_EXTRA = 0.12
W_HAND = 1.1
W_FRONTIER = 0.6
"""A face-up card next to the seat's influence with a slot it may use: room to grow."""


def _threshold(t: Table, plot: str) -> int:
    return t.g.cat.data.plots[plot].threshold(t.g.players)


def _controlled(t: Table, seat: int) -> list[int]:
    return [i for i in range(len(t.cards)) if t.up[i] and b.controller(t, i) == seat]


def _lodge_progress(t: Table, seat: int, cells_ok: list[bool], need: int, disks: int) -> float:
    """The best share of a lodge set of ``need`` cards with ``disks`` of the seat's disks,
    controlled, among the cards allowed by ``cells_ok`` (P01, P11, P12, P13)."""
    best = 0.0
    for f in range(6):
        cells = [i for i in b.faction_cells(t, f) if cells_ok[i]]
        for comp in b.components(t, cells):
            tot = b.set_totals(t, comp)
            mine = tot[seat]
            if mine == 0:
                continue
            lead = 1.0 if all(mine > n for s, n in enumerate(tot) if s != seat) else 0.5
            share = min(len(comp), need) / need * min(mine, disks) / disks * lead
            best = max(best, share)
    return best


def plot_progress(t: Table, seat: int, plot: str) -> float:
    """How near the seat is to meeting a plot, 0 to 1 (a rough measure, P-51)."""
    n = len(t.cards)
    if plot == "P01":
        return _lodge_progress(t, seat, list(t.g.edge), 4, 4)
    if plot == "P02":
        best = 0
        for x in range(n):
            if not (t.up[x] and seat in t.slots[x]):
                continue
            rank = b.card(t, x).rank
            same = sum(
                1
                for y in t.g.nbrs[x]
                if t.up[y] and seat in t.slots[y] and b.card(t, y).rank == rank
            )
            best = max(best, 1 + min(same, 3))
        return best / 4
    if plot == "P03":
        crowns = [i for i in range(n) if t.up[i] and b.is_crown(t, i)]
        tot = b.set_totals(t, crowns)
        lead = all(tot[seat] > m for s, m in enumerate(tot) if s != seat)
        return min(tot[seat], 4) / 4 * (1.0 if lead else 0.5)
    if plot == "P04":
        cells = [i for i in range(n) if t.g.interior[i] and t.up[i] and seat in t.slots[i]]
        return min(max((len(c) for c in b.components(t, cells)), default=0), 4) / 4
    if plot == "P05":
        covered: set[int] = set()
        for i in _controlled(t, seat):
            c = b.card(t, i)
            if c.affiliation == "FM":
                covered.update(c.factions)
        return len(covered) / 6
    if plot == "P06":
        return min(len(_controlled(t, seat)) / max(1, _threshold(t, plot)), 1.0)
    if plot == "P07":
        knights = sum(1 for i in _controlled(t, seat) if b.card(t, i).knight)
        return min(knights / max(1, _threshold(t, plot)), 1.0)
    if plot == "P08":
        best = 0
        for f in range(6):
            cells = [i for i in b.faction_cells(t, f) if seat in t.slots[i]]
            for comp in b.components(t, cells):
                best = max(best, len({t.g.row[i] for i in comp}))
        return best / (t.g.bottom_row - t.g.top_row + 1)
    if plot == "P09":
        shared = sum(
            1 for i in range(n) if seat in t.slots[i] and b.others_on(t, seat, i) > 0 and t.up[i]
        )
        return min(shared / max(1, _threshold(t, plot)), 1.0)
    if plot == "P10":
        rc = [i for i in _controlled(t, seat) if b.card(t, i).affiliation == "RC"]
        disks = sum(b.disks_on(t, seat, i) for i in rc)
        return min(len(rc), 3) / 3 * 0.6 + min(disks, 5) / 5 * 0.4
    if plot == "P11":
        middle = [t.g.row[i] == t.g.middle_row for i in range(n)]
        return _lodge_progress(t, seat, middle, 3, 3)
    if plot == "P12":
        return _lodge_progress(t, seat, [True] * n, 5, 5)
    if plot == "P13":
        mine = set(t.g.touch[seat])
        others = {i for s in range(t.g.players) if s != seat for i in t.g.touch[s]}
        link = 0.0
        for f in range(6):
            for comp in b.components(t, b.faction_cells(t, f)):
                if b.set_controller(t, comp) != seat:
                    continue
                link = max(link, 0.5 * bool(mine & set(comp)) + 0.4 * bool(others & set(comp)))
        return link
    return 0.0


def plot_value(t: Table, seat: int, own: bool) -> float:
    """Claims, a compatible pair, plots met and progress (10, 11.1, Appendix B). For
    another seat (``own`` False) only its claims count: its private plot is hidden from
    the evaluating seat (the model's one is a sample) and its progress is its own affair."""
    if seat >= t.g.humans:
        return 0.0
    held = pl.on_top(t, seat)
    v = W_CLAIM * len(held)
    if len(held) >= 2 and pl.victory(t, seat) is not None:
        v += W_PAIR
    if not own:
        return v
    for p in pl.claim_candidates(t, seat):
        if pl.has_claim(t, seat, p):
            continue
        if pl.first_witness(t, seat, p) is not None:
            v += W_MET
        else:
            v += W_PROGRESS * plot_progress(t, seat, p) ** 2
    return v


def frontier(t: Table, seat: int) -> int:
    """Face-up cards the seat may Influence next (7.2.1) with a slot it may use."""
    return sum(
        1
        for i in range(len(t.cards))
        if t.up[i] and b.usable(t, seat, i) and b.next_to_influence(t, seat, i)
    )


class Facts:
    """What every seat's value reads, worked out once per table."""

    def __init__(self, t: Table) -> None:
        players = t.g.players
        self.late = min(t.edicts_discarded, 5) / 5
        owners = [b.controller(t, i) if t.up[i] else None for i in range(len(t.cards))]
        self.controlled = [owners.count(s) for s in range(players)]
        in_game = {t.g.cat.fc_faction[fc[0]] for fc in t.fcards}
        self.scores = [0] * players
        self.largest = [0] * players
        for f in range(6):
            lodges = b.lodges(t, f)
            if not lodges:
                continue
            size = max(len(x) for x in lodges)
            best: dict[int, int] = {}
            for lodge in lodges:
                totals = b.set_totals(t, lodge)
                if len(lodge) == size:  # 13.3: every largest lodge scores
                    for s, n in enumerate(totals):
                        self.scores[s] += n
                top = max(totals)
                if top >= 3 and totals.count(top) == 1:  # 2.8.3
                    who = totals.index(top)
                    best[who] = max(best.get(who, 0), len(lodge))
            if f in in_game and best:  # 9.2: a single seat with the largest controlled lodge
                most = max(best.values())
                tied = [s for s, n in best.items() if n == most]
                if len(tied) == 1:
                    self.largest[tied[0]] += 1
        self.faction_cards = [sum(1 for fc in t.fcards if fc[2] == s) for s in range(t.g.players)]


def seat_value(t: Table, seat: int, facts: Facts, own: bool) -> float:
    """One seat's worth (without its opponents)."""
    v = plot_value(t, seat, own)
    v += (2.0 + 6.0 * facts.late) * facts.scores[seat]
    v += W_FACTION_CARD * facts.faction_cards[seat] + W_LARGEST * facts.largest[seat]
    v += W_CONTROL * facts.controlled[seat] + W_DISK * b.map_disks(t, seat)
    v += W_FRONTIER * min(6, frontier(t, seat))
    for n in t.favor[seat]:
        v += W_FAVOR * min(n, 3) + W_FAVOR_EXTRA * max(0, n - 3)
    v += W_HAND * min(len(t.hands[seat]), 6)
    return v


def value(t: Table, seat: int) -> float:
    """The seat's worth minus its best opponent's (P-51)."""
    if t.result is not None:
        winners = t.result.get("winner_seats", [])
        if seat in winners:
            return WIN / len(winners)
        return -WIN
    facts = Facts(t)
    mine = seat_value(t, seat, facts, True)
    others = [seat_value(t, s, facts, False) for s in range(t.g.players) if s != seat]
    return mine - (max(others) if others else 0.0)
