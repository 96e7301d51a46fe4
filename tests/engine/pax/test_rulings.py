"""Each ruling of the spec (R01-R85) that concerns the game, pinned by a test that cites it:
sections 2-7 here, 8-15 in test_rulings_turn.py, house rulings in test_rulings_house.py."""

from __future__ import annotations

from engine.pax import engine as E
from engine.pax.oust import commitment
from engine.pax.piles import draw
from engine.pax.state import PLACARD, thaw
from tests.engine.pax.support import (
    act,
    card_at,
    fav,
    favor,
    frozen_turn,
    gain,
    give_card,
    hand,
    kinds,
    options,
    oust_table,
    pay,
    put,
    ready,
    run_auto,
    slots,
    steps,
    table,
    types_of,
)

SEED = "seat-2"  # seat 0's contact is C15: PRO, MAG, SCH


# --- favor (2.2) -----------------------------------------------------------------------


def test_r02_overturn_is_optional_and_the_gainer_chooses_the_victim() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL052", [0, 0])  # a Crown: Extort gives 2 NOB per disk
    favor(t, 1, NOB=1)
    favor(t, 2, NOB=1)
    t.favor[0][0] += t.pool[0] - 1
    t.pool[0] = 1
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]})
    assert kinds(s) == "overturn"
    assert {o["from"] for o in options(s)} == {1, 2, None}
    s = act(s, {"type": "overturn", "from": 2})
    s = act(s, {"type": "overturn", "from": None})
    assert s.favor[2][0] == 0
    assert s.favor[1][0] == 1


def test_2_2_5_exchange_three_of_one_faction_pays_any_unit() -> None:
    """2.2.5, P-18: an exchange of 3 tokens of one faction pays any unit; offered only
    when it leaves the rest payable (here the only way, so taken by the engine, R79)."""
    t = table(3, SEED)
    favor(t, 0, CLE=3)
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    assert fav(s, 0) == {}  # the only way: exchange, taken by the engine (R79)
    assert steps(s, "favor")[-1] == {
        "step": "favor",
        "faction": "CLE",
        "n": 3,
        "from": 0,
        "to": "pool",
    }


def test_c_professions_passive_exchanges_two_and_artists_pay_any_unit() -> None:
    t = table(3, SEED)
    give_card(t, "FC-PRO", 0)
    favor(t, 0, CLE=2, NOB=1)
    s = ready(t)
    assert {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]} in options(s)
    t = table(3, SEED)
    give_card(t, "FC-ART", 0)
    favor(t, 0, ART=1)
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    assert fav(s, 0) == {}


# --- the map (2.3-2.8) -----------------------------------------------------------------


def test_r03_the_acting_card_is_adjacent_to_itself_for_expel_and_oust() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0, 1])
    hand(t, 0, ["PIL004"])
    favor(t, 0, NOB=3, PRO=3)
    s = ready(t)
    assert {
        "type": "oust",
        "by": "main",
        "acting": [2, 4],
        "target": [2, 4],
        "defender": 1,
        "k": 1,
    } in options(s)
    put(t, (2, 4), "PIL016", [0])
    s = ready(t)
    expel = {"type": "expel", "by": "main", "acting": [2, 4], "target": [2, 4], "card": "PIL004"}
    assert expel in options(s)


def test_r07_the_bottom_most_disk_leaves_and_disks_never_shift_up() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0, 1, 0])
    put(t, (2, 6), "PIL012", [])
    favor(t, 0, NOB=1)
    s = act(
        ready(t),
        {"type": "organize", "by": "main", "faction": "NOB", "target": None},
    )  # the first step is the only one possible: taken by the engine (R79)
    s = act(s, {"type": "stop"})
    assert slots(s, (2, 4)) == [0, 1, None, None]
    assert slots(s, (2, 6)) == [0, None, None]


def test_r08_a_crown_extorts_two_per_disk_but_quick_favor_gives_two() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL057", [0, 0, 0])
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]})
    assert fav(s, 0) == {"SCH": 6}
    t = table(3, SEED)
    hand(t, 0, ["PIL057"])
    s = act(ready(t), {"type": "scheme", "card": "PIL057", "use": "quick"})
    assert fav(s, 0) == {"SCH": 2}


def test_2_6_9_crown_exclusivity_blocks_influence() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL052", [1])
    favor(t, 0, NOB=6)
    s = ready(t)
    assert not [o for o in types_of(s, "influence") if o["target"] == [4, 4]]


# --- hands and piles (2.10, 2.11) ------------------------------------------------------


def test_r10_a_hand_over_the_limit_is_kept_and_draws_nothing() -> None:
    t = table(3, SEED)
    hand(t, 0, t.deck[:6])
    s = run_auto(act(ready(t), {"type": "end"}))
    assert len(s.hands[0]) == 6


