"""Issue 21, item 4: a first game explains itself. What a player reads at the moments that
matter: the sin decision, the end of a hand, the end of the game, the history and the
replay, and the small words (plurals, names, open seats, the leaderboard's pool)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.test import Client

import engine.indulgence as rules
from games import selectors, services
from games.models import Game, GameStatus, Invitation, RatingChange
from games.web import indulgence_vocab, table
from tests.api.support import finished_game
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
JA = {"HTTP_ACCEPT_LANGUAGE": "ja"}


def text_of(response: Any) -> str:
    """The page's text as a reader sees it: tags dropped, entities decoded, spaces joined."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def drive(
    game: Game,
    users: dict[int, Any],
    until: Callable[[Game, dict[str, Any]], bool],
    *,
    rng: random.Random,
    sin: bool = False,
    max_steps: int = 3000,
) -> dict[str, Any]:
    """Play the game through the services (people: a random legal action, never a sin
    unless ``sin``; built-in bots: their own turn; settlements) until ``until(game,
    spectator view)``; returns that view."""
    for _ in range(max_steps):
        game.refresh_from_db()
        view = selectors.game_view(game=game, user=users[min(users)])
        if until(game, view):
            return view
        if game.status != GameStatus.IN_PROGRESS:
            raise AssertionError("the game ended first")
        seat = game.to_act_seat
        if seat is None:
            services.hand_settle(game_id=game.pk, hand_number=view["hand_number"])
        elif seat not in users:
            assert services.bot_turn_play(game_id=game.pk, expected_version=game.version)
        else:
            actions = selectors.game_view(game=game, user=users[seat])["legal_actions"]
            if not sin:
                actions = [a for a in actions if a["type"] != "sin"] or actions
            services.action_submit(
                game_id=game.pk,
                user=users[seat],
                action=rng.choice(actions),
                expected_version=game.version,
            )
    raise AssertionError("the situation never came")


def my_sin_decision_after_a_pass(game: Game, view: dict[str, Any]) -> bool:
    return bool(view["phase"] == "sin_decision" and game.to_act_seat == 0 and view["sin_decisions"])


def game_over(game: Game, view: dict[str, Any]) -> bool:
    return game.status == GameStatus.FINISHED


def hand_settled(number: int) -> Callable[[Game, dict[str, Any]], bool]:
    def settled(game: Game, view: dict[str, Any]) -> bool:
        last = view.get("last_settlement")
        return bool(last and last["hand"] == number)

    return settled


# --- the sin decision --------------------------------------------------------------------------


class TestSinDecision:
    def test_it_shows_the_sin_side_the_reward_the_penalty_and_who_passed(
        self, bot_game: Game, owner: Any
    ) -> None:
        view = drive(bot_game, {0: owner}, my_sin_decision_after_a_pass, rng=random.Random(3))
        [edict] = view["edicts_in_play"]
        page = text_of(client_for(owner).get(f"/games/{bot_game.pk}/"))
        assert "What a sin means this hand" in page
        assert f"Sin: {edict['sin_text']}" in page
        assert f"Edict: {edict['text']}" in page
        assert (
            "If the sin succeeds, every other player, the Ruler included, pays the sinner "
            f"{edict['sin_reward']} florins." in page
        )
        assert f"If it fails, the sinner pays the Ruler {edict['fail_penalty']} florins." in page
        passed = [f"Random bot #{d['seat']}" for d in view["sin_decisions"]]
        assert f"Passed so far: {', '.join(passed)}." in page
        for name in passed:
            assert f"{name}: passed" in page
        assert "you: deciding now" in page
        assert "Sin: take the edict's Sin side and the Indulgence ring" in page

    def test_in_japanese(self, bot_game: Game, owner: Any) -> None:
        view = drive(bot_game, {0: owner}, my_sin_decision_after_a_pass, rng=random.Random(3))
        [edict] = view["edicts_in_play"]
        services.player_language_set(user=owner, language="ja")
        page = text_of(client_for(owner).get(f"/games/{bot_game.pk}/"))
        assert "このハンドで罪を受けるとは" in page
        assert f"君主を含む他の全員が罪人に{edict['sin_reward']}フロリンずつ支払います。" in page
        assert f"失敗すれば、罪人が君主に{edict['fail_penalty']}フロリンを支払います。" in page
        assert "パスした人：ランダムボット #" in page

    def test_a_spectator_reads_the_same_terms_without_the_buttons(
        self, bot_game: Game, owner: Any, outsider: Any
    ) -> None:
        drive(bot_game, {0: owner}, my_sin_decision_after_a_pass, rng=random.Random(3))
        page = text_of(client_for(outsider).get(f"/games/{bot_game.pk}/"))
        assert "What a sin means this hand" in page
        assert "If it fails, the sinner pays the Ruler" in page
        assert "Sin: take the edict's Sin side" not in page


