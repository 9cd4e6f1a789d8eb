"""The referee on plain data: what it says for each thing players do at the table."""

from __future__ import annotations

from rules_helpers import board

from senet.engine.referee import Referee

LIGHT5 = (1, 3, 5, 7, 9)


def started(variant: str) -> Referee:
    referee = Referee(variant)
    referee.throw(1)
    return referee


def events(verdicts: list) -> list[str]:
    return [v.event for v in verdicts]


def test_a_legal_move_is_accepted_and_an_unsure_square_never_makes_it_illegal() -> None:
    referee = started("netherworld")
    referee.throw(3)
    unsure = list(board(dark=(2, 4, 6, 8, 13), light=LIGHT5))
    unsure[0] = "?"
    assert events(referee.board("".join(unsure))) == ["move"]
    referee2 = started("netherworld")
    referee2.throw(3)
    wrong = list(board(dark=(2, 4, 6, 8, 12), light=LIGHT5))
    wrong[20] = "?"
    assert events(referee2.board("".join(wrong))) == ["waiting"]  # unsure: wait for a clearer view
    assert not referee2.illegal


def test_an_accepted_board_is_known_for_sure_and_an_illegal_one_is_not() -> None:
    referee = started("netherworld")
    referee.throw(3)
    moved = board(dark=(2, 4, 6, 8, 13), light=LIGHT5)
    referee.board("?" + moved[1:])
    assert referee.shows_expected("?" + moved[1:]) == moved  # the '?' square filled in by the rules
    referee.throw(2)
    wrong = board(dark=(2, 4, 6, 8, 12), light=LIGHT5)
    referee.board(wrong)
    assert referee.shows_expected(wrong) is None


def test_illegal_stays_red_until_put_back_or_corrected_into_a_legal_move() -> None:
    referee = started("netherworld")
    referee.throw(3)
    verdict = referee.board(board(dark=(2, 4, 6, 8, 12), light=LIGHT5))[0]
    assert verdict.event == "illegal" and verdict.rules == ("N.throw",) and referee.illegal
    assert "cannot go to 12" in verdict.message
    assert events(referee.board(board(dark=(2, 4, 6, 8, 11), light=LIGHT5))) == ["illegal"] and referee.illegal
    assert events(referee.board(board(dark=(2, 4, 6, 8, 13), light=LIGHT5))) == ["move"] and not referee.illegal


def test_put_back_clears_the_red_light() -> None:
    referee = started("netherworld")
    referee.throw(3)
    referee.board(board(dark=(2, 4, 6, 8, 12), light=LIGHT5))
    assert events(referee.board(board(dark=(2, 4, 6, 8, 10), light=LIGHT5))) == ["corrected"] and not referee.illegal


def test_a_piece_in_the_hand_and_half_a_swap_are_waited_for() -> None:
    referee = started("netherworld")
    referee.board(board(dark=(2, 4, 6, 8, 10), light=LIGHT5))
    referee.throw(1)  # a 1: 10 -> 11 or 8 -> 9 (swap with the lone piece on 9)
    assert events(referee.board(board(dark=(2, 4, 6, 10), light=LIGHT5))) == ["waiting"]  # 8 lifted
    half = board(dark=(2, 4, 6, 9, 10), light=(1, 3, 5, 7))  # 8 -> 9, light's piece not yet on 8
    assert events(referee.board(half)) == ["waiting"] and not referee.illegal
    assert events(referee.board(board(dark=(2, 4, 6, 9, 10), light=(1, 3, 5, 7, 8)))) == ["move"]


def test_a_rule_that_moves_a_piece_by_itself_tells_the_player() -> None:
    from senet.engine import Player, Position

    referee = started("kendall")
    referee.set_position(Position.from_board_text("kendall", board(dark=(24,), light=(1, 3)), Player.DARK), throw=3)
    verdicts = referee.board(board(dark=(27,), light=(1, 3)))  # the piece is put on 27 (K.water)
    assert events(verdicts) == ["move", "instruction"] and verdicts[1].message == "move the piece on 27 to 2"
    assert events(referee.board(board(dark=(27,), light=(1, 3)))) == ["waiting"]
    assert events(referee.board(board(dark=(2,), light=(1, 3)))) == []


