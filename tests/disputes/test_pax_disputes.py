"""Dispute review of a Pax Illuminaten game (issue 25 item 4): the case file's god view
(every hand and private plot) and its verification (the seed against its commitment, the
record checked by replay, P-75), a tampered seed that fails it, a rewind that replays
the kept moves (autopilot and 15.2.4 timeout moves as such), a void that rolls the
ratings back, and no score adjustment (scores are recomputed from the record)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.pax import engine as pax_engine
from games import deadlines, disputes, kinds, selectors, services
from games.models import Game, GameStatus, Move, Rating
from games.staff import selectors as staff_selectors
from tests.helpers import game_with_seed, server_steps

pytestmark = pytest.mark.django_db


def pax_game(owner: Any, opponent: Any, *, rated: bool = False) -> Game:
    game = game_with_seed(
        creator=owner,
        seed="dispute-pax-0",
        game_type="pax",
        player_count=3,
        rated=rated,
        turn_timeout_seconds=3600,
        options={"round_cap": 2},
        bots=[(2, "random")],
    )
    services.game_join(game_id=game.pk, user=opponent)
    return server_steps(game)


def play(game: Game, people: dict[int, Any], moves: int | None = None, seed: int = 0) -> Game:
    rng = random.Random(seed)
    done = 0
    while game.status == GameStatus.IN_PROGRESS and (moves is None or done < moves):
        seat = game.to_act_seat
        assert seat in people, seat
        state = kinds.of(game).load(game.snapshot)
        action = rng.choice(pax_engine.legal_actions(state, seat))
        services.action_submit(
            game_id=game.pk, user=people[seat], action=action, expected_version=game.version
        )
        done += 1
        server_steps(game)
    return game


def test_the_case_file_shows_every_hand_and_verifies(owner: Any, opponent: Any, staff: Any) -> None:
    game = pax_game(owner, opponent)
    play(game, {0: owner, 1: opponent}, moves=6)
    dispute = services.dispute_create(game_id=game.pk, user=opponent, reason="The Oust looked odd.")
    file = staff_selectors.case_file(dispute=dispute)
    assert file.verification["verified"], file.verification["problems"]
    replay = staff_selectors.replay_step(game=game)
    own = selectors.game_view(game=game, user=opponent)["state"]["players"][1]
    assert replay["seats"][1]["hand"] == own["hand"]  # the god view: every hand
    assert replay["seats"][1]["plot"] == own["plot"]
    page = Client()
    page.force_login(staff)
    for query in ("", "?step=2&seat=1"):
        response = page.get(reverse("staff:case", args=[dispute.pk]) + query)
        assert response.status_code == 200


def test_a_tampered_seed_fails_the_case_files_verification(owner: Any, opponent: Any) -> None:
    game = pax_game(owner, opponent)
    play(game, {0: owner, 1: opponent})
    game.seed = "not-the-seed"
    verification = staff_selectors.deals_verify(game=game)
    assert not verification["verified"]
    assert (
        "the revealed seed does not hash to the published commitment" in (verification["problems"])
    )


def test_a_rewind_replays_the_kept_moves_timeouts_included(
    owner: Any, opponent: Any, staff: Any
) -> None:
    game = pax_game(owner, opponent)
    now = timezone.now()
    for _ in range(3):  # three decisions made when time runs out (the autopilot)
        game.refresh_from_db()
        now += timedelta(hours=2)
        if game.to_act_seat in (0, 1):
            assert deadlines.turn_timeout_handle(
                game_id=game.pk, expected_version=game.version, now=now
            )
        server_steps(game)
    assert Move.objects.filter(game=game, actor_kind__in=("autopilot", "timeout")).exists()
    game.refresh_from_db()
    before = selectors.game_state(game)
    count = game.move_count
    people = {0: owner, 1: opponent}
    for seat in (0, 1):  # a seat handed to the bot after the timeouts plays by itself now
        if game.seats.get(number=seat).bot_kind:
            people.pop(seat)
    if people:
        play(game, people, moves=2)
    game.refresh_from_db()
    disputes.game_rewind(game_id=game.pk, staff=staff, to_move=count, reason="Replay check.")
    game.refresh_from_db()
    assert selectors.game_state(game) == before


def test_voiding_a_rated_game_rolls_its_ratings_back_and_scores_are_not_adjusted(
    owner: Any, opponent: Any, staff: Any
) -> None:
    game = play(pax_game(owner, opponent, rated=True), {0: owner, 1: opponent})
    assert game.status == GameStatus.FINISHED
    assert Rating.objects.filter(game_type="pax", games=1).count() == 3
    with pytest.raises(disputes.RemedyNotAllowed, match="recomputed from its record"):
        disputes.florins_adjust(game_id=game.pk, staff=staff, seat=1, amount=5, reason="No.")
    disputes.game_void(game_id=game.pk, staff=staff, reason="Cheating.")
    assert Rating.objects.filter(game_type="pax", games=1).count() == 0
    game.refresh_from_db()
    assert game.status == GameStatus.VOID
    assert selectors.game_view(game=game, user=owner)["legal_actions"] == []
