"""What every automa shares (14.6-14.8, H.6): a human Ousting it (14.7.6, R81, P-30,
P-36), its favor choices, overturn and Conspire (14.6, P-31, R63), its Event phase,
Event Check and Redraw (14.8.1, 14.8.3, 14.8.4, R58), its faction claim (14.8.2, R56,
P-33), B-Expel without a replacement (P-35) and the log's sentences (P-29)."""

from __future__ import annotations

from engine.pax import engine as E
from engine.pax.automa.favor import bot_gain
from engine.pax.automa.turn import claim
from engine.pax.state import State, freeze
from tests.engine.pax.automa_support import (
    BL,
    BR,
    FL,
    FR,
    L,
    R,
    atable,
    bpos,
    deck_top,
    lines,
    texts,
    turn,
)
from tests.engine.pax.support import (
    act,
    fav,
    favor,
    give_card,
    hand,
    idx,
    kinds,
    pay,
    put,
    ready,
    slots,
    steps,
)

BOT = 1
PLAIN = ("PIL003", "PIL007", "PIL008", "PIL011", "PIL015", "PIL020")
"""Cards sharing no faction with PIL016 (NOB/PRO)."""
OUST = {"type": "oust", "by": "main", "acting": [4, 5], "target": [4, 3], "defender": 1, "k": 1}


def human_attacks(cards: list[str]) -> State:
    """Seat 0 (a human) Ousts the automa's disk on (4, 3), acting from (4, 5)."""
    t = atable(2, "SG")
    t.active = 0
    put(t, (4, 3), "PIL016", [BOT])
    put(t, (4, 5), "PIL024", [0])  # MAG/ART: the Oust costs 1 MAG
    favor(t, 0, MAG=1, NOB=6)  # every NOB token is the human's: the pool has none
    hand(t, 0, cards)
    deck_top(t, "PIL001")  # strength 3
    s = act(ready(t), OUST)
    if kinds(s) == "pay":  # MAG, or 3 NOB exchanged (2.2.5)
        s = act(s, pay("MAG"))
    return s


def test_14_7_6_p36_the_automa_defends_with_the_deck_top_turned_after_the_human() -> None:
    s = human_attacks(["PIL019"])  # one card: its commitment is forced (R79)
    assert steps(s, "commit")[0]["seat"] == 0
    assert steps(s, "oust")[0]["cards"] == ["PIL019", "PIL001"]
    assert steps(s, "oust")[0]["nonces"][1] is None  # the automa commits nothing
    moves = [m for m in steps(s, "move") if m["card"] == "PIL001"]
    assert moves == [{"step": "move", "card": "PIL001", "from": ["deck"], "to": ["oust"]}]
    assert kinds(s) == "oust_next"  # the human's ordinary choice (15.2.5)
    s = act(s, {"type": "oust_next", "choice": "call"})
    assert steps(s, "oust_end")[0]["winner"] == 0  # 2 + 5 against 1 + 3
    assert slots(s, (4, 3))[0] is None
    # 14.6 and P-30: the target's top faction, NOB; the pool has none: overturn (2.2.6)
    assert fav(s, BOT) == {"NOB": 1}
    assert fav(s, 0)["NOB"] == 5
    assert [x for x in lines(s) if x[0] == "defend"] == [("defend", [4, 3])] * 2
    assert "Count of St. Germain turns PIL001 from the deck in round 1" in texts(s)
    assert s.cubes == (idx(s, (4, 3)),)  # the human attacker's cube (7.6.8 E)


def test_r81_with_the_clergy_passive_the_automa_turns_its_card_first() -> None:
    t = atable(2, "SG")
    t.active = 0
    put(t, (4, 3), "PIL016", [BOT])
    put(t, (4, 5), "PIL024", [0])
    favor(t, 0, MAG=1)
    give_card(t, "FC-CLE", 0)
    hand(t, 0, ["PIL019", "PIL046"])
    deck_top(t, "PIL001")
    s = act(ready(t), OUST)
    assert kinds(s) == "oust_card"
    assert E.to_act(s) == 0
    assert (BOT, "PIL001") in s.oust_played  # turned and revealed before the human chooses


def test_14_6_r47_r50_p31_conspire_gives_the_targets_bottom_faction_first() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL043", [0])  # NOB/PRO with a human disk and open slots: b1
    for pos, card in zip(
        (FR, R, BR, BL, L), ("PIL007", "PIL008", "PIL011", "PIL015", "PIL020"), strict=False
    ):
        put(t, pos, card, [])
    s = turn(t)
    assert slots(s, FL) == [0, BOT, None]
    assert fav(s, 0) == {"PRO": 1}  # 14.6: the bottom faction first
    assert fav(s, BOT) == {"NOB": 1}


def test_r63_quiet_tidings_skips_the_automas_conspire() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL043", [0])
    for pos, card in zip(
        (FR, R, BR, BL, L), ("PIL007", "PIL008", "PIL011", "PIL015", "PIL020"), strict=False
    ):
        put(t, pos, card, [])
    t.event_deck.remove("S07")
    t.active_event[0] = "S07"
    s = turn(t)
    assert fav(s, BOT) == {"NOB": 1, "PRO": 1}
    assert fav(s, 0) == {}


