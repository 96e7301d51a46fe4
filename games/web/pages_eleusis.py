"""New Eleusis' pages (issue 24, item 4): the table, the dealer's rule editor, the
replay, the rules page and how the table's forms become actions. Everything the table
shows comes from the seat's view (NE-28) through ``games.web.eleusis_present``; the
views reach this module through the game's kind (``games.kinds``), and its own
addresses (the rule check, a round's verification) are ``games.web.eleusis_views``.

The table's regions (``?part=``): ``status`` (whose turn, the phase, the commitment,
sudden death), ``layout`` (the main line with side lines beneath, markers, prophet
lines, the pending play), ``seats`` (roles, cards held, penalty cards, expulsions,
totals), ``hand`` (my cards with multi-select for strings, no play, prophet intent, the
prophet's calls, the dealer's choice), ``editor`` (the dealer's rule), ``news`` (what
just happened) and ``reveal`` (the rules of the rounds scored, with their verification).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.http import HttpRequest, QueryDict
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from engine.eleusis.hints import HINT_IDS, TEXTS
from engine.eleusis.library import library
from engine.eleusis.state import DIFFICULTIES, PROPHET_INTENTS
from games import kinds, selectors
from games.api.parsers import MAX_JSON_DEPTH, json_depth
from games.web import eleusis_present as present

TABLE_TEMPLATE = "games/eleusis/table.html"
TABLE_PARTS = frozenset({"table", "status", "layout", "seats", "hand", "editor", "news", "reveal"})
REPLAY_TEMPLATE = "games/eleusis/replay.html"
RULES_TEMPLATE = "games/eleusis/rules.html"
URLCONF = "games.web.eleusis_views"  # the rule check and a round's verification
SEAT_HELP: dict[int, str] = {}
# "Play now": one practice round (V4: the house deals, every seat is a scientist) against
# three novice bots, so that a newcomer plays at once (NE-15, E43).
PLAY_NOW = {
    "player_count": 4,
    "variant": "practice",
    "bot": "novice",
    "options": {"round_limit": 1, "difficulty": "easy", "hand_size": 8},
    "label": gettext_lazy("Play New Eleusis now against 3 bots"),
    "about": gettext_lazy(
        "One practice round for four players (the house deals) against three novice bots, "
        "unrated, starting at once."
    ),
}
DIFFICULTY_LABELS = {
    "easy": gettext_lazy("easy"),
    "medium": gettext_lazy("medium"),
    "hard": gettext_lazy("hard"),
    "expert": gettext_lazy("expert"),
}
INTENT_LABELS = {
    "no": gettext_lazy("Do not declare prophet"),
    "declare": gettext_lazy("Declare myself prophet after this turn"),
    "decide_after": gettext_lazy("Let me decide after the verdict"),
}
MAX_FIELD = 4_000  # longer than any rule may be (2,000 characters, NE-21.2)


def _language() -> str:
    return "ja" if (get_language() or "en").startswith("ja") else "en"


def action_label(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A button's words for an explicit legal action."""
    kind = action["type"]
    if kind == "call":
        if action["verdict"] == "wrong" and action.get("card"):
            return _("Wrong: %(card)s was right") % {"card": present.cards_text([action["card"]])}
        calls = {
            "right": _("Call it right"),
            "wrong": _("Call it wrong"),
            "correct": _("Call it correct"),
        }
        return calls.get(str(action.get("verdict")), _("No call (time ran out)"))
    if kind == "choose_card":
        return _("Place %(card)s") % {"card": present.cards_text([action["card"]])}
    if kind == "declare_prophet":
        return _("Declare myself prophet")
    if kind == "pass":
        return _("Do not declare")
    if kind == "propose_end":
        return _("Propose to end the game now")
    if kind == "agree_end":
        return _("Agree to end the game now")
    if kind == "library_rule" and "difficulty" in action:
        return _("A ready rule, %(difficulty)s") % {
            "difficulty": DIFFICULTY_LABELS.get(action["difficulty"], action["difficulty"])
        }
    if kind == "library_rule":
        return _("A ready rule from the library")
    if kind == "set_rule":
        return _("A rule of the dealer's own")
    if kind == "play":
        return _("Play %(cards)s") % {"cards": present.cards_text(action["cards"])}
    if kind == "no_play":
        return _("No play")
    return str(kind).replace("_", " ")


def table_context(request: HttpRequest, game: Any, view: dict[str, Any]) -> dict[str, Any]:
    """What the table template shows, from the seat's view alone."""
    return view_context(view)


def _buttons(view: dict[str, Any], types: set[str]) -> list[dict[str, str]]:
    return [
        {"json": present.compact(a), "label": action_label(view, a)}
        for a in view.get("legal_actions", [])
        if a["type"] in types and "template" not in a
    ]


