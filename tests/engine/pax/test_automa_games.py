"""Whole games with an automa (section 14, H.2): the 16.3 invariants after every step for
2, 3 and 4 seats with each of the four automa, determinism, the JSON round trip in the
middle of an automa's Oust, and no view carrying a hidden card (15.4)."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.pax import engine as E
from engine.pax import record as R
from engine.pax.invariants import problems
from engine.pax.state import State
from engine.pax.view import view
from tests.engine.pax.test_games import _ids, _known

BOTS = ("SG", "J2", "AC", "AW")


def play(players: int, bot: str, seed: str, cap: int = 30) -> list[State]:
    """A game of random humans against the automa; every state along the way."""
    states = [E.new_game(players, f"automa-{bot}", seed, {"round_cap": cap})]
    rng = random.Random(seed)
    while not E.is_over(states[-1]):
        s = states[-1]
        seat = E.to_act(s)
        if seat is None:
            states.append(E.advance(s))
        else:
            assert seat < players - 1, "the automa is never asked (15.1.3)"
            states.append(E.apply(s, seat, rng.choice(E.legal_actions(s, seat))))
    return states


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from((2, 3, 4)), st.sampled_from(BOTS), st.text(min_size=1, max_size=8))
def test_16_3_every_invariant_holds_after_every_step_with_an_automa(
    players: int, bot: str, seed: str
) -> None:
    states = play(players, bot, seed)
    for s in states:
        assert problems(s) == []
    result = E.result(states[-1])
    assert result is not None
    assert sorted(x for rank in result["ranking"] for x in rank) == list(range(players))
    if result["reason"] == "automa_plot":
        assert result["winner_seats"] == [players - 1]
        assert result["automa_plot"] in (1, 2, 3)


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_14_every_automa_plays_whole_games_at_every_seat_count(players: int, bot: str) -> None:
    """R78: each automa turn is automatic steps; its script lines are logged (H.6)."""
    for n in range(3):
        states = play(players, bot, f"whole-{n}")
        for s in states:
            assert problems(s) == []
        log = states[-1].log
        automa_turns = [
            e
            for e in log
            for st in e["steps"]
            if st["step"] == "turn" and st["seat"] == players - 1
        ]
        lines = [st for e in log for st in e["steps"] if st["step"] == "automa"]
        assert automa_turns
        assert all(st["seat"] == players - 1 and st["text"] for st in lines)


def test_0_4_the_same_seed_and_choices_give_the_same_automa_game() -> None:
    for bot in BOTS:
        a = play(3, bot, "determinism")[-1]
        b = play(3, bot, "determinism")[-1]
        assert a == b
        assert R.full_record(a) == R.full_record(b)


def test_the_record_names_the_automa() -> None:
    s = play(2, "AW", "record")[-1]
    rec = R.full_record(s)
    assert rec["settings"]["automa"] == "AW"
    assert rec["settings"]["variant"] == "automa-AW"
    assert rec["seats"][1]["automa"] == "AW"
    assert rec["state"]["players"][1]["hand"] == []


def test_state_to_json_round_trips_while_a_human_answers_the_automa() -> None:
    """A pause inside the automa's step (a human's oust_card or gain) is a state like
    any other: saved and restored, it plays on the same (P-9)."""
    found = 0
    for bot in BOTS:
        for n in range(6):
            for s in play(2, bot, f"pause-{n}"):
                if s.pending and s.program == "automa":
                    back = R.state_from_json(json.loads(json.dumps(R.state_to_json(s))))
                    assert back == s
                    seat = E.to_act(s)
                    assert seat is not None
                    action = E.legal_actions(s, seat)[0]
                    assert E.apply(back, seat, action) == E.apply(s, seat, action)
                    found += 1
    assert found > 3


def test_15_4_no_view_of_an_automa_game_carries_a_hidden_card() -> None:
    checked = hidden = 0
    for n, bot in enumerate(BOTS * 2):
        players = 2 + n % 3
        for s in play(players, bot, f"hide-{n}", cap=12)[::7]:
            for seat in [None, *range(players)]:
                v = view(s, seat)
                assert isinstance(v["state"]["deck"], int)
                known = _known(s, seat)
                leaked = _ids(json.loads(json.dumps(v))) - known
                assert not leaked, (seat, sorted(leaked))
                for entry in v["log"]:  # the automa's sentences name public cards only
                    for step in entry["steps"]:
                        if step["step"] == "automa":
                            named = set(re.findall(r"PIL\d{3}|E-[A-Z]{3}|S\d{2}", step["text"]))
                            assert named <= known, (step["text"], sorted(named - known))
                if s.plan is not None:
                    assert v["state"]["plan"] == s.plan  # PLAN cards are public (15.4)
                hidden += len(set(s.deck) - _known(s, seat))
                checked += 1
    assert checked > 100
    assert hidden > 1000


def test_h2_p22_the_registry_offers_every_automa_variant() -> None:
    game = registry.get("pax")
    assert game.META.variants == ("standard", "automa-SG", "automa-J2", "automa-AC", "automa-AW")
    s = game.new_game(2, "automa-J2", "registry")
    assert game.full_record(s)["settings"]["automa"] == "J2"


def test_g_bots_json_is_appendix_g_and_14_10() -> None:
    """bots.json against the spec's Appendix G table and the plots of 14.10."""
    from engine.pax.loader import data

    bots = data().bots
    diagrams = {
        "SG": (6, 5, 3, 1, 2, 4),
        "J2": (5, 6, 4, 2, 1, 3),
        "AC": (6, 5, 4, 3, 1, 2),
        "AW": (3, 5, 6, 2, 1, 4),
    }
    frame = ("FL", "FR", "R", "BR", "BL", "L")
    for bot, numbers in diagrams.items():
        assert tuple(bots[bot].diagram[d] for d in frame) == numbers
    plots = {bot: [(p.kind, dict(p.params)) for p in bots[bot].plots] for bot in diagrams}
    assert plots == {
        "SG": [
            ("edicts_discarded", {"min": 4}),
            ("lodge_size", {"min": 5}),
            ("disks_on_map", {"min": 8}),
        ],
        "J2": [
            ("disks_on_map", {"min": 8}),
            ("human_without_disks", {"from_round": 2}),
            ("deck_exhaustions", {"min": 2}),
        ],
        "AC": [
            ("lodge_size", {"min": 5}),
            ("controls_affiliated", {"affiliations": ("FM", "RC"), "min": 5}),
            ("disks_on_map", {"min": 8}),
        ],
        "AW": [
            ("lodge_size", {"min": 5}),
            ("controls_rank", {"ranks": ("A", "K"), "min": 3}),
            ("disks_on_map", {"min": 8}),
        ],
    }
    assert [(b.complexity, b.difficulty, b.targeting) for b in bots.values()] == [
        ("low", "low", "priority"),
        ("medium", "hard", "priority"),
        ("medium", "medium", "plan"),
        ("high", "hard", "plan"),
    ]


def test_the_measure_behind_the_figures_counts_every_game() -> None:
    from engine.pax.automa.measure import measure, table

    results = measure(1, "measure", 8)
    assert sorted(results) == sorted((b, n) for b in BOTS for n in (2, 3, 4))
    assert all(x.games == 1 and x.steps > 0 and not x.broken for x in results.values())
    assert all(sum(x.reasons.values()) == 1 for x in results.values())
    assert table(results).count("\n") == 13  # a header, a rule and 12 rows
