"""The record ``eleusis-record-1`` exactly as NE-29.3 gives it, its masking while a round
is open (NE-29.3.9), and ``verify`` (NE-29.2): it passes on honest records and names the
first mismatch in a tampered one."""

from __future__ import annotations

import copy
import functools
import json
import random

import pytest

from engine import eleusis as game
from engine.core import JsonDict

from .tables import FAST, play, play_out, rigged

GAME_KEYS = {
    "game",
    "format",
    "variant",
    "player_count",
    "settings",
    "seats",
    "seed",
    "seed_commitment",
    "round_seed_commitments",
    "first_dealer",
    "rounds",
    "status",
    "end",
}
SETTINGS_KEYS = {
    "hand_size",
    "sudden_death",
    "sudden_death_prophet",
    "round_limit",
    "rated",
    "house_dealt",
    "late_claims",
    "going_out_prophet",
    "deadlines",
}
ROUND_KEYS = {
    "number",
    "dealer",
    "seed",
    "rule",
    "decks",
    "deal",
    "starter",
    "first_player",
    "log",
    "end",
}
RULE_KEYS = {
    "language",
    "evaluator",
    "commitment",
    "source",
    "salt",
    "canonical",
    "library_id",
    "sanity",
    "no_play_choice",
}
ENTRY_KEYS = {"seq", "seat", "phase", "by", "at", "action", "events"}
EVENT_FIELDS = {
    "approval": {"approved"},
    "verdict": {"seat", "verdict", "sudden_death", "pc"},
    "overthrow": {"seat", "returned"},
    "chosen": {"card", "by"},
    "main": {"cards"},
    "side": {"cards", "under"},
    "exhibit": {"seat", "cards", "under"},
    "marker": {"color", "card", "count"},
    "draw": {"seat", "reason", "cards"},
    "deck": {"deck"},
    "expel": {"seat"},
    "prophet": {"seat", "m"},
    "round_end": {"reason"},
}
PHASES = {"rule_setup", "turn", "prophet_call", "dealer_choice", "post_play", "round_over"}
BYS = {"human", "bot", "autopilot", "prophecy", "timeout"}


@functools.cache
def finished(seed: str, players: int = 5, kinds: str = "random") -> JsonDict:
    state = game.new_game(players, "standard", seed, {**FAST, "hand_size": 8})
    state, _ = play_out(state, [kinds] * players, random.Random(seed))
    return game.full_record(state)


def _rank(event: JsonDict) -> float:
    """NE-29.3.6's order within an entry (a deck follows the draw that added it)."""
    order = ["approval", "verdict", "overthrow", "chosen", "main", "marker", "draw", "expel"]
    kind = event["type"]
    if kind in ("side", "exhibit"):
        kind = "main"
    if kind == "draw" and event["reason"] == "prophet":
        return 2.5
    if kind == "round_end":
        return 8
    if kind == "prophet":
        return 9
    return order.index(kind)


def test_ne_29_3_the_record_has_exactly_the_documented_shape() -> None:
    record = finished("shape")
    assert set(record) == GAME_KEYS
    assert (record["game"], record["format"], record["status"]) == (
        "eleusis",
        "eleusis-record-1",
        "over",
    )
    assert set(record["settings"]) >= SETTINGS_KEYS
    assert record["seats"] == [{"seat": s, "bot": False} for s in range(5)]
    assert set(record["end"]) == {"reason", "early_end_points", "totals", "ranking"}
    seqs = []
    for r in record["rounds"]:
        assert set(r) >= ROUND_KEYS
        assert set(r["rule"]) >= RULE_KEYS
        assert r["rule"]["language"] == "erl-1"
        assert len(r["rule"]["salt"]) == 64
        assert r["deal"][r["dealer"]] == []
        assert set(r["end"]) == {"reason", "hands", "score"}
        assert set(r["end"]["score"]) == {
            "high",
            "held",
            "out_bonus",
            "prophet",
            "dealer",
            "scores",
        }
        assert r["end"]["score"]["held"][r["dealer"]] is None
        for entry in r["log"]:
            assert set(entry) >= ENTRY_KEYS
            assert entry["phase"] in PHASES
            assert entry["by"] in BYS
            assert entry["at"] is None
            seqs.append(entry["seq"])
            if entry["action"]["type"] in ("play", "no_play"):
                assert entry["action"]["prophet"] in ("no", "declare", "decide_after")
            ranks = []
            for ev in entry["events"]:
                assert set(ev) - {"type"} == EVENT_FIELDS[ev["type"]], ev
                ranks.append(ranks[-1] if ev["type"] == "deck" and ranks else _rank(ev))
                if ev["type"] == "draw":
                    assert ev["cards"]  # at least one card
            assert ranks == sorted(ranks), entry
    assert seqs == list(range(1, len(seqs) + 1))


