"""Indulgence's words as the pages show them, in the reader's language.

The engine speaks English; its edict titles and texts are translated here by looking the
engine's own sentence up in the catalogue (locale/ja/LC_MESSAGES/django.po carries every
one of them; tests/web/test_i18n.py checks that none is missing). Payment reasons are
parsed from the engine's ``"<edict id>: <detail>"`` and rebuilt from translated parts.
The words every game shares (statuses, bots, notifications) are in ``games.web.vocab``.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.indulgence.edicts import CATALOG

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
