"""The client's own logic, without a server: Retry-After waits, the SSE parser."""

from __future__ import annotations

import httpx
import pytest
from indulgence_client import Client, RateLimited, ServerError
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


def test_a_refused_stream_waits_what_retry_after_says_then_resumes() -> None:
    """A stream answered 429 (or 503 while the database restarts) with a Retry-After
    reconnects after exactly that delay (capped at max_retry_after), not the exponential
    backoff, and resumes from the last event id it had."""
    answers = [
        httpx.Response(429, headers={"Retry-After": "7"}, json={"code": "throttled"}),
        httpx.Response(503, headers={"Retry-After": "5"}, json={"code": "service_unavailable"}),
        httpx.Response(429, headers={"Retry-After": "600"}, json={"code": "throttled"}),
        httpx.Response(503),  # no Retry-After: the backoff
        httpx.Response(
            200,
            headers={"Content-Type": "text/event-stream"},
            content=b'id: 12\ndata: {"type": "move", "version": 12}\n\n',
        ),
    ]
    asked: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(request.headers.get("Last-Event-ID"))
        return answers.pop(0)

    slept: list[float] = []
    client = Client(server, "t", transport=httpx.MockTransport(handler), sleep=slept.append)
    stream = client.game_stream(
        7, last_event_id=11, sleep=slept.append, backoff=0.5, max_retry_after=60
    )
    event = next(iter(stream))
    assert event == {"type": "move", "version": 12}
    assert slept == [7.0, 5.0, 60.0, 4.0]  # 4.0: the fourth failure's backoff, 0.5 * 2**3
    assert asked == ["11"] * 5
    assert stream.last_event_id == 12


def test_a_repeatable_request_waits_out_503_with_retry_after_and_an_unsafe_one_does_not() -> None:
    """503 service_unavailable + Retry-After (the server's database restarting): a GET and
    an action (it carries an Idempotency-Key) are repeated after the delay; a POST that is
    not safe to repeat raises at once."""
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.method)
        if len(calls) in (1, 3):
            return httpx.Response(
                503,
                headers={"Retry-After": "5"},
                json={"code": "service_unavailable", "detail": "Try again."},
            )
        if request.method == "POST" and request.url.path.endswith("/actions"):
            return httpx.Response(200, json={"id": 7, "version": 4})
        return httpx.Response(200, json={"username": "x"})

    slept: list[float] = []
    client = Client(server, "t", transport=httpx.MockTransport(handler), sleep=slept.append)
    assert client.me() == {"username": "x"}
    assert client.act(7, {"type": "pass"}, version=3) == {"id": 7, "version": 4}
    assert slept == [5.0, 5.0]
    calls.clear()
    with pytest.raises(ServerError) as refused:
        client.request("POST", "games/7/join")  # no Idempotency-Key: not repeated
    assert refused.value.status == 503
    assert calls == ["POST"]
