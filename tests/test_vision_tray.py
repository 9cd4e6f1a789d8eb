"""The stick reader: four sticks of every throw, an empty tray, hands, sticks lying together.

Most pictures here are drawn straight from above, so each case says exactly what lies
where: pale sticks with the darker side a tilted camera sees beside them, dark sticks with
the light on their rounded backs, their shadows, a hand and its shadow. A few come from the
simulator. A wrong throw must never come out; "unclear" may.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import NamedTuple

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.vision.bars import BarFitter
from senet.vision.geometry import BoardLocator, MatGeometry
from senet.vision.mat import FIELD, MatLayout, render_mat
from senet.vision.plane import BoardPlane
from senet.vision.simulator import Conditions, Scene, Simulator
from senet.vision.sources import START_BOARD
from senet.vision.tray import MM_PER_PX, MOVING, STICK_PX, Patch, TrayReader, TrayReading, Unclear, count_sticks, stripes

LAYOUT = MatLayout.for_paper("a3")
DPI = 60  # the drawn mat is the camera picture: 0.42 mm a pixel, the homography the identity
SCALE = DPI / 25.4
STICK_MM = (130.0, 18.0)
# BGR colours: a pale top and its shaded side, a dark rounded back and the light along it, skin.
PALE_TOP, PALE_SIDE, DARK_BACK, DARK_LIGHT, SKIN = (150, 200, 226), (45, 62, 88), (34, 48, 72), (60, 80, 110), (140, 172, 222)
#: Dark skin, of a dark stick's brown.
DARK_SKIN = (40, 60, 100)
#: A lamp's glint along a dark stick's back, brighter than the tray.
GLINT = (205, 215, 225)
#: A pale top hardly off the white paper's colour (log blue-green -0.11, red-green 0.08).
CREAM = (195, 218, 236)


class Stick(NamedTuple):
    centre: tuple[float, float]  # mm from the tray's top-left corner
    angle: float  # degrees
    pale: bool


def draw(sticks: list[Stick], hand: tuple[float, float] | None = None, seed: int = 0, side: float = 0.35,
         dark: tuple[tuple[int, int, int], tuple[int, int, int]] = (DARK_BACK, DARK_LIGHT), glint: float = 0.0,
         pale_top: tuple[int, int, int] = PALE_TOP, skin: tuple[int, int, int] = SKIN) -> np.ndarray:
    """The mat seen from above with ``sticks``, and perhaps a hand (of ``skin``) reaching up from
    the mat's bottom edge with its fingertips at ``hand`` (tray mm). ``side``: how much of a stick's
    width its side shows beside a pale top (of colour ``pale_top``), below it as a camera beyond
    the mat's bottom edge sees it, or above it where negative; ``dark``: a dark stick's
    back and the light along it; ``glint``: how wide (mm) a lamp's glint runs along that light."""
    image = render_mat(LAYOUT, DPI).astype(np.float32)
    x0, y0, _, _ = LAYOUT.tray

    def box(stick: Stick, size: tuple[float, float], shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        centre = (stick.centre[0] + x0 + shift[0], stick.centre[1] + y0 + shift[1])
        return np.round(cv2.boxPoints((centre, size, stick.angle)) * SCALE * 16).astype(np.int32)  # 4 fraction bits

    def mm(x: float, y: float) -> tuple[int, int]:
        return round((x + x0) * SCALE), round((y + y0) * SCALE)

    shadow = np.zeros(image.shape[:2], np.float32)
    for stick in sticks:
        cv2.fillConvexPoly(shadow, box(stick, STICK_MM, (3.0, 4.0)), 1.0, cv2.LINE_AA, 4)
    if hand is not None:
        cv2.ellipse(shadow, mm(hand[0] + 20, hand[1] + 60), (round(55 * SCALE), round(80 * SCALE)), 0, 0, 360, 1.0, -1)
    image *= 1 - 0.5 * cv2.GaussianBlur(shadow, (0, 0), 2 * SCALE)[..., None]
    for stick in sticks:
        if stick.pale:
            across = np.radians(stick.angle + 90)
            reach = np.copysign(0.5 + abs(side) / 2, side) * STICK_MM[1]
            cv2.fillConvexPoly(image, box(stick, (STICK_MM[0], abs(side) * STICK_MM[1]), (reach * np.cos(across), reach * np.sin(across))),
                               PALE_SIDE, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(image, box(stick, STICK_MM), pale_top, cv2.LINE_AA, 4)
        else:
            cv2.fillConvexPoly(image, box(stick, STICK_MM), dark[0], cv2.LINE_AA, 4)
            cv2.fillConvexPoly(image, box(stick, (STICK_MM[0] - 10, 5.0)), dark[1], cv2.LINE_AA, 4)
            if glint:
                cv2.fillConvexPoly(image, box(stick, (STICK_MM[0] - 20, glint)), GLINT, cv2.LINE_AA, 4)
    if hand is not None:
        palm = mm(hand[0], hand[1] + 90)
        cv2.ellipse(image, palm, (round(45 * SCALE), round(55 * SCALE)), 0, 0, 360, skin, -1, cv2.LINE_AA)
        for finger in range(4):
            cv2.line(image, mm(hand[0] - 30 + 20 * finger, hand[1]), palm, skin, round(17 * SCALE), cv2.LINE_AA)
        cv2.rectangle(image, (palm[0] - round(40 * SCALE), palm[1]), (palm[0] + round(40 * SCALE), image.shape[0]), skin, -1)
    image = cv2.GaussianBlur(image, (0, 0), 0.8) + np.random.default_rng(seed).normal(0, 2.5, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def calibrated_unknowing() -> TrayReader:
    """A reader that does not know where the camera is."""
    reader = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    reader.calibrate(draw([]), np.eye(3))
    return reader


@pytest.fixture
def reader(calibrated_unknowing: TrayReader) -> TrayReader:
    """A calibrated reader of the test's own: a reader keeps the last tray it read and the last
    sticks it traced, and what one test read must not answer the next."""
    return copy.deepcopy(calibrated_unknowing)


def read(reader: TrayReader, sticks: list[Stick], **drawing: object) -> TrayReading:
    return reader.read(draw(sticks, **drawing), np.eye(3))  # type: ignore[arg-type]


def light_up(sticks: list[Stick]) -> int:
    return sum(stick.pale for stick in sticks)


APART = [Stick((75, 30), 5, False), Stick((240, 35), -10, False), Stick((90, 100), -20, False), Stick((250, 105), 15, False)]
#: Two sticks lying apart, to go with two lying together.
OTHERS = [Stick((90, 105), -5, False), Stick((250, 100), 10, True)]


@pytest.mark.parametrize("pale", range(5))
def test_four_sticks_lying_apart_read_every_throw(reader: TrayReader, pale: int) -> None:
    sticks = [stick._replace(pale=index < pale) for index, stick in enumerate(APART)]
    seen = read(reader, sticks, seed=pale)
    assert (seen.state, seen.light_up, seen.sticks) == ("sticks", pale, 4), seen.reason


def test_the_side_of_a_pale_stick_is_not_a_dark_stick(reader: TrayReader) -> None:
    assert read(reader, [stick._replace(pale=True) for stick in APART], side=0.5).light_up == 4


def test_an_empty_tray_reads_empty(reader: TrayReader) -> None:
    assert read(reader, [], seed=3).state == "empty"


def test_an_empty_tray_looks_empty_without_a_picture_to_compare_with(reader: TrayReader) -> None:
    """Under light falling off across the tray and a lamp's glare on it, as a match resumed
    after a restart may show it (see BoardReader.calibrate): no reference is needed."""
    picture = draw([], seed=4).astype(np.float32)
    height, width = picture.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width]
    picture *= np.exp(-0.5 * xs / width)[..., None]  # the light falls off towards the right
    picture += 80 * np.exp(-(((xs - 0.6 * width) / 40) ** 2 + ((ys - 0.7 * height) / 30) ** 2))[..., None]  # glare
    assert reader.looks_empty(np.clip(picture, 0, 255).astype(np.uint8), np.eye(3))


@pytest.mark.parametrize("seed", range(6))
def test_any_picture_placed_anyhow_is_judged_empty_or_not_without_error(reader: TrayReader, seed: int) -> None:
    """Noise, stripes, black or white, placed anyhow (even behind the camera): an answer, never
    an error; a uniform picture has nothing in it."""
    rng = np.random.default_rng(seed)
    image = [
        rng.integers(0, 256, (240, 320, 3), dtype=np.uint8),
        np.tile((np.arange(320) % 7 * 36).astype(np.uint8)[None, :, None], (240, 1, 3)),
        np.zeros((240, 320, 3), np.uint8),
        np.full((240, 320, 3), 255, np.uint8),
    ][seed % 4]
    homography = rng.normal(0, 1, (3, 3)) * [[1, 1, 100], [1, 1, 100], [1e-3, 1e-3, 1]]
    for evenly in (True, False):
        assert reader.looks_empty(image, homography, evenly) in (True, False)
    if seed % 4 >= 2:
        assert reader.looks_empty(image, np.eye(3))


@pytest.mark.parametrize("what", ["pale", "dark", "green", "hand"])
def test_a_tray_with_a_stick_or_a_hand_in_it_does_not_look_empty(reader: TrayReader, what: str) -> None:
    """One stick is enough, pale or dark, even one of the tray's own green, only darker; or a
    hand reaching over the tray."""
    field = tuple(int(v * 0.4) for v in FIELD)
    sticks = [] if what == "hand" else [Stick((170, 60), 10, what == "pale")]
    picture = draw(sticks, hand=(170, 20) if what == "hand" else None, dark=(field, field) if what == "green" else (DARK_BACK, DARK_LIGHT))
    assert not reader.looks_empty(picture, np.eye(3))


@pytest.mark.parametrize("tip", [(170, 60), (60, 40), (300, 100)])
def test_a_hand_over_the_tray_never_gives_a_number(reader: TrayReader, tip: tuple[float, float]) -> None:
    seen = read(reader, APART[:2] + [APART[2]._replace(pale=True), APART[3]], hand=tip)
    assert seen.state in ("occluded", "unclear") and seen.light_up is None


def test_a_hand_over_an_empty_tray_is_not_an_empty_tray(reader: TrayReader) -> None:
    assert read(reader, [], hand=(170, 60)).state in ("occluded", "unclear")


def test_an_arm_over_most_of_the_tray_is_occluded(reader: TrayReader) -> None:
    picture = draw(APART)
    x, y, w, h = (round(v * SCALE) for v in LAYOUT.tray)
    picture[y - 20 : y + h + 20, x + w // 6 : x + w] = SKIN
    assert reader.read(picture, np.eye(3)).state == "occluded"


def test_a_lamp_a_little_warmer_and_dimmer_than_at_calibration_changes_nothing(reader: TrayReader) -> None:
    picture = draw([stick._replace(pale=index % 2 == 0) for index, stick in enumerate(APART)]).astype(np.float32)
    assert reader.read(np.clip(picture * (0.8, 0.88, 0.95), 0, 255).astype(np.uint8), np.eye(3)).light_up == 2


@pytest.mark.parametrize("pale", [0, 2])
def test_dark_sticks_too_dark_to_show_a_colour_are_sticks_and_a_deep_shadow_is_not(reader: TrayReader, pale: int) -> None:
    """In dim light a dark back keeps little of its own colour: seen through the camera it
    is the tray's green, only far darker than any shadow."""
    sticks = [stick._replace(pale=index < pale) for index, stick in enumerate(APART)]
    field = np.array(FIELD, np.float64)
    dim = tuple(int(v) for v in field * 0.14), tuple(int(v) for v in field * 0.2)
    assert read(reader, sticks, dark=dim).light_up == pale
    picture = draw([]).astype(np.float32)
    x, y, w, h = (round(v * SCALE) for v in LAYOUT.tray)
    shade = np.zeros(picture.shape[:2], np.float32)
    shade[y + h // 4 : y + 3 * h // 4, x + w // 4 : x + w // 2] = 0.55  # a hand's shadow, the fill light at its dimmest
    picture *= 1 - cv2.GaussianBlur(shade, (0, 0), 3)[..., None]
    assert reader.read(picture.astype(np.uint8), np.eye(3)).state == "empty"


TOUCHING = {
    "pale end to end": [Stick((70, 30), 0, True), Stick((199, 30), 0, True)],
    "dark end to end": [Stick((70, 30), 0, False), Stick((199, 31), 2, False)],
    "pale side by side": [Stick((100, 30), 0, True), Stick((100, 49), 0, True)],
    "dark side by side": [Stick((100, 30), 0, False), Stick((100, 47), 0, False)],
    "pale and dark side by side": [Stick((100, 30), 0, True), Stick((100, 49), 0, False)],
    "crossing": [Stick((100, 40), 20, True), Stick((110, 40), -25, False)],
}


@pytest.mark.parametrize("name", TOUCHING)
def test_sticks_lying_together_are_counted_right_or_not_at_all(reader: TrayReader, name: str) -> None:
    sticks = TOUCHING[name] + OTHERS
    assert read(reader, sticks).light_up in (None, light_up(sticks)), name


def test_sticks_end_to_end_are_counted_by_their_size(reader: TrayReader) -> None:
    sticks = TOUCHING["pale end to end"] + OTHERS
    assert read(reader, sticks).light_up == 3


def test_a_dark_stick_the_rim_cuts_off_is_not_measured_as_a_whole_one() -> None:
    """Generated, seed 2 A4, case 356: dark sticks nearly of the tray's hue show their colour
    only along the middle of their backs (4 to 8 pixels wide). The one lying partly beyond the
    tray's rim touched the edge along 8 pixels only, was taken for a whole stick well inside,
    and being the smallest, set how big a dark stick looks: the others then counted as two
    each, and no throw was read. Touching the edge along half a stick's width, it is one the
    rim may cut off."""
    patches = [Patch(340, 83.0, 0, 340, edge=8), Patch(1067, 88.0, 1008, 14, sides=14), Patch(673, 84.0, 0, 673),
               Patch(568, 86.0, 0, 568, edge=40)]
    assert count_sticks(patches) == (1, 4)


def test_a_pale_stick_hardly_brighter_than_the_tray_is_a_pale_stick(reader: TrayReader) -> None:
    """A tan stick on a light green tray (generated, seed 2 A4, case 698): only 40% of its top
    was brighter than the tray near it, the rest as bright, and it was "something in the tray
    that is not a stick". Here half its top, along its length, is dimmed to the tray's brightness."""
    sticks = [stick._replace(pale=index < 2) for index, stick in enumerate(APART)]
    picture = draw(sticks, pale_top=(110, 160, 185)).astype(np.float32)
    x0, y0, _, _ = LAYOUT.tray
    first = sticks[0]
    across = np.radians(first.angle + 90)
    middle = (first.centre[0] + x0 - STICK_MM[1] / 4 * np.cos(across), first.centre[1] + y0 - STICK_MM[1] / 4 * np.sin(across))
    half = np.round(cv2.boxPoints((middle, (STICK_MM[0], STICK_MM[1] / 2), first.angle)) * SCALE).astype(np.int32)
    dimmed = np.zeros(picture.shape[:2], np.uint8)
    cv2.fillConvexPoly(dimmed, half, 1)
    picture[dimmed > 0] *= 0.8
    assert reader.read(picture.astype(np.uint8), np.eye(3)).light_up == 2


def test_pale_sides_whose_red_clips_in_a_bright_light_are_seen() -> None:
    """The tray bright at calibration, its green (its brightest) near clipping: a pale side
    whose red clips while its green does not is no tray, for a brighter light would clip the
    tray's green first."""
    def lit(picture: np.ndarray) -> np.ndarray:
        return np.clip(picture.astype(np.float32) * 1.4, 0, 255).astype(np.uint8)
    bright = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    bright.calibrate(lit(draw([])), np.eye(3))
    sticks = [stick._replace(pale=index < 2) for index, stick in enumerate(APART)]
    picture = lit(draw(sticks, pale_top=(110, 150, 200)))
    assert picture[..., 2].max() == 255 and bright.read(picture, np.eye(3)).light_up == 2


def test_a_pale_side_in_a_lamp_s_glare_on_a_tray_far_from_clipping_is_seen(reader: TrayReader) -> None:
    """Glare lifts the pale top until it clips, and washes out its colour: only a pale side
    makes a tray that was far from clipping so bright."""
    sticks = [stick._replace(pale=index < 2) for index, stick in enumerate(APART)]
    picture = draw(sticks).astype(np.float32)
    x, y = (round((LAYOUT.tray[i] + APART[0].centre[i]) * SCALE) for i in (0, 1))
    glare = np.zeros(picture.shape[:2], np.float32)
    cv2.circle(glare, (x, y), round(25 * SCALE), 1.0, -1)
    picture += 130 * cv2.GaussianBlur(glare, (0, 0), 8 * SCALE)[..., None] * (0.9, 1.0, 1.0)
    assert reader.read(np.clip(picture, 0, 255).astype(np.uint8), np.eye(3)).light_up == 2


@pytest.mark.parametrize("lamp", [(1.2, 1.7, 1.7), (0.8, 1.7, 2.7)], ids=["green-clips", "green-and-red-clip"])
def test_pale_sides_in_a_glare_that_clipped_the_empty_tray_are_seen(lamp: tuple[float, float, float]) -> None:
    """A lamp's glare over the top half of the tray, there at calibration too, clips the tray's
    green (and, warm enough, its red). A pale side lying in it is seen by a channel that clips
    only now (the tray's red was far from clipping), or by one still short of clipping that grew
    brighter than the tray did (its blue)."""
    glare = np.zeros(draw([]).shape[:2], np.float32)
    x0, y0, width, _ = LAYOUT.tray
    cv2.rectangle(glare, (round(x0 * SCALE), round(y0 * SCALE)), (round((x0 + width) * SCALE), round((y0 + 55) * SCALE)), 1.0, -1)
    gain = 1 + cv2.GaussianBlur(glare, (0, 0), 4 * SCALE)[..., None] * (np.array(lamp, np.float32) - 1)

    def glared(picture: np.ndarray) -> np.ndarray:
        return np.clip(picture * gain, 0, 255).astype(np.uint8)
    lit = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    lit.calibrate(glared(draw([])), np.eye(3))
    sticks = [stick._replace(pale=index < 2) for index, stick in enumerate(APART)]
    picture = glared(draw(sticks, pale_top=(120, 150, 150) if lamp[0] > 1 else PALE_TOP))
    assert lit.read(picture, np.eye(3)).light_up == 2


def test_a_lamp_s_glint_along_dark_sticks_lying_together_is_no_pale_stick(reader: TrayReader) -> None:
    """No dark stick lies apart to measure the pair by: they are counted by their stripes."""
    pale_apart = [stick._replace(pale=True) for stick in OTHERS]
    for sticks in (APART, TOUCHING["dark side by side"] + pale_apart):
        assert read(reader, sticks, glint=2.5).light_up == light_up(sticks)


def test_a_stick_partly_over_the_tray_edge_is_read_or_left_unclear(reader: TrayReader) -> None:
    sticks = APART[:3] + [Stick((285, 134), 0, True)]  # 6 mm of it over the tray's bottom edge
    assert read(reader, sticks).light_up in (None, 1)


def staggered(sides: tuple[bool, ...], gap: float = 19.0) -> list[Stick]:
    """Four sticks lying against each other side by side, their ends staggered."""
    return [Stick((150 + shift, 40 + index * gap), angle, pale)
            for index, (shift, angle, pale) in enumerate(zip((0, 20, -10, 15), (1, -1, 2, 0), sides))]


def test_sticks_lying_together_may_be_left_untraced_and_traced_at_once(reader: TrayReader, monkeypatch: pytest.MonkeyPatch) -> None:
    """Left untraced, sticks lying together are unclear; read again at once with tracing, the
    frame is not looked at afresh; nor is the next frame while it shows nothing new."""
    sides = (True, False, True, True)
    picture, homography = draw(staggered(sides)), np.eye(3)
    quick = reader.read(picture, homography, trace=False)
    assert (quick.state, quick.light_up, quick.untraced, quick.from_beyond) == ("unclear", None, True, False)
    looked = []
    masks = reader.masks
    monkeypatch.setattr(reader, "masks", lambda *args: looked.append(args) or masks(*args))
    assert reader.read(picture, homography).light_up == sum(sides) and not looked
    assert reader.read(picture.copy(), homography).light_up == sum(sides) and not looked  # the sticks lie still
    turned = (True, True, True, True)
    assert reader.read(draw(staggered(turned)), homography).light_up == sum(turned) and len(looked) == 1  # a stick turned


@pytest.mark.parametrize(("sides", "noise"), [((True, False, True, True), 0.0), ((False, False, True, False), 12.0)])
def test_a_running_camera_traces_sticks_lying_together_once_they_lie_still(reader: TrayReader, sides: tuple[bool, ...], noise: float) -> None:
    """Frames of a running camera: sticks lying together are traced once a frame shows them
    as the frame before did (the camera's noise is new in every frame, a poor camera's too:
    ``noise`` levels more); while they move, the tray gives no throw. Separate pictures are
    read whole at once."""
    homography, separate, rng = np.eye(3), copy.deepcopy(reader), np.random.default_rng(0)
    reader.stream = True

    def frame(sticks: list[Stick], seed: int) -> np.ndarray:
        picture = draw(sticks, seed=seed)
        return np.clip(picture + rng.normal(0.0, noise, picture.shape), 0, 255).astype(np.uint8) if noise else picture

    first = reader.read(frame(staggered(sides), 1), homography)
    assert (first.state, first.light_up, first.moving, first.reason) == ("unclear", None, True, MOVING)
    assert reader.read(frame(staggered(sides), 2), homography).light_up == sum(sides)
    turned = tuple(not side for side in sides)
    assert reader.read(frame(staggered(turned), 3), homography).moving  # a new throw lands
    assert reader.read(frame(staggered(turned), 4), homography).light_up == sum(turned)
    assert separate.read(frame(staggered(turned), 5), homography).light_up == sum(turned)


def test_a_hand_moving_in_the_tray_is_not_traced_until_it_holds_still(reader: TrayReader, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand reaching into the tray over the paper beside it, frame after frame of a running
    camera: telling it from a stick lying over the rim takes tracing the sticks, which waits
    until it holds still (tracing takes many times as long as the rest of a frame). Until
    then it is taken for a hand: what it reaches over, and no throw."""
    separate = copy.deepcopy(reader)
    reader.stream = True
    traced = []
    fit = reader.bars.fit
    monkeypatch.setattr(reader.bars, "fit", lambda *args: traced.append(1) or fit(*args))
    homography = np.eye(3)
    for seed, tip in enumerate([(60.0, 40.0), (90.0, 50.0), (120.0, 60.0)]):
        seen = reader.read(draw(APART, hand=tip, seed=seed), homography)
        assert seen.moving and seen.light_up is None and seen.from_beyond and not traced
    held = reader.read(draw(APART, hand=(120.0, 60.0), seed=9), homography)
    assert traced and not held.moving
    whole = separate.read(draw(APART, hand=(120.0, 60.0), seed=9), homography)
    assert (held.state, held.light_up, held.reason) == (whole.state, whole.light_up, whole.reason)
    assert whole.reaching is not None and np.array_equal(held.reaching, whole.reaching)


def test_sticks_lying_still_are_read_again_once_the_camera_or_the_empty_tray_is_learnt_anew(reader: TrayReader, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading kept for sticks lying still holds for the camera and the empty tray it was
    read with: a camera that moved sees the sticks' sides elsewhere, and a tray learnt again
    in another light looks otherwise."""
    picture, homography = draw(APART), np.eye(3)
    first = reader.read(picture, homography)
    looked = []
    masks = reader.masks
    monkeypatch.setattr(reader, "masks", lambda *args: looked.append(args) or masks(*args))
    x0, _, width, _ = LAYOUT.tray
    for learn_anew in (lambda: reader.set_camera(np.array([x0 + width / 2, -100.0]), 450.0), lambda: reader.calibrate(draw([]), homography)):
        learn_anew()
        count = len(looked)
        assert reader.read(picture, homography).light_up == first.light_up == light_up(APART) and len(looked) == count + 1
        assert reader.read(picture, homography).light_up == first.light_up and len(looked) == count + 1  # kept again


@pytest.mark.parametrize("x", [315.0, 325.0])
@pytest.mark.parametrize("sides", [(True, True, False, True), (False, False, True, False)])
def test_a_stick_standing_across_the_tray_at_its_end_is_traced_with_sticks_lying_together(reader: TrayReader, x: float,
                                                                                            sides: tuple[bool, ...]) -> None:
    """Three sticks lying against each other and one across the tray by its right-hand rim:
    the tracer, turning its view to follow the fourth, still holds it in view."""
    sticks = staggered(sides[:3]) + [Stick((x, 70), 92, sides[3])]
    assert read(reader, sticks).light_up == sum(sides)


def seen_from(y_mm: float) -> TrayReader:
    """A reader told that its camera stands 450 mm up above the tray's middle column, at
    ``y_mm`` down the mat."""
    reader = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    reader.calibrate(draw([]), np.eye(3))
    x0, _, width, _ = LAYOUT.tray
    reader.set_camera(np.array([x0 + width / 2, y_mm]), 450.0)
    return reader


@pytest.fixture(scope="module")
def calibrated_below() -> TrayReader:
    """A reader told that its camera stands low beyond the mat's bottom edge (which sees each
    pale stick's dark side along its top, on that side, as :func:`draw` draws it)."""
    _, y0, _, height = LAYOUT.tray
    return seen_from(y0 + height + 250.0)


@pytest.fixture(scope="module")
def calibrated_above() -> TrayReader:
    """A reader told that its camera stands low beyond the mat's top edge: it sees the top of a
    stick lying by the tray's bottom rim about 9 mm farther down than its footprint."""
    return seen_from(-100.0)


@pytest.fixture
def seen_from_below(calibrated_below: TrayReader) -> TrayReader:
    return copy.deepcopy(calibrated_below)


@pytest.fixture
def seen_from_above(calibrated_above: TrayReader) -> TrayReader:
    return copy.deepcopy(calibrated_above)


@pytest.mark.parametrize("sides", [(True, True, False, True), (True,) * 4, (False, True, True, False), (True, False, True, False)])
def test_a_pale_stick_s_side_seen_from_a_low_camera_is_not_a_dark_stick(reader: TrayReader, seen_from_below: TrayReader,
                                                                        sides: tuple[bool, ...]) -> None:
    """Each pale stick's side shows along its top, 70% as wide, up to the next stick: it is
    read as a dark stick lying there (no throw) until the reader knows where the camera is; a
    dark stick lying there is still dark."""
    picture = draw(staggered(sides, gap=24.0), side=0.7)
    assert seen_from_below.read(picture, np.eye(3)).light_up == sum(sides)
    if sides[0] and sides[1]:
        assert reader.read(picture, np.eye(3)).light_up is None


def test_a_pale_stick_s_wide_side_with_a_stick_over_the_rim_is_no_dark_stick(seen_from_below: TrayReader) -> None:
    """A pale stick whose side shows 55% as wide as its top, lying apart, while another lies
    mostly over the rim: the sticks are traced, and the side is no dark stick (a reader that
    does not know where the camera is reads one pale stick too few)."""
    sticks = [APART[0], APART[1], Stick((90, 100), 0, True), Stick((200, 142), 0, True)]
    assert read(seen_from_below, sticks, side=0.55).light_up == light_up(sticks)


@pytest.mark.parametrize("pale", [True, False])
@pytest.mark.parametrize("others", [APART[:3], [APART[0], APART[1], Stick((250, 110), 0, True)]], ids=["apart", "beside-it"])
@pytest.mark.parametrize("pale_top", [PALE_TOP, CREAM], ids=["tan", "cream"])
def test_a_stick_lying_mostly_over_the_tray_s_rim_is_seen_on_the_paper_too(reader: TrayReader, pale: bool, others: list[Stick],
                                                                           pale_top: tuple[int, int, int]) -> None:
    """A stick along the tray's bottom edge with 7 of its 18 mm in the tray: the sliver in the
    tray is too thin to count, but a person sees the rest of it on the paper below the tray,
    a cream top on white paper too."""
    sticks = [*others, Stick((200, 142), 0, pale)]
    assert read(reader, sticks, pale_top=pale_top).light_up == light_up(sticks)


@pytest.mark.parametrize("sides", [(True,) * 4, (True, False, True, False), (False,) * 4, (True, True, False, True)])
def test_sticks_lying_staggered_against_each_other_are_traced_as_bars(reader: TrayReader, sides: tuple[bool, ...]) -> None:
    assert read(reader, staggered(sides)).light_up == sum(sides)


@pytest.mark.parametrize("sides", [(True,) * 4, (True, False, True, False), (False, True, True, False)])
@pytest.mark.parametrize("fingers", [(110.0, 150.0), (150.0, 170.0, 190.0), (200.0,)])
def test_fingers_laid_over_sticks_lying_together_are_not_traced_as_sticks(reader: TrayReader, sides: tuple[bool, ...],
                                                                          fingers: tuple[float, ...]) -> None:
    picture = draw(staggered(sides))
    x0, y0, _, _ = LAYOUT.tray
    for x in fingers:  # laid in the tray, not seen coming in over the paper beside it
        tip, knuckle = ((x + x0) * SCALE, (y0 + 22) * SCALE), ((x + x0 + 12) * SCALE, (y0 + 90) * SCALE)
        cv2.line(picture, np.round(tip).astype(int), np.round(knuckle).astype(int), SKIN, round(17 * SCALE), cv2.LINE_AA)
    assert reader.read(picture, np.eye(3)).light_up is None


def test_sticks_too_close_together_to_count_patch_by_patch_are_traced(reader: TrayReader) -> None:
    sticks = staggered((True,) * 4)
    with pytest.raises(Unclear):
        count_sticks(reader.patches(reader.masks(draw(sticks), np.eye(3))))
    assert read(reader, sticks).light_up == 4


@settings(max_examples=30, deadline=None, derandomize=True)
@given(sides=st.tuples(*[st.booleans()] * 4), gap=st.floats(18.5, 24), angle=st.floats(-30, 30), x=st.floats(80, 250),
       y=st.floats(20, 70), over_the_rim=st.sampled_from([None, 128.0, 138.0, 148.0]), side=st.floats(0.2, 0.5), seed=st.integers(0, 99))
def test_sticks_lying_together_anyhow_never_give_a_wrong_throw(calibrated_unknowing: TrayReader, calibrated_below: TrayReader, calibrated_above: TrayReader,
                                                               sides: tuple[bool, ...], gap: float, angle: float, x: float, y: float,
                                                               over_the_rim: float | None, side: float, seed: int) -> None:
    """Stacked against each other at any angle, one perhaps over the tray's rim or beyond it;
    read by a reader that does not know where the camera is, by one told that it stands low
    beyond the mat's bottom edge, and by one told that it stands beyond the top edge (each sees
    the pale sides on its own side), each as it reads a tray first."""
    reader, seen_from_below, seen_from_above = (copy.deepcopy(one) for one in (calibrated_unknowing, calibrated_below, calibrated_above))
    shifts = np.random.default_rng(seed).uniform(-25, 25, 4)
    sticks = [Stick((x + shift, y + index * gap), angle + 3 * (index % 2), pale) for index, (shift, pale) in enumerate(zip(shifts, sides))]
    if over_the_rim is not None:
        sticks[-1] = sticks[-1]._replace(centre=(sticks[-1].centre[0], over_the_rim))
    picture = draw(sticks, seed=seed, side=side)
    assert reader.read(picture, np.eye(3)).light_up in (None, light_up(sticks))
    assert seen_from_below.read(picture, np.eye(3)).light_up in (None, light_up(sticks))
    assert seen_from_above.read(draw(sticks, seed=seed, side=-side), np.eye(3)).light_up in (None, light_up(sticks))


def test_sticks_lying_partly_on_each_other_give_no_wrong_throw(reader: TrayReader) -> None:
    """A pale stick half under a dark one looks smaller than a pale stick: measured by it,
    the other pale stick and its wide shaded side would count as two. No stick lies apart,
    so the sticks are traced as well, and the two readings disagree."""
    sticks = [Stick((106.97, 34.87), 23.95, False), Stick((126.29, 52.77), 15.31, True), Stick((127.99, 70.67), 28.53, False),
              Stick((114.2, 88.57), 30.89, True)]
    picture = draw(sticks, seed=38, side=0.44)
    patches = reader.patches(reader.masks(picture, np.eye(3)))
    assert count_sticks(patches) == (3, 4) and all(patch.parted for patch in patches)  # a stick too many
    assert reader.read(picture, np.eye(3)).light_up in (None, 2)


def test_sticks_measured_only_by_one_cut_off_at_the_rim_are_not_counted_by_the_four(seen_from_above: TrayReader) -> None:
    """Three sticks lie together, a pale one partly under a dark one; the fourth, the only one
    lying apart, is cut off by the rim. Measured by it, the patch of the dark stick and the
    pale one under it fits two dark sticks (and three, and a pale and two dark), and the four
    sticks of the tray would pick two dark ones: a wrong throw (1 for 2)."""
    sticks = [Stick((96.55, 20.0), 9.0, False), Stick((73.05, 39.0), 12.0, True), Stick((90.14, 58.0), 9.0, True),
              Stick((98.01, 128.0), 12.0, False)]
    assert seen_from_above.read(draw(sticks, seed=14, side=-0.5), np.eye(3)).light_up in (None, 2)


def test_a_stick_measured_by_an_end_unlike_another_is_no_sure_measure(seen_from_above: TrayReader) -> None:
    """Two dark sticks lie on each other, partly over the tray's rim; of the two pale ones,
    one lies apart and one crosses the bottom rim, touching it by an end and showing two
    thirds of itself. Measured by the smaller, the whole pale stick would be two, and the
    four sticks would add up: a wrong throw (3 for 2)."""
    sticks = [Stick((57.53, 20.0), 21.0, False), Stick((97.7, 39.0), 24.0, False), Stick((60.07, 58.0), 21.0, True),
              Stick((63.86, 128.0), 24.0, True)]
    assert seen_from_above.read(draw(sticks, seed=279, side=-0.25), np.eye(3)).light_up in (None, 2)


def test_sticks_lying_together_that_the_tracer_cannot_trace_give_no_throw(seen_from_above: TrayReader) -> None:
    """No stick lies apart: a pale one, partly under a dark one, shows little more than its
    shaded side, and its patch looks like two dark sticks. The count needs the tracer's word,
    and the tracer finds no four bars: no throw, rather than a wrong one (1 for 2)."""
    sticks = [Stick((96.55, 20.0), 13.0, False), Stick((73.05, 39.0), 16.0, True), Stick((90.14, 58.0), 13.0, True),
              Stick((98.01, 77.0), 16.0, False)]
    assert seen_from_above.read(draw(sticks, seed=14, side=-0.5), np.eye(3)).light_up is None


def test_three_pale_sticks_lying_against_each_other_are_not_traced_as_four(seen_from_above: TrayReader) -> None:
    """Lying askew against each other, three pale sticks leave room for a level bar across two
    of them and one more across what is left, mostly over the bars found before; with the dark
    stick below the tray's rim, four pale bars would say 4 for 3."""
    sticks = [Stick((203.26, 31.47), -12.51, True), Stick((223.86, 50.99), -9.51, True), Stick((214.1, 70.5), -12.51, True),
              Stick((211.39, 148.0), -9.51, False)]
    assert seen_from_above.read(draw(sticks, seed=32, side=0.0), np.eye(3)).light_up in (None, 3)


@pytest.mark.parametrize("side", [-0.3, -0.42])
def test_a_pale_stick_over_the_rim_showing_only_its_side_in_the_tray_is_read_on_the_paper(seen_from_above: TrayReader, side: float) -> None:
    """Seen from beyond the mat's top edge, a pale stick lying over the tray's bottom rim shows
    in the tray only its dark side, the sliver nearest the camera, and its top on the paper:
    the paper, not the sliver, tells its side up (the sliver said dark: 2 for 3)."""
    sticks = [Stick((148.76, 20.35), -1.69, False), Stick((127.76, 43.68), 1.31, True), Stick((104.87, 67.0), -1.69, True),
              Stick((117.52, 148.0), 1.31, True)]
    assert seen_from_above.read(draw(sticks, side=side), np.eye(3)).light_up == 3


@pytest.mark.parametrize("over_the_rim", [142.0, 142.5, 143.5, 144.0, 144.5])
def test_a_pale_stick_over_the_rim_whose_sliver_in_the_tray_is_mostly_blur_is_read_with_the_paper(seen_from_above: TrayReader,
                                                                                                 over_the_rim: float) -> None:
    """Seen from beyond the mat's top edge, a pale stick lying over the tray's bottom rim shows
    in the tray a sliver of its top with its shaded side, much of it blurred, and its top
    crosses the paper below to the picture's edge. The paper shows it pale: it is no hand
    reaching in (it was taken for one, and no throw was read). Where the sliver is too thin to
    count by, the sticks traced with the paper must agree with the count (it was counted as a
    dark stick along the edge)."""
    sticks = APART[:3] + [Stick((200, over_the_rim), 0, True)]
    seen = seen_from_above.read(draw(sticks, side=-0.3), np.eye(3))
    assert not seen.from_beyond
    assert seen.light_up == 1 if over_the_rim < 143 else seen.light_up in (None, 1)


@pytest.mark.parametrize("pale", [True, False])
@pytest.mark.parametrize("over_the_rim", [146.0, 148.0, 150.0])
def test_a_stick_lying_mostly_over_the_far_rim_is_never_read_as_the_other_side(seen_from_above: TrayReader, pale: bool,
                                                                                over_the_rim: float) -> None:
    """Lying apart from the others with most of it beyond the tray's bottom rim, a pale stick
    seen from beyond the mat's top edge leaves only its dark side in the tray, a sliver a dark
    stick could leave too (it was counted dark: 0 for 1). The sticks are traced, with the paper
    beyond, and the two readings must agree."""
    sticks = APART[:3] + [Stick((200, over_the_rim), 0, pale)]
    assert seen_from_above.read(draw(sticks, side=-0.3), np.eye(3)).light_up in (None, light_up(sticks))
    assert seen_from_above.read(draw(sticks, side=-0.45), np.eye(3)).light_up in (None, light_up(sticks))


def test_bars_are_traced_once_for_sticks_lying_still_and_again_for_a_new_throw(monkeypatch: pytest.MonkeyPatch) -> None:
    inner = np.ones((70, 160), np.uint8)
    objects, pale, dark = (np.zeros_like(inner) for _ in range(3))
    for row, mask in zip((8, 21, 34, 47), (pale, pale, dark, pale)):
        objects[row : row + 13, 20:120] = mask[row : row + 12, 20:120] = 1
    fitter, traced = BarFitter(inner, (100.0, 12.0)), []
    fit = fitter.fit
    monkeypatch.setattr(fitter, "fit", lambda *masks: traced.append(1) or fit(*masks))
    assert fitter.light_up(objects, pale, dark) == 3
    flicker = objects.copy()
    flicker[8, 20:40] = 0  # the camera's noise along an edge
    assert fitter.light_up(flicker, pale, dark) == 3 and len(traced) == 1
    turned = pale.copy()
    turned[34:46, 20:120], dark[34:46, 20:120] = 1, 0  # the dark one turned over where it lay
    assert fitter.light_up(objects, turned, dark) == 4 and len(traced) == 2


def test_what_bars_do_not_explain_is_no_throw() -> None:
    inner = np.ones((100, 160), np.uint8)
    objects, pale, dark = (np.zeros_like(inner) for _ in range(3))
    for row in (8, 21, 34):
        objects[row : row + 13, 20:120] = pale[row : row + 12, 20:120] = 1
    fitter = BarFitter(inner, (100.0, 12.0))
    assert fitter.light_up(objects, pale, dark) is None  # three sticks
    objects[55:95, 50:110] = pale[55:95, 50:110] = 1  # and something else: a phone
    assert fitter.light_up(objects, pale, dark) is None
    objects[55:95, 50:110] = pale[55:95, 50:110] = 0
    objects[47:60, 20:120] = pale[47:59, 20:120] = 1
    objects[70:75, 60:65] = pale[70:75, 60:65] = 1  # four sticks and a speck
    assert fitter.light_up(objects, pale, dark) == 4
    objects[70:95, 60:100] = pale[70:95, 60:100] = 1  # something bigger than a speck
    assert fitter.light_up(objects, pale, dark) is None


def test_a_dark_stick_whose_blurred_edges_look_like_the_tray_is_traced() -> None:
    # Three pale sticks lying side by side, and a dark stick 19 pixels of 24 wide: a stick a
    # little narrower than most, its edges blurred into the tray's green.
    inner = np.ones((140, 160), np.uint8)
    objects, pale, dark = (np.zeros_like(inner) for _ in range(3))
    for row in (8, 33, 58):
        objects[row : row + 25, 20:120] = pale[row : row + 24, 20:120] = 1
    objects[105:124, 30:130] = dark[105:124, 30:130] = 1
    assert BarFitter(inner, (100.0, 24.0)).light_up(objects, pale, dark) == 3


def test_a_bar_over_sticks_lying_side_by_side_is_laid_flush_with_one_of_them() -> None:
    inner = np.ones((90, 180), np.uint8)
    objects, pale, dark = (np.zeros_like(inner) for _ in range(3))
    objects[10:34, 20:120] = dark[10:34, 20:120] = 1  # two dark sticks side by side, rows 10-21 and 22-33
    dark[10, 50:70] = dark[33, 50:70] = 0  # their outer edges a little less dark: a bar between them covers best
    for row in (45, 70):
        objects[row : row + 12, 40:140] = pale[row : row + 12, 40:140] = 1
    bars = BarFitter(inner, (100.0, 12.0)).fit(objects, pale, dark)
    assert [bar.pale for bar in bars].count(False) == 2
    assert bars[0].corners[:, 1].mean() in (16.0, 28.0)  # the middle of one of them, not between


@pytest.mark.parametrize(("turns", "along", "apart"), [((-4, 0), 0, 11.0), ((4, 0), 8, 11.0), ((4, 2), 8, 11.0), ((4, 4), 8, 11.0)])
def test_dark_sticks_lying_together_askew_are_traced(turns: tuple[float, float], along: float, apart: float) -> None:
    inner = np.ones((90, 180), np.uint8)
    objects, pale, dark = (np.zeros_like(inner) for _ in range(3))

    def lay(masks: tuple[np.ndarray, ...], centre: tuple[float, float], angle: float) -> None:
        for mask in masks:
            cv2.fillConvexPoly(mask, np.round(cv2.boxPoints((centre, (100.0, 12.0), angle)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)

    lay((objects, dark), (75.0, 14.0), turns[0])
    lay((objects, dark), (75.0 + along, 14.0 + apart), turns[1])
    for row in (52.0, 75.0):
        lay((objects, pale), (90.0, row), 0.0)
    assert BarFitter(inner, (100.0, 12.0)).light_up(objects, pale, dark) == 2


def test_the_same_sticks_keep_their_layout_and_a_new_throw_does_not(reader: TrayReader) -> None:
    first = read(reader, APART, seed=1)
    again = read(reader, APART, seed=2)
    moved = read(reader, [stick._replace(angle=stick.angle + 30) for stick in APART], seed=3)
    assert first.same_layout(again) and not first.same_layout(moved)
    assert not first.same_layout(None) and not TrayReading("unclear", None, 0, "?").same_layout(first)


def test_a_patch_bigger_than_four_sticks_at_their_widest_is_a_hand_in_the_tray() -> None:
    """No stick lies alone to measure the others by: a patch is compared with four sticks
    each seen at its widest. A hand laid over the tray, its skin the colour of a pale side,
    covers more (nearly seven sticks' area: it was taken for sticks lying together, and the
    fingers it laid on the grid for pieces)."""
    stick_area = STICK_PX[0] * STICK_PX[1]
    hand = Patch(round(6.9 * stick_area), 1.7 * STICK_PX[0], round(5.8 * stick_area), round(0.8 * stick_area))
    with pytest.raises(Unclear) as raised:
        count_sticks([hand, Patch(round(0.8 * stick_area), 0.7 * STICK_PX[0], 0, round(0.77 * stick_area))])
    assert raised.value.state == "occluded"


def test_patches_are_counted_in_the_sizes_of_single_sticks_and_only_when_certain() -> None:
    pale, dark = Patch(1200, 88.0, 1080, 60), Patch(900, 86.0, 20, 860)
    assert count_sticks([pale, pale, dark, dark]) == (2, 4)
    assert count_sticks([pale, Patch(2400, 170.0, 2150, 130), dark]) == (3, 4)  # two pale ones end to end
    assert count_sticks([pale, dark, Patch(2100, 90.0, 1100, 900)]) == (2, 4)  # a pale and a dark one side by side
    assert count_sticks([pale, pale, dark]) == (None, 3)
    with pytest.raises(Unclear):  # too big for one stick, too small for two
        count_sticks([pale, pale, Patch(1500, 120.0, 500, 950), dark])
    with pytest.raises(Unclear):  # nothing lies alone to measure the others by
        count_sticks([Patch(2400, 170.0, 2100, 200), Patch(2100, 88.0, 1100, 900)])
    # No dark stick lies alone: its look is a loose guess, and two dark ones side by side may
    # as well be three. The fourth stick is out of view, not hidden in the pair.
    with pytest.raises(Unclear):
        count_sticks([Patch(1250, 87.0, 1120, 90), Patch(2480, 90.0, 0, 2280)])


def test_sticks_lying_together_along_the_edge_are_counted_when_the_four_add_up() -> None:
    pale_by_an_end, dark = Patch(1200, 88.0, 1100, 40, edge=30), Patch(1100, 87.0, 10, 1060)
    pair = Patch(1900, 92.0, 1650, 180, edge=90)  # two pale ones, the outer one partly hidden
    assert count_sticks([pale_by_an_end, dark, pair]) == (3, 4)
    # A few pale pixels in a dark pair at the edge may be a pale stick almost hidden: both
    # (0 pale, 3 dark) and (1 pale, 2 dark) make four with the single dark one.
    with pytest.raises(Unclear):
        count_sticks([dark, Patch(2800, 130.0, 360, 2380, edge=90)])
    # Fingers come in over the paper beside the tray: the patch is not sticks partly hidden.
    with pytest.raises(Unclear):
        count_sticks([pale_by_an_end, dark, Patch(1900, 92.0, 1650, 180, edge=90, reached=40)])


def test_sticks_lying_together_that_touch_the_edge_by_their_ends_are_counted() -> None:
    """A hard generated picture (3a3-778): two dark sticks lie side by side, no seam between
    them, their ends against the tray's right rim; a dark and a pale stick lie apart. The pair
    touches the edge along two sticks' width, less than half a stick's length: neither lying
    along the edge nor only grazing it, it was not counted ("something reaches into the tray,
    or sticks lie together at its edge"). Its whole length shows: it is two sticks."""
    dark, pale = Patch(1075, 83.4, 0, 1071, edge=26), Patch(1168, 86.6, 898, 170, edge=11, sides=169)
    pair = Patch(2164, 84.1, 0, 2147, edge=28)
    assert count_sticks([dark, pair, pale]) == (1, 4)
    with pytest.raises(Unclear):  # ...unless it came in from beyond the tray: fingers
        count_sticks([dark, replace(pair, reached=28), pale])


def test_a_pale_stick_mostly_over_the_rim_shows_its_side_and_a_strip_of_its_top() -> None:
    """A hard generated picture (2a3-392): a cream stick lies mostly over the tray's left rim,
    on white paper that shows it no other colour. In the tray, a strip of its top (264 pale
    pixels) and its shaded side (234 dark ones, all where the camera sees a pale stick's side):
    as plain numbers neither side, so no throw was read. Its side left out, it is pale."""
    sticks = [Patch(1333, 88.6, 0, 1258), Patch(1158, 87.2, 0, 1111, edge=18), Patch(1326, 85.4, 1143, 115, edge=13, sides=114)]
    sliver = Patch(549, 77.0, 264, 234, edge=86, sides=234)
    assert count_sticks([*sticks, sliver]) == (2, 4)
    with pytest.raises(Unclear):  # dark pixels that no pale top explains: a dark stick's, maybe
        count_sticks([*sticks, replace(sliver, sides=0)])


def test_a_patch_at_the_edge_longer_than_any_one_stick_is_not_counted_as_one() -> None:
    """A hard generated picture: a pale stick and, touching it along the tray's edge, the sliver
    of another lying over the rim. Together they are as big as one pale stick but half as long
    again as any one stick: it was counted as one ("3 sticks seen in the tray, not 4")."""
    pale, dark = Patch(1282, 90.3, 1052, 169, sides=169), Patch(1170, 88.8, 0, 1095)
    assert count_sticks([pale, Patch(1592, 129.4, 1174, 300, edge=106, sides=243), dark]) == (3, 4)
    assert count_sticks([pale, Patch(1592, 95.0, 1174, 300, edge=106, sides=243), dark]) == (None, 3)  # one stick long: one stick


def test_a_pale_stick_s_side_between_pale_sticks_at_the_edge_leaves_the_count_open() -> None:
    """A hard generated picture: a pale stick and, beside it along the tray's edge, a sliver of
    another pale stick lying mostly over the rim, the first one's shaded side between them. As
    plain numbers the patch is a pale and a dark stick (the throw would be 2, not 3); its dark
    pixels lie just where the camera sees a pale stick's side, so it may be two pale sticks as
    well, and the count is left to the tracer, which sees the rest of the sliver on the paper.
    The pale stick lies along the edge too, so its look is loose: the count is left open by
    that alone; measured on a pale stick lying apart, the side still leaves it open."""
    pale, dark = Patch(990, 87.0, 873, 43, edge=87, sides=43), Patch(1155, 82.5, 0, 1124, edge=13)
    pair = Patch(1749, 93.0, 1109, 452, edge=86)
    apart = replace(pale, edge=0)
    assert count_sticks([apart, dark, pair]) == (2, 4)  # nothing says its dark pixels may be a side
    for patches in ([pale, dark, pair], [pale, dark, replace(pair, sides=420)], [apart, dark, replace(pair, sides=420)]):
        with pytest.raises(Unclear):
            count_sticks(patches)


def test_a_sliver_of_a_pale_stick_over_the_rim_against_a_dark_stick_leaves_the_count_open() -> None:
    """A hard generated picture: a dark stick touches, along the tray's edge, the sliver of a
    pale stick lying mostly over the rim (314 pale pixels: a third of a pale stick shows). As
    two dark sticks, one of them partly hidden, the patch fits too, and it was counted so (the
    throw 1, not 2). Whichever stick is the one partly hidden, the other shows whole: a pale
    sliver against a whole dark stick fits as well, and the count is left to the tracer."""
    dark, pale = Patch(1002, 85.8, 0, 1002, edge=50), Patch(1277, 86.6, 1144, 78, edge=9, sides=57)
    with pytest.raises(Unclear):
        count_sticks([dark, pale, Patch(1601, 143.0, 314, 1283, edge=85, sides=112)])


def test_a_pale_stick_s_side_along_the_edge_is_no_dark_stick_all_but_hidden() -> None:
    """A hard generated picture: two pale sticks lying together at the tray's edge, the outer
    one partly hidden, its dark pixels all where the camera sees a pale stick's side. Those
    could be a dark stick showing a third of itself only if no side explained them: the count
    is the two pale sticks (it was left open, and the tracer, seeing three sticks, read none)."""
    dark, pale = Patch(768, 87.0, 0, 768, edge=86), Patch(1178, 91.3, 1072, 64, sides=57)
    assert count_sticks([dark, pale, Patch(1686, 119.0, 1379, 234, edge=90, sides=234)]) == (3, 4)


def test_a_hand_crossing_the_paper_beside_the_tray_is_seen_reaching_in(reader: TrayReader) -> None:
    reached = reader.masks(draw(APART, hand=(170, 120)), np.eye(3)).reached
    assert reached.any()
    # A stick lying a little over the tray's edge does not reach across the paper beside it.
    reached = reader.masks(draw(APART[:3] + [Stick((200, 131), 0, True)]), np.eye(3)).reached  # its side 5 mm over the edge
    assert not reached.any()
    # The reading says so, for the board's reader: what lies in the tray may reach on from there.
    assert read(reader, APART, hand=(170, 120)).from_beyond
    assert not read(reader, APART[:3] + [Stick((200, 131), 0, True)]).from_beyond
    assert not read(reader, APART).from_beyond and not read(reader, []).from_beyond
    # ...and where: the hand, not the sticks lying apart from it (a stick is not a hand for
    # lying in the same tray).
    reaching = read(reader, APART, hand=(170, 120)).reaching
    assert reaching is not None and reaching[round(125 / MM_PER_PX), round(170 / MM_PER_PX)]
    assert not any(reaching[round(y / MM_PER_PX), round(x / MM_PER_PX)] for (x, y), _, _ in APART)


@pytest.mark.parametrize("angle", [0, 5])
def test_a_stick_lying_against_what_reaches_in_is_not_part_of_it(reader: TrayReader, angle: float) -> None:
    """A dark stick lies across the fingertips of a hand reaching into the tray: the hand
    reaches in, the stick does not. Taken for part of what reached in, a stick lying by the
    tray's rim beside the grid joined the pieces there into "an arm" (a generated picture,
    where a stick lying over the far rim was taken to reach in, and the sticks touched:
    "a hand or arm covers square 29" on a clear picture)."""
    stick = Stick((170, 104), angle, False)
    seen = read(reader, APART[:2] + [stick], hand=(170, 120))
    reaching = seen.reaching
    assert seen.from_beyond and reaching is not None and reaching[round(125 / MM_PER_PX), round(170 / MM_PER_PX)]
    assert not any(reaching[round(stick.centre[1] / MM_PER_PX), round(x / MM_PER_PX)] for x in (stick.centre[0] - 55, stick.centre[0] + 55))


def test_a_hand_reaching_in_over_a_table_of_its_own_colour_is_seen_reaching_in() -> None:
    """The paper below the tray is narrower than the band looked at (8 of its 12 mm on A3), and
    beyond it lies the table: here of the hand's own colour, where the arm changes nothing. What
    crosses the paper to its edge comes from beyond."""
    pad = round(30 * SCALE)

    def on_table(image: np.ndarray) -> np.ndarray:
        return cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=SKIN)

    placed = np.array([[1.0, 0, pad], [0, 1, pad], [0, 0, 1]])
    reader = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    reader.calibrate(on_table(draw([])), placed)
    assert reader.read(on_table(draw(APART, hand=(170, 120))), placed).from_beyond
    assert not reader.read(on_table(draw(APART)), placed).from_beyond


#: A wooden table, orange-brown.
WOOD = (40, 90, 170)


@pytest.mark.parametrize("blur_mm", [2.0, 3.0, 4.0])
def test_fingers_of_the_colour_of_the_paper_s_blurred_edge_are_seen_reaching_in(blur_mm: float) -> None:
    """Where the paper meets a wooden table, a soft camera shows a strip of the two blended,
    here ``blur_mm`` wide: fingers of the blend's colour (pale skin is) change nothing there,
    only the paper before it and the arm on the table after. They still come from beyond: the
    strip is learnt from the empty mat as the paper's edge (a hand's fingers were read as a
    stick). A stick's shadow reaching into the strip from the tray is no hand: the table
    beyond stays as it was."""
    pad = round(30 * SCALE)
    blend = tuple(int(v) for v in (np.array(WOOD) + 255) // 2)

    def on_table(image: np.ndarray) -> np.ndarray:
        arm = (np.abs(image[-1].astype(int) - blend) < 20).all(axis=1)  # where the arm leaves the paper it goes on over the table
        image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=WOOD)
        edge = image.shape[0] - pad
        image[edge:, pad:-pad][:, arm] = blend
        image[edge - round(blur_mm * SCALE) : edge, pad:-pad] = blend
        return image

    placed = np.array([[1.0, 0, pad], [0, 1, pad], [0, 0, 1]])
    reader = TrayReader(MatGeometry.from_dict(LAYOUT.geometry(DPI)))
    reader.calibrate(on_table(draw([])), placed)
    for tips in (100, 170):
        seen = reader.read(on_table(draw(APART, hand=(tips, 120), skin=blend)), placed)
        assert seen.from_beyond and seen.light_up is None, seen.reason
    assert reader.read(on_table(draw(APART)), placed).light_up == 0
    by_the_rim = APART[:3] + [Stick((200, LAYOUT.tray[3] - 9), 0, False)]  # its shadow 4 mm over the rim
    seen = reader.read(on_table(draw(by_the_rim)), placed)
    assert seen.light_up == 0 and not seen.from_beyond


def test_what_came_into_the_tray_from_beyond_is_placed_in_the_boards_view(reader: TrayReader) -> None:
    """The board's reader is told where in its own view what came in from beyond lies."""
    plane = BoardPlane(reader.geometry)
    came_in = np.zeros(reader.size[::-1], bool)
    came_in[:6, 40:60] = True  # by the tray's rim next to the grid, 60 to 90 mm from its left end
    seen = TrayReading("unclear", None, 0, "", reaching=came_in)
    view = reader.reaching_in_view(seen, np.eye(3), plane.to_mat(), plane.size)  # the frame in mat pixels
    assert view is not None and view.shape == plane.size[::-1]
    tray_corner_mm = reader.geometry.tray[0] * 25.4 / reader.geometry.dpi
    (x, y), (beside_x, _) = plane.from_mm(tray_corner_mm + np.array([(75.0, 4.0), (120.0, 4.0)])).round().astype(int)
    assert view[y, x] and not view[y, beside_x]
    assert reader.reaching_in_view(TrayReading("sticks", 2, 4, ""), np.eye(3), plane.to_mat(), plane.size) is None


@pytest.mark.parametrize(("sticks", "skin", "tips"), [
    (APART, SKIN, (200, 95)), (APART, SKIN, (250, 95)),  # over a dark stick: wider than one stick
    (APART[:3] + [Stick((200, 140), 0, True)], DARK_SKIN, (200, 120)),  # dark over a pale one half over the rim
    (APART[:3] + [Stick((200, 136), 0, True)], DARK_SKIN, (170, 110)),
], ids=["over-a-dark-stick", "over-its-end", "dark-over-a-pale-stick", "dark-over-its-end"])
def test_fingers_reaching_in_over_a_stick_by_the_rim_give_no_throw(reader: TrayReader, sticks: list[Stick], skin: tuple[int, int, int],
                                                                   tips: tuple[float, float]) -> None:
    """A hand reaching in across the paper below the tray, its fingers over a stick by the rim:
    the patch they make with it is no stick, though a stick's length (it was read as one, pale
    for a pale hand over a dark stick, dark for a dark hand over a pale one)."""
    seen = read(reader, sticks, hand=tips, skin=skin)
    assert seen.from_beyond and seen.light_up is None, seen.reason


def test_a_hand_s_fingers_traced_as_more_bars_than_sticks_are_no_stick_over_the_rim(reader: TrayReader, monkeypatch: pytest.MonkeyPatch) -> None:
    """What crosses the paper below the tray is a stick lying over the rim only where the
    sticks, traced, explain it: fingers laid over sticks by the rim, traced with the paper,
    make a fifth bar, and traced in the tray alone leave what no bar explains."""
    tray_height = LAYOUT.tray[3]
    picture = draw(APART[:3] + [Stick((200, tray_height - 1), 0, False)])  # over the rim to the paper's edge
    assert not reader.masks(picture, np.eye(3)).reached.any()
    traced = reader.bars.traced
    monkeypatch.setattr(reader.bars, "traced", lambda objects, pale, dark, beside=None:
                        [] if beside is None else traced(objects, pale, dark, beside) * 2)
    assert reader.masks(picture, np.eye(3)).reached.any()


@pytest.mark.parametrize("pale", [True, False])
def test_a_stick_lying_over_the_tray_s_rim_to_the_paper_s_edge_is_not_a_hand_reaching_in(reader: TrayReader, pale: bool) -> None:
    """Nearly half over the rim along it, it crosses the paper beside the tray as a hand
    would; but it lies where a stick traced in the tray lies, and ends there."""
    tray_height = LAYOUT.tray[3]
    sticks = APART[:3] + [Stick((200, tray_height - 1), 0, pale)]  # 8 mm of its 18 over the edge, to the paper's edge
    masks = reader.masks(draw(sticks), np.eye(3))
    assert masks.objects[-4:].any() and not masks.reached.any()
    seen = read(reader, sticks)
    assert seen.light_up == light_up(sticks) and not seen.from_beyond
    # Fingers reaching in there run on beyond it.
    assert reader.masks(draw(APART, hand=(200, tray_height - 20)), np.eye(3)).reached.any()


@pytest.mark.parametrize("pale", [True, False])
@pytest.mark.parametrize("beyond_the_rim", [9.0, 10.0, 11.0])
def test_a_stick_by_the_bottom_rim_seen_from_above_the_mat_is_not_a_hand_reaching_in(seen_from_above: TrayReader, pale: bool,
                                                                                    beyond_the_rim: float) -> None:
    """Seen from a low camera beyond the mat's top edge, a stick lying against the tray's
    bottom rim shows its top mostly beyond the rim, over the paper to the picture's edge, as
    fingers reaching in would; but its footprint, nearer the camera by its height, ends
    within the paper: the throw is read, and nothing is said to reach in from beyond."""
    tray_height = LAYOUT.tray[3]
    sticks = APART[:3] + [Stick((200, tray_height + beyond_the_rim - 9), 0, pale)]  # its top's middle, as seen
    picture = draw(sticks, side=0.0)
    masks = seen_from_above.masks(picture, np.eye(3))
    assert masks.objects[-4:].any() and not masks.reached.any()
    seen = seen_from_above.read(picture, np.eye(3))
    assert (seen.light_up, seen.from_beyond) == (light_up(sticks), False)
    # Fingers reaching in there are still seen coming from beyond.
    assert seen_from_above.masks(draw(APART, hand=(200, tray_height - 20)), np.eye(3)).reached.any()


def test_a_dark_sliver_beside_a_washed_out_spot_is_no_dark_stick() -> None:
    """A pale stick in a lamp's glare vanishes but for its shaded side: not a dark stick."""
    pale = Patch(1150, 88.0, 1050, 30)
    sliver = Patch(340, 85.0, 35, 190, edge=280, washed=280)
    with pytest.raises(Unclear, match="glare"):
        count_sticks([pale, pale, pale, sliver])
    # A whole dark stick in the same spot is read.
    assert count_sticks([pale, pale, pale, Patch(1000, 86.0, 20, 950, edge=300, washed=300)]) == (3, 4)


@pytest.fixture(scope="module")
def simulator() -> Simulator:
    return Simulator(LAYOUT)


def calibrated(simulator: Simulator, conditions: Conditions, rng: np.random.Generator) -> tuple[TrayReader, BoardLocator]:
    geometry = MatGeometry.from_dict(LAYOUT.geometry(150))
    start = simulator.render(Scene(START_BOARD), conditions, rng)
    locator = BoardLocator(geometry)
    location = locator.locate(start)
    assert location is not None
    reader = TrayReader(geometry)
    reader.calibrate(start, location.homography)
    return reader, locator


@pytest.mark.parametrize("pale", range(5))
def test_simulated_plain_pictures_read_every_throw(simulator: Simulator, pale: int) -> None:
    rng = np.random.default_rng(pale)
    reader, locator = calibrated(simulator, Conditions.plain(), rng)
    assert locator.location is not None
    homography = locator.location.homography
    sticks = tuple(index < pale for index in range(4))
    seen = reader.read(simulator.render(Scene(START_BOARD, sticks), Conditions.plain(), rng), homography)
    assert (seen.state, seen.light_up) == ("sticks", pale), seen.reason
    assert reader.read(simulator.render(Scene(START_BOARD, sticks, hand="tray"), Conditions.plain(), rng), homography).light_up is None


@pytest.mark.parametrize("seed", range(4))
def test_simulated_hard_pictures_never_give_a_wrong_throw(simulator: Simulator, seed: int) -> None:
    rng = np.random.default_rng(seed)
    conditions = Conditions.random_hard(rng, mat_mm=(LAYOUT.width_mm, LAYOUT.height_mm))
    reader, locator = calibrated(simulator, conditions, rng)
    for hand in (None, "tray", None):
        sticks = tuple(bool(v) for v in rng.integers(0, 2, 4))
        picture = simulator.render(Scene(START_BOARD, sticks, hand), conditions, rng)
        locator.refresh(picture)
        assert locator.location is not None
        assert reader.read(picture, locator.location.homography).light_up in (None, sum(sticks))


def _stripes_rect(member: np.ndarray) -> tuple:
    outline, _ = cv2.findContours(member.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.minAreaRect(np.concatenate(outline))


def test_sticks_lying_side_by_side_are_counted_by_their_stripes_even_at_the_edge() -> None:
    length, width = int(STICK_PX[0]), int(STICK_PX[1])
    member = np.zeros((3 * width + 20, length + 30), bool)
    member[10 : 10 + 3 * width, 10 : 10 + length] = True
    pale, dark = member.copy(), np.zeros_like(member)
    pale[10 + width - 2 : 10 + width] = False  # the first pale stick's side, seen at an angle
    dark[10 + width - 2 : 10 + width, 10 : 10 + length] = True
    pale[10 + 2 * width : 10 + 3 * width] = False  # the third stick shows its dark side
    dark[10 + 2 * width : 10 + 3 * width, 10 : 10 + length] = True
    assert stripes(member, pale, dark, _stripes_rect(member)) == (2, 1)
    # A pale stick's side seen well from the side is half a stick wide: no dark stick.
    wide_side = member.copy()
    wide_side[10 + 3 * width :] = False
    wide_side[10 + 2 * width + 6 : 10 + 3 * width] = False
    assert stripes(wide_side, pale & wide_side, dark & wide_side, _stripes_rect(wide_side)) == (2, 0)
    # With such a patch at the tray's edge the throw is known, though no pale stick lies alone.
    alone = Patch(900, 86.0, 20, 860)
    assert count_sticks([alone, Patch(3 * width * length, float(length), 2 * width * length, width * length, edge=length,
                                      stripes=(2, 1))]) == (2, 4)


def test_fingers_over_sticks_or_sticks_crossing_are_no_stripes() -> None:
    length, width = int(STICK_PX[0]), int(STICK_PX[1])
    member = np.zeros((2 * width + 40, length + 30), bool)
    member[10 : 10 + 2 * width, 10 : 10 + length] = True
    pale, dark = member.copy(), np.zeros_like(member)
    for finger in range(30, length, 25):  # dark fingers lying across both pale sticks
        pale[10 : 10 + 2 * width, finger : finger + 10] = False
        dark[10 : 10 + 2 * width, finger : finger + 10] = True
    assert stripes(member, pale, dark, _stripes_rect(member)) is None
    crossing = np.zeros((length + 20, length + 20), np.uint8)
    cv2.line(crossing, (10, 10), (length, length), 1, width)
    cv2.line(crossing, (10, length), (length, 10), 1, width)
    cross = crossing.astype(bool)
    assert stripes(cross, cross, np.zeros_like(cross), _stripes_rect(cross)) is None
