"""Turn one player's view (selectors.game_view) into what the table template shows.

Everything here is derived from the view alone: the template never sees a game row or
an engine state, so it cannot show a card the view does not carry.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.indulgence.edicts import PAPAL_BULL_FAILURE
from games import kinds
from games.web import indulgence_vocab, vocab

# Where each seat sits around the table, counted from the reader's seat (clockwise:
# seat s+1 sits to the left of seat s).
POSITIONS = {3: ("south", "west", "east"), 4: ("south", "west", "north", "east")}


def action_json(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def seat_name(view: dict[str, Any], seat: int | None) -> str:
    """A seat's player name; bots, who may fill several seats, get the seat number too."""
    if seat is None:
        return ""
    for entry in view["seats"]:
        if entry["seat"] == seat:
            return _entry_name(entry)
    return _("Seat %(seat)s") % {"seat": seat}


def seat_label(view: dict[str, Any], seat: int | None) -> str:
    """A seat's name with its number, for the move log: "Heuristic bot #1" (bots carry
    their seat already), "alice (seat 0)"."""
    name = seat_name(view, seat)
    if seat is None or name.endswith(f" #{seat}"):
        return name
    return _("%(name)s (seat %(seat)s)") % {"name": name, "seat": seat}


def _entry_name(entry: dict[str, Any]) -> str:
    """One name per seat everywhere (table, history, replay): a built-in bot is its kind in
    the reader's language and its seat number ("Heuristic bot #1"), whatever its account's
    display name; another bot account gets the seat number too (bots may fill several
    seats); a person is their display name."""
    if entry.get("is_bot"):
        kind = entry.get("bot_kind") or vocab.bot_kind_of(str(entry["username"]))
        name = vocab.bot_name(kind) if kind else str(entry.get("display_name") or "")
        return f"{name or entry['username']} #{entry['seat']}"
    return str(entry.get("display_name") or entry["username"])


def card_face(card: str | None, *, ring: bool = False) -> dict[str, Any]:
    """A card as the template draws it; ``None`` is a face-down card."""
    if card is None:
        return {"id": None, "face_down": True, "label": _("a face-down card")}
    family = indulgence_vocab.FAMILY_OF_LETTER[card[0]]
    label = indulgence_vocab.card_label(card)
    if ring:
        label = _("%(card)s with the Indulgence ring") % {"card": label}
    return {
        "id": card,
        "face_down": False,
        "family": family,
        "letter": card[0],
        "rank": card[1:],
        "label": label,
        "ring": ring,
    }


def plays_display(view: dict[str, Any], plays: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "seat": play["seat"],
            "name": seat_name(view, play["seat"]),
            "card": card_face(play.get("card"), ring=bool(play.get("indulgence"))),
        }
        for play in plays
    ]


def hand_display(view: dict[str, Any]) -> tuple[list[dict[str, Any]], str, bool]:
    """My cards as buttons: (cards, the one reason shown for disabled cards, ring allowed)."""
    legal = view["legal_actions"]
    playable = {a["card"] for a in legal if a["type"] == "play"}
    ring = any(a["type"] == "play" and a["indulgence"] for a in legal)
    my_turn_to_play = bool(playable)
    trick = view.get("current_trick") or {}
    reason = ""
    if my_turn_to_play and len(playable) < len(view["my_hand"]):
        led = trick.get("led_family")
        if trick.get("plays") and led:
            reason = _("You must follow %(family)s.") % {
                "family": indulgence_vocab.family_name(led)
            }
        else:
            named = sorted(
                {family for edict in view["edicts_in_play"] for family in edict["families"]}
                | ({view["trump"]} if view.get("trump") else set())
            )
            families = _(", ").join(indulgence_vocab.family_name(f) for f in named)
            reason = _(
                "In the first trick you may not lead %(families)s while you hold another family."
            ) % {"families": families}
    elif not my_turn_to_play and view["my_hand"] and view.get("phase") == "playing":
        reason = _("Wait for your turn to play.")
    cards = []
    for card in view["my_hand"]:
        face = card_face(card)
        face["legal"] = card in playable
        face["action"] = action_json({"type": "play", "card": card, "indulgence": False})
        cards.append(face)
    return cards, reason, ring


