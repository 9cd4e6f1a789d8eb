"""The JSON-lines move query behind ``senet rules moves``: one position in, its moves out.

Pure: a line of text in, a dict out, so other tools can use it without the command.
:func:`answer_lines` answers a whole byte stream, one answer for every line, whatever
the line holds.

    >>> answer = answer_query('{"variant": "kendall", "board": "LDLDLDLDLD....................", "to_move": "dark", "throw": 4}')
    >>> answer["moves"][0]["from"], answer["moves"][0]["to"], answer["moves"][0]["next"], answer["stuck"]
    (8, 12, 'dark', None)
    >>> answer_query('{"variant": "chess", "board": "", "to_move": "dark", "throw": 1}')["error"][:24]
    "unknown variant 'chess';"

The grid games say which part of the turn is asked about (``state.stage``); PHARAO gives
both dice instead of a throw, RAMSES nothing (the position sets the distances):

    >>> answer = answer_query('{"variant": "pharao", "board": ".LLLL..............DDDD.......", "to_move": "light", "dice": [1, 2]}')
    >>> [(m["from"], m["to"], m["next"], m["stage"]) for m in answer["moves"]][:2]
    [(2, 1, 'light', 'other'), (2, 19, 'light', 'other')]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from senet.engine.board import format_board, parse_board
from senet.engine.moves import OFF, Stage
from senet.engine.player import Player
from senet.engine.position import Position
from senet.engine.throws import DiceThrows, NoThrows
from senet.engine.variants import Variant, find_variant

#: The longest line answered; a query is about 100 bytes.
MAX_LINE_BYTES = 1 << 20


class QueryError(ValueError):
    """A query line that cannot be answered; the message says how to fix it."""


def answer_lines(source: BinaryIO) -> Iterator[dict[str, Any]]:
    """One answer for every line of ``source``, in order; a line that fails gets ``{"error": ...}``.

    Each line is decoded on its own, so a bad byte spoils only its own line.

        >>> import io
        >>> for answer in answer_lines(io.BytesIO(b'dark\\n\\xff{}\\n')):
        ...     print(answer["error"])
        not valid JSON (Expecting value at column 1); send one JSON object per line
        not valid UTF-8 (byte 0xff at position 0); send UTF-8 JSON
    """
    while line := source.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            _skip_rest_of_line(source)
            yield {"error": f"the line is longer than {MAX_LINE_BYTES} bytes; send one short JSON object per line"}
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as error:
            yield {"error": f"not valid UTF-8 (byte 0x{line[error.start]:02x} at position {error.start}); "
                            "send UTF-8 JSON"}
            continue
        try:
            answer = answer_query(text)
        except Exception as error:  # one line's failure must not cost the answers to the lines after it
            answer = {"error": f"this line could not be answered ({type(error).__name__}); please report this line"}
        yield answer


def _skip_rest_of_line(source: BinaryIO) -> None:
    while (chunk := source.readline(MAX_LINE_BYTES)) and not chunk.endswith(b"\n"):
        pass


def answer_query(line: str) -> dict[str, Any]:
    """Answer one query line; errors come back as ``{"error": ...}``."""
    try:
        return _answer(*_parse(line))
    except (QueryError, ValueError) as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "the JSON is nested too deeply; a query is one flat JSON object"}


def _shown(value: object) -> str:
    """``value`` as the error messages quote it: its repr, cut short.

    >>> _shown("dark"), _shown(10 ** 40)
    ("'dark'", '10000000000000000000000000000000...')
    """
    text = repr(value)
    return text if len(text) <= 32 else text[:32] + "..."


def _parse(line: str) -> tuple[Position, int]:
    try:
        query = json.loads(line)
    except json.JSONDecodeError as error:
        raise QueryError(f"not valid JSON ({error.msg} at column {error.colno}); send one JSON object per line") from None
    except ValueError:  # Python refuses to read integers of thousands of digits
        raise QueryError("a number has too many digits; a query's numbers are small (a throw, a square 1..30)") from None
    if not isinstance(query, dict):
        raise QueryError('each line must be a JSON object like {"variant": "kendall", "board": "...", "to_move": "dark", "throw": 4}')
    missing = [key for key in ("variant", "board", "to_move") if key not in query]
    if missing:
        raise QueryError(f"missing {', '.join(missing)}; a query needs variant, board, to_move and throw")
    if not isinstance(query["variant"], str):
        raise QueryError("variant must be a string such as \"kendall\"")
    variant = find_variant(query["variant"])
    board = parse_board(query["board"])
    if query["to_move"] not in ("dark", "light"):
        raise QueryError(f"to_move must be \"dark\" or \"light\", not {_shown(query['to_move'])}")
    if variant.in_parts:
        return _parse_part(query, variant, board)
    if "throw" not in query:
        raise QueryError("missing throw; a query needs variant, board, to_move and throw")
    throw = query["throw"]
    if isinstance(throw, bool) or not isinstance(throw, int) or throw not in variant.throw_values:
        values = ", ".join(map(str, sorted(variant.throw_values)))
        raise QueryError(f"throw {_shown(throw)} cannot happen in {variant.name}; its throws are {values}")
    state = query.get("state") or {}
    if not isinstance(state, dict):
        raise QueryError('state must be a JSON object such as {"must_move_from": 15}')
    mark = state.get("must_move_from") or 0
    if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark <= 30:
        raise QueryError(f"state.must_move_from must be a square 1..30, not {_shown(mark)}")
    if mark and board[mark] == 0:
        raise QueryError(f"state.must_move_from is square {mark}, but no piece stands there")
    return Position(variant, board, Player.from_name(query["to_move"]), mark), throw


def _parse_part(query: dict[str, Any], variant: Variant, board: tuple[int, ...]) -> tuple[Position, int]:
    """A grid game's query: the part of the turn (``state.stage``) and, in PHARAO, both dice."""
    state = query.get("state") or {}
    if not isinstance(state, dict):
        raise QueryError('state must be a JSON object such as {"stage": "other"}')
    word = state.get("stage", "own")
    if not isinstance(word, str) or word not in {stage.word for stage in Stage}:
        raise QueryError(f"state.stage must be own, other, rescue or place, not {_shown(word)}")
    stage = Stage.from_word(word)
    throws = variant.throws
    number = 0
    if isinstance(throws, DiceThrows):
        dice = query.get("dice")
        if not (isinstance(dice, list) and len(dice) == 2 and all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
                and dice[0] in throws.own_faces and dice[1] in throws.other_faces):
            raise QueryError(f"dice must be [own, other] with own 0..4 and other 0..2 in {variant.name}, not {_shown(dice)}")
        number = {Stage.OWN: dice[0], Stage.OTHER: dice[1]}.get(stage, 3)
    elif isinstance(throws, NoThrows) and query.get("throw") not in (None, 0):
        raise QueryError(f"nothing is thrown in {variant.name}: leave out throw (the position sets every distance)")
    try:
        return Position(variant, board, Player.from_name(query["to_move"]), stage=stage), number
    except ValueError as error:
        raise QueryError(str(error)) from None


def _answer(position: Position, throw: int) -> dict[str, Any]:
    finished = [player for player in Player if player not in position.board]
    if finished and not position.variant.in_parts:  # a side with every piece borne off has won: nothing moves any more
        return {"moves": [], "stuck": None, "may_pass": False, "winner": finished[0].label}
    options = position.options(throw)
    in_parts = position.variant.in_parts
    return {
        "moves": [
            {
                "from": "off" if move.from_square == OFF else move.from_square,
                "to": "off" if move.to_square == OFF else move.to_square,
                "board": format_board(move.after),
                "next": Player(move.next_turn).label if move.next_turn else None,
            }
            | ({"stage": move.stage.word, "steps": position.variant.steps(position.board, move.from_square, throw)
                if move.from_square != OFF else 0, "winner": Player(move.winner).label if move.winner else None}
               if in_parts else {})
            for move in options.moves
        ],
        "stuck": options.stuck,
        "may_pass": options.may_pass,
    }
