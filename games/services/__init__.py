"""The only code that changes games: one module per concern, this package's names are
the public API. Every writer follows one pattern:

1. open a transaction and lock the game row (``select_for_update``) so that two requests
   for one game are serialised: the second sees the first's result, never a half;
2. check who is asking and the ``version`` they saw (stale commands are refused);
3. apply the change through the engine, append the ``Move``, save the snapshot, bump
   the version;
4. after commit, queue what follows (bot turn, automatic step), never before.

The modules, each owning its writes:

- ``accounts``: Player profiles, built-in bot accounts, sign-up, language, display name;
- ``tokens``: API tokens;
- ``lifecycle``: create, join, start, abort a game, and a rematch;
- ``moves``: a player's action, a built-in bot's turn;
- ``undo``: a player takes back their own last action where the game allows it;
- ``steps``: what follows a stored state (announce, queue the next step) and the
  automatic step taken when nobody is to act (Indulgence's hand settlement);
- ``timeouts``: the autopilot's move when a turn's time ran out;
- ``store``: the game row and its state (lock, load, store, append a move, finish);
- ``ratings``: OpenSkill ratings, updated when a rated game ends, rolled back by remedies;
- ``disputes`` and ``remedies``: dispute review and what staff do to a disputed game.

They import one another only downwards (store and ratings at the bottom, the writers
above them) and never ``games.tasks``: tasks are queued by name (``games.jobs``).
``tests/games/test_import_cycles.py`` fails on any import cycle among ``games`` modules.
"""

from games.services.accounts import (
    BOT_NAME_PREFIX,
    DISPLAY_NAME_MAX,
    LANGUAGE_CODES,
    account_signup,
    bot_player,
    player_display_name_set,
    player_ensure,
    player_language_set,
    username_reserved,
)
from games.services.disputes import DISPUTE_WINDOW, MAX_DISPUTE_REASON, dispute_create
from games.services.lifecycle import (
    MAX_TURN_TIMEOUT_SECONDS,
    MIN_TURN_TIMEOUT_SECONDS,
    game_abort,
    game_abortable,
    game_create,
    game_join,
    game_rematch,
    server_seed,
)
from games.services.moves import ActionResult, action_submit, bot_turn_play
from games.services.steps import hand_settle, step_run
from games.services.timeouts import turn_timeout_handle
from games.services.tokens import (
    TOKEN_PREFIX,
    TOKEN_TOUCH_INTERVAL,
    token_authenticate,
    token_issue,
    token_revoke,
)
from games.services.undo import UndoResult, move_undo

__all__ = [
    "BOT_NAME_PREFIX",
    "DISPLAY_NAME_MAX",
    "DISPUTE_WINDOW",
    "LANGUAGE_CODES",
    "MAX_DISPUTE_REASON",
    "MAX_TURN_TIMEOUT_SECONDS",
    "MIN_TURN_TIMEOUT_SECONDS",
    "TOKEN_PREFIX",
    "TOKEN_TOUCH_INTERVAL",
    "ActionResult",
    "UndoResult",
    "account_signup",
    "action_submit",
    "bot_player",
    "bot_turn_play",
    "dispute_create",
    "game_abort",
    "game_abortable",
    "game_create",
    "game_join",
    "game_rematch",
    "hand_settle",
    "move_undo",
    "player_display_name_set",
    "player_ensure",
    "player_language_set",
    "server_seed",
    "step_run",
    "token_authenticate",
    "token_issue",
    "token_revoke",
    "turn_timeout_handle",
    "username_reserved",
]
