"""The JSON-lines move query behind ``senet rules moves``: one position in, its moves out.

Pure: a line of text in, a dict out, so other tools can use it without the command.

    >>> answer = answer_query('{"variant": "kendall", "board": "LDLDLDLDLD....................", "to_move": "dark", "throw": 4}')
    >>> answer["moves"][0]["from"], answer["moves"][0]["to"], answer["moves"][0]["next"], answer["stuck"]
    (8, 12, 'dark', None)
    >>> answer_query('{"variant": "chess", "board": "", "to_move": "dark", "throw": 1}')["error"][:24]
    "unknown variant 'chess';"
"""

from __future__ import annotations

import json
from typing import Any

from senet.engine.board import format_board, parse_board
from senet.engine.moves import OFF
from senet.engine.player import Player
from senet.engine.position import Position
from senet.engine.variants import find_variant


class QueryError(ValueError):
    """A query line that cannot be answered; the message says how to fix it."""


def answer_query(line: str) -> dict[str, Any]:
    """Answer one query line; errors come back as ``{"error": ...}``."""
    try:
        return _answer(*_parse(line))
    except (QueryError, ValueError) as error:
        return {"error": str(error)}


def _parse(line: str) -> tuple[Position, int]:
    try:
        query = json.loads(line)
    except json.JSONDecodeError as error:
        raise QueryError(f"not valid JSON ({error.msg} at column {error.colno}); send one JSON object per line") from None
    if not isinstance(query, dict):
        raise QueryError('each line must be a JSON object like {"variant": "kendall", "board": "...", "to_move": "dark", "throw": 4}')
    missing = [key for key in ("variant", "board", "to_move", "throw") if key not in query]
    if missing:
        raise QueryError(f"missing {', '.join(missing)}; a query needs variant, board, to_move and throw")
    if not isinstance(query["variant"], str):
        raise QueryError("variant must be a string such as \"kendall\"")
    variant = find_variant(query["variant"])
    board = parse_board(query["board"])
    if query["to_move"] not in ("dark", "light"):
        raise QueryError(f"to_move must be \"dark\" or \"light\", not {query['to_move']!r}")
    throw = query["throw"]
    if isinstance(throw, bool) or not isinstance(throw, int) or throw not in variant.throw_values:
        values = ", ".join(map(str, sorted(variant.throw_values)))
        raise QueryError(f"throw {throw!r} cannot happen in {variant.name}; its throws are {values}")
    state = query.get("state") or {}
    if not isinstance(state, dict):
        raise QueryError('state must be a JSON object such as {"must_move_from": 15}')
    mark = state.get("must_move_from") or 0
    if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark <= 30:
        raise QueryError(f"state.must_move_from must be a square 1..30, not {mark!r}")
    if mark and board[mark] == 0:
        raise QueryError(f"state.must_move_from is square {mark}, but no piece stands there")
    return Position(variant, board, Player.from_name(query["to_move"]), mark), throw


def _answer(position: Position, throw: int) -> dict[str, Any]:
    finished = [player for player in Player if player not in position.board]
    if finished:  # a side with every piece borne off has won: nothing moves any more
        return {"moves": [], "stuck": None, "may_pass": False, "winner": finished[0].label}
    options = position.options(throw)
    return {
        "moves": [
            {
                "from": move.from_square,
                "to": "off" if move.to_square == OFF else move.to_square,
                "board": format_board(move.after),
                "next": Player(move.next_turn).label if move.next_turn else None,
            }
            for move in options.moves
        ],
        "stuck": options.stuck,
        "may_pass": options.may_pass,
    }
