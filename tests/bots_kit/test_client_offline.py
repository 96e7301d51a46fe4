"""The client's own logic, without a server: Retry-After waits, the SSE parser."""

from __future__ import annotations

import httpx
import pytest
from indulgence_client import Client, RateLimited
from indulgence_client.sse import SseParser

server = "http://testserver"


def test_429_is_waited_out_then_raised() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        if len(calls) < 3:
            return httpx.Response(
                429,
                headers={"Retry-After": "2"},
                json={"code": "throttled", "detail": "Slow down."},
            )
        return httpx.Response(200, json={"username": "x"})

    slept: list[float] = []
    client = Client(server, "t", transport=httpx.MockTransport(handler), sleep=slept.append)
    assert client.me() == {"username": "x"}
    assert slept == [2.0, 2.0]

    always = Client(
        server,
        "t",
        transport=httpx.MockTransport(
            lambda r: httpx.Response(
                429, headers={"Retry-After": "7"}, json={"code": "throttled", "detail": "No."}
            )
        ),
        sleep=slept.append,
        max_rate_waits=2,
    )
    with pytest.raises(RateLimited) as limited:
        always.me()
    assert limited.value.retry_after == 7.0
    assert limited.value.code == "throttled"


def test_the_sse_parser_ignores_comments_and_joins_lines() -> None:
    parser = SseParser()
    assert parser.feed("retry: 2000\nid: 4") == []
    first = parser.feed('1\n\n: keep-alive\n\nid: 42\ndata: {"a":\ndata: 1}\n\n')
    assert [(m.id, m.data, m.retry) for m in first] == [
        ("41", None, 2000),
        ("42", '{"a":\n1}', None),
    ]