def test_14_6_p31_the_automa_overturns_one_token_at_a_time_from_the_richest_human() -> None:
    t = atable(3, "SG")
    pro = 1
    favor(t, 0, PRO=2)
    favor(t, 1, PRO=3)
    favor(t, 2, PRO=3)  # the pool has no PRO left
    assert t.pool[pro] == 0
    assert bot_gain(t, 2, pro, 2) == 2
    assert t.favor[1][pro] == 2  # the richest human first (3 against 2) ...
    assert t.favor[0][pro] == 1  # ... then a tie (2 and 2): the first from the bot's left


def test_14_8_1_r15_the_automas_edicts_advance_and_its_action_phase_is_automatic() -> None:
    t = atable(2, "SG")
    t.event_deck.remove("E-ART")
    t.edicts[BOT].append(["E-ART", 2])
    t.pool[3] -= 2
    s = ready(t, "turn")
    assert s.edicts[BOT] == ()  # 1 to the pool, 1 to the automa: empty, discarded (5.1)
    assert s.event_discard == ("E-ART",)
    assert fav(s, BOT) == {"ART": 1}
    assert s.program == "automa"  # never "menu" or "activate" for the automa
    assert E.to_act(s) is None


def test_14_8_3_the_automa_turns_one_event_an_edict_resolves_before_it() -> None:
    t = atable(2, "SG")
    t.turn.revealed = True
    favor(t, 0, NOB=2)
    s = ready(t, "event_check")
    assert s.edicts[BOT] == (("E-NOB", 6),)  # the top card of the event deck
    assert fav(s, 0) == {}  # 12.2: every NOB token went to the pool first
    assert s.event_deck[0] == "E-PRO"
    assert s.program == "redraw"


def test_14_8_3_a_special_event_turned_by_the_automa_is_discarded() -> None:
    t = atable(2, "SG")
    t.turn.revealed = True
    t.event_deck.remove("S09")
    t.event_deck.insert(0, "S09")
    s = ready(t, "event_check")
    assert s.event_discard == ("S09",)
    assert s.events[BOT] == ()
    t = atable(2, "SG")
    s = ready(t, "event_check")  # no Ace or Crown this turn: no event
    assert s.event_deck[0] == "E-NOB"


def test_14_8_4_r58_the_plan_card_is_discarded_and_the_humans_draw() -> None:
    t = atable(2, "AC")
    deck_top(t, "PIL030")
    t.plan = t.deck.pop(0)
    s = ready(t, "redraw")
    assert s.plan is None
    assert "PIL030" in s.discard
    assert len(s.hands[0]) == 4  # 11.3 step 2
    assert s.hands[BOT] == ()
    assert s.active == 0  # the next seat's turn


def test_14_8_2_r56_p33_the_automa_claims_the_card_of_b_top_faction_first() -> None:
    t = atable(2, "SG")
    give_card(t, "FC-NOB", None)
    give_card(t, "FC-PRO", 0)
    for pos, card in (((2, 1), "PIL043"), ((2, 3), "PIL016"), ((2, 5), "PIL021")):
        put(t, pos, card, [BOT])  # a lodge of NOB and of PRO, 3 bot disks on each
    t.token = t.g.index[(2, 3)]
    claim(t, BOT)
    s = freeze(t)
    held = {fc[0]: fc[1] for fc in s.fcards}
    assert held["FC-NOB"] == BOT  # PIL016's top faction
    assert held["FC-PRO"] == 0  # one claim a turn
    t.token = t.g.index[(2, 5)]  # PIL021: PRO/NOB, PRO first; taken from seat 0
    claim(t, BOT)
    assert {fc[0]: fc[2] for fc in t.fcards}["FC-PRO"] == BOT


def test_r44_p35_b_expel_without_a_replacement_does_not_hold() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip(
        (FL, FR, R, BR, BL, L),
        ("PIL003", "PIL007", "PIL008", "PIL011", "PIL015", "PIL020"),
        strict=False,
    ):
        put(t, pos, card, [])
    hand(t, 0, list(t.deck))  # no deck, no discard, no PLAN: c1 cannot be done (R44)
    s = turn(t)
    assert lines(s)[0][0] == "R46"


def test_h6_p29_each_script_line_is_a_sentence_logged_before_its_effects() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    put(t, FL, "PIL043", [])
    for pos, card in zip(
        (FR, R, BR, BL, L), ("PIL007", "PIL008", "PIL011", "PIL015", "PIL020"), strict=False
    ):
        put(t, pos, card, [])
    s = turn(t)
    entry = s.log[-1]
    kinds_ = [st["step"] for st in entry["steps"]]
    assert kinds_[0] == "automa"
    assert kinds_.index("automa") < kinds_.index("disk")
    line = entry["steps"][0]
    assert set(line) == {"step", "seat", "rule", "target", "text"}
    assert line["text"].startswith("Count of St. Germain influences PIL043 at (3, 4)")


def test_r82_p35_b_expel_with_an_empty_deck_reshuffles_the_discard_with_its_target() -> None:
    t = atable(2, "SG")
    bpos(t, (2, 3), "PIL016")
    for pos, card in zip((FL, FR, R, BR, BL, L), PLAIN, strict=True):
        put(t, pos, card, [])
    hand(t, 0, list(t.deck))
    spare = t.hands[0].pop()
    t.discard.insert(0, spare)
    s = turn(t)
    assert lines(s)[0] == ("c1", [3, 4])
    assert steps(s, "reshuffle") == [{"step": "reshuffle", "n": 1, "size": 2}]
    assert {s.cards[s.g.index[FL]], *s.deck} == {"PIL003", spare}
