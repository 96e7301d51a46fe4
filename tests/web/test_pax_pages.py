"""The Pax Illuminaten table (issue 25 item 1; 15.5.1): the map as SVG with the legal
targets highlighted, a click on a target lists the actions aimed at it with a
suggested payment, one atomic action per request from the table's form, the derived
facts and what just happened, nothing of the seat's own for a spectator; the page and
its htmx partial stay under the issue's budgets (120 KB and 30 KB); the replay and the
rules page."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client as DjangoClient
from django.utils import translation

from engine.pax import engine as pax_engine
from engine.pax.view import suggest_payment
from games import kinds, services
from games.models import Game, GameStatus
from games.web import pax_table
from tests.helpers import server_steps

pytestmark = pytest.mark.django_db

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}
PAGE_BUDGET = 120 * 1024  # issue 25: the page with the map
PARTIAL_BUDGET = 30 * 1024  # issue 25: the table partial


@pytest.fixture
def pax_game(owner: Any) -> Game:
    game = services.game_create(
        creator=owner,
        seed="pages-pax-0",
        game_type="pax",
        player_count=3,
        rated=False,
        bots=[(1, "random"), (2, "random")],
        options={"round_cap": 2},
    )
    return server_steps(game)


def _web(user: Any) -> DjangoClient:
    client = DjangoClient()
    client.force_login(user)
    return client


def _play_to(game: Game, owner: Any, rng: random.Random, *, want: str) -> dict[str, Any]:
    """Play the owner's seat at random until one of its legal actions is of type
    ``want``; returns that action."""
    for _ in range(400):
        game = server_steps(game)
        assert game.status == GameStatus.IN_PROGRESS
        state = kinds.of(game).load(game.snapshot)
        actions = pax_engine.legal_actions(state, game.to_act_seat)
        wanted = [a for a in actions if a.get("type") == want]
        if wanted:
            return wanted[0]
        services.action_submit(game_id=game.pk, user=owner, action=rng.choice(actions))
    raise AssertionError(f"no {want} reached")


def test_the_table_draws_the_map_and_highlights_the_legal_targets(
    pax_game: Game, owner: Any
) -> None:
    page = _web(owner).get(f"/games/{pax_game.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<svg" in text
    assert text.count('class="cell') == 19  # M19 for 3 seats (F)
    state = kinds.of(pax_game).load(pax_game.snapshot)
    targets = {
        t
        for a in pax_engine.legal_actions(state, 0)
        for t in pax_table._targets(a)  # the positions an action aims at
    }
    assert targets
    highlighted = set(re.findall(r'class="cell target[^"]*" data-pos="([^"]+)"', text))
    assert highlighted == targets
    assert len(page.content) < PAGE_BUDGET, len(page.content)
    partial = _web(owner).get(f"/games/{pax_game.pk}/", **HTMX)
    assert partial.content.decode().startswith('<section id="table"')
    assert len(partial.content) < PARTIAL_BUDGET, len(partial.content)


def test_a_click_on_a_target_lists_its_actions_with_a_suggested_payment(
    pax_game: Game, owner: Any
) -> None:
    """15.5.1, P-87: costs shown with one suggested payment, the view's payment help
    (the engine's ``suggest_payment`` for each action aimed at the card); the player
    still pays unit by unit (each ``pay`` is its own decision, the suggested one
    marked)."""
    action = _play_to(pax_game, owner, random.Random(1), want="influence")
    pax_game.refresh_from_db()
    pos = pax_table._pos(action["target"])
    answer = _web(owner).get(f"/games/{pax_game.pk}/", {"part": "table", "pos": pos}, **HTMX)
    text = answer.content.decode()
    assert answer.status_code == 200
    assert f"Actions on {pos}" in text
    state = kinds.of(pax_game).load(pax_game.snapshot)
    aimed = [a for a in pax_engine.legal_actions(state, 0) if pos in pax_table._targets(a)]
    assert text.count('name="action"') == len(aimed) + len(
        [a for a in pax_engine.legal_actions(state, 0) if not pax_table._targets(a)]
    )
    costs = [pax_table.payment_text(suggest_payment(state, 0, a)) for a in aimed]
    assert any(costs), aimed  # an Influence here costs a choice of tokens
    for cost in filter(None, costs):
        assert f"suggested payment: {cost}" in text
    assert text.count("suggested payment:") >= len(list(filter(None, costs)))
    assert len(answer.content) < PARTIAL_BUDGET


def test_one_click_is_one_atomic_action_and_the_table_tells_what_happened(
    pax_game: Game, owner: Any
) -> None:
    state = kinds.of(pax_game).load(pax_game.snapshot)
    action = pax_engine.legal_actions(state, 0)[0]
    version = pax_game.version
    answer = _web(owner).post(
        f"/games/{pax_game.pk}/act",
        {"action": json.dumps(action), "version": str(version)},
        **HTMX,
    )
    assert answer.status_code == 200
    pax_game.refresh_from_db()
    assert pax_game.version == version + 1
    assert pax_game.moves.filter(actor_user=owner).count() == 1
    text = answer.content.decode()
    assert "What just happened" in text
    assert pax_table.action_label(action) in text.replace("&#x27;", "'")


def test_a_spectator_sees_the_map_without_actions_or_a_hand(pax_game: Game, outsider: Any) -> None:
    for client in (DjangoClient(), _web(outsider)):
        text = client.get(f"/games/{pax_game.pk}/").content.decode()
        assert "<svg" in text
        assert 'name="action"' not in text
        assert "Your hand" not in text
        assert "cell target" not in text


def test_the_replay_and_the_rules_page(pax_game: Game, owner: Any) -> None:
    rng = random.Random(4)
    for _ in range(2000):
        game = server_steps(pax_game)
        if game.status != GameStatus.IN_PROGRESS:
            break
        state = kinds.of(game).load(game.snapshot)
        actions = pax_engine.legal_actions(state, game.to_act_seat)
        services.action_submit(game_id=game.pk, user=owner, action=rng.choice(actions))
    pax_game.refresh_from_db()
    assert pax_game.status == GameStatus.FINISHED
    web = _web(owner)
    replay = web.get(f"/games/{pax_game.pk}/replay", {"move": 5})
    assert replay.status_code == 200
    assert "Move 5 of" in replay.content.decode()
    assert DjangoClient().get("/rules/pax/").status_code == 200
    table = web.get(f"/games/{pax_game.pk}/").content.decode()
    assert "Game over" in table


def test_a_japanese_player_reads_the_pax_table_in_japanese(pax_game: Game, owner: Any) -> None:
    services.player_language_set(user=owner, language="ja")
    text = _web(owner).get(f"/games/{pax_game.pk}/").content.decode()
    assert '<html lang="ja">' in text
    for words in ("パクス・イルミナテン", "マップ", "直前の出来事", "好意のプール", "法廷"):
        assert words in text, words
    for english in ("What just happened", "Favor pool", "Your move", "Faction cards"):
        assert english not in text, english


def test_the_lobby_offers_pax_and_creates_a_game_against_bots(owner: Any) -> None:
    """The lobby's create form is the game's (docs/web.md): Pax's 2-4 seats and bots."""
    web = _web(owner)
    page = web.get("/lobby/", {"game": "pax"}).content.decode()
    assert 'name="game_type" value="pax"' in page
    assert "Used in 3- and 4-player games only." in page
    answer = web.post(
        "/games/new",
        {"game_type": "pax", "player_count": 2, "variant": "standard", "seat_1": "random"},
    )
    assert answer.status_code == 302, answer.content[:500]
    game = Game.objects.get()
    assert (game.game_type, game.player_count, game.status) == ("pax", 2, "in_progress")
    assert answer["Location"] == f"/games/{game.pk}/"


def test_the_lobby_creates_a_solo_game_against_a_chosen_automa(owner: Any) -> None:
    """Issue 25 item 3, P-78: the lobby offers every automa as a variant; a person alone
    picks one (whatever seat 1's field says, the last seat is the automa's) and is at the
    table at once, the automa named among the seats."""
    web = _web(owner)
    page = web.get("/lobby/", {"game": "pax"}).content.decode()
    for code in ("SG", "J2", "AC", "AW"):
        assert f'value="automa-{code}"' in page
    answer = web.post(
        "/games/new",
        {"game_type": "pax", "player_count": 2, "variant": "automa-SG", "seat_1": "random"},
    )
    assert answer.status_code == 302, answer.content[:500]
    game = Game.objects.get()
    assert (game.variant, game.status) == ("automa-SG", "in_progress")
    assert dict(game.seats.values_list("number", "bot_kind")) == {0: "", 1: "automa-SG"}
    server_steps(game)
    table = web.get(f"/games/{game.pk}/").content.decode()
    assert "Count of St. Germain" in table


def test_play_now_starts_a_solo_game_against_st_germain(owner: Any) -> None:
    """Issue 25 item 3: "Play now" for Pax is the newcomer alone against the simplest
    automa (14.10, Count of St. Germain), at the table at once."""
    web = _web(owner)
    assert "against the Count of St. Germain (automa)" in web.get("/").content.decode()
    response = web.post("/play-now", {"game": "pax"})
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert (game.game_type, game.variant, game.rated, game.status) == (
        "pax",
        "automa-SG",
        False,
        "in_progress",
    )
    assert dict(game.seats.values_list("number", "bot_kind")) == {0: "", 1: "automa-SG"}


def test_the_play_now_page_says_which_game_it_starts(owner: Any) -> None:
    """The "Play now" page's title is the chosen game's, not "against 3 bots" for all."""
    web = _web(owner)
    pax = web.get("/play-now?game=pax").content.decode()
    title = "Pax Illuminaten: a solo game against the Count of St. Germain"
    assert f"<title>{title} · Indulgence Online</title>" in pax
    assert f"<h1>{title}</h1>" in pax
    assert "You alone against the automa the rules call the simplest" in pax
    assert 'name="game" value="pax"' in pax
    assert "against 3 bots</h1>" not in pax
    for asked, heading in (
        ("", "Play Indulgence now against 3 bots"),
        ("?game=eleusis", "Play New Eleusis now against 3 bots"),
    ):
        assert f"<h1>{heading}</h1>" in web.get(f"/play-now{asked}").content.decode()
    services.player_language_set(user=owner, language="ja")
    japanese = web.get("/play-now?game=pax").content.decode()
    assert "<h1>パクス・イルミナテン：サン・ジェルマン伯爵とのソロゲーム</h1>" in japanese
    assert "<title>パクス・イルミナテン：サン・ジェルマン伯爵とのソロゲーム · " in japanese
    assert not Game.objects.exists()  # the page only offers the game


def test_the_sign_up_page_says_which_game_play_now_will_start(db: None) -> None:
    """A visitor sent to sign up by Pax's "Play now" reads which game starts, not the
    Indulgence table's "against 3 bots"."""
    page = DjangoClient().get("/accounts/signup/", {"next": "/play-now?game=pax"})
    html = page.content.decode()
    assert "<strong>Pax Illuminaten: a solo game against the Count of St. Germain</strong>" in html
    assert "You alone against the automa the rules call the simplest" in html
    assert "Your game starts as soon as your account is created." in html
    assert "3 bots" not in html
    plain = DjangoClient().get("/accounts/signup/").content.decode()
    assert "Your game starts" not in plain  # a sign-up without "Play now" starts nothing


def test_the_lobby_offers_one_play_now_per_game(owner: Any) -> None:
    """One "Play now" per hosted game in the lobby, each naming its game (no second,
    nameless "Play now against 3 bots" beside the picker's)."""
    html = _web(owner).get("/lobby/").content.decode()
    forms = re.findall(r'<form method="post" action="/play-now".*?</form>', html, re.S)
    offered = [re.findall(r'name="game" value="(\w+)"', f) for f in forms]
    assert offered == [[kind.key] for kind in kinds.hosted()]
    labels = [re.sub(r"<[^>]+>", "", f.split("<button", 1)[1].split(">", 1)[1]) for f in forms]
    assert labels == [
        "Play Indulgence now against 3 bots",
        "Play New Eleusis now against 3 bots",
        "Play Pax Illuminaten now against the Count of St. Germain (automa)",
    ]


def test_what_just_happened_leaves_out_null_fields() -> None:
    """P-77 (H.6): a step's null field says nothing (``seen`` with ``of`` null is the seat's
    own draw); the table told it as "of None" for a seat's own draws."""
    view = {"seats": [{"seat": 0, "username": "me"}]}
    entry = {
        "seq": 7,
        "seat": 0,
        "action": {"type": "scout", "target": [1, 2]},
        "steps": [{"step": "seen", "seat": 0, "of": None, "cards": ["PIL001"]}],
    }
    told = pax_table._entry_text(view, entry)
    # P-85: the step is a sentence, the card by its printed name.
    assert told["steps"] == ["me sees Count Karl Pálffy de Erdőd"]
    assert "None" not in " ".join(told["steps"])


def test_what_just_happened_tells_the_automa_s_lines_as_sentences() -> None:
    """P-29, P-77: an automa script line is told by its sentence alone, not its fields."""
    view = {"seats": [{"seat": 1, "username": "bot-automa-SG", "bot_kind": "automa-SG"}]}
    sentence = "Count of St. Germain influences PIL029 at (0, 5): 1 free disk"
    entry = {
        "seq": 35,
        "seat": None,
        "action": None,
        "steps": [
            {"step": "automa", "seat": 1, "rule": "b1", "target": [0, 5], "text": sentence},
            {"step": "disk", "seat": 1, "from": "supply", "to": [0, 5]},
        ],
    }
    told = pax_table._entry_text(view, entry)
    # P-85: said again from its parts, the card by its printed name (here in English).
    assert told["steps"][0] == (
        "Count of St. Germain influences Justus Christian Loder at 0,5: 1 free disk"
    )
    assert told["steps"][1] == "a disk of Count of St. Germain (automa): the supply → 0,5"
    with translation.override("ja"):
        told = pax_table._entry_text(view, entry)
    assert told["steps"] == [
        "サン・ジェルマン伯爵は0,5のJustus Christian Loderに影響する：無償の影響1",
        "サン・ジェルマン伯爵（オートマ）の影響ディスク：手元 → 0,5",
    ]
