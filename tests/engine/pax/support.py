"""Hand-made tables for Pax tests: a real game's table with cards, disks and favor put
where a test wants them, every card still in exactly one place (16.3).

    t = table(3)                       # seat 0 to act, round 1, M19
    put(t, (2, 4), "PIL016", [0, 1])   # face up, seat 0's disk on slot 1, seat 1's on 2
    hand(t, 0, ["PIL046"])
    favor(t, 0, NOB=2, SCH=1)
    s = ready(t)                       # the Action phase menu for seat 0
    s = act(s, {"type": "influence", ...}, pay=[...])
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax import engine as E
from engine.pax.invariants import problems
from engine.pax.state import State, Table, freeze, thaw

Pos = tuple[int, int]
CODES = ("NOB", "PRO", "MAG", "ART", "SCH", "CLE")


def table(players: int = 3, seed: str = "fixture") -> Table:
    """A new game's table at the start of round 1, seat 0 active, no hands, no favor."""
    t = thaw(E.new_game(players, "standard", seed))
    t.active = t.start_seat = 0
    for s in range(players):
        for card in list(t.hands[s]):
            t.hands[s].remove(card)
            t.deck.append(card)
        for f in range(6):
            t.pool[f] += t.favor[s][f]
            t.favor[s][f] = 0
    return t


def idx(t: Table, pos: Pos) -> int:
    return t.g.index[pos]


def _take(t: Table, card: str) -> None:
    """Remove a card from wherever it lies (deck, discard, court, a hand)."""
    for pile in (t.deck, t.discard, *t.hands):
        if card in pile:
            pile.remove(card)
            return
    if card in t.court:
        t.court[t.court.index(card)] = None
        return
    if card in t.cards:
        i = t.cards.index(card)
        assert not any(x is not None for x in t.slots[i]), f"{card} holds disks"
        t.cards[i] = t.deck.pop(0)
        t.up[i] = False
        t.slots[i] = ()
        return
    raise AssertionError(f"{card} is nowhere to take from")


def put(
    t: Table, pos: Pos, card: str, disks: list[int | None] | None = None, up: bool = True
) -> None:
    """Put ``card`` on ``pos`` (the card there goes to the deck); ``disks`` fill slots
    from the top (None leaves a slot empty), taken from the seats' supplies."""
    i = idx(t, pos)
    if t.cards[i] != card:
        if card in t.cards:
            j = t.cards.index(card)
            t.cards[i], t.cards[j] = t.cards[j], t.cards[i]
            t.up[j] = False
            for s in t.slots[j]:
                if s is not None:
                    t.disks[s] += 1
            t.slots[j] = ()
        else:
            _take(t, card)
            t.deck.append(t.cards[i])
            t.cards[i] = card
    for s in t.slots[i]:
        if s is not None:
            t.disks[s] += 1
    t.up[i] = up
    n = len(t.g.cat.cards[card].slots)
    row: list[int | None] = [None] * n if up else []
    for k, s in enumerate(disks or []):
        if s is not None:
            row[k] = s
            t.disks[s] -= 1
    t.slots[i] = tuple(row)


def down(t: Table, pos: Pos) -> None:
    i = idx(t, pos)
    for s in t.slots[i]:
        if s is not None:
            t.disks[s] += 1
    t.up[i] = False
    t.slots[i] = ()


def hand(t: Table, seat: int, cards: list[str]) -> None:
    for card in list(t.hands[seat]):
        t.hands[seat].remove(card)
        t.deck.append(card)
    for card in cards:
        _take(t, card)
        t.hands[seat].append(card)


def favor(t: Table, seat: int, **counts: int) -> None:
    """Set a seat's favor of the named factions (tokens come from or go to the pool)."""
    for code, n in counts.items():
        f = CODES.index(code)
        diff = n - t.favor[seat][f]
        t.pool[f] -= diff
        t.favor[seat][f] = n
        assert t.pool[f] >= 0, f"the pool has too few {code}"


