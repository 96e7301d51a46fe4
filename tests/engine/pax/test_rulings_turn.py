"""Rulings of sections 8-15 and Appendices A-D (schemes, faction cards, plots, the check
phase, events, the contract); the house rulings are in test_rulings_house.py."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.pax import engine as E
from engine.pax import plots as P
from engine.pax.phases import court_options
from engine.pax.state import Table, thaw
from tests.engine.pax.support import (
    act,
    card_at,
    court,
    fav,
    favor,
    gain,
    give_card,
    hand,
    kinds,
    options,
    put,
    ready,
    run_auto,
    slots,
    table,
    types_of,
)

SEED = "seat-2"  # seat 0's contact is C15: PRO, MAG, SCH


# --- schemes (8) -----------------------------------------------------------------------


def test_r32_one_chain_a_turn_and_a_card_must_share_a_faction() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL004", "PIL005"])  # MAG/PRO then ART/NOB: no shared faction
    s = act(ready(t), {"type": "scheme", "card": "PIL004", "use": "quick"}, gain("MAG"))
    assert not types_of(s, "scheme")
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, {"type": "scheme", "card": "PIL005", "use": "quick"})
    assert err.value.code == "chain"


def test_r33_an_aces_gain_is_not_quick_favor() -> None:
    """R33, P-14: an Ace's gain 3 is taken at once (no special decision) and is not
    Quick Favor: Quick Favor stays open, and any card chains after an Ace (P-13)."""
    t = table(3, SEED)
    hand(t, 0, ["PIL046", "PIL005"])
    s = act(ready(t), {"type": "scheme", "card": "PIL046", "use": "ability"})
    assert fav(s, 0) == {"NOB": 3}
    assert not s.turn.quick_used
    assert {"type": "scheme", "card": "PIL005", "use": "quick"} in options(s)  # any after an Ace


def test_r34_a_crown_adds_a_main_action_usable_later() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL053"])
    t.turn.main_used = 2
    s = ready(t)
    assert not [o for o in options(s) if o.get("by") == "main"]
    s = act(s, {"type": "scheme", "card": "PIL053", "use": "ability"})
    assert s.turn.main_allowed == 3
    assert [o for o in options(s) if o.get("by") == "main"]


def test_p13_a_crown_played_for_quick_favor_still_ends_the_chain() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL053", "PIL023"])
    s = act(ready(t), {"type": "scheme", "card": "PIL053", "use": "quick"})
    assert s.turn.chain_ended
    assert s.turn.main_allowed == 2
    assert not types_of(s, "scheme")


def test_c_magistrates_passive_quick_favor_and_the_ability() -> None:
    t = table(3, SEED)
    give_card(t, "FC-MAG", 0)
    hand(t, 0, ["PIL031"])  # G08 buff
    s = act(ready(t), {"type": "scheme", "card": "PIL031", "use": "both"}, gain("NOB"))
    assert s.turn.buffs == ("G08",)
    assert s.turn.quick_used


def test_r77_two_bonus_scouts_each_add_their_position() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL009", "PIL014", "PIL046", "PIL047"])
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL009", "use": "ability"},
        {"type": "scout", "by": "scheme", "acting": None, "target": [0, 2]},
        {"type": "place", "card": "PIL046"},
        {"type": "scheme", "card": "PIL014", "use": "ability"},
        {"type": "scout", "by": "scheme", "acting": None, "target": [0, 6]},
        {"type": "place", "card": "PIL047"},
    )
    assert s.turn.scout_adjacent == (s.g.index[(0, 2)], s.g.index[(0, 6)])
    favor(t2 := thaw(s), 0, NOB=2)
    s = ready(t2)
    assert {"type": "influence", "by": "main", "target": [0, 2], "n": 1} in options(s)


def test_g08_influence_buff_never_below_one_icon_per_slot() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [])
    t.turn.buffs = ["G08", "G08"]
    favor(t, 0, NOB=1)
    s = ready(t)
    assert {"type": "influence", "by": "main", "target": [4, 4], "n": 1} in options(s)
    # slot 2 costs PRO+PRO: two buffs leave one icon, which NOB cannot pay
    assert {"type": "influence", "by": "main", "target": [4, 4], "n": 2} not in options(s)


def test_r64_bonus_expel_moves_a_disk_from_the_map_only() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0])
    put(t, (3, 5), "PIL012", [0])
    hand(t, 0, ["PIL006", "PIL003"])  # G05
    favor(t, 0, PRO=1)
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL006", "use": "ability"},
        {"type": "expel", "by": "scheme", "acting": [4, 4], "target": [4, 4], "card": "PIL003"},
    )
    assert kinds(s) == "move"
    assert {o["type"] for o in options(s)} == {"move", "stop"}
    assert all(o["from"] == [3, 5] for o in options(s) if o["type"] == "move")


def test_r65_returning_a_claimed_private_plot_sends_its_disks_home() -> None:
    """R65, P-20: the drawn plot waits on top until keep_plot; the returned card goes to
    the bottom and its claims go home."""
    t = table(3, SEED)
    own = t.plot[0]
    assert own is not None
    t.plot_revealed[0] = True
    t.claims_on[own] = [0]
    t.disks[0] -= 1
    hand(t, 0, ["PIL020"])  # G10
    new = t.plot_deck[0]
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL020", "use": "ability"},
        {"type": "draw_plot"},
        {"type": "keep_plot", "plot": new},
    )
    assert s.plot[0] == new
    assert not s.plot_revealed[0]
    assert s.plot_deck[-1] == own
    assert s.disks[0] == 20


def test_g02_swap_moves_cards_with_their_disks_but_not_cubes() -> None:
    """A.1 G02, R27, P-19: a swap names its two cards in reading order (a first)."""
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0])
    put(t, (2, 6), "PIL012", [])
    t.cubes = [t.g.index[(2, 4)]]
    hand(t, 0, ["PIL002"])
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL002", "use": "ability"},
        {"type": "swap", "a": [2, 4], "b": [2, 6]},
    )
    assert card_at(s, (2, 6)) == "PIL016"
    assert slots(s, (2, 6)) == [0, None, None, None]
    assert s.cubes == (s.g.index[(2, 4)],)


def test_g13_take_any_court_card_leaving_the_slot_empty() -> None:
    t = table(3, SEED)
    court(t, ["PIL001", "PIL002", "PIL003", "PIL004", "PIL005"])
    hand(t, 0, ["PIL027"])
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL027", "use": "ability"},
        {"type": "take", "card": "PIL003"},
    )
    assert "PIL003" in s.hands[0]
    assert s.court[2] is None


# --- faction cards (9) -----------------------------------------------------------------


def test_r35_a_tie_of_largest_lodges_goes_to_the_most_disks_on_that_faction() -> None:
    t = table(3, SEED)
    t.fcards = [[fc, None, None, False] for fc in t.g.cat.data.faction_cards]
    t.faction_box = []
    for pos, card in (((0, 2), "PIL009"), ((0, 4), "PIL012"), ((0, 6), "PIL043")):
        put(t, pos, card, [0])  # PRO lodge of 3: seat 0 controls with 3
    for pos, card in (((4, 2), "PIL040"), ((4, 4), "PIL042"), ((4, 6), "PIL044")):
        put(t, pos, card, [1])  # another PRO lodge of 3: seat 1
    put(t, (2, 4), "PIL004", [0])  # one more PRO disk of seat 0, outside the lodges
    assert {o["card"] for o in types_of(ready(t), "claim_faction")} == {"FC-PRO"}


def test_r36_scholars_hand_limit_only_in_the_holders_own_redraw() -> None:
    t = table(3, SEED)
    give_card(t, "FC-SCH", 1)
    for other in (1, 2):
        hand(t, other, [])
    s = run_auto(act(ready(t), {"type": "end"}))
    assert len(s.hands[1]) == 4


def test_r37_r84_a_borrowed_card_goes_back_unless_claimed() -> None:
    t = table(3, SEED)
    t.fcards = [[fc, None, None, False] for fc in t.g.cat.data.faction_cards]
    t.faction_box = []
    t.fcards[1][1] = t.fcards[1][2] = 2  # FC-PRO is seat 2's
    hand(t, 0, ["PIL035"])  # G15
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL035", "use": "ability"},
        {"type": "borrow", "card": "FC-PRO"},
    )
    assert ("FC-PRO", 0, 2, False) in s.fcards
    s = run_auto(act(s, {"type": "end"}))
    assert ("FC-PRO", 2, 2, False) in s.fcards


# --- plots (10, 11.1) ------------------------------------------------------------------


def _public(t: Table, plots: tuple[str, ...]) -> None:
    t.plot_deck.extend(p for p in t.public_plots if p not in plots)
    for p in plots:
        if p in t.plot_deck:
            t.plot_deck.remove(p)
        for seat in range(t.g.players):
            if t.plot[seat] == p:
                t.plot[seat] = t.plot_deck.pop(0)
    t.public_plots = list(plots)


def test_r38_a_plot_with_your_disk_under_it_cannot_be_claimed_again() -> None:
    t = table(3, SEED)
    _public(t, ("P06", "P09"))
    for pos in ((0, 2), (0, 4), (0, 6), (1, 1), (1, 3), (1, 5), (1, 7), (2, 0)):
        put(t, pos, t.deck[0], [0])
    s = ready(t)
    assert {"type": "claim_plot", "plot": "P06"} in options(s)
    t.claims_under["P06"] = [0]
    t.disks[0] -= 1
    assert {"type": "claim_plot", "plot": "P06"} not in options(ready(t))


def test_r40_claims_are_lost_and_regained_in_every_plot_check() -> None:
    t = table(3, SEED)
    _public(t, ("P07", "P09"))
    t.claims_on["P07"] = [1]
    t.disks[1] -= 1
    s = run_auto(act(ready(t), {"type": "end"}))
    assert ("P07", (1,)) in s.claims_under
    t = thaw(s)
    for pos, card in (((0, 2), "PIL001"), ((0, 4), "PIL006"), ((0, 6), "PIL013")):
        put(t, pos, card, [1])
    t.active = 0
    s = run_auto(act(ready(t), {"type": "end"}))
    assert ("P07", (1,)) in s.claims_on


@pytest.mark.parametrize(
    ("plot", "cards"),
    [
        ("P02", (((2, 4), "PIL001"), ((2, 2), "PIL002"), ((2, 6), "PIL010"), ((1, 3), "PIL012"))),
        ("P03", (((2, 4), "PIL052"), ((0, 2), "PIL053"))),
        ("P04", (((1, 3), "PIL001"), ((1, 5), "PIL002"), ((2, 4), "PIL010"), ((2, 2), "PIL012"))),
    ],
)
def test_r66_r67_r68_star_crowns_and_interior_group(
    plot: str, cards: tuple[tuple[tuple[int, int], str], ...]
) -> None:
    t = table(3, SEED)
    for pos, card in cards:
        put(t, pos, card, [0, 0] if plot == "P03" else [0])
    assert P.first_witness(t, 0, plot) is not None
    put(t, cards[-1][0], cards[-1][1], [1, 1] if plot == "P03" else [])
    assert P.first_witness(t, 0, plot) is None


def test_r69_freemason_union_needs_all_six_factions() -> None:
    t = table(3, SEED)
    for pos, card in (((0, 2), "PIL001"), ((0, 4), "PIL013"), ((0, 6), "PIL007")):
        put(t, pos, card, [0])  # FM: MAG/NOB, CLE/PRO, ART/MAG: five factions
    assert P.first_witness(t, 0, "P05") is None
    put(t, (1, 1), "PIL018", [0])  # FM PRO/SCH: all six
    assert P.first_witness(t, 0, "P05") is not None


def test_r71_a_path_of_whispers_is_a_path_with_your_disks() -> None:
    t = table(3, SEED)
    path = (((0, 2), "PIL016"), ((1, 3), "PIL029"), ((2, 2), "PIL031"), ((3, 3), "PIL017"))
    for pos, card in path:
        put(t, pos, card, [0, 1, 1])  # NOB cards: seat 0 has a disk, seat 1 controls
    put(t, (4, 2), "PIL005", [0])
    assert P.first_witness(t, 0, "P08") is not None


def test_r72_rosicrucian_foil_counts_rosicrucian_cards() -> None:
    t = table(3, SEED)
    for pos, card in (((0, 2), "PIL002"), ((0, 4), "PIL003"), ((0, 6), "PIL008")):
        put(t, pos, card, [0, 0] if pos == (0, 2) else [0])
    assert t.g.cat.data.plots["P10"].p10_kind == "RC"
    put(t, (1, 1), "PIL011", [0])
    assert P.first_witness(t, 0, "P10") is not None


def test_r73_p11_a_line_of_three_in_the_middle_row() -> None:
    t = table(3, SEED)
    for pos, card in (((2, 0), "PIL016"), ((2, 2), "PIL029"), ((2, 4), "PIL031")):
        put(t, pos, card, [0])
    assert P.first_witness(t, 0, "P11") is not None
    put(t, (2, 2), "PIL029", [1, 1, 1, 1])
    assert P.first_witness(t, 0, "P11") is None


def test_p13_clandestine_vassal_links_two_placards() -> None:
    t = table(3, SEED)
    chain = ((4, 4), (3, 3), (2, 2), (2, 0))  # seat 0's placard ... seat 1's
    for pos, card in zip(chain, ("PIL016", "PIL029", "PIL031", "PIL017"), strict=True):
        put(t, pos, card, [0])
    assert P.first_witness(t, 0, "P13") is not None


def test_r39_matching_restrictions_witness_sets_and_lodges() -> None:
    assert not P.compatible((0b0111, None), (0b0011, None))  # one inside the other
    assert P.compatible((0b0111, None), (0b1100, None))  # a partial overlap is fine
    assert not P.compatible((0b0011, (0, 7)), (0b1100, (0, 7)))  # the same lodge


# --- check phase (11) ------------------------------------------------------------------


def test_r41_the_flag_draws_two_events_and_keeps_one() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL046"])
    s = act(ready(t), {"type": "scheme", "card": "PIL046", "use": "ability"}, {"type": "end"})
    top2 = s.event_deck[:2]
    s = run_auto(s)
    assert kinds(s) == "keep_event"
    assert s.pending[-1][2] == top2
    kept = top2[1]
    s = act(s, {"type": "keep_event", "event": kept})
    assert s.event_deck[0] == top2[0]


def test_r42_two_court_cards_need_the_chamberlains_and_a_favor() -> None:
    t = table(3, SEED)
    court(t, ["PIL001", "PIL002", "PIL003", "PIL004", "PIL005"])
    t.hands[0] = []
    favor(t, 0, NOB=1)
    pairs = [o["cards"] for o in court_options(t, 4) if len(o["cards"]) == 2]
    assert pairs
    assert all("PIL001" in p for p in pairs)
    favor(t, 0, NOB=0)
    assert not [o for o in court_options(t, 4) if len(o["cards"]) == 2]


# --- special events (D) ----------------------------------------------------------------


def test_r74_electors_decree_expels_other_disks_onto_the_new_card() -> None:
    t = table(3, SEED)
    t.active_event[1] = "S04"
    t.event_deck.remove("S04") if "S04" in t.event_deck else t.event_box.remove("S04")
    put(t, (4, 4), "PIL016", [1, 0])
    hand(t, 0, ["PIL004", "PIL046"])
    favor(t, 0, PRO=2)
    s = ready(t)
    expel = {"type": "expel", "by": "main", "acting": "placard", "target": [4, 4]}
    assert {**expel, "card": "PIL004"} in options(s)
    s = act(s, {**expel, "card": "PIL004"})
    assert slots(s, (4, 4)) == [1, 0]


def test_r75_recruitment_press_takes_three_real_tokens() -> None:
    t = table(3, SEED)
    t.active_event[2] = "S08"
    t.event_deck.remove("S08") if "S08" in t.event_deck else t.event_box.remove("S08")
    favor(t, 0, NOB=3, ART=2)
    s = ready(t)
    assert types_of(s, "press") == [{"type": "press", "faction": "NOB"}]
    s = act(s, {"type": "press", "faction": "NOB"})
    assert s.turn.main_allowed == 3


def test_r76_rosicrucian_advance_does_not_use_the_allowance() -> None:
    t = table(3, SEED)
    t.active_event[1] = "S09"
    t.event_deck.remove("S09") if "S09" in t.event_deck else t.event_box.remove("S09")
    put(t, (4, 4), "PIL014", [])  # RC
    favor(t, 0, MAG=1)
    t.turn.main_used = 2
    s = act(ready(t), {"type": "influence", "by": "advance", "target": [4, 4], "n": 1})
    assert s.turn.main_used == 2
    assert slots(s, (4, 4))[0] == 0


def test_r84_quiet_tidings_skips_conspire() -> None:
    t = table(3, SEED)
    t.active_event[1] = "S07"
    t.event_deck.remove("S07") if "S07" in t.event_deck else t.event_box.remove("S07")
    put(t, (2, 4), "PIL016", [0, 1])
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]}, gain("NOB"))
    assert fav(s, 0) == {"NOB": 2, "PRO": 1}
    assert kinds(s) == "action"


def test_s03_investigators_show_a_hand_to_the_active_player_only() -> None:
    from engine.pax.view import view

    t = table(3, SEED)
    t.active_event[1] = "S03"
    t.event_deck.remove("S03") if "S03" in t.event_deck else t.event_box.remove("S03")
    hand(t, 2, ["PIL050"])
    s = act(ready(t), {"type": "investigate", "seat": 2, "what": "hand"})
    assert "PIL050" in str(view(s, 0)["log"])
    assert "PIL050" not in str(view(s, 1))


# --- the contract (R78-R80) ------------------------------------------------------------


def test_r78_advance_runs_one_automatic_step() -> None:
    s = E.new_game(3, "standard", SEED)
    assert E.to_act(s) is None
    s = E.advance(s)
    assert s.log[-1]["seat"] is None
    assert s.log[-1]["steps"][0]["step"] == "turn"
    assert E.to_act(s) == s.start_seat


def test_r79_a_single_option_is_taken_by_the_engine_and_not_logged_as_an_action() -> None:
    """R79, P-23: a decision with one option is the engine's: only its effects are
    logged, as steps."""
    t = table(3, SEED)
    favor(t, 0, PRO=1)
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    actions = [e["action"]["type"] for e in s.log if e["action"]]
    assert actions == ["scout"]  # the payment and the placing were the only options


def test_r80_an_influence_you_cannot_pay_is_not_offered() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [])
    favor(t, 0, PRO=1)
    assert not types_of(ready(t), "influence")


def test_h2_r12_r43_p22_every_automa_variant_starts_with_the_automa_in_the_last_seat() -> None:
    from engine.pax.setup import SetupError

    assert E.VARIANTS == ("standard", "automa-SG", "automa-J2", "automa-AC", "automa-AW")
    for variant in E.VARIANTS[1:]:
        for players in (2, 3, 4):
            s = E.new_game(players, variant, "p22")
            assert s.g.humans == players - 1
            assert s.g.setup.seats[-1].automa == variant.removeprefix("automa-")
            assert s.token == -1  # the placard (14.2 step 5)
            assert s.disks[-1] == 20  # 14.2 step 4, R43: nothing more
            assert s.hands[-1] == ()
            assert s.plot[-1] is None
    with pytest.raises(SetupError, match="Unknown variant"):
        E.new_game(2, "automa-XX", "x")


def test_15_5_3_p21_the_round_cap_scores_factions() -> None:
    from engine.pax.bots import play_game

    run = play_game(3, "cap-test", round_cap=1)
    assert run.state.round == 1
    result = E.result(run.state)
    assert result is not None
    assert result["reason"] in ("faction_scoring", "plot")
