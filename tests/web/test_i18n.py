"""The Japanese catalogue is complete and covers every sentence the engine shows."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from engine.indulgence.edicts import CATALOG
from games import services, webhooks
from games.web.edict_messages import EDICT_MESSAGES
from tests.helpers import game_with_seed, play_humans_until
from tests.web.test_first_game import drive, game_over, hand_settled, my_sin_decision_after_a_pass

PO = Path(settings.BASE_DIR) / "locale" / "ja" / "LC_MESSAGES" / "django.po"


def test_the_japanese_catalogue_has_no_untranslated_or_fuzzy_entry() -> None:
    catalog = polib.pofile(str(PO))
    assert [e.msgid for e in catalog.untranslated_entries()] == []
    assert [e.msgid for e in catalog.fuzzy_entries()] == []


def test_every_edict_sentence_of_the_engine_is_marked_and_translated() -> None:
    sentences = {s for e in CATALOG for s in (e.title, e.text, e.sin_text)}
    assert set(EDICT_MESSAGES) == sentences
    translated = {e.msgid for e in polib.pofile(str(PO)).translated_entries()}
    assert sentences <= translated


# --- the Japanese pages show no English -----------------------------------------------------

# Words that stay in Latin letters on Japanese pages: names, the switch back to English,
# technical terms of the API and webhook sections, the family letters of the card faces
# (B, M, O, S, for colour-blind players), and the usernames of this test.
LATIN_ALLOWED = {
    "English",
    "Indulgence",
    "Online",
    "OpenSkill",
    "API",
    "URL",
    "JSON",
    "POST",
    "HMAC",
    "SHA",
    "Bearer",
    "Authorization",
    "Signature",
    "X",
    "Europe",
    "Paris",
    "Asia",
    "Tokyo",
    "UTC",
    "https",
    "hooks",
    "example",
    "com",
    "kenji",
    "hanako",
    "taro",
    "ISMCTS",
    "REST",
    "Webhook",
}


class _VisibleText(HTMLParser):
    """The text a reader sees: no tags, attributes, scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "title"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "title"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def english_words(html: str, *, also_allowed: tuple[str, ...] = ()) -> set[str]:
    parser = _VisibleText()
    parser.feed(html)
    text = " ".join(parser.parts)
    for allowed in also_allowed:
        text = text.replace(allowed, " ")
    words = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", text))
    return {w for w in words if w not in LATIN_ALLOWED and not re.fullmatch(r"[BMOS]\d?", w)}


@pytest.mark.django_db
def test_the_japanese_settings_lobby_table_and_profile_show_no_english_words() -> None:
    users = {}
    for name in ("kenji", "hanako", "taro"):
        users[name] = get_user_model().objects.create_user(username=name, password="pw")
        services.player_language_set(user=users[name], language="ja")
    kenji = users["kenji"]
    game = game_with_seed(creator=kenji, player_count=3, rated=False, seed="ja-words")
    services.game_join(game_id=game.pk, user=users["hanako"])
    services.game_join(game_id=game.pk, user=users["taro"])
    waiting = services.game_create(creator=users["hanako"], player_count=4, rated=False)  # open
    # Issue 21: the pages of a first game against bots, each at its moment.
    bots = [(1, "random"), (2, "heuristic"), (3, "random")]
    sin_game, over_game, done_game = (
        services.game_create(creator=kenji, player_count=4, rated=False, seed=f"ja-{n}", bots=bots)
        for n in (1, 2, 3)
    )
    drive(sin_game, {0: kenji}, my_sin_decision_after_a_pass, rng=random.Random(3))
    drive(over_game, {0: kenji}, hand_settled(1), rng=random.Random(4))
    drive(done_game, {0: kenji}, game_over, rng=random.Random(1))
    webhooks.webhook_create(
        user=kenji, url="https://hooks.example.com/hooks", kinds=["your_turn", "reminder"]
    )
    token, _secret = services.token_issue(user=kenji, name="", scopes=["read", "play"])
    client = Client()
    client.force_login(kenji)
    pages = {
        "settings": "/settings/",
        "lobby": "/lobby/",
        "table": f"/games/{game.pk}/",
        "history": f"/games/{game.pk}/history",
        "profile": "/players/kenji/",
        "play now": "/play-now",
        "home": "/",
        "leaderboard": "/leaderboard/",
        "open table": f"/games/{waiting.pk}/",
        "sin decision": f"/games/{sin_game.pk}/",
        "hand over": f"/games/{over_game.pk}/",
        "game over": f"/games/{done_game.pk}/",
        "bot history": f"/games/{done_game.pk}/history",
        "replay": f"/games/{done_game.pk}/replay?move=5",
        "bot profile": "/players/bot-heuristic/",
    }
    found = {}
    for name, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.content.decode()
        assert '<html lang="ja">' in html, path
        # A bot's username (its profile says "Username: bot-heuristic") is an identifier.
        if words := english_words(html, also_allowed=(token.prefix, "bot-heuristic")):
            found[name] = sorted(words)
    assert found == {}


@pytest.mark.django_db
def test_a_refusal_from_the_services_reaches_a_japanese_player_in_japanese(
    owner: Any, opponent: Any, third: Any
) -> None:
    game = game_with_seed(creator=owner, player_count=3, rated=False, seed="ja-refusal")
    services.game_join(game_id=game.pk, user=opponent)
    services.game_join(game_id=game.pk, user=third)
    play_humans_until(game, {0: owner, 1: opponent, 2: third})
    services.player_language_set(user=owner, language="ja")
    client = Client()
    client.force_login(owner)
    response = client.post(f"/games/{game.pk}/act", {"action": '{"type": "pass"}'}, follow=True)
    html = response.content.decode()
    assert "このゲームは終了のため、今は手を打てません。" in html
    assert "no moves now" not in html
