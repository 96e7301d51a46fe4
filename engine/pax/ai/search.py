"""The ``search`` seat bot: determinized sampling with two-action lookahead and, against
an automa, its reply (P-54).

From its view alone it draws ``SAMPLES`` full states consistent with what it sees
(``model.determinize``: face-down map cards, other hands, the decks). At the Action phase
menu it makes the heuristic's claims and winning end (P-53); otherwise it ranks every
legal action by the heuristic's one-action lookahead on the first sample, keeps the best
``TOP`` and "end", and scores each kept action on every sample by the best of: the table
right after it, or after it and one more action of the same turn (``NEXT_WIDTH`` of them,
spread over the list; ``NEXT_WIDTH_BIG`` in a menu of more than ``BIG_MENU`` actions).
When the seat is the only human and an automa the other seat, that best table is then
run on through the end of the turn and the automa's whole turn to the seat's next
decision (``reply.after_replies``) and valued there. The action with the best mean
score is played. A scheme's Bonus or Special decision is scored the same way (one action,
every sample, no reply). Against an automa that counts discarded edicts (St. Germain) it
keeps a special event rather than an edict (``reply.keep_special``), and a table's value
is less the automa's clock (P-88, ``clock_cost``): each edict out of the event deck, each
event drawn, and the draw still to come when the seat has revealed an Ace or a Crown this
turn (11.2.1). The rest follows the heuristic. Fixed budgets, no clock time: the same
view and rng give the same action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core import IllegalAction, JsonDict
from engine.pax.ai.evaluate import value
from engine.pax.ai.heuristic import claim_first, decide, pending_kind
from engine.pax.ai.model import determinize
from engine.pax.ai.reply import ReplyError, after_replies, edict_plot, keep_special
from engine.pax.ai.sim import SimulationError, outcome, play_out, starter
from engine.pax.menu import menu_options
from engine.pax.plots import victory
from engine.pax.state import State, Table, freeze, thaw

SAMPLES = 3
TOP = 4
NEXT_WIDTH = 10
BIG_MENU = 80
"""Above this many legal actions the one-action ranking alone costs up to half a second
(measured): the second actions are then cut to ``NEXT_WIDTH_BIG`` to stay under 1 s."""
NEXT_WIDTH_BIG = 5
FAILED = float("-inf")
REPLY = True
"""Against an automa (the bot the only human seat), value a kept action's best table after
the automa's reply (P-54)."""
REPLY_ERRORS = (
    ReplyError,
    SimulationError,
    IllegalAction,
    AssertionError,
    KeyError,
    IndexError,
    ValueError,
)
"""What a sample may make the engine raise while it runs the replies on the model."""


W_EDICT_OUT = 20.0
"""Against an edict-counting automa (St. Germain): the cost of each edict out of the event
deck, in front of a seat or discarded. Every edict drawn is discarded within three of its
holder's Event phases (5.1), so each one is a step of the automa's clock (14.10.1)."""
W_EVENT_DRAWN = 4.0
"""And of each event card gone from the deck: a draw brings the edicts left nearer."""


def clock_cost(t: Table) -> float:
    """How far the game has gone towards an edict-counting automa's win (0 without one)."""
    if not edict_plot(t):
        return 0.0
    out = t.edicts_discarded + sum(len(es) for es in t.edicts)
    cost = W_EDICT_OUT * out - W_EVENT_DRAWN * len(t.event_deck)
    if t.turn.revealed and t.event_deck and t.active < t.g.humans:
        # 11.2.2 still to come this turn: 2 drawn, an edict kept only if both are edicts
        edicts = t.g.cat.edict_faction
        share = sum(1 for e in t.event_deck if e in edicts) / len(t.event_deck)
        cost += W_EVENT_DRAWN + W_EDICT_OUT * share * share
    return cost


def score(t: Table, seat: int) -> float:
    """``value`` less the automa's clock (``clock_cost``)."""
    return value(t, seat) - clock_cost(t)


