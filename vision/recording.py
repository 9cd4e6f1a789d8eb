"""Recorded sessions from the simulator: a game at the table, frame by frame.

Each step is a scene held for some seconds; its frames are identical (a still table), so
the stabiliser sees the scene settle as it would with a real camera. A piece that stays on
its square stays where it stood (under ``conditions.scatter`` pieces stand anywhere in their
squares), and sticks stay where they fell until different sticks (a new throw) are in the
tray. The start picture shows the same start position as a session recorded with the same
seed, conditions and style.

    >>> from pathlib import Path; import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> paths = record_session(folder, [(Scene(START_BOARD), 0.3)], fps=10)
    >>> [p.name for p in paths]
    ['frame_00000.png', 'frame_00001.png', 'frame_00002.png']
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from senet.vision.mat import MatLayout
from senet.vision.simulator import Conditions, Scene, Simulator, Style
from senet.vision.sources import START_BOARD

Step = tuple[Scene, float]
#: The seed streams of a session: where pieces stand, and the pictures' own randomness.
PLACES_STREAM, PICTURE_STREAM = 1, 2


def record_session(
    folder: Path, steps: list[Step], fps: float = 10.0, paper: str = "a3",
    conditions: Conditions | None = None, style: Style | None = None, seed: int = 0,
) -> list[Path]:
    """Write the frames of ``steps`` into ``folder`` (frame_00000.png, ...); returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    simulator = Simulator(MatLayout.for_paper(paper))
    conditions = conditions or Conditions.plain()
    style = style or Style()
    places = np.random.default_rng([seed, PLACES_STREAM])
    paths: list[Path] = []
    throws, previous, before = 0, None, None
    for number, (scene, seconds) in enumerate(steps):
        if scene.sticks is not None and scene.sticks != previous:
            throws += 1  # new sticks in the tray: they fall somewhere new; the same sticks stay put
        previous = scene.sticks
        if scene.places is None:
            scene = replace(scene, places=simulator.place_pieces(scene.board, style, conditions.scatter, places, keep=before))
        before = scene
        image = simulator.render(scene, conditions, np.random.default_rng([seed, PICTURE_STREAM, number]), style,
                                 sticks_rng=np.random.default_rng(seed * 1000 + 500 + throws))
        for _ in range(max(1, round(seconds * fps))):
            path = folder / f"frame_{len(paths):05d}.png"
            cv2.imwrite(str(path), image)
            paths.append(path)
    return paths


def start_picture(path: Path, paper: str = "a3", conditions: Conditions | None = None, style: Style | None = None, seed: int = 0) -> Path:
    """The calibration picture: the start position, tray empty."""
    simulator = Simulator(MatLayout.for_paper(paper))
    conditions = conditions or Conditions.plain()
    style = style or Style()
    places = simulator.place_pieces(START_BOARD, style, conditions.scatter, np.random.default_rng([seed, PLACES_STREAM]))
    image = simulator.render(Scene(START_BOARD, places=places), conditions, np.random.default_rng([seed, PICTURE_STREAM]), style)
    cv2.imwrite(str(path), image)
    return path