def test_29_3_4_the_last_round_may_be_unfinished_and_29_3_9_masks_it() -> None:
    state = game.new_game(4, "standard", "masked", FAST)
    dealer = state.round.dealer
    assert dealer is not None
    empty = game.full_record(state)["rounds"][0]
    assert empty["rule"]["commitment"] is None
    assert empty["deal"] is None
    assert empty["log"] == []
    state = game.apply(state, dealer, {"type": "set_rule", "source": "accept card.red"})
    record = game.full_record(state)
    assert record["status"] == "in_progress"
    assert record["seed"] is None
    assert record["end"] is None
    r = record["rounds"][0]
    assert r["seed"] is None
    assert {
        k: r["rule"][k] for k in ("source", "salt", "canonical", "library_id", "sanity")
    } == dict.fromkeys(("source", "salt", "canonical", "library_id", "sanity"))
    assert r["rule"]["commitment"] is not None
    entry = r["log"][0]
    assert entry["action"]["source"] is None
    assert entry["withheld"] == ["source"]
    assert all(len(hand) in (0, 14) for hand in r["deal"])  # hands and draws are shown


def test_29_3_9_a_library_rule_id_is_withheld_until_the_round_is_scored() -> None:
    state = game.new_game(4, "standard", "masked-id", FAST)
    dealer = state.round.dealer
    assert dealer is not None
    state = game.apply(state, dealer, {"type": "library_rule", "id": "R17"})
    entry = game.full_record(state)["rounds"][0]["log"][0]
    assert entry["action"] == {
        "type": "library_rule",
        "id": None,
        "hints": [],
        "no_play_choice": "random",
        "confirm_warnings": False,
    }
    assert entry["withheld"] == ["id"]


def test_a_finished_round_reveals_everything() -> None:
    record = finished("reveal")
    assert record["seed"] == "reveal"
    for r in record["rounds"]:
        assert r["seed"] is not None
        assert r["rule"]["source"] is not None
        assert r["rule"]["library_id"] is not None
        assert all(s["card"] is not None for s in r["starter"])
        assert all("withheld" not in e for e in r["log"])


# --- verify (NE-29.2) -----------------------------------------------------------------


@pytest.mark.parametrize("seed", ["verify-1", "verify-2", "verify-3"])
def test_ne_29_2_an_honest_record_verifies(seed: str) -> None:
    record = finished(seed)
    result = game.verify(record)
    assert result.ok, result.problems
    assert len(result.checked) == 1 + len(record["rounds"]) + 1


def test_ne_29_2_records_of_novice_games_verify_too() -> None:
    result = game.verify(finished("verify-novice", 4, "novice"))
    assert result.ok, result.problems


def test_e34_an_open_game_verifies_the_rounds_already_revealed() -> None:
    state = game.new_game(4, "standard", "open", {**FAST, "hand_size": 6})
    rng = random.Random(1)
    while state.round.number < 2 or state.round.phase == "rule_setup":
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
        else:
            state = game.apply(state, seat, game.META.bots["random"](game.view(state, seat), rng))
    result = game.verify(game.full_record(state))
    assert result.ok, result.problems
    assert result.checked == ["round 1: replayed from its seed, every event and score"]
    assert result.notes == ["round 2: not yet revealed, not verified"]


