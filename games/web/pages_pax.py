"""Pax Illuminaten's pages (the spec's 15.5; docs/web.md): the table drawn from the
seat's view alone (``games.web.pax_table``), the replay step by step as a spectator saw
it, and the rules page. The views reach them through the game's kind."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games import kinds, selectors
from games.web import pax_table, pax_vocab

TABLE_TEMPLATE = "games/pax/table.html"
TABLE_PARTS = frozenset({"table", "cell"})
REPLAY_TEMPLATE = "games/pax/replay.html"
RULES_TEMPLATE = "games/pax/rules.html"
# The create form's help under a seat that not every table has (2-4 seats).
# Issue 25 item 3: a newcomer plays alone against the automa the rules call the
# simplest (14.10: Count of St. Germain, complexity and difficulty "low"; P-78).
PLAY_NOW = {
    "player_count": 2,
    "variant": "automa-SG",
    "bot": "",
    "options": {},
    "label": gettext_lazy("Play Pax Illuminaten now against the Count of St. Germain (automa)"),
    "title": gettext_lazy("Pax Illuminaten: a solo game against the Count of St. Germain"),
    "about": gettext_lazy(
        "You alone against the automa the rules call the simplest, in a two-seat game, "
        "unrated, starting at once."
    ),
}
SEAT_HELP = {
    2: gettext_lazy("Used in 3- and 4-player games only."),
    3: gettext_lazy("Used in 4-player games only."),
}


def table_context(request: HttpRequest, game: Any, view: dict[str, Any]) -> dict[str, Any]:
    """What the table shows, from the seat's view alone; ``?pos=r,c`` picks a map card
    whose actions are listed (the click on a highlighted target), each with the view's
    suggested payment (15.5.1, P-87)."""
    return pax_table.context(view, picked=request.GET.get("pos", "")[:20])


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
    bots = {s["seat"] for s in record["seats"] if s.get("is_bot")}
    live = game.moves.filter(archived_at=None).order_by("seq")[:step]
    state = selectors.game_replay(game, selectors.replay_moves(game, live))
    view = kinds.of(game).engine.view(state, None)
    view.update({"id": game.pk, "status": game.status, "version": game.version, "my_seat": None})
    view["seats"] = [
        {
            **s,
            "username": names.get(s["seat"], ""),
            "display_name": names.get(s["seat"], ""),
            "is_bot": s["seat"] in bots,
        }
        for s in view["seats"]
    ]
    context = pax_table.context(view, picked="")
    last = moves[step - 1] if step else None
    context["last_move"] = (
        f"{pax_table.seat_name(view, last['seat'])}: {pax_table.action_label(last['action'])}"
        if last and last["action"].get("type") != "advance"
        else ""
    )
    return context


def rules_context() -> dict[str, Any]:
    return {}


def turn_sentence(game_id: int, data: dict[str, Any]) -> str | None:
    """P-74, P-85: the "your turn" notification in the reader's language, from the fields
    ``games.kinds.pax.Pax.turn_data`` put in its ``data`` (the row keeps the English)."""
    decision = data.get("decision")
    if decision is None:
        return None
    what = pax_vocab.word(pax_vocab.DECISION_WORDS, decision)
    names = {"game": game_id, "what": what, "seat": data.get("turn_of")}
    if data.get("ousted"):
        return pgettext("pax", "You are ousted in game %(game)s: %(what)s.") % names
    if data.get("turn_of") is not None:
        return (
            pgettext("pax", "Your decision in seat %(seat)s's turn, game %(game)s: %(what)s.")
            % names
        )
    if decision == "action":
        return pgettext("pax", "Your turn in game %(game)s: %(what)s.") % names
    return pgettext("pax", "Your decision in game %(game)s: %(what)s.") % names
