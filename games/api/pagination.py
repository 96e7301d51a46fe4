"""Lists page with ``?limit=&offset=``: ``{"count", "next", "previous", "results"}``."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class Pagination(LimitOffsetPagination):
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT
