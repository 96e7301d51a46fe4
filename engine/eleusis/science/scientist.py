"""The scientist bot (NE-30.2): plays, no plays, prophet declarations and calls from the
posterior over the hypothesis families, reading only its seat's view.

Decisions, with p(x) the posterior probability that face x is right next:
- a single card: expected hand change 1 - 2p; a string of k cards all right with
  probability q: k(1 - 2q), tried only for cards with p >= 0.85; a no play with
  r = P(no card of the hand is right): 4 - 8r (E14, NE-9);
- value = expected hand gain + beta x information (the entropy H2 of the outcome, in
  bits); beta falls as the round goes on (PC) and is zero once the bot is sure;
- sudden death (NE-11): a card only if p >= 0.9, no play if r >= 0.9, otherwise the most
  likely right card;
- prophet (NE-10.1): declare when the posterior's disagreement with its own majority call,
  over the next contexts, is under ``PROPHET_DISAGREEMENT`` (NE-30.2: 20 calls with 20%
  error in total is 1% a call); call by posterior majority (a no play: "correct" iff
  r > 0.5, else the most probable right card of the shown hand).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import permutations

from engine.core import JsonDict
from engine.eleusis.bots import dealer_bot, explicit
from engine.eleusis.faces import FACE_INDEX
from engine.eleusis.science.evidence import Cell, Evidence, evidence
from engine.eleusis.science.families import families
from engine.eleusis.science.posterior import DEFAULT_LAMBDA, Posterior, Science
from engine.eleusis.science.programs import compiled, programs

STRING_THRESHOLD = 0.85
SUDDEN_DEATH_SURE = 0.9
PROPHET_ERROR = 0.05
BONUS_PER_CALL = 1.3
OVERTHROW_CARDS = 5
NEXT_PREVIOUS = range(0, 52, 3)
"""Faces that may end the main line at the next call: every third face, so every rank
and every suit (3 and 4 are coprime)."""
BETA = 0.5
MAX_STRING_SURVIVORS = 20_000
DISAGREEMENT_MEMBERS = 4_000


@dataclass(frozen=True)
class Settings:
    """The scientist's knobs (calibrated with ``python -m engine.arena eleusis``)."""

    lam: int = DEFAULT_LAMBDA
    beta: float = BETA
    prophet_error: float = PROPHET_ERROR


def face(card: str) -> int:
    """The face of a card id (``"QH.2"`` -> face of QH)."""
    return FACE_INDEX[card.split(".")[0]]


def view_evidence(view: JsonDict) -> Evidence:
    """Every public judgement of the current round (NE-30.2's evidence): the main line after
    its starters, each wrong play under the card it followed, each correct no play's
    exhibit, and, for a wrong no play that placed no card (an expulsion in sudden death,
    E22), that some card of the shown hand was right."""
    rnd = view["round"]
    main = [face(m["card"]) for m in rnd["main"]]
    starters = sum(1 for m in rnd["main"] if m["starter"])
    ev = evidence(
        main,
        starters,
        side_plays=[(p["under"], [face(c) for c in p["cards"]]) for p in rnd["side"]],
        exhibits=[(x["under"], [face(c) for c in x["cards"]]) for x in rnd["exhibits"]],
    )
    some_right: set[tuple[Cell, ...]] = set()
    for turn in rnd.get("turns", ()):
        if turn["kind"] == "no_play" and turn["truth"] == "wrong" and turn["chosen"] is None:
            n, prev = turn["under"] + 1, main[turn["under"]]
            some_right.add(tuple((n, prev, face(c)) for c in turn["cards"]))
    return replace(ev, some_right=frozenset(some_right))


