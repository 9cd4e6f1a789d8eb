"""Labelling a mask's parts over the box that holds them gives what OpenCV gives over the whole
mask: the readers that use it (specks on the board, patches in the tray) see the same parts."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from senet.vision.parts import labelled_parts, measured_parts

rectangles = st.lists(st.tuples(*(st.integers(0, 40),) * 4), max_size=6)


def mask_of(height: int, width: int, boxes: list[tuple[int, int, int, int]], holes: int) -> np.ndarray:
    """A mask of rectangles, speckled with holes (parts that touch at corners, thin strands)."""
    mask = np.zeros((height, width), np.uint8)
    for top, left, tall, wide in boxes:
        mask[top : top + tall // 3 + 1, left : left + wide // 3 + 1] = 1
    mask &= (np.random.default_rng(holes).random(mask.shape) >= holes / 10).astype(np.uint8)
    return mask


@given(st.integers(1, 50), st.integers(1, 50), rectangles, st.integers(0, 6), st.sampled_from([4, 8]))
def test_parts_labelled_in_their_box_are_those_of_the_whole_mask(height: int, width: int, boxes: list, holes: int, connectivity: int) -> None:
    mask = mask_of(height, width, boxes, holes)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=connectivity)
    measured = measured_parts(mask, connectivity)
    assert measured[0] == count
    assert np.array_equal(measured[1], labels)
    assert np.array_equal(measured[2][1:], stats[1:])  # the background's row measures the box alone
    assert measured[1].dtype == labels.dtype and measured[1].shape == mask.shape
    labelled = labelled_parts(mask, connectivity)
    whole = cv2.connectedComponents(mask, connectivity=connectivity)
    assert labelled[0] == whole[0] and np.array_equal(labelled[1], whole[1])


def test_an_empty_mask_has_the_background_alone() -> None:
    count, labels, stats = measured_parts(np.zeros((4, 7), np.uint8))
    assert count == 1 and not labels.any() and stats.tolist() == [[0, 0, 7, 4, 28]]
