"""Words of the game as the pages show them, in the reader's language.

The engine speaks English; its edict titles and texts are translated here by looking the
engine's own sentence up in the catalogue (locale/ja/LC_MESSAGES/django.po carries every
one of them; tests/web/test_i18n.py checks that none is missing). Payment reasons are
parsed from the engine's ``"<edict id>: <detail>"`` and rebuilt from translated parts.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from engine.indulgence.edicts import CATALOG
from games.services import BOT_NAME_PREFIX

FAMILY_NAMES = {
    "borgia": gettext_lazy("Borgia"),
    "medici": gettext_lazy("Medici"),
    "orsini": gettext_lazy("Orsini"),
    "sforza": gettext_lazy("Sforza"),
}
FAMILY_LETTERS = {"borgia": "B", "medici": "M", "orsini": "O", "sforza": "S"}
FAMILY_OF_LETTER = {letter: family for family, letter in FAMILY_LETTERS.items()}

PHASES = {
    "choosing_edict": gettext_lazy("The Ruler chooses an edict"),
    "naming_trump": gettext_lazy("The Ruler names trump"),
    "sin_decision": gettext_lazy("Sin or pass"),
    "playing": gettext_lazy("Playing tricks"),
    "resolving_ties": gettext_lazy("Resolving a tie"),
    "settling": gettext_lazy("Settling the hand"),
    "finished": gettext_lazy("Game over"),
}
STATUSES = {
    "open": pgettext_lazy("game status", "Open"),
    "in_progress": pgettext_lazy("game status", "In progress"),
    "finished": pgettext_lazy("game status", "Finished"),
    "void": pgettext_lazy("game status", "Void"),
}
BOT_KINDS = {
    "random": gettext_lazy("Random bot"),
    "heuristic": gettext_lazy("Heuristic bot"),
    "ismcts": gettext_lazy("ISMCTS bot"),
    "novice": gettext_lazy("Novice bot"),
    "scientist": gettext_lazy("Scientist bot"),
}
NOTIFICATION_KINDS = {
    "your_turn": gettext_lazy("your turn"),
    "reminder": gettext_lazy("reminder"),
    "game_started": gettext_lazy("game started"),
    "player_joined": gettext_lazy("player joined"),
    "game_finished": gettext_lazy("game finished"),
    "seat_handed_to_bot": gettext_lazy("seat handed to a bot"),
    "dispute_update": gettext_lazy("dispute update"),
    "challenge": gettext_lazy("challenge"),
    "autopilot_move": gettext_lazy("autopilot move"),
}
TOKEN_SCOPES = {"read": gettext_lazy("read"), "play": gettext_lazy("play")}
RESULT_REASONS = {
    "rounds_complete": gettext_lazy("all three rounds were played"),
    "bankruptcy": gettext_lazy("a player could not pay in full"),
    "papal_bull_sin": gettext_lazy("a papal-bull sin succeeded"),
}

_EDICT_BY_ID = {edict.id: edict for edict in CATALOG}
_NUMBER_DETAIL = re.compile(r"^(\d+) ")
_MOST_DETAIL = re.compile(r"^most (.+)$")
_PLURAL_TO_FAMILY = {
    "Borgias": "borgia",
    "Medicis": "medici",
    "Orsinis": "orsini",
    "Sforzas": "sforza",
}


def bot_kind_of(username: str) -> str:
    """The built-in bot kind whose shared account this is ("bot-heuristic" -> "heuristic"),
    else "". Only built-in bots hold ``bot-`` names (services.username_reserved)."""
    kind = username.removeprefix(BOT_NAME_PREFIX)
    return kind if kind != username and kind in BOT_KINDS else ""


def bot_name(kind: str) -> str:
    """A built-in bot's name in the reader's language ("Heuristic bot")."""
    return str(BOT_KINDS.get(kind, kind))


def player_name(username: str, display_name: str, *, is_bot: bool) -> str:
    """A player outside any seat (leaderboard, profile): built-in bots by their kind, in the
    reader's language; everyone else by their display name."""
    kind = bot_kind_of(username) if is_bot else ""
    return bot_name(kind) if kind else (display_name or username)


def family_name(family: str | None) -> str:
    return str(FAMILY_NAMES.get(family or "", family or ""))


def card_label(card: str) -> str:
    """ "M7" -> "Medici 7" (in the reader's language)."""
    return _("%(family)s %(rank)s") % {
        "family": family_name(FAMILY_OF_LETTER[card[0]]),
        "rank": card[1:],
    }


def edict_title(edict_id: str) -> str:
    if edict_id == "papal bull":
        return _("Papal bull")
    edict = _EDICT_BY_ID.get(edict_id)
    return _(edict.title) if edict else edict_id


def edict_display(edict: dict[str, Any]) -> dict[str, Any]:
    """An edict of the view with its title and both sides in the reader's language."""
    return {
        "id": edict["id"],
        "title": _(edict["title"]),
        "text": _(edict["text"]),
        "sin_text": _(edict["sin_text"]),
        "families": edict.get("families", []),
    }


def payment_reason(reason: str) -> str:
    """ "any-medici: 3 Medicis" -> "Don't take any Medicis: 3 cards" (translated)."""
    edict_id, _sep, detail = reason.partition(": ")
    title = edict_title(edict_id)
    return _("%(edict)s: %(detail)s") % {"edict": title, "detail": _reason_detail(edict_id, detail)}


def _reason_detail(edict_id: str, detail: str) -> str:
    fixed = {
        "sin succeeded": _("the sin succeeded"),
        "sin failed": _("the sin failed"),
        "took the first trick": _("took the first trick"),
        "took the last trick": _("took the last trick"),
        "took the first and last trick": _("took the first and the last trick"),
        "first to take three tricks": _("first to take three tricks"),
    }
    if detail in fixed:
        return fixed[detail]
    if detail.startswith("took the last "):
        return _("took the last card of the family")
    number = _NUMBER_DETAIL.match(detail)
    if number:
        count = int(number.group(1))
        edict = _EDICT_BY_ID.get(edict_id)
        kind = edict.kind if edict else ""
        if kind == "pairs":
            return ngettext("%(count)d pair", "%(count)d pairs", count) % {"count": count}
        if kind == "no_tricks":
            return ngettext("%(count)d trick", "%(count)d tricks", count) % {"count": count}
        return ngettext("%(count)d card", "%(count)d cards", count) % {"count": count}
    most = _MOST_DETAIL.match(detail)
    if most:
        families = [
            family_name(_PLURAL_TO_FAMILY[word])
            for word in most.group(1).split(" and ")
            if word in _PLURAL_TO_FAMILY
        ]
        return _("the most of %(families)s") % {"families": _(", ").join(families)}
    return detail


def labels(words: dict[str, Any], keys: list[str]) -> str:
    """Keys (notification kinds, token scopes) as the reader's words, comma separated."""
    return _(", ").join(str(words.get(key, key)) for key in keys)
