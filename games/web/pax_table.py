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
from django.utils.translation import pgettext

from engine.pax.loader import data as pax_data
from games.kinds.pax import KIND as PAX
from games.kinds.pax import automa_name
from games.web import pax_log, vocab
from games.web import pax_vocab as v

HEX = 34.0  # the hexes' radius in SVG units
COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b7950b"]  # seats 0-3 (disks, placards)
COLOUR_NAMES = ["red", "blue", "green", "yellow"]
JsonDict = dict[str, Any]


def seat_name(view: JsonDict, seat: int | None) -> str:
    """A seat's name in the reader's language: the automa by its name (P-78, 14.10), a
    built-in bot by its kind and seat (bots may fill several seats), a person by theirs."""
    for entry in view.get("seats", []):
        if entry["seat"] == seat:
            bot = str(entry.get("bot_kind") or "")
            username = str(entry.get("username") or "")
            guess = username.removeprefix("bot-")  # the replay's record: only the account
            if not bot and entry.get("is_bot") and _built_in(guess) and guess != username:
                bot = guess
            if bot.startswith("automa-"):
                return _("%(automa)s (automa)") % {"automa": automa_name(bot)}
            if bot:
                title = vocab.bot_name(bot) if bot in vocab.BOT_KINDS else PAX.bot_title(bot)
                return f"{title} #{seat}"
            name = str(entry.get("display_name") or username or seat)
            return f"{name} #{seat}" if entry.get("is_bot") else name  # bots fill many seats
    return "" if seat is None else _("Seat %(seat)s") % {"seat": seat}


def _built_in(kind: str) -> bool:
    return kind.startswith("automa-") or kind in PAX.bot_kinds() or kind in vocab.BOT_KINDS


_pos = v.pos  # a map position [r, c] as "r,c"


# The vocabulary lives in games.web.pax_vocab (P-85); these names stay for the callers.
ACTION_WORDS = v.ACTION_WORDS
DECISION_WORDS = v.DECISION_WORDS
PHASE_WORDS = v.PHASE_WORDS
KEY_WORDS = v.KEY_WORDS
VALUE_KEYS = ("by", "faction", "card", "n", "k", "plot", "event", "edict", "choice", "use", "what")


def action_label(a: JsonDict) -> str:
    """An action of H.7 in a few words (the buttons, the log, the replay)."""
    kind = str(a.get("type"))
    parts = [str(ACTION_WORDS.get(kind, kind.replace("_", " ")))]
    for key in VALUE_KEYS:
        if a.get(key) not in (None, "main", False):
            parts.append(f"{KEY_WORDS[key]} {v.value_text(key, a[key])}")
    for key in ("acting", "target", "a", "b", "from", "to", "defender", "seat"):
        if a.get(key) is not None and not (kind == "overturn" and key == "from"):
            value = a[key]
            parts.append(f"{KEY_WORDS[key]} {v.ref(value)}")
    if kind == "overturn":
        parts.append(
            _("from seat %(seat)s") % {"seat": a["from"]}
            if a.get("from") is not None
            else pgettext("pax", "stop")
        )
    if a.get("cards"):
        parts.append(_(", ").join(v.card_name(c) for c in a["cards"]))
    if kind == "pay" and a.get("exchange"):
        parts.append(pgettext("pax", "exchange"))
    if kind == "pay" and "faction" in a and a.get("faction") is None:
        parts.append(pgettext("pax", "reduction"))
    if "delta" in a:
        parts.append(f"{a['delta']:+d}")
    return " · ".join(parts)


def payment_text(payment: list[JsonDict]) -> str:
    """A suggested payment (15.5.1, the view's ``payment_help``, P-87) in words: the
    token, exchange or reduction of each ``pay`` action; "" when there is none to choose.
    The player still chooses each unit (every ``pay`` is its own decision, the suggestion
    marked)."""
    words = []
    for unit in payment:
        if unit.get("faction") is None:
            words.append(pgettext("pax", "reduction"))
        elif unit.get("exchange"):
            words.append(pgettext("pax", "exchange of %(f)s") % {"f": v.faction(unit["faction"])})
        else:
            words.append(v.faction(unit["faction"]))
    return _(", ").join(words)


def cost_text(help_: JsonDict) -> str:
    """An offered action's cost from its payment help (P-87): the suggested payment of the
    units the player chooses, then the tokens of the units with one way to pay, which the
    engine pays itself (R79: ``forced``); "" when it is free."""
    text = payment_text(help_["payment"])
    forced = help_["forced"]
    if forced:
        paid = pgettext("pax", "paid for you: %(tokens)s") % {"tokens": payment_text(forced)}
        text = _(", ").join([text, paid]) if text else paid
    return text


