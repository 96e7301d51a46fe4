"""The Japanese catalogue is complete and covers every sentence the engine shows."""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings

from engine.indulgence.edicts import CATALOG
from games.web.edict_messages import EDICT_MESSAGES

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
