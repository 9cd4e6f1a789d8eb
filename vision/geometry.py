"""Where the mat is in a camera frame: ``mat.json`` geometry and the marker-based locator.

:class:`MatGeometry` reads the ``mat.json`` contract (mat pixels). :class:`BoardLocator`
finds the ArUco markers, fits the homography from mat pixels to image pixels, and keeps
it over frames: the camera is fixed, so later frames only check a few marker modules and
run the full detector again when those no longer match.

    >>> from senet.vision.mat import MatLayout
    >>> geometry = MatGeometry.from_dict(MatLayout.for_paper("a4").geometry(dpi=150))
    >>> len(geometry.markers), geometry.square_side_px > 100
    (8, True)
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from senet.vision.camera_model import project
from senet.vision.mat import PAPERS, MatLayout

Quad = np.ndarray  # (4, 2) float: TL, TR, BR, BL
#: A marker corner that moved less than this (image pixels) means the camera stayed put.
STILL_PX = 3.0
#: A fit needs this many markers seen in one picture.
MIN_MARKERS = 3
#: ...spread over at least this share of the mat's width and of its height.
MARKER_SPAN = 0.2
#: Markers not found at first are sought on the picture twice the size, then sharpened
#: (an unsharp mask: this much of the detail a blur of this many pixels takes away, added).
SHARPEN, SHARPEN_SIGMA = 1.5, 3.0
#: ...and last decoded leniently there: a blurred, dim marker's cells bleed into each other, so
#: only this share of each cell's width in its middle is read (OpenCV's default: 0.13 each
#: side), and as many wrong bits corrected as the dictionary allows (for 4x4 markers, one).
LENIENT_MARGIN, LENIENT_CORRECTION = 0.3, 1.0


class MatFileError(ValueError):
    """``mat.json`` is missing, unreadable or not the contract's shape."""


@dataclass(frozen=True)
class MatGeometry:
    """The printed mat in mat pixels: markers, squares 1..30, the tray."""

    dpi: float
    width_px: float
    height_px: float
    markers: dict[int, Quad]
    squares: dict[int, Quad]
    tray: Quad
    dictionary: int = cv2.aruco.DICT_4X4_50

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatGeometry:
        try:
            markers = {int(m["id"]): np.array(m["corners"], float).reshape(4, 2) for m in data["markers"]}
            squares = {int(k): np.array(v, float).reshape(4, 2) for k, v in data["squares"].items()}
            tray = np.array(data["tray"], float).reshape(4, 2)
            geometry = cls(float(data["dpi"]), float(data["width_px"]), float(data["height_px"]), markers, squares, tray)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise MatFileError(f"mat geometry is not in the mat.json shape ({error!r})") from None
        if sorted(squares) != list(range(1, 31)) or len(markers) < 4:
            raise MatFileError("mat geometry needs squares 1..30 and at least four markers")
        return geometry

    @classmethod
    def load(cls, path: Path) -> MatGeometry:
        try:
            return cls.from_dict(json.loads(path.read_text()))
        except OSError as error:
            raise MatFileError(f"cannot read {path}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise MatFileError(f"{path} is not valid JSON: {error.msg} (line {error.lineno})") from None
        except UnicodeDecodeError:
            raise MatFileError(f"{path} is not a text file (mat.json is UTF-8 JSON)") from None
        except RecursionError:
            raise MatFileError(f"{path} is nested too deeply to be a mat.json") from None

    @property
    def square_side_px(self) -> float:
        quad = self.squares[1]
        return float(np.linalg.norm(quad[1] - quad[0]))

    def in_square(self, square: int, uv: np.ndarray) -> np.ndarray:
        """Points given as (u, v) fractions of a square (0..1, from its top-left) in mat pixels."""
        return bilinear(self.squares[square], uv)


def bilinear(quad: Quad, uv: np.ndarray) -> np.ndarray:
    """Map (N, 2) unit-square coordinates into a quad (TL, TR, BR, BL)."""
    u, v = uv[:, :1], uv[:, 1:2]
    top = quad[0] + (quad[1] - quad[0]) * u
    bottom = quad[3] + (quad[2] - quad[3]) * u
    return top + (bottom - top) * v


def known_mats() -> list[MatGeometry]:
    """The mats ``senet board mat`` prints, in mat pixels at 150 dpi."""
    return [MatGeometry.from_dict(MatLayout.for_paper(paper).geometry(150)) for paper in PAPERS]


def choose_mat(frame: np.ndarray, mats: list[MatGeometry]) -> MatGeometry | None:
    """The mat whose markers the frame shows most of (None when no marker is seen)."""
    dictionary = cv2.aruco.getPredefinedDictionary(mats[0].dictionary)
    _, ids = detect_markers(cv2.aruco.ArucoDetector(dictionary), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), MIN_MARKERS)
    if ids is None:
        return None
    seen = set(int(i) for i in ids.ravel())
    best = max(mats, key=lambda mat: len(seen & set(mat.markers)))
    return best if seen & set(best.markers) else None


