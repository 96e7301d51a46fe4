"""The other seats' replies on the bot's model (P-54): end the turn, run the game on.

``after_replies(t, seat)`` takes a model table where ``seat`` is in its Action phase
between actions (what ``sim.play_out`` returns for a menu action), ends the turn and runs
the game on the model through the engine (``engine.apply`` and ``advance``, R78): the
seat's Check phase, every other seat's turn (an automa's is automatic steps, 14.8), up
to the seat's next decision of its next turn, or the game's end. Every decision met on
the way, for any seat, is answered as ``sim.choose`` answers it, without looking ahead
(the lowest depth of P-52), except the event kept against an edict-counting automa
(``keep_special``, which the search bot also plays in the game). The model's hidden
cards (the decks' order, other hands) are the sample's, so what it shows is one possible
future, not the game's.
"""

from __future__ import annotations

from engine.core import JsonDict
from engine.pax import engine as pax_engine
from engine.pax.ai.sim import choose
from engine.pax.automa.base import bot_def
from engine.pax.flow import Ask
from engine.pax.state import State, Table, freeze, thaw

MAX_STEPS = 400
"""A guard: a turn of the others takes far fewer steps and decisions."""
DEPTH = 2
"""``sim.choose`` at this depth declines Bonus and Special decisions (P-52's WIDTH)."""


class ReplyError(Exception):
    """The model could not be run on (the sample made a step impossible)."""


def edict_plot(t: Table) -> bool:
    """The game has an automa with a plot that counts discarded edicts (SG's first,
    14.9, bots.json)."""
    if t.g.humans == t.g.players:
        return False
    return any(p.kind == "edicts_discarded" for p in bot_def(t).plots)


def keep_special(t: Table, options: list[JsonDict]) -> JsonDict | None:
    """11.2.2 against an edict-counting automa: the first special event drawn, not an
    edict (a kept edict is resolved at once, 12.2, and is discarded within three of its
    holder's Event phases, 5.1, running the automa's clock). None otherwise."""
    if not edict_plot(t):
        return None
    edicts = t.g.cat.edict_faction
    return next((o for o in options if o["event"] not in edicts), None)


def _run_on(t: Table) -> State:
    """The table as the engine leaves it after the action: the menu program asked again
    (6), or, when it ends by itself, the next decision or automatic step."""
    u = thaw(freeze(t, close=False))
    u.origin = None
    u.answers = []
    pax_engine.resume(u)
    return freeze(u)


def after_replies(t: Table, seat: int) -> Table:
    """The table at ``seat``'s first decision after the other seats' turns (or at the
    game's end) when ``seat`` ends its turn now."""
    left = t.round, t.active
    state = _run_on(t)
    for _ in range(MAX_STEPS):
        if state.result is not None:
            return thaw(state)
        who = pax_engine.to_act(state)
        if who is None:
            state = pax_engine.advance(state)
            continue
        if who == seat and (state.round, state.active) != left and state.active == seat:
            return thaw(state)
        options = pax_engine.legal_actions(state, who)
        kind = state.pending[-1][1]
        if kind == "action":
            action = {"type": "end"}  # the seat's own turn ends now; another seat passes
        else:
            u = thaw(state)
            special = keep_special(u, options) if kind == "keep_event" else None
            cards = tuple(state.pending[-1][2] or ())
            ask = Ask(who, kind, options, cards, pax_engine.decision(state))
            action = special or choose(u, ask, DEPTH)
        state = pax_engine.apply(state, who, action)
    raise ReplyError("the others' turns did not end")
