"""Generated pictures with known answers, as hard as real photos.

Each case is one session at the table: a start picture for calibration and a picture of
a position from a real (random) game, with the sticks thrown, under one random camera
(any roll, tilted, with lens distortion), table and light (which drifts a little between
the two pictures, as auto white balance and daylight do), with random pieces and sticks.
Pieces stand anywhere in their squares; borne-off pieces often stand beside the mat;
every other case has a hand reaching over the board or the tray, sometimes carrying a piece.

    >>> case = next(hard_cases("a4", count=1, seed=3))
    >>> case.start.shape, len(case.board), sum(case.sticks) == case.light_up
    ((480, 640, 3), 30, True)
    >>> case.piece_shape, [round(mm) for mm in case.piece_mm], round(case.tilt_deg)  # the truth of what is learnt
    ('cone', [16, 10], 3)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np

from senet.engine.playout import random_game
from senet.engine.position import Position
from senet.vision.geometry import choose_mat, known_mats
from senet.vision.mat import MatLayout
from senet.vision.plane import SQUARE_PX, BoardPlane
from senet.vision.reader import BoardReader, CalibrationError, NoBoardError, Observation
from senet.vision.simulator import Conditions, Scene, Simulator, Style
from senet.vision.sources import START_BOARD

#: The variant the positions come from, and how many pieces each side has in it.
VARIANT, PIECES = "kendall", 5
#: How often borne-off pieces stand beside the mat, and a hand carries a piece.
BESIDE_SHARE, HELD_SHARE = 0.6, 0.4


@dataclass(frozen=True)
class Case:
    start: np.ndarray
    picture: np.ndarray
    board: str
    sticks: tuple[bool, ...]
    hand: str | None
    #: The pieces' size, (diameter, height) in mm, and shape (see :class:`Style`), and the
    #: camera's tilt (degrees): what the reader learns of the pieces is measured against them.
    piece_mm: tuple[float, float]
    piece_shape: str
    tilt_deg: float
    #: Where each square's piece stands in ``picture``: shares of the square's side from its
    #: top-left corner, a pair for every square.
    places: tuple[tuple[float, float], ...] = ()
    #: The start scene taken again, the camera's noise new: the first frames of the match.
    start_again: np.ndarray | None = None

    def base_in_view(self, square: int, plane: BoardPlane) -> tuple[float, float]:
        """Where the base of the piece on ``square`` (1-30) stands in ``picture``, in the
        reader's top view (``plane``): where the reader should find it."""
        (x, y), (u, v) = plane.square_origin(square), self.places[square - 1]
        return x + u * SQUARE_PX, y + v * SQUARE_PX

    @property
    def light_up(self) -> int:
        return sum(self.sticks)


def hard_cases(paper: str, count: int, seed: int, size: tuple[int, int] = (640, 480), exposure: float = 1.0,
               resume: tuple[int, dict] | None = None) -> Iterator[Case]:
    """``count`` cases on the ``paper`` mat; the same seed gives the same pictures. The picture
    read is taken with ``exposure`` times the start picture's exposure (beyond the drift every
    case has: a camera's auto exposure answering a hand or a sleeve in view, a cloud passing),
    with the same scene and camera otherwise. ``resume``: begin at case ``index`` with the random
    generator's ``state`` there (as :func:`generator_state` gives it), without drawing the cases
    before it: one case deep in a set, at once."""
    layout = MatLayout.for_paper(paper)
    simulator = Simulator(layout)
    rng = np.random.default_rng(seed)
    first = 0
    if resume is not None:
        first, rng.bit_generator.state = resume
    for index in range(first, first + count):
        yield _case(simulator, rng, seed, index, size, exposure)


def generator_state(paper: str, seed: int, index: int, size: tuple[int, int] = (640, 480)) -> dict:
    """The random generator's state where :func:`hard_cases` begins case ``index``, to resume
    there; every case before it is drawn (about 0.15 s each: two minutes to case 754)."""
    simulator = Simulator(MatLayout.for_paper(paper))
    rng = np.random.default_rng(seed)
    for earlier in range(index):
        _case(simulator, rng, seed, earlier, size, 1.0)
    return rng.bit_generator.state