def view_context(view: dict[str, Any]) -> dict[str, Any]:
    """The table's context from a view alone (the table, the replay)."""
    r = view.get("round") or None
    my_seat = view.get("my_seat")
    to_act = view.get("to_act")
    phase = view.get("phase")
    my_turn = my_seat is not None and my_seat == to_act
    legal = view.get("legal_actions") or []
    types = {a["type"] for a in legal}
    seats = present.seats(view, r)
    me = next((s for s in seats if s["is_me"]), None)
    can_play = my_turn and phase == "turn"
    declare = (
        can_play
        and bool(view.get("prophet_possible"))
        and r is not None
        and r["prophet"] is None
        and me is not None
        and not me.get("been_prophet")
    )
    context: dict[str, Any] = {
        "v": view,
        "r": r,
        "seats": seats,
        "my_turn": my_turn,
        "phase": phase,
        "phase_label": present.PHASES.get(phase or "", ""),
        "to_act_name": present.name(view, to_act) if to_act is not None else "",
        "result": view.get("result"),
        "live": view.get("status") in ("open", "in_progress"),
        "layout": present.layout(view, r) if r else [],
        "news": present.happenings(view, r) if r else [],
        "reveals": present.revealed_rounds(view),
        "hand": [present.card(c) for c in view.get("my_hand") or []],
        "can_play": can_play,
        "show_hand": me is not None and me.get("role") != "dealer" and not view.get("result"),
        "intents": [
            {"key": k, "label": INTENT_LABELS[k]} for k in (PROPHET_INTENTS if declare else ())
        ],
        "calls": _buttons(view, {"call"}),
        "choices": _buttons(view, {"choose_card"}),
        "post_play": _buttons(view, {"declare_prophet", "pass"}),
        "votes": _buttons(view, {"propose_end", "agree_end"}),
        "prophecy": "set_prophecy" in types,
        "pending": None,
        "status_text": "",
        "difficulty": DIFFICULTY_LABELS.get(str(r["rule"]["difficulty"]), "") if r else "",
        "editor": None,
        "draft": "",
    }
    if r and r.get("pending"):
        p = r["pending"]
        context["pending"] = {
            "name": present.name(view, p["seat"]),
            "kind": p["kind"],
            "cards": [present.card(c) for c in p["cards"]],
        }
    context["status_text"] = _status_text(view, context)
    if "set_rule" in types:
        context["editor"] = editor_context(view)
    return context


def _status_text(view: dict[str, Any], c: dict[str, Any]) -> str:
    """Whose turn it is and what they do, in a sentence."""
    phase, who, r = c["phase"], c["to_act_name"], c["r"]
    if view.get("status") == "open":
        return ""
    if c["result"]:
        return _("The game is over.")
    if phase == "rule_setup":
        if c["my_turn"]:
            return _("You are the dealer: write this round's rule or pick a ready one.")
        return _("%(name)s, the dealer, is choosing this round's rule.") % {"name": who}
    if phase == "turn":
        if c["my_turn"]:
            return _("Your turn: play one card, a string of 2 to 4 cards, or declare no play.")
        return _("%(name)s to play.") % {"name": who}
    if phase == "prophet_call":
        player = c["pending"]["name"] if c["pending"] else ""
        if c["my_turn"]:
            return _("You are the prophet: call %(name)s's play.") % {"name": player}
        return _("%(prophet)s, the prophet, is calling %(name)s's play.") % {
            "prophet": who,
            "name": player,
        }
    if phase == "dealer_choice":
        if c["my_turn"]:
            return _("Choose which right card of the shown hand joins the main line.")
        return _("%(name)s, the dealer, chooses a right card from the shown hand.") % {"name": who}
    if phase == "post_play":
        if c["my_turn"]:
            return _("Your play was judged: declare yourself prophet now, or not.")
        return _("%(name)s decides whether to declare prophet.") % {"name": who}
    if phase == "round_over" and r:
        return _("Round %(n)s is over: the rule is revealed below.") % {"n": r["number"]}
    return ""


def editor_context(view: dict[str, Any]) -> dict[str, Any]:
    """The dealer's rule editor (NE-5.1, NE-20.2, NE-21, NE-24, NE-25): ready rules by
    difficulty, the library's examples by grade, the verified hints."""
    language = _language()
    grades: dict[int, list[dict[str, Any]]] = {}
    for rule in library():
        grades.setdefault(rule.difficulty, []).append(
            {
                "id": rule.id,
                "title": rule.title[language],
                "description": rule.description[language],
                "source": rule.source.strip(),
                "right": rule.right_percent,
                "json": present.compact(
                    {"type": "library_rule", "id": rule.id, "confirm_warnings": True}
                ),
            }
        )
    return {
        "ready": [b for b in _buttons(view, {"library_rule"}) if '"difficulty"' in b["json"]],
        "grades": [{"grade": g, "rules": grades[g]} for g in sorted(grades)],
        "difficulties": [str(DIFFICULTY_LABELS[d]) for d in DIFFICULTIES],
        "hints": [
            {"id": h, "text": TEXTS[h][1 if language == "ja" else 0]}
            for h in HINT_IDS
            if h not in ("H5", "H10")
        ],
    }


