"""The card, map and bot data of Pax Illuminaten as frozen dataclasses (spec Appendices A-G).

Instances are built and validated by :mod:`engine.pax.loader` from the JSON files in
``engine/pax/data/``; nothing here hard-codes a card (spec 0.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.pax.geometry import MapGeometry, Pos

Slot = tuple[str, ...]
"""One slot's cost: faction icons (2.5.2)."""


@dataclass(frozen=True)
class Faction:
    """One of the six factions, in canonical order (2.1)."""

    code: str
    name: str
    japanese: str


@dataclass(frozen=True)
class Ability:
    """A luminary ability (A.1)."""

    id: str
    type: str  # "Bonus", "Buff" or "Special"
    action: str | None
    cards: tuple[str, ...]
    effect: str
    notes: str | None


@dataclass(frozen=True)
class RankTemplate:
    """What a rank fixes (A.2, 2.6.3, 2.6.4, 2.6.7). Symbols: T, B, F and T|B."""

    rank: str
    count: int
    factions: int
    favor: tuple[str, ...]
    extort_favor_per_disk: int | None
    strength: str  # "number" or a strength icon
    slots: tuple[Slot, ...]


@dataclass(frozen=True)
class Luminary:
    """A luminary card (A.3)."""

    id: str
    name: str
    rank: str
    top: str
    bottom: str | None
    strength: int | str  # 2 to 6, or "DAGGER" / "HAMMER"
    affiliation: str | None  # "FM", "RC" or None
    knight: bool
    slots: tuple[Slot, ...]
    ability: str

    @property
    def factions(self) -> tuple[str, ...]:
        """The factions the card shows, top first (2.6.1)."""
        return (self.top,) if self.bottom is None else (self.top, self.bottom)


@dataclass(frozen=True)
class Plot:
    """A plot card (Appendix B). ``thresholds`` maps a player count to x/y/z values."""

    id: str
    name: str
    condition: str
    predicate: str
    witness: str
    lodge_based: bool
    params: Mapping[str, int]
    thresholds: Mapping[int, int] | None
    p10_kind: str | None

    def threshold(self, players: int) -> int:
        """The x/y/z threshold for this player count (3.1)."""
        if self.thresholds is None:
            raise KeyError(f"{self.id} has no threshold by player count")
        return self.thresholds[players]


@dataclass(frozen=True)
class FactionCard:
    """A faction card (Appendix C)."""

    id: str
    faction: str
    action: str
    ability: str
    passive_kind: str
    passive: str


@dataclass(frozen=True)
class Edict:
    """An edict event card (D.1); its printed name is not in our source."""

    id: str
    faction: str


@dataclass(frozen=True)
class Special:
    """A special event card (D.2). ``once_per_turn``: "Once per turn, the active player
    may ..." (12.3), usable once in each player's turn while active (S01, S03, S08)."""

    id: str
    name: str
    once_per_turn: bool
    effect: str
    notes: str | None


@dataclass(frozen=True)
class Contact:
    """A contact card (Appendix E): a number and three factions in faction order."""

    id: str
    number: int
    numeral: str
    factions: tuple[str, str, str]


@dataclass(frozen=True)
class Seat:
    """A seat of a layout (Appendix F): placard position, the two map positions it
    touches (FL then FR), the facing k and the frame's map directions."""

    number: int
    placard: Pos
    touches: tuple[Pos, Pos]
    facing: int
    frame: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    """A map layout (Appendix F) with its seats by player count."""

    id: str
    geometry: MapGeometry
    seat_sets: Mapping[int, tuple[Seat, ...]]

    @property
    def positions(self) -> tuple[Pos, ...]:
        """The map positions in reading order."""
        return self.geometry.positions

    def seats(self, players: int) -> tuple[Seat, ...]:
        """The seats for this many players, seat 1 first."""
        return self.seat_sets[players]


@dataclass(frozen=True)
class BotPlot:
    """One of a bot's three plots (14.10, Appendix G). ``params`` hold its numbers."""

    number: int
    kind: str
    text: str
    params: Mapping[str, int | tuple[str, ...]]


@dataclass(frozen=True)
class Bot:
    """A bot definition (14.10): its diagram numbers FL..L (Appendix G) and plots."""

    id: str
    name: str
    complexity: str
    difficulty: str
    targeting: str  # "priority" (SG, J2) or "plan" (AC, AW)
    diagram: Mapping[str, int]
    plots: tuple[BotPlot, ...]


@dataclass(frozen=True)
class PlayerCountValues:
    """The values by player count (3.1)."""

    players: int
    layout: str
    pool_favor: int
    faction_display: int


@dataclass(frozen=True)
class PaxData:
    """The whole data set. Mappings keep file order, which is the catalogue order."""

    edition: str
    data_id: str
    version: str
    note: str
    components: Mapping[str, int]
    setup: Mapping[str, int]
    factions: tuple[Faction, ...]
    by_players: Mapping[int, PlayerCountValues]
    abilities: Mapping[str, Ability]
    ranks: Mapping[str, RankTemplate]
    luminaries: Mapping[str, Luminary]
    plots: Mapping[str, Plot]
    faction_cards: Mapping[str, FactionCard]
    edicts: Mapping[str, Edict]
    specials: Mapping[str, Special]
    contacts: Mapping[str, Contact]
    layouts: Mapping[str, Layout]
    bots: Mapping[str, Bot]

    @property
    def faction_codes(self) -> tuple[str, ...]:
        """The faction codes in faction order (2.1)."""
        return tuple(f.code for f in self.factions)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The supported player counts, bots included (3.1)."""
        return tuple(self.by_players)

    def layout_for(self, players: int) -> Layout:
        """The layout for this many players (3.1)."""
        return self.layouts[self.by_players[players].layout]
