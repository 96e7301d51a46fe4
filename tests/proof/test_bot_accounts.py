"""Issue 26, item 1 (critical): the built-in bots' accounts cannot be taken.

Before the fix, ``bot-random`` was created on its first use, so signing up under that
name first made the attacker the account the bot later played under: they read the
bot's hand in games they never joined, and their moves for it were accepted. Now the
accounts exist from migration 0011, every ``bot-`` name is reserved at sign-up (any case,
NFKC, invisible characters), and a seat a bot plays under its own account is nobody's
seat, whoever holds a session or token for that account.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

import engine.indulgence as rules
from games import services
from games.models import ApiToken, Game, Player
from tests.api.support import assert_error, card_ids, fingerprint, game_url

pytestmark = pytest.mark.django_db

BOT_NAMES = ("bot-random", "bot-heuristic", "bot-ismcts")


def _sign_up(client: Client, username: str) -> Any:
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "password1": "a long Pa55phrase!",
            "password2": "a long Pa55phrase!",
            "language": "en",
        },
    )


@pytest.mark.django_db(transaction=True)
def test_the_bot_accounts_exist_before_any_game_uses_them() -> None:
    # Whatever ran before in this process (a transactional test flushes every table,
    # migration rows included), migrating from 0010 on, with no bot account left, makes them.
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0010_documents_as_text")])
    get_user_model().objects.filter(username__in=BOT_NAMES).delete()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    for name in BOT_NAMES:
        user = get_user_model().objects.get(username=name)
        assert not user.has_usable_password(), name
        player = Player.objects.get(user=user)
        assert (player.is_bot, player.bot_kind) == (True, name.removeprefix("bot-"))


@pytest.mark.parametrize(
    "username",
    ["bot-random", "BOT-Random", "ｂｏｔ-random", "bot-ismcts", "Bot-someday", "bot\u200b-random"],
)
def test_no_one_can_sign_up_under_a_bot_name(username: str) -> None:
    users_before = get_user_model().objects.count()
    response = _sign_up(Client(), username)
    assert response.status_code == 200  # the form again, with the reason
    assert get_user_model().objects.count() == users_before
    page = response.content.decode()
    # A name a bot holds is "taken"; any other bot- name is reserved for bots.
    reasons = ("built-in bots", "already exists", "valid username", "invisible characters")
    assert any(why in page for why in reasons)


def test_a_name_merely_containing_bot_is_free() -> None:
    response = _sign_up(Client(), "robotnik")
    assert response.status_code == 302
    assert get_user_model().objects.filter(username="robotnik").exists()


@pytest.fixture
def bot_game(owner: Any) -> Game:
    game = services.game_create(
        creator=owner, player_count=3, rated=False, bots=[(1, "random"), (2, "random")]
    )
    game.refresh_from_db()
    return game


def test_whoever_holds_a_bot_accounts_session_sees_no_hand_and_cannot_move(
    bot_game: Game,
) -> None:
    # Defence in depth: even with the account in hand (here a forced log-in), the bot's
    # seats are no one's seats.
    bot_user = get_user_model().objects.get(username="bot-random")
    client = Client()
    client.force_login(bot_user)
    view = client.get(game_url(bot_game)).json()
    assert view["my_seat"] is None
    assert view["my_hand"] == []
    assert view["legal_actions"] == []
    page = client.get(f"/games/{bot_game.pk}/").content.decode()
    state = rules.state_from_json(bot_game.snapshot)
    for seat in (1, 2):
        hand = rules.view(state, seat)["my_hand"]
        assert hand
        for card in hand:
            assert f'"{card}"' not in page
    before = fingerprint(bot_game)
    bot_game.refresh_from_db()
    response = client.post(
        game_url(bot_game, "actions"),
        {"action": {"type": "pass"}},
        content_type="application/json",
    )
    assert_error(response, 403, "not_seated")
    assert fingerprint(bot_game) == before


def test_a_token_issued_for_a_bot_account_cannot_move_for_its_seats(
    bot_game: Game, bearer: Any
) -> None:
    bot_user = get_user_model().objects.get(username="bot-random")
    client = bearer(bot_user)
    view = client.get(game_url(bot_game)).json()
    assert view["my_seat"] is None
    assert not list(card_ids(view.get("my_hand")))
    before = fingerprint(bot_game)
    response = client.post(
        game_url(bot_game, "actions"), {"action": {"type": "pass"}}, format="json"
    )
    assert_error(response, 403, "not_seated")
    assert fingerprint(bot_game) == before
    dispute = client.post(game_url(bot_game, "disputes"), {"reason": "spam"}, format="json")
    assert dispute.status_code in (403, 404)
    assert ApiToken.objects.filter(user=bot_user).exists()  # the token itself was valid


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_back_a_bot_name_someone_signed_up_under() -> None:
    # Before migration 0011 an attacker could sign up as "Bot-Heuristic" with a password
    # and a token; the migration makes that the bot's account, locked: no usable password
    # (their sessions no longer verify) and the tokens revoked.
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0010_documents_as_text")])
    old = executor.loader.project_state([("games", "0010_documents_as_text")]).apps
    try:
        get_user_model().objects.filter(username="bot-heuristic").delete()
        impostor = old.get_model("auth", "User").objects.create(
            username="Bot-Heuristic", password=make_password("hunter22")
        )
        old.get_model("games", "Player").objects.create(user_id=impostor.pk, display_name="me")
        old.get_model("games", "ApiToken").objects.create(
            user_id=impostor.pk, token_hash="f" * 64, prefix="ind_ffffffff", scopes=["play"]
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    user = get_user_model().objects.get(pk=impostor.pk)
    assert user.username == "bot-heuristic"
    assert not user.has_usable_password()
    assert ApiToken.objects.get(user=user).revoked_at is not None
    assert (user.player.is_bot, user.player.bot_kind) == (True, "heuristic")
    assert services.bot_player(kind="heuristic").user_id == user.pk
