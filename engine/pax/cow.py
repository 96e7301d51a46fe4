"""Copy-on-read tables for ``apply`` and ``advance`` (docs/pax.md, figures).

``thaw(state)`` gives a ``CowTable``: the fields (nearly) every call uses are copied at
once (the ``Table`` slots it sets below); every other field is copied from the source
state on its first read, by a ``_Lazy`` descriptor, into the table's ``__dict__``. An
``apply`` reads about 14 of the 50 fields, so ``freeze`` converts those back to tuples
and takes the others from the source state as they are (immutable, shared with it).

Reading a copied field costs a little more than reading a slot (the descriptor is looked
up first), so the read-heavy callers (listing options, views, the bots' searches) keep
``engine.pax.state.thaw``'s whole copy; ``engine.pax.state.freeze`` reads a ``CowTable``
correctly too, field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.pax import state as st
from engine.pax.state import (
    State,
    Table,
)

__all__ = ["CowTable", "freeze", "thaw"]


class CowTable(Table):
    """A ``Table`` copied from ``_src`` field by field, on first read."""

    __slots__ = ("__dict__", "_src")

    _src: State


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


Convert = Callable[[Any], Any] | None

LAZY: dict[str, tuple[Convert, Convert]] = {
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
    "claims_on": (_claims_thaw, st._claims),
    "claims_under": (_claims_thaw, st._claims),
    "fcards": (_lists, _tuples),
    "faction_box": (list, tuple),
    "cubes": (list, tuple),
    "token": (None, None),
    "oust": (st.oust_thaw, st.oust_freeze),
}
"""The fields copied on first read: (to the table's form, back to the state's); None:
the value itself (immutable). The other fields are copied by ``thaw``."""

_FREEZE: dict[str, Convert] = {name: back for name, (_, back) in LAZY.items()}


class _Lazy:
    """A ``CowTable`` field read from the table's source state on first access, then
    kept in the table's ``__dict__`` (which shadows this non-data descriptor)."""

    __slots__ = ("name", "thaw")

    def __init__(self, name: str, thaw: Convert) -> None:
        self.name = name
        self.thaw = thaw

    def __get__(self, t: CowTable | None, owner: type | None = None) -> Any:
        if t is None:
            return self
        value = t._src.__dict__[self.name]
        if self.thaw is not None:
            value = self.thaw(value)
        t.__dict__[self.name] = value
        return value


for _name, (_thaw, _) in LAZY.items():
    setattr(CowTable, _name, _Lazy(_name, _thaw))


def thaw(s: State) -> Table:
    """A working copy of a state, copy-on-read (see the module)."""
    t = object.__new__(CowTable)
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
    t.entry = st._entry_copy(s.entry)
    t.turn = st.turn_thaw(s.turn)  # read by almost every call: a slot reads quicker
    t.new_log = []
    t.pay_cache = None
    return t


def freeze(t: Table, close: bool = True) -> State:
    """``engine.pax.state.freeze``, quicker for a ``CowTable``: fields it never read are
    the source state's own values."""
    if type(t) is not CowTable:
        return st.freeze(t, close)
    assert isinstance(t, CowTable)
    if close:
        t.close_entry()
    values = t._src.__dict__.copy()
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
    values["entry"] = st._entry_copy(t.entry)
    values["options"] = None if t.options is None else tuple(t.options)
    values["decision"] = t.decision
    values["turn"] = st.turn_freeze(t.turn)
    return st._made(State, values)
