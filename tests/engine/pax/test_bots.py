"""The seat bots of engine/pax/ai (issue 23 item 4): legal actions over whole seeded
games, only the view read (the model of P-50 agrees with the view; hidden cards do not
change a choice), determinism with a seeded rng, and the rulings P-50 to P-54."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.core import Bot, JsonDict
from engine.pax import engine as E
from engine.pax import record as R
from engine.pax.ai import evaluate, policy
from engine.pax.ai.heuristic import heuristic_bot
from engine.pax.ai.model import determinize
from engine.pax.ai.search import search_bot
from engine.pax.bots import AUTOPILOT, BOTS
from engine.pax.state import State, thaw
from engine.pax.view import _filter_state, view

games = st.tuples(st.sampled_from((2, 3, 4)), st.text(min_size=1, max_size=8))


def _play(players: int, seed: str, bots: dict[int, Bot], cap: int) -> tuple[State, list[JsonDict]]:
    """A whole game; every bot action is checked against the view's legal actions and
    the view is checked unchanged by the bot. Returns the end and the bots' views."""
    state = E.new_game(players, "standard", seed, {"round_cap": cap})
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    seen: list[JsonDict] = []
    while not E.is_over(state):
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
            continue
        v = view(state, seat)
        before = copy.deepcopy(v)
        bot = bots.get(seat, BOTS["random"])
        action = bot(v, rngs[seat])
        assert v == before, "a bot changed its view"
        assert action in v["legal_actions"], (seat, action)
        if seat in bots:
            seen.append(before)
        state = E.apply(state, seat, action)
    return state, seen


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_heuristic_plays_only_legal_actions_in_whole_games(game: tuple[int, str]) -> None:
    players, seed = game
    bots = {s: heuristic_bot for s in range(players) if s % 2 == 0}
    state, _ = _play(players, seed, bots, cap=10)
    assert E.result(state) is not None


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_the_search_bot_plays_only_legal_actions_in_whole_games(game: tuple[int, str]) -> None:
    players, seed = game
    state, _ = _play(players, seed, {0: search_bot, 1: heuristic_bot}, cap=3)
    assert E.result(state) is not None


@pytest.mark.parametrize("variant", ["automa-SG", "automa-J2", "automa-AC", "automa-AW"])
def test_the_bots_play_legal_actions_against_each_automa(variant: str) -> None:
    """H.2: seat 0 a bot, seat 1 the automa; the model of P-50 agrees with every view."""
    state = E.new_game(2, variant, f"vs-{variant}", {"round_cap": 5})
    rng = random.Random(0)
    decisions = 0
    while not E.is_over(state):
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
            continue
        assert seat == 0
        v = view(state, seat)
        model = determinize(v, random.Random(decisions))
        assert _filter_state(model, R.state_json(model), seat) == v["state"]
        bot = search_bot if decisions % 7 == 0 else heuristic_bot
        action = bot(v, rng)
        assert action in v["legal_actions"]
        state = E.apply(state, seat, action)
        decisions += 1
    assert decisions > 3


def test_bots_are_registered_by_name_and_the_heuristic_is_the_autopilot() -> None:
    meta = registry.get("pax").META
    assert {"random", "heuristic", "search"} <= set(meta.bots)
    assert meta.bots["heuristic"] is heuristic_bot
    assert meta.bots["search"] is search_bot
    assert AUTOPILOT == "heuristic" == sorted(meta.bots)[0]  # games/kinds' default choice


@pytest.fixture(scope="module")
def midgame_views() -> list[JsonDict]:
    """Views of seat 0 at its decisions in a seeded 3-seat game, all kinds of decision."""
    _, seen = _play(3, "views", {0: heuristic_bot}, cap=6)
    return seen


def test_p50_the_model_shows_the_seat_exactly_its_view(midgame_views: list[JsonDict]) -> None:
    """P-50: a determinized state, viewed by the same seat, shows the same table."""
    kinds = set()
    for v in midgame_views[::2]:
        seat = v["seat"]
        model = determinize(v, random.Random(1))
        assert _filter_state(model, R.state_json(model), seat) == v["state"]
        kind = v["state"]["pending"][-1]["kind"]
        kinds.add(kind)
        if kind in ("action", "event"):  # the model can play on from these (P-50)
            assert E.legal_actions(model, seat) == v["legal_actions"]
    assert "action" in kinds
    assert len(kinds) >= 3


def _hide_differently(state: State, seat: int) -> State:
    """The same state with another seat's hand swapped for deck cards: nothing ``seat``
    may see changes."""
    snap = R.state_to_json(state)
    st_ = snap["state"]
    other = (seat + 1) % len(st_["players"])
    hand = st_["players"][other]["hand"]
    deck = st_["deck"]
    k = min(len(hand), len(deck))
    hand[:k], deck[:k] = deck[:k], hand[:k]
    deck.reverse()
    return R.state_from_json(snap)


