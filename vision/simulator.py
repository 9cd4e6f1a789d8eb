"""A simulated camera: the printed mat with pieces and sticks, seen through a camera model.

It draws the scene on the mat in millimetres (pieces as shaded wooden discs, sticks as
pale or dark bars in the tray, an optional hand and arm), projects it through a pinhole
camera, and spoils it the way real pictures are spoiled: warm or uneven light, cast
shadows, glare, blur, noise and JPEG. The same code makes the test set and feeds
``senet run`` in simulation.

    >>> import numpy as np
    >>> sim = Simulator(MatLayout.for_paper("a4"))
    >>> frame = sim.render(Scene("LDLDLDLDLD" + "." * 20), Conditions.plain(640, 480), np.random.default_rng(1))
    >>> frame.shape, frame.dtype
    ((480, 640, 3), dtype('uint8'))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from senet.vision.camera_model import CameraPose
from senet.vision.mat import MatLayout, render_mat

#: Millimetres are drawn at this many pixels before the camera projection.
PX_PER_MM = 3.0
STICK_MM = (130.0, 18.0)

Colour = tuple[int, int, int]  # RGB


@dataclass(frozen=True)
class Scene:
    """What lies on the mat: the 30-square board text, the sticks (True = light side up;
    None for an empty tray) and whether a hand reaches over the board or the tray."""

    board: str
    sticks: tuple[bool, ...] | None = None
    hand: str | None = None  # None, "board" or "tray"


@dataclass(frozen=True)
class Style:
    """The look of one set of pieces and sticks (RGB)."""

    light_piece: Colour = (232, 222, 196)
    dark_piece: Colour = (48, 36, 30)
    piece_radius: float = 0.36  # of the square's side
    light_stick: Colour = (226, 208, 168)
    dark_stick: Colour = (70, 48, 34)
    skin: Colour = (222, 172, 142)

    @classmethod
    def random(cls, rng: np.random.Generator) -> Style:
        """A plausible set: ivory, white or natural wood against black, brown or dark blue."""
        light = [(235, 226, 200), (245, 245, 240), (214, 180, 130), (226, 206, 160)]
        dark = [(35, 33, 33), (78, 50, 34), (36, 44, 92), (58, 40, 30)]
        pale = [(228, 212, 170), (238, 230, 205), (214, 190, 140)]
        rounded = [(72, 50, 34), (40, 36, 34), (96, 64, 40)]
        skins = [(232, 190, 160), (198, 150, 116), (141, 98, 70), (224, 172, 142)]

        def pick(options: list[Colour]) -> Colour:
            base = np.array(options[rng.integers(len(options))], float)
            return tuple(int(v) for v in np.clip(base + rng.normal(0, 6, 3), 0, 255))  # type: ignore[return-value]

        return cls(pick(light), pick(dark), float(rng.uniform(0.3, 0.4)), pick(pale), pick(rounded), pick(skins))


@dataclass(frozen=True)
class Conditions:
    """Camera pose, light and picture quality."""

    camera: CameraPose
    warmth: float = 0.0  # 0 neutral daylight .. 1 a warm lamp
    gradient: float = 0.0  # how much darker the far side is (0..0.6)
    gradient_angle: float = 0.0
    shadow: float = 0.0  # darkness of a soft cast shadow (0..0.5)
    glare: float = 0.0  # strength of a specular highlight (0..1)
    noise: float = 1.5  # pixel noise sigma
    blur: float = 0.0  # Gaussian blur sigma in pixels
    jpeg_quality: int | None = None
    centre_offset: tuple[float, float] = (0.0, 0.0)  # mm: where the camera aims, from the mat centre

    @classmethod
    def plain(cls, width: int = 640, height: int = 480) -> Conditions:
        return cls(CameraPose(width, height, 600.0, 0.0, 0.0))

    @classmethod
    def random_hard(
        cls, rng: np.random.Generator, width: int = 640, height: int = 480, mat_mm: tuple[float, float] = (420.0, 297.0)
    ) -> Conditions:
        """Harder than the defaults: tilt, warm and uneven light, shadows, glare, noise, blur, JPEG.

        The camera is 40-80 cm above the mat (higher when needed to see all of it) and
        tilted up to 30 degrees.
        """
        fov = float(rng.uniform(52, 66))
        half = np.tan(np.radians(fov) / 2)
        fits = 1.2 * max(mat_mm[0] / 2 / half, mat_mm[1] / 2 / (half * height / width))
        camera = CameraPose(
            width, height,
            height_mm=float(rng.uniform(max(400.0, fits), max(800.0, fits * 1.3))),
            tilt_deg=float(rng.uniform(0, 30)),
            yaw_deg=float(rng.uniform(-8, 8) + rng.choice([0, 180])),
            fov_deg=fov,
        )
        return cls(
            camera,
            warmth=float(rng.uniform(0, 1)),
            gradient=float(rng.uniform(0, 0.55)),
            gradient_angle=float(rng.uniform(0, 2 * np.pi)),
            shadow=float(rng.uniform(0, 0.45)) if rng.random() < 0.6 else 0.0,
            glare=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.4 else 0.0,
            noise=float(rng.uniform(1, 6)),
            blur=float(rng.uniform(0, 1.2)),
            jpeg_quality=int(rng.integers(55, 92)) if rng.random() < 0.8 else None,
            centre_offset=(float(rng.uniform(-15, 15)), float(rng.uniform(-10, 10))),
        )


@dataclass
class Simulator:
    """Renders scenes on one mat layout (the mat raster is drawn once)."""

    layout: MatLayout
    _mat: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        dpi = round(PX_PER_MM * 25.4)
        self._mat = cv2.cvtColor(render_mat(self.layout, dpi=dpi), cv2.COLOR_BGR2RGB).astype(np.float32)

    def render(
        self, scene: Scene, conditions: Conditions, rng: np.random.Generator, style: Style | None = None,
        sticks_rng: np.random.Generator | None = None,
    ) -> np.ndarray:
        """One camera frame (BGR, uint8) of ``scene``; ``sticks_rng`` places the sticks (the
        same seed, the same throw lying where it fell)."""
        style = style or Style()
        canvas = self._mat.copy()
        self._draw_pieces(canvas, scene.board, style, rng)
        if scene.sticks is not None:
            self._draw_sticks(canvas, scene.sticks, style, sticks_rng or rng)
        camera = conditions.camera
        centre = (self.layout.width_mm / 2 + conditions.centre_offset[0], self.layout.height_mm / 2 + conditions.centre_offset[1])
        to_image = camera.homography(centre) @ np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])
        table = np.array([96, 110, 128], np.float32)  # the wooden table around the mat
        frame = cv2.warpPerspective(
            canvas, to_image, (camera.width, camera.height), flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(float(v) for v in table),
        )
        if scene.hand:
            self._draw_hand(frame, scene.hand, style, to_image, rng)
        frame = self._light(frame, conditions, rng)
        return self._degrade(frame, conditions, rng)

    # -- the scene on the mat (RGB float, PX_PER_MM) --------------------------------------

    def _draw_pieces(self, canvas: np.ndarray, board: str, style: Style, rng: np.random.Generator) -> None:
        side = self.layout.square_mm
        for index, letter in enumerate(board, start=1):
            if letter == ".":
                continue
            (x0, y0), _, (x1, y1), _ = self.layout.square_corners(index)
            jitter = rng.uniform(-0.08, 0.08, 2) * side
            cx, cy = (x0 + x1) / 2 + jitter[0], (y0 + y1) / 2 + jitter[1]
            radius = style.piece_radius * side * rng.uniform(0.95, 1.05)
            colour = np.array(style.light_piece if letter == "L" else style.dark_piece, np.float32)
            self._disc(canvas, (cx + 0.06 * side, cy + 0.08 * side), radius, np.array([0, 0, 0], np.float32), 0.35, soft=True)
            self._disc(canvas, (cx, cy), radius, colour * 0.82, 1.0)
            self._disc(canvas, (cx - 0.06 * radius, cy - 0.06 * radius), radius * 0.8, colour, 1.0)
            self._disc(canvas, (cx - 0.2 * radius, cy - 0.2 * radius), radius * 0.3, np.minimum(colour * 1.12 + 8, 255), 0.6, soft=True)

    def _disc(self, canvas: np.ndarray, centre: tuple[float, float], radius: float, colour: np.ndarray, alpha: float, soft: bool = False) -> None:
        r = radius * PX_PER_MM
        x, y = centre[0] * PX_PER_MM, centre[1] * PX_PER_MM
        pad = int(r * 1.6) + 2
        top, left = max(0, int(y) - pad), max(0, int(x) - pad)
        patch = canvas[top : int(y) + pad, left : int(x) + pad]
        mask = np.zeros(patch.shape[:2], np.float32)
        cv2.circle(mask, (round((x - left) * 4), round((y - top) * 4)), round(r * 4), 1.0, -1, cv2.LINE_AA, shift=2)
        if soft:
            mask = cv2.GaussianBlur(mask, (0, 0), r * 0.25)
        mask = (mask * alpha)[:, :, None]
        patch[:] = patch * (1 - mask) + colour * mask

    def _draw_sticks(self, canvas: np.ndarray, sticks: tuple[bool, ...], style: Style, rng: np.random.Generator) -> None:
        """Four bars thrown into the tray: anywhere inside it, at any angle, never overlapping."""
        x, y, _, _ = self.layout.tray
        for light, box in zip(sticks, self._place_sticks(len(sticks), rng)):
            box = box + (x, y)
            colour = np.array(style.light_stick if light else style.dark_stick, np.float32)
            shadow = np.zeros(canvas.shape[:2], np.float32)
            cv2.fillConvexPoly(shadow, np.round((box + [1.5, 2.0]) * PX_PER_MM).astype(np.int32), 1.0, cv2.LINE_AA)
            shadow = cv2.GaussianBlur(shadow, (0, 0), 3.0)[:, :, None] * 0.3
            canvas[:] = canvas * (1 - shadow)
            mask = np.zeros(canvas.shape[:2], np.float32)
            cv2.fillConvexPoly(mask, np.round(box * PX_PER_MM).astype(np.int32), 1.0, cv2.LINE_AA)
            grain = 1 + 0.05 * np.sin(np.arange(canvas.shape[1]) / rng.uniform(2, 5))[None, :, None]
            canvas[:] = canvas * (1 - mask[:, :, None]) + (colour * grain) * mask[:, :, None]

    def _place_sticks(self, count: int, rng: np.random.Generator) -> list[np.ndarray]:
        """Stick outlines in tray millimetres, at least 2 mm apart."""
        _, _, w, h = self.layout.tray
        length, width = STICK_MM
        for _ in range(200):
            taken = np.zeros((int(h) + 1, int(w) + 1), np.uint8)  # the tray at 1 px/mm
            boxes: list[np.ndarray] = []
            # A small tray (A4) only takes four sticks lying roughly side by side.
            heading, spread = (rng.uniform(-20, 20), 12) if h > length else (rng.uniform(-6, 6), 5)
            for _ in range(60 * count):
                size = (length * rng.uniform(0.96, 1.04), width * rng.uniform(0.95, 1.05))
                box = cv2.boxPoints(((0.0, 0.0), size, heading + rng.uniform(-spread, spread)))
                low, high = (2 - box.min(axis=0)), (np.array([w, h]) - 2 - box.max(axis=0))
                if (low > high).any():
                    continue
                box = box + rng.uniform(low, high)
                footprint = np.zeros_like(taken)
                cv2.fillConvexPoly(footprint, np.round(box).astype(np.int32), 1)
                if not (cv2.dilate(footprint, np.ones((5, 5), np.uint8)) & taken).any():
                    taken |= footprint
                    boxes.append(box)
                    if len(boxes) == count:
                        return boxes
        raise ValueError("the tray is too small for the sticks")

    # -- image space ----------------------------------------------------------------------

    def _draw_hand(self, frame: np.ndarray, where: str, style: Style, to_image: np.ndarray, rng: np.random.Generator) -> None:
        height, width = frame.shape[:2]
        if where == "tray":
            x, y, w, h = self.layout.tray
            target_mm = (x + w * rng.uniform(0.3, 0.7), y + h * rng.uniform(0.3, 0.7))
        else:
            target_mm = (self.layout.grid_x + 10 * self.layout.square_mm * rng.uniform(0.15, 0.85),
                         self.layout.grid_y + 3 * self.layout.square_mm * rng.uniform(0.2, 0.8))
        point = to_image @ np.array([target_mm[0] * PX_PER_MM, target_mm[1] * PX_PER_MM, 1.0])
        tip = point[:2] / point[2]
        side = rng.integers(4)
        edge = [(tip[0], height + 40), (tip[0], -40), (-40, tip[1]), (width + 40, tip[1])][side]
        scale = width / 640
        mask = np.zeros((height, width), np.float32)
        cv2.line(mask, tuple(np.round(edge).astype(int)), tuple(np.round(tip).astype(int)), 1.0, int(70 * scale), cv2.LINE_AA)
        cv2.ellipse(mask, (tuple(np.round(tip).astype(int))), (int(48 * scale), int(36 * scale)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA)
        shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 12 * scale), (int(14 * scale), int(10 * scale)), (0, 1))
        frame[:] = frame * (1 - 0.45 * shadow[:, :, None])
        mask = cv2.GaussianBlur(mask, (0, 0), 1.5)[:, :, None]
        shade = np.array(style.skin, np.float32) * rng.uniform(0.85, 1.05)
        frame[:] = frame * (1 - mask) + shade * mask

    def _light(self, frame: np.ndarray, conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
        height, width = frame.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        u = (xs / width - 0.5) * np.cos(conditions.gradient_angle) + (ys / height - 0.5) * np.sin(conditions.gradient_angle)
        gain = 1.0 - conditions.gradient * (u + 0.5)
        if conditions.shadow:
            band = np.zeros((height, width), np.float32)
            centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
            cv2.ellipse(band, centre, (int(width * rng.uniform(0.1, 0.3)), int(height * rng.uniform(0.1, 0.3))), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            gain = gain * (1 - conditions.shadow * cv2.GaussianBlur(band, (0, 0), width * 0.03))
        warm = np.array([1.0 + 0.12 * conditions.warmth, 1.0, 1.0 - 0.3 * conditions.warmth], np.float32)  # RGB
        frame = frame * gain[:, :, None] * warm * float(rng.uniform(0.85, 1.1))
        if conditions.glare:
            glare = np.zeros((height, width), np.float32)
            cv2.circle(glare, (int(rng.uniform(0.2, 0.8) * width), int(rng.uniform(0.2, 0.8) * height)), int(width * 0.03), 1.0, -1)
            frame = frame + 255 * conditions.glare * cv2.GaussianBlur(glare, (0, 0), width * 0.02)[:, :, None]
        return frame

    def _degrade(self, frame: np.ndarray, conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
        if conditions.blur:
            frame = cv2.GaussianBlur(frame, (0, 0), conditions.blur)
        frame = frame + rng.normal(0, conditions.noise, frame.shape).astype(np.float32)
        image = cv2.cvtColor(np.clip(frame, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
        if conditions.jpeg_quality:
            ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return image
