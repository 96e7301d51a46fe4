"""New Eleusis' table in words and cards, from a seat's view alone (NE-28): cards as the
template draws them, the layout (main line, side lines under the card they followed,
exhibits, markers, prophet lines: NE-6), the seats with their penalty cards, what just
happened (the judged turns and the declarations of NE-26), and the revealed rounds
(NE-23.3, NE-29). ``games.web.pages_eleusis`` assembles the table from these."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.web import table

JsonDict = dict[str, Any]

SUITS: dict[str, tuple[str, str, Any]] = {
    "C": ("♣", "black", gettext_lazy("clubs")),
    "D": ("♦", "red", gettext_lazy("diamonds")),
    "H": ("♥", "red", gettext_lazy("hearts")),
    "S": ("♠", "black", gettext_lazy("spades")),
}
RANKS: dict[str, Any] = {
    "A": gettext_lazy("ace"),
    "J": gettext_lazy("jack"),
    "Q": gettext_lazy("queen"),
    "K": gettext_lazy("king"),
}
ROLES = {
    "dealer": gettext_lazy("dealer"),
    "prophet": gettext_lazy("prophet"),
    "scientist": gettext_lazy("scientist"),
}
PHASES = {
    "rule_setup": gettext_lazy("choosing the rule"),
    "turn": gettext_lazy("a scientist's turn"),
    "prophet_call": gettext_lazy("the prophet's call"),
    "dealer_choice": gettext_lazy("the dealer's choice"),
    "post_play": gettext_lazy("deciding on prophecy"),
    "round_over": gettext_lazy("the round is over"),
    "game_over": gettext_lazy("game over"),
}
VERDICTS = {
    "right": gettext_lazy("right"),
    "wrong": gettext_lazy("wrong"),
    "correct": gettext_lazy("correct"),
}
PENALTY_REASONS = frozenset({"penalty", "prophet"})


def compact(action: JsonDict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def card(cid: str | None, **extra: Any) -> JsonDict:
    """A card (``"QH.1"``, or a face ``"QH"``) as the template draws it: rank, suit
    symbol, colour and a spoken label ("queen of hearts")."""
    if not cid:
        return {"id": "", "rank": "?", "suit": "", "color": "", "label": _("a card"), **extra}
    face = cid.split(".", 1)[0]
    rank, suit = face[:-1], face[-1:]
    symbol, color, suit_name = SUITS.get(suit, ("?", "", suit))
    label = _("%(rank)s of %(suit)s") % {"rank": RANKS.get(rank, rank), "suit": suit_name}
    return {"id": cid, "rank": rank, "suit": symbol, "color": color, "label": label, **extra}


def cards_text(ids: list[str]) -> str:
    """Cards in a sentence: "Q♥ 7♣"."""
    return " ".join(f"{c['rank']}{c['suit']}" for c in map(card, ids))


def name(view: JsonDict, seat: int | None) -> str:
    if seat is None:
        return _("the house")
    return table.seat_name(view, seat)


def penalties(r: JsonDict) -> dict[int, int]:
    """Penalty cards each seat drew this round (NE-8, NE-9.3, NE-10.6): counted from the
    log's draw events, whose cards are counts for other seats (NE-28)."""
    out: dict[int, int] = {}
    for entry in r.get("log") or []:
        for ev in entry.get("events", []):
            if ev.get("type") == "draw" and ev.get("reason") in PENALTY_REASONS:
                got = len(ev["cards"]) if ev.get("cards") is not None else int(ev.get("count", 0))
                out[ev["seat"]] = out.get(ev["seat"], 0) + got
    return out


def layout(view: JsonDict, r: JsonDict) -> list[JsonDict]:
    """The main line (NE-6.1), each card with the side lines (NE-6.2) and exhibits
    (E11) hanging under it, its markers (NE-6.5, 6.6) and a prophet line before it."""
    marks: dict[str, list[JsonDict]] = {}
    for m in r["markers"]:
        if not m["removed"]:
            marks.setdefault(m["card"], []).append(m)
    lines: dict[int, list[JsonDict]] = {}
    for p in r["prophet_lines"]:
        lines.setdefault(p["main_at"], []).append(
            {"name": name(view, p["seat"]), "overthrown": p["overthrown"], "m": p["m"]}
        )

    def marked(cid: str) -> JsonDict:
        return card(cid, markers=marks.get(cid, []))

    out = []
    for index, m in enumerate(r["main"]):
        out.append(
            {
                "index": index,
                "card": marked(m["card"]),
                "starter": m["starter"],
                "by": "" if m["starter"] else name(view, m["seat"]),
                "prophet_lines": lines.get(index, []),
                "side": [
                    {"by": name(view, p["seat"]), "cards": [marked(c) for c in p["cards"]]}
                    for p in r["side"]
                    if p["under"] == index
                ],
                "exhibits": [
                    {"by": name(view, x["seat"]), "cards": [card(c) for c in x["cards"]]}
                    for x in r["exhibits"]
                    if x["under"] == index
                ],
            }
        )
    return out