def _case(simulator: Simulator, rng: np.random.Generator, seed: int, index: int, size: tuple[int, int], exposure: float) -> Case:
    """Case ``index`` of the set of ``seed``, its camera, light and pieces drawn from ``rng``."""
    layout = simulator.layout
    game = random_game(VARIANT, seed * 1000 + index)
    position = Position.start(VARIANT)
    for move in game.position.move_stack[: int(rng.integers(1, len(game.position.move_stack)))]:
        position.push(move)
    board = position.board_text
    conditions = Conditions.random_hard(rng, *size, mat_mm=(layout.width_mm, layout.height_mm))
    style = Style.random(rng, layout.square_mm)
    start_places = simulator.place_pieces(START_BOARD, style, conditions.scatter, rng)
    start_scene, at_start = Scene(START_BOARD, places=start_places), conditions.drifted(rng)
    start = simulator.render(start_scene, at_start, rng, style)
    # Drawn from a generator of its own, the set's other pictures stay as they were without it.
    start_again = simulator.render(start_scene, at_start, np.random.default_rng([seed, index]), style)
    sticks = tuple(bool(v) for v in rng.integers(0, 2, 4))
    hand = (None, "board", None, "tray")[index % 4]
    borne_off = "L" * (PIECES - board.count("L")) + "D" * (PIECES - board.count("D"))
    places = simulator.place_pieces(board, style, conditions.scatter, rng)
    scene = Scene(
        board, sticks, hand,
        places=places,
        beside="".join(rng.permutation(list(borne_off))) if rng.random() < BESIDE_SHARE else "",
        held=str(rng.choice(["L", "D"])) if hand and rng.random() < HELD_SHARE else None,
    )
    picture = simulator.render(scene, replace(conditions, exposure=conditions.exposure * exposure), rng, style)
    return Case(start, picture, board, sticks, hand, simulator.piece_size(style), style.piece_shape, conditions.camera.tilt_deg, places, start_again)


def starts_with_a_piece_missing(paper: str, count: int, seed: int, size: tuple[int, int] = (640, 480),
                                first: int = 0) -> Iterator[tuple[np.ndarray, int]]:
    """``count`` hard start pictures on the ``paper`` mat (camera, light and pieces drawn as
    for :func:`hard_cases`), each with one start piece taken away, the others standing where
    they stood; and the square it was taken from. Picture ``index`` (``first`` on) is drawn
    from ``(seed, index)`` alone: the same seed gives the same pictures, one deep in a set at once.

        >>> picture, square = next(starts_with_a_piece_missing("a3", 1, seed=1))
        >>> picture.shape, 1 <= square <= 10
        ((480, 640, 3), True)
    """
    layout = MatLayout.for_paper(paper)
    simulator = Simulator(layout)
    for index in range(first, first + count):
        rng = np.random.default_rng([seed, index])
        conditions = Conditions.random_hard(rng, *size, mat_mm=(layout.width_mm, layout.height_mm))
        style = Style.random(rng, layout.square_mm)
        places = simulator.place_pieces(START_BOARD, style, conditions.scatter, rng)
        square = int(rng.integers(1, 11))
        board = START_BOARD[: square - 1] + "." + START_BOARD[square:]
        yield simulator.render(Scene(board, places=places), conditions, rng, style), square


def tally_missing(paper: str, count: int, seed: int, size: tuple[int, int] = (640, 480)) -> dict[str, int]:
    """Calibrate on ``count`` start pictures with a piece missing (:func:`starts_with_a_piece_missing`)
    and count what came out: ``accepted`` (the reader learnt the start from nine pieces),
    ``named``: refused, naming the empty square; ``refused``: refused otherwise."""
    counts = dict.fromkeys(["accepted", "named", "refused"], 0)
    for picture, square in starts_with_a_piece_missing(paper, count, seed, size):
        geometry = choose_mat(picture, known_mats())
        if geometry is None:
            counts["refused"] += 1
            continue
        try:
            BoardReader(geometry).calibrate(picture)
        except CalibrationError as refusal:
            counts["named" if square in refusal.missing else "refused"] += 1
        except NoBoardError:
            counts["refused"] += 1
        else:
            counts["accepted"] += 1
    return counts


