"""Bots (NE-30): each ``fn(view, rng) -> action`` reads only its seat's view.

- :func:`random_bot`: a legal random action in every phase. As a scientist it plays one
  card or declares no play, sometimes a string of 2 to 4 cards, and sometimes asks to
  become prophet; as prophet it calls at random (and now and then registers a library
  rule as its standing prophecy); as dealer it picks a library rule. It never votes.
- :func:`dealer_bot`: the bot dealer of NE-30.4 and E32: a library rule of the table's
  difficulty, no-play choice "random" (E15). Every bot uses it when it deals.
- :func:`engine.eleusis.novice.novice_bot`: the novice scientist of NE-30.1.
"""

from __future__ import annotations

import random

from engine.core import JsonDict
from engine.eleusis.library import library

STRING_SHARE = 0.15
DECLARE_SHARE = 0.08
DECIDE_AFTER_SHARE = 0.04
PROPHECY_SHARE = 0.05


def explicit(view: JsonDict) -> list[JsonDict]:
    """The view's legal actions that are actions (not templates, not votes)."""
    return [
        a
        for a in view["legal_actions"]
        if "template" not in a and a["type"] not in ("propose_end", "agree_end")
    ]


def dealer_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """NE-30.4 / E32: a library rule at the table's difficulty (the engine draws the rule
    from the round seed, so this bot never sees it before it is committed)."""
    return {
        "type": "library_rule",
        "difficulty": view["settings"]["difficulty"],
        "no_play_choice": "random",
    }


def _random_prophecy(view: JsonDict, rng: random.Random) -> JsonDict | None:
    main = len(view["round"]["main"])
    candidates = [e for e in library() if e.lookback <= main]
    if not candidates:
        return None
    return {"type": "set_prophecy", "source": rng.choice(candidates).source}


def random_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """Any legal action, at random (see the module's description)."""
    actions = explicit(view)
    if not actions:
        raise ValueError("The random bot was asked to act with no legal action.")
    phase = view["phase"]
    if phase == "rule_setup":
        return dict(rng.choice(actions))
    if phase == "prophet_call" and rng.random() < PROPHECY_SHARE:
        prophecy = _random_prophecy(view, rng)
        if prophecy is not None:
            return prophecy
    if phase != "turn":
        return dict(rng.choice(actions))
    hand = view["my_hand"]
    if len(hand) >= 2 and rng.random() < STRING_SHARE:
        action: JsonDict = {
            "type": "play",
            "cards": rng.sample(hand, rng.randint(2, min(4, len(hand)))),
        }
    else:
        action = dict(rng.choice(actions))
    roll = rng.random()
    action["prophet"] = (
        "declare"
        if roll < DECLARE_SHARE
        else "decide_after"
        if roll < DECLARE_SHARE + DECIDE_AFTER_SHARE
        else "no"
    )
    return action