def _card(card_id: str | None) -> JsonDict | None:
    if card_id is None:
        return None
    d = pax_data()
    lum = d.luminaries.get(card_id)
    if lum is None:
        return {"id": card_id, "name": card_id, "factions": [], "rank": "", "strength": ""}
    return {
        "id": card_id,
        "name": lum.name,  # as printed (P-85)
        "factions": [v.faction(f) for f in lum.factions],
        "short": "/".join(v.faction_short(f) for f in lum.factions),
        "rank": v.rank(lum.rank),
        "ability": v.ability_text(card_id),
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
    who = seat_name(view, entry["seat"]) if entry["seat"] is not None else _("The game")
    action = entry.get("action")
    namer = _namer(view)
    return {
        "seq": entry["seq"],
        "who": who,
        "action": action_label(action) if action else "",
        # P-29, P-85: the automa's script lines and every step in the reader's language
        "steps": [pax_log.step_text(st, namer) for st in entry.get("steps", [])],
    }


def _namer(view: JsonDict) -> Any:
    def name(seat: Any) -> str:
        return seat_name(view, seat) if type(seat) is int else str(seat)

    return name


def context(view: JsonDict, *, picked: str) -> JsonDict:
    """The table from a view (the server's common fields and ``pax-view/1``)."""
    my_seat = view.get("my_seat")
    to_act = view.get("to_act")
    base: JsonDict = {
        "v": view,
        "result": view.get("result"),
        "my_turn": my_seat is not None and my_seat == to_act,
        "to_act_name": seat_name(view, to_act) if to_act is not None else "",
        "live": view.get("status") in ("open", "in_progress"),
        "seats": [
            {**s, "name": seat_name(view, s["seat"]), "colour": COLOUR_NAMES[s["seat"] % 4]}
            for s in view.get("seats", [])
        ],
    }
    state = view.get("state")
    if state is None:
        return {**base, "started": False}
    pending = state.get("pending") or []
    decision_kind = pending[-1]["kind"] if pending else None
    # 15.5.1, P-87: each action's suggested payment, from the view's payment help; at a
    # pay decision the suggested option itself is marked instead.
    helps = view.get("payment_help") or []
    actions = [
        {
            "json": json.dumps(a, separators=(",", ":"), sort_keys=True),
            "label": action_label(a),
            "type": a.get("type"),
            "targets": _targets(a),
            "cost": cost_text(helps[i]) if i < len(helps) and decision_kind != "pay" else "",
        }
        for i, a in enumerate(view.get("legal_actions", []))
    ]
    targets: dict[str, list[JsonDict]] = {}
    for a in actions:
        for t in a["targets"]:
            targets.setdefault(t, []).append(a)
    free = [a for a in actions if not a["targets"]]
    players = []
    for p in state["players"]:
        mine = p["seat"] == my_seat
        players.append(
            {
                "seat": p["seat"],
                "name": seat_name(view, p["seat"]),
                "colour": COLOURS[p["seat"] % 4],
                "favor": v.favor_text(p["favor"]),
                "disks": p["disks"],
                "hand_count": len(p["hand"]) if isinstance(p["hand"], list) else p["hand"],
                "event_count": len(p["events"]) if isinstance(p["events"], list) else p["events"],
                "edicts": [{**e, "name": v.card_name(e.get("card"))} for e in p["edicts"] or []],
                "active_event": _event(p["active_event"]) if p["active_event"] else None,
                "plot": p["plot"] if p["plot_revealed"] else None,
                "mine": mine,
                "score": (view.get("derived") or {}).get("scores", {}).get(str(p["seat"])),
            }
        )
    me = next((p for p in state["players"] if p["seat"] == my_seat), None)
    claims = state.get("claims") or {}
    namer = _namer(view)
    result = view.get("result")
    derived = view.get("derived") or {}
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
        "pool": v.favor_text(state.get("pool") or {}),
        "faction_cards": [
            {
                **f,
                "name": v.card_name(f["card"]),
                "text": v.faction_card_text(f["card"]),
                "holder_name": namer(f["holder"]) if f.get("holder") is not None else "",
            }
            for f in state.get("faction_cards") or []
        ],
        "public_plots": [_plot(p, claims.get(p), namer) for p in state.get("public_plots") or []],
        "hand": [_card(c) for c in me["hand"]] if me else [],
        "events": [_event(e) for e in me["events"]] if me else [],
        "my_plot": _plot(me["plot"], claims.get(me["plot"]), namer) if me and me["plot"] else None,
        "decision_kind": str(DECISION_WORDS.get(str(decision_kind), decision_kind or "")),
        "decision": view.get("decision"),
        "decision_help": v.decision_help(view.get("decision") or {}, namer),
        "derived": derived,
        "plots_met": [v.card_name(m["plot"]) for m in derived.get("plots_met") or []],
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
        "result_text": _result_text(result, namer) if result else "",
    }


def _plot(plot_id: str, claims: JsonDict | None, namer: Any) -> JsonDict:
    """A plot card: its printed name, its condition translated, who claims it."""
    on = [namer(s) for s in (claims or {}).get("on", [])]
    under = [namer(s) for s in (claims or {}).get("under", [])]
    return {
        "id": plot_id,
        "name": v.card_name(plot_id),
        "condition": v.plot_condition(plot_id),
        "claims_on": _(", ").join(on),
        "claims_under": _(", ").join(under),
    }


def _event(event_id: str) -> JsonDict:
    return {"id": event_id, "name": v.card_name(event_id), "text": v.event_text(event_id)}


def _result_text(result: JsonDict, namer: Any) -> str:
    """H.5's result: the winners, how, and the plots met."""
    winners = _(", ").join(namer(s) for s in result.get("winner_seats") or [])
    text = pgettext("pax", "Winners: %(names)s · %(how)s") % {
        "names": winners,
        "how": v.word(v.RESULT_REASONS, result.get("reason")),
    }
    if result.get("plots"):
        text += " · " + _(", ").join(v.card_name(p) for p in result["plots"])
    return text
