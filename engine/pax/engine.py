"""The game through the engine contract (engine/core.py): new_game, to_act,
legal_actions, apply, advance, is_over, result (R78-R80, H.2, H.7).

``apply`` replays the open program from its origin with the answers given so far plus
the new one (see :mod:`engine.pax.flow`), then runs on into the next decision program;
it stops at a decision or before an automatic step. ``advance`` runs one automatic
program (R78). A refused action raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import IllegalAction, JsonDict
from engine.pax import cow
from engine.pax.cow import freeze
from engine.pax.flow import Ask, Ctx, same_json
from engine.pax.menu import menu_problem
from engine.pax.phases import DECISION_PROGRAMS, PROGRAMS
from engine.pax.setup import SetupError, new_setup, variants
from engine.pax.state import State, Table, table_from_setup, thaw

VARIANTS = variants()
"""H.2: ``standard`` and one ``automa-<bot>`` per bot of the data (P-22)."""


def new_game(
    player_count: int, variant: str, seed: str, options: Mapping[str, Any] | None = None
) -> State:
    """A game of ``player_count`` seats (H.2): ``options`` may hold ``round_cap``."""
    round_cap = None
    for key, value in (options or {}).items():
        if key != "round_cap":
            raise SetupError(f"Pax takes only the option round_cap, not {key!r}.")
        if value is not None and (type(value) is not int or value < 1):
            raise SetupError("round_cap is a whole number of rounds, at least 1 (15.5.3).")
        round_cap = value
    if not isinstance(seed, str):
        raise SetupError("The seed is a string (H.2).")
    setup = new_setup(player_count, variant, seed)
    return freeze(table_from_setup(setup, seed, round_cap))


def is_over(state: State) -> bool:
    return state.result is not None


def result(state: State) -> JsonDict | None:
    return None if state.result is None else dict(state.result)


def to_act(state: State) -> int | None:
    return state.pending[-1][0] if state.pending else None


def _run(
    t: Table,
    origin: State | None,
    answers: list[tuple[int | None, JsonDict, bool]],
    want_options: bool = False,
) -> Ask | None:
    """Run ``t.program`` with recorded answers until a live decision or its end; then on
    into decision programs, stopping before an automatic one.

    ``origin`` is the state the program started from; None for a decision program that
    starts here: if its first decision is asked, that state is the origin; if the
    engine answers it (R79), a snapshot is taken then, before anything changes.
    """
    while True:
        name = t.program
        assert name is not None
        box = [origin]

        def snapshot(box: list[State | None] = box) -> None:
            box[0] = freeze(t, close=False)

        fresh = name in DECISION_PROGRAMS and origin is None
        ctx = Ctx(t, answers, want_options, snapshot if fresh else None)
        gen = PROGRAMS[name](t, ctx)
        try:
            ask = next(gen)
        except StopIteration:
            ask = None
        if ask is not None:
            t.pending = [(ask.seat, ask.kind, ask.cards)]
            t.options = ask.options
            t.decision = ask.context
            t.answers = ctx.answers
            t.origin = None if fresh and not ctx.answers else box[0]
            return ask
        t.pending = []
        t.options = None
        t.decision = None
        t.answers = []
        t.origin = None
        if t.result is not None or t.program not in DECISION_PROGRAMS:
            return None
        origin = None
        answers = []


def _options(state: State) -> tuple[JsonDict, ...]:
    """The live decision's options: cached in the state, or listed by replaying the
    open program (then cached: the state's value does not change)."""
    if state.options is not None:
        return state.options
    base = state.origin if state.origin is not None else state
    t = thaw(base)
    t.pending = []
    ask = _run(t, base, list(state.answers), want_options=True)
    assert ask is not None
    assert ask.options is not None
    options = tuple(ask.options)
    object.__setattr__(state, "options", options)
    object.__setattr__(state, "decision", ask.context)
    return options


def decision(state: State) -> JsonDict | None:
    """Public help about the open decision (which unit a payment is for, who receives a
    Conspire token, ...), or None."""
    if not state.pending or state.pending[-1][1] == "action":
        return None
    if state.decision is None and state.options is None:
        _options(state)
    return state.decision


def legal_actions(state: State, seat: int) -> list[JsonDict]:
    """Every action ``seat`` may take now (R80); [] when it is not that seat's decision."""
    if state.result is not None or to_act(state) != seat:
        return []
    return [dict(a) for a in _options(state)]


def apply(state: State, seat: int, action: JsonDict) -> State:
    if state.result is not None:
        raise IllegalAction("game_over", "The game is over: nothing more is played (13).")
    who = to_act(state)
    if who is None:
        raise IllegalAction("no_decision", "Nobody is to act: the engine takes a step (R78).")
    if seat != who:
        raise IllegalAction("not_your_turn", f"Seat {who} is to act, not seat {seat} (15.1, R78).")
    answers: list[tuple[int | None, JsonDict, bool]]
    if state.origin is None and state.pending[-1][1] == "action":
        t = cow.thaw(state)  # the Action phase menu, not listed: check this action alone
        problem = menu_problem(t, action) if isinstance(action, dict) else ("malformed", "")
        if problem is not None:
            raise _refusal(state, action)
        origin: State | None = state
        answers = [(seat, action, True)]
    else:
        options = _options(state)
        if not any(o == action and same_json(o, action) for o in options):
            # dict equality first (fast); then exact types (True is not 1)
            raise _refusal(state, action)
        if state.origin is None:
            t = cow.thaw(state)
            origin = state
            answers = [(seat, action, True)]
        else:
            t = cow.thaw(state.origin)
            origin = state.origin
            answers = [*state.answers, (seat, action, True)]
    t.pending = []
    t.options = None
    _run(t, origin, answers)
    return freeze(t)


def resume(t: Table) -> None:
    """Run ``t.program`` on from where the table stands, with no recorded answers, until a
    live decision or an automatic step (as ``advance`` does after a step's own opening).
    For a model table a bot played an action out on (``engine.pax.ai.reply``, P-54)."""
    _run(t, None, [])


def advance(state: State) -> State:
    """Run one automatic step (R78) and log it."""
    if state.result is not None:
        raise IllegalAction("game_over", "The game is over: nothing more is played (13).")
    if state.pending:
        raise IllegalAction(
            "decision_pending", f"Seat {to_act(state)} is to act: advance runs no step (R78)."
        )
    t = cow.thaw(state)
    t.open_entry(None, None)
    _run(t, freeze(t, close=False), [])
    return freeze(t)


RULES = {
    "pay": "a token that may pay this unit, an exchange, or a reduction that applies; "
    "never one that leaves the rest unpayable (2.2.4, 2.2.5, 7.2.3, R80)",
    "gain": "one of the factions the card or rule lets you pick (2.6.3, 7.6.8)",
    "overturn": "a player holding that faction, or null to stop (2.2.6)",
    "conspire": "a token you hold, from the favor just gained first (7.3.6)",
    "place": "a card of your hand, or the scouted card (7.1.4)",
    "move": "a step from a card you may leave to a card you may reach (7.4.3-7.4.5)",
    "oust_card": "a card of your hand; no card only with an empty hand (7.6.5)",
    "oust_next": "continue (while you hold a card), call or yield (7.6.5, R28)",
    "strength": "-1, 0 or 1 (A.1 G03)",
    "bonus": "the Bonus action with by 'scheme', or decline (8.2)",
    "special": "what the Special ability offers, or decline (8.2, A.1)",
    "keep_event": "one of the drawn events (11.2.2)",
    "keep_plot": "your old plot or the new one (A.1 G10)",
    "court": "none, one Court card, or two with the Chamberlain's card (11.3, R42)",
    "event": "a special event you hold, or none (5.5)",
}
"""What each decision accepts, for refusals that name the rule."""


def _refusal(state: State, action: Any) -> IllegalAction:
    kind = state.pending[-1][1]
    if not isinstance(action, dict):
        return IllegalAction("malformed", "An action is a JSON object (H.7).")
    if kind == "action":
        t = thaw(state)
        problem = menu_problem(t, action)
        if problem is not None:
            return IllegalAction(*problem)
    accepts = RULES.get(kind, "one of the options listed (H.7)")
    return IllegalAction(
        "not_legal",
        f"{action.get('type')!r} is not an option of this '{kind}' decision: it takes {accepts}.",
    )
