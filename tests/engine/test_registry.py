"""The registry of games (architecture.md, "Many games"): GAMES, get, META, and
Indulgence through the common contract with its behaviour unchanged."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from engine import eleusis, indulgence, registry
from engine.core import JsonDict
from engine.indulgence.rules import replay


def test_games_lists_the_three_games() -> None:
    assert set(registry.GAMES) == {"indulgence", "eleusis", "pax"}
    with pytest.raises(KeyError, match="known: eleusis, indulgence, pax"):
        registry.get("chess")


def test_it_describes_indulgence() -> None:
    meta = registry.get("indulgence").META
    assert meta.key == "indulgence"
    assert meta.title == "Indulgence"
    assert meta.player_counts == (3, 4)
    assert meta.variants[0] == meta.default_variant == "basic"
    assert meta.rated_player_counts == (3, 4)
    assert {"random", "heuristic", "ismcts"} <= set(meta.bots)


def test_every_game_meets_the_contract() -> None:
    names = [
        "new_game",
        "to_act",
        "legal_actions",
        "apply",
        "advance",
        "view",
        "full_record",
        "is_over",
        "result",
        "state_to_json",
        "state_from_json",
        "seed_commitment",
    ]
    for key, game in registry.GAMES.items():
        assert game.META.key == key
        for name in names:
            assert callable(getattr(game, name)), (key, name)


def _play(
    game: registry.GameModule, seed: str, options: JsonDict | None = None
) -> tuple[Any, list[tuple[int, JsonDict]]]:
    state = game.new_game(4, game.META.default_variant, seed, options)
    rng = random.Random(seed)
    bot = game.META.bots["random"]
    moves = []
    while not game.is_over(state):
        seat = game.to_act(state)
        if seat is None:
            state = game.advance(state)
            continue
        action = bot(game.view(state, seat), rng)
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    return state, moves


def test_indulgence_plays_the_same_through_the_registry() -> None:
    """Same seed and actions: the adapter's states are the engine's states."""
    game = registry.get("indulgence")
    assert game.new_game(4, "basic", "x") == indulgence.new_game(4, "basic", "x")
    state, moves = _play(game, "registry-1")
    assert game.full_record(state) == indulgence.full_record(state)
    assert game.state_from_json(game.state_to_json(state)) == state
    assert game.seed_commitment("s") == indulgence.seed_commitment("s")
    assert replay(4, "basic", "registry-1", moves) == state


def test_result_has_the_common_shape_and_keeps_indulgence_keys() -> None:
    game = registry.get("indulgence")
    state, _ = _play(game, "registry-2")
    own = indulgence.result(state)
    common = game.result(state)
    assert own is not None
    assert common is not None
    assert common["winner_seats"] == [own["winner_seat"]]
    assert common["ranking"][0] == [own["winner_seat"]]
    assert sorted(s for group in common["ranking"] for s in group) == [0, 1, 2, 3]
    assert common["scores"] == own["florins"]
    assert common["reason"] == own["reason"]
    assert {k: common[k] for k in own} == own


def test_ranking_shares_places_on_equal_florins_after_the_winner() -> None:
    assert registry.common_ranking({0: 10, 1: 12, 2: 10, 3: 12}, winner=3) == [[3], [1], [0, 2]]
    assert registry.common_ranking({0: 5, 1: 5, 2: 5}, winner=1) == [[1], [0, 2]]


def test_new_game_refuses_options_indulgence_does_not_have() -> None:
    game = registry.get("indulgence")
    assert game.new_game(3, "expert", "s", options={}) == indulgence.new_game(3, "expert", "s")
    with pytest.raises(ValueError, match="no options"):
        game.new_game(3, "basic", "s", options={"fast": True})


def test_result_is_none_before_the_end() -> None:
    game = registry.get("indulgence")
    assert game.result(game.new_game(3, "basic", "s")) is None


def test_it_describes_eleusis() -> None:
    meta = registry.get("eleusis").META
    assert meta.key == "eleusis"
    assert meta.title == "New Eleusis"
    assert meta.player_counts == (3, 4, 5, 6, 7, 8, 9, 10)  # E01
    assert meta.rated_player_counts == (4, 5, 6, 7, 8)
    assert meta.default_variant == "standard"
    assert {"random", "novice", "dealer"} <= set(meta.bots)


def test_eleusis_plays_a_whole_game_through_the_registry() -> None:
    """Through the common contract only: bots on views, automatic steps by advance, the
    common result, the record verifies, the state round-trips through JSON."""
    game = registry.get("eleusis")
    state, moves = _play(game, "registry-eleusis", {"sanity_walks": 10})
    res = game.result(state)
    assert res is not None
    assert res["reason"] == "all_dealt"
    assert sorted(s for group in res["ranking"] for s in group) == [0, 1, 2, 3]
    assert res["winner_seats"] == res["ranking"][0]
    assert set(res["scores"]) == {"0", "1", "2", "3"}
    record = game.full_record(state)
    assert record["status"] == "over"
    assert len(record["rounds"]) == 4  # every seat dealt once (NE-4.1)
    assert eleusis.verify(record).ok
    assert game.state_from_json(game.state_to_json(state)) == state
    assert game.seed_commitment("s") == hashlib.sha256(b"s").hexdigest()
    assert len(moves) > 40
