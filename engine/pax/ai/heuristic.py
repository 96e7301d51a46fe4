"""The ``heuristic`` seat bot: plays for plots and lodges with intent (P-53).

At the Action phase menu it claims a faction card, then a plot, the moment it may (9, 10:
claims are free); it ends the turn at once when it holds two compatible plot claims (the
Plot Check makes it win, 11.1.3); otherwise it plays every legal action out on one
sample of what its view hides (``model.determinize``) and takes the one whose table
evaluates best (``evaluate.value``: plots, lodges, faction cards, scores, control, favor
spent against what it buys), "end" included. Bonus and Special decisions are played out
the same way; the small decisions inside an action follow ``policy``.
"""

from __future__ import annotations

import random

from engine.core import JsonDict
from engine.pax.ai import policy
from engine.pax.ai.model import determinize
from engine.pax.ai.sim import choose, outcome
from engine.pax.flow import Ask
from engine.pax.plots import victory
from engine.pax.state import State, thaw

CLAIMS = ("claim_faction", "claim_plot")


def pending_kind(view: JsonDict) -> str | None:
    pending = view["state"]["pending"]
    return pending[-1]["kind"] if pending else None


def claim_first(view: JsonDict) -> JsonDict | None:
    """A claim the seat may make now: a faction card (the one held by the strongest
    other seat first, else the first offered), then a plot (10.1)."""
    for kind in CLAIMS:
        offered = [a for a in view["legal_actions"] if a["type"] == kind]
        if offered:
            return dict(offered[0])
    return None


def menu_choice(view: JsonDict, base: State, seat: int) -> JsonDict:
    """The Action phase menu: claims, the winning end, else the best played-out action."""
    actions = view["legal_actions"]
    claim = claim_first(view)
    if claim is not None:
        return claim
    end = next((a for a in actions if a["type"] == "end"), None)
    t = thaw(base)
    if end is not None and victory(t, seat) is not None:
        return dict(end)
    scored = [(outcome(base, "action", a, seat, 1), -i) for i, a in enumerate(actions)]
    return dict(actions[-max(scored)[1]])


def decide(view: JsonDict, base: State) -> JsonDict:
    """The heuristic's choice for the view's decision on one model state."""
    actions = view["legal_actions"]
    seat = view["seat"]
    kind = pending_kind(view)
    if kind == "action":
        return menu_choice(view, base, seat)
    cards = view["state"]["pending"][-1]["cards"]
    ask = Ask(seat, kind or "", [dict(a) for a in actions], tuple(cards), view["decision"])
    return dict(choose(thaw(base), ask, 0))


def heuristic_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """``fn(view, rng) -> action`` (engine/core.py's Bot), from the view alone."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this view has no legal action: it is not this seat's decision")
    if len(actions) == 1:
        return dict(actions[0])
    if pending_kind(view) == "event":
        return policy.activate(
            thaw(determinize(view, rng)), view["seat"], [dict(a) for a in actions]
        )
    return decide(view, determinize(view, rng))
