"""Cards moving between places, with their log steps (2.11, 12.2, H.6).

Places in ``move`` steps are lists (H.6): ``["deck"]``, ``["discard"]``, ``["court", i]``,
``["map", r, c]``, ``["hand", seat]``, ``["scheme"]``, ``["oust"]`` and the event and
plot places. A step naming a card only some seats may see has ``private``.
"""

from __future__ import annotations

from typing import Any

from engine.pax.rng import shuffled
from engine.pax.state import Table

FINAL_EDICTS = 5
"""5.3: the 5th discarded edict makes the round in progress the final round."""


def move(
    t: Table, card: str, src: list[Any], dst: list[Any], private: list[int] | None = None
) -> None:
    keys: dict[str, Any] = {"card": card, "from": src, "to": dst}
    if private is not None:
        keys["private"] = private
    t.step("move", **keys)


def at_map(t: Table, i: int) -> list[Any]:
    r, c = t.g.positions[i]
    return ["map", r, c]


def reshuffle(t: Table) -> None:
    """2.11.2: the discard pile becomes the deck (stream ``lum/reshuffle/<n>``, P-8)."""
    t.reshuffles += 1
    t.deck = list(shuffled(t.g.seed, f"lum/reshuffle/{t.reshuffles}", tuple(t.discard)))
    t.discard = []
    t.step("reshuffle", n=t.reshuffles, size=len(t.deck))


def draw(t: Table) -> str | None:
    """The top luminary, reshuffling as 2.11.2 and R82 say; None when there is none."""
    if not t.deck and t.discard:
        reshuffle(t)
    if not t.deck:
        return None
    card = t.deck.pop(0)
    if not t.deck:
        t.exhaustions += 1
        if t.discard:
            reshuffle(t)
    return card


def to_discard(t: Table, card: str, src: list[Any]) -> None:
    """Face up on top of the luminary discard pile (H.1: the top is first)."""
    t.discard.insert(0, card)
    move(t, card, src, ["discard"])


def draw_to_hand(t: Table, seat: int) -> bool:
    card = draw(t)
    if card is None:
        return False
    t.hands[seat].append(card)
    move(t, card, ["deck"], ["hand", seat], private=[seat])
    return True


def discard_edict(t: Table, seat: int, index: int) -> None:
    """An empty edict goes to the event discard (5.1 step 3, R16, 5.3)."""
    card = t.edicts[seat].pop(index)[0]
    t.event_discard.insert(0, card)
    move(t, card, ["edict", seat], ["event_discard"])
    t.edicts_discarded += 1
    if t.edicts_discarded >= FINAL_EDICTS:
        t.final_round = True


def edict_favor(t: Table, seat: int, index: int, to: int | None, n: int) -> int:
    """Move up to n favor off an edict to the pool (``to`` None) or a seat's supply."""
    entry = t.edicts[seat][index]
    f = t.g.cat.edict_faction[entry[0]]
    moved = min(n, entry[1])
    if moved:
        entry[1] -= moved
        if to is None:
            t.pool[f] += moved
        else:
            t.favor[to][f] += moved
        t.step(
            "favor",
            faction=t.g.cat.factions[f],
            n=moved,
            **{"from": entry[0], "to": "pool" if to is None else to},
        )
    return moved


def resolve_edict(t: Table, seat: int, card: str) -> None:
    """12.2: in front of the drawer; every token of its faction to the pool; 6 onto it."""
    f = t.g.cat.edict_faction[card]
    code = t.g.cat.factions[f]
    t.edicts[seat].append([card, 0])
    for q in range(t.g.players):
        n = t.favor[q][f]
        if n:
            t.favor[q][f] = 0
            t.pool[f] += n
            t.step("favor", faction=code, n=n, **{"from": q, "to": "pool"})
    n = min(6, t.pool[f])
    t.pool[f] -= n
    t.edicts[seat][-1][1] = n
    if n:
        t.step("favor", faction=code, n=n, **{"from": "pool", "to": card})
    if n == 0:
        discard_edict(t, seat, len(t.edicts[seat]) - 1)


def return_plot_disks(t: Table, plot: str) -> None:
    """11.1.4: a plot leaving the game sends the disks on and under it home."""
    for where, claims in (("on", t.claims_on), ("under", t.claims_under)):
        for s in claims.pop(plot, []):
            t.disks[s] += 1
            t.step("disk", seat=s, **{"from": [plot, where], "to": "supply"})
