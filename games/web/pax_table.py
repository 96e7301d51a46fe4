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

from engine.pax.loader import data as pax_data

HEX = 34.0  # the hexes' radius in SVG units
COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b"]  # seats 0-3 (disks, placards)
COLOUR_NAMES = ["red", "blue", "green", "yellow"]
JsonDict = dict[str, Any]


def _name(view: JsonDict, seat: int | None) -> str:
    for entry in view.get("seats", []):
        if entry["seat"] == seat:
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


def action_label(a: JsonDict) -> str:
    """An action of H.7 in a few words (the buttons, the log, the replay)."""
    kind = str(a.get("type"))
    parts = [kind.replace("_", " ")]
    for key in ("by", "faction", "card", "n", "k", "plot", "event", "choice", "use", "what"):
        if a.get(key) not in (None, "main", False):
            parts.append(f"{key} {a[key]}")
    for key in ("acting", "target", "a", "b", "from", "to"):
        if a.get(key) is not None:
            parts.append(f"{key} {_pos(a[key])}")
    if a.get("defender") is not None:
        parts.append(f"defender {a['defender']}")
    if a.get("seat") is not None:
        parts.append(f"seat {a['seat']}")
    if a.get("cards"):
        parts.append(" ".join(a["cards"]))
    if kind == "pay" and a.get("exchange"):
        parts.append("exchange")
    if kind == "pay" and a.get("faction") is None:
        parts.append("reduction")
    if "delta" in a:
        parts.append(f"{a['delta']:+d}")
    return " · ".join(parts)


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
        words = [str(st.get("step"))]
        for key, value in st.items():
            if key in ("step", "private"):
                continue
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
        "decision_kind": decision_kind,
        "decision": view.get("decision"),
        "derived": view.get("derived") or {},
        "log": [_entry_text(view, e) for e in view.get("log") or []][-12:],
        "actions": actions,
        "free_actions": free,
        "picked": picked,
        "picked_actions": targets.get(picked, []),
        "suggested": free[0]["json"] if decision_kind == "pay" and free else "",
    }
