"""A game's past: the history of its settled hands (public while it is played) and the
replay of a finished game, move by move or hand by hand."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

import engine.indulgence as rules
from games import disputes, selectors
from games.errors import ServiceError
from games.web import forms, table, vocab
from games.web.views import _bad_request, _game_or_404, _is_htmx


def hand_history(view: dict[str, Any], summary: dict[str, Any]) -> dict[str, Any]:
    """One settled hand (``selectors.hand_summaries``) as the history page tells it: the
    Ruler, the edicts, who sinned or passed, every trick, the payments."""
    shown = table.settlement_display(view, summary)
    assert shown is not None
    edicts = [vocab.edict_title(e) for e in summary["edicts_in_force"]]
    if summary.get("papal_bull"):
        edicts.insert(0, vocab.edict_title("papal bull"))
    shown.update(
        {
            "edicts": edicts,
            "edicts_text": _(", ").join(edicts),
            "trump": vocab.family_name(summary["trump"]) if summary.get("trump") else "",
            "decisions": [
                {
                    "name": table.seat_name(view, d["seat"]),
                    "sin": d["decision"] == "sin",
                }
                for d in summary.get("sin_decisions") or []
            ],
            "tricks": [
                {
                    "number": number,
                    "leader": table.seat_name(view, trick["leader"]),
                    "winner": table.seat_name(view, trick["winner"]),
                    "plays": table.plays_display(view, trick["plays"]),
                }
                for number, trick in enumerate(summary.get("tricks") or [], start=1)
            ],
            "ended_early": bool(summary.get("ended_early")),
        }
    )
    return shown


@require_GET
def game_history(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every settled hand of the game, public once settled: the Ruler, the edict(s), the
    sinner, the tricks and who paid whom and why."""
    game = _game_or_404(game_id)
    view = selectors.game_view(game=game, user=request.user)
    hands = [hand_history(view, summary) for summary in selectors.hand_summaries(game=game)]
    starts = hand_starts(game) if selectors.record_published(game) else []
    for hand in hands:
        number = hand["hand"]
        hand["replay_move"] = starts[number - 1] if number <= len(starts) else None
    context = {"v": view, "hands": hands}
    template = "games/history.html#history" if _is_htmx(request) else "games/history.html"
    return render(request, template, context)


def hand_starts(game: Any) -> list[int]:
    """For each hand, the replay step at which it is dealt (``?move=``): 0 for the first,
    then the step after each settlement (``advance``) that dealt another."""
    kinds = list(
        game.moves.filter(archived_at=None).order_by("seq").values_list("action__type", flat=True)
    )
    return _starts(kinds)


def _starts(kinds: list[str]) -> list[int]:
    dealt = [index + 1 for index, kind in enumerate(kinds) if kind == "advance"]
    return [0] + [step for step in dealt if step < len(kinds)]


# --- replay ------------------------------------------------------------------------------------


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game, every hand revealed (the record is public now)."""
    game = _game_or_404(game_id)
    try:
        opened = not selectors.record_published(game)
        if opened:  # staff inside a dispute case only, audited (refuses everyone else)
            disputes.running_record_open(game=game, user=request.user, via="replay")
        record = selectors.game_export(game=game, opened_for_case=opened)
    except ServiceError as error:
        return render(
            request, "games/replay.html", {"game": game, "unavailable": error.detail}, status=409
        )
    moves = record["moves"]
    step_raw = request.GET.get("move", "")
    step = forms.plain_int(step_raw) if step_raw else 0
    if step is None:
        return _bad_request()
    step = max(0, min(step, len(moves)))
    state = selectors.record_replay(
        player_count=record["player_count"],
        variant=record["variant"],
        seed=record["seed"],
        moves=moves[:step],
    )
    view = rules.view(state, None)
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
            "cards": [table.card_face(card) for card in rules.view(state, seat)["my_hand"]],
        }
        for seat in range(record["player_count"])
    ]
    starts = _starts([m["action"].get("type", "") for m in moves])
    current = sum(1 for start in starts if start <= step)
    last_move = moves[step - 1] if step else None
    context.update(
        {
            "game": game,
            "step": step,
            "total": len(moves),
            "prev": max(step - 1, 0),
            "next": min(step + 1, len(moves)),
            "last_move": move_text(last_move, view) if last_move else "",
            "seed": record["seed"],
            "hand_links": [
                {"hand": number, "move": start, "current": number == current}
                for number, start in enumerate(starts, start=1)
            ],
        }
    )
    template = "games/replay.html#board" if _is_htmx(request) else "games/replay.html"
    return render(request, template, context)


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
            "seat": table.seat_label(view, action["seat"]),
        }
    return who
