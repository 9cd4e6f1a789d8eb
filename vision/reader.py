"""From one camera frame to an observation: where the pieces are, how the sticks fell.

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

from dataclasses import dataclass, field

import numpy as np

from senet.vision.geometry import BoardLocator, Location, MatGeometry
from senet.vision.sampling import SamplePoints, read_pixels
from senet.vision.squares import CalibrationError, SquareModel, changed
from senet.vision.tray import TrayReader, TrayReading

#: A sample point whose brightness moves this much between frames counts as motion.
MOTION_STEP = 25.0
#: White paper tinted this much (log colour ratio) has a hand or arm over it.
PAPER_CHROMA_CHANGE = 0.12
#: Squares the start picture may leave unclear or misread (a glint of light on a piece) and
#: still teach: each kind is learnt from a median, so a few odd squares do not spoil it.
MAX_DOUBTFUL_AT_START = 3
START_BOARD = "LDLDLDLDLD" + "." * 20


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
    """Calibrated once on the start position, then reads frames from the fixed camera."""

    geometry: MatGeometry
    locator: BoardLocator = field(init=False)
    points: SamplePoints = field(init=False)
    tray: TrayReader = field(init=False)
    model: SquareModel | None = None
    _ring: np.ndarray | None = None
    _projected: tuple[Location, np.ndarray] | None = None
    _previous: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.locator = BoardLocator(self.geometry)
        self.points = SamplePoints.build(self.geometry)
        self.tray = TrayReader(self.geometry)

    @property
    def calibrated(self) -> bool:
        return self.model is not None

    def calibrate(self, frame: np.ndarray) -> None:
        """Learn from a frame of the start position with an empty tray.

        Raises NoBoardError or CalibrationError saying what is wrong with the picture.
        """
        _check_frame(frame)
        self.locator.location = None
        location = self.locator.locate(frame)
        if location is None:
            raise NoBoardError("fewer than three of the mat's markers are visible")
        samples, inside = self._sample(frame, location)
        if not inside.all():
            raise NoBoardError("part of the board is outside the picture")
        centres, corners, ring = samples
        self.model = SquareModel.calibrate(centres, corners)
        self._ring = ring
        self.tray.calibrate(frame, location.homography)
        readings = self.model.classify(centres, corners)
        wrong = [i + 1 for i, (seen, start) in enumerate(zip(readings.labels, START_BOARD)) if seen not in (start, "?")]
        doubtful = len(wrong) + readings.labels.count("?")
        if doubtful > MAX_DOUBTFUL_AT_START:
            self.model = None
            where = f" (squares {', '.join(map(str, wrong))} look wrong)" if wrong else ""
            raise CalibrationError(
                f"the start picture is not clear enough{where}: set up the start position, empty the tray, "
                "check the light and that nothing covers the mat"
            )

    def read(self, frame: np.ndarray) -> Observation:
        """Read one frame (BGR). Never raises for a bad picture: it says no-board instead."""
        if self.model is None or self._ring is None:
            raise RuntimeError("calibrate the reader on the start position first")
        try:
            _check_frame(frame)
        except NoBoardError as error:
            return no_board(str(error))
        location = self.locator.locate(frame)
        if location is None:
            if self.locator.markers_seen:  # some markers show: something covers the others
                return Observation("occluded", None, None, "unknown", (), 0.0, "most of the mat's markers are covered")
            return no_board("the mat's markers are not visible")
        (centres, corners, ring), inside = self._sample(frame, location)
        motion = self._motion(np.concatenate([centres.reshape(-1, 3), corners.reshape(-1, 3)]))
        if not inside.all():
            return no_board("part of the mat is outside the picture")
        squares = self.model.classify(centres, corners)
        gain = np.median((corners.mean(axis=2) / np.maximum(self.model.corners, 1.0)).reshape(-1, 3), axis=0)
        edge = changed(ring, self._ring * gain, PAPER_CHROMA_CHANGE)
        tray = self.tray.read(frame, location.homography)
        confidence = tuple(float(c) for c in squares.confidence)
        reasons = []
        if squares.covered.any():
            reasons.append("a hand or arm covers squares " + ", ".join(str(i + 1) for i in np.flatnonzero(squares.covered)))
        elif "?" in squares.labels:
            reasons.append("cannot tell what is on squares " + ", ".join(str(i + 1) for i, c in enumerate(squares.labels) if c == "?"))
        if edge.sum() >= 2:
            reasons.append("something lies over the edge of the board or tray")
        if tray.state == "occluded":
            reasons.append(tray.reason)
        hand = bool(squares.covered.any() or edge.sum() >= 2 or tray.state == "occluded")
        labels = None if hand else squares.labels
        if reasons:
            return Observation("occluded", None, None, tray.state, confidence, motion, "; ".join(reasons), labels, tray)
        light_up = tray.light_up if tray.state == "sticks" else None
        reason = tray.reason if tray.state == "unclear" else ""
        return Observation("ok", squares.labels, light_up, tray.state, confidence, motion, reason, labels, tray)

    def _sample(self, frame: np.ndarray, location: Location) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
        if self._projected is None or self._projected[0] is not location:
            self._projected = (location, self.points.to_image(location.homography))
        pixels, inside = read_pixels(frame, self._projected[1])
        n_centre, n_corner, _ = self.points.counts
        centres = pixels[:n_centre].reshape(30, -1, 3)
        corners = pixels[n_centre : n_centre + n_corner].reshape(30, 4, 4, 3)
        return (centres, corners, pixels[n_centre + n_corner :]), inside[: n_centre + n_corner]

    def _motion(self, samples: np.ndarray) -> float:
        """The share of sample points whose brightness moved since the last frame."""
        brightness = samples.mean(axis=1)
        previous, self._previous = self._previous, brightness
        if previous is None or previous.shape != brightness.shape:
            return 0.0
        return float((np.abs(brightness - previous) > MOTION_STEP).mean())


def _check_frame(frame: np.ndarray) -> None:
    if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise NoBoardError("the picture is not an 8-bit colour image")
    if min(frame.shape[:2]) < 64:
        raise NoBoardError("the picture is too small to show the board")


__all__ = ["BoardReader", "CalibrationError", "NoBoardError", "Observation"]