def detect_markers(detector: Any, gray: np.ndarray, enough: int, wanted: Container[int] | None = None) -> tuple[list[np.ndarray], np.ndarray | None]:
    """The markers' corners and ids in a grey picture. Small or blurred markers (a far
    camera, an A4 mat, a soft lens) are looked for again, while fewer than ``enough`` of the
    ``wanted`` ids (every id where None) are found, on the picture twice the size, then on
    that picture sharpened; and while too few to place the mat are found (MIN_MARKERS), on it
    decoded leniently (LENIENT_MARGIN). An id no marker of the mat has (a blurred marker
    misread) does not count."""

    def counted(ids: np.ndarray | None) -> int:
        return 0 if ids is None else len({int(i) for i in ids.ravel() if wanted is None or int(i) in wanted})

    corners, ids, _ = detector.detectMarkers(gray)
    if counted(ids) >= enough:
        return list(corners), ids
    larger = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)

    def attempts() -> Iterator[tuple[Any, np.ndarray]]:  # made only as far as they are needed
        yield detector, larger
        yield detector, cv2.addWeighted(larger, 1 + SHARPEN, cv2.GaussianBlur(larger, (0, 0), SHARPEN_SIGMA), -SHARPEN, 0)
        if counted(ids) < MIN_MARKERS:  # too few to place the mat at all
            lenient = detector.getDetectorParameters()
            lenient.perspectiveRemoveIgnoredMarginPerCell, lenient.errorCorrectionRate = LENIENT_MARGIN, LENIENT_CORRECTION
            yield cv2.aruco.ArucoDetector(detector.getDictionary(), lenient), larger

    for reader, attempt in attempts():
        found, found_ids, _ = reader.detectMarkers(attempt)
        if counted(found_ids) > counted(ids):
            corners, ids = [quad / 2 for quad in found], found_ids
        if counted(ids) >= enough:
            break
    return list(corners), ids


@dataclass(frozen=True)
class Location:
    """A fitted homography (mat pixels -> image pixels) and which markers supported it."""

    homography: np.ndarray
    marker_ids: tuple[int, ...]
    error_px: float
    #: Which still camera it was seen from: the locator counts one more each time the camera
    #: moved (most markers jumped), so two locations with the same number saw the same mat.
    camera: int = 0