def test_r11_r82_deck_exhaustions_count_and_an_empty_deck_refills_later() -> None:
    t = table(3, SEED)
    t.discard.extend(t.deck[1:])
    del t.deck[1:]
    first = draw(t)
    assert first is not None
    assert t.exhaustions == 1
    assert t.reshuffles == 1  # the discard became the deck at once (2.11.2)
    t = table(3, SEED)
    t.court = [None] * 5
    spare = list(t.deck)
    t.deck = []
    assert draw(t) is None
    assert t.exhaustions == 0  # R82: counted only when the deck goes from some to none
    t.discard = spare
    assert draw(t) is not None


# --- events (5, 12) --------------------------------------------------------------------


def test_r15_an_edict_gives_one_to_the_pool_and_one_to_its_holder() -> None:
    t = table(3, SEED)
    t.event_deck.remove("E-NOB")
    t.edicts[0].append(["E-NOB", 6])
    t.pool[0] -= 6
    t.program = "turn"
    s = E.advance(frozen_turn(t))
    assert s.edicts[0] == (("E-NOB", 4),)
    assert s.favor[0][0] == 1


def test_r15_r16_5_3_edicts_expire_and_five_make_the_final_round() -> None:
    t = table(3, SEED)
    for e in ("E-NOB", "E-PRO"):
        t.event_deck.remove(e)
        t.event_discard.append(e)
    t.edicts_discarded = 4
    t.event_deck.remove("E-MAG")
    t.edicts[0].append(["E-MAG", 2])
    t.pool[2] -= 2
    s = E.advance(frozen_turn(t))
    assert s.edicts[0] == ()
    assert s.edicts_discarded == 5
    assert s.final_round


def test_r16_taking_an_edicts_last_favor_discards_it() -> None:
    t = table(3, SEED)
    t.event_deck.remove("E-ART")
    t.edicts[1].append(["E-ART", 2])
    t.pool[3] -= 2
    hand(t, 0, ["PIL005"])  # G04
    s = act(
        ready(t),
        {"type": "scheme", "card": "PIL005", "use": "ability"},
        {"type": "take_edict", "edict": "E-ART"},
    )
    assert fav(s, 0) == {"ART": 2}
    assert s.edicts[1] == ()
    assert s.event_discard[0] == "E-ART"
    assert s.edicts_discarded == 1


def test_12_2_an_edict_takes_every_token_of_its_faction() -> None:
    t = table(3, SEED)
    favor(t, 1, CLE=2)
    t.turn.revealed = True
    t.event_deck = ["E-CLE", *[e for e in t.event_deck if e != "E-CLE"]]
    s = run_auto(act(ready(t), {"type": "end"}))
    if kinds(s) == "keep_event":
        s = act(s, {"type": "keep_event", "event": "E-CLE"})
    assert s.favor[1][5] == 0
    assert s.edicts[0] == (("E-CLE", 6),)


# --- actions (7) -----------------------------------------------------------------------


def test_r17_the_same_main_action_twice_in_a_turn() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0])
    s = act(ready(t), {"type": "extort", "by": "main", "target": "placard"})
    assert {"type": "extort", "by": "main", "target": [4, 4]} in options(s)


def test_r18_scout_with_an_empty_hand_puts_the_card_straight_back() -> None:
    t = table(3, SEED)
    favor(t, 0, PRO=1)
    card = t.cards[t.g.index[(4, 4)]]
    s = act(ready(t), {"type": "scout", "by": "main", "acting": "placard", "target": [4, 4]})
    assert card_at(s, (4, 4)) == card
    assert s.up[s.g.index[(4, 4)]]
    assert s.hands[0] == ()


def test_r19_bonus_influence_discounts_the_whole_action_by_other_disks() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [1, 2])  # slots 3, 4 open: NOB+NOB+PRO, NOB+PRO+PRO
    hand(t, 0, ["PIL001"])  # G01
    favor(t, 0, NOB=2, PRO=2)
    s = act(ready(t), {"type": "scheme", "card": "PIL001", "use": "ability"})
    assert {"type": "influence", "by": "scheme", "target": [2, 4], "n": 2} in options(s)


def test_r20_r22_a_placard_yields_once_and_only_your_own() -> None:
    t = table(3, SEED)
    s = act(ready(t), {"type": "extort", "by": "main", "target": "placard"})
    assert {"type": "extort", "by": "main", "target": "placard"} not in options(s)
    assert PLACARD in s.turn.yielded


def test_r21_whisper_does_not_chain() -> None:
    t = table(3, SEED)
    put(t, (2, 2), "PIL002", [0])  # II
    put(t, (2, 4), "PIL025", [0])  # II, next to (2,2)
    put(t, (2, 6), "PIL033", [0])  # II, next to (2,4) only
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 2]})
    assert s.g.index[(2, 6)] not in s.turn.yielded


