"""Pax Illuminaten (spec: rules/pax-illuminaten.md): the first slice.

So far: the house card data and its validating loader (``loader.data()``), the hex map
geometry (``geometry``) and set-up from a seed (``setup``). Not registered in
``engine.registry`` yet: there is no play (see docs/pax.md).
"""
