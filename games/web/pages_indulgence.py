"""Indulgence's pages: its table (``games/table.html`` and its partials, built by
``games.web.table`` from the seat's view alone) and its replay. The views reach these
through the game's kind (``games.kinds``: ``GameKind.pages``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.core import GameModule
from games.web import table, vocab

TABLE_TEMPLATE = "games/table.html"
TABLE_PARTS = frozenset({"table", "hand", "trick", "edicts", "seats", "status", "settlement"})
REPLAY_TEMPLATE = "games/replay.html"
# The create form's help under a seat that not every table has.
SEAT_HELP = {3: gettext_lazy("Used in 4-player games only.")}


def table_context(view: dict[str, Any]) -> dict[str, Any]:
    return table.table_context(view)


def announcement(context: dict[str, Any]) -> str:
    return table.announcement(context)


def replay_context(
    *, game: Any, record: dict[str, Any], state: Any, engine: GameModule, step: int
) -> dict[str, Any]:
    """The replay after ``step`` moves: the table as a spectator saw it, every hand
    revealed, the move just made in words (the record is public now)."""
    moves = record["moves"]
    names = {s["seat"]: s["username"] for s in record["seats"]}
    view = engine.view(state, None)
    view.update(
        {
            "id": game.pk,
            "status": "finished" if step == len(moves) else "in_progress",
            "seats": [
                {
                    **s,
                    "username": names[s["seat"]],
                    "display_name": names[s["seat"]],
                    "is_bot": next(r["is_bot"] for r in record["seats"] if r["seat"] == s["seat"]),
                    "bot_kind": None,
                }
                for s in view["seats"]
            ],
            "version": game.version,
        }
    )
    context = table.table_context(view)
    context["hands"] = [
        {
            "name": table.seat_name(view, seat),
            "cards": [table.card_face(card) for card in engine.view(state, seat)["my_hand"]],
        }
        for seat in range(record["player_count"])
    ]
    last_move = moves[step - 1] if step else None
    context["last_move"] = move_text(last_move, names) if last_move else ""
    return context


def move_text(move: dict[str, Any], names: dict[int, str]) -> str:
    action = move["action"]
    who = names.get(move["seat"], "") if move["seat"] is not None else ""
    kind = action.get("type")
    if kind == "advance":
        return _("The hand was settled and the next one dealt.")
    if kind == "play":
        text = _("%(name)s played %(card)s.") % {
            "name": who,
            "card": vocab.card_label(action["card"]),
        }
        if action.get("indulgence"):
            text += " " + _("(with the Indulgence ring)")
        return text
    if kind == "choose_edict":
        return _("%(name)s chose the edict “%(edict)s”.") % {
            "name": who,
            "edict": vocab.edict_title(action["edict"]),
        }
    if kind == "sin":
        return _("%(name)s sinned.") % {"name": who}
    if kind == "pass":
        return _("%(name)s passed.") % {"name": who}
    if kind == "name_trump":
        return _("%(name)s named %(family)s as trump.") % {
            "name": who,
            "family": vocab.family_name(action["family"]),
        }
    if kind == "papal_bull":
        return _("%(name)s played a papal bull.") % {"name": who}
    if kind == "resolve_tie":
        return _("%(name)s settled a tie for %(family)s on %(seat)s.") % {
            "name": who,
            "family": vocab.family_name(action["family"]),
            "seat": names.get(action["seat"], ""),
        }
    return who


def rules_context() -> dict[str, Any]:
    """The rules page: the edicts of the catalog."""
    from engine.indulgence.edicts import CATALOG

    edicts = [
        {
            **vocab.edict_display(e.as_dict()),
            "basic": e.basic,
            "amount": e.edict_amount,
            "reward": e.sin_reward,
        }
        for e in CATALOG
    ]
    return {"edicts": edicts}


RULES_TEMPLATE = "rules.html"
