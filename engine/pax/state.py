"""The game state: a mutable working ``Table`` for the rules and the immutable ``State``.

``State`` is the value the contract hands out (frozen, tuples only, compares by value).
``thaw(state)`` gives a ``Table`` the rules change in place; ``freeze(table)`` gives the
next ``State``. A refused action never freezes its table, so nothing changes (H.7).

Map positions are indexes into the layout's reading order (3.2 step 2); ``PLACARD`` (-1)
is the acting seat's placard as a ref (H.1). Factions are indexes in faction order (2.1).
The log (H.6) is kept as closed entries plus the entry being written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
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


class Table:
    """The mutable working copy of a state. Rules change it; ``freeze`` ends the work.

    Copy-on-read (docs/pax.md, figures): ``thaw`` copies only the fields every call
    reads (the slots below); every other field is copied from the state it came from
    (``_src``) on first read, into the instance dictionary, by a ``_Lazy`` descriptor.
    An ``apply`` reads about 14 of the 52 fields, so ``freeze`` converts those back to
    tuples and takes the others from ``_src`` as they are (immutable, shared)."""

    __slots__ = (
        "__dict__",
        "_src",
        "active",
        "answers",
        "decision",
        "entry",
        "g",
        "log",
        "new_log",
        "options",
        "origin",
        "pay_cache",
        "pending",
        "program",
        "result",
    )

    _src: State | None
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
    new_log: list[JsonDict]
    pay_cache: dict[object, bool] | None  # only while listing options (menu.py)

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


def _claims_thaw(c: tuple[tuple[str, tuple[int, ...]], ...]) -> dict[str, list[int]]:
    return {k: list(v) for k, v in c}


def _lists(v: tuple[tuple[Any, ...], ...]) -> list[list[Any]]:
    return list(map(list, v))


def _tuples(v: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(map(tuple, v))


def _edicts_thaw(v: tuple[tuple[tuple[str, int], ...], ...]) -> list[list[list[Any]]]:
    return [list(map(list, es)) for es in v]


def _edicts_freeze(v: list[list[list[Any]]]) -> tuple[tuple[tuple[str, int], ...], ...]:
    return tuple([tuple(map(tuple, es)) for es in v])


def _entry_copy(entry: JsonDict | None) -> JsonDict | None:
    return None if entry is None else {**entry, "steps": list(entry["steps"])}


def _made(cls: type[T], values: dict[str, Any]) -> T:
    """A frozen dataclass (State, FrozenTurn) from every field's value, without its
    ``__init__``'s calls of ``object.__setattr__``, one per field: the value is the same
    (tests/engine/pax/test_speed.py)."""
    s = object.__new__(cls)
    object.__setattr__(s, "__dict__", values)
    return s


def _turn_thaw(tu: FrozenTurn) -> Turn:
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


def _turn_freeze(tu: Turn) -> FrozenTurn:
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


def _oust_thaw(o: FrozenOust | None) -> Oust | None:
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


def _oust_freeze(o: Oust | None) -> FrozenOust | None:
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


Convert = Callable[[Any], Any] | None

_LAZY: dict[str, tuple[Convert, Convert]] = {
    "round": (None, None),
    "start_seat": (None, None),
    "phase": (None, None),
    "edicts_discarded": (None, None),
    "final_round": (None, None),
    "exhaustions": (None, None),
    "reshuffles": (None, None),
    "cards": (list, tuple),
    "up": (list, tuple),
    "slots": (list, _tuples),  # rows are tuples in the table too (board.place_disk)
    "pool": (list, tuple),
    "favor": (_lists, _tuples),
    "disks": (list, tuple),
    "hands": (_lists, _tuples),
    "events": (_lists, _tuples),
    "active_event": (list, tuple),
    "edicts": (_edicts_thaw, _edicts_freeze),
    "plot": (list, tuple),
    "plot_revealed": (list, tuple),
    "court": (list, tuple),
    "chamberlain": (None, None),
    "deck": (list, tuple),
    "discard": (list, tuple),
    "schemes": (list, tuple),
    "oust_played": (list, tuple),
    "plan": (None, None),
    "event_deck": (list, tuple),
    "event_discard": (list, tuple),
    "event_box": (list, tuple),
    "public_plots": (list, tuple),
    "plot_deck": (list, tuple),
    "claims_on": (_claims_thaw, _claims),
    "claims_under": (_claims_thaw, _claims),
    "fcards": (_lists, _tuples),
    "faction_box": (list, tuple),
    "cubes": (list, tuple),
    "token": (None, None),
    "turn": (_turn_thaw, _turn_freeze),
    "oust": (_oust_thaw, _oust_freeze),
}
"""The fields a table copies on first read: (to the table's lists, back to tuples);
None: the value itself (immutable)."""

_FREEZE: dict[str, Convert] = {name: back for name, (_, back) in _LAZY.items()}

_FIELDS = tuple(f.name for f in fields(State))


class _Lazy:
    """A ``Table`` field read from the table's source state on first access, then kept
    in the table's ``__dict__`` (which shadows this non-data descriptor from then on)."""

    __slots__ = ("name", "thaw")

    def __init__(self, name: str, thaw: Convert) -> None:
        self.name = name
        self.thaw = thaw

    def __get__(self, t: Table | None, owner: type | None = None) -> Any:
        if t is None:
            return self
        src = t._src
        if src is None:
            raise AttributeError(f"this table has no {self.name!r}")
        value = src.__dict__[self.name]
        if self.thaw is not None:
            value = self.thaw(value)
        t.__dict__[self.name] = value
        return value


for _name, (_thaw, _) in _LAZY.items():
    setattr(Table, _name, _Lazy(_name, _thaw))


def freeze(t: Table, close: bool = True) -> State:
    """The immutable value of a table. ``close``: the entry being written is closed
    first (the end of a call); otherwise a copy of it is kept (a program's origin).
    Fields the table never read are the source state's own values."""
    if close:
        t.close_entry()
    src = t._src
    values = dict.fromkeys(_FIELDS) if src is None else src.__dict__.copy()
    for name, value in t.__dict__.items():
        back = _FREEZE[name]
        values[name] = value if back is None else back(value)
    values["g"] = t.g
    values["active"] = t.active
    values["pending"] = tuple(t.pending)
    values["result"] = t.result
    values["program"] = t.program
    values["origin"] = t.origin
    values["answers"] = tuple(t.answers)
    values["log"] = t.log.extend(t.new_log) if t.new_log else t.log
    values["entry"] = _entry_copy(t.entry)
    values["options"] = None if t.options is None else tuple(t.options)
    values["decision"] = t.decision
    return _made(State, values)


def thaw(s: State) -> Table:
    """A working copy of a state (copy-on-read: see ``Table``)."""
    t = object.__new__(Table)
    t._src = s
    t.g = s.g
    t.active = s.active
    t.pending = list(s.pending)
    t.result = s.result
    t.program = s.program
    t.origin = s.origin
    t.answers = list(s.answers)
    t.options = None if s.options is None else list(s.options)
    t.decision = s.decision
    t.log = s.log
    t.entry = _entry_copy(s.entry)
    t.new_log = []
    t.pay_cache = None
    return t


def table_from_setup(setup: Setup, seed: str, round_cap: int | None) -> Table:
    """The table after set-up (3.2, H.4), before round 1: the first step is the turn."""
    g = make_static(setup, seed, round_cap)
    cat = g.cat
    p = setup.players
    t = object.__new__(Table)
    t._src = None
    t.g = g
    t.round = 1
    t.start_seat = setup.start_seat
    t.active = setup.start_seat
    t.phase = "event"
    t.edicts_discarded = 0
    t.final_round = False
    t.exhaustions = 0
    t.reshuffles = 0
    t.cards = [card for _, card in setup.map]
    t.up = [False] * len(setup.map)
    t.slots = [() for _ in setup.map]
    t.pool = list(setup.pool)
    t.favor = [list(s.favor) for s in setup.seats]
    t.disks = [s.disks for s in setup.seats]
    t.hands = [list(s.hand) for s in setup.seats]
    t.events = [[] for _ in range(p)]
    t.active_event = [None] * p
    t.edicts = [[] for _ in range(p)]
    t.plot = [s.plot for s in setup.seats]
    t.plot_revealed = [False] * p
    t.court = list(setup.court)
    t.chamberlain = setup.chamberlain
    t.deck = list(setup.deck)
    t.discard = []
    t.schemes = []
    t.oust_played = []
    t.plan = None
    t.event_deck = list(setup.event_deck)
    t.event_discard = []
    t.event_box = list(setup.event_box)
    t.public_plots = list(setup.public_plots)
    t.plot_deck = list(setup.plot_deck)
    t.claims_on = {}
    t.claims_under = {}
    t.fcards = [
        [fc, None, None, False] for fc in cat.data.faction_cards if fc in setup.faction_display
    ]
    t.faction_box = list(setup.faction_box)
    t.cubes = []
    t.token = None if setup.automa is None else PLACARD
    t.turn = Turn()
    t.oust = None
    t.pending = []
    t.result = None
    t.program = "turn"
    t.origin = None
    t.answers = []
    t.options = None
    t.decision = None
    t.log = Log()
    t.entry = None
    t.new_log = []
    t.pay_cache = None
    missing = [n for n in _LAZY if n not in t.__dict__]
    assert not missing, f"table_from_setup sets every field: {missing}"
    return t
