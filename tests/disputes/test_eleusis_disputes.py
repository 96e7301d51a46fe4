"""Dispute review of a New Eleusis game (issue 24): the case file's god view (every hand,
the rule) and verification by the game's own ``verify``, a rewind that replays the kept
moves (autopilot and timeout moves as such), a void that rolls the ratings back, and no
score adjustment (New Eleusis' scores are recomputed from the record)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import deadlines, disputes, selectors, services
from games.models import ActorKind, Game, GameStatus, Move, Rating
from games.staff import selectors as staff_selectors
from tests.helpers import game_with_seed, server_steps

pytestmark = pytest.mark.django_db


def eleusis_game(owner: Any, opponent: Any, *, rated: bool = False) -> Game:
    game = game_with_seed(
        creator=owner,
        seed="deal-0",
        game_type="eleusis",
        player_count=4,
        rated=rated,
        turn_timeout_seconds=3600,
        options={"hand_size": 4, "sanity_walks": 20, "round_limit": 1},
        bots=[(2, "novice"), (3, "novice")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    return server_steps(game)


def play(game: Game, people: dict[int, Any], moves: int | None = None, seed: int = 0) -> Game:
    """The people's seats play explicit legal actions (the dealer a library rule)."""
    rng = random.Random(seed)
    done = 0
    while game.status == GameStatus.IN_PROGRESS and (moves is None or done < moves):
        seat = game.to_act_seat
        assert seat in people, seat
        view = selectors.game_view(game=game, user=people[seat])
        if view["phase"] == "rule_setup":
            action = {"type": "library_rule", "difficulty": "easy"}
        else:
            action = rng.choice([a for a in view["legal_actions"] if "template" not in a])
        services.action_submit(
            game_id=game.pk, user=people[seat], action=action, expected_version=game.version
        )
        done += 1
        server_steps(game)
    return game


def test_the_case_file_shows_every_hand_and_the_rule_and_verifies(
    owner: Any, opponent: Any, staff: Any
) -> None:
    game = eleusis_game(owner, opponent)
    play(game, {0: owner, 1: opponent}, moves=3)
    dispute = services.dispute_create(game_id=game.pk, user=opponent, reason="Judged wrongly.")
    file = staff_selectors.case_file(dispute=dispute)
    assert file.verification["verified"], file.verification["problems"]
    replay = staff_selectors.replay_step(game=game)
    assert replay["rule"]["source"]  # the god view: the rule, before the reveal
    held = [seat["held"] for seat in replay["seats"]]
    assert held[1] == selectors.game_view(game=game, user=opponent)["my_hand"]
    assert staff_selectors.replay_step(game=game, step=0, seat=1)["seat_view"]["my_hand"] == []
    page = Client()
    page.force_login(staff)
    for query in ("", "?step=2&seat=1"):
        response = page.get(reverse("staff:case", args=[dispute.pk]) + query)
        assert response.status_code == 200
        assert replay["rule"]["source"] in response.content.decode()


def test_a_tampered_seed_fails_the_case_files_verification(owner: Any, opponent: Any) -> None:
    game = eleusis_game(owner, opponent)
    play(game, {0: owner, 1: opponent})
    game.seed = "not-the-seed"
    verification = staff_selectors.deals_verify(game=game)
    assert not verification["verified"]
    assert (
        "the revealed seed does not hash to the published commitment" in (verification["problems"])
    )


def test_a_rewind_replays_the_kept_moves_autopilot_and_timeouts_included(
    owner: Any, opponent: Any, staff: Any
) -> None:
    game = eleusis_game(owner, opponent)
    now = timezone.now()
    for _ in range(2):  # seat 0's rule and a turn of seat 1 are made when time runs out
        game.refresh_from_db()
        now += timedelta(hours=25)
        if game.to_act_seat in (0, 1):
            assert deadlines.turn_timeout_handle(
                game_id=game.pk, expected_version=game.version, now=now
            )
        server_steps(game)
    kinds_made = set(Move.objects.filter(game=game).values_list("actor_kind", flat=True))
    assert ActorKind.TIMEOUT in kinds_made
    before = selectors.game_state(game)
    count = game.move_count
    play(game, {0: owner, 1: opponent}, moves=2)
    game.refresh_from_db()
    disputes.game_rewind(game_id=game.pk, staff=staff, to_move=count, reason="Replay check.")
    game.refresh_from_db()
    assert selectors.game_state(game) == before  # the replay made the same state
    play(game, {0: owner, 1: opponent})
    assert game.status == GameStatus.FINISHED


def test_voiding_a_rated_game_rolls_its_ratings_back_and_scores_are_not_adjusted(
    owner: Any, opponent: Any, staff: Any
) -> None:
    game = play(eleusis_game(owner, opponent, rated=True), {0: owner, 1: opponent})
    assert game.status == GameStatus.FINISHED
    assert Rating.objects.filter(game_type="eleusis", games=1).count() == 3  # bots share one
    with pytest.raises(disputes.RemedyNotAllowed, match="recomputed from its record"):
        disputes.florins_adjust(game_id=game.pk, staff=staff, seat=1, amount=5, reason="No.")
    disputes.game_void(game_id=game.pk, staff=staff, reason="Cheating.")
    assert Rating.objects.filter(game_type="eleusis", games=1).count() == 0
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    assert selectors.game_view(game=game, user=owner)["legal_actions"] == []
