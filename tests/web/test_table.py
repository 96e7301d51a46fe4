"""The game table: full page and htmx partials, actions, live updates, hidden cards."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client

import engine.indulgence as rules
from engine.cards import ids_of
from games import selectors, services
from games.models import Game, Move
from games.web import indulgence_vocab
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(game: Game, suffix: str = "") -> str:
    return f"/games/{game.pk}/{suffix}"


def post_action(client: Client, game: Game, action: dict[str, Any], **extra: Any) -> Any:
    game.refresh_from_db()
    data = {"action": json.dumps(action), "version": extra.pop("version", game.version)}
    return client.post(f"/games/{game.pk}/act", data, **extra)


def users_by_seat(game: Game, *users: Any) -> dict[int, Any]:
    return {selectors.seat_of(game=game, user=u): u for u in users}  # type: ignore[misc]


class TestPage:
    def test_the_full_page_is_a_whole_document_with_the_table(
        self, owner_client: Client, three_humans: Game
    ) -> None:
        html = owner_client.get(table_url(three_humans)).content.decode()
        assert html.startswith("<!doctype html>")
        assert 'id="table"' in html
        assert 'hx-headers=\'{"X-CSRFToken"' in html
        assert 'id="announcer"' in html
        assert f'sse-connect="/api/v1/games/{three_humans.pk}/stream"' in html

    def test_an_htmx_request_gets_the_table_partial_only(
        self, owner_client: Client, three_humans: Game
    ) -> None:
        html = owner_client.get(table_url(three_humans), **HTMX).content.decode()
        assert html.lstrip().startswith('<section id="table"')
        assert "<html" not in html
        assert f'hx-get="/games/{three_humans.pk}/?since={three_humans.version}"' in html
        # table.js polls; a fetch never queues (a queued fetch could drop a move: streams.md)
        assert 'hx-trigger="sse:message queue:none, indulgence:poll queue:none"' in html

    def test_each_region_is_a_named_partial(self, owner_client: Client, three_humans: Game) -> None:
        html = owner_client.get(table_url(three_humans) + "?part=hand", **HTMX).content.decode()
        assert html.lstrip().startswith('<section id="hand"')
        assert 'id="edicts"' not in html

    def test_the_ruler_sees_the_edict_row_with_texts_and_choose_buttons(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        seats = users_by_seat(three_humans, owner, opponent, third)
        ruler = seats[three_humans.to_act_seat]  # type: ignore[index]
        view = selectors.game_view(game=three_humans, user=ruler)
        html = client_for(ruler).get(table_url(three_humans)).content.decode()
        for edict in view["edict_row"]:
            assert edict["text"] in html
            assert edict["sin_text"] in html
        assert html.count("Choose this edict") == len(view["edict_row"])
        assert "Your turn" in html

    def test_a_spectator_sees_no_hand_and_no_controls(
        self, three_humans: Game, outsider: Any
    ) -> None:
        html = client_for(outsider).get(table_url(three_humans)).content.decode()
        assert "You are watching this game" in html
        assert "Choose this edict" not in html
        assert 'class="card' not in html

    def test_an_anonymous_visitor_may_watch(self, client: Client, three_humans: Game) -> None:
        response = client.get(table_url(three_humans))
        assert response.status_code == 200
        assert "You are watching this game" in response.content.decode()

    def test_a_missing_game_is_404(self, owner_client: Client) -> None:
        assert owner_client.get("/games/999999/").status_code == 404

    def test_an_open_game_invites_outsiders_to_sit_down(self, owner: Any, outsider: Any) -> None:
        game = services.game_create(creator=owner, player_count=3, rated=False)
        html = client_for(outsider).get(table_url(game)).content.decode()
        assert "Waiting for 2 more players." in html
        assert "Take a seat at this game" in html
        response = client_for(outsider).post(f"/games/{game.pk}/join")
        assert response.status_code == 302
        assert selectors.seat_of(game=game, user=outsider) == 1


class TestActions:
    def test_a_legal_action_is_applied_and_the_partial_comes_back(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        ruler = users_by_seat(three_humans, owner, opponent, third)[three_humans.to_act_seat]  # type: ignore[index]
        view = selectors.game_view(game=three_humans, user=ruler)
        before = three_humans.version
        response = post_action(client_for(ruler), three_humans, view["legal_actions"][0], **HTMX)
        assert response.status_code == 200
        html = response.content.decode()
        three_humans.refresh_from_db()
        assert three_humans.version == before + 1
        assert html.lstrip().startswith('<section id="table"')
        assert f'data-version="{three_humans.version}"' in html
        assert 'hx-swap-oob="innerHTML:#announcer"' in html
        assert 'class="error"' not in html

    def test_an_illegal_action_is_refused_inline_and_nothing_changes(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        ruler = users_by_seat(three_humans, owner, opponent, third)[three_humans.to_act_seat]  # type: ignore[index]
        before = three_humans.version
        response = post_action(
            client_for(ruler), three_humans, {"type": "choose_edict", "edict": "no-such"}, **HTMX
        )
        assert response.status_code == 400
        html = response.content.decode()
        assert 'class="error" role="alert"' in html
        assert "no-such" in html
        three_humans.refresh_from_db()
        assert three_humans.version == before
        assert not Move.objects.filter(game=three_humans).exists()

    def test_it_is_not_your_turn_says_so(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        seats = users_by_seat(three_humans, owner, opponent, third)
        waiting = next(u for s, u in seats.items() if s != three_humans.to_act_seat)
        response = post_action(client_for(waiting), three_humans, {"type": "pass"}, **HTMX)
        assert response.status_code == 409
        assert "turn" in response.content.decode()

    def test_a_stale_version_is_refused_with_a_clear_message(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        ruler = users_by_seat(three_humans, owner, opponent, third)[three_humans.to_act_seat]  # type: ignore[index]
        view = selectors.game_view(game=three_humans, user=ruler)
        response = post_action(
            client_for(ruler),
            three_humans,
            view["legal_actions"][0],
            version=three_humans.version - 1,
            **HTMX,
        )
        assert response.status_code == 409
        assert "The table changed while you were deciding" in response.content.decode()
        assert not Move.objects.filter(game=three_humans).exists()

    def test_refusals_are_explained_in_the_readers_language(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        seats = users_by_seat(three_humans, owner, opponent, third)
        ruler = seats[three_humans.to_act_seat]  # type: ignore[index]
        waiting = next(u for s, u in seats.items() if s != three_humans.to_act_seat)
        for user in (ruler, waiting):
            services.player_language_set(user=user, language="ja")
        illegal = post_action(
            client_for(ruler), three_humans, {"type": "choose_edict", "edict": "no-such"}, **HTMX
        )
        assert illegal.status_code == 400
        assert "そのような勅令はありません。" in illegal.content.decode()
        early = post_action(client_for(waiting), three_humans, {"type": "pass"}, **HTMX)
        assert early.status_code == 409
        assert f"今は席{three_humans.to_act_seat}の手番で" in early.content.decode()

    def test_a_spectator_cannot_act(self, three_humans: Game, outsider: Any) -> None:
        response = post_action(client_for(outsider), three_humans, {"type": "pass"}, **HTMX)
        assert response.status_code == 403
        assert "You are not seated at this game." in response.content.decode()

    def test_an_anonymous_post_is_sent_to_log_in(self, client: Client, three_humans: Game) -> None:
        plain = post_action(client, three_humans, {"type": "pass"})
        assert plain.status_code == 302
        assert plain["Location"].startswith("/accounts/login/")
        htmx = post_action(client, three_humans, {"type": "pass"}, **HTMX)
        assert htmx["HX-Redirect"].startswith("/accounts/login/")

    def test_without_javascript_a_post_redirects_back_to_the_table(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        ruler = users_by_seat(three_humans, owner, opponent, third)[three_humans.to_act_seat]  # type: ignore[index]
        client = client_for(ruler)
        view = selectors.game_view(game=three_humans, user=ruler)
        response = post_action(client, three_humans, view["legal_actions"][0])
        assert response.status_code == 302
        assert response["Location"] == table_url(three_humans)
        refused = post_action(client, three_humans, {"type": "sin"}, version=1)
        assert refused.status_code == 302
        page = client.get(refused["Location"]).content.decode()
        assert "The table changed while you were deciding" in page

    def test_garbage_is_not_an_action(self, three_humans: Game, owner: Any) -> None:
        response = client_for(owner).post(
            f"/games/{three_humans.pk}/act", {"action": "{not json", "version": 1}, **HTMX
        )
        assert response.status_code == 400
        assert "That was not a valid action." in response.content.decode()


class TestPlaying:
    def test_illegal_cards_are_disabled_with_the_reason(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        users = users_by_seat(three_humans, owner, opponent, third)
        rng = random.Random(3)
        for _ in range(400):  # play until someone must follow a family they cannot all play
            three_humans.refresh_from_db()
            user = users[three_humans.to_act_seat]  # type: ignore[index]
            view = selectors.game_view(game=three_humans, user=user)
            playable = {a["card"] for a in view["legal_actions"] if a["type"] == "play"}
            trick = view["current_trick"]
            if playable and trick["plays"] and len(playable) < len(view["my_hand"]):
                break
            services.action_submit(
                game_id=three_humans.pk,
                user=user,
                action=rng.choice(view["legal_actions"]),
                expected_version=three_humans.version,
            )
        else:
            pytest.fail("never had to follow a family")
        html = client_for(user).get(table_url(three_humans)).content.decode()
        led = indulgence_vocab.family_name(trick["led_family"])
        assert f'<p id="why" class="why">You must follow {led}.</p>' in html
        for card in view["my_hand"]:
            label = f'aria-label="{indulgence_vocab.card_label(card)}"'
            assert label in html
            disabled = f'{label} disabled aria-describedby="why"' in html
            assert disabled == (card not in playable)

    def test_the_ring_checkbox_puts_the_indulgence_ring_on_the_card_played(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        users = users_by_seat(three_humans, owner, opponent, third)
        rng = random.Random(8)
        for _ in range(600):  # play until a sinner may use the ring
            three_humans.refresh_from_db()
            if three_humans.to_act_seat is None:  # no on_commit here: settle by hand
                hand = selectors.game_view(game=three_humans, user=owner)["hand_number"]
                services.hand_settle(game_id=three_humans.pk, hand_number=hand)
                continue
            user = users[three_humans.to_act_seat]
            view = selectors.game_view(game=three_humans, user=user)
            ringed = [a for a in view["legal_actions"] if a["type"] == "play" and a["indulgence"]]
            if ringed:
                break
            plain = [a for a in view["legal_actions"] if not a.get("indulgence")]
            choice = rng.choice(plain)
            if view["phase"] == "sin_decision":
                choice = {"type": "sin"}  # sinners are what this test needs
            services.action_submit(
                game_id=three_humans.pk,
                user=user,
                action=choice,
                expected_version=three_humans.version,
            )
        else:
            pytest.fail("no sinner ever had the ring to play")
        client = client_for(user)
        assert (
            "Put the Indulgence ring on the card I play"
            in client.get(table_url(three_humans)).content.decode()
        )
        card = ringed[0]["card"]
        response = client.post(
            f"/games/{three_humans.pk}/act",
            {
                "action": json.dumps({"type": "play", "card": card, "indulgence": False}),
                "version": three_humans.version,
                "ring": "1",
            },
            **HTMX,
        )
        assert response.status_code == 200
        last = Move.objects.filter(game=three_humans).order_by("-seq").first()
        assert last is not None
        assert last.action == {"type": "play", "card": card, "indulgence": True}

    def test_the_settlement_summary_follows_each_hand(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        users = users_by_seat(three_humans, owner, opponent, third)
        rng = random.Random(5)
        for _ in range(400):
            three_humans.refresh_from_db()
            view = selectors.game_view(game=three_humans, user=owner)
            if view["last_settlement"]:
                break
            if three_humans.to_act_seat is None:  # no on_commit here: settle by hand
                services.hand_settle(game_id=three_humans.pk, hand_number=view["hand_number"])
                continue
            user = users[three_humans.to_act_seat]
            actions = selectors.game_view(game=three_humans, user=user)["legal_actions"]
            services.action_submit(
                game_id=three_humans.pk,
                user=user,
                action=rng.choice(actions),
                expected_version=three_humans.version,
            )
        settlement = view["last_settlement"]
        player = client_for(owner)
        # The table stays on the hand that ended until the player moves on.
        html = player.get(table_url(three_humans)).content.decode()
        assert "Hand 1 is over" in html
        assert "Continue to hand 2" in html
        for payment in settlement["payments"]:
            assert indulgence_vocab.payment_reason(payment["reason"]) in html.replace("&#x27;", "'")
        if not settlement["payments"]:
            assert "Nobody paid anything." in html
        player.post(table_url(three_humans, "seen"), {"hand": 1})
        html = player.get(table_url(three_humans)).content.decode()
        assert "Hand 1 is over" not in html
        assert "Settlement of hand 1" in html  # still there, folded, under the new deal
        history = player.get(table_url(three_humans, "history"), **HTMX)
        assert "Hand 1" in history.content.decode()


class TestLiveUpdates:
    def test_polling_with_the_current_version_answers_no_change(
        self, owner_client: Client, three_humans: Game
    ) -> None:
        response = owner_client.get(
            table_url(three_humans) + f"?since={three_humans.version}", **HTMX
        )
        assert response.status_code == 304  # Not Modified: htmx keeps the table, polls on
        assert response.content == b""

    def test_polling_with_an_old_version_gets_the_new_table(
        self, owner_client: Client, three_humans: Game
    ) -> None:
        response = owner_client.get(
            table_url(three_humans) + f"?since={three_humans.version - 1}", **HTMX
        )
        assert response.status_code == 200
        assert f'data-version="{three_humans.version}"' in response.content.decode()


class TestHiddenCards:
    def test_no_page_shows_a_card_still_hidden_in_another_hand(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any, outsider: Any
    ) -> None:
        users = users_by_seat(three_humans, owner, opponent, third)
        clients = {seat: client_for(user) for seat, user in users.items()}
        watcher = client_for(outsider)
        rng = random.Random(11)
        checked = 0
        for step in range(75):
            three_humans.refresh_from_db()
            if three_humans.to_act_seat is None:
                services.hand_settle(
                    game_id=three_humans.pk,
                    hand_number=selectors.game_view(game=three_humans, user=owner)["hand_number"],
                )
                continue
            if step % 4 == 0:
                state = rules.state_from_json(three_humans.snapshot)
                hands = {seat: ids_of(state.hands[seat]) for seat in users}
                pages = {
                    seat: c.get(table_url(three_humans)).content for seat, c in clients.items()
                }
                pages[None] = watcher.get(table_url(three_humans)).content  # type: ignore[index]
                for reader, html in pages.items():
                    # The hand that ended (its deciding trick, public: rules "Play") may
                    # still be on the page until its reader moves on: its cards were
                    # dealt in an earlier hand. Checked on its own below.
                    text = _without_hand_over(html.decode(), three_humans)
                    for seat, cards in hands.items():
                        if seat == reader:
                            continue
                        for card in cards:
                            assert f'aria-label="{indulgence_vocab.card_label(card)}"' not in text
                            assert f">{card}<" not in text
                            assert f" {card} " not in text
                checked += 1
            user = users[three_humans.to_act_seat]
            view = selectors.game_view(game=three_humans, user=user)
            services.action_submit(
                game_id=three_humans.pk,
                user=user,
                action=rng.choice(view["legal_actions"]),
                expected_version=three_humans.version,
            )
        assert checked >= 15


def _without_hand_over(text: str, game: Game) -> str:
    """The page without its end-of-hand panel, after checking that the panel shows no
    card but those of the last settled hand's last trick."""
    start = text.find('<section id="hand-over"')
    if start < 0:
        return text
    end = text.index("</section>", start) + len("</section>")
    panel = text[start:end]
    record = rules.state_from_json(game.snapshot).history[-1]
    shown = {ids_of(1 << card)[0] for _seat, card, _ring in record.tricks[-1].plays}
    for card in ids_of((1 << 36) - 1):  # "Medici 7", "Medici 7 with the Indulgence ring"
        drawn = re.search(f'aria-label="{re.escape(indulgence_vocab.card_label(card))}[" ]', panel)
        assert bool(drawn) == (card in shown)
    return text[:start] + text[end:]


