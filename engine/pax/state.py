"""The game state: a mutable working ``Table`` for the rules and the immutable ``State``.

``State`` is the value the contract hands out (frozen, tuples only, compares by value).
``thaw(state)`` gives a ``Table`` the rules change in place; ``freeze(table)`` gives the
next ``State``. A refused action never freezes its table, so nothing changes (H.7).

Map positions are indexes into the layout's reading order (3.2 step 2); ``PLACARD`` (-1)
is the acting seat's placard as a ref (H.1). Factions are indexes in faction order (2.1).
The log (H.6) is kept as closed entries plus the entry being written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.core import JsonDict
from engine.pax.log import Log
from engine.pax.setup import Setup
from engine.pax.static import Card, Catalog, Static, catalog, make_static

__all__ = [
    "PLACARD",
    "Card",
    "Catalog",
    "FrozenOust",
    "FrozenTurn",
    "Oust",
    "State",
    "Static",
    "Table",
    "Turn",
    "catalog",
    "freeze",
    "make_static",
    "table_from_setup",
    "thaw",
]

T = TypeVar("T")

PLACARD = -1
"""The ref of the acting seat's own placard (H.1)."""


@dataclass(slots=True)
class Turn:
    """The per-turn records (2.14, H.5.3)."""

    main_used: int = 0
    main_allowed: int = 2
    quick_used: bool = False
    claimed_faction: bool = False
    claimed_plot: bool = False
    buffs: list[str] = field(default_factory=list)
    chain_ended: bool = False
    yielded: list[int] = field(default_factory=list)
    revealed: bool = False
    specials_used: list[str] = field(default_factory=list)
    scout_adjacent: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Oust:
    """The Oust in progress (H.5.4)."""

    attacker: int
    defender: int
    acting: int
    target: int
    k: int
    round: int
    init: list[int]
    favoured: int | None
    sums: list[int]
    autowin: list[int]
    sealed: list[tuple[int, str | None]]
    ident: int  # the log seq that declared it: the oust_id of 15.2


@dataclass(slots=True)
class Table:
    """The mutable working copy of a state. Rules change it; ``freeze`` ends the work."""

    g: Static
    round: int
    start_seat: int
    active: int
    phase: str
    edicts_discarded: int
    final_round: bool
    exhaustions: int
    reshuffles: int
    cards: list[str]
    up: list[bool]
    slots: list[tuple[int | None, ...]]  # rows stay tuples: a change replaces the row
    pool: list[int]
    favor: list[list[int]]
    disks: list[int]
    hands: list[list[str]]
    events: list[list[str]]
    active_event: list[str | None]
    edicts: list[list[list[Any]]]  # per seat: [card, favor], oldest first
    plot: list[str | None]
    plot_revealed: list[bool]
    court: list[str | None]
    chamberlain: int
    deck: list[str]
    discard: list[str]
    schemes: list[tuple[str, bool]]
    oust_played: list[tuple[int, str]]
    plan: str | None
    event_deck: list[str]
    event_discard: list[str]
    event_box: list[str]
    public_plots: list[str]
    plot_deck: list[str]
    claims_on: dict[str, list[int]]
    claims_under: dict[str, list[int]]
    fcards: list[list[Any]]  # [card, holder, owner, exhausted] in faction order
    faction_box: list[str]
    cubes: list[int]
    token: int | None
    turn: Turn
    oust: Oust | None
    pending: list[tuple[int, str, tuple[str, ...]]]
    result: JsonDict | None
    # engine-only (state.internal)
    program: str | None
    origin: State | None
    answers: list[tuple[int | None, JsonDict, bool]]
    options: list[JsonDict] | None
    decision: JsonDict | None
    # the log (H.6): closed entries, and the entry being written
    log: Log
    entry: JsonDict | None
    new_log: list[JsonDict] = field(default_factory=list)
    pay_cache: dict[object, bool] | None = None  # only while listing options (menu.py)

    # --- the log ----------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.log) + len(self.new_log) + (self.entry is not None)

    def step(self, kind: str, **keys: Any) -> None:
        """Log an automatic step (H.6) in the entry being written."""
        if self.entry is None:
            self.entry = {"seq": self.seq + 1, "seat": None, "action": None, "steps": []}
        self.entry["steps"].append({"step": kind, **keys})

    def open_entry(self, seat: int | None, action: JsonDict | None) -> None:
        self.close_entry()
        self.entry = {"seq": self.seq + 1, "seat": seat, "action": action, "steps": []}

    def close_entry(self) -> None:
        if self.entry is not None:
            self.new_log.append(self.entry)
            self.entry = None

    def pos(self, i: int) -> list[int]:
        r, c = self.g.positions[i]
        return [r, c]

    def ref_json(self, i: int) -> list[int] | str:
        return "placard" if i == PLACARD else self.pos(i)