def court(t: Table, cards: list[str | None]) -> None:
    for i, card in enumerate(t.court):
        if card is not None:
            t.deck.append(card)
            t.court[i] = None
    for i, card in enumerate(cards):
        if card is not None:
            _take(t, card)
            t.court[i] = card


def ready(t: Table, program: str = "menu") -> State:
    """Freeze the table at a program's start and run it to its first decision."""
    t.program = program
    t.phase = "action" if program == "menu" else t.phase
    t.pending = []
    t.options = None
    t.origin = None
    t.answers = []
    t.entry = None
    t.new_log = []
    state = freeze(t)
    assert problems(state) == [], problems(state)
    t2 = thaw(state)
    E._run(t2, freeze(t2, close=False), [])
    out = freeze(t2)
    assert problems(out) == [], problems(out)
    return out


def act(state: State, *actions: JsonDict) -> State:
    """Apply actions in order, each by the seat to act; check 16.3 after each."""
    for a in actions:
        seat = E.to_act(state)
        assert seat is not None, f"nobody is to act before {a}"
        options = E.legal_actions(state, seat)
        assert a in options, f"{a} is not offered: {options[:12]}..."
        state = E.apply(state, seat, a)
        assert problems(state) == [], problems(state)
    return state


def pay(code: str | None, exchange: bool = False) -> JsonDict:
    return {"type": "pay", "faction": code, "exchange": exchange}


def gain(code: str) -> JsonDict:
    return {"type": "gain", "faction": code}


def kinds(state: State) -> str | None:
    return state.pending[-1][1] if state.pending else None


def options(state: State) -> list[JsonDict]:
    seat = E.to_act(state)
    return [] if seat is None else E.legal_actions(state, seat)


def fav(state: State, seat: int) -> dict[str, int]:
    return {c: n for c, n in zip(CODES, state.favor[seat], strict=True) if n}


def slots(state: State, pos: Pos) -> list[int | None]:
    return list(state.slots[state.g.index[pos]])


def card_at(state: State, pos: Pos) -> str:
    return state.cards[state.g.index[pos]]


def run_auto(state: State) -> State:
    """Advance while nobody is to act and the game goes on."""
    while E.to_act(state) is None and not E.is_over(state):
        state = E.advance(state)
    return state


def steps(state: State, kind: str) -> list[dict[str, Any]]:
    return [st for e in state.log for st in e["steps"] if st["step"] == kind]


def types_of(state: State, kind: str) -> list[dict[str, object]]:
    return [o for o in options(state) if o["type"] == kind]


def give_card(t: Table, faction_card: str, seat: int | None) -> None:
    entries = [fc for fc in t.fcards if fc[0] == faction_card]
    if entries:
        entries[0][1] = entries[0][2] = seat
    else:
        t.fcards.append([faction_card, seat, seat, False])
        if faction_card in t.faction_box:
            t.faction_box.remove(faction_card)
        order = list(t.g.cat.data.faction_cards)
        t.fcards.sort(key=lambda fc: order.index(fc[0]))


def frozen_turn(t: Table) -> State:
    from engine.pax.state import freeze

    t.program = "turn"
    t.pending = []
    t.phase = "event"
    return freeze(t)


def oust_table(t: Table, blue: list[str], red: list[str]) -> State:
    put(t, (2, 4), "PIL016", [1, 0])
    put(t, (1, 3), "PIL042", [0, 0, 1, 1])
    put(t, (1, 5), "PIL044", [0, 0, 1, 1])
    put(t, (2, 2), "PIL040", [1])
    hand(t, 0, blue)
    hand(t, 1, red)
    favor(t, 0, PRO=1)
    oust = {
        "type": "oust",
        "by": "main",
        "acting": [1, 3],
        "target": [2, 4],
        "defender": 1,
        "k": 1,
    }
    return act(ready(t), oust)


def help_of(v: JsonDict, action: JsonDict) -> JsonDict:
    """The payment help (P-87) the view ``v`` gives for the offered ``action``."""
    entry: JsonDict = v["payment_help"][v["legal_actions"].index(action)]
    return entry
