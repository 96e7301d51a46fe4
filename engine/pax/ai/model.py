"""A bot's model of the table, built from its seat's view alone (15.4, H.8).

``determinize(view, rng)`` returns a full ``State`` that agrees with everything the view
shows and fills what it hides (face-down map cards, other hands, decks, the plot and
event piles, other private plots, sealed Oust cards) with one uniform sample of the cards
the seat has not seen (P-50). The state is built through the record's JSON snapshot
(``record.state_from_json``) so it never reads the real game's state, and its static part
carries the view's contact cards and a seed of its own (the real seed is secret).

The state is the bot's own: what the engine's programs do on it (draws, reshuffles,
Oust nonces) follows the sample, not the game.
"""

from __future__ import annotations

import dataclasses
import random
from functools import cache
from typing import Any

from engine.core import JsonDict
from engine.pax.loader import data as packaged_data
from engine.pax.record import SNAPSHOT, state_from_json
from engine.pax.setup import new_setup
from engine.pax.state import State, freeze, make_static, thaw
from engine.pax.static import Static

MODEL_SEED = "pax-bot-model"
"""The seed of every model state: only its streams (reshuffles, nonces) depend on it."""


@cache
def _static(players: int, variant: str, contacts: tuple[str, ...], round_cap: int | None) -> Static:
    setup = new_setup(players, variant, MODEL_SEED)
    seats = tuple(
        dataclasses.replace(s, contact=c) for s, c in zip(setup.seats, contacts, strict=True)
    )
    return make_static(dataclasses.replace(setup, seats=seats), MODEL_SEED, round_cap)


def _seen_luminaries(js: JsonDict, seat: int | None) -> set[str]:
    """Every luminary id the view shows where it lies now."""
    seen: set[str] = set()
    for m in js["map"]:
        if m["card"] is not None:
            seen.add(m["card"])
    seen.update(c for c in js["court"] if c is not None)
    seen.update(js["discard"])
    seen.update(x["card"] for x in js["schemes"])
    seen.update(x["card"] for x in js["oust_played"])
    if js["plan"] is not None:
        seen.add(js["plan"])
    for p in js["players"]:
        if isinstance(p["hand"], list):
            seen.update(p["hand"])
    for p in js["pending"]:
        if isinstance(p["cards"], list) and p["seat"] == seat:
            seen.update(c for c in p["cards"] if c.startswith("PIL"))
    return seen


def _seen_events(js: JsonDict) -> set[str]:
    seen = set(js["event_discard"])
    for p in js["players"]:
        if isinstance(p["events"], list):
            seen.update(p["events"])
        if p["active_event"] is not None:
            seen.add(p["active_event"])
        seen.update(e["card"] for e in p["edicts"])
    for p in js["pending"]:
        if isinstance(p["cards"], list):
            seen.update(c for c in p["cards"] if c.startswith(("E-", "S")))
    return seen


def _seen_plots(js: JsonDict) -> set[str]:
    seen = set(js["public_plots"]) | set(js["claims"])
    for p in js["players"]:
        if p["plot"] is not None:
            seen.add(p["plot"])
    for p in js["pending"]:
        if isinstance(p["cards"], list):
            seen.update(c for c in p["cards"] if c.startswith("P") and not c.startswith("PIL"))
    return seen


def _scout_target(view: JsonDict) -> list[int] | None:
    """The position of the seat's last Scout in the view's log (7.1.3)."""
    for entry in reversed(view["log"]):
        a = entry["action"]
        if entry["seat"] == view["seat"] and a is not None and a.get("type") == "scout":
            return list(a["target"])
    return None


def _deal(pool: list[str], n: int) -> list[str]:
    out, pool[:] = pool[:n], pool[n:]
    return out


def filled_state_json(view: JsonDict, rng: random.Random) -> JsonDict:
    """The view's ``state`` with every hidden id replaced by a sampled one (P-50)."""
    d = packaged_data()
    js: JsonDict = _plain(view["state"])
    seat = view["seat"]
    lum = [c for c in d.luminaries if c not in _seen_luminaries(js, seat)]
    rng.shuffle(lum)
    mine = js["pending"][-1] if js["pending"] and js["pending"][-1]["seat"] == seat else None
    under = list(mine["cards"]) if mine is not None else []
    if mine is not None and mine["kind"] == "place" and under:
        at = _scout_target(view)  # H.5.5: the scouted card lies face down where it was
        for m in js["map"]:
            if m["pos"] == at and not m["face_up"]:
                m["card"] = under[0]
    for m in js["map"]:
        if not m["face_up"] and m["card"] is None:
            m["card"] = _deal(lum, 1)[0] if lum else next(iter(d.luminaries))
    for p in js["players"]:
        if not isinstance(p["hand"], list):
            p["hand"] = _deal(lum, p["hand"])
    if js["oust"] is not None:
        for x in js["oust"]["sealed"]:
            if "card" not in x:
                hand = js["players"][x["seat"]]["hand"]
                x["card"] = rng.choice(hand) if hand else None
    js["deck"] = _deal(lum, js["deck"])
    events = [e for e in (*d.edicts, *d.specials) if e not in _seen_events(js)]
    rng.shuffle(events)
    for p in js["players"]:
        if not isinstance(p["events"], list):
            p["events"] = _deal(events, p["events"])
    on_top = under if mine is not None and mine["kind"] == "keep_event" else []
    js["event_deck"] = on_top + _deal(events, js["event_deck"] - len(on_top))
    js["event_box"] = _deal(events, js["event_box"])
    plots = [p for p in d.plots if p not in _seen_plots(js)]
    rng.shuffle(plots)
    humans = view["settings"]["players"] - (view["settings"]["automa"] is not None)
    for p in js["players"]:
        if p["plot"] is None and p["seat"] < humans and plots:
            p["plot"] = _deal(plots, 1)[0]
    new_plot = under[1:] if mine is not None and mine["kind"] == "keep_plot" else []
    js["plot_deck"] = new_plot + _deal(plots, js["plot_deck"] - len(new_plot))
    for p in js["pending"]:
        if not isinstance(p["cards"], list):
            p["cards"] = []
    return js


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def determinize(view: JsonDict, rng: random.Random) -> State:
    """A full state consistent with ``view`` (one sample of what it hides, P-50).

    Its open program is the view's decision program when that is the Action phase menu
    or the Event phase activation (the bots look ahead from those); otherwise none: the
    state is then only read."""
    settings = view["settings"]
    js = filled_state_json(view, rng)
    kind = js["pending"][-1]["kind"] if js["pending"] else None
    program = {"action": "menu", "event": "activate"}.get(kind) if kind else None
    js["internal"] = {
        "program": program,
        "origin": None,
        "answers": [],
        "reshuffles": js["deck_exhaustions"],
        "oust_id": 0,
        "entry": None,
    }
    snapshot = {
        "format": SNAPSHOT,
        "seed": MODEL_SEED,
        "players": settings["players"],
        "variant": settings["variant"],
        "round_cap": settings["round_cap"],
        "log": [],
        "state": js,
    }
    t = thaw(state_from_json(snapshot))
    contacts = tuple(s["contact"] for s in view["seats"])
    t.g = _static(settings["players"], settings["variant"], contacts, settings["round_cap"])
    return freeze(t)
