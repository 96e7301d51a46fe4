"""games.services: the only writers. One behaviour per test."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

import engine.indulgence as rules
from games import selectors, services
from games.errors import (
    AlreadySeated,
    DisputeNotAllowed,
    GameFull,
    GameNotActive,
    IdempotencyKeyReused,
    IllegalActionError,
    InvalidRequest,
    NotOpen,
    NotSeated,
    NotYourTurn,
    UnknownBot,
    VersionConflict,
)
from games.models import (
    ActorKind,
    ApiToken,
    Game,
    GameHistory,
    GameStatus,
    HandSettlement,
    Move,
    Rating,
    RatingChange,
)
from tests.helpers import game_with_seed, play_humans_until

pytestmark = pytest.mark.django_db


def three_player_game(owner: Any, opponent: Any, third: Any, **options: Any) -> Game:
    options.setdefault("rated", False)
    seed = options.pop("seed", "services-test")
    game = game_with_seed(creator=owner, player_count=3, seed=seed, **options)
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    game.refresh_from_db()
    return game


def user_to_act(game: Game, users: list[Any]) -> Any:
    return users[game.to_act_seat] if game.to_act_seat is not None else None


class TestCreateAndJoin:
    def test_it_seats_the_creator_at_seat_zero_and_waits_for_players(self, owner: Any) -> None:
        game = services.game_create(creator=owner, player_count=4)
        view = selectors.game_view(game=game, user=owner)
        assert view["status"] == "open"
        assert view["my_seat"] == 0
        assert view["open_seats"] == 3
        assert view["my_hand"] == []
        assert len(view["seed_commitment"]) == 64

    def test_it_starts_when_the_last_seat_is_filled(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        assert game.status == GameStatus.IN_PROGRESS
        views = [selectors.game_view(game=game, user=u) for u in (owner, opponent, third)]
        assert [v["my_seat"] for v in views] == [0, 1, 2]
        assert all(len(v["my_hand"]) == 12 for v in views)
        hands = [set(v["my_hand"]) for v in views]
        assert not (hands[0] & hands[1])
        assert not (hands[1] & hands[2])

    def test_it_starts_at_once_with_bots_in_every_other_seat(self, owner: Any) -> None:
        game = services.game_create(
            creator=owner, player_count=3, bots=[(1, "random"), (2, "random")]
        )
        game.refresh_from_db()
        assert game.status == GameStatus.IN_PROGRESS
        view = selectors.game_view(game=game, user=owner)
        assert [s["is_bot"] for s in view["seats"]] == [False, True, True]

    @pytest.mark.parametrize(
        ("options", "message"),
        [
            ({"player_count": 5}, "player_count must be 3 or 4."),
            ({"player_count": 4, "variant": "chaos"}, "variant must be 'basic' or 'expert'."),
            ({"player_count": 4, "seed": "abc"}, "A seed may only be chosen for unrated games"),
            (
                {"player_count": 4, "turn_timeout_seconds": 5},
                "turn_timeout_seconds must be between",
            ),
            ({"player_count": 4, "bots": [(0, "random")]}, "Bot seats must be between 1 and 3"),
            (
                {"player_count": 4, "bots": [(1, "random"), (1, "random")]},
                "Seat 1 was given two bots",
            ),
        ],
    )
    def test_it_refuses_bad_options_with_a_clear_message(
        self, owner: Any, options: dict[str, Any], message: str
    ) -> None:
        with pytest.raises(InvalidRequest, match=message.replace("(", r"\(").replace(")", r"\)")):
            services.game_create(creator=owner, **options)
        assert not Game.objects.exists()

    def test_it_refuses_an_unknown_bot(self, owner: Any) -> None:
        with pytest.raises(UnknownBot, match="no built-in bot called 'grandmaster'"):
            services.game_create(creator=owner, player_count=3, bots=[(1, "grandmaster")])

    def test_joining_twice_is_refused(self, owner: Any) -> None:
        game = services.game_create(creator=owner, player_count=3)
        with pytest.raises(AlreadySeated):
            services.game_join(game_id=game.pk, user=owner)

    def test_joining_a_full_game_is_refused(
        self, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        with pytest.raises(GameFull):
            services.game_join(game_id=game.pk, user=outsider)

    def test_joining_a_finished_game_with_a_free_seat_is_not_possible(
        self, owner: Any, outsider: Any
    ) -> None:
        game = services.game_create(creator=owner, player_count=3)
        Game.objects.filter(pk=game.pk).update(status=GameStatus.VOID)
        with pytest.raises(NotOpen):
            services.game_join(game_id=game.pk, user=outsider)


class TestActions:
    def test_the_player_to_act_moves_and_the_version_bumps(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        user = user_to_act(game, [owner, opponent, third])
        view = selectors.game_view(game=game, user=user)
        result = services.action_submit(
            game_id=game.pk,
            user=user,
            action=view["legal_actions"][0],
            expected_version=game.version,
        )
        assert result.view["version"] == game.version + 1
        move = Move.objects.get(game=game)
        assert (move.seq, move.seat, move.actor_kind) == (1, game.to_act_seat, ActorKind.HUMAN)

    def test_a_player_who_is_not_to_act_is_told_whose_turn_it_is(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        users = [owner, opponent, third]
        waiting = users[(game.to_act_seat + 1) % 3]
        with pytest.raises(NotYourTurn, match=f"It is seat {game.to_act_seat}'s turn"):
            services.action_submit(game_id=game.pk, user=waiting, action={"type": "pass"})

    def test_an_outsider_cannot_move(
        self, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        with pytest.raises(NotSeated):
            services.action_submit(game_id=game.pk, user=outsider, action={"type": "pass"})

    def test_a_stale_version_is_refused_and_changes_nothing(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        user = user_to_act(game, [owner, opponent, third])
        action = selectors.game_view(game=game, user=user)["legal_actions"][0]
        with pytest.raises(VersionConflict, match=f"at version {game.version}, not 1"):
            services.action_submit(game_id=game.pk, user=user, action=action, expected_version=1)
        assert not Move.objects.exists()

    @pytest.mark.parametrize(
        "action",
        [
            {"type": "play", "card": "B1"},
            {"type": "choose_edict", "edict": "nonsense"},
            "pass",
            None,
            {},
        ],
    )
    def test_an_illegal_action_is_refused_and_changes_nothing(
        self, owner: Any, opponent: Any, third: Any, action: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        user = user_to_act(game, [owner, opponent, third])
        before = selectors.game_view(game=game, user=user)
        with pytest.raises(IllegalActionError):
            services.action_submit(game_id=game.pk, user=user, action=action)
        game.refresh_from_db()
        assert selectors.game_view(game=game, user=user) == before
        assert not Move.objects.exists()

    def test_a_repeated_idempotency_key_returns_the_first_result(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        user = user_to_act(game, [owner, opponent, third])
        action = selectors.game_view(game=game, user=user)["legal_actions"][0]
        first = services.action_submit(
            game_id=game.pk,
            user=user,
            action=action,
            expected_version=game.version,
            idempotency_key="k-1",
        )
        again = services.action_submit(
            game_id=game.pk,
            user=user,
            action=action,
            expected_version=game.version,
            idempotency_key="k-1",
        )
        assert again.replayed
        assert again.view == first.view
        assert Move.objects.count() == 1
        assert Move.objects.get().idempotency_key == "k-1"  # the log says which request
        with pytest.raises(IdempotencyKeyReused):
            services.action_submit(
                game_id=game.pk, user=user, action={"type": "pass"}, idempotency_key="k-1"
            )

    def test_a_move_without_a_key_records_none(self, owner: Any, opponent: Any, third: Any) -> None:
        game = three_player_game(owner, opponent, third)
        user = user_to_act(game, [owner, opponent, third])
        action = selectors.game_view(game=game, user=user)["legal_actions"][0]
        services.action_submit(game_id=game.pk, user=user, action=action)
        assert Move.objects.get().idempotency_key == ""

    def test_an_open_game_takes_no_moves(self, owner: Any) -> None:
        game = services.game_create(creator=owner, player_count=3)
        with pytest.raises(GameNotActive):
            services.action_submit(game_id=game.pk, user=owner, action={"type": "pass"})


class TestBotsAndSettlement:
    def test_bots_answer_after_commit_until_the_human_is_to_act(
        self, owner: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(
                creator=owner,
                player_count=4,
                rated=False,
                seed="bots-after-commit",
                bots=[(1, "random"), (2, "random"), (3, "random")],
            )
        game.refresh_from_db()
        # Whoever rules first, the bots have played up to the human's first decision.
        assert game.to_act_seat == 0
        bot_moves = Move.objects.filter(game=game, actor_kind=ActorKind.BOT)
        assert all(m.bot_name == "random" and m.bot_version for m in bot_moves)

    def test_a_next_step_that_meets_a_database_outage_does_not_fail_the_committed_move(
        self,
        owner: Any,
        django_capture_on_commit_callbacks: Any,
        monkeypatch: pytest.MonkeyPatch,
        settings: Any,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded mode: steps run in-process
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(
                creator=owner,
                player_count=3,
                rated=False,
                seed="outage-after-commit",
                bots=[(1, "random"), (2, "random")],
            )
        game.refresh_from_db()
        assert game.to_act_seat == 0

        def outage(**kwargs: Any) -> bool:
            raise OperationalError("the database system is shutting down")

        monkeypatch.setattr(services, "bot_turn_play", outage)
        monkeypatch.setattr(services, "hand_settle", outage)
        action = selectors.game_view(game=game, user=owner)["legal_actions"][0]
        with django_capture_on_commit_callbacks(execute=True):
            result = services.action_submit(
                game_id=game.pk, user=owner, action=action, expected_version=game.version
            )
        game.refresh_from_db()
        assert game.version == result.view["version"]  # the move stands
        assert Move.objects.filter(game=game, actor_kind=ActorKind.HUMAN).count() == 1
        assert "not done" in caplog.text  # left for the deadline sweep, said so in the log

    def test_a_game_against_bots_runs_to_the_end_with_every_hand_settled_once(
        self, owner: Any, django_capture_on_commit_callbacks: Any
    ) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            game = services.game_create(
                creator=owner,
                player_count=3,
                rated=True,
                bots=[(1, "random"), (2, "random")],
            )
        rng = random.Random(7)
        for _ in range(500):
            game.refresh_from_db()
            if game.status == GameStatus.FINISHED:
                break
            view = selectors.game_view(game=game, user=owner)
            assert view["to_act"] == 0, "bots and settlement must have run after commit"
            with django_capture_on_commit_callbacks(execute=True):
                services.action_submit(
                    game_id=game.pk,
                    user=owner,
                    action=rng.choice(view["legal_actions"]),
                    expected_version=game.version,
                )
        assert game.status == GameStatus.FINISHED
        record = selectors.game_export(game=game)
        assert selectors.record_verify(record) == []
        settled = list(
            HandSettlement.objects.filter(game=game).values_list("hand_number", flat=True)
        )
        assert settled == list(range(1, len(record["hands"]) + 1))
        # One rating per distinct account (the two bot seats share the random bot's).
        assert Rating.objects.filter(variant="basic", player_count=3).count() == 2
        assert RatingChange.objects.filter(game=game).count() == 2

    def test_settling_a_hand_twice_settles_it_once(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        users = {0: owner, 1: opponent, 2: third}
        game = _play_until_settlement_due(game, users)
        hand = rules.view(rules.state_from_json(game.snapshot), None)["hand_number"]
        assert services.hand_settle(game_id=game.pk, hand_number=hand) is True
        version = Game.objects.get(pk=game.pk).version
        assert services.hand_settle(game_id=game.pk, hand_number=hand) is False
        assert Game.objects.get(pk=game.pk).version == version
        assert HandSettlement.objects.filter(game=game, hand_number=hand).count() == 1

    def test_a_stale_bot_turn_does_nothing(self, owner: Any) -> None:
        game = services.game_create(
            creator=owner,
            player_count=3,
            rated=False,
            seed="stale-bot",
            bots=[(1, "random"), (2, "random")],
        )
        game.refresh_from_db()
        assert services.bot_turn_play(game_id=game.pk, expected_version=game.version - 1) is False
        assert Game.objects.get(pk=game.pk).version == game.version

    def test_a_whole_game_of_three_humans_replays_from_its_export(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third, seed="whole-game")
        game = play_humans_until(game, {0: owner, 1: opponent, 2: third})
        assert game.status == GameStatus.FINISHED
        record = selectors.game_export(game=game)
        assert record["seed"] == "whole-game"
        assert selectors.record_verify(record) == []
        assert game.result == record["result"]

    def test_the_snapshot_keeps_only_the_last_settled_hand_and_the_history_the_rest(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = play_humans_until(
            three_player_game(owner, opponent, third, seed="history-split"),
            {0: owner, 1: opponent, 2: third},
        )
        assert game.snapshot is not None
        whole = selectors.game_state(game)
        settled = len(whole.history)
        assert settled >= 3  # enough hands for the split to matter
        assert len(game.snapshot["history"]) == 1
        assert game.snapshot["history_start"] == settled - 1
        assert GameHistory.objects.get(game=game).hands == rules.hand_records_json(whole)
        assert len(json.dumps(game.snapshot)) < len(json.dumps(rules.state_to_json(whole))) / 2
        # The export (full record) holds every hand, each as its settlement recorded it.
        record = selectors.game_export(game=game)
        payments = dict(
            HandSettlement.objects.filter(game=game).values_list("hand_number", "payments")
        )
        assert [h["payments"] for h in record["hands"]] == [
            payments[n] for n in range(1, settled + 1)
        ]

    def test_a_game_stored_in_the_older_whole_snapshot_form_plays_on(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        """Snapshots written before the split held every settled hand's record and no
        ``history_start``: such a game keeps playing, and its first stored move moves the
        records to GameHistory."""
        users = {0: owner, 1: opponent, 2: third}
        game = three_player_game(owner, opponent, third, seed="older-form")
        for _ in range(3):  # three hands settled, the fourth dealt
            game = _play_until_settlement_due(game, users)
            hand = selectors.game_view(game=game, user=owner)["hand_number"]
            assert services.hand_settle(game_id=game.pk, hand_number=hand)
            game.refresh_from_db()
        assert game.snapshot is not None
        assert game.snapshot["history_start"] == 2
        older = rules.state_to_json(selectors.game_state(game))
        del older["history_start"]
        Game.objects.filter(pk=game.pk).update(snapshot=older)
        GameHistory.objects.filter(game=game).delete()
        game.refresh_from_db()
        assert len(rules.full_record(selectors.game_state(game))["hands"]) == 4  # as it is

        game = play_humans_until(game, users)
        assert game.status == GameStatus.FINISHED
        assert selectors.record_verify(selectors.game_export(game=game)) == []
        assert game.snapshot is not None
        assert len(game.snapshot["history"]) == 1

    def test_record_verify_notices_a_tampered_seed(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = play_humans_until(
            three_player_game(owner, opponent, third), {0: owner, 1: opponent, 2: third}
        )
        record = selectors.game_export(game=game)
        record["seed"] = "something-else"
        problems = selectors.record_verify(record)
        assert "the seed does not match the published seed commitment" in problems


def _play_until_settlement_due(game: Game, users: dict[int, Any]) -> Game:
    rng = random.Random(3)
    while game.to_act_seat is not None:
        view = selectors.game_view(game=game, user=users[game.to_act_seat])
        services.action_submit(
            game_id=game.pk,
            user=users[game.to_act_seat],
            action=rng.choice(view["legal_actions"]),
            expected_version=game.version,
        )
        game.refresh_from_db()
    return game


class TestRatings:
    def test_a_rated_game_rates_its_players_in_its_own_pool_when_it_finishes(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third, seed="rated-pool")
        Game.objects.filter(pk=game.pk).update(rated=True)  # a fixed seed keeps it quick
        users = {0: owner, 1: opponent, 2: third}
        game = play_humans_until(game, users)
        assert game.status == GameStatus.FINISHED
        ratings = Rating.objects.all()
        assert {(r.variant, r.player_count) for r in ratings} == {("basic", 3)}
        assert sorted(r.player.user.username for r in ratings) == ["opponent", "owner", "third"]
        assert all(r.games == 1 for r in ratings)
        changes = RatingChange.objects.filter(game=game)
        assert changes.count() == 3
        assert all((c.mu_after, c.sigma_after) == (c.rating.mu, c.rating.sigma) for c in changes)
        assert game.result is not None
        winner = game.seats.get(number=game.result["winner_seat"]).player
        best = max(ratings, key=lambda r: r.mu)
        assert best.player == winner

    def test_nothing_is_rated_before_the_end(self, owner: Any, opponent: Any, third: Any) -> None:
        game = three_player_game(owner, opponent, third, seed="rated-later")
        Game.objects.filter(pk=game.pk).update(rated=True)
        game.refresh_from_db()
        users = [owner, opponent, third]
        view = selectors.game_view(game=game, user=user_to_act(game, users))
        services.action_submit(
            game_id=game.pk, user=user_to_act(game, users), action=view["legal_actions"][0]
        )
        assert not Rating.objects.exists()

    def test_an_unrated_game_changes_no_rating(self, owner: Any, opponent: Any, third: Any) -> None:
        game = play_humans_until(
            three_player_game(owner, opponent, third, seed="unrated"),
            {0: owner, 1: opponent, 2: third},
        )
        assert game.status == GameStatus.FINISHED
        assert not Rating.objects.exists()
        assert not RatingChange.objects.exists()


class TestDisputes:
    def test_a_seated_player_disputes_a_running_game(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        dispute = services.dispute_create(
            game_id=game.pk, user=opponent, reason="  The bot cheated  "
        )
        assert dispute.reason == "The bot cheated"
        assert dispute.status == "open"

    def test_an_outsider_cannot_dispute(
        self, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        with pytest.raises(NotSeated):
            services.dispute_create(game_id=game.pk, user=outsider, reason="no")

    def test_disputes_close_seven_days_after_the_end(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = three_player_game(owner, opponent, third)
        Game.objects.filter(pk=game.pk).update(
            status=GameStatus.FINISHED, finished_at=timezone.now() - timedelta(days=8)
        )
        with pytest.raises(DisputeNotAllowed, match="up to 7 days"):
            services.dispute_create(game_id=game.pk, user=owner, reason="late")

    @pytest.mark.parametrize(
        ("ended_ago", "allowed"),
        [
            (timedelta(days=7) - timedelta(minutes=1), True),
            (timedelta(days=7) + timedelta(minutes=1), False),
        ],
        ids=["7-days-minus-a-minute", "7-days-plus-a-minute"],
    )
    def test_the_seven_day_window_ends_to_the_minute(
        self, owner: Any, opponent: Any, third: Any, ended_ago: timedelta, allowed: bool
    ) -> None:
        game = play_humans_until(
            three_player_game(owner, opponent, third), {0: owner, 1: opponent, 2: third}
        )
        assert game.status == GameStatus.FINISHED
        Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - ended_ago)
        if allowed:
            dispute = services.dispute_create(game_id=game.pk, user=third, reason="Just in time")
            assert dispute.status == "open"
        else:
            with pytest.raises(DisputeNotAllowed, match="up to 7 days"):
                services.dispute_create(game_id=game.pk, user=third, reason="Too late")
            assert not game.disputes.exists()

    def test_a_void_game_cannot_be_disputed(self, owner: Any, opponent: Any, third: Any) -> None:
        game = three_player_game(owner, opponent, third)
        Game.objects.filter(pk=game.pk).update(status=GameStatus.VOID)
        with pytest.raises(DisputeNotAllowed, match="void game cannot be disputed"):
            services.dispute_create(game_id=game.pk, user=owner, reason="again")

    def test_an_empty_reason_is_refused(self, owner: Any, opponent: Any, third: Any) -> None:
        game = three_player_game(owner, opponent, third)
        with pytest.raises(InvalidRequest, match="may not be empty"):
            services.dispute_create(game_id=game.pk, user=owner, reason="   ")


class TestTokens:
    def test_a_token_is_stored_hashed_and_authenticates(self, owner: Any) -> None:
        token, raw = services.token_issue(user=owner, name="laptop", scopes=["read"])
        stored = ApiToken.objects.get(pk=token.pk)
        assert raw not in (stored.token_hash, stored.prefix, stored.name)
        assert raw.startswith(stored.prefix)
        found = services.token_authenticate(raw=raw)
        assert found is not None
        assert found.user == owner
        assert found.scopes == ["read"]
        assert found.last_used_at is not None

    def test_a_revoked_token_no_longer_authenticates(self, owner: Any) -> None:
        token, raw = services.token_issue(user=owner)
        services.token_revoke(token_id=token.pk, user=owner)
        assert services.token_authenticate(raw=raw) is None

    def test_unknown_scopes_are_refused(self, owner: Any) -> None:
        with pytest.raises(InvalidRequest, match="Scopes must be chosen from read, play"):
            services.token_issue(user=owner, scopes=["admin"])
