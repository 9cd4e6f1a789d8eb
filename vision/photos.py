"""Reading still pictures: ``senet vision read --calibrate START IMAGE...``.

    >>> read_image_file(Path("/nonexistent.jpg"))[1]
    'cannot open /nonexistent.jpg: No such file or directory'
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from senet.vision.geometry import MatGeometry, choose_mat, known_mats
from senet.vision.reader import DEFAULT_VARIANT, BoardReader, NoBoardError, Observation, no_board

#: The largest picture read, in pixels (the Pi HQ camera takes 12 megapixels).
MAX_PICTURE_PIXELS = 40_000_000
#: The largest picture file read: an uncompressed 40-megapixel picture, with room to spare.
MAX_PICTURE_BYTES = 256 * 1024 * 1024
#: OpenCV's log level that keeps its errors and drops its warnings (0 silent, 1 fatal, 2 error, 3 warning).
OPENCV_ERRORS_ONLY = 2


def read_image_file(path: Path) -> tuple[np.ndarray | None, str]:
    """The picture as BGR, or None and why it cannot be used.

    The size the file declares is checked before anything is decoded, so that a small
    file claiming an enormous picture is refused instead of filling the memory.
    """
    if not path.is_file():
        return None, f"cannot open {path}: {os.strerror(2) if not path.exists() else 'not a file'}"
    size = path.stat().st_size
    if size == 0:
        return None, f"{path} is empty"
    if size > MAX_PICTURE_BYTES:
        return None, f"{path} is {size // 2**20} MB; pictures up to {MAX_PICTURE_BYTES // 2**20} MB are read"
    problem = _declared_size_problem(path)
    if problem:
        return None, problem
    log_level = cv2.getLogLevel()
    cv2.setLogLevel(OPENCV_ERRORS_ONLY)  # its warning about a broken file would only repeat the reason given here
    try:
        image = cv2.imdecode(np.fromfile(str(path), dtype=np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        image = None
    finally:
        cv2.setLogLevel(log_level)
    if image is None:
        return None, f"{path} is not a picture OpenCV can read (corrupt, truncated, or an unknown format)"
    return image, ""


def _declared_size_problem(path: Path) -> str:
    """Why the picture's header rules it out ("" when it does not); only the header is read."""
    too_large = f"pictures up to {MAX_PICTURE_PIXELS // 1_000_000} megapixels are read (the Pi HQ camera takes 12)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # the limit below is stricter
            with Image.open(path) as picture:
                width, height = picture.size
    except Image.DecompressionBombError:  # Pillow's own limit, far above ours, is raised before the size is known
        return f"{path} declares a picture of more than {2 * (Image.MAX_IMAGE_PIXELS or 0) // 1_000_000} megapixels; {too_large}"
    except Exception:  # Pillow's parsers raise many kinds of error on damaged headers
        return f"{path} is not a picture (its header is damaged, or it is not an image format)"
    if width * height > MAX_PICTURE_PIXELS:
        return f"{path} declares a {width}x{height} picture ({width * height / 1e6:.0f} megapixels); {too_large}"
    return ""


def calibrated_reader(start: Path, mat_file: Path | None = None, variant: str = DEFAULT_VARIANT, stream: bool = False) -> BoardReader:
    """A reader calibrated on the start picture of ``variant`` (``stream``: for frames of a
    running camera, see :class:`BoardReader`); raises ValueError saying what is wrong."""
    image, problem = read_image_file(start)
    if image is None:
        raise NoBoardError(problem)
    if mat_file is not None:
        geometry: MatGeometry | None = MatGeometry.load(mat_file)
    else:
        geometry = choose_mat(image, known_mats())
    if geometry is None:
        raise NoBoardError(f"no mat marker is visible in {start}")
    reader = BoardReader(geometry, variant, stream)
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
