"""Indulgence's pages: its table (``games/table.html`` and its partials, built by
``games.web.table`` from the seat's view alone, with the end-of-hand panel and the final
standings), its replay (move by move or hand by hand) and its rules page. The views reach
them through ``games.web.pages`` (the game's kind names this module)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import kinds, selectors
from games.models import GameStatus
from games.web import endgame, indulgence_vocab, table

TABLE_TEMPLATE = "games/table.html"
TABLE_PARTS = frozenset(
    {"table", "hand", "trick", "edicts", "seats", "status", "settlement", "handover", "gameover"}
)
REPLAY_TEMPLATE = "games/replay.html"
RULES_TEMPLATE = "rules.html"
# "Play now": a 4-player basic unrated game against three heuristic bots.
PLAY_NOW = {
    "player_count": 4,
    "variant": "basic",
    "bot": "heuristic",
    "options": {},
    "label": gettext_lazy("Play Indulgence now against 3 bots"),
    "about": gettext_lazy(
        "A four-player game of the basic rules against three bots, unrated, starting at once."
    ),
}
# The create form's help under a seat that not every table has.
SEAT_HELP = {3: gettext_lazy("Used in 4-player games only.")}


def table_context(request: HttpRequest, game: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The table from the seat's view: the end of a hand stays on screen until the player
    moves on (the last settled hand's summary), the final standings once it is over."""
    seen = endgame.hands_seen(request, game.pk)
    last_hand = None
    if table.pause_due(view, seen) or view["status"] == GameStatus.FINISHED:
        last_hand = selectors.last_hand_summary(game=game)  # its deciding trick
    context = table.table_context(view, hands_seen=seen, last_hand=last_hand)
    if context["result"]:
        context["standings"] = endgame.standings(game, view, context["seats"])
    return context


def announcement(context: dict[str, Any]) -> str:
    return table.announcement(context)


def replay_context(
    *, game: Any, record: dict[str, Any], moves: list[dict[str, Any]], step: int
) -> dict[str, Any]:
    """The replay after ``step`` moves: the table as a spectator saw it, every hand
    revealed, the move just made in words, links to each hand's start."""
    kind = kinds.of(game)
    state = selectors.record_replay(
        player_count=record["player_count"],
        variant=record["variant"],
        seed=record["seed"],
        moves=moves[:step],
    )
    view = kind.engine.view(state, None)
    view.update(
        {
            "id": game.pk,
            "status": "finished" if step == len(moves) else "in_progress",
            # The same names as at the table: bots by their kind and seat.
            "seats": [
                {**s, **_seat_names(seat)}
                for s, seat in zip(view["seats"], selectors.seats_of_game(game), strict=True)
            ],
            "version": game.version,
        }
    )
    context = table.table_context(view)
    context["hands"] = [
        {
            "name": table.seat_name(view, seat),
            "cards": [table.card_face(card) for card in kind.engine.view(state, seat)["my_hand"]],
        }
        for seat in range(record["player_count"])
    ]
    starts = hand_starts_of([m["action"].get("type", "") for m in moves])
    current = sum(1 for start in starts if start <= step)
    last_move = moves[step - 1] if step else None
    context.update(
        {
            "last_move": move_text(last_move, view) if last_move else "",
            "hand_links": [
                {"hand": number, "move": start, "current": number == current}
                for number, start in enumerate(starts, start=1)
            ],
        }
    )
    return context


def hand_starts_of(kinds_of_moves: list[str]) -> list[int]:
    """For each hand, the replay step at which it is dealt: 0 for the first, then the step
    after each settlement (``advance``) that dealt another."""
    dealt = [index + 1 for index, kind in enumerate(kinds_of_moves) if kind == "advance"]
    return [0] + [step for step in dealt if step < len(kinds_of_moves)]


def _seat_names(seat: Any) -> dict[str, Any]:
    return {
        "username": seat.player.user.get_username(),
        "display_name": str(seat.player),
        "is_bot": seat.player.is_bot,
        "bot_kind": seat.bot_kind or None,
    }


def move_text(move: dict[str, Any], view: dict[str, Any]) -> str:
    """A move of the log as a sentence, its player named with their seat."""
    action = move["action"]
    seat = move["seat"]
    who = table.seat_label(view, seat) if seat is not None else ""
    kind = action.get("type")
    if kind == "advance":
        return _("The hand was settled and the next one dealt.")
    if kind == "play":
        text = _("%(name)s played %(card)s.") % {
            "name": who,
            "card": indulgence_vocab.card_label(action["card"]),
        }
        if action.get("indulgence"):
            text += " " + _("(with the Indulgence ring)")
        return text
    if kind == "choose_edict":
        return _("%(name)s chose the edict “%(edict)s”.") % {
            "name": who,
            "edict": indulgence_vocab.edict_title(action["edict"]),
        }
    if kind == "sin":
        return _("%(name)s sinned.") % {"name": who}
    if kind == "pass":
        return _("%(name)s passed.") % {"name": who}
    if kind == "name_trump":
        return _("%(name)s named %(family)s as trump.") % {
            "name": who,
            "family": indulgence_vocab.family_name(action["family"]),
        }
    if kind == "papal_bull":
        return _("%(name)s played a papal bull.") % {"name": who}
    if kind == "resolve_tie":
        return _("%(name)s settled a tie for %(family)s on %(seat)s.") % {
            "name": who,
            "family": indulgence_vocab.family_name(action["family"]),
            "seat": table.seat_label(view, action["seat"]),
        }
    return who


def rules_context() -> dict[str, Any]:
    """The rules page: the edicts of the catalog."""
    from engine.indulgence.edicts import CATALOG

    edicts = [
        {
            **indulgence_vocab.edict_display(e.as_dict()),
            "basic": e.basic,
            "amount": e.edict_amount,
            "reward": e.sin_reward,
        }
        for e in CATALOG
    ]
    return {"edicts": edicts}
