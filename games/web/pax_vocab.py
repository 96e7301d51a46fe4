"""Pax Illuminaten's words as the pages say them, in the reader's language (P-85).

The engine speaks English identifiers (H.6's steps, H.7's action types and decision
kinds, faction codes) and English sentences (the data file's abilities, plot conditions,
event effects; the automa's script lines, P-29). Nothing here changes them: the pages
look each one up at render time. Words of the game are ``pgettext`` with the context
``"pax"`` (the Japanese rulebook's terms: 影響, 恐喝, 解任, 追放, 企み, 好意, 陰謀, 布告 ...),
so that a word like "Place" or "Court" keeps its other meanings elsewhere on the site.
The data file's sentences are msgids of their own (listed for ``makemessages`` in
``games.web.pax_messages``). Card
NAMES stay as printed (the rules say so); ids of the house data (``E-NOB``, ``FC-NOB``)
are told as the card they are ("布告（貴族）").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from engine.pax.loader import data as pax_data

JsonDict = dict[str, Any]

FACTIONS = {
    "NOB": pgettext_lazy("pax", "Nobility"),
    "PRO": pgettext_lazy("pax", "Professions"),
    "MAG": pgettext_lazy("pax", "Magistrates"),
    "ART": pgettext_lazy("pax", "Artists"),
    "SCH": pgettext_lazy("pax", "Scholars"),
    "CLE": pgettext_lazy("pax", "Clergy"),
}
# The map's hexes have room for a few letters: the code in English, one kanji in Japanese.
FACTION_SHORT = {
    "NOB": pgettext_lazy("pax faction short", "NOB"),
    "PRO": pgettext_lazy("pax faction short", "PRO"),
    "MAG": pgettext_lazy("pax faction short", "MAG"),
    "ART": pgettext_lazy("pax faction short", "ART"),
    "SCH": pgettext_lazy("pax faction short", "SCH"),
    "CLE": pgettext_lazy("pax faction short", "CLE"),
}
# I, II and III are printed numerals (the Japanese rulebook keeps them); Ace and Crown
# are words.
RANKS = {
    "I": "I",
    "II": "II",
    "III": "III",
    "A": pgettext_lazy("pax", "Ace"),
    "K": pgettext_lazy("pax", "Crown"),
}

# H.7's action types and keys as the table names them.
ACTION_WORDS = {
    "scout": pgettext_lazy("pax", "Scout"),
    "influence": pgettext_lazy("pax", "Influence"),
    "extort": pgettext_lazy("pax", "Extort"),
    "organize": pgettext_lazy("pax", "Organize"),
    "expel": pgettext_lazy("pax", "Expel"),
    "oust": pgettext_lazy("pax", "Oust"),
    "scheme": pgettext_lazy("pax", "Scheme"),
    "claim_faction": pgettext_lazy("pax", "Claim a faction card"),
    "claim_plot": pgettext_lazy("pax", "Claim a plot"),
    "congress": pgettext_lazy("pax", "Congress"),
    "press": pgettext_lazy("pax", "Press"),
    "investigate": pgettext_lazy("pax", "Investigate"),
    "end": pgettext_lazy("pax", "End the turn"),
    "decline": pgettext_lazy("pax", "Decline"),
    "swap": pgettext_lazy("pax", "Swap"),
    "take_edict": pgettext_lazy("pax", "Take from an edict"),
    "draw_plot": pgettext_lazy("pax", "Draw a plot"),
    "take": pgettext_lazy("pax", "Take"),
    "borrow": pgettext_lazy("pax", "Borrow"),
    "pay": pgettext_lazy("pax", "Pay"),
    "gain": pgettext_lazy("pax", "Gain"),
    "overturn": pgettext_lazy("pax", "Overturn"),
    "conspire": pgettext_lazy("pax", "Conspire"),
    "place": pgettext_lazy("pax", "Place"),
    "move": pgettext_lazy("pax", "Move"),
    "stop": pgettext_lazy("pax", "Stop"),
    "keep_plot": pgettext_lazy("pax", "Keep plot"),
    "strength": pgettext_lazy("pax", "Strength"),
    "oust_card": pgettext_lazy("pax", "Oust card"),
    "oust_next": pgettext_lazy("pax", "Next in the Oust"),
    "keep_event": pgettext_lazy("pax", "Keep event"),
    "court": pgettext_lazy("pax", "Court"),
    "activate": pgettext_lazy("pax", "Play event"),
    "advance": pgettext_lazy("pax", "Automatic step"),
}
DECISION_WORDS = {
    "action": pgettext_lazy("pax", "take an action or end your turn"),
    "event": pgettext_lazy("pax", "choose a special event to play, or none"),
    "pay": pgettext_lazy("pax", "choose how to pay"),
    "gain": pgettext_lazy("pax", "choose the favor you gain or lose"),
    "overturn": pgettext_lazy("pax", "choose whom to overturn from"),
    "conspire": pgettext_lazy("pax", "choose a token to give (Conspire)"),
    "place": pgettext_lazy("pax", "choose the card to place"),
    "move": pgettext_lazy("pax", "move your disks (Organize)"),
    "oust_card": pgettext_lazy("pax", "choose your Oust card in secret"),
    "oust_next": pgettext_lazy("pax", "continue, call or yield the Oust"),
    "strength": pgettext_lazy("pax", "choose your strength"),
    "bonus": pgettext_lazy("pax", "take the scheme's Bonus action or decline"),
    "special": pgettext_lazy("pax", "use the scheme's Special ability or decline"),
    "keep_event": pgettext_lazy("pax", "choose which event card to keep"),
    "keep_plot": pgettext_lazy("pax", "choose which plot to keep"),
    "court": pgettext_lazy("pax", "choose Court cards"),
}
PHASE_WORDS = {
    "event": pgettext_lazy("pax", "Event phase"),
    "action": pgettext_lazy("pax", "Action phase"),
    "check": pgettext_lazy("pax", "Check phase"),
    "over": pgettext_lazy("pax", "Game over"),
}
KEY_WORDS = {
    "by": pgettext_lazy("pax", "by"),
    "faction": pgettext_lazy("pax", "faction"),
    "card": pgettext_lazy("pax", "card"),
    "n": pgettext_lazy("pax", "disks"),
    "k": pgettext_lazy("pax", "disks"),
    "plot": pgettext_lazy("pax", "plot"),
    "event": pgettext_lazy("pax", "event"),
    "edict": pgettext_lazy("pax", "edict"),
    "choice": pgettext_lazy("pax", "choice"),
    "use": pgettext_lazy("pax", "use"),
    "what": pgettext_lazy("pax", "what"),
    "acting": pgettext_lazy("pax", "from"),
    "target": pgettext_lazy("pax", "target"),
    "a": pgettext_lazy("pax", "card"),
    "b": pgettext_lazy("pax", "with"),
    "from": pgettext_lazy("pax", "from"),
    "to": pgettext_lazy("pax", "to"),
    "defender": pgettext_lazy("pax", "defender"),
    "seat": pgettext_lazy("pax", "seat"),
}
# The values of H.7's closed keys.
VALUE_WORDS = {
    "advance": pgettext_lazy("pax", "Rosicrucian Advance"),
    "scheme": pgettext_lazy("pax", "the scheme's Bonus"),
    "faction": pgettext_lazy("pax", "the faction card"),
    "cube": pgettext_lazy("pax", "the cube"),
    "ability": pgettext_lazy("pax", "its ability"),
    "quick": pgettext_lazy("pax", "Quick Favor"),
    "both": pgettext_lazy("pax", "Quick Favor and its ability"),
    "continue": pgettext_lazy("pax", "continue"),
    "call": pgettext_lazy("pax", "call"),
    "yield": pgettext_lazy("pax", "yield"),
    "hand": pgettext_lazy("pax", "hand"),
    "plot": pgettext_lazy("pax", "plot"),
}
RESULT_REASONS = {
    "plot": pgettext_lazy("pax", "a plot victory"),
    "faction_scoring": pgettext_lazy("pax", "faction scoring"),
    "automa_plot": pgettext_lazy("pax", "the automa met its plot"),
}
ABILITY_TYPES = {
    "Bonus": pgettext_lazy("pax", "Bonus"),
    "Buff": pgettext_lazy("pax", "Buff"),
    "Special": pgettext_lazy("pax", "Special"),
}


def word(table: dict[str, Any], key: Any) -> str:
    """``key`` in the reader's language when the table has it, else as it is."""
    return str(table.get(str(key), key))


