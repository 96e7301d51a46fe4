"""NE-23 (the rule commitment) and NE-24 (verified hints, E36, OR08)."""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

import pytest

from engine.eleusis.commitment import commitment_matches, rule_commitment, rule_salt
from engine.eleusis.erl import compile_rule
from engine.eleusis.hints import HintError, hint_text, true_hints, verify_hint
from engine.eleusis.library import library_rule
from engine.eleusis.sanity import SanitySettings, sanity_check


def test_ne_23_1_commitment_formula() -> None:
    seed = "round-seed-hex"
    salt = rule_salt(seed)
    assert salt == hmac.new(b"round-seed-hex", b"eleusis/rule-salt", hashlib.sha256).digest()
    source = "accept card.red\n"
    expected = hashlib.sha256(
        ("eleusis-rule\nerl-1\n" + salt.hex() + "\n" + source).encode()
    ).hexdigest()
    assert rule_commitment(source, salt) == expected
    assert commitment_matches(expected, source, salt.hex())
    assert not commitment_matches(expected, "accept card.black\n", salt.hex())
    assert not commitment_matches(expected, source, rule_salt("other").hex())
    assert not commitment_matches(expected, source, "zz")


def test_ne_23_1_commitment_binds_the_nfc_text() -> None:
    decomposed = "accept card.red # Pokémon"
    decomposed = unicodedata.normalize("NFD", decomposed)
    composed = unicodedata.normalize("NFC", decomposed)
    salt = rule_salt("s")
    assert decomposed != composed
    assert rule_commitment(decomposed, salt) == rule_commitment(composed, salt)


def test_ne_23_2_the_salt_hides_library_rules() -> None:
    source = library_rule("R01").source
    assert rule_commitment(source, rule_salt("a")) != rule_commitment(source, rule_salt("b"))


def _ids(source: str) -> list[str]:
    return [h["id"] for h in true_hints(compile_rule(source))]


def test_ne_24_1_hints_read_the_syntax_tree() -> None:
    assert _ids("accept card.color != prev.color") == ["H2", "H4", "H5"]
    assert _ids("accept card.rank <= 7") == ["H1", "H3", "H5", "H6"]
    assert _ids("accept card.suit == succ(prev.suit)") == ["H3", "H4", "H5"]
    assert _ids("accept card.black == (len mod 2 == 0)") == ["H2", "H4", "H5", "H7"]
    assert _ids("accept card.rank mod 2 == count(c.red) mod 2") == ["H2", "H8"]
    assert _ids(
        "state fav = clubs then if c.face then succ(fav) else fav\n"
        "accept card.suit == fav or card.face"
    ) == ["H3", "H9"]


def test_ne_24_1_matuszek_colour_warning() -> None:
    """A rule on colour does not 'ignore suit or colour'; colorof() counts as suit too."""
    rule = compile_rule("accept colorof(card.suit) == red")
    assert not verify_hint(rule, {"id": "H1"})
    assert not verify_hint(rule, {"id": "H2"})
    assert not verify_hint(rule, {"id": "H3"})


def test_ne_24_1_lookback_hint_needs_k() -> None:
    rule = compile_rule("accept card.rank == prev2.rank")
    assert verify_hint(rule, {"id": "H5", "k": 2})
    assert not verify_hint(rule, {"id": "H5", "k": 1})
    with pytest.raises(HintError):
        verify_hint(rule, {"id": "H5"})
    with pytest.raises(HintError):
        verify_hint(rule, {"id": "H99"})


def test_ne_24_1_share_hint_from_the_report() -> None:
    rule = compile_rule("accept card.suit == succ(prev.suit)")
    report = sanity_check(rule, SanitySettings(walks=5, library_probes=0))
    assert verify_hint(rule, {"id": "H10", "p": 30}, report)  # 25% rounds to 30 (OR08)
    assert not verify_hint(rule, {"id": "H10", "p": 20}, report)
    assert {"id": "H10", "p": 30} in true_hints(rule, report)


def test_hint_texts_in_both_languages() -> None:
    assert hint_text({"id": "H5", "k": 2}) == "The rule looks back at most 2 cards."
    assert hint_text({"id": "H5", "k": 2}, "ja") == "ルールが見るのは直前の2枚まで。"
    assert hint_text({"id": "H10", "p": 50}) == "About 50% of cards are right on average."