# --- the end of a hand -------------------------------------------------------------------------


class TestHandOver:
    def test_the_table_stays_on_the_settled_hand_until_the_player_moves_on(
        self, bot_game: Game, owner: Any, outsider: Any
    ) -> None:
        drive(bot_game, {0: owner}, hand_settled(1), rng=random.Random(4))
        summary = selectors.hand_summaries(game=bot_game)[0]
        client = client_for(owner)
        page = text_of(client.get(f"/games/{bot_game.pk}/"))
        assert "Hand 1 is over" in page
        last = summary["tricks"][-1]
        winner = table.seat_name(selectors.game_view(game=bot_game, user=owner), last["winner"])
        assert f"The last trick: {winner} took it" in page
        html = client.get(f"/games/{bot_game.pk}/").content.decode()
        for play in last["plays"]:
            assert f'aria-label="{indulgence_vocab.card_label(play["card"])}' in html
        [settlement] = selectors.hand_settlements(game=bot_game)
        for payment in settlement.payments:
            assert indulgence_vocab.payment_reason(payment["reason"]) in page
        if not settlement.payments:
            assert "Nobody paid anything." in page
        assert "Florins after the hand:" in page
        assert "Continue to hand 2" in page
        assert "Your hand" not in page  # the next deal waits behind the button

        # The game goes on meanwhile (bots, settlements): the page still waits for me.
        drive(bot_game, {0: owner}, lambda g, v: g.to_act_seat == 0, rng=random.Random(4))
        assert "Hand 1 is over" in text_of(client.get(f"/games/{bot_game.pk}/"))
        assert "Hand 1 is over" not in text_of(client_for(outsider).get(f"/games/{bot_game.pk}/"))

        moved_on = client.post(f"/games/{bot_game.pk}/seen", {"hand": 1}, **HTMX)
        assert moved_on.status_code == 200
        after = text_of(moved_on)
        assert "Hand 1 is over" not in after
        assert "Your hand" in after
        assert "Your turn" in after
        assert "Settlement of hand 1" in after  # folded away under the new deal
        assert "Hand 1 is over" not in text_of(client.get(f"/games/{bot_game.pk}/"))

    def test_without_javascript_continue_goes_back_to_the_table(
        self, bot_game: Game, owner: Any
    ) -> None:
        drive(bot_game, {0: owner}, hand_settled(1), rng=random.Random(4))
        client = client_for(owner)
        response = client.post(f"/games/{bot_game.pk}/seen", {"hand": 1})
        assert response.status_code == 302
        assert response["Location"] == f"/games/{bot_game.pk}/"
        assert "Hand 1 is over" not in text_of(client.get(f"/games/{bot_game.pk}/"))

    def test_a_nonsense_hand_number_is_refused(self, bot_game: Game, owner: Any) -> None:
        response = client_for(owner).post(f"/games/{bot_game.pk}/seen", {"hand": "²"})
        assert response.status_code == 400


# --- the end of the game -----------------------------------------------------------------------


