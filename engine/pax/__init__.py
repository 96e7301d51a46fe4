"""Pax Illuminaten (spec: rules/pax-illuminaten.md), behind the engine contract.

The house card data and its validating loader (``loader.data()``), the hex geometry, set-up
from a seed, and the whole game for 2-4 seats: ``engine.pax.engine`` (play), ``record``
(Appendix H), ``view`` (15.4, H.8), ``bots`` (random seat bot), ``automa`` (the four
rule-scripted bots of section 14, playing as automatic steps in the variants
``automa-<bot>``). Registered as ``"pax"`` in ``engine.registry`` (``game.PaxGame``).
See docs/pax.md.
"""