def faction(code: Any) -> str:
    return word(FACTIONS, code)


def faction_short(code: Any) -> str:
    return word(FACTION_SHORT, code)


def rank(symbol: Any) -> str:
    return word(RANKS, symbol)


def pos(p: Any) -> str:
    """A map position [r, c] as "r,c"; anything else as it is."""
    if isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p):
        return f"{p[0]},{p[1]}"
    return str(p)


def ref(r: Any) -> str:
    """A ref of H.7 (``acting``): a map position, or the seat's placard."""
    return pgettext("pax", "the placard") if r == "placard" else pos(r)


def card_name(card_id: Any) -> str:
    """Any card id of the data file by the card's name as printed (luminaries, plots,
    special events); edicts and faction cards, which have no name, by what they are."""
    if card_id is None:
        return pgettext("pax", "a card")
    cid = str(card_id)
    d = pax_data()
    if cid in d.luminaries:
        return str(d.luminaries[cid].name)
    if cid in d.plots:
        return str(d.plots[cid].name)
    special = d.specials.get(cid)
    if special is not None:
        return str(special.name)
    if cid.startswith("E-"):
        return pgettext("pax", "edict (%(faction)s)") % {"faction": faction(cid[2:])}
    if cid.startswith("FC-"):
        return pgettext("pax", "faction card (%(faction)s)") % {"faction": faction(cid[3:])}
    return cid


