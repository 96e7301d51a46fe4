"""Pax Illuminaten (spec: rules/pax-illuminaten.md), behind the engine contract.

The house card data and its validating loader (``loader.data()``), the hex geometry, set-up
from a seed, and the whole game for 2-4 human seats: ``engine.pax.engine`` (play),
``record`` (Appendix H), ``view`` (15.4, H.8), ``bots`` (random seat bot). Registered as
``"pax"`` in ``engine.registry`` (``game.PaxGame``). The automa of section 14 is not built:
its variants are refused. See docs/pax.md.
"""