def test_r23_conspire_pays_from_the_supply_when_the_gain_runs_out() -> None:
    """R23, P-16: Conspire pays each recipient what the yielding cards owe it, from the
    supply when the gain runs out."""
    t = table(3, SEED)
    put(t, (2, 4), "PIL004", [0, 1])  # rank I: yields 1; seat 1 is owed 1
    put(t, (2, 2), "PIL024", [1, 1])  # rank I neighbour with seat 1's disks: no whisper
    favor(t, 0, CLE=1)
    s = act(ready(t), {"type": "extort", "by": "main", "target": [2, 4]}, gain("MAG"))
    assert fav(s, 1) == {"MAG": 1}
    assert fav(s, 0) == {"CLE": 1}


def test_r24_an_organize_must_move_a_disk() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0])
    put(t, (2, 6), "PIL012", [])
    favor(t, 0, NOB=1)
    s = act(ready(t), {"type": "organize", "by": "main", "faction": "NOB", "target": None})
    assert {"type": "stop"} not in options(s)


def test_r25_r31_cube_follow_ups_act_on_the_cubes_card() -> None:
    t = table(3, SEED)
    put(t, (2, 4), "PIL016", [0])
    put(t, (2, 6), "PIL012", [0])
    t.cubes = [t.g.index[(2, 4)]]
    favor(t, 0, CLE=1, NOB=1, PRO=1)
    t.turn.main_used = 2
    s = ready(t)
    follow = [o for o in options(s) if o.get("by") == "cube"]
    assert follow
    assert all(o.get("target") == [2, 4] for o in follow)
    s = act(s, {"type": "organize", "by": "cube", "faction": "PRO", "target": [2, 4]})
    assert kinds(s) == "pay"
    s = act(s, pay("CLE"))
    assert slots(s, (2, 4))[:2] == [0, 0]
    assert s.cubes == ()


def test_r26_a_face_down_card_may_be_expelled_and_shows_its_face() -> None:
    t = table(3, SEED)
    hand(t, 0, ["PIL004"])
    favor(t, 0, PRO=1)
    old = t.cards[t.g.index[(4, 4)]]
    s = act(
        ready(t),
        {"type": "expel", "by": "main", "acting": "placard", "target": [4, 4], "card": "PIL004"},
    )
    assert s.discard[0] == old
    assert {"step": "flip", "card": old, "pos": [4, 4]} in steps(s, "flip")


def test_r27_cubes_stay_with_their_position() -> None:
    t = table(3, SEED)
    put(t, (4, 4), "PIL016", [0])
    t.cubes = [t.g.index[(4, 4)]]
    hand(t, 0, ["PIL004"])
    favor(t, 0, PRO=1)
    s = act(
        ready(t),
        {"type": "expel", "by": "main", "acting": "placard", "target": [4, 4], "card": "PIL004"},
    )
    assert s.cubes == (s.g.index[(4, 4)],)


def test_r28_continue_only_while_the_attacker_holds_a_card() -> None:
    s = oust_table(table(3, SEED), ["PIL007"], ["PIL004"])
    assert {o["choice"] for o in options(s)} == {"call", "yield"}
    s = oust_table(table(3, SEED), ["PIL007", "PIL003"], ["PIL004"])
    s = act(s, {"type": "oust_card", "card": "PIL007"})
    assert {o["choice"] for o in options(s)} == {"continue", "call", "yield"}


def test_r29_two_auto_wins_cancel_and_totals_decide() -> None:
    """Blue is the underdog (5 to 6): Blue's Dagger, then Red's Hammer; 5 < 6 + 0."""
    s = oust_table(table(3, SEED), ["PIL047", "PIL003"], ["PIL056", "PIL004"])
    s = act(s, {"type": "oust_card", "card": "PIL047"}, {"type": "oust_card", "card": "PIL056"})
    assert sorted(s.oust.autowin) == [0, 1] if s.oust else False
    s = act(s, {"type": "oust_next", "choice": "continue"})
    s = act(s, {"type": "oust_next", "choice": "call"})
    ends = steps(s, "oust_end")
    assert ends[-1]["winner"] == 1  # Blue 5 + 5 = 10 against Red 6 + 4 = 10: a tie


def test_15_2_the_defender_never_sees_the_attackers_sealed_card() -> None:
    from engine.pax.view import view

    s = oust_table(table(3, SEED), ["PIL007", "PIL003"], ["PIL004", "PIL038"])
    assert E.to_act(s) == 0  # the attacker commits first (H.7)
    s3 = act(s, {"type": "oust_card", "card": "PIL003"})
    assert kinds(s3) == "oust_card"
    assert E.to_act(s3) == 1
    v = view(s3, 1)
    assert v["state"]["oust"]["sealed"] == [{"seat": 0}]
    assert "PIL003" not in str(v)
    commit = steps(s3, "commit")[-1]
    assert commit["seat"] == 0
    assert len(commit["hash"]) == 64


