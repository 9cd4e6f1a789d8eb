"""Fuzz ``senet rules moves``: every input line must get exactly one JSON answer, and no traceback.

Pipes fuzzed lines (valid queries and mutations of them, random JSON values, deep
nesting, invalid UTF-8, huge numbers, empty and overlong lines) into a real
``python -m senet.device.cli rules moves`` and prints
``lines_in=N answers_out=N errors=E tracebacks=0 seconds=S``.

    python bench/rules_moves_fuzz.py [--lines 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from senet.engine.variants import VARIANTS

LONGEST_ANSWERED_LINE = 1 << 20  # senet.engine.query.MAX_LINE_BYTES


def valid_query(rng: random.Random) -> dict[str, object]:
    """A query the engine answers with moves: some pieces of each colour on random squares."""
    cells = ["."] * 30
    for piece in "D" * rng.randint(1, 5) + "L" * rng.randint(1, 5):
        cells[rng.choice([i for i, cell in enumerate(cells) if cell == "."])] = piece
    return {"variant": rng.choice(list(VARIANTS)), "board": "".join(cells), "to_move": rng.choice(["dark", "light"]),
            "throw": rng.randint(1, 5)}


def json_value(rng: random.Random, depth: int = 0) -> object:
    """Any JSON value, small and shallow."""
    kind = rng.randrange(8 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randint(-(10**20), 10**20)
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind in (4, 5):
        return "".join(chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0x10FFFF)])) for _ in range(rng.randint(0, 12)))
    if kind == 6:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {str(json_value(rng, depth + 1)): json_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def mutated_query(rng: random.Random) -> bytes:
    """A valid query with one field changed, dropped or joined by a stray ``state``."""
    query = valid_query(rng)
    key = rng.choice([*query, "state"])
    action = rng.randrange(3)
    if action == 0:
        query.pop(key, None)
    elif action == 1:
        query[key] = json_value(rng)
    else:
        query["state"] = {"must_move_from": json_value(rng) if rng.random() < 0.5 else rng.randint(-3, 33)}
    return json.dumps(query).encode()


def damaged_bytes(rng: random.Random) -> bytes:
    """A valid query's bytes cut short, or with random bytes written over some of them."""
    data = bytearray(json.dumps(valid_query(rng)).encode())
    if rng.random() < 0.5:
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def deep_nesting(rng: random.Random) -> bytes:
    depth = rng.choice([100, 999, 2000, 10_000, 100_000])
    opening, closing = rng.choice([(b"[", b"]"), (b'{"a":', b"}"), (b'{"variant":', b"}")])
    return opening * depth + (b"1" + closing * depth if rng.random() < 0.7 else b"")


def invalid_utf8(rng: random.Random) -> bytes:
    good = json.dumps(valid_query(rng)).encode()
    bad = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", bytes([rng.randrange(128, 256)])])
    cut = rng.randrange(len(good) + 1)
    return good[:cut] + bad + good[cut:]


def huge_number(rng: random.Random) -> bytes:
    number = rng.choice(["9" * 5000, "-" + "1" * 100_000, "1e999", "-1e999", "1e-999", "NaN", "Infinity", "4.0", "4e0", "-0"])
    query = json.dumps(valid_query(rng))
    field = rng.choice(['"throw": ', '"to_move": ', '"variant": ', '"board": '])
    start = query.index(field) + len(field)
    end = query.index(",", start) if field != '"throw": ' else query.index("}", start)
    return (query[:start] + number + query[end:]).encode()


def random_bytes(rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200)))


def blank(rng: random.Random) -> bytes:
    return rng.choice([b"", b" ", b"\t", b"\r", b"   \r", b"{}", b"[]", b'""', b"null"])


KINDS: list[tuple[Callable[[random.Random], bytes], int]] = [
    (lambda rng: json.dumps(valid_query(rng)).encode(), 25),
    (mutated_query, 20),
    (damaged_bytes, 10),
    (lambda rng: json.dumps(json_value(rng)).encode(), 10),
    (deep_nesting, 8),
    (invalid_utf8, 10),
    (huge_number, 7),
    (random_bytes, 5),
    (blank, 5),
]


def fuzz_lines(count: int, seed: int, overlong: int = 1) -> list[bytes]:
    """``count`` fuzzed lines (no newline inside any), ``overlong`` of them longer than the limit."""
    rng = random.Random(seed)
    makers, weights = zip(*KINDS)
    lines = [rng.choices(makers, weights)[0](rng).replace(b"\n", b" ") for _ in range(count - overlong)]
    for _ in range(overlong):
        lines.insert(rng.randrange(len(lines) + 1), b'{"board": "' + b"." * (LONGEST_ANSWERED_LINE + 10) + b'"}')
    return lines


@dataclass
class FuzzResult:
    lines_in: int
    answers_out: int
    errors: int
    tracebacks: int
    not_json: int
    returncode: int
    seconds: float

    def __str__(self) -> str:
        return (f"lines_in={self.lines_in} answers_out={self.answers_out} errors={self.errors} "
                f"tracebacks={self.tracebacks} not_json={self.not_json} returncode={self.returncode} seconds={self.seconds:.1f}")


def run_fuzz(lines: list[bytes], timeout: float = 600) -> FuzzResult:
    """Pipe ``lines`` into a real ``senet rules moves`` and check what comes back."""
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "senet.device.cli", "rules", "moves"], input=b"\n".join(lines) + b"\n",
                            capture_output=True, timeout=timeout)
    answers = result.stdout.decode("utf-8", "replace").splitlines()
    parsed = []
    for answer in answers:
        try:
            parsed.append(json.loads(answer))
        except ValueError:
            parsed.append(None)
    return FuzzResult(
        lines_in=len(lines),
        answers_out=len(answers),
        errors=sum(isinstance(answer, dict) and "error" in answer for answer in parsed),
        tracebacks=result.stderr.count(b"Traceback"),
        not_json=sum(not isinstance(answer, dict) for answer in parsed),
        returncode=result.returncode,
        seconds=time.perf_counter() - started,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(run_fuzz(fuzz_lines(args.lines, args.seed)))


if __name__ == "__main__":
    main()
