"""The record (Appendix H.3-H.6) and the exact JSON snapshot of a state.

``full_record(state)``: format, settings, data, seed (its value once the game is over),
seats, setup, log and state, keys exactly as Appendix H. ``state_to_json`` is the record
plus the seed and ``state.internal`` (the open program, its origin and answers, the
reshuffle count, the Oust id and the log entry being written); ``state_from_json``
rebuilds the state equal to the original.
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax.log import Log
from engine.pax.setup import new_setup, setup_record
from engine.pax.state import (
    PLACARD,
    FrozenOust,
    FrozenTurn,
    State,
    make_static,
)

FORMAT = "pax-record/1"
SNAPSHOT = "pax-state/1"


def _jcopy(v: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, tuples of str, int, float, bool,
    None), several times faster than ``copy.deepcopy``, which a server's every move pays
    on the whole log when it stores and loads the snapshot (docs/performance.md)."""
    t = type(v)
    if t is dict:
        return {k: _jcopy(x) for k, x in v.items()}
    if t is list:
        return [_jcopy(x) for x in v]
    if t is tuple:
        return tuple(_jcopy(x) for x in v)
    return v


def _pos(state: State, i: int) -> list[int]:
    r, c = state.g.positions[i]
    return [r, c]


def _ref(state: State, i: int) -> Any:
    return "placard" if i == PLACARD else _pos(state, i)


def _favor(state: State, counts: tuple[int, ...]) -> JsonDict:
    return dict(zip(state.g.cat.factions, counts, strict=True))


def state_json(state: State) -> JsonDict:
    """H.5: the table now (without ``internal``)."""
    tu = state.turn
    o = state.oust
    plots = sorted({p for p, _ in state.claims_on} | {p for p, _ in state.claims_under})
    on = dict(state.claims_on)
    under = dict(state.claims_under)
    return {
        "round": state.round,
        "start_seat": state.start_seat,
        "active_seat": state.active,
        "phase": state.phase,
        "edicts_discarded": state.edicts_discarded,
        "final_round": state.final_round,
        "deck_exhaustions": state.exhaustions,
        "map": [
            {
                "pos": _pos(state, i),
                "card": state.cards[i],
                "face_up": state.up[i],
                "slots": list(state.slots[i]),
            }
            for i in range(len(state.cards))
        ],
        "pool": _favor(state, state.pool),
        "players": [
            {
                "seat": s,
                "favor": _favor(state, state.favor[s]),
                "disks": state.disks[s],
                "hand": list(state.hands[s]),
                "events": list(state.events[s]),
                "active_event": state.active_event[s],
                "edicts": [{"card": c, "favor": n} for c, n in state.edicts[s]],
                "plot": state.plot[s],
                "plot_revealed": state.plot_revealed[s],
            }
            for s in range(state.g.players)
        ],
        "court": list(state.court),
        "chamberlain": state.chamberlain,
        "deck": list(state.deck),
        "discard": list(state.discard),
        "schemes": [{"card": c, "quick": q} for c, q in state.schemes],
        "oust_played": [{"seat": s, "card": c} for s, c in state.oust_played],
        "plan": state.plan,
        "event_deck": list(state.event_deck),
        "event_discard": list(state.event_discard),
        "event_box": list(state.event_box),
        "public_plots": list(state.public_plots),
        "plot_deck": list(state.plot_deck),
        "claims": {p: {"on": list(on.get(p, ())), "under": list(under.get(p, ()))} for p in plots},
        "faction_cards": [
            {"card": c, "holder": h, "owner": w, "exhausted": x} for c, h, w, x in state.fcards
        ],
        "faction_box": list(state.faction_box),
        "cubes": [_pos(state, i) for i in state.cubes],
        "automa_token": None if state.token is None else _ref(state, state.token),
        "turn": {
            "main_used": tu.main_used,
            "main_allowed": tu.main_allowed,
            "quick_used": tu.quick_used,
            "claimed_faction": tu.claimed_faction,
            "claimed_plot": tu.claimed_plot,
            "buffs": list(tu.buffs),
            "chain_ended": tu.chain_ended,
            "yielded": [_ref(state, i) for i in tu.yielded],
            "revealed": tu.revealed,
            "specials_used": list(tu.specials_used),
            "scout_adjacent": [_pos(state, i) for i in tu.scout_adjacent],
        },
        "oust": None
        if o is None
        else {
            "attacker": o.attacker,
            "defender": o.defender,
            "acting": _ref(state, o.acting),
            "target": _pos(state, o.target),
            "k": o.k,
            "round": o.round,
            "init": list(o.init),
            "favoured": o.favoured,
            "sums": list(o.sums),
            "autowin": list(o.autowin),
            "sealed": [{"seat": s, "card": c} for s, c in o.sealed],
        },
        "pending": [{"seat": s, "kind": k, "cards": list(c)} for s, k, c in state.pending],
        "result": _jcopy(state.result),
    }


