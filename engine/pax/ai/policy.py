"""Static choices for the small decisions inside an action (16.2), on the bot's model.

Each function takes the model table ``t`` (a determinized state, see ``model``), the
deciding seat and the decision's options, and returns one of the options. They read only
what that seat may see: the public table and the seat's own hand (the model's samples of
hidden cards are never consulted, except the seat's own Oust hand, which it knows).
"""

from __future__ import annotations

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax.ai.evaluate import plot_progress
from engine.pax.plots import first_witness
from engine.pax.state import Table


def needs(t: Table, seat: int) -> list[int]:
    """Per faction: icons of the topmost usable slot of each face-up card next to the
    seat's influence (what its next Influences will cost, 7.2.1, 7.2.3)."""
    need = [0] * 6
    for i in range(len(t.cards)):
        if not t.up[i] or not b.usable(t, seat, i) or not b.next_to_influence(t, seat, i):
            continue
        slot = t.slots[i].index(None)
        for f in b.card(t, i).slots[slot]:
            need[f] += 1
    return need


def pay(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """A reduction first; then a token of the faction the seat holds most of beyond what
    its next Influences need; an exchange (2.2.5) only when nothing else pays."""
    for o in options:
        if o["faction"] is None:
            return o
    codes = t.g.cat.factions
    need = needs(t, seat)
    have = t.favor[seat]

    def spare(o: JsonDict) -> float:
        f = codes.index(o["faction"])
        return have[f] - 0.5 * need[f]

    plain = [o for o in options if not o["exchange"]]
    return max(plain or options, key=spare)


def gain(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """The faction the seat holds least of, weighted by what its Influences need."""
    codes = t.g.cat.factions
    need = needs(t, seat)
    have = t.favor[seat]

    def want(o: JsonDict) -> float:
        f = codes.index(o["faction"])
        return need[f] - 1.5 * have[f] + 0.1 * t.pool[f]

    return max(options, key=want)


def conspire(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """Give away the token the seat can best spare (7.3.6)."""
    codes = t.g.cat.factions
    need = needs(t, seat)
    have = t.favor[seat]
    return max(
        options, key=lambda o: have[codes.index(o["faction"])] - need[codes.index(o["faction"])]
    )


def overturn(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """Always take the shortfall (2.2.6), from the richest other seat first."""
    takes = [o for o in options if o["from"] is not None]
    if not takes:
        return options[0]
    return max(takes, key=lambda o: (sum(t.favor[o["from"]]), -o["from"]))


def keep_value(t: Table, card_id: str) -> float:
    """What a hand card is worth kept (Oust strength, an Ace's Dagger, a Crown's Hammer)."""
    c = b.info(t, card_id)
    if c.rank in ("A", "K"):
        return 2.5
    return 0.35 * int(c.strength)


def place(t: Table, seat: int, options: list[JsonDict], scouted: str | None) -> JsonDict:
    """7.1.4: the card that best extends the seat's lodges where it goes, net of what it
    is worth kept in hand."""
    pos = t.cards.index(scouted) if scouted in t.cards else None
    if pos is None:
        return options[0]

    def score(o: JsonDict) -> float:
        c = b.info(t, o["card"])
        s = 0.4 * len(c.slots)
        for n in t.g.nbrs[pos]:
            if not t.up[n]:
                continue
            shared = set(c.factions) & set(b.card(t, n).factions)
            if shared:
                s += 1.0 + 1.5 * (seat in t.slots[n]) - 0.8 * (b.others_on(t, seat, n) > 0)
        return s - keep_value(t, o["card"]) + (0.5 if o["card"] == scouted else 0.0)

    return max(options, key=score)


def _local(t: Table, seat: int, cells: set[int]) -> float:
    """Control of the given cards and of the lodges through them, for Organize moves."""
    v = 0.0
    for i in cells:
        if t.up[i]:
            who = b.controller(t, i)
            v += 1.6 if who == seat else (-0.8 if who is not None else 0.0)
    for f in range(6):
        for lodge in b.lodges(t, f):
            if cells & set(lodge):
                who = b.set_controller(t, lodge)
                v += 0.9 * len(lodge) if who == seat else 0.0
    return v


def move(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """Organize (7.4) and G05: the step that gains most control where it goes; stop when
    no step gains."""
    best, best_gain = None, 0.05
    for o in options:
        if o["type"] != "move":
            continue
        x = t.g.index[tuple(o["from"])]
        y = t.g.index[tuple(o["to"])]
        cells = {x, y}
        before = _local(t, seat, cells)
        sx, sy = t.slots[x], t.slots[y]
        k = max(j for j, s in enumerate(sx) if s == seat)
        j = sy.index(None)
        t.slots[x] = (*sx[:k], None, *sx[k + 1 :])  # rows are tuples (state.Table)
        sy2 = t.slots[y]
        t.slots[y] = (*sy2[:j], seat, *sy2[j + 1 :])
        after = _local(t, seat, cells)
        t.slots[x], t.slots[y] = sx, sy
        if after - before > best_gain:
            best, best_gain = o, after - before
    if best is not None:
        return best
    stop = [o for o in options if o["type"] == "stop"]
    return stop[0] if stop else options[0]


def oust_card(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """7.6.5: the Ace when underdog, the Crown when favoured, else the strongest number
    (as the public autopilot of 15.2.4), keeping Aces and Crowns that would add 0."""
    cards = [o["card"] for o in options if o["card"] is not None]
    if not cards:
        return options[0]
    o = t.oust
    favoured = o.favoured if o is not None else None
    has_auto = o is not None and seat in o.autowin

    def kind(c: str) -> object:
        return b.info(t, c).strength

    if not has_auto:
        if favoured is not None and favoured != seat:
            aces = sorted(c for c in cards if kind(c) == "DAGGER")
            if aces:
                return {"type": "oust_card", "card": aces[0]}
        if favoured == seat:
            crowns = sorted(c for c in cards if kind(c) == "HAMMER")
            if crowns:
                return {"type": "oust_card", "card": crowns[0]}
    numbers = sorted(
        (c for c in cards if isinstance(kind(c), int)), key=lambda c: (-int(str(kind(c))), c)
    )
    return {"type": "oust_card", "card": numbers[0] if numbers else sorted(cards)[0]}


def oust_next(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """7.6.5 step 4: call when ahead, continue while a card in hand can still turn it."""
    o = t.oust
    by = {x["choice"]: x for x in options}
    if o is None:
        return by.get("call", options[0])
    me, them = o.attacker, o.defender
    my_aw, their_aw = me in o.autowin, them in o.autowin
    mine = o.init[0] + o.sums[0]
    theirs = o.init[1] + o.sums[1]
    hand = t.hands[me]
    if my_aw and not their_aw:
        return by.get("call", options[0])
    if their_aw and not my_aw:
        cancel = "DAGGER" if o.favoured not in (None, me) else "HAMMER"
        if o.favoured is not None and any(b.info(t, c).strength == cancel for c in hand):
            return by.get("continue", by.get("call", options[0]))
        return by.get("call", options[0])
    if mine > theirs:
        return by.get("call", options[0])
    best = max(
        (int(str(b.info(t, c).strength)) for c in hand if isinstance(b.info(t, c).strength, int)),
        default=0,
    )
    if "continue" in by and mine + best > theirs + 3:
        return by["continue"]
    return by.get("call", options[0])


def strength(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """G03: be favoured (init(D) + 1) unless the seat's own strength is already higher."""
    o = t.oust
    by = {x["delta"]: x for x in options}
    if o is not None and o.init[0] > o.init[1] + 1 and 0 in by:
        return by[0]
    return by.get(1, options[0])


def card_value(t: Table, card_id: str) -> float:
    c = b.info(t, card_id)
    if c.rank in ("A", "K"):
        return 3.0
    return 0.4 * int(c.strength) + {"I": 0.0, "II": 0.3, "III": 0.6}.get(c.rank, 0.0)


def court(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """11.3 step 3: the Court cards worth more than an average deck card; two only when
    the pair is worth the favor it costs."""

    def score(o: JsonDict) -> float:
        s = sum(card_value(t, c) - 1.6 for c in o["cards"])
        return s - (0.6 if len(o["cards"]) == 2 else 0.0)

    return max(options, key=score)


def keep_event(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """11.2.2: an edict that strips the others of more favor than the seat (12.2), else a
    special event."""
    cat = t.g.cat

    def score(o: JsonDict) -> float:
        e = o["event"]
        if e in cat.edict_faction:
            f = cat.edict_faction[e]
            others = sum(t.favor[s][f] for s in range(t.g.players) if s != seat)
            return 0.5 * (others - t.favor[seat][f])
        return 1.5

    return max(options, key=score)


def keep_plot(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """G10: the plot the seat is nearer to meeting."""

    def score(o: JsonDict) -> float:
        p = o["plot"]
        return 1.0 if first_witness(t, seat, p) is not None else plot_progress(t, seat, p)

    return max(options, key=score)


def activate(t: Table, seat: int, options: list[JsonDict]) -> JsonDict:
    """5.5: a special event helps its holder first: activate one (the first held)."""
    return next((o for o in options if o["event"] is not None), options[0])


STATIC = {
    "pay": pay,
    "gain": gain,
    "conspire": conspire,
    "overturn": overturn,
    "move": move,
    "oust_card": oust_card,
    "oust_next": oust_next,
    "strength": strength,
    "court": court,
    "keep_event": keep_event,
    "keep_plot": keep_plot,
    "event": activate,
}
"""The decisions answered without looking ahead (``place`` needs the scouted card)."""
