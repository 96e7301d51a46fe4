"""New Eleusis' own addresses (reached through its pages module's ``URLCONF``):

- ``POST /games/<id>/rule-check``: the dealer's editor checks the rule as it is typed
  (NE-21.6's errors with line and column, NE-22's sanity check with its warnings and
  sample main lines with a right and a wrong next card, the hints of NE-24 that are true
  of it). Only the round's dealer, while choosing the rule, may use it; the work is
  bounded: at most 2,000 characters (NE-21.2, longer text is refused unread), the
  checker's limits on nodes, depth and lookback (NE-21.6), and a sanity check of
  ``CHECK_WALKS`` walks within a step budget a hundred times smaller than the real one (the
  real check with the table's walks runs when the rule is set). Rate-limited (``check``).
- ``GET /games/<id>/rounds/<n>/verify``: NE-29.2 run by the engine's own ``verify`` on
  what is public: the records of rounds 1 to n once revealed (NE-23.3, E34), as every
  seat's view carries them (with the game seed once the game is over). The answer of a
  round is cached: a revealed round never changes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from engine.eleusis import verify
from engine.eleusis.erl import ErlError, compile_rule
from engine.eleusis.faces import FACE_IDS, parse_face
from engine.eleusis.hints import hint_text, true_hints
from engine.eleusis.record import RECORD_FORMAT
from engine.eleusis.sanity import SanitySettings, sanity_check
from games import kinds, selectors
from games.web import eleusis_present as present
from games.web.pages_eleusis import _language
from games.web.ratelimit import rate_limited
from games.web.views import _game_or_404, htmx_login_required

MAX_SOURCE = 2_000  # NE-21.2
CHECK_WALKS = 60  # NE-22.4's walks in the editor (300 when the rule is set)
CHECK_STEPS = 3_000_000  # a hundredth of NE-22.7's budget (SanitySettings.max_steps)
CHECK_EXACT_STATES = 20_000  # NE-22.3's exact check, smaller in the editor
VERIFY_CACHE_SECONDS = 24 * 3600
KEY = "eleusis"  # these pages are this game's: any other game's id is not found here


def _eleusis_game_or_404(game_id: int) -> Any:
    game = _game_or_404(game_id)
    if kinds.of(game).key != KEY:
        raise Http404(_("There is no such game."))
    return game


def rule_report(source: str) -> dict[str, Any]:
    """What the editor shows about ``source``: an error (code, line, column, message),
    or the sanity check's verdict, reasons, samples and the true hints."""
    if not source.strip():
        return {"empty": True}
    if len(source) > MAX_SOURCE:
        return {
            "error": {
                "code": "too_long",
                "line": 1,
                "column": MAX_SOURCE + 1,
                "message": _("A rule has at most 2,000 characters (NE-21.2)."),
            }
        }
    try:
        rule = compile_rule(source)
    except ErlError as exc:
        return {"error": exc.to_json()}
    report = sanity_check(
        rule,
        SanitySettings(
            walks=CHECK_WALKS, max_steps=CHECK_STEPS, max_exact_states=CHECK_EXACT_STATES
        ),
    )
    samples = []
    for sample in report.samples[:3]:
        faces = [parse_face(f) for f in sample["main_line"]]
        right = rule.right_faces(rule.line_of(faces))
        samples.append(
            {
                "line": [present.card(f) for f in sample["main_line"]],
                "wrong": present.card(sample["wrong_next"]) if sample.get("wrong_next") else None,
                "right": present.card(FACE_IDS[right[0]]) if right else None,
            }
        )
    language = _language()
    return {
        "verdict": report.verdict,
        "reasons": [
            {"code": r.code, "verdict": r.verdict, "message": r.message} for r in report.reasons
        ],
        "share": round(report.mean_share * 100),
        "lookback": report.lookback,
        "walks": report.walks,
        "samples": samples,
        "like_library": report.like_library,
        "hints": [
            {"json": present.compact(h), "text": hint_text(h, language)}
            for h in true_hints(rule, report)
        ],
    }


@require_POST
@htmx_login_required
def rule_check(request: HttpRequest, game_id: int) -> HttpResponse:
    """The dealer's rule, checked as it is typed (the editor's ``#rule-check``)."""
    game = _eleusis_game_or_404(game_id)
    view = selectors.game_view(game=game, user=request.user)
    if not any(a["type"] == "set_rule" for a in view["legal_actions"]):
        return HttpResponse(
            _("Only this round's dealer, while choosing the rule, may check a rule here."),
            status=403,
        )
    raw = request.POST.get("source", "")
    source = raw if len(raw) <= 2 * MAX_SOURCE else raw[: MAX_SOURCE + 1]
    return render(request, "games/eleusis/check.html", rule_report(source))


def revealed_record(game: Any, view: dict[str, Any], number: int) -> dict[str, Any] | None:
    """NE-29.3's record of rounds 1 to ``number`` as the public knows them (None when
    round ``number`` is not revealed yet): the rounds scored, from the view; the game
    seed once the game is over (its export)."""
    records = list(view.get("previous_rounds") or [])
    current = (view.get("round") or {}).get("record")
    if current is not None:
        records.append(current)
    records = [r for r in records if r.get("seed") is not None]
    if not 1 <= number <= len(records) or records[number - 1]["number"] != number:
        return None
    seed = selectors.game_export(game=game)["seed"] if selectors.record_published(game) else None
    house = bool(view["settings"].get("house_dealt"))
    return {
        "game": "eleusis",
        "format": RECORD_FORMAT,
        "variant": view["variant"],
        "player_count": view["player_count"],
        "settings": view["settings"],
        "seats": [{"seat": s["seat"], "bot": bool(s.get("bot"))} for s in view["seats"]],
        "seed": seed,
        "seed_commitment": view["seed_commitment"],
        "round_seed_commitments": view["round_seed_commitments"],
        "first_dealer": None if house else records[0]["dealer"],
        "rounds": records[:number],
        "status": "in_progress",
        "end": None,
    }


@require_GET
def round_verify(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """NE-29.2 on round ``number`` (and the rounds before it) once it is revealed."""
    game = _eleusis_game_or_404(game_id)
    view = selectors.game_view(game=game, user=request.user)
    record = revealed_record(game, view, number)
    if record is None:
        raise Http404(_("That round is not revealed yet."))
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    key = f"eleusis-verify:{game.pk}:{number}:{hashlib.sha256(text.encode()).hexdigest()}"
    result = cache.get(key)
    if result is None:
        result = verify(record).to_json()
        cache.set(key, result, VERIFY_CACHE_SECONDS)
    revealed = record["rounds"][number - 1]
    context = {
        "v": view,
        "number": number,
        "result": result,
        "rule": revealed["rule"],
        "round_seed": revealed["seed"],
        "dealer": present.name(view, revealed["dealer"]) if revealed["dealer"] is not None else "",
    }
    return render(request, "games/eleusis/verify.html", context)


urlpatterns = [
    path(
        "games/<int:game_id>/rule-check",
        rate_limited("check")(rule_check),
        name="eleusis_rule_check",
    ),
    path(
        "games/<int:game_id>/rounds/<int:number>/verify",
        round_verify,
        name="eleusis_verify",
    ),
]
