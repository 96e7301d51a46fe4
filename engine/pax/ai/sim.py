"""Looking ahead on the bot's model: play one action to its end and evaluate the table.

``play_out(base, start, depth)`` runs a rule program (an Action phase action, a scheme's
Bonus action, a Special ability) on a copy of the model state the way ``engine.apply``
does (replaying it with the answers so far, 16.2), answering every decision it raises
with ``choose`` (any seat's: an Oust defender answers from its own sampled hand), and
returns the table when the program ends. ``choose`` looks ahead itself for the Bonus and
Special decisions of a scheme, narrowing with depth (P-52).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import JsonDict
from engine.pax.ai import policy
from engine.pax.ai.evaluate import value
from engine.pax.flow import Ask, Ctx, Proc
from engine.pax.menu import do_menu_action
from engine.pax.options import do_main
from engine.pax.schemes import do_special
from engine.pax.state import State, Table, freeze, thaw

Start = Callable[[Table, Ctx], Proc[None]]
MAX_ASKS = 60
"""A guard: no action of the rules asks this many questions."""
WIDTH = (10_000, 8, 0)
"""How many options of a Bonus or Special decision are played out, by depth (P-52)."""


class SimulationError(Exception):
    """An action the model could not play out (the sample made it impossible)."""


def play_out(base: State, start: Start, depth: int) -> Table:
    """Run ``start`` on a copy of ``base`` to its end, answering with ``choose``."""
    answers: list[tuple[int | None, JsonDict, bool]] = []
    for _ in range(MAX_ASKS):
        t = thaw(base)
        t.pending = []
        ctx = Ctx(t, list(answers), want_options=True)
        gen = start(t, ctx)
        try:
            ask = next(gen)
        except StopIteration:
            return t
        gen.close()
        answer = choose(t, ask, depth)
        answers = [*ctx.answers, (ask.seat, answer, False)]
    raise SimulationError("too many decisions in one action")


def starter(kind: str, action: JsonDict) -> Start:
    """The program that carries out ``action`` answering a decision of ``kind``."""
    if kind == "action":
        return lambda t, ctx: do_menu_action(t, ctx, action)
    if kind == "bonus":
        if action["type"] == "decline":
            return _nothing
        return lambda t, ctx: do_main(t, ctx, action)
    if kind == "special":
        if action["type"] == "decline":
            return _nothing
        return lambda t, ctx: do_special(t, ctx, action)
    raise ValueError(f"no program plays a {kind!r} answer")


def _nothing(t: Table, ctx: Ctx) -> Proc[None]:
    yield from ()


def outcome(base: State, kind: str, action: JsonDict, seat: int, depth: int) -> float:
    """The value for ``seat`` of the table after ``action`` (``-inf`` if the model could
    not play it)."""
    if kind == "action" and action["type"] == "end":
        return value(thaw(base), seat)
    try:
        t = play_out(base, starter(kind, action), depth)
    except (SimulationError, AssertionError, KeyError, IndexError, ValueError):
        return float("-inf")
    return value(t, seat)


def best_by_lookahead(t: Table, ask: Ask, depth: int) -> JsonDict:
    """A Bonus or Special decision: play out up to ``WIDTH[depth]`` options (spread over
    the list) and keep the best; past the last depth, decline."""
    options = ask.options or []
    width = WIDTH[min(depth, len(WIDTH) - 1)]
    decline = next((o for o in options if o["type"] == "decline"), None)
    if width == 0:
        return decline or options[0]
    if len(options) > width:
        step = len(options) / width
        options = [options[int(i * step)] for i in range(width)]
        if decline is not None and decline not in options:
            options.append(decline)
    base = freeze(t, close=False)
    scored = [(outcome(base, ask.kind, o, ask.seat, depth + 1), i) for i, o in enumerate(options)]
    return options[max(scored)[1]]


def choose(t: Table, ask: Ask, depth: int) -> JsonDict:
    """Any decision of the model: static for the small ones, lookahead for schemes."""
    options = list(ask.options or [])
    if not options:
        raise SimulationError(f"a {ask.kind} decision without options")
    if ask.kind in ("bonus", "special"):
        return best_by_lookahead(t, ask, depth)
    if ask.kind == "place":
        return policy.place(t, ask.seat, options, ask.cards[0] if ask.cards else None)
    fn = policy.STATIC.get(ask.kind)
    return fn(t, ask.seat, options) if fn is not None else options[0]
