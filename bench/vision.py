"""How long the camera's reader takes for one frame, on one core.

Prints ``vision RESOLUTION read_ms=MEDIAN move_ms=MEDIAN still_ms=MEDIAN locate_ms=MEDIAN trace_ms=MEDIAN
hand_ms=MEDIAN tray_hand_ms=MEDIAN tray_held_ms=MEDIAN tray_hand_frames=COUNT``, the frames read
as the running companion reads its camera's (``BoardReader(stream=True)``):
``read_ms`` is a frame of the running companion (the fixed camera's marker fit is kept and
checked), cycling through frames with different pieces and sticks so every part really runs;
``move_ms`` is a frame in which one piece moved while the sticks lie as they lay in the frame
read before it (as while a player moves a piece: the tray's reading is kept);
``still_ms`` is a frame that shows what the frame read before it showed, with the camera's
noise of its own (most frames at a table, between moves: they get the last frame's answer);
``locate_ms`` is the full marker detection, needed at start-up and when the camera
moves; ``trace_ms`` is tracing the sticks as bars, done once for sticks lying still when
they lie too close together to count patch by patch; ``hand_ms`` is a frame with a hand
reaching over the board into the tray (while it covers the board the sticks are not traced,
neither those it leaves in the tray nor, unless which squares it covers depends on it, to
tell the hand crossing the paper beside the tray from a stick lying over the rim);
``tray_hand_ms`` is a frame with a hand reaching into the tray alone, the board in view, as a
player throws or picks up the sticks: the hand moves from frame to frame, and what crosses
the paper beside the tray is taken for a hand without tracing the sticks; ``tray_held_ms`` is
the same frame again (a hand held still): now the sticks are traced, to tell a hand crossing
the paper from a stick lying over the rim (once: the frames after it that show nothing new
get its answer). Medians of several runs.

    python bench/vision.py [--runs 5] [--frames 40]
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2
import numpy as np

from senet.vision.geometry import known_mats
from senet.vision.mat import MatLayout
from senet.vision.reader import BoardReader
from senet.vision.simulator import Conditions, Scene, Simulator, Style
from senet.vision.sources import START_BOARD

Pairs = list[tuple[np.ndarray, np.ndarray]]


def frames(size: tuple[int, int], count: int) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray], Pairs, list[np.ndarray], Pairs]:
    """The start picture, ``count`` pictures of pieces and sticks, a quarter as many with a hand
    reaching into the tray, ``count`` pairs of pictures of one scene each (the same pieces
    and sticks where they stood, the camera's noise of its own in each), ``count`` more
    with a hand reaching into the tray (over the board or not: the arm comes from any side),
    and ``count`` pairs of pictures before and after a move (one piece moved on to the next
    empty square, the other pieces and the sticks where they lay)."""
    layout = MatLayout.for_paper("a3")
    simulator, rng = Simulator(layout), np.random.default_rng(5)
    conditions = Conditions.random_hard(rng, *size, mat_mm=(layout.width_mm, layout.height_mm))
    style = Style.random(rng, layout.square_mm)
    start = simulator.render(Scene(START_BOARD), conditions, rng, style)
    boards = ["".join(rng.permutation(list(START_BOARD))) for _ in range(count)]
    sticks = [tuple(bool(v) for v in rng.integers(0, 2, 4)) for _ in range(count)]
    pictures = [simulator.render(Scene(b, s), conditions, rng, style) for b, s in zip(boards, sticks)]
    hands = [simulator.render(Scene(b, s, hand="tray"), conditions, rng, style) for b, s in zip(boards[: count // 4], sticks)]
    pairs = []
    for board, thrown in zip(boards, sticks):
        scene, lying = Scene(board, thrown, places=simulator.place_pieces(board, style, conditions.scatter, rng)), int(rng.integers(2**31))
        first, second = (simulator.render(scene, conditions, rng, style, np.random.default_rng(lying)) for _ in range(2))
        pairs.append((first, second))
    more_hands = [simulator.render(Scene(b, s, hand="tray"), conditions, rng, style) for b, s in zip(boards, sticks)]
    moves = []
    for board, thrown in zip(boards, sticks):
        before = Scene(board, thrown, places=simulator.place_pieces(board, style, conditions.scatter, rng))
        square = next(index for index, letter in enumerate(board) if letter != "." and "." in board[index:])
        target = board.index(".", square)
        moved = board[:square] + "." + board[square + 1 : target] + board[square] + board[target + 1 :]
        after = Scene(moved, thrown, places=simulator.place_pieces(moved, style, conditions.scatter, rng, keep=before))
        lying = int(rng.integers(2**31))  # the sticks lie where they fell
        first, second = (simulator.render(scene, conditions, rng, style, np.random.default_rng(lying)) for scene in (before, after))
        moves.append((first, second))
    return start, pictures, hands, pairs, more_hands, moves


def _after(reader: BoardReader, pairs: Pairs) -> float:
    """Milliseconds a frame to read the second picture of each pair, the first read (untimed) just before it."""
    spent = 0.0
    for first, second in pairs:
        reader.read(first)
        began = time.perf_counter()
        reader.read(second)
        spent += time.perf_counter() - began
    return spent / len(pairs) * 1000


def positive(text: str) -> int:
    """A whole number above 0: a count of runs or frames.

        >>> positive("3")
        3
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0, e.g. 5")
    return value


def arguments(doc: str, given: list[str] | None = None) -> argparse.Namespace:
    """The runs and the frames asked for on the command line (or in ``given``) of a timing
    bench that ``doc`` describes."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--runs", type=positive, default=5)
    parser.add_argument("--frames", type=positive, default=40)
    return parser.parse_args(given)


def main() -> None:
    args = arguments(__doc__)
    cv2.setNumThreads(1)
    for size in ((640, 480), (1280, 720)):
        start, pictures, hands, pairs, more_hands, moves = frames(size, args.frames)
        reader = BoardReader(known_mats()[0], stream=True)
        reader.calibrate(start)
        in_tray = [picture for picture in more_hands if reader.read(picture).labels is not None][: len(hands)]  # the board in view
        read_runs, move_runs, still_runs, locate_runs, trace_runs, hand_runs, tray_hand_runs, tray_held_runs = [], [], [], [], [], [], [], []
        location = reader.locator.locate(pictures[0])
        assert location is not None
        masks = [reader.tray.masks(picture, location.homography) for picture in pictures[:10]]
        for _ in range(args.runs):
            began = time.perf_counter()
            for picture in pictures:
                reader.read(picture)
            read_runs.append((time.perf_counter() - began) / len(pictures) * 1000)
            move_runs.append(_after(reader, moves))
            still_runs.append(_after(reader, pairs))
            gray = cv2.cvtColor(pictures[0], cv2.COLOR_BGR2GRAY)
            began = time.perf_counter()
            for _ in range(10):
                reader.locator.detect(gray)
            locate_runs.append((time.perf_counter() - began) / 10 * 1000)
            began = time.perf_counter()
            for tray in masks:
                reader.tray.bars.fit(tray.objects, tray.pale, tray.dark, tray.beside)
            trace_runs.append((time.perf_counter() - began) / len(masks) * 1000)
            began = time.perf_counter()
            for picture in hands:
                reader.read(picture)
            hand_runs.append((time.perf_counter() - began) / len(hands) * 1000)
            began = time.perf_counter()
            for picture in in_tray:
                reader.read(picture)
            tray_hand_runs.append((time.perf_counter() - began) / max(len(in_tray), 1) * 1000)
            tray_held_runs.append(_after(reader, [(picture, picture.copy()) for picture in in_tray]) if in_tray else 0.0)
        print(
            f"vision {size[0]}x{size[1]} read_ms={statistics.median(read_runs):.2f} move_ms={statistics.median(move_runs):.2f} still_ms={statistics.median(still_runs):.2f} "
            f"locate_ms={statistics.median(locate_runs):.2f} trace_ms={statistics.median(trace_runs):.2f} "
            f"hand_ms={statistics.median(hand_runs):.2f} tray_hand_ms={statistics.median(tray_hand_runs):.2f} "
            f"tray_held_ms={statistics.median(tray_held_runs):.2f} tray_hand_frames={len(in_tray)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