@dataclass(frozen=True)
class FrozenTurn:
    """The per-turn records of a State (not slotted: ``freeze`` builds it by ``_made``)."""

    main_used: int
    main_allowed: int
    quick_used: bool
    claimed_faction: bool
    claimed_plot: bool
    buffs: tuple[str, ...]
    chain_ended: bool
    yielded: tuple[int, ...]
    revealed: bool
    specials_used: tuple[str, ...]
    scout_adjacent: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FrozenOust:
    attacker: int
    defender: int
    acting: int
    target: int
    k: int
    round: int
    init: tuple[int, ...]
    favoured: int | None
    sums: tuple[int, ...]
    autowin: tuple[int, ...]
    sealed: tuple[tuple[int, str | None], ...]
    ident: int


@dataclass(frozen=True)
class State:
    """An immutable game state (16.1; its JSON is H.5 plus the record, see ``record``).

    Not slotted: ``freeze`` builds a state by handing it its ``__dict__`` whole
    (``_made``), about 1 µs where the dataclass ``__init__`` of 54 frozen fields takes
    about 9 µs (docs/pax.md, figures)."""

    g: Static
    round: int
    start_seat: int
    active: int
    phase: str
    edicts_discarded: int
    final_round: bool
    exhaustions: int
    reshuffles: int
    cards: tuple[str, ...]
    up: tuple[bool, ...]
    slots: tuple[tuple[int | None, ...], ...]
    pool: tuple[int, ...]
    favor: tuple[tuple[int, ...], ...]
    disks: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    events: tuple[tuple[str, ...], ...]
    active_event: tuple[str | None, ...]
    edicts: tuple[tuple[tuple[str, int], ...], ...]
    plot: tuple[str | None, ...]
    plot_revealed: tuple[bool, ...]
    court: tuple[str | None, ...]
    chamberlain: int
    deck: tuple[str, ...]
    discard: tuple[str, ...]
    schemes: tuple[tuple[str, bool], ...]
    oust_played: tuple[tuple[int, str], ...]
    plan: str | None
    event_deck: tuple[str, ...]
    event_discard: tuple[str, ...]
    event_box: tuple[str, ...]
    public_plots: tuple[str, ...]
    plot_deck: tuple[str, ...]
    claims_on: tuple[tuple[str, tuple[int, ...]], ...]
    claims_under: tuple[tuple[str, tuple[int, ...]], ...]
    fcards: tuple[tuple[str, int | None, int | None, bool], ...]
    faction_box: tuple[str, ...]
    cubes: tuple[int, ...]
    token: int | None
    turn: FrozenTurn
    oust: FrozenOust | None
    pending: tuple[tuple[int, str, tuple[str, ...]], ...]
    result: JsonDict | None
    program: str | None
    origin: State | None
    answers: tuple[tuple[int | None, JsonDict, bool], ...]
    log: Log
    entry: JsonDict | None
    options: tuple[JsonDict, ...] | None = field(default=None, compare=False)
    decision: JsonDict | None = field(default=None, compare=False)


