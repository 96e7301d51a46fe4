"""What just happened, in the reader's language (P-77, P-85): H.6's steps told as short
sentences, and the automa's script lines (P-29), which the engine writes in English,
rebuilt from their parts.

An automa line is ``"<name> <text>"`` with ``<text>`` one of the engine's few sentence
shapes (engine.pax.automa: ``say``); each shape is matched here and said again from its
translated parts (positions, cards by their printed names, favor by faction). A line of
a shape this module does not know is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.pax.loader import data as pax_data
from games.kinds.pax import automa_name
from games.web import pax_vocab as v

JsonDict = dict[str, Any]
Namer = Callable[[Any], str]

# --- the automa's lines ---------------------------------------------------------------

_W = r"(?:its placard|the face-down card at \(\d+, \d+\)|\S+ at \(\d+, \d+\))"
_FAV = r"(?:nothing|\d+ [A-Z]{3}(?:, \d+ [A-Z]{3})*)"
_INF = r"1 free disk(?:, then \d+ more paying " + _FAV + r" \(its rider\))?"
_EXPEL = r"discards \S+ and puts \S+ in its place \((?:its PLAN card|from the deck)\)"
DIRECTIONS = {
    "FL": lambda: pgettext("pax direction", "front left"),
    "FR": lambda: pgettext("pax direction", "front right"),
    "R": lambda: pgettext("pax direction", "right"),
    "BR": lambda: pgettext("pax direction", "back right"),
    "BL": lambda: pgettext("pax direction", "back left"),
    "L": lambda: pgettext("pax direction", "left"),
}


def _where(text: str) -> str:
    if text == "its placard":
        return pgettext("pax", "its placard")
    m = re.fullmatch(r"the face-down card at \((\d+), (\d+)\)", text)
    if m:
        return pgettext("pax", "the face-down card at %(pos)s") % {"pos": f"{m[1]},{m[2]}"}
    m = re.fullmatch(r"(\S+) at \((\d+), (\d+)\)", text)
    if m:
        return pgettext("pax", "%(card)s at %(pos)s") % {
            "card": v.card_name(m[1]),
            "pos": f"{m[2]},{m[3]}",
        }
    return text


def _favor(text: str) -> str:
    if text == "nothing":
        return pgettext("pax", "nothing")
    parts = []
    for part in text.split(", "):
        n, code = part.split(" ")
        parts.append(pgettext("pax", "%(n)s %(faction)s") % {"n": n, "faction": v.faction(code)})
    return _(", ").join(parts)


def _influence(text: str) -> str:
    m = re.fullmatch(r"1 free disk, then (\d+) more paying (.+) \(its rider\)", text)
    if m:
        return pgettext("pax", "1 free disk, then %(n)s more paying %(favor)s (its rider)") % {
            "n": m[1],
            "favor": _favor(m[2]),
        }
    return pgettext("pax", "1 free disk")


def _expel(text: str) -> str:
    m = re.fullmatch(r"discards (\S+) and puts (\S+) in its place \((.+)\)", text)
    assert m is not None
    source = (
        pgettext("pax", "its PLAN card")
        if m[3] == "its PLAN card"
        else pgettext("pax", "from the deck")
    )
    return pgettext("pax", "discards %(old)s and puts %(new)s in its place (%(source)s)") % {
        "old": v.card_name(m[1]),
        "new": v.card_name(m[2]),
        "source": source,
    }


def _card_or_none(text: str) -> str:
    return pgettext("pax", "no card") if text == "no card" else v.card_name(text)


def _bot_plot(text: str) -> str:
    return _(text)


# Each engine sentence shape (after the automa's name) and how it is said again. The
# groups are what the sentence carries; each builder says them again, translated, with
# the namer of seats.
_SHAPES: list[tuple[str, Callable[[re.Match[str], Namer], str]]] = [
    (
        rf"has no disk under its token: the token moves to (?P<w>{_W})",
        lambda m, n: (
            pgettext("pax", "has no disk under its token: the token moves to %(w)s")
            % {"w": _where(m["w"])}
        ),
    ),
    (
        rf"extorts (?P<w>{_W})(?: \(whispering: (?P<ws>.+)\))?: it gains (?P<f>{_FAV})",
        lambda m, n: (
            (
                pgettext("pax", "extorts %(w)s (whispering: %(ws)s): it gains %(f)s")
                if m["ws"]
                else pgettext("pax", "extorts %(w)s: it gains %(f)s")
            )
            % {
                "w": _where(m["w"]),
                "ws": _(", ").join(_where(w) for w in re.findall(_W, m["ws"] or "")),
                "f": _favor(m["f"]),
            }
        ),
    ),
    (
        rf"loses (?P<k>\d+) disk\(s\) on (?P<w>{_W}) and gains (?P<f>{_FAV})",
        lambda m, n: (
            pgettext("pax", "loses %(k)s disk(s) on %(w)s and gains %(f)s")
            % {"k": m["k"], "w": _where(m["w"]), "f": _favor(m["f"])}
        ),
    ),
    (
        rf"ousts (?P<k>\d+) disk\(s\) of seat (?P<d>\d+) from (?P<w>{_W}), acting from "
        rf"(?P<a>{_W}): it pays (?P<f>{_FAV}) for \+(?P<n>\d+) strength; "
        r"strengths (?P<s1>\d+) against (?P<s2>\d+)",
        lambda m, n: (
            pgettext(
                "pax",
                "ousts %(k)s disk(s) of %(seat)s from %(w)s, acting from %(a)s: it pays %(f)s "
                "for +%(n)s strength; strengths %(s1)s against %(s2)s",
            )
            % {
                "k": m["k"],
                "seat": n(int(m["d"])),
                "w": _where(m["w"]),
                "a": _where(m["a"]),
                "f": _favor(m["f"]),
                "n": m["n"],
                "s1": m["s1"],
                "s2": m["s2"],
            }
        ),
    ),
    (
        r"turns (?P<a>\S+|no card) against (?P<b>\S+|no card): it wins the Oust",
        lambda m, n: (
            pgettext("pax", "turns %(a)s against %(b)s: it wins the Oust")
            % {"a": _card_or_none(m["a"]), "b": _card_or_none(m["b"])}
        ),
    ),
    (
        r"turns (?P<a>\S+|no card) against (?P<b>\S+|no card): seat (?P<d>\d+) holds",
        lambda m, n: (
            pgettext("pax", "turns %(a)s against %(b)s: %(seat)s holds")
            % {
                "a": _card_or_none(m["a"]),
                "b": _card_or_none(m["b"]),
                "seat": n(int(m["d"])),
            }
        ),
    ),
    (
        r"has no PLAN card to turn: it counts strength 1",
        lambda m, n: pgettext("pax", "has no PLAN card to turn: it counts strength 1"),
    ),
    (
        rf"swaps (?P<w>{_W}) for its PLAN card: it (?P<e>{_EXPEL})(?:; it influences it: "
        rf"(?P<i>{_INF}))?",
        lambda m, n: (
            (
                pgettext("pax", "swaps %(w)s for its PLAN card: it %(e)s; it influences it: %(i)s")
                if m["i"]
                else pgettext("pax", "swaps %(w)s for its PLAN card: it %(e)s")
            )
            % {"w": _where(m["w"]), "e": _expel(m["e"]), "i": _influence(m["i"] or "")}
        ),
    ),
    (
        rf"puts (?P<n>\d+) free disk\(s\) on (?P<w>{_W})",
        lambda m, n: (
            pgettext("pax", "puts %(n)s free disk(s) on %(w)s") % {"n": m["n"], "w": _where(m["w"])}
        ),
    ),
    (
        rf"turns (?:no PLAN card|its PLAN card (?P<c>\S+)) \(strength (?P<s>\d+)\): from "
        rf"(?P<r>{_W}) it points (?P<d>FL|FR|R|BR|BL|L) at (?P<w>{_W})",
        lambda m, n: (
            (
                pgettext(
                    "pax",
                    "turns its PLAN card %(card)s (strength %(s)s): from %(r)s it points "
                    "%(d)s at %(w)s",
                )
                if m["c"]
                else pgettext(
                    "pax",
                    "turns no PLAN card (strength %(s)s): from %(r)s it points %(d)s at %(w)s",
                )
            )
            % {
                "card": v.card_name(m["c"]) if m["c"] else "",
                "s": m["s"],
                "r": _where(m["r"]),
                "d": DIRECTIONS[m["d"]](),
                "w": _where(m["w"]),
            }
        ),
    ),
    (
        rf"turns (?P<w>{_W}) face up \(B-Scout\)",
        lambda m, n: pgettext("pax", "turns %(w)s face up (B-Scout)") % {"w": _where(m["w"])},
    ),
    (
        rf"searches from (?P<w>{_W}): its token moves there",
        lambda m, n: (
            pgettext("pax", "searches from %(w)s: its token moves there") % {"w": _where(m["w"])}
        ),
    ),
    (
        rf"finds nothing to do around (?P<w>{_W}): its token moves there",
        lambda m, n: (
            pgettext("pax", "finds nothing to do around %(w)s: its token moves there")
            % {"w": _where(m["w"])}
        ),
    ),
    (
        rf"influences (?P<w>{_W}): (?P<i>{_INF})",
        lambda m, n: (
            pgettext("pax", "influences %(w)s: %(i)s")
            % {"w": _where(m["w"]), "i": _influence(m["i"])}
        ),
    ),
    (
        rf"charges: its token moves to (?P<w>{_W})",
        lambda m, n: pgettext("pax", "charges: its token moves to %(w)s") % {"w": _where(m["w"])},
    ),
    (
        rf"expels (?P<w>{_W}): it (?P<e>{_EXPEL})",
        lambda m, n: (
            pgettext("pax", "expels %(w)s: it %(e)s") % {"w": _where(m["w"]), "e": _expel(m["e"])}
        ),
    ),
    (
        rf"is hemmed in by its own disks: its token moves to (?P<w>{_W})",
        lambda m, n: (
            pgettext("pax", "is hemmed in by its own disks: its token moves to %(w)s")
            % {"w": _where(m["w"])}
        ),
    ),
    (
        rf"reaches out: its token moves to (?P<w>{_W})",
        lambda m, n: (
            pgettext("pax", "reaches out: its token moves to %(w)s") % {"w": _where(m["w"])}
        ),
    ),
    (
        r"finds no line of its script that holds",
        lambda m, n: pgettext("pax", "finds no line of its script that holds"),
    ),
    (
        r"claims the faction card (?P<c>\S+) \(it controls the largest lodge\)",
        lambda m, n: (
            pgettext("pax", "claims the %(card)s (it controls the largest lodge)")
            % {"card": v.card_name(m["c"])}
        ),
    ),
    (
        r"meets its plot (?P<n>\d+): (?P<t>.+)",
        lambda m, n: (
            pgettext("pax", "meets its plot %(n)s: %(text)s")
            % {"n": m["n"], "text": _bot_plot(m["t"])}
        ),
    ),
    (
        r"turns the edict (?P<c>\S+): it is resolved in front of it",
        lambda m, n: (
            pgettext("pax", "turns the %(card)s: it is resolved in front of it")
            % {"card": v.card_name(m["c"])}
        ),
    ),
    (
        r"turns the special event (?P<c>\S+): it is discarded",
        lambda m, n: (
            pgettext("pax", "turns the special event %(card)s: it is discarded")
            % {"card": v.card_name(m["c"])}
        ),
    ),
]
_COMPILED = [(re.compile(shape), build) for shape, build in _SHAPES]


def automa_line(text: str, seat_name: Namer) -> str:
    """An automa's script line (``"<name> <text>"``) in the reader's language."""
    for bot in pax_data().bots.values():
        prefix = f"{bot.name} "
        if not text.startswith(prefix):
            continue
        rest = text[len(prefix) :]
        for shape, build in _COMPILED:
            m = shape.fullmatch(rest)
            if m:
                said = build(m, seat_name)
                return pgettext("pax", "%(automa)s %(says)s") % {
                    "automa": automa_name(bot.id),
                    "says": said,
                }
    return text


# --- H.6's steps ----------------------------------------------------------------------


def _place(place: Any, seat_name: Namer) -> str:
    """A place of a ``move`` step (H.6) or a ``favor``/``disk`` end."""
    if place == "pool":
        return pgettext("pax", "the favor pool")
    if place == "supply":
        return pgettext("pax", "the supply")
    if place == "placard":
        return pgettext("pax", "the placard")
    if isinstance(place, int):
        return seat_name(place)
    if isinstance(place, str):
        return v.card_name(place)
    if not isinstance(place, list) or not place:
        return str(place)
    head, rest = place[0], place[1:]
    if len(place) == 3 and all(type(x) is int for x in place):
        return pgettext("pax", "slot %(k)s of %(pos)s") % {
            "k": place[2] + 1,
            "pos": f"{place[0]},{place[1]}",
        }
    if len(place) == 2 and all(type(x) is int for x in place):
        return v.pos(place)
    if len(place) == 2 and place[1] in ("on", "under"):
        on = place[1] == "on"
        text = pgettext("pax", "on %(plot)s") if on else pgettext("pax", "under %(plot)s")
        return text % {"plot": v.card_name(place[0])}
    seat = seat_name(rest[0]) if rest and isinstance(rest[0], int) else ""
    places = {
        "deck": lambda: pgettext("pax", "the deck"),
        "discard": lambda: pgettext("pax", "the discard pile"),
        "court": lambda: pgettext("pax", "the Court"),
        "map": lambda: pgettext("pax", "the map at %(pos)s") % {"pos": v.pos(rest)},
        "hand": lambda: pgettext("pax", "the hand of %(name)s") % {"name": seat},
        "scheme": lambda: pgettext("pax", "the scheme"),
        "oust": lambda: pgettext("pax", "the Oust"),
        "plan": lambda: pgettext("pax", "the PLAN"),
        "event_deck": lambda: pgettext("pax", "the event deck"),
        "event_discard": lambda: pgettext("pax", "the event discard pile"),
        "event_hand": lambda: pgettext("pax", "the events of %(name)s") % {"name": seat},
        "active": lambda: pgettext("pax", "in play before %(name)s") % {"name": seat},
        "edict": lambda: pgettext("pax", "the edicts of %(name)s") % {"name": seat},
        "plot_deck": lambda: pgettext("pax", "the plot deck"),
        "public": lambda: pgettext("pax", "the public plots"),
        "plot": lambda: pgettext("pax", "the private plot of %(name)s") % {"name": seat},
        "display": lambda: pgettext("pax", "the faction card display"),
        "faction": lambda: pgettext("pax", "the faction cards of %(name)s") % {"name": seat},
    }
    say = places.get(str(head))
    return say() if say is not None else " ".join(str(x) for x in place)


def _cards(cards: Any) -> str:
    if isinstance(cards, list):
        return _(", ").join(v.card_name(c) for c in cards if c is not None) or pgettext(
            "pax", "no card"
        )
    return v.card_name(cards)


def step_text(step: JsonDict, seat_name: Namer) -> str:
    """One H.6 step as a sentence in the reader's language."""
    kind = step.get("step")
    if step.get("text"):  # P-29: the automa's script line
        return automa_line(str(step["text"]), seat_name)
    where = lambda p: _place(p, seat_name)  # noqa: E731
    if kind == "turn":
        return pgettext("pax", "turn of %(name)s (round %(round)s)") % {
            "name": seat_name(step.get("seat")),
            "round": step.get("round"),
        }
    if kind == "move":
        card = v.card_name(step["card"]) if step.get("card") else pgettext("pax", "a card")
        return pgettext("pax", "%(card)s: %(from)s → %(to)s") % {
            "card": card,
            "from": where(step.get("from")),
            "to": where(step.get("to")),
        }
    if kind == "flip":
        return pgettext("pax", "%(card)s is turned face up at %(pos)s") % {
            "card": v.card_name(step.get("card")),
            "pos": v.pos(step.get("pos")),
        }
    if kind == "reshuffle":
        return pgettext("pax", "reshuffle %(n)s: %(size)s discards become the deck") % {
            "n": step.get("n"),
            "size": step.get("size"),
        }
    if kind == "favor":
        return pgettext("pax", "%(n)s %(faction)s favor: %(from)s → %(to)s") % {
            "n": step.get("n"),
            "faction": v.faction(step.get("faction")),
            "from": where(step.get("from")),
            "to": where(step.get("to")),
        }
    if kind == "disk":
        return pgettext("pax", "a disk of %(name)s: %(from)s → %(to)s") % {
            "name": seat_name(step.get("seat")),
            "from": where(step.get("from")),
            "to": where(step.get("to")),
        }
    if kind == "cube":
        text = (
            pgettext("pax", "a bonus action cube is put on %(pos)s")
            if step.get("on")
            else pgettext("pax", "the bonus action cube leaves %(pos)s")
        )
        return text % {"pos": v.pos(step.get("pos"))}
    if kind == "token":
        return pgettext("pax", "the bot token moves to %(at)s") % {"at": where(step.get("at"))}
    if kind == "chamberlain":
        return pgettext("pax", "the Chamberlain moves to Court slot %(slot)s") % {
            "slot": (step["slot"] + 1) if isinstance(step.get("slot"), int) else step.get("slot")
        }
    if kind == "automa":
        return pgettext("pax", "the automa's script line %(rule)s") % {"rule": step.get("rule")}
    if kind == "oust":
        cards = step.get("cards") or [None, None]
        return pgettext("pax", "Oust, round %(round)s: %(a)s against %(b)s") % {
            "round": step.get("round"),
            "a": _cards(cards[0]) if cards[0] else pgettext("pax", "no card"),
            "b": _cards(cards[1]) if len(cards) > 1 and cards[1] else pgettext("pax", "no card"),
        }
    if kind == "commit":
        return pgettext("pax", "%(name)s seals a card for round %(round)s (hash %(hash)s)") % {
            "name": seat_name(step.get("seat")),
            "round": step.get("round"),
            "hash": step.get("hash"),
        }
    if kind == "oust_end":
        return pgettext("pax", "the Oust ends: %(name)s wins") % {
            "name": seat_name(step.get("winner"))
        }
    if kind == "seen":
        what = _cards(step["cards"]) if "cards" in step else pgettext("pax", "hidden cards")
        if step.get("of") is not None:
            return pgettext("pax", "%(name)s sees the cards of %(of)s: %(cards)s") % {
                "name": seat_name(step.get("seat")),
                "of": seat_name(step.get("of")),
                "cards": what,
            }
        return pgettext("pax", "%(name)s sees %(cards)s") % {
            "name": seat_name(step.get("seat")),
            "cards": what,
        }
    if kind == "end":
        return pgettext("pax", "the game ends")
    words = [str(kind)]
    for key, value in step.items():
        if key not in ("step", "private") and value is not None:
            words.append(f"{key} {value}")
    return " ".join(words)
