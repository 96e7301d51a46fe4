"""What one seat may see (15.4, 15.5, H.8): ``view(state, seat)``; ``seat`` None is a
spectator.

The view holds the record's settings, data, seed (its value only once the game is over),
seats and state filtered as H.8 says, the log's recent entries filtered the same way
(P-12: the entries from the start of the turn N turns back, N the seats; ``view_log``
gives any part), ``legal_actions`` for that seat, the open ``decision``'s public help
(P-26: which unit a payment is for, who receives a Conspire token, ...),
``payment_help`` for the seat's offered actions (15.5.1, P-87: one entry per action of
``legal_actions``; [] for every other seat and a spectator), ``state_version`` and the
derived facts of 15.5.1.
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax.engine import decision, legal_actions, to_act
from engine.pax.payhelp import payment_help
from engine.pax.plots import _cells, first_witness
from engine.pax.record import record_head, state_json
from engine.pax.state import State, Table, thaw

SECRET_ACTIONS = frozenset({"oust_card", "keep_event", "keep_plot"})


def _filter_state(state: State, js: JsonDict, seat: int | None) -> JsonDict:
    for m in js["map"]:
        if not m["face_up"]:
            m["card"] = None
    for p in js["players"]:
        if p["seat"] != seat:
            p["hand"] = len(p["hand"])
            p["events"] = len(p["events"])
            if not p["plot_revealed"]:
                p["plot"] = None
    for p in js["pending"]:
        if p["seat"] != seat:
            p["cards"] = len(p["cards"])
    for key in ("deck", "event_deck", "plot_deck", "event_box"):
        js[key] = len(js[key])
    if js["oust"] is not None:
        js["oust"]["sealed"] = [
            x if x["seat"] == seat else {"seat": x["seat"]} for x in js["oust"]["sealed"]
        ]
    return js


def filter_entry(entry: JsonDict, seat: int | None) -> JsonDict:
    """H.8: another seat's secret actions keep only ``type``; private steps lose cards.
    Returns new dicts and lists: a view never shares a mutable part with the state."""
    action = entry["action"]
    if action is not None:
        if entry["seat"] != seat and action.get("type") in SECRET_ACTIONS:
            action = {"type": action["type"]}
        else:
            action = {k: _copy(v) for k, v in action.items()}
    steps = []
    for st in entry["steps"]:
        if "private" in st and seat not in st["private"]:
            steps.append({k: _copy(v) for k, v in st.items() if k not in ("card", "cards")})
        else:
            steps.append({k: _copy(v) for k, v in st.items()})
    return {"seq": entry["seq"], "seat": entry["seat"], "action": action, "steps": steps}


def _copy(v: Any) -> Any:
    if type(v) is list:
        return [x if type(x) in (int, str) else _copy(x) for x in v]
    if type(v) is dict:
        return {k: _copy(x) for k, x in v.items()}
    return v


def recent_start(state: State) -> int:
    """The index of the log entry that began the turn N turns back, N the seats (P-12)."""
    turns = 0
    for i in range(len(state.log) - 1, -1, -1):
        if any(st["step"] == "turn" for st in state.log[i]["steps"]):
            turns += 1
            if turns > state.g.players:
                return i
    return 0


def view_log(state: State, seat: int | None, start: int = 0) -> list[JsonDict]:
    """The log from entry index ``start`` on, filtered for ``seat`` (H.8)."""
    return [filter_entry(e, seat) for e in state.log[start:]]


def derived(t: Table, seat: int | None) -> JsonDict:
    """15.5.1: control, lodges, who controls each largest lodge, scores, plots met."""
    codes = t.g.cat.factions
    g = t.g
    lodges = []
    largest: JsonDict = {}
    for f in range(6):
        for lodge in b.lodges(t, f):
            lodges.append(
                {
                    "faction": codes[f],
                    "cards": [t.pos(i) for i in lodge],
                    "size": len(lodge),
                    "controller": b.set_controller(t, lodge),
                }
            )
        largest[codes[f]] = b.largest_lodge_controller(t, f)
    plots_met = []
    if seat is not None and seat < g.humans:
        mine = [*t.public_plots]
        own = t.plot[seat]
        if own is not None and own not in mine:
            mine.append(own)
        for p in [*mine, *(q for q in t.claims_on if seat in t.claims_on[q] and q not in mine)]:
            w = first_witness(t, seat, p)
            if w is not None:
                plots_met.append({"plot": p, "witness": [t.pos(i) for i in _cells(w[0])]})
    return {
        "control": [b.controller(t, i) for i in range(len(t.cards))],
        "lodges": lodges,
        "largest_lodge": largest,
        "scores": {str(s): n for s, n in enumerate(b.faction_scores(t))},
        "plots_met": plots_met,
        "cells": [
            {
                "pos": t.pos(i),
                "edge": g.edge[i],
                "interior": g.interior[i],
                "neighbours": [t.pos(n) for n in g.nbrs[i]],
            }
            for i in range(len(t.cards))
        ],
    }


def view(state: State, seat: int | None) -> JsonDict:
    """The seat's view (H.8). Never ``setup`` or ``state.internal``."""
    head = record_head(state)
    start = recent_start(state)
    t = thaw(state)
    return {
        "format": "pax-view/1",
        "seat": seat,
        "settings": head["settings"],
        "data": head["data"],
        "seed": head["seed"],
        "seats": head["seats"],
        "state": _filter_state(state, state_json(state), seat),
        "log": view_log(state, seat, start),
        "log_start": start + 1,
        "state_version": len(state.log),
        "to_act": to_act(state),
        "legal_actions": [] if seat is None else legal_actions(state, seat),
        "payment_help": payment_help(state, seat),
        "decision": decision(state),
        "derived": derived(t, seat),
    }


def suggest_payment(state: State, seat: int, action: JsonDict) -> list[JsonDict]:
    """15.5.1's suggested payment for one action, by ``apply`` (the view's
    ``payment_help`` gives the same without one, P-87): the ``pay`` actions that would
    pay for ``action`` if the seat took the first offered option at each unit. [] when it costs
    nothing (or the payment is taken by the engine, R79). Raises ``IllegalAction`` if
    ``action`` is not legal."""
    from engine.pax.engine import apply

    out: list[JsonDict] = []
    s = apply(state, seat, action)
    while s.pending and s.pending[-1][0] == seat and s.pending[-1][1] == "pay":
        choice = legal_actions(s, seat)[0]
        out.append(choice)
        s = apply(s, seat, choice)
    return out
