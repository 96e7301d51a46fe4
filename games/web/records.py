"""A game's past: the history of its settled hands (public while it is played) and the
replay of a finished game, move by move (each game's replay: ``games.web.pages``; an
Indulgence replay also hand by hand)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import disputes, selectors
from games.errors import ServiceError
from games.web import forms, indulgence_vocab, pages, pages_indulgence, table
from games.web.views import _bad_request, _game_or_404, _is_htmx


def hand_history(view: dict[str, Any], summary: dict[str, Any]) -> dict[str, Any]:
    """One settled hand (``selectors.hand_summaries``) as the history page tells it: the
    Ruler, the edicts, who sinned or passed, every trick, the payments."""
    shown = table.settlement_display(view, summary)
    assert shown is not None
    edicts = [indulgence_vocab.edict_title(e) for e in summary["edicts_in_force"]]
    if summary.get("papal_bull"):
        edicts.insert(0, indulgence_vocab.edict_title("papal bull"))
    shown.update(
        {
            "edicts": edicts,
            "edicts_text": _(", ").join(edicts),
            "trump": indulgence_vocab.family_name(summary["trump"]) if summary.get("trump") else "",
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
    kinds_of_moves = list(
        game.moves.filter(archived_at=None).order_by("seq").values_list("action__type", flat=True)
    )
    return pages_indulgence.hand_starts_of(kinds_of_moves)


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
        template = pages.of(game).REPLAY_TEMPLATE
        return render(request, template, {"game": game, "unavailable": error.detail}, status=409)
    moves = record["moves"]
    step_raw = request.GET.get("move", "")
    step = forms.plain_int(step_raw) if step_raw else 0
    if step is None:
        return _bad_request()
    step = max(0, min(step, len(moves)))
    game_pages = pages.of(game)
    context = game_pages.replay_context(game=game, record=record, moves=moves, step=step)
    context.update(
        {
            "game": game,
            "step": step,
            "total": len(moves),
            "prev": max(step - 1, 0),
            "next": min(step + 1, len(moves)),
            "seed": record["seed"],
        }
    )
    template = game_pages.REPLAY_TEMPLATE
    return render(request, f"{template}#board" if _is_htmx(request) else template, context)


# The helpers the history and the tests read here (Indulgence's).
move_text = pages_indulgence.move_text
_starts = pages_indulgence.hand_starts_of
