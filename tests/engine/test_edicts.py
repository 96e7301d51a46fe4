"""Every edict's Edict side, Sin success and Sin failure, on hand-built deals.

Seat 0 rules; deals and policies are chosen so the play can be followed by hand:

- Edict side: deal R (each seat eight of one family and the 9 of the next), nobody
  sins, everyone plays their highest card. Seat 0 leads M9 and wins trick 1 (M9 M8 S9
  S8); seat 0 then leads B8, seat 3 must follow with B9 and from then on leads Sforzas
  nobody else holds, winning every trick. When the first lead is restricted to
  non-Medicis, seat 0 leads B8 instead and seat 3 wins all nine tricks. With trump
  Sforza, seat 2 wins trick 1 (S9 over S8) and seat 3 the rest.
- Sin success: deal F (one whole family per seat), seat 1 sins and leads: nobody can
  follow, the sinner wins every trick (trump, when named, is the sinner's family).
- Sin failure: deal R, seat 1 sins, everyone plays their lowest card. Seat 0's M9 wins
  trick 1 (M1 O1 B9 M9); seat 0 then leads Borgias nobody else holds. When seat 1 may
  not lead a Medici it leads O9 and wins trick 1, then loses trick 2 to M9.

The trick counts show where each hand ended (early end).
"""

from __future__ import annotations

import pytest

from engine import indulgence as game
from engine.indulgence.edicts import BASIC_DECK, CATALOG, EDICT_INDEX, EXPERT_DECK, FAIL_PENALTY
from tests.engine.support import (
    DEAL_F,
    DEAL_R,
    highest,
    lowest,
    payments,
    play_out,
    scenario,
    settled,
    start,
)

EDICT_SIDE = {
    # edict: (trump, payments, tricks played)
    "any-borgia": (None, [(3, 0, 9, "any-borgia: 9 Borgias")], 9),
    "any-medici": (None, [(3, 0, 9, "any-medici: 9 Medicis")], 9),
    "any-orsini": (None, [(3, 0, 9, "any-orsini: 9 Orsinis")], 9),
    "any-sforza": (None, [(3, 0, 7, "any-sforza: 7 Sforzas")], 9),
    "last-borgia": (None, [(3, 0, 8, "last-borgia: took the last Borgia")], 9),
    "last-medici": (None, [(3, 0, 8, "last-medici: took the last Medici")], 9),
    "last-orsini": (None, [(3, 0, 8, "last-orsini: took the last Orsini")], 9),
    "last-sforza": (None, [(3, 0, 8, "last-sforza: took the last Sforza")], 9),
    "twos-threes": (None, [(3, 0, 8, "twos-threes: 8 2s and 3s")], 8),
    "sixes": (None, [(3, 0, 8, "sixes: 4 6s")], 4),
    "first-last": (None, [(3, 0, 4, "first-last: took the last trick")], 9),
    "first-to-three": (None, [(3, 0, 6, "first-to-three: first to take three tricks")], 4),
    "most-of-family": (
        None,
        [(3, 0, 8, "most-of-family: most Borgias, Medicis, Orsinis and Sforzas")],
        7,
    ),
    "any-trump": (
        "sforza",
        [(2, 0, 2, "any-trump: 2 trumps"), (3, 0, 7, "any-trump: 7 trumps")],
        8,
    ),
    "no-tricks": (None, [(3, 0, 8, "no-tricks: 8 tricks")], 9),
    "pairs-borgia-medici": (None, [(3, 0, 14, "pairs-borgia-medici: 7 pairs")], 9),
    "pairs-orsini-sforza": (None, [(3, 0, 14, "pairs-orsini-sforza: 7 pairs")], 9),
    "pairs-medici-sforza": (None, [(3, 0, 18, "pairs-medici-sforza: 9 pairs")], 9),
    "even-medici-sforza": (None, [(3, 0, 8, "even-medici-sforza: 8 even Medicis and Sforzas")], 8),
    "even-borgia-orsini": (None, [(3, 0, 8, "even-borgia-orsini: 8 even Borgias and Orsinis")], 8),
}

SIN_SUCCESS_TRICKS = {
    "any-borgia": 9,
    "any-medici": 9,
    "any-orsini": 9,
    "any-sforza": 9,
    "last-borgia": 9,
    "last-medici": 9,
    "last-orsini": 9,
    "last-sforza": 9,
    "twos-threes": 3,
    "sixes": 6,
    "first-last": 9,
    "first-to-three": 3,
    "most-of-family": 5,
    "any-trump": 9,
    "no-tricks": 9,
    "pairs-borgia-medici": 9,
    "pairs-orsini-sforza": 9,
    "pairs-medici-sforza": 9,
    "even-medici-sforza": 8,
    "even-borgia-orsini": 8,
}

SIN_FAILURE_TRICKS = {
    "any-borgia": 1,
    "any-medici": 2,
    "any-orsini": 1,
    "any-sforza": 2,
    "last-borgia": 9,
    "last-medici": 9,
    "last-orsini": 9,
    "last-sforza": 9,
    "twos-threes": 2,
    "sixes": 6,
    "first-last": 1,
    "first-to-three": 3,
    "most-of-family": 4,
    "any-trump": 1,
    "no-tricks": 1,
    "pairs-borgia-medici": 2,
    "pairs-orsini-sforza": 1,
    "pairs-medici-sforza": 2,
    "even-medici-sforza": 3,
    "even-borgia-orsini": 2,
}


def _row(edict: str) -> tuple[str, ...]:
    others = [e.id for e in CATALOG if e.id != edict]
    return (edict, others[0], others[1])


