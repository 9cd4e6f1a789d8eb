"""The referee in the grid games: each part of a turn as it settles, a whole turn at once, the
part that went wrong named, the dice, the placement and the pieces the rules take off."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import DARK, LIGHT, board

from senet.engine.board import format_board
from senet.engine.game import Game, other_die
from senet.engine.moves import OFF, Stage
from senet.engine.playout import random_game
from senet.engine.position import Position
from senet.engine.record import GameRecord
from senet.engine.referee import Referee
from senet.engine.throws import Dice
from senet.engine.turn_parts import turn_endings

START = ".LLLL..............DDDD......."


def events(verdicts: list) -> list[tuple[str, str | None]]:
    return [(v.event, v.stage.word if v.stage is not None else None) for v in verdicts]


def with_moves(text: str, *moves: tuple[int, int]) -> str:
    cells = list(text)
    for start, end in moves:
        cells[end - 1], cells[start - 1] = cells[start - 1], "."
    return "".join(cells)


def test_the_dice_are_thrown_electronically_and_camera_sticks_are_not_a_throw() -> None:
    referee = Referee("pharao")
    waiting = referee.throw(3)
    assert waiting[0].event == "waiting" and "dice" in waiting[0].message
    verdicts = referee.throw_dice(Dice(2, 1))
    assert verdicts[0].event == "throw" and verdicts[0].to_dict()["dice"] == [2, 1]
    assert referee.throw_dice(Dice(1, 1))[0].message == "first finish the turn"


def test_each_part_is_accepted_as_it_settles() -> None:
    referee = Referee("pharao")
    referee.throw_dice(Dice(1, 2))
    own = with_moves(START, (5, 6))
    assert events(referee.board(own)) == [("move", "own")]
    assert referee.game.position.stage is Stage.OTHER
    whole = with_moves(own, (20, 18))
    assert events(referee.board(whole)) == [("move", "other")]
    assert referee.game.position.turn is DARK and referee.game.needs_throw


def test_a_whole_turn_settled_at_once_is_two_parts() -> None:
    referee = Referee("pharao")
    referee.throw_dice(Dice(1, 2))
    verdicts = referee.board(with_moves(START, (5, 6), (20, 18)))
    assert events(verdicts) == [("move", "own"), ("move", "other")]
    assert [(v.from_square, v.to_square, v.throw) for v in verdicts] == [(5, 6, 1), (20, 18, 2)]


def test_the_wrong_part_is_named_and_the_right_one_kept() -> None:
    referee = Referee("pharao")
    referee.throw_dice(Dice(1, 2))
    verdicts = referee.board(with_moves(START, (5, 6), (20, 19)))  # dark's 20 went one step, not two
    assert events(verdicts) == [("move", "own"), ("illegal", "other")]
    assert verdicts[-1].rules == ("P.path",) and referee.illegal
    assert events(referee.board(with_moves(START, (5, 6)))) == [("corrected", None)]
    wrong_own = Referee("pharao")
    wrong_own.throw_dice(Dice(1, 2))
    verdict = wrong_own.board(with_moves(START, (5, 7)))[0]
    assert (verdict.event, verdict.stage, verdict.rules) == ("illegal", Stage.OWN, ("P.path",))
    assert verdict.message == "With 1 steps the piece on 5 cannot reach 7."


def test_moving_the_opponents_piece_first_breaks_P_turn() -> None:
    referee = Referee("pharao")
    referee.throw_dice(Dice(1, 2))
    verdict = referee.board(with_moves(START, (20, 18)))[0]
    assert verdict.event == "illegal" and verdict.rules == ("P.turn",) and verdict.stage is Stage.OWN


def test_a_piece_moved_before_the_dice_breaks_P_dice() -> None:
    referee = Referee("pharao")
    verdict = referee.board(with_moves(START, (5, 6)))[0]
    assert verdict.event == "illegal" and verdict.rules == ("P.dice",) and "dice" in verdict.message


def test_a_drowned_piece_is_taken_off_by_hand() -> None:
    referee = Referee("pharao")
    referee.set_position(Position.from_board_text("pharao", board((3, 9), (27, 1, 5)), LIGHT), Dice(1, 2))
    verdicts = referee.board(board((3, 9), (27, 1, 6)))  # light 5-6; the piece on 27 drowns
    assert events(verdicts)[0] == ("move", "own")
    assert any(v.event == "instruction" and v.params == {"square": 27} for v in verdicts)
    assert referee.expected_text == board((3, 9), (1, 6))
    assert events(referee.board(board((3, 9), (1, 6)))) == []  # taken off: nothing to say
    assert events(referee.board(board((3, 7), (1, 6)))) == [("move", "other")]


def test_a_zero_skips_the_part_and_says_so() -> None:
    referee = Referee("pharao")
    verdicts = referee.throw_dice(Dice(0, 1))
    assert [v.event for v in verdicts] == ["throw", "pass"] and verdicts[1].message == "a 0: this part is skipped"
    assert referee.game.position.stage is Stage.OTHER


def test_ramses_placement_and_the_turn_without_a_throw() -> None:
    referee = Referee("ramses")
    assert referee.throw(2)[0].event == "waiting"
    empty = "." * 30
    verdicts = referee.board(with_moves("D" + empty[1:], ))
    assert events(verdicts) == [("move", "place")] and verdicts[0].to_dict()["from"] == "off"
    wrong = referee.board("D" + "." * 25 + "L" + "." * 3)  # light on the marked 27
    assert wrong[0].event == "illegal" and wrong[0].rules == ("R.setup",)
    assert wrong[0].message == "Square 27 is marked: pieces are placed on unmarked squares only."


def test_ramses_placing_the_other_players_piece_breaks_R_turn() -> None:
    referee = Referee("ramses")
    verdict = referee.board("L" + "." * 29)[0]
    assert verdict.event == "illegal" and verdict.rules == ("R.turn",)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["pharao", "ramses"]), st.integers(0, 10_000))
def test_every_legal_part_and_whole_turn_shown_on_the_board_is_accepted(name: str, seed: int) -> None:
    """Replay a random game; at random moments show a fresh referee, set to the same position and
    dice, the board after each way to play on within the turn: one part, or the whole turn."""
    record = random_game(name, seed).record
    chooser = random.Random(seed)
    turns = 0
    for game in _games_along(record):
        turns += 1
        if chooser.random() > 0.1:
            continue
        for parts, after in chooser.sample(endings := turn_endings(game, game.position.board, set()), min(8, len(endings))):
            referee = Referee(name)
            referee.set_position(game.position.copy(), game.dice)
            verdicts = referee.board(format_board(after.board))
            assert verdicts and verdicts[0].event == "move", (str(game.position), [str(m) for m in parts], verdicts)
            assert referee.game.position == after
    assert turns > 1


def _games_along(record: GameRecord) -> Iterator[Game]:
    """The game at each part a player chose in ``record``, with its dice thrown."""
    game = Game(record.variant)
    for index, turn in enumerate(record.turns):
        if game.is_over or index < len(game.turns):
            continue  # a part the rules played alone
        if game.needs_throw:
            game.throw(Dice(turn.throw, other_die(record.turns, index)))
            if index < len(game.turns):
                continue
        yield game
        game.play(turn.from_square, turn.to_square)


def test_placement_from_off_is_written_as_off() -> None:
    assert Referee("ramses").board("D" + "." * 29)[0].to_dict()["from"] == "off"
    assert OFF == 31