def announcement(context: dict[str, Any]) -> str:
    news = context.get("news") or []
    first = f"{news[0]} " if news else ""
    if context["result"]:
        return first + _("Game over.")
    if context["my_turn"]:
        return first + _("Your turn.")
    return first + (context.get("status_text") or "")


# --- the lobby's create form -------------------------------------------------------------


def create_fields() -> dict[str, forms.Field]:
    """The create form's own fields: how many rounds (E05 (a); the practice variant needs
    a number, E43) and cards per hand (NE-5.4, V5)."""
    return {
        "round_limit": forms.TypedChoiceField(
            label=_("Rounds"),
            choices=[("", _("Every seat deals once")), *((n, str(n)) for n in range(1, 10))],
            coerce=int,
            empty_value=None,
            required=False,
            help_text=_(
                "Fewer rounds than seats ends the game early; the Practice variant needs a number."
            ),
        ),
        "hand_size": forms.TypedChoiceField(
            label=_("Cards per hand"),
            choices=[("", _("As the variant says")), *((n, str(n)) for n in (14, 12, 10, 8, 6))],
            coerce=int,
            empty_value=None,
            required=False,
        ),
    }


def create_options(data: dict[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in ("round_limit", "hand_size") if data.get(key)}


# --- the table's forms as actions -------------------------------------------------------


def _json(raw: str | None) -> Any:
    if not raw or len(raw) > MAX_FIELD:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if json_depth(value) <= MAX_JSON_DEPTH else None


def posted_action(post: QueryDict) -> dict[str, Any] | None:
    """The action a table form posted: ``action`` (an explicit action as JSON, the value
    of the button pressed), or ``do`` with the form's fields: ``play`` (the ticked
    ``cards`` in the ``order`` they were ticked, and the ``prophet`` intent of NE-26.2),
    ``no_play``, ``set_rule`` (``source``, ticked ``hint``s, ``free_hint``,
    ``no_play_choice``, ``confirm_warnings``), ``set_prophecy`` (``prophecy``; empty
    withdraws it). None: not an action (400). The engine validates the rest (E37)."""
    do = post.get("do")
    if not do:
        value = _json(post.get("action"))
        return value if isinstance(value, dict) else None
    intent = post.get("prophet") or "no"
    if do == "play":
        ticked = [c for c in post.getlist("cards")[:8] if len(c) <= 8]
        order = [c for c in (post.get("order") or "")[:80].split(",") if c in ticked]
        cards = list(dict.fromkeys(order + ticked))
        return {"type": "play", "cards": cards, "prophet": intent}
    if do == "no_play":
        return {"type": "no_play", "prophet": intent}
    if do == "set_rule":
        hints = [_json(h) for h in post.getlist("hint")[:12]]
        return {
            "type": "set_rule",
            "source": (post.get("source") or "")[: MAX_FIELD + 1],
            "hints": [h for h in hints if h is not None],
            "free_hint": (post.get("free_hint") or "").strip()[:MAX_FIELD] or None,
            "no_play_choice": post.get("no_play_choice") or "random",
            "confirm_warnings": bool(post.get("confirm_warnings")),
        }
    if do == "set_prophecy":
        source = (post.get("prophecy") or "")[: MAX_FIELD + 1]
        return {"type": "set_prophecy", "source": source if source.strip() else None}
    return None


def draft_of(post: QueryDict) -> str:
    """The rule the dealer had typed, to give back after a refusal."""
    return (post.get("source") or "")[:MAX_FIELD] if post.get("do") == "set_rule" else ""


# --- replay and rules ---------------------------------------------------------------------


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
        f"{names.get(last['seat'], '')}: {action_label(view, last['action'])}"
        if last and last["action"].get("type") != "advance"
        else ""
    )
    return context


def rules_context() -> dict[str, Any]:
    """The rules page: the library's rules by grade, in the reader's language."""
    language = _language()
    return {
        "library": [
            {
                "id": rule.id,
                "grade": rule.difficulty,
                "title": rule.title[language],
                "description": rule.description[language],
                "source": rule.source.strip(),
                "right": rule.right_percent,
            }
            for rule in library()
        ],
        "language": language,
    }
