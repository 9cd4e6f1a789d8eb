"""A simulated camera: the printed mat on a table, pieces and sticks as 3D solids, hands.

The scene is built in mat millimetres (x right, y down the mat, z up from it) and seen
through :class:`~senet.vision.camera_model.CameraPose`: any roll, tilt, height and lens
distortion. Every pixel knows the point of the table it sees, so the mat and the table's
cloth, wood or stone are looked up there. Pieces (drums, spools, cones) and sticks (a pale
flat side, a dark rounded side) are solids whose faces are projected, shaded by a key
light and a fill light and drawn far to near; they and the hands cast soft shadows. The
picture is then spoiled as a camera spoils it: coloured lamps and a white balance that
does not quite correct them, uneven light, glare, vignetting, flicker, blur, sensor noise
and JPEG. The same code makes the test set and feeds ``senet run`` in simulation.

Everything random comes from the ``rng`` given to :meth:`Simulator.render` (noise, the
hand), from ``sticks_rng`` (where the sticks fell) and from ``Conditions.seed`` (what stays
put at one table: its pattern, where borne-off pieces stand, a cast shadow's shape).

    >>> import numpy as np
    >>> sim = Simulator(MatLayout.for_paper("a4"))
    >>> frame = sim.render(Scene("LDLDLDLDLD" + "." * 20), Conditions.plain(640, 480), np.random.default_rng(1))
    >>> frame.shape, frame.dtype
    ((480, 640, 3), dtype('uint8'))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import TypeVar

import cv2
import numpy as np

from senet.vision.camera_model import CameraPose
from senet.vision.mat import FIELD, MatLayout, render_mat

#: The mat raster's finest level (pixels per millimetre); coarser levels halve it.
PX_PER_MM = 4.0
MAT_LEVELS = 3
#: Solids are drawn this many times finer and averaged down (anti-aliasing).
SUPERSAMPLE = 4
#: Sub-pixel bits of OpenCV's polygon filling.
SHIFT = 4
#: The plain style's pieces, as fractions of the square's side; no piece is wider than MAX_PIECE of it.
PLAIN_PIECE = (0.72, 0.3)
MAX_PIECE = 0.92
#: The share of scattered pieces nudged over their square's edge (most stand inside it).
NUDGED_SHARE = 0.05
#: Tries to stand a scattered piece clear of its neighbours.
PLACE_TRIES = 40
#: How far a stick may lie over the tray's printed edge (mm).
STICK_OVERHANG_MM = 4.0
#: How far tidy sticks stay inside the tray's edge (mm).
STICK_MARGIN_MM = 4.0
#: How many of the thrown sticks end up against the tray's edge.
STICK_AT_EDGE = 0.3
#: The camera's height range (mm) and the share of the picture the mat covers.
HEIGHT_RANGE_MM = (400.0, 900.0)
MAT_AREA = (0.19, 0.46)
#: How many cameras and lights a simulator keeps its empty, lit table for (a case of the test
#: set has two: the start picture's light drifts).
KEPT_VIEWS = 2
#: Streams of ``Conditions.seed`` for the things that stay put.
TABLE_STREAM, BESIDE_STREAM, SHADOW_STREAM = 1, 2, 3
#: The table's patterns interpolate a square of this many random values.
NOISE_GRID = 64
#: Where borne-off pieces may stand: this many tries for SPOTS places.
SPOT_TRIES, SPOTS = 400, 10
#: Sensor noise comes from windows of one field this much bigger than the picture.
NOISE_SEED, NOISE_PAD = 7, 96
#: Cast shadows are blurred as for an object this tall (mm), a hand's as for one this high
#: above the mat; contact shadows reach this far around a base, this dark.
SHADOW_HEIGHT_MM, HAND_HEIGHT_MM = 12.0, 90.0
CONTACT_MM, CONTACT_DARKNESS = 1.6, 0.45
#: A carried piece sticks out this far beyond the fingertips holding it (mm).
HELD_AHEAD_MM = 8.0
#: The size (sigma, mm) of the lamp's glare on the paper: at its brightest, and at its broadest.
GLARE_MM = (20.0, 120.0)

Colour = tuple[int, int, int]  # RGB
#: A piece's base centre in its square, as fractions of the side from the square's top-left corner.
Place = tuple[float, float]

#: Piece outlines from the base up: (fraction of the height, fraction of the radius).
PROFILES: dict[str, tuple[tuple[float, float], ...]] = {
    "drum": ((0.0, 0.95), (0.08, 1.0), (0.9, 1.0), (1.0, 0.92)),
    "spool": ((0.0, 1.0), (0.28, 1.0), (0.36, 0.7), (0.64, 0.7), (0.72, 1.0), (1.0, 0.96)),
    "cone": ((0.0, 1.0), (0.1, 0.98), (0.8, 0.3), (1.0, 0.06)),
}
LIGHT_PIECES: dict[str, Colour] = {"white": (240, 238, 232), "ivory": (236, 224, 190), "light wood": (222, 178, 124)}
DARK_PIECES: dict[str, Colour] = {"black": (32, 30, 30), "dark blue": (30, 42, 104), "dark brown": (84, 50, 32)}
PALE_STICKS: list[Colour] = [(232, 214, 170), (240, 232, 206), (218, 190, 140), (226, 200, 150)]
DARK_STICKS: list[Colour] = [(72, 48, 34), (36, 32, 32), (96, 58, 36), (60, 30, 22)]
SKINS: list[Colour] = [(236, 196, 168), (224, 172, 140), (198, 146, 110), (150, 100, 70), (102, 68, 48)]
SLEEVES: list[Colour] = [(40, 40, 46), (230, 230, 226), (40, 60, 130), (150, 36, 40), (70, 120, 70), (120, 120, 124), (200, 170, 120)]
TABLES = ("wood", "stripes", "gingham", "stone", "green", "cloth")
WOODS: list[Colour] = [(196, 150, 100), (120, 78, 48), (210, 172, 120), (152, 92, 58)]
CLOTHS: list[Colour] = [(40, 56, 110), (70, 70, 74), (200, 186, 160), (110, 36, 44), (28, 28, 30), (178, 182, 186)]
PATTERNS: list[Colour] = [(180, 40, 44), (50, 70, 140), (120, 126, 70), (110, 110, 110), (60, 120, 70), (190, 170, 120)]
STONES: list[Colour] = [(214, 206, 186), (170, 170, 166), (200, 196, 190), (120, 118, 112)]
FLAT_TABLE = (128, 110, 96)


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """The colour of a light at ``kelvin`` (RGB; 6500 K is white).

    >>> [round(float(v), 2) for v in kelvin_rgb(2700)]
    [1.0, 0.66, 0.35]
    """

    def rgb(k: float) -> np.ndarray:
        t = k / 100
        red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
        green = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
        blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
        return np.clip([red, green, blue], 1.0, 255.0)

    return (rgb(kelvin) / rgb(6500.0)).astype(np.float32)


@dataclass(frozen=True)
class Scene:
    """What lies on the mat: the 30-square board text, the sticks (True = light side up;
    None for an empty tray) and whether a hand reaches over the board or the tray.

    ``places``: where each of the 30 squares' piece stands (None: in the middle, or
    scattered by ``Conditions.scatter`` with the render's rng; see :meth:`Simulator.place_pieces`).
    ``beside``: pieces standing beside the mat (borne off), e.g. ``"LLD"``. ``held``: the
    hand carries a piece (``"L"`` or ``"D"``).
    """

    board: str
    sticks: tuple[bool, ...] | None = None
    hand: str | None = None  # None, "board" or "tray"
    places: tuple[Place, ...] | None = None
    beside: str = ""
    held: str | None = None


@dataclass(frozen=True)
class Style:
    """The look of one set of pieces and sticks (RGB) and of the player's hand.

    ``piece_mm`` is (diameter, height); None scales the pieces to the square.
    ``gloss`` 0 is matt wood, 1 a lacquer whose flat tops mirror the lamp.
    ``stick_mm`` is (length, width, thickness).
    """

    light_piece: Colour = (232, 222, 196)
    dark_piece: Colour = (48, 36, 30)
    piece_shape: str = "drum"
    piece_mm: tuple[float, float] | None = None
    gloss: float = 0.0
    light_stick: Colour = (226, 208, 168)
    dark_stick: Colour = (70, 48, 34)
    stick_mm: tuple[float, float, float] = (130.0, 18.0, 9.0)
    skin: Colour = (222, 172, 142)
    sleeve: Colour = (40, 60, 130)

    @classmethod
    def random(cls, rng: np.random.Generator, square_mm: float = 33.0) -> Style:
        """A plausible set for a mat whose squares are ``square_mm`` wide: white, ivory or light
        wood against black, dark blue or dark brown, as drums, spools or cones that stand inside
        a square (0.45-0.8 of its side across: 15-26 mm on the A3 mat), 0.24-0.48 of it tall."""

        def pick(options: list[Colour], spread: float = 6.0) -> Colour:
            base = np.array(options[rng.integers(len(options))], float)
            return tuple(int(v) for v in np.clip(base + rng.normal(0, spread, 3), 0, 255))  # type: ignore[return-value]

        return cls(
            light_piece=pick(list(LIGHT_PIECES.values())),
            dark_piece=pick(list(DARK_PIECES.values()), 4.0),
            piece_shape=str(rng.choice(list(PROFILES))),
            piece_mm=(float(rng.uniform(0.45, 0.79) * square_mm), float(rng.uniform(0.24, 0.48) * square_mm)),
            gloss=float(rng.uniform(0.5, 1.0) if rng.random() < 0.5 else rng.uniform(0.0, 0.3)),
            light_stick=pick(PALE_STICKS),
            dark_stick=pick(DARK_STICKS),
            stick_mm=(float(rng.uniform(125, 135)), float(rng.uniform(15, 18)), float(rng.uniform(8, 12))),
            skin=pick(SKINS, 8.0),
            sleeve=pick(SLEEVES, 10.0),
        )


@dataclass(frozen=True)
class Light:
    """The key light (a lamp, a ceiling light or the sun through a window) and the room's
    fill light, which is all that reaches into shadows.

    ``position_mm`` is (x, y, z up) from the mat's centre; daylight is far away.
    ``softness``: penumbra width per millimetre of an object's height. ``spread_deg``: how
    wide a glossy surface mirrors the key light.
    """

    position_mm: tuple[float, float, float] = (-300.0, -400.0, 1800.0)
    kelvin: float = 6500.0
    fill_kelvin: float = 6500.0
    fill: float = 0.55
    softness: float = 0.25
    spread_deg: float = 12.0

    @classmethod
    def random(cls, rng: np.random.Generator) -> Light:
        """A desk lamp (2700-3500 K), a ceiling light or daylight (5000-6500 K)."""
        kind = rng.integers(3)
        azimuth = rng.uniform(0, 2 * np.pi)
        if kind == 0:  # a desk lamp beside the board
            reach, height, kelvin = rng.uniform(150, 600), rng.uniform(350, 900), rng.uniform(2700, 3500)
            fill, fill_kelvin, softness, spread = rng.uniform(0.15, 0.45), rng.uniform(3000, 6500), rng.uniform(0.03, 0.12), rng.uniform(4, 10)
        elif kind == 1:  # a ceiling light
            reach, height, kelvin = rng.uniform(0, 600), rng.uniform(1200, 2200), rng.uniform(3000, 5000)
            fill, fill_kelvin, softness, spread = rng.uniform(0.3, 0.6), rng.uniform(3000, 5000), rng.uniform(0.15, 0.5), rng.uniform(8, 20)
        else:  # the sun or bright sky through a window: far away, 25-70 degrees up
            elevation = rng.uniform(np.radians(25), np.radians(70))
            reach, height, kelvin = 1e6 * np.cos(elevation), 1e6 * np.sin(elevation), rng.uniform(5000, 6500)
            fill, fill_kelvin, softness, spread = rng.uniform(0.35, 0.75), rng.uniform(6000, 9000), rng.uniform(0.05, 0.4), rng.uniform(6, 18)
        position = (float(reach * np.cos(azimuth)), float(reach * np.sin(azimuth)), float(height))
        return cls(position, float(kelvin), float(fill_kelvin), float(fill), float(softness), float(spread))


@dataclass(frozen=True)
class Conditions:
    """Camera, table, light and picture quality.

    ``white_balance``: the camera's gains (RGB) on what the light gives; ``gradient``: how
    much darker the far side is (0..0.6) along ``gradient_angle``; ``shadow``: darkness of
    a soft shadow cast from outside the picture (a lamp's arm, a window bar); ``glare``:
    the lamp mirrored by the mat's paper; ``vignette``: corner darkening; ``flicker``:
    picture-to-picture brightness jitter; ``banding``: mains-flicker bands across rows;
    ``scatter``: how far pieces stand from their squares' middles when the scene does not
    say (0 centred .. 1 anywhere in the square); above 0 sticks also fall against and over
    the tray's edge; ``seed``: the table's own randomness.
    """

    camera: CameraPose
    light: Light = field(default_factory=Light)
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    exposure: float = 0.95
    gradient: float = 0.0
    gradient_angle: float = 0.0
    shadow: float = 0.0
    glare: float = 0.0
    vignette: float = 0.0
    flicker: float = 0.0
    banding: float = 0.0
    noise: float = 1.5  # pixel noise sigma at mid-grey
    blur: float = 0.0  # Gaussian blur sigma in pixels
    jpeg_quality: int | None = None
    centre_offset: tuple[float, float] = (0.0, 0.0)  # mm: where the camera aims, from the mat centre
    table: str = "flat"  # flat, or one of TABLES
    scatter: float = 0.0
    seed: int = 0

    @classmethod
    def plain(cls, width: int = 640, height: int = 480) -> Conditions:
        """An easy picture: straight down from 60 cm, even light, a plain table, little noise."""
        return cls(CameraPose(width, height, 600.0, 0.0, 0.0))

    @classmethod
    def random_hard(
        cls, rng: np.random.Generator, width: int = 640, height: int = 480, mat_mm: tuple[float, float] = (420.0, 297.0)
    ) -> Conditions:
        """Like real photos: the camera 40-90 cm up at any roll, tilted up to 30 degrees, 50-70
        degrees across, with barrel distortion, the mat filling much of the picture; a lamp,
        a ceiling light or daylight with a white balance that is off; a patterned table;
        uneven light, cast shadows, glare, vignetting, noise, blur and JPEG."""
        offset = (float(rng.uniform(-20, 20)), float(rng.uniform(-15, 15)))
        camera = _frame_mat(
            rng, width, height, mat_mm, offset,
            fov=float(rng.uniform(50, 70)), tilt=float(rng.uniform(0, 30)), yaw=float(rng.uniform(0, 360)),
            roll=float(rng.uniform(0, 360)), k1=float(rng.uniform(-0.1, 0)), k2=float(rng.uniform(0, 0.02)),
        )
        light = Light.random(rng)
        seen = (1 - light.fill) * kelvin_rgb(light.kelvin) + light.fill * kelvin_rgb(light.fill_kelvin)
        correction = rng.uniform(0.4, 0.95)  # how much of the light's colour the camera takes out
        error = np.exp(rng.normal(0, 0.05, 3)) * (1, 0, 1) + (0, 1, 0)  # and a wrong guess of red and blue
        gains = (seen[1] / seen) ** correction * error
        return cls(
            camera,
            light=light,
            white_balance=tuple(float(g) for g in gains),  # type: ignore[arg-type]
            exposure=float(rng.uniform(0.65, 1.2)),
            gradient=float(rng.uniform(0, 0.45)),
            gradient_angle=float(rng.uniform(0, 2 * np.pi)),
            shadow=float(rng.uniform(0.2, 0.55)) if rng.random() < 0.3 else 0.0,
            glare=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.4 else 0.0,
            vignette=float(rng.uniform(0.1, 0.45)),
            flicker=float(rng.uniform(0.005, 0.03)),
            banding=float(rng.uniform(0.005, 0.025)) if rng.random() < 0.3 else 0.0,
            noise=float(rng.uniform(1, 7)),
            blur=float(rng.uniform(0.3, 1.6)),
            jpeg_quality=int(rng.integers(55, 96)) if rng.random() < 0.85 else None,
            centre_offset=offset,
            table=str(rng.choice(TABLES)),
            scatter=1.0,
            seed=int(rng.integers(2**31)),
        )

    def drifted(self, rng: np.random.Generator) -> Conditions:
        """The same camera and table a little later: auto exposure, white balance and daylight drift."""
        gains = np.array(self.white_balance) * np.exp(rng.normal(0, 0.02, 3))
        return replace(
            self,
            white_balance=tuple(float(g) for g in gains),  # type: ignore[arg-type]
            exposure=self.exposure * float(rng.uniform(0.94, 1.06)),
            gradient=float(np.clip(self.gradient + rng.normal(0, 0.03), 0, 0.6)),
            light=replace(self.light, kelvin=self.light.kelvin + float(rng.normal(0, 80))),
        )


def _frame_mat(
    rng: np.random.Generator, width: int, height: int, mat_mm: tuple[float, float], offset: tuple[float, float], *,
    fov: float, tilt: float, yaw: float, roll: float, k1: float, k2: float,
) -> CameraPose:
    """The camera at the height (within HEIGHT_RANGE_MM) where the whole mat, in view, covers
    about a random share of the picture."""
    target = rng.uniform(*MAT_AREA)
    centre = (mat_mm[0] / 2 + offset[0], mat_mm[1] / 2 + offset[1])
    corners = [(0.0, 0.0, 0.0), (mat_mm[0], 0.0, 0.0), (mat_mm[0], mat_mm[1], 0.0), (0.0, mat_mm[1], 0.0)]
    margin = 0.01 * width
    best: tuple[float, CameraPose] | None = None
    for height_mm in np.linspace(*HEIGHT_RANGE_MM, 26):
        camera = CameraPose(width, height, float(height_mm), tilt, yaw, fov, roll, k1, k2)
        pixels = camera.project(centre, corners)
        low, high = pixels.min(axis=0), pixels.max(axis=0)
        if (low < margin).any() or high[0] > width - margin or high[1] > height - margin:
            continue
        miss = abs(cv2.contourArea(pixels.astype(np.float32)) / (width * height) - target)
        if best is None or miss < best[0]:
            best = (miss, camera)
    return best[1] if best else CameraPose(width, height, HEIGHT_RANGE_MM[1], tilt, yaw, fov, roll, k1, k2)


@dataclass
class _Solid:
    """A solid to draw: convex faces (vertex indices) drawn in order, back faces skipped."""

    vertices: np.ndarray  # (V, 3) mm, z up
    faces: list[np.ndarray]
    normals: np.ndarray  # (F, 3) outward
    centroids: np.ndarray  # (F, 3)
    albedo: np.ndarray  # (F, 3), 0..1
    gloss: float
    footprint: np.ndarray  # (K, 3) points on the mat under it (its contact shadow)


@dataclass
class _Limb:
    """A rounded part of a hand or arm: a tube through ``axis`` (mm) with ``radii``."""

    axis: np.ndarray  # (K, 3)
    radii: np.ndarray  # (K,)
    colour: np.ndarray  # (3,), 0..1


@dataclass(frozen=True)
class _Backdrop:
    """What one camera sees of the empty table: the mat point at each pixel, and its colour."""

    ground_x: np.ndarray
    ground_y: np.ndarray
    albedo: np.ndarray  # (H, W, 3) float32, 0..1
    on_mat: np.ndarray  # (H, W) float32: 1 on the paper
    px_per_mm: float


@dataclass(frozen=True)
class _Lighting:
    """One camera and light: the lit empty table, what multiplies an albedo at each pixel, and
    the share of that light a shadow takes away."""

    lit: np.ndarray
    light: np.ndarray
    direct: np.ndarray


@dataclass(frozen=True)
class _Shading:
    """What shading a face needs: where the eye and the key light are, and the lights' colours."""

    eye: np.ndarray
    lamp: np.ndarray
    key: np.ndarray
    fill: np.ndarray
    spread: float


@dataclass
class Simulator:
    """Renders scenes on one mat layout (the mat raster is drawn once; what stays put under one
    camera and light is kept for the next frames)."""

    layout: MatLayout
    _mats: list[np.ndarray] = field(init=False, repr=False)
    _backdrops: dict[tuple[object, ...], _Backdrop] = field(default_factory=dict, init=False, repr=False)
    _lightings: dict[Conditions, _Lighting] = field(default_factory=dict, init=False, repr=False)
    _noise_fields: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        rgb = cv2.cvtColor(render_mat(self.layout, dpi=PX_PER_MM * 25.4), cv2.COLOR_BGR2RGB)
        levels = [np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])]
        for _ in range(MAT_LEVELS - 1):
            levels.append(cv2.pyrDown(levels[-1]))
        self._mats = levels

    # -- where pieces and sticks are ---------------------------------------------------------

    def piece_size(self, style: Style) -> tuple[float, float]:
        """A piece's (diameter, height) in mm on this mat."""
        side = self.layout.square_mm
        if style.piece_mm is None:
            return PLAIN_PIECE[0] * side, PLAIN_PIECE[1] * side
        return min(style.piece_mm[0], MAX_PIECE * side), style.piece_mm[1]

    def place_pieces(
        self, board: str, style: Style, scatter: float, rng: np.random.Generator, keep: Scene | None = None
    ) -> tuple[Place, ...]:
        """Where each piece of ``board`` stands: up to ``scatter`` of the way from its square's
        middle to where its base touches the square's edges (uniformly), or for a few pieces
        (``NUDGED_SHARE``) to the edges themselves, its base half over the line; clear of its
        neighbours when it can be. Pieces of
        ``keep`` (the scene before) that are still on their squares stay where they stood.

        >>> sim = Simulator(MatLayout.for_paper("a4"))
        >>> before = Scene("L" + "." * 29, places=sim.place_pieces("L" + "." * 29, Style(), 1.0, np.random.default_rng(1)))
        >>> after = sim.place_pieces("LD" + "." * 28, Style(), 1.0, np.random.default_rng(2), keep=before)
        >>> after[0] == before.places[0], after[1] == before.places[1]
        (True, False)
        """
        diameter = self.piece_size(style)[0]
        side = self.layout.square_mm
        room = max(1.0 - diameter / side, 0.0)
        places: list[Place] = [(0.5, 0.5)] * len(board)
        kept = keep.places if keep is not None and keep.places is not None else None
        done: list[int] = []
        for index, letter in enumerate(board):
            if letter != "." and kept is not None and keep is not None and index < len(keep.board) and keep.board[index] == letter:
                places[index] = kept[index]
                done.append(index)

        corners = np.array([self.layout.square_corners(n)[0] for n in range(1, len(board) + 1)])
        for index, letter in enumerate(board):
            if letter == "." or index in done:
                continue
            if scatter > 0:
                others = corners[done] + np.array([places[j] for j in done]).reshape(-1, 2) * side
                reach = 1.0 if rng.random() < NUDGED_SHARE else room
                tries = 0.5 + scatter * reach * rng.uniform(-0.5, 0.5, (PLACE_TRIES, 2))
                gaps = np.linalg.norm((corners[index] + tries * side)[:, None] - others[None], axis=-1)
                clear = gaps.min(axis=1) if len(done) else np.full(PLACE_TRIES, np.inf)
                good = np.flatnonzero(clear >= diameter)
                pick = int(good[0]) if len(good) else int(np.argmax(clear))  # the first clear try, else the clearest
                places[index] = (float(tries[pick, 0]), float(tries[pick, 1]))
            done.append(index)
        return tuple(places)

    def _place_sticks(self, count: int, style: Style, untidy: bool, rng: np.random.Generator) -> list[tuple[np.ndarray, float]]:
        """Thrown sticks: (centre in mat mm, angle in radians), never touching. Tidy sticks lie
        well inside the tray and apart; ``untidy`` ones also against its edge and a little over it."""
        x, y, w, h = self.layout.tray
        length, width, _ = style.stick_mm
        free, gap = (STICK_OVERHANG_MM, 2) if untidy else (-STICK_MARGIN_MM, 4)
        if h + 2 * free < length + width:  # a small tray (A4) only takes sticks lying side by side
            return self._sticks_side_by_side(count, style, free, gap, untidy, rng)
        apart = np.ones((2 * gap + 1, 2 * gap + 1), np.uint8)
        for _ in range(200):
            taken = np.zeros((int(h + 2 * free) + 2, int(w + 2 * free) + 2), np.uint8)  # the tray at 1 px/mm
            sticks: list[tuple[np.ndarray, float]] = []
            for _ in range(60 * count):
                angle = rng.uniform(0, 180)
                box = cv2.boxPoints(((0.0, 0.0), (length, width), angle))
                low, high = -free - box.min(axis=0), np.array([w, h]) + free - box.max(axis=0)
                if (low > high).any():
                    continue
                centre = rng.uniform(low, high)
                if untidy and rng.random() < STICK_AT_EDGE:  # thrown against the tray's edge
                    axis = int(rng.integers(2))
                    centre[axis] = (low if rng.random() < 0.5 else high)[axis]
                box = box + centre
                footprint = np.zeros_like(taken)
                cv2.fillConvexPoly(footprint, np.round(box + free).astype(np.int32), 1)
                if not (cv2.dilate(footprint, apart) & taken).any():
                    taken |= footprint
                    sticks.append((centre + (x, y), math.radians(angle)))
                    if len(sticks) == count:
                        return sticks
        raise ValueError("the tray is too small for the sticks")

    def _sticks_side_by_side(
        self, count: int, style: Style, free: float, gap: float, untidy: bool, rng: np.random.Generator
    ) -> list[tuple[np.ndarray, float]]:
        """Sticks in a tray too small to turn them: one above the other, nearly along it, the
        spare room shared out at random between them (untidy: some against the edges)."""
        x, y, w, h = self.layout.tray
        length, width, _ = style.stick_mm
        for _ in range(200):
            heading, spread = (rng.uniform(-6, 6), 5.0) if untidy else (rng.uniform(-1, 1), 1.0)
            angles = np.radians(heading + rng.uniform(-spread, spread, count))
            tall = width * np.cos(angles) + length * np.abs(np.sin(angles))
            long = length * np.cos(angles) + width * np.abs(np.sin(angles))
            spare = h + 2 * free - tall.sum() - (count - 1) * (gap + 1)
            if spare < 0:
                continue
            shares = rng.dirichlet(np.full(count + 1, 0.6 if untidy else 3.0)) * spare
            tops = -free + np.cumsum(np.concatenate([[0.0], tall[:-1] + gap + 1])) + np.cumsum(shares[:-1])
            across = [rng.uniform(-free + a / 2, w + free - a / 2) for a in long]
            lanes = rng.permutation(count)
            return [(np.array([x + across[i], y + tops[i] + tall[i] / 2]), float(angles[i])) for i in lanes]
        raise ValueError("the tray is too small for the sticks")

    def _beside_spots(self, conditions: Conditions, diameter: float) -> list[np.ndarray]:
        """Where borne-off pieces stand at this table: beside the paper or on its top margin
        between the markers, never on a marker, the grid or the tray; the first ones close together."""
        layout, radius = self.layout, diameter / 2
        rng = np.random.default_rng([conditions.seed, BESIDE_STREAM])
        width, height, reach = layout.width_mm, layout.height_mm, 70.0
        regions = [
            (-reach, -radius - 4, 0, height), (width + radius + 4, width + reach, 0, height),
            (0, width, -reach, -radius - 4), (0, width, height + radius + 4, height + reach),
            (radius, width - radius, radius + 1, layout.grid_y - radius - 1),  # the paper's top margin
        ]
        x0, x1, y0, y1 = regions[rng.choice(len(regions), p=[0.2, 0.2, 0.2, 0.2, 0.2])]
        gap = layout.markers[0].size / 4
        keep_out = [(m.x - gap, m.y - gap, m.x + m.size + gap, m.y + m.size + gap) for m in layout.markers]
        keep_out.append((layout.grid_x, layout.grid_y, layout.grid_x + 10 * layout.square_mm, layout.grid_y + 3 * layout.square_mm))
        tx, ty, tw, th = layout.tray
        keep_out.append((tx, ty, tx + tw, ty + th))
        low, high = (x0, y0), (max(x0, x1), max(y0, y1))
        anchor = rng.uniform(low, high)
        tries = rng.uniform(low, high, (SPOT_TRIES, 2))
        tries = tries[np.argsort(np.linalg.norm(tries - anchor, axis=1))]  # near the anchor first: pieces put down together
        boxes = np.array(keep_out)
        clear = ((tries[:, None, 0] + radius < boxes[:, 0]) | (tries[:, None, 0] - radius > boxes[:, 2])
                 | (tries[:, None, 1] + radius < boxes[:, 1]) | (tries[:, None, 1] - radius > boxes[:, 3])).all(axis=1)
        spots: list[np.ndarray] = []
        for spot in tries[clear]:
            if all(np.linalg.norm(spot - other) > diameter + 2 for other in spots):
                spots.append(spot)
                if len(spots) == SPOTS:
                    break
        return spots

    # -- rendering -----------------------------------------------------------------------------

    def render(
        self, scene: Scene, conditions: Conditions, rng: np.random.Generator, style: Style | None = None,
        sticks_rng: np.random.Generator | None = None,
    ) -> np.ndarray:
        """One camera frame (BGR, uint8) of ``scene``; ``sticks_rng`` places the sticks (the
        same seed, the same throw lying where it fell)."""
        style = style or Style()
        lighting = self._lighting(conditions)
        backdrop = self._backdrop(conditions)
        shading = self._shading(conditions)
        frame = lighting.lit.copy()
        solids = self._board_solids(scene, conditions, style, rng, backdrop.px_per_mm)
        if scene.sticks is not None:
            solids += [
                self._stick(centre, angle, light_up, style)
                for light_up, (centre, angle) in zip(scene.sticks, self._place_sticks(len(scene.sticks), style, conditions.scatter > 0, sticks_rng or rng))
            ]
        self._cast_shadows(frame, solids, conditions, lighting, backdrop.px_per_mm)
        self._draw_solids(frame, solids, conditions, lighting, shading)
        if scene.hand:
            self._draw_hand(frame, scene, conditions, style, rng, lighting, shading, backdrop.px_per_mm)
        return self._expose(frame, conditions, rng)

    def _centre(self, conditions: Conditions) -> tuple[float, float]:
        return (self.layout.width_mm / 2 + conditions.centre_offset[0], self.layout.height_mm / 2 + conditions.centre_offset[1])

    def _shading(self, conditions: Conditions) -> _Shading:
        light = conditions.light
        lamp = np.array(light.position_mm) + (self.layout.width_mm / 2, self.layout.height_mm / 2, 0.0)
        return _Shading(
            eye=conditions.camera.position(self._centre(conditions)), lamp=lamp,
            key=(1 - light.fill) * kelvin_rgb(light.kelvin), fill=light.fill * kelvin_rgb(light.fill_kelvin),
            spread=math.radians(light.spread_deg),
        )

    # -- the empty table, kept per camera and light --------------------------------------------

    def _backdrop(self, conditions: Conditions) -> _Backdrop:
        key = (conditions.camera, conditions.centre_offset, conditions.table, conditions.seed)
        return _kept(self._backdrops, key, lambda: self._make_backdrop(conditions))

    def _make_backdrop(self, conditions: Conditions) -> _Backdrop:
        camera, centre = conditions.camera, self._centre(conditions)
        gx, gy = camera.ground_map(centre)
        probe = camera.project(centre, [(centre[0], centre[1], 0.0), (centre[0] + 10, centre[1], 0.0), (centre[0], centre[1] + 10, 0.0)])
        px_per_mm = float(np.linalg.norm(probe[1] - probe[0]) + np.linalg.norm(probe[2] - probe[0])) / 20
        corners = camera.project(centre, [(x, y, 0.0) for x in (0, self.layout.width_mm) for y in (0, self.layout.height_mm)])
        sharpest = max(px_per_mm, float(np.ptp(corners, axis=0).max()) / max(self.layout.width_mm, self.layout.height_mm))
        level = int(np.clip(np.floor(np.log2(PX_PER_MM / max(2 * sharpest, 1e-3))), 0, MAT_LEVELS - 1))  # at least twice as fine
        # Pixel j of a level is centred on pixel j * 2**level of the finest one (pyrDown keeps even pixels' places).
        shrink = 2**level
        mat = cv2.remap(self._mats[level], (gx * PX_PER_MM - 0.5) / shrink, (gy * PX_PER_MM - 0.5) / shrink, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0)).astype(np.float32) / 255
        on_mat = mat[..., 3]
        table = _table_albedo(conditions.table, conditions.seed, gx, gy)
        albedo = mat[..., :3] + table * (1 - on_mat[..., None])
        return _Backdrop(gx, gy, albedo, on_mat, px_per_mm)

    def _lighting(self, conditions: Conditions) -> _Lighting:
        return _kept(self._lightings, conditions, lambda: self._make_lighting(conditions))

    def _make_lighting(self, conditions: Conditions) -> _Lighting:
        backdrop, shading = self._backdrop(conditions), self._shading(conditions)
        gx, gy = backdrop.ground_x, backdrop.ground_y
        height, width = gx.shape
        lx, ly, lz = shading.lamp
        mid = np.array([self.layout.width_mm / 2, self.layout.height_mm / 2])
        # The key light falls off with distance and slant; 1 at the mat's centre.
        distance2 = (lx - gx) ** 2 + (ly - gy) ** 2 + lz**2
        mid2 = float((lx - mid[0]) ** 2 + (ly - mid[1]) ** 2 + lz**2)
        key = (lz / np.sqrt(distance2)) / (lz / math.sqrt(mid2)) * (mid2 / distance2)
        key = key * (1 - conditions.shadow * self._outside_shadow(conditions, gx, gy))
        up = lz / math.sqrt(mid2)
        direct = shading.key * up * key[..., None]
        total = direct + shading.fill
        reach = max(self.layout.width_mm, self.layout.height_mm)
        along = ((gx - mid[0]) * math.cos(conditions.gradient_angle) + (gy - mid[1]) * math.sin(conditions.gradient_angle)) / reach
        gain = 1 - conditions.gradient * np.clip(along + 0.5, 0, 1.5)
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        corner2 = (width / 2) ** 2 + (height / 2) ** 2
        gain = gain * (1 - conditions.vignette * ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / corner2)
        scale = 255 * conditions.exposure * np.array(conditions.white_balance, np.float32) / float((shading.key * up + shading.fill)[1])
        multiplier = (total * gain[..., None] * scale).astype(np.float32)
        lit = backdrop.albedo * multiplier
        if conditions.glare:
            lit += self._glare(conditions, shading, gx, gy, backdrop.on_mat)[..., None] * shading.key * scale * gain[..., None]
        return _Lighting(lit.astype(np.float32), multiplier, (direct / total).astype(np.float32))

    def _outside_shadow(self, conditions: Conditions, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
        """A soft shadow cast from outside the picture: a bar (a lamp's arm, a window frame) or a blob (a head)."""
        if not conditions.shadow:
            return np.zeros_like(gx)
        rng = np.random.default_rng([conditions.seed, SHADOW_STREAM])
        point = rng.uniform((0, 0), (self.layout.width_mm, self.layout.height_mm))
        soft = rng.uniform(10, 40)
        if rng.random() < 0.6:
            angle = rng.uniform(0, np.pi)
            across = np.abs((gx - point[0]) * -math.sin(angle) + (gy - point[1]) * math.cos(angle))
            reach = rng.uniform(15, 60)
        else:
            axes = rng.uniform(60, 140, 2)
            across = np.sqrt(((gx - point[0]) / axes[0]) ** 2 + ((gy - point[1]) / axes[1]) ** 2) * axes.mean()
            reach = axes.mean()
        return (1 / (1 + np.exp(np.clip((across - reach) / soft, -30, 30)))).astype(np.float32)

    def _glare(self, conditions: Conditions, shading: _Shading, gx: np.ndarray, gy: np.ndarray, on_mat: np.ndarray) -> np.ndarray:
        """The key light mirrored by the mat's paper: a soft spot where the mirror image of the lamp is seen."""
        eye, lamp = shading.eye, shading.lamp
        mirror = lamp * (1, 1, -1)
        spot = eye + (mirror - eye) * (eye[2] / (eye[2] - mirror[2]))
        distance = float(np.linalg.norm(spot - eye) + min(np.linalg.norm(spot - lamp), 5000))
        sigma = float(np.clip(0.5 * math.tan(shading.spread) * distance, *GLARE_MM))
        glow = np.exp(-((gx - spot[0]) ** 2 + (gy - spot[1]) ** 2) / (2 * sigma**2))
        peak = conditions.glare * math.sqrt(GLARE_MM[0] / sigma)  # a broad light spreads its glare thin
        return (peak * glow * (0.4 + 0.6 * on_mat)).astype(np.float32)

    # -- solids ----------------------------------------------------------------------------------

    def _board_solids(self, scene: Scene, conditions: Conditions, style: Style, rng: np.random.Generator, px_per_mm: float) -> list[_Solid]:
        """The pieces standing on the board and beside the mat."""
        diameter, height = self.piece_size(style)
        places = scene.places or self.place_pieces(scene.board, style, conditions.scatter, rng)
        segments = int(np.clip(round(diameter * px_per_mm * 0.9), 12, 32))
        solids = []
        for index, letter in enumerate(scene.board):
            if letter == ".":
                continue
            (x0, y0) = self.layout.square_corners(index + 1)[0]
            u, v = places[index]
            base = (x0 + u * self.layout.square_mm, y0 + v * self.layout.square_mm, 0.0)
            solids.append(self._piece(base, letter, style, diameter, height, segments))
        if scene.beside:
            for letter, spot in zip(scene.beside, self._beside_spots(conditions, diameter)):
                solids.append(self._piece((spot[0], spot[1], 0.0), letter, style, diameter, height, segments))
        return solids

    def _piece(
        self, base: tuple[float, float, float], letter: str, style: Style, diameter: float, height: float, segments: int
    ) -> _Solid:
        """A piece as a solid of revolution (its style's profile) standing on ``base``."""
        profile = np.array(PROFILES[style.piece_shape])
        heights, radii = base[2] + profile[:, 0] * height, profile[:, 1] * diameter / 2
        turn = np.linspace(0, 2 * np.pi, segments, endpoint=False)
        rings = np.stack(
            [base[0] + radii[:, None] * np.cos(turn), base[1] + radii[:, None] * np.sin(turn), np.repeat(heights[:, None], segments, 1)],
            axis=-1,
        )
        vertices = rings.reshape(-1, 3)
        band, step = np.arange(len(profile) - 1)[:, None], np.arange(segments)[None, :]
        quads = np.stack([band * segments + step, band * segments + (step + 1) % segments,
                          (band + 1) * segments + (step + 1) % segments, (band + 1) * segments + step], axis=-1).reshape(-1, 4)
        rise, grow = np.diff(heights), np.diff(radii)
        slope = np.stack([rise, -grow], axis=-1) / np.hypot(rise, grow)[:, None]  # outward (radial, up) of each band
        middle = turn + np.pi / segments
        normals = np.stack([slope[:, None, 0] * np.cos(middle), slope[:, None, 0] * np.sin(middle),
                            np.repeat(slope[:, 1:], segments, 1)], axis=-1).reshape(-1, 3)
        faces = list(quads)
        centroids = vertices[quads].mean(axis=1)
        if radii[-1] > 0:
            top = np.arange(segments) + (len(profile) - 1) * segments
            faces.append(top)
            normals = np.vstack([normals, [0.0, 0.0, 1.0]])
            centroids = np.vstack([centroids, vertices[top].mean(axis=0)])
        colour = np.array(style.light_piece if letter == "L" else style.dark_piece, np.float32) / 255
        footprint = np.array(base) + (rings[0] - np.array(base)) * (1.08, 1.08, 0.0)
        return _Solid(vertices, faces, normals, centroids, np.tile(colour, (len(faces), 1)), style.gloss, footprint)

    def _stick(self, centre: np.ndarray, angle: float, light_up: bool, style: Style) -> _Solid:
        """A stick lying at ``centre``: a half-round bar, flat pale side up or rounded dark side up,
        its ends bevelled."""
        length, width, thickness = style.stick_mm
        arc = np.linspace(0, np.pi, 9)
        edge = 0.25 * thickness
        # The cross-section (across, up), rounded side up; the flat side is its last edge.
        section = np.vstack([np.column_stack([width / 2 * np.cos(arc), edge + (thickness - edge) * np.sin(arc)]),
                             [[-width / 2, 0.0], [width / 2, 0.0]]])
        flat = len(section) - 2  # the edge along the flat side
        if light_up:
            section[:, 1] = thickness - section[:, 1]
        stations = np.array([-length / 2, -length / 2 + 0.4 * width, length / 2 - 0.4 * width, length / 2])
        scales = np.array([0.6, 1.0, 1.0, 0.6])
        along = np.array([math.cos(angle), math.sin(angle), 0.0])
        across = np.array([-math.sin(angle), math.cos(angle), 0.0])
        mid = np.array([centre[0], centre[1], 0.0])
        points = len(section)
        rings = (mid + stations[:, None, None] * along + scales[:, None, None] * (
            section[None, :, :1] * across + section[None, :, 1:] * np.array([0.0, 0.0, 1.0])))
        vertices = rings.reshape(-1, 3)
        faces, colours = [], []
        pale, dark = (np.array(c, np.float32) / 255 for c in (style.light_stick, style.dark_stick))
        for station in range(len(stations) - 1):
            for a in range(points):
                b = (a + 1) % points
                faces.append(np.array([station * points + a, station * points + b, (station + 1) * points + b, (station + 1) * points + a]))
                colours.append(pale if a == flat else dark)
        faces += [np.arange(points), np.arange(points) + (len(stations) - 1) * points]
        colours += [dark * 0.9, dark * 0.9]
        centroids = np.array([vertices[f].mean(axis=0) for f in faces])
        solid_centre = vertices.mean(axis=0)
        normals = []
        for face, middle in zip(faces, centroids):
            corners = vertices[face]
            normal = np.cross(corners[2] - corners[0], corners[-1] - corners[1] if len(face) == 4 else corners[1] - corners[0])
            if len(face) != 4:
                normal = along * (1 if middle @ along > solid_centre @ along else -1)
            normal = normal / max(np.linalg.norm(normal), 1e-9)
            normals.append(normal if normal @ (middle - solid_centre) > 0 else -normal)
        footprint = np.array([mid + sx * along * length / 2 + sy * across * width / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        return _Solid(vertices, faces, np.array(normals), centroids, np.array(colours), 0.3 * style.gloss, footprint)

    def _face_colours(self, solid: _Solid, shading: _Shading) -> tuple[np.ndarray, np.ndarray]:
        """Each face's colour relative to the lit mat beneath it, and which faces the camera sees."""
        to_eye = shading.eye - solid.centroids
        visible = (solid.normals * to_eye).sum(axis=1) > 0
        to_lamp = shading.lamp - solid.centroids
        to_lamp /= np.linalg.norm(to_lamp, axis=1, keepdims=True)
        facing = np.clip((solid.normals * to_lamp).sum(axis=1), 0, None)
        ground = shading.fill + shading.key * np.clip(to_lamp[:, 2:], 0.05, None)
        half = to_lamp + to_eye / np.linalg.norm(to_eye, axis=1, keepdims=True)
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        angle = np.arccos(np.clip((solid.normals * half).sum(axis=1), -1, 1))
        shine = solid.gloss * np.exp(-0.5 * (angle / shading.spread) ** 2)
        colours = (solid.albedo * (shading.fill + shading.key * facing[:, None]) + shine[:, None] * shading.key) / ground
        return colours.astype(np.float32), visible

    def _cast_shadows(self, frame: np.ndarray, solids: list[_Solid], conditions: Conditions, lighting: _Lighting, px_per_mm: float) -> None:
        """Darken the mat under and behind the solids: soft cast shadows and contact shadows."""
        if not solids:
            return
        camera, centre, lamp = conditions.camera, self._centre(conditions), self._shading(conditions).lamp
        outlines = [_onto_mat(solid.vertices, lamp) for solid in solids] + [solid.footprint for solid in solids]
        pixels = np.split(camera.project(centre, np.concatenate(outlines)), np.cumsum([len(o) for o in outlines])[:-1])
        cast_sigma = max(0.7, conditions.light.softness * SHADOW_HEIGHT_MM * px_per_mm)
        contact_sigma = max(0.6, CONTACT_MM * px_per_mm)
        masks = []
        for group, sigma in ((pixels[: len(solids)], cast_sigma), (pixels[len(solids) :], contact_sigma)):
            box = _bounds(np.concatenate(group), frame.shape, 3 * sigma + 2)
            if box is None:
                masks.append(None)
                continue
            x0, y0, x1, y1 = box
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for outline in group:
                hull = cv2.convexHull(((outline - (x0, y0)) * (1 << SHIFT)).round().astype(np.int32))
                cv2.fillConvexPoly(mask, hull, 255, cv2.LINE_AA, SHIFT)
            masks.append((box, cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), sigma)))
        cast, contact = masks
        if cast is not None:
            (x0, y0, x1, y1), mask = cast
            frame[y0:y1, x0:x1] *= 1 - mask[..., None] * lighting.direct[y0:y1, x0:x1]
        if contact is not None:
            (x0, y0, x1, y1), mask = contact
            frame[y0:y1, x0:x1] *= (1 - CONTACT_DARKNESS * mask)[..., None]

    def _draw_solids(self, frame: np.ndarray, solids: list[_Solid], conditions: Conditions, lighting: _Lighting, shading: _Shading) -> None:
        """Draw the solids far to near, each finely and averaged down."""
        if not solids:
            return
        counts = np.cumsum([len(s.vertices) for s in solids])[:-1]
        pixels = np.split(conditions.camera.project(self._centre(conditions), np.concatenate([s.vertices for s in solids])), counts)
        order = sorted(range(len(solids)), key=lambda i: -float(np.linalg.norm(solids[i].vertices.mean(axis=0) - shading.eye)))
        for i in order:
            colours, visible = self._face_colours(solids[i], shading)
            box = _bounds(pixels[i], frame.shape, 1)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            colour = np.zeros(((y1 - y0) * SUPERSAMPLE, (x1 - x0) * SUPERSAMPLE, 3), np.float32)
            cover = np.zeros(colour.shape[:2], np.float32)
            fine = (((pixels[i] - (x0, y0) + 0.5) * SUPERSAMPLE - 0.5) * (1 << SHIFT)).round().astype(np.int32)
            for face, rgb, seen in zip(solids[i].faces, colours, visible):
                if seen:
                    cv2.fillConvexPoly(colour, fine[face], tuple(float(c) for c in rgb), cv2.LINE_8, SHIFT)
                    cv2.fillConvexPoly(cover, fine[face], 1.0, cv2.LINE_8, SHIFT)
            colour = cv2.resize(colour, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
            cover = cv2.resize(cover, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
            region = frame[y0:y1, x0:x1]
            region *= 1 - cover[..., None]
            region += colour * lighting.light[y0:y1, x0:x1]

    # -- hands -------------------------------------------------------------------------------------

    def _hand_pose(self, scene: Scene, style: Style, rng: np.random.Generator) -> tuple[list[_Limb], np.ndarray, np.ndarray]:
        """An arm reaching from one side of the table, its fingertips over the board or the tray:
        the limbs, the palm's outline (mm) and where a held piece's base is."""
        layout = self.layout
        if scene.hand == "tray":
            x, y, w, h = layout.tray
            target = np.array([x + w * rng.uniform(0.2, 0.8), y + h * rng.uniform(0.25, 0.75)])
        else:
            target = np.array([layout.grid_x + 10 * layout.square_mm * rng.uniform(0.1, 0.9), layout.grid_y + 3 * layout.square_mm * rng.uniform(0.1, 0.9)])
        side = rng.choice(4, p=[0.4, 0.4, 0.1, 0.1])  # the players sit at the long sides, mostly
        inward = [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0)][side]
        turn = rng.uniform(-0.6, 0.6)
        forward = np.array([inward[0] * math.cos(turn) - inward[1] * math.sin(turn), inward[0] * math.sin(turn) + inward[1] * math.cos(turn), 0.0])
        sideways = np.array([-forward[1], forward[0], 0.0]) * rng.choice([-1, 1])  # towards the thumb
        up = np.array([0.0, 0.0, 1.0])
        size = rng.uniform(0.9, 1.12)
        tip_height = rng.uniform(20, 45) if scene.held else rng.uniform(4, 28)
        curl = rng.uniform(0.65, 1.0)
        tip = np.array([*target, tip_height])
        knuckles = tip - forward * 75 * size * curl + up * rng.uniform(20, 45)
        wrist = knuckles - forward * 85 * size + up * rng.uniform(10, 35)
        elbow = wrist - forward * 250 * size + up * rng.uniform(60, 160)
        shoulder = elbow - forward * 260 * size + up * rng.uniform(80, 180)
        skin = np.array(style.skin, np.float32) / 255 * rng.uniform(0.92, 1.05)
        sleeve = np.array(style.sleeve, np.float32) / 255
        cuff = elbow + (wrist - elbow) * (rng.uniform(0.4, 0.9) if rng.random() < 0.7 else 0.0)
        limbs = [
            _Limb(np.array([shoulder, elbow]), np.array([48.0, 40.0]) * size + 6, sleeve),
            _Limb(np.array([elbow, wrist]), np.array([38.0, 27.0]) * size, skin),
        ]
        if np.linalg.norm(cuff - elbow) > 1:
            limbs.append(_Limb(np.array([elbow, cuff]), np.array([44.0, 36.0]) * size, sleeve))
        spread = rng.uniform(0.03, 0.12)
        for offset, length, radius in ((-1.5, 72, 8.5), (-0.5, 80, 9.0), (0.5, 76, 8.8), (1.5, 60, 8.0)):
            start = knuckles + sideways * offset * -19 * size
            angle = offset * -spread
            direction = forward * math.cos(angle) + sideways * math.sin(angle)
            end = start + direction * length * size * curl
            end[2] = tip_height + rng.uniform(0, 10)
            bend = (start + end) / 2 + up * 8 * (1 - curl) * 3
            limbs.append(_Limb(np.array([start, bend, end]), np.array([radius, radius * 0.95, radius * 0.85]) * size, skin))
        thumb_base = wrist + forward * 25 * size + sideways * 34 * size - up * 8
        thumb_tip = knuckles + forward * 35 * size * curl + sideways * 38 * size
        thumb_tip[2] = tip_height + rng.uniform(0, 12)
        limbs.append(_Limb(np.array([thumb_base, (thumb_base + thumb_tip) / 2 + sideways * 8 * size, thumb_tip]), np.array([12.0, 11.0, 9.5]) * size, skin))
        palm = np.array([wrist - sideways * 30 * size, wrist + sideways * 30 * size, knuckles + sideways * 42 * size, knuckles - sideways * 42 * size])
        index_tip = limbs[-5].axis[-1]
        held = (index_tip + thumb_tip) / 2 + forward * HELD_AHEAD_MM  # pinched at its edge, most of it showing
        held[2] = max(held[2] - HELD_AHEAD_MM, 3.0)
        return limbs, palm, held

    def _draw_hand(
        self, frame: np.ndarray, scene: Scene, conditions: Conditions, style: Style, rng: np.random.Generator,
        lighting: _Lighting, shading: _Shading, px_per_mm: float,
    ) -> None:
        """A hand and arm over the board or the tray, perhaps holding a piece, and their shadow."""
        limbs, palm, held_at = self._hand_pose(scene, style, rng)
        camera, centre, lamp = conditions.camera, self._centre(conditions), shading.lamp
        # The shadow first: it darkens the mat, the pieces and the sticks below.
        tubes = [_tube(limb.axis, limb.radii, 0.6) for limb in limbs]
        ground = camera.project(centre, np.concatenate([_onto_mat(points, lamp) for points, _ in tubes] + [_onto_mat(palm, lamp)]))
        radii = np.concatenate([sizes for _, sizes in tubes] + [np.zeros(len(palm))]) * px_per_mm
        sigma = max(1.0, conditions.light.softness * HAND_HEIGHT_MM * px_per_mm)
        box = _bounds(np.concatenate([ground - radii[:, None], ground + radii[:, None]]), frame.shape, 3 * sigma)
        if box is not None:
            x0, y0, x1, y1 = box
            shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
            for pixel, radius in zip(ground[: -len(palm)] - (x0, y0), radii):
                _disc(shadow, pixel, radius, 1.0)
            cv2.fillConvexPoly(shadow, ((ground[-len(palm) :] - (x0, y0)) * (1 << SHIFT)).round().astype(np.int32), 1.0, cv2.LINE_8, SHIFT)
            frame[y0:y1, x0:x1] *= 1 - cv2.GaussianBlur(shadow, (0, 0), sigma)[..., None] * lighting.direct[y0:y1, x0:x1]
        if scene.held:
            diameter, piece_height = self.piece_size(style)
            held = self._piece(tuple(held_at), scene.held, style, diameter, piece_height, 24)  # type: ignore[arg-type]
            self._draw_solids(frame, [held], conditions, lighting, shading)
        # Then the limbs, far to near, each a tube shaded rounder towards the light.
        middle = palm.mean(axis=0)
        level = (lamp - middle) * (1, 1, 0)
        ends = camera.project(centre, [middle, middle + level / max(float(np.linalg.norm(level)), 1e-6) * 30])
        towards = (ends[1] - ends[0]) / max(float(np.linalg.norm(ends[1] - ends[0])), 1e-6)  # the light's side, in the picture
        drawn: list[tuple[float, np.ndarray, np.ndarray, np.ndarray]] = []  # (distance, pixels, sizes or [] for the palm, colour)
        for limb in limbs:
            points, sizes = _tube(limb.axis, limb.radii, 0.2)
            depth = camera.camera_points(centre, points)[:, 2]
            drawn.append((float(np.linalg.norm(limb.axis.mean(axis=0) - shading.eye)), camera.project(centre, points),
                          camera.focal_px * sizes / np.maximum(depth, 1.0), limb.colour))
        drawn.append((float(np.linalg.norm(middle - shading.eye)), camera.project(centre, palm), np.zeros(0), np.array(style.skin) / 255))
        smooth = max(1.0, 3.0 * px_per_mm)
        outline = np.concatenate([np.concatenate([p - s[:, None], p + s[:, None]]) if len(s) else p for _, p, s, _ in drawn])
        box = _bounds(outline, frame.shape, 3 * smooth)
        if box is None:
            return
        x0, y0, x1, y1 = box
        colour = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        cover = np.zeros(colour.shape[:2], np.float32)
        for _, pixels, sizes, tone in sorted(drawn, key=lambda part: -part[0]):
            pixels = pixels - (x0, y0)
            if not len(sizes):  # the palm: a flat outline, lighter towards the light
                middle = pixels.mean(axis=0)
                for grow, shade in ((1.0, 0.72), (0.7, 0.9), (0.4, 1.0)):
                    inner = middle + (pixels - middle) * grow + towards * (1 - grow) * 0.3 * np.ptp(pixels, axis=0).mean()
                    polygon = (inner * (1 << SHIFT)).round().astype(np.int32)
                    cv2.fillConvexPoly(colour, polygon, tuple(float(c) for c in tone * shade), cv2.LINE_8, SHIFT)
                    cv2.fillConvexPoly(cover, polygon, 1.0, cv2.LINE_8, SHIFT)
                continue
            for grow, shift, shade in ((1.0, 0.0, 0.66), (0.72, 0.18, 0.86), (0.42, 0.3, 1.0)):
                for pixel, size in zip(pixels, sizes):
                    _disc(colour, pixel + towards * shift * size, size * grow, tuple(float(c) for c in tone * shade))
                    if grow == 1.0:
                        _disc(cover, pixel, size, 1.0)
        # Smooth the shading steps inside the outline, then soften the outline a little.
        colour = cv2.GaussianBlur(colour * cover[..., None], (0, 0), smooth) / np.maximum(cv2.GaussianBlur(cover, (0, 0), smooth), 1e-3)[..., None]
        cover = cv2.GaussianBlur(cover, (0, 0), max(0.6, 0.5 * px_per_mm))[..., None]
        region = frame[y0:y1, x0:x1]
        region *= 1 - cover
        region += colour * cover * lighting.light[y0:y1, x0:x1]

    # -- the camera ----------------------------------------------------------------------------------

    def _expose(self, frame: np.ndarray, conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
        """Flicker, blur, sensor noise, 8 bits, BGR and JPEG."""
        if conditions.flicker:
            frame *= float(1 + rng.normal(0, conditions.flicker))
        if conditions.banding:
            rows = np.arange(frame.shape[0], dtype=np.float32)
            period = frame.shape[0] / rng.uniform(1.5, 5)
            frame *= (1 + conditions.banding * np.sin(2 * np.pi * (rows / period + rng.random())))[:, None, None]
        if conditions.blur:
            frame = cv2.GaussianBlur(frame, (0, 0), conditions.blur)
        if conditions.noise:
            sigma = conditions.noise * (0.35 + 0.65 * np.sqrt(np.clip(frame, 0, 255) / 128))
            frame += self._sensor_noise(frame.shape, rng) * sigma
        image = cv2.cvtColor(np.clip(frame, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
        if conditions.jpeg_quality:
            ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return image


    def _sensor_noise(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        """Standard normal sensor noise for one picture: a window, chosen by ``rng``, of a large
        field drawn once (drawing afresh each frame would take half of a plain frame's time)."""
        height, width, channels = shape
        field = self._noise_fields.get((height, width))
        if field is None:
            field = np.random.default_rng(NOISE_SEED).standard_normal((height + NOISE_PAD, width + NOISE_PAD, channels), dtype=np.float32)
            self._noise_fields[(height, width)] = field
        top, left = rng.integers(NOISE_PAD, size=2)
        sign = np.float32(rng.choice([-1, 1]))
        return field[top : top + height, left : left + width] * sign


Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


def _kept(cache: dict[Key, Value], key: Key, make: Callable[[], Value]) -> Value:
    """``cache[key]``, made when missing; the cache keeps at most KEPT_VIEWS entries (a
    benchmark's or test's few cameras), emptied when full.

        >>> cache = {}
        >>> _kept(cache, 1, lambda: "one"), _kept(cache, 1, lambda: "again"), _kept(cache, 2, lambda: "two")
        ('one', 'one', 'two')
    """
    if key not in cache:
        if len(cache) >= KEPT_VIEWS:
            cache.clear()
        cache[key] = make()
    return cache[key]


def _onto_mat(points: np.ndarray, lamp: np.ndarray) -> np.ndarray:
    """Where the lamp throws the shadows of ``points`` (mm, z up) on the mat."""
    reach = lamp[2] / np.maximum(lamp[2] - points[:, 2:3], 1e-3)
    shadow = lamp + (points - lamp) * reach
    shadow[:, 2] = 0.0
    return shadow


def _bounds(pixels: np.ndarray, shape: tuple[int, ...], pad: float) -> tuple[int, int, int, int] | None:
    """The pixel box around ``pixels`` grown by ``pad``, clipped to the frame (None when outside)."""
    x0, y0 = np.maximum(np.floor(pixels.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(pixels.max(axis=0) + pad) + 1, (shape[1], shape[0])).astype(int)
    return (int(x0), int(y0), int(x1), int(y1)) if x1 > x0 and y1 > y0 else None


def _tube(axis: np.ndarray, radii: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points along a limb's axis, ``step`` of the radius apart, and the radius at each."""
    points, sizes = [axis[0]], [radii[0]]
    for a, b, ra, rb in zip(axis[:-1], axis[1:], radii[:-1], radii[1:]):
        count = max(1, int(np.linalg.norm(b - a) / (step * min(ra, rb))))
        t = np.linspace(0, 1, count + 1)[1:, None]
        points.extend(a + (b - a) * t)
        sizes.extend(ra + (rb - ra) * t[:, 0])
    return np.array(points), np.array(sizes)


def _disc(image: np.ndarray, centre: np.ndarray, radius: float, value: float | tuple[float, ...]) -> None:
    """A filled circle at sub-pixel precision."""
    if radius <= 0 or not np.isfinite(centre).all() or np.abs(centre).max() > 1e5:
        return
    cv2.circle(image, tuple(int(v) for v in np.round(centre * (1 << SHIFT))), int(round(radius * (1 << SHIFT))), value, -1, cv2.LINE_8, SHIFT)


# -- tables ------------------------------------------------------------------------------------------


def _table_albedo(kind: str, seed: int, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The table around the mat at the points (x, y) mm: RGB, 0..1."""
    if kind == "flat":
        return np.broadcast_to(np.array(FLAT_TABLE, np.float32) / 255, (*x.shape, 3)).copy()
    rng = np.random.default_rng([seed, TABLE_STREAM])
    angle = rng.uniform(0, np.pi)
    along = x * math.cos(angle) + y * math.sin(angle)
    across = -x * math.sin(angle) + y * math.cos(angle)

    def colour(options: list[Colour]) -> np.ndarray:
        return np.clip(np.array(options[rng.integers(len(options))], np.float32) + rng.normal(0, 8, 3), 0, 255).astype(np.float32) / 255

    def stripes(coordinate: np.ndarray, period: float, duty: float) -> np.ndarray:
        wave = np.cos(2 * np.pi * coordinate / period) - math.cos(np.pi * duty)
        return (0.5 + 0.5 * np.tanh(wave * period / 3)).astype(np.float32)

    felt = 0.94 + 0.06 * _value_noise(rng, along, across, 1.2)
    if kind == "wood":
        plank = rng.uniform(80, 160)
        row = np.floor(across / plank).astype(np.int64) % 64
        tones, shifts = rng.uniform(0.82, 1.1, 64).astype(np.float32), rng.uniform(0, 5000, 64).astype(np.float32)
        streaks = _value_noise(rng, along + shifts[row], across, 1.0, stretch=(250.0, 2.5))
        rings = 0.5 + 0.5 * np.sin(2 * np.pi * (across + 12 * _value_noise(rng, along, across, 1.0, stretch=(200.0, 20.0))) / rng.uniform(4, 9))
        seam = np.abs(across / plank - np.round(across / plank)) * plank
        shade = tones[row] * (0.8 + 0.14 * streaks + 0.08 * rings) * (1 - 0.45 * np.exp(-((seam / 0.8) ** 2)))
        return colour(WOODS) * shade[..., None]
    if kind in ("stripes", "gingham"):
        period, duty = rng.uniform(8, 40), rng.uniform(0.35, 0.6)
        ink, ground = colour(PATTERNS), colour([(238, 232, 220), (246, 244, 240), (226, 220, 200)])
        mix = stripes(along, period, duty)
        if kind == "gingham":
            mix = (mix + stripes(across, period, duty)) / 2
        return (ground + (ink - ground) * mix[..., None]) * felt[..., None]
    if kind == "stone":
        shade = 0.5 * _value_noise(rng, along, across, 120) + 0.3 * _value_noise(rng, along, across, 35) + 0.2 * _value_noise(rng, along, across, 8)
        veins = np.exp(-(((_value_noise(rng, along, across, 70) - 0.5) / 0.015) ** 2))
        return colour(STONES) * ((0.85 + 0.25 * shade) * (1 - 0.35 * veins))[..., None]
    base = colour([FIELD[::-1]]) if kind == "green" else colour(CLOTHS)  # FIELD is BGR: a cloth as green as the mat's squares
    return base * (felt * (0.95 + 0.05 * _value_noise(rng, along, across, 40)))[..., None]


def _value_noise(rng: np.random.Generator, u: np.ndarray, v: np.ndarray, cell_mm: float, stretch: tuple[float, float] = (1.0, 1.0)) -> np.ndarray:
    """Smooth random values (0..1) over the table, ``cell_mm`` across (times ``stretch`` along u, v)."""
    grid = rng.random((NOISE_GRID, NOISE_GRID)).astype(np.float32)
    map_u = np.mod(u / (cell_mm * stretch[0]), NOISE_GRID).astype(np.float32)
    map_v = np.mod(v / (cell_mm * stretch[1]), NOISE_GRID).astype(np.float32)
    return np.clip(cv2.remap(grid, map_u, map_v, cv2.INTER_CUBIC, borderMode=cv2.BORDER_WRAP), 0, 1)