def seats(view: JsonDict, r: JsonDict | None) -> list[JsonDict]:
    drawn = penalties(r) if r else {}
    expelled = set(r["expelled"]) if r else set()
    out = []
    for s in view.get("seats", []):
        out.append(
            {
                **s,
                "name": name(view, s["seat"]),
                "role_label": ROLES.get(s.get("role") or "", ""),
                "penalties": drawn.get(s["seat"], 0),
                "expelled": s["seat"] in expelled,
                "is_me": s["seat"] == view.get("my_seat"),
                "to_act": s["seat"] == view.get("to_act"),
            }
        )
    return out


def turn_text(view: JsonDict, t: JsonDict) -> str:
    """One judged turn (``round.turns``) in a sentence: who did what, the truth, the
    prophet's call and its approval, a placed card, an expulsion (NE-8 to NE-11)."""
    who = name(view, t["seat"])
    shown = cards_text(t["cards"])
    if t["kind"] == "play":
        text = _("%(name)s played %(cards)s: %(verdict)s.") % {
            "name": who,
            "cards": shown,
            "verdict": VERDICTS.get(t["truth"], t["truth"]),
        }
    else:
        text = _("%(name)s declared no play, showing %(cards)s: %(verdict)s.") % {
            "name": who,
            "cards": shown,
            "verdict": VERDICTS.get(t["truth"], t["truth"]),
        }
    call = t.get("call")
    if call and call.get("verdict"):
        verdict = VERDICTS.get(call["verdict"], call["verdict"])
        if call.get("card"):
            verdict = f"{verdict} ({cards_text([call['card']])})"
        if t.get("overthrown") is not None:
            text += " " + _("The prophet called it %(verdict)s and was overthrown.") % {
                "verdict": verdict
            }
        else:
            text += " " + _("The prophet called it %(verdict)s, rightly.") % {"verdict": verdict}
    if t.get("chosen"):
        text += " " + _("%(card)s joined the main line.") % {"card": cards_text([t["chosen"]])}
    if t.get("expelled"):
        text += " " + _("%(name)s is expelled (sudden death).") % {"name": who}
    return text


def happenings(view: JsonDict, r: JsonDict, limit: int = 6) -> list[str]:
    """What just happened, newest first: judged turns and prophet declarations."""
    items: list[tuple[float, str]] = [(t["seq"], turn_text(view, t)) for t in r["turns"]]
    for entry in r.get("log") or []:
        for ev in entry.get("events", []):
            if ev.get("type") == "prophet":
                text = _("%(name)s declared themselves prophet.") % {"name": name(view, ev["seat"])}
                items.append((entry["seq"] + 0.5, text))
    items.sort(key=lambda item: item[0], reverse=True)
    return [text for _seq, text in items[:limit]]


def revealed_rounds(view: JsonDict) -> list[JsonDict]:
    """Every scored round's reveal (NE-23.3): the rule, its salt and commitment, the round
    seed, the scores, and the address that verifies it (NE-29.2). Newest last."""
    records = list(view.get("previous_rounds") or [])
    current = (view.get("round") or {}).get("record")
    if current is not None:
        records.append(current)
    out = []
    for rec in records:
        if rec.get("end") is None or rec["rule"]["source"] is None:
            continue
        score = rec["end"]["score"]
        out.append(
            {
                "number": rec["number"],
                "dealer": name(view, rec["dealer"])
                if rec["dealer"] is not None
                else name(view, None),
                "source": rec["rule"]["source"],
                "library_id": rec["rule"]["library_id"],
                "commitment": rec["rule"]["commitment"],
                "salt": rec["rule"]["salt"],
                "seed": rec["seed"],
                "reason": rec["end"]["reason"],
                "scores": [
                    {"name": name(view, seat), "score": value}
                    for seat, value in enumerate(score["scores"])
                ],
                "verify_url": reverse(
                    "eleusis_verify", kwargs={"game_id": view["id"], "number": rec["number"]}
                )
                if view.get("id") is not None
                else "",
            }
        )
    return out
