"""Set-up from a seed (spec 3.1, 3.2, 3.3, 14.2, 15.3; the record's H.3 and H.4)."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pax.loader import data
from engine.pax.rng import Stream, seed_commitment, shuffled
from engine.pax.setup import Setup, SetupError, new_setup, seating, setup_record, variants

D = data()
COUNTS = (2, 3, 4)
VARIANTS = variants()
CASES = [(n, v) for n in COUNTS for v in VARIANTS]


def _all_luminaries(s: Setup) -> list[str]:
    hands = [card for seat in s.seats for card in seat.hand]
    return [card for _, card in s.map] + list(s.court) + hands + list(s.deck)


# --- 15.3 randomness -----------------------------------------------------------------------


def _reference_shuffle(seed: str, label: str, items: list[str]) -> list[str]:
    """15.3.2 written out independently: HMAC blocks, 32-bit words, rejection, Fisher-Yates."""
    words: list[int] = []
    counter = 0

    def word() -> int:
        nonlocal counter
        if not words:
            msg = label.encode() + counter.to_bytes(8, "big")
            digest = hmac.new(seed.encode(), msg, hashlib.sha256).digest()
            words.extend(int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4))
            counter += 1
        return words.pop(0)

    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        w = word()
        while w >= limit:
            w = word()
        j = w % n
        out[i], out[j] = out[j], out[i]
    return out


def test_15_3_2_p1_the_shuffle_is_the_hmac_stream_fisher_yates() -> None:
    items = [f"PIL{n:03d}" for n in range(1, 58)]
    assert list(shuffled("s3cret", "lum/initial", items)) == _reference_shuffle(
        "s3cret", "lum/initial", items
    )


def test_15_3_2_each_label_has_its_own_stream() -> None:
    items = tuple(range(20))
    assert shuffled("seed", "plots", items) != shuffled("seed", "factions", items)
    assert shuffled("seed", "plots", items) == shuffled("seed", "plots", items)


def test_15_3_2_rejection_sampling_stays_in_range() -> None:
    stream = Stream("seed", "test")
    draws = [stream.below(3) for _ in range(600)]
    assert set(draws) == {0, 1, 2}
    assert all(count > 150 for count in Counter(draws).values())
    assert Stream("seed", "x").below(1) == 0
    with pytest.raises(ValueError, match="cannot draw below 0"):
        stream.below(0)


def test_h2_the_seed_commitment_is_sha256_hex() -> None:
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()


def test_15_3_3_the_global_random_is_never_used() -> None:
    random.seed(1)
    first = new_setup(4, "standard", "g")
    random.seed(2)
    random.random()
    assert new_setup(4, "standard", "g") == first


# --- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_0_4_the_same_seed_gives_the_same_setup(players: int, variant: str) -> None:
    a = new_setup(players, variant, "same seed")
    b = new_setup(players, variant, "same seed")
    assert a == b
    assert setup_record(a) == setup_record(b)
    assert new_setup(players, variant, "other seed").deck != a.deck


GOLDEN_MAP = (((0, 2), "PIL027"), ((0, 4), "PIL033"), ((0, 6), "PIL023"))
GOLDEN_COURT = ("PIL010", "PIL045", "PIL008", "PIL055", "PIL012")
GOLDEN_CONTACTS = ["C05", "C13", "C14", "C06"]
GOLDEN_EVENTS = ("E-ART", "E-CLE", "E-SCH")
GOLDEN_PLOTS = ("P07", "P13")
GOLDEN_SEATING = (2, 1, 3, 0)


def test_golden_setup_pins_the_streams_and_deal_order() -> None:
    """Pins P-1 to P-4: a change here breaks replays of stored games."""
    s = new_setup(4, "automa-SG", "pax-golden")
    assert s.map[:3] == GOLDEN_MAP
    assert s.court == GOLDEN_COURT
    assert [seat.contact for seat in s.seats] == GOLDEN_CONTACTS
    assert s.event_deck[:3] == GOLDEN_EVENTS
    assert s.public_plots == GOLDEN_PLOTS
    assert seating("pax-golden", 4) == GOLDEN_SEATING


# --- 3.2: every card in exactly one place ---------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_16_3_every_card_is_in_exactly_one_place(players: int, variant: str) -> None:
    s = new_setup(players, variant, f"seed {players} {variant}")
    assert sorted(_all_luminaries(s)) == sorted(D.luminaries)  # 16.3 invariant 3
    plots = list(s.public_plots) + [x.plot for x in s.seats if x.plot] + list(s.plot_deck)
    assert sorted(plots) == sorted(D.plots)
    assert sorted(s.faction_display + s.faction_box) == sorted(D.faction_cards)
    assert sorted(s.event_deck + s.event_box) == sorted([*D.edicts, *D.specials])
    contacts = [x.contact for x in s.seats]
    assert len(set(contacts)) == players
    assert set(contacts) <= set(D.contacts)


@settings(max_examples=15, deadline=None)
@given(st.text(max_size=12), st.sampled_from(CASES))
def test_property_any_seed_deals_every_card_once(seed: str, case: tuple[int, str]) -> None:
    s = new_setup(case[0], case[1], seed)
    assert sorted(_all_luminaries(s)) == sorted(D.luminaries)
    assert len(s.event_deck) == 12


# --- the deal order: rulings P-2 to P-4 ------------------------------------------------------


def test_p2_p3_map_court_and_hands_come_off_the_top_in_step_order() -> None:
    seed = "deal order"
    s = new_setup(4, "automa-J2", seed)
    deck = shuffled(seed, "lum/initial", tuple(D.luminaries))  # catalogue (file) order in
    assert tuple(D.luminaries) == tuple(sorted(D.luminaries))
    assert tuple(card for _, card in s.map) == deck[:19]  # reading order
    assert s.court == deck[19:24]  # slots 1 to 5
    assert [x.hand for x in s.seats] == [deck[24:28], deck[28:32], deck[32:36], ()]
    assert s.deck == deck[36:]


def test_p3_contacts_and_plots_are_dealt_in_seat_order() -> None:
    seed = "deal order"
    s = new_setup(3, "automa-AC", seed)
    contacts = shuffled(seed, "contacts", tuple(D.contacts))
    assert [x.contact for x in s.seats] == list(contacts[:3])
    plots = shuffled(seed, "plots", tuple(D.plots))
    assert s.public_plots == plots[:2]
    assert [x.plot for x in s.seats] == [plots[2], plots[3], None]
    assert s.plot_deck == plots[4:]


def test_r14_p4_packets_factions_and_the_boxes_keep_shuffle_order() -> None:
    """R14: packet A (edicts 1-3, specials 1-3, shuffled) goes on top of packet B; P-4's
    order inside packets and boxes."""
    seed = "deal order"
    s = new_setup(2, "standard", seed)
    edicts = shuffled(seed, "events/edicts", tuple(D.edicts))
    specials = shuffled(seed, "events/specials", tuple(D.specials))
    packet_a = shuffled(seed, "events/packetA", edicts[:3] + specials[:3])
    packet_b = shuffled(seed, "events/packetB", edicts[3:] + specials[3:6])
    assert s.event_deck == packet_a + packet_b  # R14: A on top of B
    assert s.event_box == specials[6:]
    factions = shuffled(seed, "factions", tuple(D.faction_cards))
    assert (s.faction_display, s.faction_box) == (factions[:3], factions[3:])


# --- 3.1 values by player count ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_3_1_counts_by_player_count(players: int, variant: str) -> None:
    s = new_setup(players, variant, "counts")
    layout, pool_favor, display = {2: ("M14", 6, 3), 3: ("M19", 8, 4), 4: ("M19", 10, 5)}[players]
    assert s.layout == layout
    assert [pos for pos, _ in s.map] == list(D.layouts[layout].positions)  # reading order
    assert len(s.faction_display) == display
    assert len(s.faction_box) == 6 - display
    # 16.3 invariant 1: pool + supplies = the set-up amount, per faction.
    for index in range(6):
        assert s.pool[index] + sum(x.favor[index] for x in s.seats) == pool_favor
    assert all(x.disks == 20 for x in s.seats)
    assert len(s.court) == 5
    assert s.chamberlain == 0  # 2.12, 3.2 step 4: slot 1
    assert s.cube_supply == 4
    assert len(s.public_plots) == 2


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_3_2_steps_7_to_10_hands_contacts_favor_and_the_starting_player(
    players: int, variant: str
) -> None:
    s = new_setup(players, variant, "steps")
    for seat in s.seats:
        human = seat.automa is None
        assert len(seat.hand) == (4 if human else 0)
        assert (seat.plot is not None) == human
        gained = D.contacts[seat.contact].factions
        assert seat.favor == tuple(int(f in gained) for f in D.faction_codes)
    numbers = [D.contacts[x.contact].number for x in s.seats]
    assert s.start_seat == numbers.index(min(numbers))


def test_3_2_step_15_packet_a_and_b_each_hold_3_edicts_and_3_specials() -> None:
    for seed in ("e1", "e2", "e3"):
        s = new_setup(3, "standard", seed)
        for packet in (s.event_deck[:6], s.event_deck[6:]):
            assert sum(card in D.edicts for card in packet) == 3
            assert sum(card in D.specials for card in packet) == 3
        assert all(card in D.specials for card in s.event_box)


@pytest.mark.parametrize("players", COUNTS)
def test_3_2_step_6_seats_follow_appendix_f(players: int) -> None:
    s = new_setup(players, "standard", "seats")
    places = D.layout_for(players).seats(players)
    assert [(x.seat, x.placard, x.facing) for x in s.seats] == [
        (i, p.placard, p.facing) for i, p in enumerate(places)
    ]


# --- 3.3 and 14.2: the automa ---------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("bot", ["SG", "J2", "AC", "AW"])
def test_14_2_r12_the_automa_takes_the_last_seat_with_no_hand_or_plot(
    players: int, bot: str
) -> None:
    s = new_setup(players, f"automa-{bot}", "bots")
    automa = s.seats[-1]
    assert s.automa == bot
    assert automa.automa == bot
    assert [x.automa for x in s.seats[:-1]] == [None] * (players - 1)
    assert (automa.hand, automa.plot) == ((), None)
    assert sum(automa.favor) == 3  # 14.2 step 3
    assert automa.disks == 20  # 14.2 step 4
    assert s.automa_token == "placard"  # 14.2 step 5
    assert len(s.deck) == 57 - len(s.map) - 5 - 4 * (players - 1)


def test_14_2_a_standard_game_has_no_automa_token() -> None:
    s = new_setup(2, "standard", "x")
    assert s.automa is None
    assert s.automa_token is None
    assert all(len(x.hand) == 4 for x in s.seats)


def test_r12_p6_seating_is_a_permutation_from_the_seats_stream() -> None:
    order = seating("seed", 4)
    assert sorted(order) == [0, 1, 2, 3]
    assert order == shuffled("seed", "seats", (0, 1, 2, 3))


def test_h2_unknown_counts_and_variants_are_refused() -> None:
    with pytest.raises(SetupError, match=r"A game has 2, 3, 4 seats, not 5\."):
        new_setup(5, "standard", "x")
    with pytest.raises(SetupError, match="Unknown variant 'automa-XX'"):
        new_setup(2, "automa-XX", "x")
    assert VARIANTS == ("standard", "automa-SG", "automa-J2", "automa-AC", "automa-AW")


# --- H.3 and H.4 JSON ---------------------------------------------------------------------------


def test_h3_h4_the_record_opening_is_json() -> None:
    s = new_setup(2, "automa-SG", "json")
    record = setup_record(s)
    assert json.loads(json.dumps(record)) == record
    assert record["settings"] == {
        "variant": "automa-SG",
        "players": 2,
        "automa": "SG",
        "layout": "M14",
        "round_cap": None,
    }
    assert record["data"] == {"id": "house", "version": "1"}
    assert record["seed"] == {"commitment": seed_commitment("json"), "value": None}
    assert record["seats"][1]["placard"] == [-1, 4]
    assert record["seats"][1]["facing"] == 3
    assert set(record["setup"]) == {
        "map",
        "court",
        "hands",
        "start_seat",
        "faction_display",
        "faction_box",
        "public_plots",
        "private_plots",
        "deck",
        "event_deck",
        "plot_deck",
        "event_box",
    }
    assert record["setup"]["map"][0] == {"pos": [0, 3], "card": s.map[0][1], "face_up": False}
    assert record["setup"]["hands"][1] == []
    assert record["setup"]["private_plots"][1] is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r13_one_shuffle_of_the_plots_sets_out_two_public_plots(players: int) -> None:
    """R13: step 13 is one step: the 13 plots are shuffled once (stream ``plots``) and
    2 are turned face up; each human's private plot and the plot deck come from the same
    shuffle, and every plot is in exactly one place."""
    for n in range(5):
        seed = f"r13-{players}-{n}"
        s = new_setup(players, "standard", seed)
        plots = shuffled(seed, "plots", tuple(D.plots))
        assert len(s.public_plots) == 2
        assert s.public_plots == plots[:2]
        private = [x.plot for x in s.seats if x.plot is not None]
        assert private == list(plots[2 : 2 + players])
        placed = [*s.public_plots, *private, *s.plot_deck]
        assert sorted(placed) == sorted(D.plots)
        assert len(D.plots) == 13