class TestGameOver:
    def test_final_standings_with_florins_rating_changes_and_what_next(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = finished_game(owner, opponent, third, rated=True)
        result = game.result
        assert result is not None
        page = text_of(client_for(owner).get(f"/games/{game.pk}/"))
        assert "Final standings" in page
        places = selectors.places(result)
        names = {0: "owner", 1: "opponent", 2: "third"}
        labels = {1: "1st", 2: "2nd", 3: "3rd"}
        changes = {
            c.rating.player.user.username: c
            for c in RatingChange.objects.filter(game=game).select_related("rating__player__user")
        }
        assert len(changes) == 3
        for seat, place in places.items():
            change = changes[names[seat]]
            before = change.mu_before - 3 * change.sigma_before
            after = change.mu_after - 3 * change.sigma_after
            row = (
                f"{labels[place]} {names[seat]} {result['florins'][str(seat)]} "
                f"{after - before:+.2f} → {after:.2f}"
            )
            assert row in page
        assert "Play again against 3 bots" in page
        assert "Rematch: the same table again" in page

    def test_a_rematch_seats_me_and_challenges_the_others(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = finished_game(owner, opponent, third)
        response = client_for(opponent).post(f"/games/{game.pk}/rematch")
        rematch = Game.objects.exclude(pk=game.pk).get()
        assert response.status_code == 302
        assert response["Location"] == f"/games/{rematch.pk}/"
        assert (rematch.player_count, rematch.variant, rematch.rated) == (3, "expert", False)
        assert rematch.created_by == opponent
        assert rematch.status == GameStatus.OPEN
        invited = set(
            Invitation.objects.filter(game=rematch).values_list("user__username", flat=True)
        )
        assert invited == {"owner", "third"}

    def test_a_rematch_against_bots_starts_at_once(self, bot_game: Game, owner: Any) -> None:
        drive(bot_game, {0: owner}, game_over, rng=random.Random(1))
        client_for(owner).post(f"/games/{bot_game.pk}/rematch")
        rematch = Game.objects.exclude(pk=bot_game.pk).get()
        assert rematch.status == GameStatus.IN_PROGRESS
        kinds = list(rematch.seats.order_by("number").values_list("bot_kind", flat=True))
        assert kinds == ["", "random", "random", "random"]

    def test_only_its_players_may_ask_for_a_rematch(
        self, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        game = finished_game(owner, opponent, third)
        client = client_for(outsider)
        client.post(f"/games/{game.pk}/rematch")
        assert Game.objects.count() == 1
        page = text_of(client.get(f"/games/{game.pk}/"))
        assert "Only the people who played a game can ask for a rematch." in page

    def test_the_profile_shows_the_place_not_just_lost(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = finished_game(owner, opponent, third)
        assert game.result is not None
        places = selectors.places(game.result)
        labels = {1: "1st", 2: "2nd", 3: "3rd"}
        for seat, name in ((0, "owner"), (1, "opponent"), (2, "third")):
            page = text_of(Client().get(f"/players/{name}/"))
            assert f"{labels[places[seat]]} of 3" in page
            assert " lost " not in page
            assert " won " not in page

    def test_places_put_the_winner_alone_first_and_share_equal_florins(self) -> None:
        result = {"winner_seat": 2, "florins": {"0": 20, "1": 35, "2": 35, "3": 20}}
        assert selectors.places(result) == {2: 1, 1: 2, 0: 3, 3: 3}


# --- history and replay ----------------------------------------------------------------------


class TestHistoryAndReplay:
    def test_the_history_tells_each_hand_ruler_edicts_sinner_tricks_and_payments(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        game = finished_game(owner, opponent, third)
        record = rules.full_record(selectors.game_state(game))
        page = text_of(Client().get(f"/games/{game.pk}/history"))
        names = {0: "owner", 1: "opponent", 2: "third"}
        chunks = page.split("Hand ")
        for hand in record["hands"]:
            chunk = next(c for c in chunks if c.startswith(f"{hand['number']} Ruler:"))
            assert f"Ruler: {names[hand['ruler']]}" in chunk
            for edict in hand["edicts_in_force"]:
                assert indulgence_vocab.edict_title(edict) in chunk
            if hand["sinner"] is None:
                assert "Nobody sinned" in chunk
            else:
                assert f"Sinner: {names[hand['sinner']]}" in chunk
            tricks = len(hand["tricks"])
            assert f"{tricks} trick{'s' if tricks != 1 else ''}" in chunk
            for trick in hand["tricks"]:
                plays = " · ".join(
                    f"{names[p['seat']]}: {indulgence_vocab.card_label(p['card'])}"
                    for p in trick["plays"]
                )
                assert f"{plays} → taken by {names[trick['winner']]}" in chunk
            for payment in hand["payments"]:
                assert indulgence_vocab.payment_reason(payment["reason"]) in chunk
            assert f"Replay hand {hand['number']}" in chunk

    def test_the_history_is_public_while_the_game_is_played_and_shows_no_deal(
        self, bot_game: Game, owner: Any, outsider: Any
    ) -> None:
        drive(bot_game, {0: owner}, hand_settled(2), rng=random.Random(5))
        page = text_of(client_for(outsider).get(f"/games/{bot_game.pk}/history"))
        assert "Hand 1" in page
        assert "Hand 2" in page
        first_ruler = selectors.hand_summaries(game=bot_game)[0]["ruler"]
        ruler = "owner" if first_ruler == 0 else f"Random bot #{first_ruler}"
        assert f"Hand 1 Ruler: {ruler} ·" in page
        assert "Replay hand" not in page  # the replay waits for the end of the game
        # Every card named on the page was played in a trick of a settled hand.
        played = {
            p["card"]
            for hand in selectors.hand_summaries(game=bot_game)
            for trick in hand["tricks"]
            for p in trick["plays"]
        }
        named = set(re.findall(r"\b(Borgia|Medici|Orsini|Sforza) (\d)\b", page))
        shown = {f"{family[0]}{rank}" for family, rank in named}
        assert shown <= played

    def test_the_replay_jumps_to_any_hand(self, owner: Any, opponent: Any, third: Any) -> None:
        game = finished_game(owner, opponent, third)
        client = Client()
        page = client.get(f"/games/{game.pk}/replay").content.decode()
        hands = len(selectors.hand_summaries(game=game))
        links = re.findall(r'<a href="\?move=(\d+)"[^>]*>Hand (\d+)</a>', page)
        assert [int(h) for _m, h in links] == list(range(1, hands + 1))
        for move, hand in links:
            step = text_of(client.get(f"/games/{game.pk}/replay?move={move}"))
            assert f"Hand {hand} of 9" in step
            if hand != "1":
                assert "The hand was settled and the next one dealt." in step

    def test_bots_have_one_name_everywhere_and_moves_name_their_seat(
        self, bot_game: Game, owner: Any
    ) -> None:
        drive(bot_game, {0: owner}, game_over, rng=random.Random(1))
        client = client_for(owner)
        table_page = text_of(client.get(f"/games/{bot_game.pk}/"))
        replay = client.get(f"/games/{bot_game.pk}/replay")
        lobby = text_of(client.get("/lobby/"))
        for page in (table_page, text_of(replay), lobby):
            assert "bot-random" not in page
        for seat in (1, 2, 3):
            assert f"Random bot #{seat}" in table_page
            assert f"Random bot #{seat}" in text_of(replay)
        assert "owner, Random bot #1, Random bot #2, Random bot #3" in lobby
        moves = list(bot_game.moves.order_by("seq").values_list("seat", "action"))
        human = next(i for i, (seat, action) in enumerate(moves, start=1) if seat == 0)
        bot = next(i for i, (seat, action) in enumerate(moves, start=1) if seat == 2)
        assert "owner (seat 0) " in text_of(client.get(f"/games/{bot_game.pk}/replay?move={human}"))
        assert "Random bot #2 " in text_of(client.get(f"/games/{bot_game.pk}/replay?move={bot}"))


# --- the small words -------------------------------------------------------------------------


class TestWords:
    def test_one_trick_and_one_card_are_singular(self) -> None:
        assert table.seat_counts(1, 1) == "1 card, 1 trick"
        assert table.seat_counts(9, 0) == "9 cards, 0 tricks"

    def test_the_seats_say_1_trick_on_the_page_in_english_and_japanese(
        self, bot_game: Game, owner: Any
    ) -> None:
        def one_trick(game: Game, view: dict[str, Any]) -> bool:
            return 1 in view["trick_counts"].values() and game.to_act_seat == 0

        view = drive(bot_game, {0: owner}, one_trick, rng=random.Random(2))
        seat = next(int(s) for s, n in view["trick_counts"].items() if n == 1)
        cards = view["hand_counts"][str(seat)]
        name = "you" if seat == 0 else f"Random bot #{seat}"
        client = client_for(owner)
        page = text_of(client.get(f"/games/{bot_game.pk}/?part=seats", **HTMX))
        assert f"{cards} card{'s' if cards != 1 else ''}, 1 trick" in page, name
        assert "1 tricks" not in page
        services.player_language_set(user=owner, language="ja")
        japanese = text_of(client.get(f"/games/{bot_game.pk}/?part=seats", **HTMX))
        assert f"{cards}枚、1トリック" in japanese

    def test_a_table_waiting_for_players_shows_its_open_seats(self, owner: Any) -> None:
        game = services.game_create(creator=owner, player_count=4, bots=[(3, "heuristic")])
        page = text_of(client_for(owner).get(f"/games/{game.pk}/"))
        assert "Waiting for 2 more players." in page
        assert "Seat 1: open, waiting for a player" in page
        assert "Seat 2: open, waiting for a player" in page
        assert "Heuristic bot #3" in page
        for empty in ("Your hand", "Edict row", "Edicts in force", "Game history"):
            assert empty not in page

    def test_the_leaderboard_opens_on_a_pool_that_has_games(
        self, owner: Any, opponent: Any, third: Any
    ) -> None:
        empty = text_of(Client().get("/leaderboard/"))
        assert "No rated game has been finished in this pool yet." in empty
        finished_game(owner, opponent, third, rated=True)  # expert, 3 players
        response = Client().get("/leaderboard/")
        page = text_of(response)
        assert "No rated game has been finished" not in page
        for name in ("owner", "opponent", "third"):
            assert name in page
        html = response.content.decode()
        assert re.search(r'<option value="expert" selected>', html)
        assert re.search(r'<option value="3" selected>', html)

    def test_settings_show_the_authorization_header_escaped(self, owner: Any) -> None:
        response = client_for(owner).get("/settings/")
        assert "<code>Authorization: Bearer &lt;token&gt;</code>" in response.content.decode()
        assert "send a token in this header: Authorization: Bearer <token>" in text_of(response)

    def test_bot_names_are_translated(self, bot_game: Game, owner: Any) -> None:
        services.player_language_set(user=owner, language="ja")
        client = client_for(owner)
        page = text_of(client.get(f"/games/{bot_game.pk}/"))
        assert "ランダムボット #1" in page
        assert "Random bot" not in page
        assert "bot-random" not in page
        board = text_of(client.get("/players/bot-random/"))
        assert "ランダムボット" in board
        assert "bot-random" in board
