"""Whole games as properties (hypothesis): any table, any mix of bots, some timeouts and
dealers who choose; after every step every card is in exactly one place and PC adds up;
at the end every penalty is as the rules say, every score recomputes from the layout,
``verify`` passes on the record, the state round-trips through JSON, and the same seed
and actions give the same game."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import eleusis as game
from engine.core import JsonDict
from engine.eleusis.deck import card_id, deck_cards
from engine.eleusis.state import Round, State
from engine.eleusis.table import scientists

from .tables import Move, replay

GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def tables(draw: Any) -> dict[str, Any]:
    players = draw(st.integers(3, 7))
    variant = draw(st.sampled_from(["standard", "short", "express"]))
    options: dict[str, Any] = {"sanity_walks": 3}
    if variant != "express":
        options["hand_size"] = draw(st.integers(2, 10))
    options["round_limit"] = draw(st.integers(1, min(2, players - 1)))
    options["rated"] = players in range(4, 9) and draw(st.booleans())
    options["bots"] = draw(st.lists(st.booleans(), min_size=players, max_size=players))
    return {
        "players": players,
        "variant": variant,
        "seed": draw(st.text("abcdefghij0123456789", min_size=1, max_size=10)),
        "options": options,
        "kinds": draw(
            st.lists(st.sampled_from(["random", "novice"]), min_size=players, max_size=players)
        ),
        "bot_seed": draw(st.integers(0, 2**32)),
    }


def cards_in_one_place(state: State) -> None:
    r = state.round
    places = [m.card for m in r.main]
    places += [c for p in r.side for c in p.cards]
    places += [c for x in r.exhibits for c in x.cards]
    places += [c for h in r.hands for c in h]
    places += list(r.stock)
    every = [c for d in range(1, r.decks_in_use + 1) for c in deck_cards(d)]
    assert Counter(places) == Counter(every)
    assert r.pc == sum(1 for m in r.main if m.seat is not None) + sum(len(p.cards) for p in r.side)
    if r.dealer is not None:
        assert r.hands[r.dealer] == ()
    seat = game.to_act(state)
    if seat is not None:
        assert game.legal_actions(state, seat)


def _refusal_changes_nothing(state: State, rng: random.Random) -> None:
    seat = game.to_act(state)
    if seat is None:
        return
    other = rng.choice([s for s in range(state.player_count) if s != seat])
    before = json.dumps(game.state_to_json(state), sort_keys=True)
    for who, action in (
        (other, {"type": "no_play"}),
        (seat, {"type": "play", "cards": ["AS.6"]}),
        (seat, {"type": "play", "cards": []}),
    ):
        try:
            game.apply(state, who, action)
        except game.IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {who} could {action}")
    assert json.dumps(game.state_to_json(state), sort_keys=True) == before


def penalties_as_the_rules_say(r: Round) -> None:
    """Each judged turn against its closing entry's draws (NE-8.1, E13, NE-9, NE-10.6,
    E17, E22)."""
    closing = [json.loads(e.events) for e in r.log]
    closing = [evs for evs in closing if any(ev["type"] == "verdict" for ev in evs)]
    assert len(closing) == len(r.turns)
    short = r.end_reason == "stock_exhausted"
    for turn, evs in zip(r.turns, closing, strict=True):
        draws = [ev for ev in evs if ev["type"] == "draw"]
        mine = [d for d in draws if d["seat"] == turn.seat and d["reason"] == "penalty"]
        wrong = turn.truth == "wrong"
        punished = wrong and turn.overthrown is None and not turn.sudden_death
        due = (2 * len(turn.cards) if turn.kind == "play" else 5) if punished else 0
        got = sum(len(d["cards"]) for d in mine)
        assert got == due or (short and got <= due), (turn, evs)
        prophet = [d for d in draws if d["reason"] == "prophet"]
        if turn.overthrown is not None:
            assert prophet[0]["seat"] == turn.overthrown
            assert len(prophet[0]["cards"]) == 5 or short
        else:
            assert prophet == []
        assert turn.expelled == (wrong and turn.sudden_death and turn.overthrown is None)
        if turn.kind == "no_play" and turn.truth == "correct":
            new = [d for d in draws if d["reason"] == "new_hand"]
            size = max(0, len(turn.cards) - 4)
            assert sum(len(d["cards"]) for d in new) == size or short


def scores_recompute(player_count: int, r: Round) -> None:
    """NE-13 from the final layout, counting the prophet's cards by their plays."""
    assert r.score is not None
    order = scientists(player_count, r.dealer, r.number)
    held = {s: len(r.hands[s]) for s in order}
    high = max(held.values())
    expected = [0] * player_count
    for s in order:
        expected[s] = high - held[s] + (4 if held[s] == 0 else 0)
    cap = None
    if r.prophet is not None:
        line = r.lines[-1]
        main = sum(1 for m in r.main if m.seq is not None and m.seq > line.seq)
        side = sum(len(p.cards) for p in r.side if p.seq > line.seq)
        expected[line.seat] += main + 2 * side
        cap = 2 * line.m
    if r.dealer is not None:
        highest = max(expected[s] for s in order)
        expected[r.dealer] = min(highest, cap) if cap is not None else highest
    assert list(r.score.scores) == expected
    assert [card_id(c) for h in r.score.hands for c in h] == [
        card_id(c) for h in r.hands for c in sorted(h)
    ]


@GAMES
@given(table=tables())
def test_whole_games_keep_every_invariant(table: dict[str, Any]) -> None:
    rng = random.Random(table["bot_seed"])
    state = game.new_game(table["players"], table["variant"], table["seed"], table["options"])
    moves: list[Move] = []
    steps = 0
    while not game.is_over(state):
        steps += 1
        assert steps < 20_000
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            moves.append((None, None, None))
        elif (
            rng.random() < 0.05
            and state.round.phase != "turn"
            and (state.round.phase != "prophet_call" or state.settings.rated)
        ):
            state = game.timeout(state)
            moves.append((seat, json.loads(state.round.log[-1].action), "timeout"))
        else:
            action: JsonDict = game.META.bots[table["kinds"][seat]](game.view(state, seat), rng)
            if state.round.phase == "rule_setup" and rng.random() < 0.5:
                action = {**action, "no_play_choice": "choose"}
            state = game.apply(state, seat, action)
            moves.append((seat, action, None))
        cards_in_one_place(state)
        if rng.random() < 0.02:
            _refusal_changes_nothing(state, rng)
    for r in state.rounds:
        penalties_as_the_rules_say(r)
        scores_recompute(state.player_count, r)
    end = state.end
    assert end is not None
    totals = [
        sum(r.score.scores[s] for r in state.rounds if r.score) for s in range(table["players"])
    ]
    assert [t + e for t, e in zip(totals, end.early_end_points, strict=True)] == list(end.totals)
    result = game.verify(game.full_record(state))
    assert result.ok, result.problems
    assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
    assert (
        replay(table["players"], table["variant"], table["seed"], table["options"], moves) == state
    )
