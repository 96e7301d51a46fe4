"""Deal verification: commitment <-> revealed seed <-> deals re-derived from the seed,
independently of the engine, compared with the deals the game was played with."""

from __future__ import annotations

import pytest

import engine.indulgence as rules
from engine.cards import ids_of
from engine.indulgence import shuffle
from games.models import Game
from games.staff import selectors

pytestmark = pytest.mark.django_db


def test_a_real_game_verifies(finished_game: Game) -> None:
    result = selectors.deals_verify(game=finished_game)
    assert result["problems"] == []
    assert result["verified"] is True
    assert result["commitment_ok"] is True
    assert result["first_ruler_ok"] is True
    assert result["replay_ok"] is True
    assert len(result["hands"]) == 9
    assert all(hand["ok"] for hand in result["hands"])


def test_the_independent_derivation_agrees_with_the_engine() -> None:
    for hand_number in (1, 2, 7):
        for player_count in (3, 4):
            masks = shuffle.deal("some seed", hand_number, player_count)
            derived = selectors.deal_derive(
                seed="some seed", hand_number=hand_number, player_count=player_count
            )
            engine_deal = {str(seat): ids_of(mask) for seat, mask in enumerate(masks)}
            assert derived == engine_deal


def test_a_tampered_seed_fails_verification(finished_game: Game) -> None:
    finished_game.seed = "a-seed-chosen-after-the-fact"  # not saved: the row stays true
    result = selectors.deals_verify(game=finished_game)
    assert result["verified"] is False
    assert result["commitment_ok"] is False
    assert "the revealed seed does not hash to the published commitment" in result["problems"]
    assert not any(hand["ok"] for hand in result["hands"])


def test_a_tampered_deal_fails_verification(running_game: Game) -> None:
    snapshot = dict(running_game.snapshot)
    deal = [list(cards) for cards in snapshot["deal"]]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]  # two seats swap a card
    snapshot["deal"] = deal
    running_game.snapshot = snapshot  # not saved
    result = selectors.deals_verify(game=running_game)
    assert result["verified"] is False
    assert result["commitment_ok"] is True
    assert result["hands"][0]["ok"] is False
    assert "hand 1: the recorded deal is not the seed's deal" in result["problems"]


def test_the_case_file_of_a_running_game_verifies_too(running_game: Game) -> None:
    state = rules.state_from_json(running_game.snapshot)
    assert not rules.is_over(state)
    assert selectors.deals_verify(game=running_game)["verified"] is True
