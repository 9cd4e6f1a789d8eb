"""From one camera frame to an observation: where the pieces are, how the sticks fell.

The markers place the mat in the frame (the grid's printed lines, where they place it
badly: :mod:`grid_fit`) and tell where the camera is (:mod:`pose`); the grid is warped to
a top view (:mod:`plane`), where the piece finder looks for pieces standing anywhere in
their squares (:mod:`pieces`); the tray reader counts the sticks, in the tray as the
markers place it (they lie around it; the grid's lines end above it).

    >>> import numpy as np
    >>> from senet.vision.mat import MatLayout
    >>> from senet.vision.simulator import Conditions, Scene, Simulator
    >>> layout = MatLayout.for_paper("a3")
    >>> sim, rng = Simulator(layout), np.random.default_rng(0)
    >>> reader = BoardReader(MatGeometry.from_dict(layout.geometry(150)))
    >>> reader.calibrate(sim.render(Scene("LDLDLDLDLD" + "." * 20), Conditions.plain(), rng))
    >>> seen = reader.read(sim.render(Scene("LDLDLDLDL" + "." * 5 + "D" + "." * 15, (True, False, True, True)), Conditions.plain(), rng))
    >>> seen.status, seen.board, seen.light_up
    ('ok', 'LDLDLDLDL.....D...............', 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from senet.engine.board import format_board
from senet.engine.variants import find_variant
from senet.vision.camera_model import project
from senet.vision.geometry import BoardLocator, Location, MatGeometry
from senet.vision.grid_fit import fit_to_grid
from senet.vision.pieces import KIND_NAMES, CalibrationError, Piece, PieceFinder, SquareReadings, two_kinds
from senet.vision.plane import SQUARE_PX, BoardPlane
from senet.vision.pose import MatView
from senet.vision.still import Region, StillFrames
from senet.vision.tray import TrayReader, TrayReading
from senet.vision.tray_fit import TrayOutline
from senet.vision.warp import corners_in_frame

#: A square whose mean brightness moves this much between frames is moving.
MOTION_STEP = 8.0
#: A square read less surely than this is '?' (the referee fills it from the legal moves).
SURE = 0.95
#: More doubtful squares than this (a third of the board): the picture is not clear enough to
#: give a board. Each doubtful square is a '?' the referee fills from the legal moves, or waits.
#: (On 4,000 hard generated pictures, hands among them, only two were refused for their doubtful
#: squares alone, with seven and nine: every square they read surely was right.)
MAX_UNSURE = 9
#: Why no throw is read while the tray the reader learnt may have held sticks.
NOT_SEEN_EMPTY = "the tray was not empty when the camera started: throws are read once it has been seen empty"
#: The rule system whose start position is calibrated on when none is named.
DEFAULT_VARIANT = "kendall"


class NoBoardError(ValueError):
    """The mat cannot be found in the picture."""


@dataclass(frozen=True)
class Observation:
    """What one frame shows. ``board`` and ``light_up`` are None unless they are certain."""

    status: str  # "ok", "occluded" or "no-board"
    board: str | None
    light_up: int | None
    tray: str  # "empty", "sticks", "unclear", "occluded" or "unknown"
    confidence: tuple[float, ...]
    motion: float
    reason: str = ""
    #: Per square '.', 'D', 'L', or '?' where unsure, when no hand covers the board (for the
    #: referee, which can fill an unsure square from the legal moves); None otherwise.
    labels: str | None = None
    #: The tray as read (with where the sticks lie), when the tray was seen.
    sticks: TrayReading | None = None
    #: Per square the probabilities of empty, dark and light (30 x 3), when the board was seen.
    probabilities: np.ndarray | None = None
    #: The pieces found, where their bases stand in the top view and how surely, when the board
    #: was seen (``bench/vision_shape.py`` measures them against the truth).
    pieces: tuple[Piece, ...] = ()

    def to_json(self, image: str | None = None) -> dict[str, object]:
        """The ``senet vision read --json`` line."""
        data: dict[str, object] = {} if image is None else {"image": image}
        data.update(status=self.status, board=self.board, light_up=self.light_up)
        if self.reason:
            data["reason"] = self.reason
        return data


def no_board(reason: str) -> Observation:
    return Observation("no-board", None, None, "unknown", (), 0.0, reason)


@dataclass
class BoardReader:
    """Calibrated once on the start position, then reads frames from the fixed camera.

    ``variant`` names the rule system whose start position the start picture shows;
    ``stream``: the frames come from a running camera, one after another (the companion's),
    and the sticks are traced once they lie still (:attr:`TrayReader.stream`); separate
    pictures (``senet vision read``) are each read whole.
    """

    geometry: MatGeometry
    variant: str = DEFAULT_VARIANT
    stream: bool = False
    locator: BoardLocator = field(init=False)
    plane: BoardPlane = field(init=False)
    pieces: PieceFinder = field(init=False)
    tray: TrayReader = field(init=False)
    outline: TrayOutline = field(init=False)
    #: A location, the camera above the mat it gives, and top-view pixels per picture pixel.
    _view: tuple[Location, MatView, float] | None = field(default=None, repr=False)
    #: The locator's last location, and it fitted to the grid's lines (:mod:`grid_fit`).
    _fitted: tuple[Location, Location] | None = field(default=None, repr=False)
    #: The camera (:attr:`Location.camera`) the empty board was learnt from, and the homography
    #: (mat pixels to the frame's) its top view was learnt through.
    _board_at: tuple[int, np.ndarray] | None = field(default=None, repr=False)
    _previous: np.ndarray | None = field(default=None, repr=False)
    #: The camera (:attr:`Location.camera`) the tray was last placed for by its outline
    #: (:meth:`_fit_tray`), and its place (a homography from mat pixels to the frame's).
    _tray_at: tuple[int, np.ndarray] | None = field(default=None, repr=False)
    #: The last frame read and its location, when its tray was empty.
    _empty_tray: tuple[np.ndarray, Location] | None = field(default=None, repr=False)
    #: Whether the tray learnt was empty: a match resumed after a restart may start with sticks
    #: lying in it (:meth:`TrayReader.looks_empty` tells), and against those no throw is read.
    _tray_learnt_empty: bool = field(default=False, repr=False)
    #: The last frame read: where it showed the whole mat (None: nowhere), and what it showed.
    _still: StillFrames[tuple[Location | None, Observation]] = field(default_factory=StillFrames, repr=False)
    #: The part of the frame the last reading looked at (:meth:`_read_from`), and what it
    #: depends on: the location, the tray's place and the frame's size.
    _looked_at: tuple[Location, np.ndarray, tuple[int, ...], Region | None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.locator = BoardLocator(self.geometry)
        self.plane = BoardPlane(self.geometry)
        self.pieces = PieceFinder(self.plane)
        self.tray = TrayReader(self.geometry, stream=self.stream)
        self.outline = TrayOutline(self.geometry)

    @property
    def calibrated(self) -> bool:
        return self.pieces.calibrated

    @property
    def start_board(self) -> str:
        """The position the reader calibrates on by default (RAMSES: its calibration arrangement)."""
        return format_board(find_variant(self.variant).calibration_board())

    def calibrate(self, frame: np.ndarray, board: str | None = None) -> None:
        """Learn from a frame of the start position with an empty tray (or of ``board``, 30
        characters, the position a match resumed after a restart stands in: sticks may lie in
        its tray, and if they seem to, no throw is read until a frame shows the tray empty).

        Raises NoBoardError or CalibrationError saying what is wrong with the picture.
        """
        check_frame(frame)
        self.locator.location = None
        self._still.forget()
        self._board_at = None
        location = self._on_grid(frame, self.locator.locate(frame))
        if location is None:
            seen, needed = self.locator.markers_seen, self.locator.min_markers
            if seen >= needed:
                raise NoBoardError("only the markers along one side of the mat are seen: the whole mat must be in view and evenly lit,"
                                   " and the camera near enough and in focus for the others to show sharp")
            if seen:  # the mat is there: the others are out of view, covered, or too small or blurred to read
                raise NoBoardError(f"only {seen} of the mat's markers can be read, {needed} are needed: the whole mat must be in view and evenly lit,"
                                   " and the camera near enough and in focus for its markers to show sharp")
            raise NoBoardError("fewer than three of the mat's markers are visible: the whole mat must be in view")
        if not self._inside(frame, location):
            raise NoBoardError("part of the board is outside the picture: move the camera up or back")
        camera, _ = self._camera(frame, location)
        start = board or self.start_board
        self.pieces = PieceFinder(self.plane)
        self._board_at = (location.camera, location.homography)
        self._learn_tray(frame, location)
        # The start is set up with the tray empty; a match resumed may have sticks lying in it.
        resumed = board is not None and board != self.start_board
        self._tray_learnt_empty = not resumed or self.tray.looks_empty(frame, self._tray_place(location), evenly=False)
        # Read as the next frame will show it, the start must look as it was learnt, the first
        # way of looking at it that does (the first refusal says what is wrong). Learnt again,
        # it must not find a start piece twice either: a neighbour found twice can stand in for
        # a missing piece. That reading is no frame of the match: the motion of the next is
        # measured from the last read.
        before, refusal = self._previous, None
        learnt = self.pieces.calibrations(self.plane.warp(frame, location.homography), self.plane.from_mm(camera.nadir_mm[None, :])[0],
                                          camera.height_mm, start)  # raises CalibrationError when no way of looking fits
        for again, _ in enumerate(learnt):
            seen = self._read_mat(_as_next_frame(frame), location)
            self._previous = before
            wrong = _read_back(seen, start)
            if wrong is None and not (again and _found_twice(seen, start)):
                return
            refusal = refusal or wrong
        assert refusal is not None  # the start learnt first was refused
        self.pieces = PieceFinder(self.plane)
        raise refusal

    def learn(self, board: str) -> None:
        """The board (30 characters) the referee accepted for the last frame read: the reader
        follows how the pieces look now (see :meth:`PieceFinder.learn`), and how the empty
        tray looks and where its outline lies when it was empty (the light drifts through the
        day, and a camera may have moved)."""
        self.pieces.learn(board)
        if self._empty_tray is not None:
            self._learn_tray(*self._empty_tray)
        self._still.forget()

    def read(self, frame: np.ndarray) -> Observation:
        """Read one frame (BGR). Never raises for a bad picture: it says no-board instead. A
        frame that shows nothing new since the last one read gets the same answer (:mod:`still`),
        with the motion since the frame before; but for an answer given while the sticks moved
        (:attr:`TrayReading.moving`): the next frame is read, the sticks lying still in it."""
        if not self.calibrated:
            raise RuntimeError("calibrate the reader on the start position first")
        self._empty_tray = None
        try:
            check_frame(frame)
        except NoBoardError as error:
            return no_board(str(error))
        kept = self._still.answer(frame)
        if kept is not None:
            location, seen = kept
            if location is not None:
                seen = replace(seen, motion=self._motion(self.plane.warp(frame, location.homography)))
        else:
            location = self._on_grid(frame, self.locator.locate(frame))
            if location is not None and self._inside(frame, location):
                seen = self._read_mat(frame, location)
            else:
                location, seen = None, self._no_mat(location)
            if seen.sticks is None or not seen.sticks.moving:
                self._still.keep(frame, (location, seen), None if location is None else self._read_from(frame, location))
        if location is not None and seen.tray == "empty":
            self._empty_tray = (frame, location)
        return seen

    def _read_from(self, frame: np.ndarray, location: Location) -> Region | None:
        """The part of ``frame`` a reading at ``location`` looks at: the whole mat, its markers
        and grid, the board's top view and the tray's band (which reaches past the paper's edge),
        with a pixel around for the warps' sampling; None (the whole frame) where the mat's
        place cannot say. Worked out once for each location, place of the tray and frame size."""
        tray_place = self._tray_place(location)
        looked = self._looked_at
        if looked is None or looked[0] is not location or looked[1] is not tray_place or looked[2] != frame.shape[:2]:
            looked = self._looked_at = (location, tray_place, frame.shape[:2], self._region(frame.shape[:2], location.homography, tray_place))
        return looked[3]

    def _region(self, size: tuple[int, ...], homography: np.ndarray, tray_place: np.ndarray) -> Region | None:
        """:meth:`_read_from` worked out, for a frame of ``size`` (height, width)."""
        mat = corners_in_frame((self.geometry.width_px, self.geometry.height_px), homography)
        corners = np.concatenate([mat, self.plane.footprint(homography), self.tray.footprint(tray_place)])
        if not np.isfinite(corners).all():
            return None
        height, width = size
        (x0, y0), (x1, y1) = np.floor(corners.min(axis=0)) - 1, np.ceil(corners.max(axis=0)) + 2
        region = int(max(x0, 0)), int(max(y0, 0)), int(min(x1, width)), int(min(y1, height))
        return region if region[0] < region[2] and region[1] < region[3] else None

    def _no_mat(self, location: Location | None) -> Observation:
        """What a frame shows where the mat is found at ``location`` but not wholly in view, or not found."""
        if location is not None:
            return no_board("part of the mat is outside the picture")
        if self.locator.markers_seen:  # some markers show: something covers the others
            return Observation("occluded", None, None, "unknown", (), 0.0, "most of the mat's markers are covered")
        return no_board("the mat's markers are not visible")

    def _read_mat(self, frame: np.ndarray, location: Location) -> Observation:
        """The pieces and the sticks in a frame that shows the whole mat at ``location``."""
        camera, view_px_per_picture_px = self._camera(frame, location)
        self.pieces.set_camera(self.plane.from_mm(camera.nadir_mm[None, :])[0], camera.height_mm, view_px_per_picture_px)
        self.tray.set_camera(camera.nadir_mm, camera.height_mm)
        view = self.plane.warp(frame, location.homography)
        motion = self._motion(view)
        tray_place = self._tray_place(location)
        to_view = location.homography @ self.plane.to_mat()
        tray = self.tray.read(frame, tray_place, trace=False)  # nothing is read from a covered board: it need not wait
        # Left unchecked, what crosses the paper beside the tray may be a hand reaching in or a
        # stick over the rim: the board is read as if nothing came into the tray from beyond
        # (which covers the fewest squares); if the whole tray coming in covers the same, a
        # covered board is known without telling which.
        squares = self.pieces.read(view, None if tray.unchecked else self.tray.reaching_in_view(tray, tray_place, to_view, self.plane.size))
        if tray.unchecked and not (squares.covered.any() and np.array_equal(
                self.pieces.reached_from(np.ones(self.plane.size[::-1], bool)).covered, squares.covered)):
            tray = self.tray.read(frame, tray_place)
            squares = self.pieces.reached_from(self.tray.reaching_in_view(tray, tray_place, to_view, self.plane.size))
        elif tray.untraced and not squares.covered.any():
            tray = self.tray.read(frame, tray_place)
        if not self._tray_learnt_empty:
            tray = self._tray_seen_empty(frame, location, tray, squares)
        return _observation(squares, tray, motion, find_variant(self.variant).pieces)

    def _tray_seen_empty(self, frame: np.ndarray, location: Location, tray: TrayReading, squares: SquareReadings) -> TrayReading:
        """The ``tray`` as read while the tray learnt may have held sticks: learnt afresh from
        ``frame`` where no hand is in view and the tray looks empty; else no throw (and a tray
        covered by something stays so)."""
        if tray.state == "occluded":
            return tray
        if squares.covered.any() or tray.from_beyond or not self.tray.looks_empty(frame, self._tray_place(location)):
            return TrayReading("unclear", None, tray.sticks, NOT_SEEN_EMPTY, reaching=tray.reaching)
        self._learn_tray(frame, location)
        self._tray_learnt_empty = True
        return self.tray.read(frame, self._tray_place(location))

    def _learn_tray(self, frame: np.ndarray, location: Location) -> None:
        """Learn the empty tray from ``frame``, placed by its outline (:meth:`_fit_tray`)."""
        self._fit_tray(frame, location)
        self.tray.calibrate(frame, self._tray_place(location))

    def _on_grid(self, frame: np.ndarray, location: Location | None) -> Location | None:
        """The locator's ``location`` fitted to the grid's printed lines, once for each new
        location (the locator keeps its own: its markers are where it found them). While the
        camera stays put, the board is seen through the homography its empty board was learnt
        through: markers found again (some covered by a hand, one more seen, blurred) fit
        the grid a few pixels off it, and its printed lines would show as pieces."""
        if location is None:
            return None
        if self._fitted is None or self._fitted[0] is not location:
            if self._board_at is not None and self._board_at[0] == location.camera:
                homography = self._board_at[1]
            else:
                homography = fit_to_grid(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), location.homography, self.plane)
            self._fitted = (location, replace(location, homography=homography))
        return self._fitted[1]

    def _markers_place(self, location: Location) -> np.ndarray:
        """The homography the markers gave for ``location`` (one :meth:`_on_grid` returned),
        before it was fitted to the grid's lines: it places the tray better. A homography cannot
        follow a lens that bends the picture; the one fitted to the grid's lines is right on
        the grid and drifts beyond it, while the markers lie around the tray as well (two
        beside it, two level with the grid)."""
        assert self._fitted is not None and self._fitted[1] is location, "a location from _on_grid"
        return self._fitted[0].homography

    def _tray_place(self, location: Location) -> np.ndarray:
        """Where the tray lies for ``location`` (one :meth:`_on_grid` returned): where its outline
        showed when it was last seen empty, while the camera stays put (:meth:`_fit_tray`);
        where the markers put it after the camera moved, until the tray is seen empty again."""
        if self._tray_at is not None and self._tray_at[0] == location.camera:
            return self._tray_at[1]
        return self._markers_place(location)

    def _fit_tray(self, frame: np.ndarray, location: Location) -> None:
        """Place the tray by its printed outline (:mod:`tray_fit`) in ``frame``, whose tray is
        empty, and keep that place while the camera stays put. The tray is read against how it
        looked then, and a frame whose markers are found afresh (a few of them, in shade) may
        put it millimetres from where an earlier frame's did; and its outline is found surely
        only when no stick lies along it."""
        self._tray_at = (location.camera, self.outline.fit(frame, self._markers_place(location)))

    def _camera(self, frame: np.ndarray, location: Location) -> tuple[MatView, float]:
        """Where the camera is above the mat, and how many top-view pixels one pixel of its
        picture spans on the grid (:meth:`_view_px_per_picture_px`), once for each new location."""
        if self._view is None or self._view[0] is not location:
            per_mm = self.geometry.dpi / 25.4
            homography_mm = location.homography @ np.diag([per_mm, per_mm, 1.0])
            camera = MatView.from_homography(homography_mm, (frame.shape[1], frame.shape[0]))
            self._view = (location, camera, self._view_px_per_picture_px(location))
        return self._view[1], self._view[2]

    def _view_px_per_picture_px(self, location: Location) -> float:
        """Top-view pixels per picture pixel on the grid's farthest corner square."""
        sides = []
        for square in (1, 10, 21, 30):
            corners = project(location.homography, self.geometry.squares[square])
            sides.append(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1).mean())
        return SQUARE_PX / max(min(sides), 1.0)

    def _inside(self, frame: np.ndarray, location: Location) -> bool:
        corners = np.concatenate([self.geometry.squares[1], self.geometry.squares[30], self.geometry.tray])
        pixels = project(location.homography, corners)
        height, width = frame.shape[:2]
        return bool(((pixels >= 0) & (pixels < [width, height])).all())

    def _motion(self, view: np.ndarray) -> float:
        """The share of the squares whose brightness moved since the last frame."""
        brightness = self.plane.square_means(view)
        previous, self._previous = self._previous, brightness
        if previous is None or previous.shape != brightness.shape:
            return 0.0
        return float((np.abs(brightness - previous) > MOTION_STEP).mean())


def _observation(squares: SquareReadings, tray: TrayReading, motion: float, a_side: int) -> Observation:
    """Put the squares and the tray together, saying what is covered. A side has ``a_side``
    pieces: more of a kind read surely than that, and something else looks like them (a
    hand's fingertips, a lamp mirrored in a dark top), so none of that kind is sure."""
    surely = "".join("?" if sure < SURE else label for label, sure in zip(squares.labels, squares.confidence))
    too_many = [kind for kind in "DL" if surely.count(kind) > a_side]
    counted = "; ".join(f"{surely.count(kind)} {KIND_NAMES[kind]} pieces seen, {a_side} a side" for kind in too_many)
    labels = "".join("?" if label in too_many else label for label in surely)
    confidence = tuple(min(float(c), 0.5) if label in too_many else float(c) for label, c in zip(surely, squares.confidence))
    reasons = []
    if squares.covered.any():
        reasons.append("a hand or arm covers squares " + ", ".join(str(i + 1) for i in np.flatnonzero(squares.covered)))
    if tray.state == "occluded":
        reasons.append(tray.reason)
    if labels.count("?") > MAX_UNSURE:  # that many doubtful squares: something is in the way
        reasons += filter(None, ["cannot tell what is on squares " + ", ".join(str(i + 1) for i, c in enumerate(labels) if c == "?"), counted])
    # A piece in doubt for a stick lying beside it: said either way, for the players to put right.
    by_stick = sorted({piece.square for piece in squares.pieces if piece.by_stick and labels[piece.square - 1] == "?"})
    stick = f"a stick lies over the tray's rim by square{'s' if len(by_stick) > 1 else ''} {', '.join(map(str, by_stick))}" if by_stick else ""
    if stick and reasons:
        reasons.append(stick)
    if reasons:
        seen = None if squares.covered.any() else labels
        return Observation("occluded", None, None, tray.state, confidence, motion, "; ".join(reasons), seen, tray,
                           squares.probabilities, squares.pieces)
    light_up = tray.light_up if tray.state == "sticks" else None
    reason = tray.reason if tray.state == "unclear" else ""
    if "?" in labels:
        unsure = ", ".join(str(i + 1) for i, c in enumerate(labels) if c == "?")
        reason = "; ".join(filter(None, [f"not sure what is on squares {unsure}", counted, stick, reason]))
    return Observation("ok", labels, light_up, tray.state, confidence, motion, reason, labels, tray, squares.probabilities, squares.pieces)


#: The noise (levels of 255, a standard deviation) added to the start picture to read it as
#: the next frame will show it: about a webcam's. Read without any, the noise floor learnt
#: (:meth:`PieceFinder._evidence_floor`) has only the filled-in places of the pieces to go by.
NEXT_FRAME_NOISE = 3.0


def _as_next_frame(frame: np.ndarray) -> np.ndarray:
    """``frame`` with fresh noise of NEXT_FRAME_NOISE, the same every time for the same frame.

        >>> frame = np.full((40, 40, 3), 100, np.uint8)
        >>> again = _as_next_frame(frame)
        >>> bool((again == _as_next_frame(frame)).all()), 2.0 < float(np.std(again.astype(float))) < 4.0
        (True, True)
    """
    noise = np.random.default_rng(0).normal(0.0, NEXT_FRAME_NOISE, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def _read_back(seen: Observation, board: str) -> CalibrationError | None:
    """Why the picture a reader calibrated on is refused, as it reads it (``seen``, the next
    frame as :func:`_as_next_frame` makes it) with what it learnt there that ``board`` (30
    characters) stands, or None: it reads a square where a piece stands surely empty, and no
    piece anywhere else (not a piece read beside its square). A start with a piece missing can
    pass for ten pieces, the shape learnt fitted to what else lies on the empty square (its
    neighbour's shadow, the grid's edge); read as the next frames will be, it shows nine. (A
    picture read as covered is no sign: the reader, not the picture, may be at fault there.)

        >>> ok = Observation("ok", "LD?D.", None, "empty", (), 0.0, labels="LD?D.")
        >>> _read_back(ok, "LDLD.") is None, _read_back(replace(ok, labels="L.LD."), "LDLD.").missing
        (True, frozenset({2}))
        >>> _read_back(replace(ok, labels="L.LDD"), "LDLD.") is None  # beside its square
        True
    """
    if seen.labels is None:
        return None
    wanted = {number for number, placed in enumerate(board, start=1) if placed in KIND_NAMES}
    maybe = {number for number, read in enumerate(seen.labels, start=1) if read != "."}
    if maybe <= wanted and wanted - maybe:
        return CalibrationError.not_the_start(wanted, maybe)
    return None


def _found_twice(seen: Observation, board: str) -> bool:
    """Whether ``seen`` finds two pieces on some square where ``board`` (30 characters) stands
    one (square 0: beside the grid), unless they are one surely dark and one surely light
    (two pieces, not one found twice: a start piece standing by the line of its square, its
    base placed over it, beside its neighbour of the other kind).

        >>> piece = Piece(10.0, 10.0, 2, 1.0, 0.0, False)
        >>> ok = Observation("ok", "LD", None, "empty", (), 0.0, labels="LD", pieces=(piece,))
        >>> _found_twice(ok, "LD"), _found_twice(replace(ok, pieces=(piece, replace(piece, x=16.0))), "LD")
        (False, True)
        >>> _found_twice(replace(ok, pieces=(piece, replace(piece, x=16.0, light=1.0))), "LD")
        False
    """
    lights: dict[int, list[float]] = {}
    for piece in seen.pieces:
        if piece.found > 0.5 and piece.square and board[piece.square - 1] in KIND_NAMES:
            lights.setdefault(piece.square, []).append(piece.light)
    return any(len(found) > 1 and not two_kinds(found) for found in lights.values())


def check_frame(frame: np.ndarray) -> None:
    """Raise NoBoardError unless ``frame`` is a colour picture large enough to show the board."""
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise NoBoardError("the picture is not an 8-bit colour image")
    if min(frame.shape[:2]) < 64:
        raise NoBoardError("the picture is too small to show the board")


__all__ = ["BoardReader", "CalibrationError", "NoBoardError", "Observation", "check_frame"]