def record_head(state: State) -> JsonDict:
    head = setup_record(state.g.setup, data=state.g.cat.data)
    head["settings"]["round_cap"] = state.g.round_cap
    if state.result is not None:
        head["seed"]["value"] = state.g.seed
    return head


def full_record(state: State) -> JsonDict:
    """Appendix H.3: everything about the game (the seed's value once it is over)."""
    head = record_head(state)
    return {
        "format": FORMAT,
        "settings": head["settings"],
        "data": head["data"],
        "seed": head["seed"],
        "seats": head["seats"],
        "setup": head["setup"],
        "log": _jcopy(list(state.log)),
        "state": state_json(state),
    }


def _internal(state: State) -> JsonDict:
    return {
        "program": state.program,
        "origin": None if state.origin is None else _origin_json(state.origin, state),
        "answers": [[s, _jcopy(a), live] for s, a, live in state.answers],
        "reshuffles": state.reshuffles,
        "oust_id": None if state.oust is None else state.oust.ident,
        "entry": _jcopy(state.entry),
    }


def _origin_json(origin: State, state: State) -> JsonDict:
    """The snapshot of the state the open program started from. Its log is a prefix of
    the state's (entries are only appended), so it is stored as its length,
    ``log_length``, not again in full: the snapshot holds the log once (P-86). Should the
    prefix not hold, the origin keeps its whole log."""
    n = len(origin.log)
    head = state.log[:n]
    if len(head) == n and all(a is b or a == b for a, b in zip(origin.log, head, strict=True)):
        return _snapshot(origin, n)
    return _snapshot(origin, None)


def _snapshot(state: State, log_length: int | None) -> JsonDict:
    out: JsonDict = {
        "format": SNAPSHOT,
        "seed": state.g.seed,
        "players": state.g.players,
        "variant": state.g.setup.variant,
        "round_cap": state.g.round_cap,
    }
    if log_length is None:
        out["log"] = _jcopy(list(state.log))
    else:
        out["log_length"] = log_length
    out["state"] = {**state_json(state), "internal": _internal(state)}
    return out


def state_to_json(state: State) -> JsonDict:
    """A JSON snapshot from which ``state_from_json`` rebuilds an equal state."""
    return _snapshot(state, None)


def state_from_json(data: JsonDict) -> State:
    """The state of a snapshot (an origin written whole, as before P-86, is read too)."""
    return _from_json(data, None, [])