def calibrated_reader(case: Case) -> BoardReader | None:
    """A reader calibrated on the case's start picture; None where it finds no mat there or
    refuses the picture (it raises a ValueError saying why)."""
    geometry = choose_mat(case.start, known_mats())
    if geometry is None:
        return None
    reader = BoardReader(geometry)
    try:
        reader.calibrate(case.start)
    except ValueError:
        return None
    return reader


def tally(paper: str, count: int, seed: int, size: tuple[int, int] = (640, 480), exposure: float = 1.0) -> dict[str, int]:
    """Read ``count`` hard cases (see :func:`hard_cases`) and count what came out (the accuracy
    bench and tests use it).

    ``clear``: cases without a hand; ``ok``: of those, read as "ok"; ``boards_wrong`` and
    ``throws_wrong`` count every "ok" answer that was wrong, hands included. A board is
    right when every square read surely is right: its '?' squares are counted in
    ``unsure_squares`` (the referee fills them in from the legal moves), and a clear board
    right without any is ``boards_exact`` too (what a score that counts '?' as a miss sees).
    A start picture the reader refuses is not ``calibrated``. A hand over the tray alone may
    leave the board "ok": ``hands_withheld`` counts those whose throw was withheld (a hand's
    throw is never read).

    ``starts_*`` count the start scene taken again (:attr:`Case.start_again`, read after the
    case's picture), as the first frames of a match show it: ``starts_right`` read "ok" with
    every square read surely right, ``starts_wrong`` "ok" with one wrong, ``starts_occluded``
    taken for a hand; its '?' squares are ``starts_unsure_squares``.
    """
    counts = dict.fromkeys(
        ["calibrated", "clear", "ok", "boards_right", "boards_exact", "boards_wrong", "unsure_squares", "throws_right",
         "throws_wrong", "throws_unread", "hands", "hands_occluded", "hands_no_board", "hands_withheld", "starts_right",
         "starts_wrong", "starts_occluded", "starts_unsure_squares"], 0)
    for case in hard_cases(paper, count, seed, size, exposure):
        reader = calibrated_reader(case)
        if reader is None:
            continue
        counts["calibrated"] += 1
        seen = reader.read(case.picture)
        if case.start_again is not None:
            _tally_start(counts, reader.read(case.start_again))
        if case.hand:
            counts["hands"] += 1
            counts["hands_occluded"] += seen.status == "occluded"
            counts["hands_no_board"] += seen.status == "no-board"
        else:
            counts["clear"] += 1
        if seen.status != "ok":
            continue
        counts["ok"] += not case.hand
        assert seen.board is not None
        counts["boards_right" if surely_right(seen.board, case.board) else "boards_wrong"] += 1
        counts["boards_exact"] += not case.hand and seen.board == case.board
        counts["unsure_squares"] += seen.board.count("?")
        if seen.light_up is None:
            counts["throws_unread"] += 1
            counts["hands_withheld"] += bool(case.hand)
        else:
            counts["throws_right" if seen.light_up == case.light_up else "throws_wrong"] += 1
    return counts


def _tally_start(counts: dict[str, int], seen: Observation) -> None:
    """Count a reading of the start scene taken again into :func:`tally`'s ``starts_*``."""
    counts["starts_occluded"] += seen.status == "occluded"
    if seen.status != "ok" or seen.board is None:
        return
    counts["starts_right" if surely_right(seen.board, START_BOARD) else "starts_wrong"] += 1
    counts["starts_unsure_squares"] += seen.board.count("?")


def surely_right(read: str, board: str) -> bool:
    """Whether every square of ``read`` (30 characters) read surely is as ``board`` has it.

        >>> surely_right("L?D", "LDD"), surely_right("L.D", "LDD")
        (True, False)
    """
    return all(square in ("?", truth) for square, truth in zip(read, board))