class TestBudget:
    def test_the_table_partial_stays_under_8_kb_through_a_game(
        self, three_humans: Game, owner: Any, opponent: Any, third: Any
    ) -> None:
        users = users_by_seat(three_humans, owner, opponent, third)
        rng = random.Random(2)
        largest = 0
        for step in range(64):
            three_humans.refresh_from_db()
            if three_humans.to_act_seat is None:  # no on_commit here: settle by hand
                hand = selectors.game_view(game=three_humans, user=owner)["hand_number"]
                services.hand_settle(game_id=three_humans.pk, hand_number=hand)
                continue
            for language in ("en", "ja") if step % 3 == 0 else ():
                for seat, user in users.items():
                    services.player_language_set(user=user, language=language)
                    html = client_for(user).get(table_url(three_humans), **HTMX).content
                    largest = max(largest, len(html))
                    assert len(html) <= 8 * 1024, (seat, language, len(html))
            user = users[three_humans.to_act_seat]  # type: ignore[index]
            view = selectors.game_view(game=three_humans, user=user)
            services.action_submit(
                game_id=three_humans.pk,
                user=user,
                action=rng.choice(view["legal_actions"]),
                expected_version=three_humans.version,
            )
        print(f"largest table partial: {largest} bytes")
        assert largest > 4 * 1024
