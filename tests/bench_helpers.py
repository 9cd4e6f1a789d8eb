"""Loading a bench script (``bench/NAME.py``) as a module, for the tests of what it measures."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(name: str) -> Any:
    """The module of ``bench/NAME.py``, freshly run (bench scripts are no package)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
