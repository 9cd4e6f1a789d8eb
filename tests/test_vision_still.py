"""A frame that shows nothing new gets the last frame's answer; anything put down, lifted or
turned is read afresh, under hard light and camera too."""

from __future__ import annotations

import numpy as np
import pytest

from senet.vision.geometry import choose_mat, known_mats
from senet.vision.mat import MatLayout
from senet.vision.reader import BoardReader
from senet.vision.simulator import Conditions, Scene, Simulator, Style
from senet.vision.sources import START_BOARD
from senet.vision.still import StillFrames
from senet.vision.warp import corners_in_frame


class Table:
    """One hard camera, light and set of pieces over an A3 mat; a scene is taken again with the
    pieces and sticks where they stood and the camera's noise of its own."""

    def __init__(self, seed: int) -> None:
        layout = MatLayout.for_paper("a3")
        self.simulator, self.rng = Simulator(layout), np.random.default_rng(seed)
        self.conditions = Conditions.random_hard(self.rng, 640, 480, mat_mm=(layout.width_mm, layout.height_mm))
        self.style = Style.random(self.rng, layout.square_mm)
        self.lying = int(self.rng.integers(2**31))  # where thrown sticks lie
        self.start = self.picture(START_BOARD, None)
        self.board = "".join(self.rng.permutation(list(START_BOARD)))
        self.places = self.simulator.place_pieces(self.board, self.style, self.conditions.scatter, self.rng)

    def picture(self, board: str, sticks: tuple[bool, ...] | None, places: tuple | None = None) -> np.ndarray:
        scene = Scene(board, sticks, places=places)
        return self.simulator.render(scene, self.conditions, self.rng, self.style, np.random.default_rng(self.lying))

    def reader(self) -> BoardReader:
        reader = BoardReader(choose_mat(self.start, known_mats()))
        reader.calibrate(self.start)
        return reader


class Reads:
    """Counts the frames a part of the reader really reads, by the calls of its method ``name``:
    the piece finder's ``read``, or the tray's ``masks`` (made of every tray it looks at)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> None:
        self.count, read = 0, getattr(owner, name)

        def counted(*args: object, **kwargs: object) -> object:
            self.count += 1
            return read(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)


def _same(one: object, other: object) -> bool:
    return all(getattr(one, name) == getattr(other, name) for name in ("status", "board", "light_up", "tray", "labels", "reason"))


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_the_same_scene_taken_again_is_answered_without_reading(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(seed)
    reader = table.reader()
    reads = Reads(monkeypatch, reader.pieces, "read")
    sticks = (True, False, True, False)
    first = reader.read(table.picture(table.board, sticks, table.places))
    again = [reader.read(table.picture(table.board, sticks, table.places)) for _ in range(3)]
    assert reads.count == 1
    assert all(_same(seen, first) and seen.motion == 0.0 for seen in again)


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_piece_lifted_or_a_stick_turned_is_read_afresh(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each changed picture gets the answer a reader that never saw the one before gives."""
    table = Table(seed)
    reader = table.reader()
    sticks = (True, False, True, False)
    reader.read(table.picture(table.board, sticks, table.places))
    square = table.board.index("D")
    lifted = table.board[:square] + "." + table.board[square + 1 :]
    places = tuple(None if index == square else place for index, place in enumerate(table.places))
    turned = (True, True, True, False)
    reads = Reads(monkeypatch, reader.pieces, "read")
    for picture in (table.picture(lifted, sticks, places), table.picture(lifted, turned, places)):
        seen = reader.read(picture)
        assert _same(seen, table.reader().read(picture))
    assert reads.count == 2


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_piece_moved_while_the_sticks_lie_still_is_read_without_reading_the_tray_again(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a player moves a piece, the sticks thrown lie still in the tray: its last reading
    is kept, and the frame gets the answer a reader that never saw the one before gives."""
    table = Table(seed)
    reader = table.reader()
    sticks = (True, False, True, False)
    reader.read(table.picture(table.board, sticks, table.places))
    square = table.board.index("L")
    target = table.board.index(".", square)
    moved = table.board[:square] + "." + table.board[square + 1 : target] + "L" + table.board[target + 1 :]
    places = table.simulator.place_pieces(moved, table.style, table.conditions.scatter, table.rng, keep=Scene(table.board, places=table.places))
    pieces, tray = Reads(monkeypatch, reader.pieces, "read"), Reads(monkeypatch, reader.tray, "masks")
    picture = table.picture(moved, sticks, places)
    seen = reader.read(picture)
    assert (pieces.count, tray.count) == (1, 0)
    assert seen.board == moved and seen.light_up == 2
    assert _same(seen, table.reader().read(picture))


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_someone_passing_beyond_the_mat_is_answered_without_reading(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the mat, with the paper and table just around its tray, is compared: a visitor
    walking past the table beyond it changes no answer, and the reader does not read again."""
    table = Table(seed)
    reader = table.reader()
    sticks = (True, False, True, False)
    first = reader.read(table.picture(table.board, sticks, table.places))
    assert reader.locator.location is not None
    mat = corners_in_frame((reader.geometry.width_px, reader.geometry.height_px), reader.locator.location.homography)
    assert mat[:, 0].min() > 60  # the table shows left of the mat
    reads = Reads(monkeypatch, reader.pieces, "read")
    passing = []
    for top in (0, 150, 300):
        frame = table.picture(table.board, sticks, table.places)
        frame[top : top + 150, :45] = (60, 40, 110)  # a sleeve going by
        passing.append(reader.read(frame))
    assert reads.count == 0
    assert all(_same(seen, first) for seen in passing)


def test_what_the_reader_learns_is_used_on_the_next_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(3)
    reader = table.reader()
    picture = table.picture(table.board, None, table.places)
    seen = reader.read(picture)
    reads, tray = Reads(monkeypatch, reader.pieces, "read"), Reads(monkeypatch, reader.tray, "masks")
    reader.learn(seen.labels)  # the empty tray too, as it looks now
    reader.read(table.picture(table.board, None, table.places))
    assert (reads.count, tray.count) == (1, 1)


def test_a_frame_without_the_mat_is_answered_again_without_a_marker_search(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(3)
    reader = table.reader()
    searches, locate = [], reader.locator.locate
    monkeypatch.setattr(reader.locator, "locate", lambda frame: searches.append(1) or locate(frame))
    rng = np.random.default_rng(0)
    blank = [np.clip(120 + rng.normal(0, 3, (480, 640, 3)), 0, 255).astype(np.uint8) for _ in range(3)]
    seen = [reader.read(frame) for frame in blank]
    assert [s.status for s in seen] == ["no-board"] * 3 and len(searches) == 1


def test_light_drifting_a_little_each_frame_is_read_again_once_it_adds_up() -> None:
    """Each frame is compared with the last one read, not with the one just before: a slow
    drift of the light (a cloud, a lamp warming up) is read once it moved far enough."""
    frames: StillFrames[str] = StillFrames()
    frames.keep(np.full((48, 64, 3), 100, np.uint8), "read in the morning")
    answers = [frames.answer(np.full((48, 64, 3), 100 + 8 * step, np.uint8)) for step in range(1, 6)]
    assert answers == ["read in the morning"] * 3 + [None] * 2
