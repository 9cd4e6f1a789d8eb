"""Reading still pictures: ``senet vision read --calibrate START IMAGE...``.

    >>> read_image_file(Path("/nonexistent.jpg"))[1]
    'cannot open /nonexistent.jpg: No such file or directory'
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from senet.vision.geometry import MatGeometry, choose_mat, known_mats
from senet.vision.reader import DEFAULT_VARIANT, BoardReader, NoBoardError, Observation, no_board


def read_image_file(path: Path) -> tuple[np.ndarray | None, str]:
    """The picture as BGR, or None and why it cannot be used."""
    if not path.is_file():
        return None, f"cannot open {path}: {os.strerror(2) if not path.exists() else 'not a file'}"
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        return None, f"{path} is not a picture OpenCV can read (corrupt, or an unknown format)"
    return image, ""


def calibrated_reader(start: Path, mat_file: Path | None = None, variant: str = DEFAULT_VARIANT) -> BoardReader:
    """A reader calibrated on the start picture of ``variant``; raises ValueError saying what is wrong."""
    image, problem = read_image_file(start)
    if image is None:
        raise NoBoardError(problem)
    if mat_file is not None:
        geometry: MatGeometry | None = MatGeometry.load(mat_file)
    else:
        geometry = choose_mat(image, known_mats())
    if geometry is None:
        raise NoBoardError(f"no mat marker is visible in {start}")
    reader = BoardReader(geometry, variant)
    reader.calibrate(image)
    return reader


def read_photos(reader: BoardReader, paths: list[Path]) -> Iterator[tuple[Path, Observation]]:
    """One observation per picture; unreadable files become no-board observations."""
    for path in paths:
        image, problem = read_image_file(path)
        if image is None:
            yield path, no_board(problem)
            continue
        reader.locator.refresh(image)  # separate photos: find the mat in each one afresh
        yield path, reader.read(image)
