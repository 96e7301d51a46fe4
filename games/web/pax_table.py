"""The Pax Illuminaten table's context, from one seat's view alone (15.4, 15.5.1, H.8):
the hex map as SVG (face-up cards with their factions, rank, strength and slots holding
the seats' disks, face-down cards, cubes, the bot token, the placards), the Court and
the Chamberlain, the favor pool, each seat's supply, edicts and counts, the faction
cards, the public plots with their claims, the reader's hand, event hand and private
plot, the derived facts (control, lodges, scores, plots met), what happened in the log
entries the view holds, and the reader's legal actions: those aimed at a map card are
reached by clicking that card (highlighted), the others are buttons.

Card data (names, factions, slots) come from the engine's data file, as H.8 says a
client's do: the view names only cards the reader may see.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.core import IllegalAction
from engine.pax.loader import data as pax_data
from engine.pax.view import suggest_payment
from games.kinds.pax import automa_name

HEX = 34.0  # the hexes' radius in SVG units
COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b"]  # seats 0-3 (disks, placards)
COLOUR_NAMES = ["red", "blue", "green", "yellow"]
JsonDict = dict[str, Any]


def _name(view: JsonDict, seat: int | None) -> str:
    for entry in view.get("seats", []):
        if entry["seat"] == seat:
            bot = str(entry.get("bot_kind") or "")
            if bot.startswith("automa-"):  # P-78: the automa by its name (14.10)
                return _("%(automa)s (automa)") % {"automa": automa_name(bot)}
            return str(entry.get("display_name") or entry.get("username") or seat)
    return "" if seat is None else _("Seat %(seat)s") % {"seat": seat}


def _pos(p: Any) -> str:
    """A map position [r, c] as "r,c"; anything else as it is."""
    if isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p):
        return f"{p[0]},{p[1]}"
    return str(p)


def _value(v: Any) -> str:
    if isinstance(v, list):
        return (
            _pos(v)
            if len(v) == 2 and all(type(x) is int for x in v)
            else " ".join(_value(x) for x in v)
        )
    if isinstance(v, dict):
        return " ".join(f"{k} {_value(x)}" for k, x in v.items())
    return str(v)


# H.7's action types and keys as the table names them.
ACTION_WORDS = {
    "scout": gettext_lazy("Scout"),
    "influence": gettext_lazy("Influence"),
    "extort": gettext_lazy("Extort"),
    "organize": gettext_lazy("Organize"),
    "expel": gettext_lazy("Expel"),
    "oust": gettext_lazy("Oust"),
    "scheme": gettext_lazy("Scheme"),
    "claim_faction": gettext_lazy("Claim a faction card"),
    "claim_plot": gettext_lazy("Claim a plot"),
    "congress": gettext_lazy("Congress"),
    "press": gettext_lazy("Press"),
    "investigate": gettext_lazy("Investigate"),
    "end": gettext_lazy("End the turn"),
    "decline": gettext_lazy("Decline"),
    "swap": gettext_lazy("Swap"),
    "take_edict": gettext_lazy("Take an edict"),
    "draw_plot": gettext_lazy("Draw a plot"),
    "take": gettext_lazy("Take"),
    "borrow": gettext_lazy("Borrow"),
    "pay": gettext_lazy("Pay"),
    "gain": gettext_lazy("Gain"),
    "overturn": gettext_lazy("Overturn"),
    "conspire": gettext_lazy("Conspire"),
    "place": gettext_lazy("Place"),
    "move": gettext_lazy("Move"),
    "stop": gettext_lazy("Stop"),
    "keep_plot": gettext_lazy("Keep plot"),
    "strength": gettext_lazy("Strength"),
    "oust_card": gettext_lazy("Oust card"),
    "oust_next": gettext_lazy("Next in the Oust"),
    "keep_event": gettext_lazy("Keep event"),
    "court": gettext_lazy("Court"),
    "activate": gettext_lazy("Play event"),
    "advance": gettext_lazy("Automatic step"),
}
DECISION_WORDS = {
    "action": gettext_lazy("take an action or end your turn"),
    "event": gettext_lazy("choose a special event to play, or none"),
    "pay": gettext_lazy("choose how to pay"),
    "gain": gettext_lazy("choose the favor you gain or lose"),
    "overturn": gettext_lazy("choose whom to overturn from"),
    "conspire": gettext_lazy("choose a token to give (Conspire)"),
    "place": gettext_lazy("choose the card to place"),
    "move": gettext_lazy("move your disks (Organize)"),
    "oust_card": gettext_lazy("choose your Oust card in secret"),
    "oust_next": gettext_lazy("continue, call or yield the Oust"),
    "strength": gettext_lazy("choose your strength"),
    "bonus": gettext_lazy("take the scheme's Bonus action or decline"),
    "special": gettext_lazy("use the scheme's Special ability or decline"),
    "keep_event": gettext_lazy("choose which event card to keep"),
    "keep_plot": gettext_lazy("choose which plot to keep"),
    "court": gettext_lazy("choose Court cards"),
}
PHASE_WORDS = {
    "event": gettext_lazy("Event phase"),
    "action": gettext_lazy("Action phase"),
    "check": gettext_lazy("Check phase"),
    "over": gettext_lazy("Game over"),
}
KEY_WORDS = {
    "by": gettext_lazy("by"),
    "faction": gettext_lazy("faction"),
    "card": gettext_lazy("card"),
    "n": gettext_lazy("disks"),
    "k": gettext_lazy("disks"),
    "plot": gettext_lazy("plot"),
    "event": gettext_lazy("event"),
    "choice": gettext_lazy("choice"),
    "use": gettext_lazy("use"),
    "what": gettext_lazy("what"),
    "acting": gettext_lazy("from"),
    "target": gettext_lazy("target"),
    "a": gettext_lazy("card"),
    "b": gettext_lazy("with"),
    "from": gettext_lazy("from"),
    "to": gettext_lazy("to"),
    "defender": gettext_lazy("defender"),
    "seat": gettext_lazy("seat"),
}


def action_label(a: JsonDict) -> str:
    """An action of H.7 in a few words (the buttons, the log, the replay)."""
    kind = str(a.get("type"))
    parts = [str(ACTION_WORDS.get(kind, kind.replace("_", " ")))]
    for key in ("by", "faction", "card", "n", "k", "plot", "event", "choice", "use", "what"):
        if a.get(key) not in (None, "main", False):
            parts.append(f"{KEY_WORDS[key]} {a[key]}")
    for key in ("acting", "target", "a", "b", "from", "to", "defender", "seat"):
        if a.get(key) is not None and not (kind == "overturn" and key == "from"):
            parts.append(f"{KEY_WORDS[key]} {_pos(a[key])}")
    if kind == "overturn":
        parts.append(
            _("from seat %(seat)s") % {"seat": a["from"]}
            if a.get("from") is not None
            else _("stop")
        )
    if a.get("cards"):
        parts.append(" ".join(a["cards"]))
    if kind == "pay" and a.get("exchange"):
        parts.append(_("exchange"))
    if kind == "pay" and "faction" in a and a.get("faction") is None:
        parts.append(_("reduction"))
    if "delta" in a:
        parts.append(f"{a['delta']:+d}")
    return " · ".join(parts)


def cost_text(state: Any, seat: int, action: JsonDict) -> str:
    """One suggested payment for ``action`` (15.5.1, ``engine.pax.view.suggest_payment``):
    the tokens the seat's first offered option at each unit would pay; "" when free. The
    player still chooses each unit (every ``pay`` is its own decision), the suggestion
    marked."""
    try:
        units = suggest_payment(state, seat, action)
    except IllegalAction:
        return ""
    words = []
    for unit in units:
        if unit.get("faction") is None:
            words.append(_("reduction"))
        elif unit.get("exchange"):
            words.append(_("exchange of %(f)s") % {"f": unit["faction"]})
        else:
            words.append(str(unit["faction"]))
    return ", ".join(words)


def _card(card_id: str | None) -> JsonDict | None:
    if card_id is None:
        return None
    d = pax_data()
    lum = d.luminaries.get(card_id)
    if lum is None:
        return {"id": card_id, "name": card_id, "factions": [], "rank": "", "strength": ""}
    return {
        "id": card_id,
        "name": lum.name,
        "factions": list(lum.factions),
        "rank": lum.rank,
        "strength": {"DAGGER": "†", "HAMMER": "⚒"}.get(str(lum.strength), str(lum.strength)),
        "slots": ["/".join(s) for s in lum.slots],
    }


def _targets(action: JsonDict) -> list[str]:
    """The map positions an action is aimed at (where a click finds it)."""
    out = []
    for key in ("target", "a", "b", "from", "to"):
        p = action.get(key)
        if isinstance(p, list):
            out.append(_pos(p))
    return out


def _hex_points(x: float, y: float) -> str:
    pts = []
    for k in range(6):
        angle = math.pi / 180 * (60 * k - 30)
        pts.append(f"{x + HEX * math.cos(angle):.1f},{y + HEX * math.sin(angle):.1f}")
    return " ".join(pts)


def _xy(pos: list[int]) -> tuple[float, float]:
    w = HEX * math.sqrt(3)
    return (pos[1] + 2) * w / 2, (pos[0] + 1.2) * HEX * 1.5


def _map(view: JsonDict, targets: dict[str, list[JsonDict]], picked: str) -> JsonDict:
    state = view["state"]
    derived = view.get("derived") or {}
    control = derived.get("control") or []
    cubes = state.get("cubes") or []
    cube_counts: dict[str, int] = {}
    for c in cubes:
        cube_counts[_pos(c)] = cube_counts.get(_pos(c), 0) + 1
    token = state.get("automa_token")
    cells = []
    for i, m in enumerate(state["map"]):
        key = _pos(m["pos"])
        x, y = _xy(m["pos"])
        card = _card(m["card"]) if m["face_up"] or m["card"] else None
        holder = control[i] if i < len(control) else None
        cells.append(
            {
                "pos": key,
                "x": f"{x:.1f}",
                "y": f"{y:.1f}",
                "points": _hex_points(x, y),
                "face_up": m["face_up"],
                "card": card,
                "disks": [
                    {"seat": s, "colour": COLOURS[s % 4]} if s is not None else None
                    for s in m["slots"]
                ],
                "cubes": cube_counts.get(key, 0),
                "token": token is not None and _pos(token) == key,
                "control": holder,
                "control_colour": COLOURS[holder % 4] if holder is not None else "",
                "target": key in targets,
                "picked": key == picked,
            }
        )
    placards = []
    for s in view.get("seats", []):
        if s.get("placard") is not None:
            x, y = _xy(s["placard"])
            placards.append(
                {
                    "seat": s["seat"],
                    "x": f"{x:.1f}",
                    "y": f"{y:.1f}",
                    "colour": COLOURS[s["seat"] % 4],
                    "points": _hex_points(x, y),
                }
            )
    xs = [float(c["x"]) for c in cells] + [float(p["x"]) for p in placards]
    ys = [float(c["y"]) for c in cells] + [float(p["y"]) for p in placards]
    return {
        "cells": cells,
        "placards": placards,
        "width": f"{max(xs) + HEX * 1.2:.0f}",
        "height": f"{max(ys) + HEX * 1.2:.0f}",
        "min_x": f"{min(xs) - HEX * 1.2:.0f}",
        "min_y": f"{min(ys) - HEX * 1.2:.0f}",
    }


def _entry_text(view: JsonDict, entry: JsonDict) -> JsonDict:
    who = _name(view, entry["seat"]) if entry["seat"] is not None else _("The game")
    action = entry.get("action")
    steps = []
    for st in entry.get("steps", []):
        if st.get("text"):  # P-29: the automa's script line, a sentence for people
            steps.append(str(st["text"]))
            continue
        words = [str(st.get("step"))]
        for key, value in st.items():
            if key in ("step", "private") or value is None:
                continue  # a null field says nothing to a reader (H.6: `seen`'s `of` null)
            words.append(f"{key} {_value(value)}")
        steps.append(" ".join(words))
    return {
        "seq": entry["seq"],
        "who": who,
        "action": action_label(action) if action else "",
        "steps": steps,
    }


def context(view: JsonDict, *, picked: str) -> JsonDict:
    """The table from a view (the server's common fields and ``pax-view/1``)."""
    my_seat = view.get("my_seat")
    to_act = view.get("to_act")
    result = view.get("result")
    base: JsonDict = {
        "v": view,
        "result": result,
        "my_turn": my_seat is not None and my_seat == to_act,
        "to_act_name": _name(view, to_act) if to_act is not None else "",
        "live": view.get("status") in ("open", "in_progress"),
        "seats": [
            {**s, "name": _name(view, s["seat"]), "colour": COLOUR_NAMES[s["seat"] % 4]}
            for s in view.get("seats", [])
        ],
    }
    state = view.get("state")
    if state is None:
        return {**base, "started": False}
    actions = [
        {
            "json": json.dumps(a, separators=(",", ":"), sort_keys=True),
            "label": action_label(a),
            "type": a.get("type"),
            "targets": _targets(a),
        }
        for a in view.get("legal_actions", [])
    ]
    targets: dict[str, list[JsonDict]] = {}
    for a in actions:
        for t in a["targets"]:
            targets.setdefault(t, []).append(a)
    free = [a for a in actions if not a["targets"]]
    d = pax_data()
    pending = state.get("pending") or []
    decision_kind = pending[-1]["kind"] if pending else None
    players = []
    for p in state["players"]:
        mine = p["seat"] == my_seat
        players.append(
            {
                "seat": p["seat"],
                "name": _name(view, p["seat"]),
                "colour": COLOURS[p["seat"] % 4],
                "favor": p["favor"],
                "disks": p["disks"],
                "hand_count": len(p["hand"]) if isinstance(p["hand"], list) else p["hand"],
                "event_count": len(p["events"]) if isinstance(p["events"], list) else p["events"],
                "edicts": p["edicts"],
                "active_event": p["active_event"],
                "plot": p["plot"] if p["plot_revealed"] else None,
                "mine": mine,
                "score": (view.get("derived") or {}).get("scores", {}).get(str(p["seat"])),
            }
        )
    me = next((p for p in state["players"] if p["seat"] == my_seat), None)
    claims = state.get("claims") or {}
    return {
        **base,
        "started": True,
        "s": state,
        "map": _map(view, targets, picked),
        "players": players,
        "court": [_card(c) for c in state.get("court") or []],
        "chamberlain": state.get("chamberlain"),
        "discard_top": _card(state["discard"][0]) if state.get("discard") else None,
        "discard_count": len(state.get("discard") or []),
        "pool": state.get("pool") or {},
        "faction_cards": state.get("faction_cards") or [],
        "public_plots": [
            {"id": p, "name": d.plots[p].name if p in d.plots else p, "claims": claims.get(p)}
            for p in state.get("public_plots") or []
        ],
        "hand": [_card(c) for c in me["hand"]] if me else [],
        "events": me["events"] if me else [],
        "my_plot": (
            {"id": me["plot"], "name": d.plots[me["plot"]].name} if me and me["plot"] else None
        ),
        "decision_kind": str(DECISION_WORDS.get(str(decision_kind), decision_kind or "")),
        "decision": view.get("decision"),
        "derived": view.get("derived") or {},
        # An entry with neither an action nor a step the reader may see tells nothing.
        "log": [
            _entry_text(view, e) for e in view.get("log") or [] if e.get("action") or e.get("steps")
        ][-12:],
        "actions": actions,
        "free_actions": free,
        "picked": picked,
        "picked_actions": targets.get(picked, []),
        "suggested": free[0]["json"] if decision_kind == "pay" and free else "",
        "phase": str(PHASE_WORDS.get(state.get("phase"), state.get("phase"))),
    }
