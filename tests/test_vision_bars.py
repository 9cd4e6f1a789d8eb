"""The bar tracer's turned views: kept up to date as bars are found, they must give exactly
what turning and summing the whole scores again gives, or a stick would be traced elsewhere
than before for nothing but speed."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from senet.vision.bars import _covered, _sums, _Turned, turn_maps

BAR = (37, 6)


def _turns(size: tuple[int, int], angles: list[float]) -> list[np.ndarray]:
    centre = (size[0] / 2, size[1] / 2)
    return [cv2.getRotationMatrix2D(centre, angle, 1.0) for angle in angles]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(angle=st.floats(0, 180), width=st.integers(20, 160), height=st.integers(20, 120), shift=st.tuples(st.floats(-9, 9), st.floats(-9, 9)),
       seed=st.integers(0, 2**16))
def test_a_turn_made_by_its_maps_is_the_turn_warp_affine_makes(angle: float, width: int, height: int, shift: tuple[float, float],
                                                               seed: int) -> None:
    image = np.random.default_rng(seed).integers(-4, 5, (height, width, 4)).astype(np.float32) / 4
    turn = cv2.getRotationMatrix2D((width / 2 + shift[0], height / 2 + shift[1]), angle, 1.0)
    size = (width + 11, height + 7)
    assert np.array_equal(cv2.remap(image, *turn_maps(turn, size), cv2.INTER_LINEAR), cv2.warpAffine(image, turn, size))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**16), patches=st.lists(st.tuples(st.integers(0, 140), st.integers(0, 80), st.integers(1, 50), st.integers(1, 30)),
                                                    min_size=1, max_size=5),
       leaning=st.booleans())
def test_views_kept_as_the_scores_are_zeroed_are_the_views_made_whole(seed: int, patches: list[tuple[int, int, int, int]], leaning: bool) -> None:
    """Scores as the tracer makes them (quarters, and a channel interpolated once more where
    the tops lean); patches zeroed one after another, each view looked at after some of them."""
    rng = np.random.default_rng(seed)
    size = (150, 90)
    score = rng.integers(-4, 5, (size[1], size[0], 4)).astype(np.float32) / 4
    if leaning:
        score[..., 3] = np.maximum(score[..., 3], cv2.warpAffine(score[..., 3], np.float32([[1, 0, 1.3], [0, 1, -0.7]]), size))
    turns = _turns(size, [0.0, 4.0, 44.0, 92.0, 136.0])
    to_show = rng.uniform(0, 60, (size[1], size[0])).astype(np.float32)
    turned = _Turned(score.copy(), BAR, turns, lambda index: turn_maps(turns[index], size), lambda index: to_show)
    for round_, (x, y, w, h) in enumerate(patches):
        zeroed = np.zeros(score.shape[:2], bool)
        zeroed[y : y + h, x : x + w] = True
        turned.zero(zeroed)
        score[zeroed] = 0.0
        for index in range(len(turns)):
            if (index + round_) % 2:  # some views miss a patch or two before they are looked at
                continue
            whole = _sums(cv2.warpAffine(score, turns[index], size), BAR).transpose(2, 0, 1)
            assert np.array_equal(turned.sums(index), whole)
            assert np.array_equal(turned.covered(index), _covered(whole, to_show, BAR[0] * BAR[1]))
            assert np.array_equal(turned.view(index), cv2.warpAffine(score, turns[index], size))