def _claims(d: dict[str, list[int]]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    if not d:
        return ()
    return tuple((k, tuple(v)) for k, v in sorted(d.items()) if v)


def _entry_copy(entry: JsonDict | None) -> JsonDict | None:
    return None if entry is None else {**entry, "steps": list(entry["steps"])}


def _made(cls: type[T], values: dict[str, Any]) -> T:
    """A frozen dataclass (State, FrozenTurn) from every field's value, without its
    ``__init__``'s calls of ``object.__setattr__``, one per field: the value is the same
    (tests/engine/pax/test_speed.py)."""
    s = object.__new__(cls)
    object.__setattr__(s, "__dict__", values)
    return s


def turn_thaw(tu: FrozenTurn) -> Turn:
    return Turn(
        tu.main_used,
        tu.main_allowed,
        tu.quick_used,
        tu.claimed_faction,
        tu.claimed_plot,
        list(tu.buffs),
        tu.chain_ended,
        list(tu.yielded),
        tu.revealed,
        list(tu.specials_used),
        list(tu.scout_adjacent),
    )


def turn_freeze(tu: Turn) -> FrozenTurn:
    return _made(
        FrozenTurn,
        {
            "main_used": tu.main_used,
            "main_allowed": tu.main_allowed,
            "quick_used": tu.quick_used,
            "claimed_faction": tu.claimed_faction,
            "claimed_plot": tu.claimed_plot,
            "buffs": tuple(tu.buffs),
            "chain_ended": tu.chain_ended,
            "yielded": tuple(tu.yielded),
            "revealed": tu.revealed,
            "specials_used": tuple(tu.specials_used),
            "scout_adjacent": tuple(tu.scout_adjacent),
        },
    )


def oust_thaw(o: FrozenOust | None) -> Oust | None:
    if o is None:
        return None
    return Oust(
        o.attacker,
        o.defender,
        o.acting,
        o.target,
        o.k,
        o.round,
        list(o.init),
        o.favoured,
        list(o.sums),
        list(o.autowin),
        list(o.sealed),
        o.ident,
    )


def oust_freeze(o: Oust | None) -> FrozenOust | None:
    if o is None:
        return None
    return FrozenOust(
        o.attacker,
        o.defender,
        o.acting,
        o.target,
        o.k,
        o.round,
        tuple(o.init),
        o.favoured,
        tuple(o.sums),
        tuple(o.autowin),
        tuple(o.sealed),
        o.ident,
    )


def freeze(t: Table, close: bool = True) -> State:
    """The immutable value of a table. ``close``: the entry being written is closed
    first (the end of a call); otherwise a copy of it is kept (a program's origin)."""
    if close:
        t.close_entry()
    tu = t.turn
    o = t.oust
    return _made(
        State,
        dict(
            g=t.g,
            round=t.round,
            start_seat=t.start_seat,
            active=t.active,
            phase=t.phase,
            edicts_discarded=t.edicts_discarded,
            final_round=t.final_round,
            exhaustions=t.exhaustions,
            reshuffles=t.reshuffles,
            cards=tuple(t.cards),
            up=tuple(t.up),
            slots=tuple(map(tuple, t.slots)),
            pool=tuple(t.pool),
            favor=tuple(map(tuple, t.favor)),
            disks=tuple(t.disks),
            hands=tuple(map(tuple, t.hands)),
            events=tuple(map(tuple, t.events)),
            active_event=tuple(t.active_event),
            edicts=tuple([tuple(map(tuple, es)) for es in t.edicts]),
            plot=tuple(t.plot),
            plot_revealed=tuple(t.plot_revealed),
            court=tuple(t.court),
            chamberlain=t.chamberlain,
            deck=tuple(t.deck),
            discard=tuple(t.discard),
            schemes=tuple(t.schemes),
            oust_played=tuple(t.oust_played),
            plan=t.plan,
            event_deck=tuple(t.event_deck),
            event_discard=tuple(t.event_discard),
            event_box=tuple(t.event_box),
            public_plots=tuple(t.public_plots),
            plot_deck=tuple(t.plot_deck),
            claims_on=_claims(t.claims_on),
            claims_under=_claims(t.claims_under),
            fcards=tuple(map(tuple, t.fcards)),
            faction_box=tuple(t.faction_box),
            cubes=tuple(t.cubes),
            token=t.token,
            turn=turn_freeze(tu),
            oust=oust_freeze(o),
            pending=tuple(t.pending),
            result=t.result,
            program=t.program,
            origin=t.origin,
            answers=tuple(t.answers),
            log=t.log.extend(t.new_log) if t.new_log else t.log,
            entry=_entry_copy(t.entry),
            options=None if t.options is None else tuple(t.options),
            decision=t.decision,
        ),
    )


def thaw(s: State) -> Table:
    """A working copy of a state."""
    tu = s.turn
    o = s.oust
    return Table(
        g=s.g,
        round=s.round,
        start_seat=s.start_seat,
        active=s.active,
        phase=s.phase,
        edicts_discarded=s.edicts_discarded,
        final_round=s.final_round,
        exhaustions=s.exhaustions,
        reshuffles=s.reshuffles,
        cards=list(s.cards),
        up=list(s.up),
        slots=list(s.slots),  # rows are tuples in the table too (board.place_disk)
        pool=list(s.pool),
        favor=list(map(list, s.favor)),
        disks=list(s.disks),
        hands=list(map(list, s.hands)),
        events=list(map(list, s.events)),
        active_event=list(s.active_event),
        edicts=[list(map(list, es)) for es in s.edicts],
        plot=list(s.plot),
        plot_revealed=list(s.plot_revealed),
        court=list(s.court),
        chamberlain=s.chamberlain,
        deck=list(s.deck),
        discard=list(s.discard),
        schemes=list(s.schemes),
        oust_played=list(s.oust_played),
        plan=s.plan,
        event_deck=list(s.event_deck),
        event_discard=list(s.event_discard),
        event_box=list(s.event_box),
        public_plots=list(s.public_plots),
        plot_deck=list(s.plot_deck),
        claims_on={k: list(v) for k, v in s.claims_on},
        claims_under={k: list(v) for k, v in s.claims_under},
        fcards=list(map(list, s.fcards)),
        faction_box=list(s.faction_box),
        cubes=list(s.cubes),
        token=s.token,
        turn=turn_thaw(tu),
        oust=oust_thaw(o),
        pending=list(s.pending),
        result=s.result,
        program=s.program,
        origin=s.origin,
        answers=list(s.answers),
        options=None if s.options is None else list(s.options),
        decision=s.decision,
        log=s.log,
        entry=_entry_copy(s.entry),
    )


def table_from_setup(setup: Setup, seed: str, round_cap: int | None) -> Table:
    """The table after set-up (3.2, H.4), before round 1: the first step is the turn."""
    g = make_static(setup, seed, round_cap)
    cat = g.cat
    p = setup.players
    fcards: list[list[Any]] = [
        [fc, None, None, False] for fc in cat.data.faction_cards if fc in setup.faction_display
    ]
    return Table(
        g=g,
        round=1,
        start_seat=setup.start_seat,
        active=setup.start_seat,
        phase="event",
        edicts_discarded=0,
        final_round=False,
        exhaustions=0,
        reshuffles=0,
        cards=[card for _, card in setup.map],
        up=[False] * len(setup.map),
        slots=[() for _ in setup.map],
        pool=list(setup.pool),
        favor=[list(s.favor) for s in setup.seats],
        disks=[s.disks for s in setup.seats],
        hands=[list(s.hand) for s in setup.seats],
        events=[[] for _ in range(p)],
        active_event=[None] * p,
        edicts=[[] for _ in range(p)],
        plot=[s.plot for s in setup.seats],
        plot_revealed=[False] * p,
        court=list(setup.court),
        chamberlain=setup.chamberlain,
        deck=list(setup.deck),
        discard=[],
        schemes=[],
        oust_played=[],
        plan=None,
        event_deck=list(setup.event_deck),
        event_discard=[],
        event_box=list(setup.event_box),
        public_plots=list(setup.public_plots),
        plot_deck=list(setup.plot_deck),
        claims_on={},
        claims_under={},
        fcards=fcards,
        faction_box=list(setup.faction_box),
        cubes=[],
        token=None if setup.automa is None else PLACARD,
        turn=Turn(),
        oust=None,
        pending=[],
        result=None,
        program="turn",
        origin=None,
        answers=[],
        options=None,
        decision=None,
        log=Log(),
        entry=None,
    )