def event_text(cid: str) -> str:
    """A special event's effect, or an edict's, translated."""
    special = pax_data().specials.get(cid)
    if special is not None:
        return _(special.effect)
    if cid in pax_data().edicts:
        return pgettext("pax", "Resolve the edict for its faction.")
    return ""


def plot_condition(plot_id: str) -> str:
    plot = pax_data().plots.get(plot_id)
    return _(plot.condition) if plot is not None else ""


def ability_text(card_id: str) -> str:
    """A luminary's ability: its type, then its effect, translated."""
    d = pax_data()
    lum = d.luminaries.get(card_id)
    ability = d.abilities.get(lum.ability) if lum is not None and lum.ability else None
    if ability is None:
        return ""
    kind = word(ABILITY_TYPES, ability.type)
    if ability.action:
        kind += " " + word(ACTION_WORDS, str(ability.action).lower())
    return f"{kind}: {_(ability.effect)}"


def faction_card_text(card_id: str) -> str:
    fc = pax_data().faction_cards.get(card_id)
    if fc is None:
        return ""
    return pgettext("pax", "%(action)s: %(ability)s Passive: %(passive)s") % {
        "action": word(ACTION_WORDS, str(fc.action).lower()),
        "ability": _(fc.ability),
        "passive": _(fc.passive),
    }


def favor_text(counts: dict[str, Any]) -> str:
    """Favor tokens by faction ("Nobility 2 Clergy 1"), leaving out the zeros."""
    return " ".join(f"{faction(f)} {n}" for f, n in counts.items() if n)


def value_text(key: str, value: Any) -> str:
    """A value of an action's key as words: factions, cards, the closed keys' values."""
    if key == "faction":
        return faction(value)
    if key in ("card", "plot", "event", "edict"):
        return card_name(value)
    if key in ("by", "use", "choice", "what"):
        return word(VALUE_WORDS, value)
    return str(value)


def unit_text(unit: list[str]) -> str:
    """A requirement unit (the factions that may pay it): "any favor" when all six."""
    if len(set(unit)) >= len(FACTIONS):
        return pgettext("pax", "any favor")
    return " / ".join(faction(f) for f in unit)


def decision_help(decision: JsonDict, seat_name: Any) -> list[str]:
    """The open decision's public help (which unit a payment is for, who receives a
    Conspire token, ...) as short phrases."""
    out = []
    for key, value in decision.items():
        if key == "unit":
            out.append(pgettext("pax", "unit to pay: %(unit)s") % {"unit": unit_text(value)})
        elif key == "units_left":
            out.append(pgettext("pax", "units left: %(n)s") % {"n": value})
        elif key == "faction":
            out.append(pgettext("pax", "faction: %(f)s") % {"f": faction(value)})
        elif key == "short":
            out.append(pgettext("pax", "short by: %(n)s") % {"n": value})
        elif key == "card":
            out.append(pgettext("pax", "favor of %(card)s") % {"card": card_name(value)})
        elif key == "left":
            out.append(pgettext("pax", "favor left to choose: %(n)s") % {"n": value})
        elif key == "to":
            out.append(pgettext("pax", "to %(name)s") % {"name": seat_name(value)})
        elif key == "owed":
            out.append(pgettext("pax", "tokens owed: %(n)s") % {"n": value})
        elif key == "moves_left":
            out.append(pgettext("pax", "moves left: %(n)s") % {"n": value})
        elif key == "need":
            out.append(pgettext("pax", "cards to take: %(n)s") % {"n": value})
        elif key == "mode":
            continue  # how the Organize moves; the offered moves say it
        else:
            out.append(f"{key}: {value}")
    return out
