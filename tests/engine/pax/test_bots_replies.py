"""The search bot against an automa (P-54): an action is scored after the automa's reply,
played on the bot's model by the engine; against St. Germain, whose first plot counts
discarded edicts (14.9, bots.json), it keeps a special event rather than an edict
(11.2.2) and counts every edict out of the event deck against a table (P-88)."""

from __future__ import annotations

import copy
import random

from engine.core import JsonDict
from engine.pax import engine as E
from engine.pax.ai import evaluate, policy, search
from engine.pax.ai.heuristic import heuristic_bot
from engine.pax.ai.model import determinize
from engine.pax.ai.reply import after_replies, keep_special
from engine.pax.state import State, freeze, thaw
from engine.pax.view import view


def _menu(variant: str, seed: str, rounds: int) -> State:
    """Seat 0 (the heuristic) at its Action phase menu in round ``rounds`` or later."""
    state = E.new_game(2, variant, seed, {"round_cap": 30})
    rng = random.Random(0)
    while not (state.round >= rounds and E.to_act(state) == 0 and state.pending[-1][1] == "action"):
        assert not E.is_over(state)
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
        else:
            state = E.apply(state, seat, heuristic_bot(view(state, seat), rng))
    return state


def _model(state: State) -> State:
    return determinize(view(state, 0), random.Random(1))


def test_p54_the_reply_plays_st_germains_turn_on_the_model_up_to_the_seats_next_turn() -> None:
    model = _model(_menu("automa-SG", "p54-reply", 3))
    t = after_replies(thaw(model), 0)
    assert t.result is not None or (t.active == 0 and t.round == model.round + 1)
    steps = [s for e in freeze(t).log for s in e["steps"]]
    assert any(s["step"] == "automa" for s in steps)  # St. Germain's script ran (14.8)
    assert any(s["step"] == "turn" and s["seat"] == 0 for s in steps)  # the seat's next turn


def test_p54_ending_the_turn_is_scored_after_the_automas_reply() -> None:
    model = _model(_menu("automa-SG", "p54-end", 4))
    replied = search.score(after_replies(thaw(model), 0), 0)
    assert search.two_step(model, {"type": "end"}, 0) == replied
    assert replied != evaluate.value(thaw(model), 0)  # the reply changed the table's worth


def test_p54_without_an_automa_ending_the_turn_is_scored_on_the_table_as_it_stands() -> None:
    state = E.new_game(2, "standard", "p54-standard", {"round_cap": 10})
    while E.to_act(state) is None:
        state = E.advance(state)
    seat = E.to_act(state)
    assert seat is not None
    model = determinize(view(state, seat), random.Random(1))
    assert search.two_step(model, {"type": "end"}, seat) == evaluate.value(thaw(model), seat)


def _keep_view(state: State, edict: str) -> JsonDict:
    """The seat's view as if it had drawn ``edict`` and S01 (11.2.2)."""
    v = copy.deepcopy(view(state, 0))
    v["state"]["pending"][-1]["kind"] = "keep_event"
    v["legal_actions"] = [
        {"type": "keep_event", "event": edict},
        {"type": "keep_event", "event": "S01"},
    ]
    return v


def test_p54_against_st_germain_the_search_keeps_a_special_event_rather_than_an_edict() -> None:
    """SG's first plot counts discarded edicts (14.9): a kept edict runs its clock."""
    state = _menu("automa-SG", "p54-keep", 2)
    model = _model(state)
    t = thaw(model)
    edict = next(iter(t.g.cat.edict_faction))
    f = t.g.cat.edict_faction[edict]
    t.favor[0][f] = 0
    t.favor[1][f] = 6  # the heuristic's policy keeps an edict that strips the others (12.2)
    v = _keep_view(state, edict)
    assert policy.keep_event(t, 0, v["legal_actions"])["event"] == edict
    assert keep_special(t, v["legal_actions"]) == {"type": "keep_event", "event": "S01"}
    assert search.search_choice(v, [model]) == {"type": "keep_event", "event": "S01"}
    j2 = thaw(_model(_menu("automa-J2", "p54-keep", 2)))  # J2 counts no edicts
    assert keep_special(j2, v["legal_actions"]) is None


def test_p88_against_st_germain_every_edict_out_of_the_deck_costs_the_table() -> None:
    t = thaw(_model(_menu("automa-SG", "p88-clock", 2)))
    t.turn.revealed = False
    base = search.clock_cost(t)
    assert search.score(t, 0) == evaluate.value(t, 0) - base
    edicts = t.g.cat.edict_faction
    edict = next(e for e in t.event_deck if e in edicts)
    t.event_deck.remove(edict)
    t.edicts[1].append([edict, 6])  # St. Germain turned it over (14.8.3): one step nearer
    assert search.clock_cost(t) == base + search.W_EDICT_OUT + search.W_EVENT_DRAWN
    t.edicts[1].pop()
    t.event_discard.append(edict)
    t.edicts_discarded += 1  # discarded (5.1): the same step, still counted
    assert search.clock_cost(t) == base + search.W_EDICT_OUT + search.W_EVENT_DRAWN


def test_p88_a_revealed_ace_or_crown_on_the_seats_turn_costs_the_draw_to_come() -> None:
    t = thaw(_model(_menu("automa-SG", "p88-flag", 2)))
    t.turn.revealed = False
    quiet = search.clock_cost(t)
    t.turn.revealed = True  # 11.2.1: 2 events will be drawn in this turn's Check phase
    edicts = t.g.cat.edict_faction
    share = sum(1 for e in t.event_deck if e in edicts) / len(t.event_deck)
    assert 0 < share < 1
    expected = search.W_EVENT_DRAWN + search.W_EDICT_OUT * share * share
    assert abs(search.clock_cost(t) - quiet - expected) < 1e-9


def test_p88_without_an_edict_counting_automa_the_clock_costs_nothing() -> None:
    for variant in ("automa-J2", "automa-AC", "automa-AW"):
        t = thaw(_model(_menu(variant, "p88-none", 1)))
        t.turn.revealed = True
        assert search.clock_cost(t) == 0.0
        assert search.score(t, 0) == evaluate.value(t, 0)
    state = E.new_game(2, "standard", "p88-standard", {"round_cap": 10})
    assert search.clock_cost(thaw(state)) == 0.0
