"""What each seat sees (NE-28): a structural sweep over whole random games proves that no
view carries another seat's card, the stock, the hidden rule, salt, seeds, library id or
another seat's prophecy before they are public; plus what each seat does see."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from engine import eleusis as game
from engine.eleusis.commitment import rule_salt
from engine.eleusis.deck import card_id
from engine.eleusis.state import State

from .tables import FAST, play_out, rigged

CARD_ID = re.compile(r"^(?:10|[A2-9JQK])[CDHS]\.[1-6]$")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _shown(state: State) -> set[str]:
    """Cards face up while still in a hand: the pending play awaiting its call (NE-26.3)
    and every hand shown in a no play this round (NE-9.1)."""
    pending = state.round.pending
    face_up = {card_id(c) for c in pending.cards} if pending is not None else set()
    return face_up | {card_id(c) for e in state.round.log if e.shown for c in e.shown}


def check_views(state: State) -> int:
    """Every seat's view and the spectator's; returns how many views were checked."""
    r = state.round
    open_round = r.score is None
    shown = _shown(state)
    stock = {card_id(c) for c in r.stock}
    checked = 0
    for seat in [None, *range(state.player_count)]:
        v = game.view(state, seat)
        current = {k: v[k] for k in v if k != "previous_rounds"}
        text = json.dumps(current)
        ids = {s for s in _strings(current) if CARD_ID.match(s)}
        if open_round:
            for other in range(state.player_count):
                if other != seat:
                    hidden = {card_id(c) for c in r.hands[other]} - shown
                    assert not ids & hidden, (seat, other, ids & hidden)
            assert not ids & stock, (seat, ids & stock)  # stock order, put-back starters
            assert r.seed not in text  # the round seed (E34)
            if r.rule is not None:
                dealer = seat is not None and seat == r.dealer
                own_prophecy = (
                    seat is not None and seat == r.prophet and r.prophecy == r.rule.source
                )
                if not dealer and not own_prophecy:
                    assert r.rule.source not in text, seat
                if not dealer:
                    assert rule_salt(r.seed).hex() not in text
                    assert v["dealer_secret"] is None
                    assert "library_id" not in v["round"]["rule"]
                    for entry in v["round"]["log"]:
                        if entry["action"]["type"] == "library_rule":
                            assert entry["action"].get("id") is None
            if r.prophecy is not None and seat != r.prophet:
                assert v["my_prophecy"] is None
                for entry in v["round"]["log"]:
                    if entry["action"]["type"] == "set_prophecy":
                        assert entry["action"]["source"] is None
            if r.pending is not None:  # the verdict is computed nowhere before the call
                assert all(t["seq"] != r.pending.seq for t in v["round"]["turns"])
                assert v["round"]["log"][-1]["events"] == [] or r.pending.call is not None
        if state.end is None:
            assert state.seed not in text  # the game seed, until the game is over
        if seat is not None and seat == r.dealer:
            assert v["my_hand"] == []  # E33: the dealer sees counts only
        checked += 1
    return checked


def test_ne_28_no_view_leaks_over_many_random_games() -> None:
    """17 rounds of 8 games (3 to 7 seats, random and novice bots): every view of every
    seat and of a spectator after every step."""
    total = 0
    rounds = 0
    for i, (players, kinds) in enumerate(
        [
            (5, ["random"] * 5),
            (4, ["random", "novice", "random", "novice"]),
            (6, ["random"] * 6),
            (3, ["novice", "random", "random"]),
            (7, ["random"] * 7),
            (5, ["novice", "random"] * 2 + ["random"]),
            (4, ["random"] * 4),
            (6, ["random", "random", "novice"] * 2),
        ]
    ):
        seed = f"leak-sweep-seed-{i}-7f3a"
        state = game.new_game(
            players,
            "standard",
            seed,
            {**FAST, "hand_size": 6, "round_limit": 2 if players > 3 else None},
        )
        counter = [0]

        def on_step(s: State, counter: list[int] = counter) -> None:
            counter[0] += check_views(s)

        end, _ = play_out(state, kinds, random.Random(i), on_step)
        total += counter[0]
        rounds += len(end.rounds)
    assert rounds == 17
    assert total > 3000


def test_ne_28_2_each_seat_sees_its_own_hand_and_counts_of_the_others() -> None:
    state = rigged(
        4,
        {1: ["2H.1", "3S.1"], 2: ["4H.1", "5S.1"], 3: ["6H.1", "7S.1"]},
        ["AD.1"],
        options={"hand_size": 2},
    )
    v = game.view(state, 1)
    assert v["my_hand"] == ["2H.1", "3S.1"]
    assert [s["hand_count"] for s in v["seats"]] == [None, 2, 2, 2]
    assert [s["role"] for s in v["seats"]] == ["dealer", "scientist", "scientist", "scientist"]
    assert v["round"]["main"] == [{"card": "AD.1", "seat": None, "seq": None, "starter": True}]
    assert v["round"]["stock"] == len(state.round.stock)
    assert (
        v["round"]["rule"]["commitment"] == state.round.rule.commitment
        if state.round.rule
        else False
    )
    assert {"type": "no_play", "prophet": "no"} in v["legal_actions"]
    spectator = game.view(state, None)
    assert spectator["my_hand"] is None
    assert spectator["legal_actions"] == []


def test_ne_28_2_the_dealer_sees_the_rule_salt_and_sanity_verdict() -> None:
    state = rigged(4, {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]}, ["AD.1"], options={"hand_size": 1})
    secret = game.view(state, 0)["dealer_secret"]
    assert secret is not None
    assert secret["source"] == "accept card.red"
    assert secret["salt"] == rule_salt(state.round.seed).hex()
    assert secret["sanity"] in ("ok", "warn")


def test_ne_28_3_a_scientists_legal_actions_are_never_filtered_by_the_rule() -> None:
    state = rigged(
        4,
        {1: ["2H.1", "3S.1"], 2: ["4H.1", "5S.1"], 3: ["6H.1", "7S.1"]},
        ["AD.1"],
        options={"hand_size": 2},
    )
    actions = game.legal_actions(state, 1)
    assert actions[:3] == [
        {"type": "play", "cards": ["2H.1"], "prophet": "no"},
        {"type": "play", "cards": ["3S.1"], "prophet": "no"},  # wrong under the rule, listed
        {"type": "no_play", "prophet": "no"},
    ]
    template = actions[3]
    assert template["template"] == "string"
    assert template["description"] == "2 to 4 distinct cards of your hand, in any order"
    assert game.legal_actions(state, 2) == []


def test_after_the_round_everything_in_its_record_is_public() -> None:
    state = rigged(
        4,
        {1: ["2H.1"], 2: ["4H.1"], 3: ["6H.1"]},
        ["3S.1", "AD.1"],
        options={"hand_size": 1, "round_limit": 1},
    )
    state = game.apply(state, 1, {"type": "play", "cards": ["2H.1"]})
    assert game.view(state, 2)["round"]["starter"][0]["card"] is None  # put back, hidden
    state = game.advance(state)
    v = game.view(state, 2)
    record = v["round"]["record"]
    assert record["rule"]["source"] == "accept card.red"
    assert record["seed"] == state.rounds[0].seed
    assert v["round"]["starter"][0] == {"card": "3S.1", "kept": False}
    assert record["end"]["hands"][3] == ["6H.1"]