def test_the_catalog_has_the_twenty_edicts_of_the_rules() -> None:
    assert len(CATALOG) == 20
    assert len(BASIC_DECK) == 12
    assert len(EXPERT_DECK) == 20
    assert set(EDICT_SIDE) == {e.id for e in CATALOG}
    assert {CATALOG[i].id for i in BASIC_DECK} == {
        "any-borgia",
        "any-medici",
        "any-orsini",
        "any-sforza",
        "last-borgia",
        "last-medici",
        "last-orsini",
        "last-sforza",
        "twos-threes",
        "sixes",
        "first-last",
        "first-to-three",
    }
    assert all(e.fail_penalty == FAIL_PENALTY == 8 for e in CATALOG)
    amounts = {e.id: (e.edict_amount, e.sin_reward) for e in CATALOG}
    assert amounts["any-borgia"] == (1, 6)
    assert amounts["last-sforza"] == (8, 3)
    assert amounts["sixes"] == (2, 4)
    assert amounts["first-last"] == (4, 4)
    assert amounts["most-of-family"] == (2, 6)
    assert amounts["no-tricks"] == (1, 10)
    assert amounts["pairs-medici-sforza"] == (2, 10)


def test_edict_dicts_carry_the_public_description() -> None:
    for edict in CATALOG:
        d = edict.as_dict()
        assert set(d) == {
            "id",
            "kind",
            "title",
            "families",
            "edict_amount",
            "sin_reward",
            "fail_penalty",
            "basic",
            "text",
            "sin_text",
        }
        assert str(d["text"]).endswith(".")
        assert str(d["sin_text"]).endswith(".")
        assert EDICT_INDEX[str(d["id"])] == edict.catalog_index


@pytest.mark.parametrize("edict", list(EDICT_SIDE))
def test_edict_side_payments(edict: str) -> None:
    trump, expected, tricks = EDICT_SIDE[edict]
    state = scenario(DEAL_R, variant="expert", row=_row(edict))
    state = play_out(start(state, edict, trump=trump), highest)
    assert len(state.tricks) == tricks
    assert state.ended_early == (tricks < 9)
    after, hand = settled(state)
    assert payments(hand) == expected
    assert hand["sinner"] is None
    assert hand["sin_succeeded"] is None
    for payer, payee, owed, _ in expected:
        assert after.florins[payer] == 30 - sum(p[2] for p in expected if p[0] == payer)
        assert after.florins[payee] == 30 + sum(p[2] for p in expected)
        assert owed > 0


@pytest.mark.parametrize("edict", list(SIN_SUCCESS_TRICKS))
def test_sin_success_is_paid_by_every_other_player(edict: str) -> None:
    state = scenario(DEAL_F, variant="expert", row=_row(edict))
    state = play_out(
        start(state, edict, sinner=1, trump="medici" if edict == "any-trump" else None), lowest
    )
    assert len(state.tricks) == SIN_SUCCESS_TRICKS[edict]
    assert all(t.winner == 1 for t in state.tricks)
    after, hand = settled(state)
    reward = CATALOG[EDICT_INDEX[edict]].sin_reward
    reason = f"{edict}: sin succeeded"
    assert payments(hand) == [
        (2, 1, reward, reason),
        (3, 1, reward, reason),
        (0, 1, reward, reason),
    ]
    assert hand["sin_succeeded"] is True
    assert after.florins == (30 - reward, 30 + 3 * reward, 30 - reward, 30 - reward)


@pytest.mark.parametrize("edict", list(SIN_FAILURE_TRICKS))
def test_sin_failure_costs_the_sinner_the_penalty(edict: str) -> None:
    state = scenario(DEAL_R, variant="expert", row=_row(edict))
    state = play_out(
        start(state, edict, sinner=1, trump="borgia" if edict == "any-trump" else None), lowest
    )
    assert len(state.tricks) == SIN_FAILURE_TRICKS[edict]
    assert state.ended_early == (SIN_FAILURE_TRICKS[edict] < 9)
    after, hand = settled(state)
    assert payments(hand) == [(1, 0, 8, f"{edict}: sin failed")]
    assert hand["sin_succeeded"] is False
    assert after.florins == (38, 22, 30, 30)


def test_the_ruler_pays_nothing_for_forbidden_cards_it_takes() -> None:
    # Deal F, no sinner: the Ruler leads and wins every trick, taking all 36 cards.
    for edict in ("any-borgia", "most-of-family", "no-tricks", "first-last", "pairs-borgia-medici"):
        state = play_out(start(scenario(DEAL_F, variant="expert", row=_row(edict)), edict), lowest)
        assert all(t.winner == 0 for t in state.tricks)
        _, hand = settled(state)
        assert hand["payments"] == []


def test_a_player_who_takes_the_first_and_the_last_trick_pays_for_both() -> None:
    # Deal R, seat 1 rules and leads M1; seat 0 wins it with M9, then leads Borgias that
    # nobody else holds and wins every trick.
    state = scenario(DEAL_R, ruler=1, row=("first-last", "sixes", "any-borgia"))
    state = play_out(start(state, "first-last"), lowest)
    assert [t.winner for t in state.tricks] == [0] * 9
    _, hand = settled(state)
    assert payments(hand) == [(0, 1, 8, "first-last: took the first and last trick")]


def test_unknown_and_absent_edicts_are_refused() -> None:
    state = scenario(DEAL_R)
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, 0, {"type": "choose_edict", "edict": "no-such-edict"})
    assert err.value.code == "unknown_edict"
    with pytest.raises(game.IllegalAction) as err:
        game.apply(state, 0, {"type": "choose_edict", "edict": "first-last"})
    assert err.value.code == "edict_not_in_row"
    assert "any-borgia, last-borgia, sixes" in err.value.message