def _h2(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


class Scientist:
    """The bot: ``Scientist()(view, rng) -> action``. One instance keeps its posterior cache
    (a pure speed-up: the same view always gives the same action)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.science = Science(families(), lam=self.settings.lam)

    def __call__(self, view: JsonDict, rng: random.Random) -> JsonDict:
        phase = view["phase"]
        if phase == "rule_setup":
            return dealer_bot(view, rng)
        if phase == "turn":
            return self.turn(view, rng)
        if phase == "prophet_call":
            return self.call(view)
        if phase == "post_play":
            return {"type": "pass"}
        actions = explicit(view)
        if not actions:
            raise ValueError(f"The scientist bot has no action in phase {phase!r}.")
        return dict(rng.choice(actions))

    def posterior(self, view: JsonDict) -> Posterior:
        main = [face(m["card"]) for m in view["round"]["main"]]
        starters = sum(1 for m in view["round"]["main"] if m["starter"])
        return self.science.posterior(view_evidence(view), main, starters)

    # --- a scientist's turn ---------------------------------------------------------------

    def turn(self, view: JsonDict, rng: random.Random) -> JsonDict:
        rnd = view["round"]
        hand: list[str] = view["my_hand"]
        main = [face(m["card"]) for m in rnd["main"]]
        n, prev = len(main), main[-1]
        post = self.posterior(view)
        p = post.p_right(n, prev)
        by_face: dict[int, str] = {}
        for card in sorted(hand):
            by_face.setdefault(face(card), card)
        r = post.p_none_right(n, prev, by_face)
        declare = "no"
        if self.may_declare(view) and self.worth_declaring(view, post, n, prev, len(hand)):
            declare = "declare"
        if rnd["sudden_death"]:
            return self._sudden_death(p, r, by_face, declare, rng)
        beta = 0.0 if declare == "declare" else self.settings.beta * max(0.1, 1 - rnd["pc"] / 40)
        options: list[tuple[float, int, JsonDict]] = []
        for f, card in by_face.items():
            value = (2 * p[f] - 1) + beta * _h2(p[f])
            options.append((value, 0, {"type": "play", "cards": [card]}))
        sure = [f for f in by_face if p[f] >= STRING_THRESHOLD]
        if len(sure) >= 2 and len(post) <= MAX_STRING_SURVIVORS:
            for k in range(2, min(4, len(sure)) + 1):
                for order in permutations(sorted(sure, key=lambda f: -p[f])[:4], k):
                    q = post.p_string(n, prev, order)
                    value = k * (2 * q - 1) + beta * _h2(q)
                    cards = [by_face[f] for f in order]
                    options.append((value, 1, {"type": "play", "cards": cards}))
        options.append((8 * r - 4 + beta * _h2(r), 2, {"type": "no_play"}))
        best = max(v for v, _, _ in options)
        ties = [a for v, _, a in options if v >= best - 1e-12]
        action = dict(ties[0] if len(ties) == 1 else rng.choice(ties))
        action["prophet"] = declare
        return action

    def _sudden_death(
        self,
        p: Sequence[float],
        r: float,
        by_face: dict[int, str],
        declare: str,
        rng: random.Random,
    ) -> JsonDict:
        best = max(p[f] for f in by_face)
        if best < SUDDEN_DEATH_SURE and r >= SUDDEN_DEATH_SURE:
            return {"type": "no_play", "prophet": declare}
        likely = sorted(c for f, c in by_face.items() if p[f] == best)
        return {"type": "play", "cards": [rng.choice(likely)], "prophet": declare}

    # --- the prophet ------------------------------------------------------------------------

    def may_declare(self, view: JsonDict) -> bool:
        """NE-10.1 (a)-(c) from the public facts (the engine checks (d) after the turn)."""
        rnd = view["round"]
        if not view.get("prophet_possible", True) or rnd["prophet"] is not None:
            return False
        me = view["seat"]
        seats = view["seats"]
        if any(s["seat"] == me and s["been_prophet"] for s in seats):
            return False
        others = [
            s for s in seats if s["seat"] != me and s["role"] == "scientist" and not s["expelled"]
        ]
        return len(others) >= 2

    def worth_declaring(
        self, view: JsonDict, post: Posterior, n: int, prev: int, hand: int
    ) -> bool:
        """NE-30.2: declare when the expected bonus outweighs the risk of 5 cards. With e
        the predicted error of a call (:meth:`Posterior.call_error` over this position and
        the next after 18 faces of every rank and suit) and K the calls before the
        prophet's sudden death (``sudden_death_prophet``), a true prophet collects about
        ``BONUS_PER_CALL`` a call: the value (1-e)^K x bonus - (1 - (1-e)^K) x 5 must
        beat going out instead (the hand held plus the +4 of NE-13.3)."""
        if post.soft or len(post) > DISAGREEMENT_MEMBERS:
            return False
        contexts = [(n, prev)] + [(n + 1, f) for f in NEXT_PREVIOUS]
        error = post.call_error(contexts)
        if error > self.settings.prophet_error:
            return False
        calls = int(view["settings"].get("sudden_death_prophet", 30))
        survive = (1 - error) ** calls
        value = survive * BONUS_PER_CALL * calls - (1 - survive) * OVERTHROW_CARDS
        return value > hand + 4

    def call(self, view: JsonDict) -> JsonDict:
        """The prophet's call by posterior majority (NE-30.2, NE-26.3)."""
        rnd = view["round"]
        pending = rnd["pending"]
        main = [face(m["card"]) for m in rnd["main"]]
        n, prev = len(main), main[-1]
        post = self.posterior(view)
        faces = [face(c) for c in pending["cards"]]
        if pending["kind"] == "play":
            q = post.p_string(n, prev, faces)
            return {"type": "call", "verdict": "right" if q > 0.5 else "wrong"}
        r = post.p_none_right(n, prev, faces)
        if r > 0.5:
            return {"type": "call", "verdict": "correct"}
        p = post.p_right(n, prev)
        card = max(pending["cards"], key=lambda c: (p[face(c)], [-ord(ch) for ch in c]))
        return {"type": "call", "verdict": "wrong", "card": card}


def warm_up() -> None:
    """Build what every decision reads, once per process: the table families (about
    0.5 s) and the compiled generated programs (about 0.7 s). A worker may call it at
    start; otherwise the first decision pays for it."""
    families()
    for program in programs():
        compiled(program.source)


@functools.cache
def default_scientist() -> Scientist:
    """One scientist with the default settings per process (its cache is a speed-up),
    warmed up (:func:`warm_up`) when it is made, so only the first decision of a process
    pays the building."""
    warm_up()
    return Scientist()


def scientist_bot(view: JsonDict, rng: random.Random) -> JsonDict:
    """The scientist bot of NE-30.2 with the default settings."""
    return default_scientist()(view, rng)