def controls_display(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Buttons for every legal action that is not playing a card or choosing an edict."""
    controls = []
    for action in view["legal_actions"]:
        kind = action["type"]
        if kind == "sin":
            label = _("Sin: take the edict's Sin side and the Indulgence ring")
        elif kind == "pass":
            label = _("Pass")
        elif kind == "papal_bull":
            label = _("Play your papal bull: every edict in the row is in force")
        elif kind == "name_trump":
            label = _("Name %(family)s as trump") % {
                "family": indulgence_vocab.family_name(action["family"])
            }
        elif kind == "resolve_tie":
            label = _("%(name)s counts as having the most %(family)s") % {
                "name": seat_name(view, action["seat"]),
                "family": indulgence_vocab.family_name(action["family"]),
            }
        else:
            continue
        controls.append({"label": label, "action": action_json(action), "kind": kind})
    return controls


def settlement_display(
    view: dict[str, Any], settlement: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """A settled hand (the view's ``last_settlement`` unless given one of
    ``selectors.hand_summaries``) as sentences: the outcome, every payment with its
    reason, the florins after, and, from a hand summary, the trick that ended the hand."""
    settlement = settlement if settlement is not None else view.get("last_settlement")
    if not settlement:
        return None
    sinner = settlement.get("sinner")
    if sinner is None:
        outcome = _("Nobody sinned: the edicts were settled for the Ruler.")
    elif settlement.get("sin_succeeded"):
        outcome = _("%(name)s sinned and succeeded.") % {"name": seat_name(view, sinner)}
    else:
        outcome = _("%(name)s sinned and failed.") % {"name": seat_name(view, sinner)}
    tricks = settlement.get("tricks") or []
    last = tricks[-1] if tricks else None
    return {
        "hand": settlement["hand"],
        "ruler": seat_name(view, settlement["ruler"]),
        "sinner": seat_name(view, sinner),
        "edicts": [indulgence_vocab.edict_title(e) for e in settlement["edicts_in_force"]],
        "edicts_text": _(", ").join(
            indulgence_vocab.edict_title(e) for e in settlement["edicts_in_force"]
        ),
        "papal_bull": bool(settlement.get("papal_bull")),
        "outcome": outcome,
        "last_trick": None
        if not last
        else {
            "winner": seat_name(view, last["winner"]),
            "plays": plays_display(view, last["plays"]),
        },
        "payments": [
            {
                "payer": seat_name(view, p["payer"]),
                "payee": seat_name(view, p["payee"]),
                "owed": p["owed"],
                "paid": p["paid"],
                "short": p["paid"] < p["owed"],
                "reason": indulgence_vocab.payment_reason(p["reason"]),
            }
            for p in settlement["payments"]
        ],
        "florins_after": [
            {"name": seat_name(view, int(seat)), "florins": florins}
            for seat, florins in sorted(
                settlement["florins_after"].items(), key=lambda i: int(i[0])
            )
        ],
    }


def sin_display(view: dict[str, Any]) -> dict[str, Any] | None:
    """While the seats decide whether to sin (rules "A hand" 5): what a sin would take
    (the Sin side of every edict in force), what it wins, what failing costs, and who has
    decided already, in the order they decide (from the Ruler's left)."""
    if view.get("phase") != "sin_decision":
        return None
    edicts = view.get("edicts_in_play") or []
    if not edicts:
        return None
    papal = bool(view.get("papal_bull"))
    if papal:  # rules "Settlement", papal bull: every Sin side, the game, 18 florins
        condition = _("The sinner must meet the Sin side of every edict in force.")
        reward = _("If the sin succeeds, the sinner wins the whole game at once.")
        penalty = PAPAL_BULL_FAILURE
    else:
        condition = ""
        amount = int(edicts[0]["sin_reward"])
        reward = ngettext(
            "If the sin succeeds, every other player, the Ruler included, pays the sinner "
            "%(count)d florin.",
            "If the sin succeeds, every other player, the Ruler included, pays the sinner "
            "%(count)d florins.",
            amount,
        ) % {"count": amount}
        penalty = int(edicts[0]["fail_penalty"])
    failing = ngettext(
        "If it fails, the sinner pays the Ruler %(count)d florin.",
        "If it fails, the sinner pays the Ruler %(count)d florins.",
        penalty,
    ) % {"count": penalty}
    count = view["player_count"]
    ruler = view.get("ruler_seat") or 0
    decided = {d["seat"]: d["decision"] for d in view.get("sin_decisions") or []}
    me = view.get("my_seat")
    order: list[dict[str, Any]] = []
    passed: list[str] = []
    for step in range(1, count):
        seat = (ruler + step) % count
        if seat in decided:
            state = _("sinned") if decided[seat] == "sin" else _("passed")
        elif seat == view.get("to_act"):
            state = _("deciding now")
        else:
            state = _("decides later")
        name = _("you") if seat == me else seat_name(view, seat)
        order.append({"name": name, "state": state})
        if decided.get(seat) == "pass":
            passed.append(name)
    return {
        "sides": [
            {"title": _(e["title"]), "sin_text": _(e["sin_text"]), "text": _(e["text"])}
            for e in edicts
        ],
        "condition": condition,
        "reward": reward,
        "failing": failing,
        "order": order,
        "passed": _(", ").join(passed),
    }


def pause_due(view: dict[str, Any], hands_seen: int | None) -> bool:
    """Whether the table pauses on the last settled hand: this player (seated) has not
    moved on from it yet (``hands_seen``: the last hand they did; None: never pause, for
    replays) and the game goes on."""
    settlement = view.get("last_settlement")
    return bool(
        hands_seen is not None
        and settlement
        and view.get("my_seat") is not None
        and view["status"] == "in_progress"
        and settlement["hand"] > hands_seen
    )


def hand_over(
    view: dict[str, Any], hands_seen: int | None, last_hand: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The hand that ended and that this player has not moved on from yet
    (``pause_due``): its settlement and deciding trick stay on the table, with a
    "Continue" button, instead of the next deal. ``last_hand``: that hand's summary
    (``selectors.last_hand_summary``)."""
    if not pause_due(view, hands_seen):
        return None
    shown = settlement_display(view, _matching(view, last_hand))
    assert shown is not None
    shown["next_hand"] = view.get("hand_number")
    return shown


def _matching(view: dict[str, Any], last_hand: dict[str, Any] | None) -> dict[str, Any] | None:
    """``last_hand`` if it is the view's last settled hand (else the view's own)."""
    settlement = view.get("last_settlement")
    if last_hand and settlement and last_hand.get("hand") == settlement["hand"]:
        return last_hand
    return None


def seat_counts(cards: int | None, tricks: int | None) -> str:
    """ "9 cards, 1 trick" with the plural forms of the reader's language."""
    if cards is None:
        return ""
    return _("%(cards)s, %(tricks)s") % {
        "cards": ngettext("%(count)d card", "%(count)d cards", cards) % {"count": cards},
        "tricks": ngettext("%(count)d trick", "%(count)d tricks", tricks or 0)
        % {"count": tricks or 0},
    }


def table_context(
    view: dict[str, Any],
    *,
    now: datetime | None = None,
    hands_seen: int | None = None,
    last_hand: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the table template draws, in the reader's language. ``hands_seen``,
    ``last_hand``: see ``hand_over`` (the summary also gives the settlement its deciding
    trick)."""
    count = view["player_count"]
    me = view.get("my_seat")
    origin = me if me is not None else 0
    to_act = view.get("to_act")
    trick_counts = view.get("trick_counts") or {}
    hand_counts = view.get("hand_counts") or {}
    seats = []
    for entry in view["seats"]:
        number = entry["seat"]
        seats.append(
            {
                "seat": number,
                "name": _entry_name(entry),
                "is_bot": entry["is_bot"] or bool(entry.get("bot_kind")),
                "florins": entry["florins"],
                "papal_bull": entry.get("papal_bull_available"),
                "is_me": number == me,
                "is_ruler": number == view.get("ruler_seat"),
                "is_sinner": number == view.get("sinner_seat"),
                "to_act": number == to_act and view["status"] == "in_progress",
                "cards": hand_counts.get(str(number)),
                "tricks": trick_counts.get(str(number)),
                "counts": seat_counts(hand_counts.get(str(number)), trick_counts.get(str(number))),
                "position": POSITIONS[count][(number - origin) % count],
            }
        )
    cards, hand_reason, ring = hand_display(view)
    legal_edicts = {a["edict"] for a in view["legal_actions"] if a["type"] == "choose_edict"}
    row = []
    for edict in view.get("edict_row") or []:
        shown = indulgence_vocab.edict_display(edict)
        if edict["id"] in legal_edicts:
            shown["action"] = action_json({"type": "choose_edict", "edict": edict["id"]})
        row.append(shown)
    trick = view.get("current_trick") or {"plays": [], "led_family": None}
    tricks = view.get("tricks") or []
    last = tricks[-1] if tricks else None
    result = view.get("result")
    my_turn = me is not None and to_act == me and bool(view["legal_actions"])
    return {
        "v": view,
        "seats": seats,
        "hand": cards,
        "hand_reason": hand_reason,
        "ring": ring,
        "can_play": any(card["legal"] for card in cards),
        "my_turn": my_turn,
        "to_act_name": seat_name(view, to_act),
        "phase": indulgence_vocab.PHASES.get(view.get("phase") or "", ""),
        "status": vocab.STATUSES.get(view["status"], view["status"]),
        "variant": kinds.get(view.get("game_type", kinds.DEFAULT)).variant_title(view["variant"]),
        "ruler_name": seat_name(view, view.get("ruler_seat")),
        "sinner_name": seat_name(view, view.get("sinner_seat")),
        "trump": indulgence_vocab.family_name(view.get("trump")) if view.get("trump") else "",
        "row": row,
        "in_force": [indulgence_vocab.edict_display(e) for e in view.get("edicts_in_play") or []],
        "trick": plays_display(view, trick["plays"]),
        "led_family": indulgence_vocab.family_name(trick.get("led_family"))
        if trick.get("led_family")
        else "",
        "last_trick": None
        if last is None
        else {
            "number": len(tricks),
            "winner": seat_name(view, last["winner"]),
            "plays": plays_display(view, last["plays"]),
        },
        "hand_tricks": [
            {
                "number": number,
                "winner": seat_name(view, t["winner"]),
                "cards": " ".join(p["card"] for p in t["plays"] if p.get("card")),
            }
            for number, t in enumerate(tricks, start=1)
        ],
        "sin_decisions": [
            {"name": seat_name(view, d["seat"]), "sin": d["decision"] == "sin"}
            for d in view.get("sin_decisions") or []
        ],
        "controls": controls_display(view),
        "settlement": settlement_display(view, _matching(view, last_hand)),
        "sin": sin_display(view),
        "hand_over": hand_over(view, hands_seen, last_hand),
        "open_seats": _open_seats(view),
        "result": None
        if not result
        else {
            "winner": seat_name(view, result["winner_seat"]),
            "reason": indulgence_vocab.RESULT_REASONS.get(result["reason"], result["reason"]),
        },
        "live": view["status"] in ("open", "in_progress"),
    }


def _open_seats(view: dict[str, Any]) -> list[int]:
    """The seat numbers nobody has taken yet (a table still waiting for players)."""
    if view["status"] != "open":
        return []
    taken = {entry["seat"] for entry in view["seats"]}
    return [seat for seat in range(view["player_count"]) if seat not in taken]


def announcement(context: dict[str, Any]) -> str:
    """What the live region says after the table changed: the last trick, then whose turn."""
    parts = []
    last = context["last_trick"]
    over = context.get("hand_over")
    if over:
        parts.append(_("Hand %(number)s is over.") % {"number": over["hand"]})
        parts.append(over["outcome"])
    elif last is not None and not context["trick"]:
        parts.append(
            _("%(name)s took trick %(number)s.")
            % {"name": last["winner"], "number": last["number"]}
        )
    if context["result"]:
        parts.append(_("Game over: %(winner)s wins.") % {"winner": context["result"]["winner"]})
    elif context["my_turn"]:
        parts.append(_("Your turn."))
    elif context["to_act_name"]:
        parts.append(_("%(name)s to act.") % {"name": context["to_act_name"]})
    return " ".join(parts)