def spread(items: Sequence[JsonDict], width: int) -> list[JsonDict]:
    """At most ``width`` items taken evenly over the list (its order kept)."""
    if len(items) <= width:
        return list(items)
    step = len(items) / width
    return [items[int(i * step)] for i in range(width)]


def replied(t: Table, seat: int, static: float) -> float:
    """The value of ``t`` after the seat ends its turn there and the others reply
    (``reply.after_replies``); ``static`` when the model cannot run on."""
    if not REPLY or t.g.humans > 1 or t.g.humans == t.g.players:
        return static
    if t.result is not None or t.active != seat:
        return static
    try:
        return score(after_replies(t, seat), seat)
    except REPLY_ERRORS:
        return static


def two_step(base: State, action: JsonDict, seat: int, width: int = NEXT_WIDTH) -> float:
    """The best of the table after ``action`` and after it and one more action, valued
    after the automa's reply (``replied``)."""
    if action["type"] == "end":
        t = thaw(base)
        return replied(t, seat, score(t, seat))
    try:
        t = play_out(base, starter("action", action), 1)
    except (SimulationError, AssertionError, KeyError, IndexError, ValueError):
        return FAILED
    best, best_t = score(t, seat), t
    if t.result is not None or t.active != seat:
        return best
    after = freeze(t, close=False)
    try:
        nxt = [a for a in menu_options(thaw(after)) if a["type"] != "end"]
    except (AssertionError, KeyError, IndexError, ValueError):
        return replied(best_t, seat, best)
    for b in spread(nxt, width):
        try:
            u = play_out(after, starter("action", b), 2)
        except (SimulationError, AssertionError, KeyError, IndexError, ValueError):
            continue
        v = score(u, seat)
        if v > best:
            best, best_t = v, u
    return replied(best_t, seat, best)


def ranked(base: State, kind: str, actions: Sequence[JsonDict], seat: int) -> list[int]:
    """Indexes of ``actions``, best first by one-action lookahead on ``base``."""
    scores = [(outcome(base, kind, a, seat, 1), -i) for i, a in enumerate(actions)]
    return [-i for _, i in sorted(scores, reverse=True)]


def search_choice(view: JsonDict, samples: list[State]) -> JsonDict:
    actions = [dict(a) for a in view["legal_actions"]]
    seat = view["seat"]
    kind = pending_kind(view)
    if kind == "keep_event":
        special = keep_special(thaw(samples[0]), actions)
        if special is not None:
            return special
    if kind not in ("action", "bonus", "special"):
        return decide(view, samples[0])
    if kind == "action":
        claim = claim_first(view)
        if claim is not None:
            return claim
        end = [i for i, a in enumerate(actions) if a["type"] == "end"]
        if end and victory(thaw(samples[0]), seat) is not None:
            return actions[end[0]]
    keep = ranked(samples[0], kind, actions, seat)[:TOP]
    if kind == "action":
        keep += [i for i in end if i not in keep]
    best, best_score = keep[0], FAILED
    for i in keep:
        if kind == "action":
            width = NEXT_WIDTH if len(actions) <= BIG_MENU else NEXT_WIDTH_BIG
            scores = [two_step(s, actions[i], seat, width) for s in samples]
        else:
            scores = [outcome(s, kind, actions[i], seat, 1) for s in samples]
        mean = sum(scores) / len(scores)
        if mean > best_score:
            best, best_score = i, mean
    return actions[best]


def search_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """``fn(view, rng) -> action`` (engine/core.py's Bot), from the view alone."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this view has no legal action: it is not this seat's decision")
    if len(actions) == 1:
        return dict(actions[0])
    kind = pending_kind(view)
    count = SAMPLES if kind in ("action", "bonus", "special") else 1
    return search_choice(view, [determinize(view, rng) for _ in range(count)])
