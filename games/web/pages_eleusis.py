"""New Eleusis' pages, first version: a plain table that shows the seat's view (NE-28)
and offers every explicit legal action as a button (single cards, no play, the prophet's
calls, library rules, the dealer's choice), and a replay step by step. The full table
(strings of cards, the rule editor, NE-31's phases drawn) replaces these templates
(issue 24, item 4); the views reach them through the game's kind (``games.kinds``)."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from games import kinds, selectors

TABLE_TEMPLATE = "games/eleusis/table.html"
TABLE_PARTS = frozenset({"table"})
REPLAY_TEMPLATE = "games/eleusis/replay.html"
RULES_TEMPLATE = "games/eleusis/rules.html"
SEAT_HELP: dict[int, str] = {}


def _name(view: dict[str, Any], seat: int | None) -> str:
    for entry in view.get("seats", []):
        if entry["seat"] == seat:
            name = str(entry.get("display_name") or entry.get("username") or seat)
            return f"{name} #{seat}" if entry.get("is_bot") else name
    return "" if seat is None else _("Seat %(seat)s") % {"seat": seat}


def action_label(action: dict[str, Any]) -> str:
    kind = action["type"]
    if kind == "play":
        return _("Play %(cards)s") % {"cards": " ".join(action["cards"])}
    if kind == "no_play":
        return _("No play")
    if kind == "call":
        card = f" ({action['card']})" if action.get("card") else ""
        return _("Call: %(verdict)s") % {"verdict": action["verdict"]} + card
    if kind == "library_rule":
        if "id" in action:
            return _("Library rule %(id)s") % {"id": action["id"]}
        return _("A library rule, %(difficulty)s") % {"difficulty": action["difficulty"]}
    if kind == "choose_card":
        return _("Place %(card)s") % {"card": action["card"]}
    return str(kind).replace("_", " ")


def table_context(request: HttpRequest, game: Any, view: dict[str, Any]) -> dict[str, Any]:
    """What the table template shows, from the seat's view alone."""
    return view_context(view)


def view_context(view: dict[str, Any]) -> dict[str, Any]:
    """The table's context from a view alone (the table, the replay)."""
    r = view.get("round") or {}
    actions = [
        {"json": json.dumps(a, separators=(",", ":"), sort_keys=True), "label": action_label(a)}
        for a in view.get("legal_actions", [])
        if "template" not in a
    ]
    my_seat = view.get("my_seat")
    return {
        "v": view,
        "r": r,
        "seats": [{**s, "name": _name(view, s["seat"])} for s in view.get("seats", [])],
        "my_turn": my_seat is not None and my_seat == view.get("to_act"),
        "to_act_name": _name(view, view.get("to_act")) if view.get("to_act") is not None else "",
        "actions": actions,
        "result": view.get("result"),
        "live": view.get("status") in ("open", "in_progress"),
    }


def announcement(context: dict[str, Any]) -> str:
    if context["result"]:
        return _("Game over.")
    if context["my_turn"]:
        return _("Your turn.")
    if context["to_act_name"]:
        return _("%(name)s to act.") % {"name": context["to_act_name"]}
    return ""


def replay_context(
    *, game: Any, record: dict[str, Any], moves: list[dict[str, Any]], step: int
) -> dict[str, Any]:
    """The replay after ``step`` moves of the live log: the spectator's view then."""
    names = {s["seat"]: s["username"] for s in record["seats"]}
    live = game.moves.filter(archived_at=None).order_by("seq")[:step]
    state = selectors.game_replay(game, selectors.replay_moves(game, live))
    view = kinds.of(game).engine.view(state, None)
    view.update({"id": game.pk, "status": game.status, "version": game.version})
    view["seats"] = [
        {**s, "username": names.get(s["seat"], ""), "display_name": names.get(s["seat"], "")}
        for s in view["seats"]
    ]
    context = view_context(view)
    last = moves[step - 1] if step else None
    context["last_move"] = (
        f"{names.get(last['seat'], '')}: {action_label(last['action'])}"
        if last and last["action"].get("type") != "advance"
        else ""
    )
    return context


def rules_context() -> dict[str, Any]:
    return {}
