"""Hand-made tables for the automa's tests (section 14), on top of ``support``.

    t = atable(2, "SG")                 # M14, the automa (seat 1) to act, no favor, no hands
    bpos(t, (2, 3), "PIL016")           # B: a card with a bot disk under the token
    put(t, (3, 4), "PIL043", [])        # a face-up neighbour
    s = turn(t)                         # the automa's Action phase, up to a human's decision

On M14 the automa's placard is (-1, 4), facing 3: FL = SE, FR = SW, R = W, BR = NW,
BL = NE, L = E (Appendix F). From B = (2, 3) its six neighbours are FL (3, 4), FR (3, 2),
R (2, 1), BR (1, 2), BL (1, 4) and L (2, 5). Seed "automa" gives the automa the contact
factions NOB, MAG, SCH.
"""

from __future__ import annotations

from typing import Any

from engine.pax import engine as E
from engine.pax.state import State, Table, thaw
from tests.engine.pax.support import _take, idx, put, ready

Pos = tuple[int, int]
SEED = "automa"

B = (2, 3)
FL, FR, R, BR, BL, L = (3, 4), (3, 2), (2, 1), (1, 2), (1, 4), (2, 5)
"""B's neighbours on M14 in the automa's frame (facing 3)."""


def atable(players: int, bot: str, seed: str = SEED) -> Table:
    """A new automa game's table in round 1, the automa (seat N-1) active, every hand
    and supply empty (cards to the deck, favor to the pool)."""
    t = thaw(E.new_game(players, f"automa-{bot}", seed))
    t.start_seat = 0
    t.active = players - 1
    for s in range(players):
        for card in list(t.hands[s]):
            t.hands[s].remove(card)
            t.deck.append(card)
        for f in range(6):
            t.pool[f] += t.favor[s][f]
            t.favor[s][f] = 0
    return t


def bpos(t: Table, pos: Pos, card: str, disks: int = 1) -> None:
    """Put ``card`` face up at ``pos`` with ``disks`` bot disks and the token on it."""
    bot = t.g.players - 1
    put(t, pos, card, [bot] * disks)
    t.token = idx(t, pos)


def deck_top(t: Table, *cards: str) -> None:
    """Put cards on top of the luminary deck, the first on top."""
    for card in reversed(cards):
        _take(t, card)
        t.deck.insert(0, card)


def turn(t: Table) -> State:
    """Run the automa's Action phase (14.8.2) up to a decision or its end."""
    t.phase = "action"
    return ready(t, "automa")


def lines(state: State) -> list[tuple[str, Any]]:
    """The automa's script lines in the log: (rule, target)."""
    return [
        (st["rule"], st["target"]) for e in state.log for st in e["steps"] if st["step"] == "automa"
    ]


def texts(state: State) -> list[str]:
    return [st["text"] for e in state.log for st in e["steps"] if st["step"] == "automa"]