def test_p10_a_commitment_checks_against_the_revealed_nonce() -> None:
    import hashlib

    s = oust_table(table(3, SEED), ["PIL007"], ["PIL004"])
    reveal = steps(s, "oust")[-1]
    commits = steps(s, "commit")
    t = thaw(s)
    oust_id = next(e["seq"] for e in s.log for st in e["steps"] if st["step"] == "commit")
    for seat, card, nonce, c in zip(
        (0, 1), reveal["cards"], reveal["nonces"], commits, strict=True
    ):
        text = "|".join([s.g.setup.commitment, str(oust_id), "1", str(seat), card, nonce])
        assert hashlib.sha256(text.encode()).hexdigest() == c["hash"]
        assert commitment(t, oust_id, 1, seat, card) == (nonce, c["hash"])


def test_r30_no_cube_when_all_four_are_on_the_map() -> None:
    t = table(3, SEED)
    t.cubes = [t.g.index[p] for p in ((0, 2), (0, 4), (0, 6), (1, 1))]
    s = oust_table(t, ["PIL007"], ["PIL004"])
    s = act(s, {"type": "oust_next", "choice": "call"}, gain("NOB"))
    assert len(s.cubes) == 4


def test_c_clergy_passive_the_defender_reveals_first() -> None:
    t = table(3, SEED)
    give_card(t, "FC-CLE", 0)
    s = oust_table(t, ["PIL007", "PIL003"], ["PIL004", "PIL038"])
    assert kinds(s) == "oust_card"
    assert E.to_act(s) == 1


def test_r05_a_face_down_card_has_no_trait_no_lodge_and_no_control() -> None:
    from engine.pax import board as B

    t = table(3, SEED)
    for pos, card in (((0, 2), "PIL016"), ((0, 4), "PIL029"), ((0, 6), "PIL031")):
        put(t, pos, card, [0])
    assert [len(x) for x in B.lodges(t, 0)] == [3]
    put(t, (0, 4), "PIL029", up=False)
    assert B.lodges(t, 0) == []
    assert B.controller(t, t.g.index[(0, 4)]) is None
    assert B.usable(t, 0, t.g.index[(0, 4)]) == 0


def test_r06_the_contact_card_stays_for_the_whole_game() -> None:
    from engine.pax.bots import play_game
    from engine.pax.record import full_record

    s = play_game(2, "r06", round_cap=6).state
    rec = full_record(s)
    assert [x["contact"] for x in rec["seats"]] == [x.contact for x in s.g.setup.seats]
    t = thaw(s)
    assert t.g.contact[0] == t.g.cat.contact_factions[rec["seats"][0]["contact"]]


def test_r09_faction_cards_use_maximal_lodges_and_plots_use_lodge_sets() -> None:
    from engine.pax import board as B
    from engine.pax import plots as P

    t = table(3, SEED)
    lodge = (((0, 2), "PIL016"), ((0, 4), "PIL029"), ((0, 6), "PIL031"), ((1, 7), "PIL017"))
    for pos, card in lodge:
        put(t, pos, card, [0])
    put(t, (1, 3), "PIL005", [1, 1, 1])  # the fifth NOB card: seat 1's three disks
    # seat 1 controls a lodge set ((1,3), (0,2), (0,4): 3 to 2), but the claim reads the
    # maximal lodge of 5, where seat 0 has 4 to 3
    assert B.set_controller(t, [t.g.index[p] for p in ((1, 3), (0, 2), (0, 4))]) == 1
    assert B.largest_lodge_controller(t, 0) == 0
    # P01 is met by a lodge set: the 4 edge cards, part of the lodge; its identity is the
    # maximal lodge
    w = P.first_witness(t, 0, "P01")
    assert w is not None
    five = sum(1 << t.g.index[p] for p in ((0, 2), (0, 4), (0, 6), (1, 7), (1, 3)))
    assert w == (five & ~(1 << t.g.index[(1, 3)]), (0, five))


def test_r70_knights_are_a_card_attribute_read_by_p07() -> None:
    t = table(3, SEED)
    knights = [c for c in ("PIL001", "PIL006", "PIL013") if t.g.cat.cards[c].knight]
    assert len(knights) == 3
    for pos, card in zip(((0, 2), (0, 4)), knights, strict=False):
        put(t, pos, card, [0])
    from engine.pax import plots as P

    assert P.first_witness(t, 0, "P07") is not None  # 2 knights with 3 players
    put(t, (0, 4), knights[1], [0, 1])
    assert P.first_witness(t, 0, "P07") is None
