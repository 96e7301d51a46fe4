"""Indulgence Online's Python client: REST calls, live streams, and a bot loop.

```python
from indulgence_client import Client, play_game

with Client("http://127.0.0.1:8000", token) as client:
    view = client.create_sandbox(seed="try-1")
    final = play_game(client, view["id"], lambda view: view["legal_actions"][0])
```
"""

from indulgence_client.bot import play_forever, play_game, play_turn
from indulgence_client.client import Action, Client, View
from indulgence_client.errors import (
    AlreadySeated,
    ApiError,
    Conflict,
    Forbidden,
    GameFull,
    GameNotActive,
    GameNotFinished,
    IdempotencyKeyReused,
    IllegalAction,
    IndulgenceError,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
    NotOpen,
    NotSeated,
    NotYourTurn,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    TransportError,
    UnknownBot,
    VersionConflict,
)
from indulgence_client.sse import EventStream

__version__ = "0.1.0"

__all__ = [
    "Action",
    "AlreadySeated",
    "ApiError",
    "Client",
    "Conflict",
    "EventStream",
    "Forbidden",
    "GameFull",
    "GameNotActive",
    "GameNotFinished",
    "IdempotencyKeyReused",
    "IllegalAction",
    "IndulgenceError",
    "InvalidRequest",
    "NotAuthenticated",
    "NotFound",
    "NotOpen",
    "NotSeated",
    "NotYourTurn",
    "PayloadTooLarge",
    "RateLimited",
    "ServerError",
    "TransportError",
    "UnknownBot",
    "VersionConflict",
    "View",
    "play_forever",
    "play_game",
    "play_turn",
]
