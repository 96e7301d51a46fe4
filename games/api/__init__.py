"""The REST API (``/api/v1/``): thin DRF views over ``games.services`` and ``games.selectors``.

The contract is ``shared/design/api.md``; the guide for client and bot authors is
``docs/api.md``. Every error body is ``{"code": "<snake_case>", "detail": "<sentence>"}``
(see :mod:`games.api.exceptions`).
"""
