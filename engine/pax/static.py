"""What never changes in a game: the catalogue of the data as the rules read it (cards
with factions as indexes) and the Static part of a state (seats, map, seed).

``Static`` compares by its seed, round cap and set-up; the seed stays secret until the
game is over (15.3.1): only the engine reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.pax.catalog import PaxData
from engine.pax.geometry import Pos, neighbours
from engine.pax.loader import data as packaged_data
from engine.pax.setup import Setup


@dataclass(frozen=True)
class Card:
    """What the rules read of a luminary (A.3), factions as indexes."""

    id: str
    rank: str
    factions: tuple[int, ...]
    strength: int | str
    affiliation: str | None
    knight: bool
    slots: tuple[tuple[int, ...], ...]
    ability: str
    favor: tuple[str, ...]
    extort_per_disk: int | None

    @property
    def top(self) -> int:
        return self.factions[0]

    @property
    def bottom(self) -> int | None:
        return self.factions[1] if len(self.factions) > 1 else None


@dataclass(frozen=True)
class Catalog:
    """The data set as the rules read it."""

    data: PaxData
    factions: tuple[str, ...]
    cards: dict[str, Card]
    ability_type: dict[str, str]
    ability_action: dict[str, str | None]
    fc_faction: dict[str, int]  # faction card id -> faction index
    fc_by_faction: dict[int, str]
    edict_faction: dict[str, int]
    contact_factions: dict[str, tuple[int, ...]]
    contact_number: dict[str, int]


@cache
def catalog(d: PaxData | None = None) -> Catalog:
    """The catalogue of a data set (the packaged one by default), built once."""
    d = d or packaged_data()
    codes = d.faction_codes
    fi = {c: i for i, c in enumerate(codes)}
    cards = {}
    for lum in d.luminaries.values():
        rank = d.ranks[lum.rank]
        cards[lum.id] = Card(
            lum.id,
            lum.rank,
            tuple(fi[f] for f in lum.factions),
            lum.strength,
            lum.affiliation,
            lum.knight,
            tuple(tuple(fi[f] for f in slot) for slot in lum.slots),
            lum.ability,
            rank.favor,
            rank.extort_favor_per_disk,
        )
    return Catalog(
        data=d,
        factions=codes,
        cards=cards,
        ability_type={a.id: a.type for a in d.abilities.values()},
        ability_action={a.id: a.action for a in d.abilities.values()},
        fc_faction={fc.id: fi[fc.faction] for fc in d.faction_cards.values()},
        fc_by_faction={fi[fc.faction]: fc.id for fc in d.faction_cards.values()},
        edict_faction={e.id: fi[e.faction] for e in d.edicts.values()},
        contact_factions={c.id: tuple(fi[f] for f in c.factions) for c in d.contacts.values()},
        contact_number={c.id: c.number for c in d.contacts.values()},
    )


@dataclass(frozen=True, eq=False)
class Static:
    """What never changes in a game: seats, map, seed (secret until the end)."""

    cat: Catalog
    setup: Setup
    seed: str
    round_cap: int | None
    players: int
    humans: int
    positions: tuple[Pos, ...]
    index: dict[Pos, int]
    nbrs: tuple[tuple[int, ...], ...]  # the six-neighbour map positions, clockwise (R48)
    edge: tuple[bool, ...]
    interior: tuple[bool, ...]
    row: tuple[int, ...]
    top_row: int
    middle_row: int
    bottom_row: int
    placards: tuple[Pos, ...]
    touch: tuple[tuple[int, ...], ...]  # per seat: the map positions its placard touches
    touched_by: tuple[tuple[int, ...], ...]  # per position: seats whose placard touches it
    contact: tuple[tuple[int, ...], ...]  # per seat: its contact card's factions

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Static) and (
            self.seed,
            self.round_cap,
            self.setup,
        ) == (other.seed, other.round_cap, other.setup)

    def __hash__(self) -> int:
        return hash((self.seed, self.round_cap))

    def adjacent(self, a: int, b: int) -> bool:
        """2.3.2 with self-adjacency (2.3.3, R03)."""
        return a == b or b in self.nbrs[a]


def make_static(setup: Setup, seed: str, round_cap: int | None, d: PaxData | None = None) -> Static:
    cat = catalog(d)
    layout = cat.data.layouts[setup.layout]
    geo = layout.geometry
    positions = geo.positions
    index = {p: i for i, p in enumerate(positions)}
    seats = layout.seats(setup.players)
    touch = tuple(tuple(index[p] for p in geo.touching(s.placard)) for s in seats)
    return Static(
        cat=cat,
        setup=setup,
        seed=seed,
        round_cap=round_cap,
        players=setup.players,
        humans=setup.players - (setup.automa is not None),
        positions=positions,
        index=index,
        nbrs=tuple(tuple(index[q] for q in neighbours(p) if q in index) for p in positions),
        edge=tuple(geo.is_edge(p) for p in positions),
        interior=tuple(geo.is_interior(p) for p in positions),
        row=tuple(p[0] for p in positions),
        top_row=geo.top_row,
        middle_row=geo.middle_row,
        bottom_row=geo.bottom_row,
        placards=tuple(s.placard for s in seats),
        touch=touch,
        touched_by=tuple(
            tuple(s for s in range(len(seats)) if i in touch[s]) for i in range(len(positions))
        ),
        contact=tuple(cat.contact_factions[s.contact] for s in setup.seats),
    )