def test_ludii_opening_jump_is_made_by_the_player() -> None:
    referee = Referee("ludii-kendall-5")
    verdicts = referee.throw(1)
    assert events(verdicts) == ["throw", "start", "instruction"] and verdicts[2].message == "move the piece on 10 to 11"
    assert events(referee.board(board(dark=(2, 4, 6, 8, 10), light=LIGHT5))) == ["waiting"]
    made = referee.board(board(dark=(2, 4, 6, 8, 11), light=LIGHT5))
    assert [(v.event, v.from_square, v.to_square) for v in made] == [("move", 10, 11)]  # made by hand: a move
    assert events(referee.board(board(dark=(2, 4, 6, 8, 11), light=LIGHT5))) == []


def test_the_opening_jump_replays_from_the_journal_as_the_move_it_was() -> None:
    referee = Referee("ludii-kendall-5")
    referee.throw(1)
    assert [(v.event, v.from_square) for v in referee.replay_move(10, 11)] == [("move", 10)]
    referee.throw(2)
    assert events(referee.replay_move(8, 10)) == ["move"]


def test_moving_before_throwing_is_illegal() -> None:
    referee = started("houses")
    verdict = referee.board(board(dark=(2, 4, 6, 8, 12), light=LIGHT5))[0]
    assert verdict.event == "illegal" and verdict.rules == ("H.throw",)


def test_touched_piece_must_move_in_blockade() -> None:
    from senet.engine import Player, Position

    referee = Referee("blockade")
    referee.throw(1)
    referee.set_position(Position.from_board_text("blockade", board(dark=(12, 14), light=(1,)), Player.DARK), throw=1)
    assert events(referee.board(board(dark=(14,), light=(1,)))) == ["waiting"]  # 12 lifted
    verdict = referee.board(board(dark=(12, 15), light=(1,)))[0]  # 12 put back, 14 moved
    assert verdict.event == "illegal" and verdict.rules == ("B.touch",)
    assert events(referee.board(board(dark=(13, 14), light=(1,)))) == ["move"]


def test_undo_takes_back_the_move() -> None:
    referee = started("netherworld")
    referee.throw(3)
    referee.board(board(dark=(2, 4, 6, 8, 13), light=LIGHT5))
    verdict = referee.undo()[0]
    assert (verdict.event, verdict.from_square, verdict.to_square) == ("undo", 10, 13)
    assert events(referee.board(board(dark=(2, 4, 6, 8, 10), light=LIGHT5))) == []


def test_a_stuck_player_passes_and_the_end_is_announced() -> None:
    from senet.engine import Player, Position

    referee = started("houses")
    referee.set_position(Position.from_board_text("houses", board(dark=(28,), light=(1,)), Player.DARK))
    assert events(referee.throw(2)) == ["throw", "pass"]
    referee.set_position(Position.from_board_text("houses", board(dark=(28,), light=(1,)), Player.DARK))
    assert events(referee.throw(3)) == ["throw"]
    verdicts = referee.board(board(light=(1,)))
    assert events(verdicts) == ["move", "game-over"] and verdicts[1].winner is Player.DARK


def test_an_illegal_backward_move_is_not_taken_for_a_fall_into_the_water() -> None:
    from senet.engine import Player, Position

    referee = started("kendall")
    referee.set_position(Position.from_board_text("kendall", board(dark=(24,), light=(1, 3)), Player.DARK), throw=3)
    verdict = referee.board(board(dark=(21,), light=(1, 3)))[0]
    assert verdict.event == "illegal" and verdict.rules == ("K.backward",)