@pytest.mark.parametrize("bot", [heuristic_bot, search_bot], ids=["heuristic", "search"])
def test_bots_read_only_the_view_hidden_cards_do_not_change_a_choice(bot: Bot) -> None:
    state = E.new_game(2, "standard", "hidden", {"round_cap": 4})
    rng = random.Random(3)
    checked = 0
    while not E.is_over(state) and checked < 12:
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
            continue
        v = view(state, seat)
        if seat == 0 and state.pending[-1][1] == "action" and state.origin is None:
            other = _hide_differently(state, seat)
            w = view(other, seat)
            assert json.dumps(w, sort_keys=True) == json.dumps(v, sort_keys=True)
            assert bot(w, random.Random(9)) == bot(v, random.Random(9))
            checked += 1
        state = E.apply(state, seat, heuristic_bot(v, rng))
    assert checked >= 3


@pytest.mark.parametrize("bot", [heuristic_bot, search_bot], ids=["heuristic", "search"])
def test_bots_are_deterministic_with_a_seeded_rng(bot: Bot, midgame_views: list[JsonDict]) -> None:
    for v in midgame_views[::4]:
        plain = json.loads(json.dumps(v))  # a view as the server sends it
        assert bot(v, random.Random(5)) == bot(plain, random.Random(5))


def test_p51_a_won_table_is_worth_the_most_and_a_lost_one_the_least(
    midgame_views: list[JsonDict],
) -> None:
    t = thaw(determinize(midgame_views[-1], random.Random(0)))
    middle = evaluate.value(t, 0)
    t.result = {"winner_seats": [0]}
    assert evaluate.value(t, 0) == evaluate.WIN > middle
    t.result = {"winner_seats": [1]}
    assert evaluate.value(t, 0) == -evaluate.WIN < middle


def test_p53_claims_come_first_and_two_compatible_claims_end_the_turn(
    midgame_views: list[JsonDict],
) -> None:
    from engine.pax.ai.heuristic import claim_first

    v = copy.deepcopy(
        next(x for x in midgame_views if x["state"]["pending"][-1]["kind"] == "action")
    )
    v["legal_actions"] = [
        {"type": "end"},
        {"type": "claim_plot", "plot": "P01"},
        {"type": "claim_faction", "card": "FC-NOB"},
    ]
    assert claim_first(v) == {"type": "claim_faction", "card": "FC-NOB"}
    v["legal_actions"] = v["legal_actions"][:2]
    assert heuristic_bot(v, random.Random(0)) == {"type": "claim_plot", "plot": "P01"}


def test_policy_pays_with_a_reduction_first_and_never_exchanges_when_a_token_pays(
    midgame_views: list[JsonDict],
) -> None:
    t = thaw(determinize(midgame_views[0], random.Random(0)))
    codes = t.g.cat.factions
    t.favor[0] = [3, 0, 0, 0, 0, 0]
    options = [
        {"type": "pay", "faction": codes[0], "exchange": True},
        {"type": "pay", "faction": codes[0], "exchange": False},
    ]
    assert policy.pay(t, 0, options) == options[1]
    assert (
        policy.pay(t, 0, [*options, {"type": "pay", "faction": None, "exchange": False}])["faction"]
        is None
    )


def test_p52_playing_an_action_out_matches_apply_with_the_same_answers() -> None:
    """P-52: ``play_out`` on a state ends where ``apply`` ends given the same choices."""
    from engine.pax.ai.sim import choose, play_out, starter
    from engine.pax.flow import Ask

    state = E.new_game(2, "standard", "p52", {"round_cap": 6})
    rng = random.Random(4)
    compared = 0
    while not E.is_over(state) and compared < 8:
        seat = E.to_act(state)
        if seat is None:
            state = E.advance(state)
            continue
        v = view(state, seat)
        if state.pending[-1][1] == "action" and state.origin is None:
            for a in v["legal_actions"][:: max(1, len(v["legal_actions"]) // 4)]:
                if a["type"] == "end":
                    continue
                t = play_out(state, starter("action", a), 1)
                s2 = E.apply(state, seat, a)
                while s2.pending and s2.pending[-1][1] not in ("action",) and not E.is_over(s2):
                    who, kind, cards = s2.pending[-1]
                    ask = Ask(who, kind, E.legal_actions(s2, who), cards, E.decision(s2))
                    s2 = E.apply(s2, who, choose(thaw(s2), ask, 1))
                assert (t.favor, [tuple(x) for x in t.slots], t.hands, t.cards) == (
                    [list(f) for f in s2.favor],
                    list(s2.slots),
                    [list(h) for h in s2.hands],
                    list(s2.cards),
                )
                compared += 1
        state = E.apply(state, seat, heuristic_bot(v, rng))
    assert compared >= 8


def test_p52_below_the_last_depth_a_bonus_is_declined(midgame_views: list[JsonDict]) -> None:
    from engine.pax.ai.sim import WIDTH, choose
    from engine.pax.flow import Ask

    t = thaw(determinize(midgame_views[0], random.Random(0)))
    options = [{"type": "extort", "by": "scheme", "target": "placard"}, {"type": "decline"}]
    assert WIDTH[-1] == 0
    assert choose(t, Ask(0, "bonus", options, ()), len(WIDTH) - 1) == {"type": "decline"}