def _from_json(data: JsonDict, outer: State | None, outer_log: list[JsonDict]) -> State:
    """``outer``: the state whose origin ``data`` is (its static part is the origin's;
    ``outer_log`` its log entries, of which the origin's log is a prefix)."""
    if data.get("format") != SNAPSHOT:
        raise ValueError(f"not a {SNAPSHOT} snapshot")
    same = outer is not None and (
        data["seed"] == outer.g.seed
        and data["players"] == outer.g.players
        and data["variant"] == outer.g.setup.variant
        and data["round_cap"] == outer.g.round_cap
    )
    if outer is not None and same:
        g = outer.g
    else:
        setup = new_setup(data["players"], data["variant"], data["seed"])
        g = make_static(setup, data["seed"], data["round_cap"])
    if "log" in data:
        entries = _jcopy(data["log"])
    else:
        entries = outer_log[: data["log_length"]]
        if len(entries) != data["log_length"]:
            raise ValueError("an origin's log_length is longer than the state's log")
    s = data["state"]
    internal = s["internal"]
    codes = g.cat.factions

    def idx(p: list[int]) -> int:
        return g.index[(p[0], p[1])]

    def ref(p: Any) -> int:
        return PLACARD if p == "placard" else idx(p)

    def fav(obj: JsonDict) -> tuple[int, ...]:
        return tuple(obj[c] for c in codes)

    tu = s["turn"]
    o = s["oust"]
    players = s["players"]
    claims = s["claims"]
    state = State(
        g=g,
        round=s["round"],
        start_seat=s["start_seat"],
        active=s["active_seat"],
        phase=s["phase"],
        edicts_discarded=s["edicts_discarded"],
        final_round=s["final_round"],
        exhaustions=s["deck_exhaustions"],
        reshuffles=internal["reshuffles"],
        cards=tuple(m["card"] for m in s["map"]),
        up=tuple(m["face_up"] for m in s["map"]),
        slots=tuple(tuple(m["slots"]) for m in s["map"]),
        pool=fav(s["pool"]),
        favor=tuple(fav(p["favor"]) for p in players),
        disks=tuple(p["disks"] for p in players),
        hands=tuple(tuple(p["hand"]) for p in players),
        events=tuple(tuple(p["events"]) for p in players),
        active_event=tuple(p["active_event"] for p in players),
        edicts=tuple(tuple((e["card"], e["favor"]) for e in p["edicts"]) for p in players),
        plot=tuple(p["plot"] for p in players),
        plot_revealed=tuple(p["plot_revealed"] for p in players),
        court=tuple(s["court"]),
        chamberlain=s["chamberlain"],
        deck=tuple(s["deck"]),
        discard=tuple(s["discard"]),
        schemes=tuple((x["card"], x["quick"]) for x in s["schemes"]),
        oust_played=tuple((x["seat"], x["card"]) for x in s["oust_played"]),
        plan=s["plan"],
        event_deck=tuple(s["event_deck"]),
        event_discard=tuple(s["event_discard"]),
        event_box=tuple(s["event_box"]),
        public_plots=tuple(s["public_plots"]),
        plot_deck=tuple(s["plot_deck"]),
        claims_on=tuple((p, tuple(c["on"])) for p, c in sorted(claims.items()) if c["on"]),
        claims_under=tuple((p, tuple(c["under"])) for p, c in sorted(claims.items()) if c["under"]),
        fcards=tuple(
            (x["card"], x["holder"], x["owner"], x["exhausted"]) for x in s["faction_cards"]
        ),
        faction_box=tuple(s["faction_box"]),
        cubes=tuple(idx(p) for p in s["cubes"]),
        token=None if s["automa_token"] is None else ref(s["automa_token"]),
        turn=FrozenTurn(
            tu["main_used"],
            tu["main_allowed"],
            tu["quick_used"],
            tu["claimed_faction"],
            tu["claimed_plot"],
            tuple(tu["buffs"]),
            tu["chain_ended"],
            tuple(ref(p) for p in tu["yielded"]),
            tu["revealed"],
            tuple(tu["specials_used"]),
            tuple(idx(p) for p in tu["scout_adjacent"]),
        ),
        oust=None
        if o is None
        else FrozenOust(
            o["attacker"],
            o["defender"],
            ref(o["acting"]),
            idx(o["target"]),
            o["k"],
            o["round"],
            tuple(o["init"]),
            o["favoured"],
            tuple(o["sums"]),
            tuple(o["autowin"]),
            tuple((x["seat"], x["card"]) for x in o["sealed"]),
            internal["oust_id"],
        ),
        pending=tuple((p["seat"], p["kind"], tuple(p["cards"])) for p in s["pending"]),
        result=_jcopy(s["result"]),
        program=internal["program"],
        origin=None,
        answers=tuple((a[0], _jcopy(a[1]), a[2]) for a in internal["answers"]),
        log=Log.of(entries),
        entry=_jcopy(internal["entry"]),
    )
    if internal["origin"] is not None:  # the origin shares the static part and log entries
        origin = _from_json(internal["origin"], state, entries)
        object.__setattr__(state, "origin", origin)
    return state