def _tampered(change: str) -> JsonDict:
    record = copy.deepcopy(finished("tamper"))
    r = record["rounds"][0]
    if change == "verdict":
        entry = next(e for e in r["log"] if any(ev["type"] == "verdict" for ev in e["events"]))
        ev = next(ev for ev in entry["events"] if ev["type"] == "verdict")
        ev["verdict"] = {"right": "wrong", "wrong": "right", "correct": "wrong"}[ev["verdict"]]
    elif change == "penalty":
        entry = next(e for e in r["log"] if any(ev["type"] == "draw" for ev in e["events"]))
        draw = next(ev for ev in entry["events"] if ev["type"] == "draw")
        draw["cards"][0] = "KS.2" if draw["cards"][0] != "KS.2" else "KS.1"
    elif change == "source":
        r["rule"]["source"] = r["rule"]["source"] + " "
    elif change == "score":
        r["end"]["score"]["scores"][1] += 1
    elif change == "seed":
        record["seed"] = "someone else's seed"
    elif change == "deal":
        r["deal"][r["first_player"]][0], r["deal"][r["first_player"]][1] = (
            r["deal"][r["first_player"]][1],
            r["deal"][r["first_player"]][0],
        )
    elif change == "round_seed":
        record["rounds"][1]["seed"] = record["rounds"][0]["seed"]
    elif change == "totals":
        record["end"]["totals"][0] += 10
    elif change == "action":
        entry = next(e for e in r["log"] if e["action"]["type"] == "play")
        entry["action"]["cards"] = ["AS.6"]
    return record


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("verdict", "verdict"),
        ("penalty", "cards"),
        ("source", "commitment"),
        ("score", "scores"),
        ("seed", "seed_commitment"),
        ("deal", "deal"),
        ("round_seed", "rounds[1].seed"),
        ("totals", "end.totals"),
        ("action", "refuse"),
    ],
)
def test_ne_29_2_verify_names_the_first_mismatch_of_a_tampered_record(
    change: str, expected: str
) -> None:
    result = game.verify(_tampered(change))
    assert not result.ok
    assert any(expected in problem for problem in result.problems), result.problems


def test_verify_refuses_what_is_not_a_record() -> None:
    assert game.verify({"format": "something"}).problems == [
        "format: not an eleusis-record-1 document"
    ]
    broken = copy.deepcopy(finished("broken"))
    del broken["rounds"][0]["log"]
    assert not game.verify(broken).ok


def test_verify_ignores_keys_an_engine_adds() -> None:
    record = copy.deepcopy(finished("extra"))
    record["rounds"][0]["extra"] = 1
    record["rounds"][0]["log"][0]["note"] = "x"
    assert game.verify(record).ok


def test_a_rigged_round_does_not_verify_against_its_seed() -> None:
    """The stock of a rigged table is not the seed's shuffle: verify notices."""
    state = rigged(
        4,
        {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]},
        ["AD.1"],
        options={"hand_size": 1, "round_limit": 1},
    )
    state = game.advance(play(state, 1, "2H.1"))
    problems = game.verify(game.full_record(state)).problems
    assert any("deal" in p or "starter" in p for p in problems), problems


def test_the_state_round_trips_through_json_exactly() -> None:
    state = game.new_game(5, "standard", "json", {**FAST, "hand_size": 8})
    checked = 0

    def check(s: game.State) -> None:
        nonlocal checked
        if s.seq % 7 == 0:
            text = json.dumps(game.state_to_json(s))
            assert game.state_from_json(json.loads(text)) == s
            checked += 1

    play_out(state, ["random"] * 5, random.Random(3), check)
    assert checked > 10
    with pytest.raises(ValueError, match="eleusis-state-1"):
        game.state_from_json({"format": "x"})