@dataclass
class BoardLocator:
    """Finds the mat in frames and keeps the fit while the camera stays put.

    A fit needs at least three markers seen now (so one covered by a hand does not
    matter). Each detection refines the fit: marker corners are averaged over the
    detections since the camera last moved. Later frames are only checked against a few
    black and white modules of each marker, and the detector runs again when those fail.
    """

    geometry: MatGeometry
    min_markers: int = MIN_MARKERS
    location: Location | None = None
    _detector: Any = field(init=False, repr=False)
    _modules: dict[int, tuple[np.ndarray, np.ndarray]] = field(init=False, repr=False)
    _checked: tuple[Location, tuple[int, ...], list[tuple[np.ndarray, np.ndarray]]] | None = field(default=None, init=False, repr=False)
    #: How many of the mat's markers the last detection found (fewer than needed for a fit too).
    markers_seen: int = field(default=0, init=False)
    _averages: dict[int, tuple[np.ndarray, int]] = field(default_factory=dict, init=False, repr=False)
    #: How many times the camera moved since the locator started.
    _moves: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(self.geometry.dictionary)
        parameters = cv2.aruco.DetectorParameters()
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(dictionary, parameters)
        self._modules = {marker: _module_centres(dictionary, marker, quad) for marker, quad in self.geometry.markers.items()}

    def detect(self, gray: np.ndarray) -> Location | None:
        """Run the marker detector and fit the homography; None when too few markers are seen."""
        corners, ids = detect_markers(self._detector, gray, self.min_markers, self.geometry.markers)
        if ids is not None and not self.spread([int(m) for m in ids.ravel() if int(m) in self.geometry.markers]):
            corners, ids = detect_markers(self._detector, gray, len(self.geometry.markers), self.geometry.markers)  # look harder for the far side's
        self.markers_seen = 0
        if ids is None:
            return None
        source, target, seen = [], [], []
        for quad, marker in zip(corners, ids.ravel()):
            if int(marker) in self.geometry.markers and int(marker) not in seen:
                source.append(self.geometry.markers[int(marker)])
                target.append(quad.reshape(4, 2))
                seen.append(int(marker))
        self.markers_seen = len(seen)
        if len(seen) < self.min_markers:
            return None
        found = dict(zip(seen, target))
        self._average(found)
        # Fit to every marker seen since the camera last moved: averaged over frames, and
        # still there while a hand covers it now.
        ids_used = sorted(self._averages)
        if not self.spread(ids_used):
            return None
        src = np.concatenate([self.geometry.markers[m] for m in ids_used])
        dst = np.concatenate([self._averages[m][0] / self._averages[m][1] for m in ids_used])
        homography, inliers = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
        if homography is None:
            return None
        error = float(np.median(np.linalg.norm(project(homography, src) - dst, axis=1)))
        return Location(homography, tuple(ids_used), error, self._moves)

    def spread(self, markers: list[int]) -> bool:
        """Whether ``markers`` span the mat both ways (MARKER_SPAN of its width and height):
        markers along one side only fix the mat there and let its far side drift by squares.

            >>> locator = BoardLocator(MatGeometry.from_dict(MatLayout.for_paper("a3").geometry(150)))
            >>> locator.spread([2, 4, 6]), locator.spread([0, 2, 6])
            (False, True)
        """
        if not markers:
            return False
        centres = np.array([self.geometry.markers[m].mean(axis=0) for m in markers])
        span = centres.max(axis=0) - centres.min(axis=0)
        return bool((span >= MARKER_SPAN * np.array([self.geometry.width_px, self.geometry.height_px])).all())

    def _average(self, found: dict[int, np.ndarray]) -> None:
        """Add this detection to the running average of each marker's corners, or start
        afresh when most markers jumped (the camera moved)."""
        jumped = [
            m for m, quad in found.items()
            if m in self._averages and np.abs(quad - self._averages[m][0] / self._averages[m][1]).max() > STILL_PX
        ]
        if len(jumped) * 2 > len(found):
            self._averages.clear()
            self._moves += 1
        for marker, quad in found.items():
            total, count = self._averages.get(marker, (np.zeros((4, 2)), 0))
            if marker in jumped and self._averages:
                total, count = np.zeros((4, 2)), 0
            self._averages[marker] = (total + quad, count + 1)

    def markers_still_there(self, frame: np.ndarray, location: Location) -> int:
        """How many markers still show their own black and white modules where expected."""
        if self._checked is None or self._checked[0] is not location or self._checked[1] != frame.shape[:2]:
            self._checked = (location, frame.shape[:2], self._project_modules(location.homography, frame.shape[:2]))
        count = 0
        for black, white in self._checked[2]:
            dark = frame[black[:, 1], black[:, 0]].max(axis=-1).astype(int)
            light = frame[white[:, 1], white[:, 0]].min(axis=-1).astype(int)
            if np.sort(light)[len(light) // 5] - np.sort(dark)[-1 - len(dark) // 5] > 25:
                count += 1
        return count

    def _project_modules(self, homography: np.ndarray, size: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Module centres in image pixels, for the markers wholly inside an image of ``size`` (height, width)."""
        found = []
        height, width = size
        for black, white in self._modules.values():
            b = project(homography, black).round().astype(np.intp)
            w = project(homography, white).round().astype(np.intp)
            both = np.concatenate([b, w])
            if both.min() >= 0 and both[:, 0].max() < width and both[:, 1].max() < height:
                found.append((b, w))
        return found

    def refresh(self, frame: np.ndarray) -> None:
        """Run the detector now (a new photo, or a moved camera); keep the old fit if it fails."""
        found = self.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        if found is not None:
            self.location = found

    def locate(self, frame: np.ndarray) -> Location | None:
        """The mat's location in a BGR frame, reusing the kept fit while its markers still match."""
        if self.location is not None and self.markers_still_there(frame, self.location) >= self.min_markers:
            return self.location
        found = self.detect(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        if found is not None:
            self.location = found
        return found


def _module_centres(dictionary: Any, marker: int, quad: Quad) -> tuple[np.ndarray, np.ndarray]:
    """Mat-pixel centres of a marker's black and white modules (border included)."""
    cells = dictionary.markerSize + 2
    pattern = cv2.aruco.generateImageMarker(dictionary, marker, cells)
    rows, cols = np.mgrid[0:cells, 0:cells]
    uv = np.column_stack([(cols.ravel() + 0.5) / cells, (rows.ravel() + 0.5) / cells])
    points = bilinear(quad, uv)
    inner = (rows.ravel() > 0) & (rows.ravel() < cells - 1) & (cols.ravel() > 0) & (cols.ravel() < cells - 1)
    is_white = pattern.ravel() > 127
    return points[~is_white], points[is_white & inner]
