"""The examples in the engine's docstrings run and show what they claim."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import senet.engine

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(senet.engine.__path__, "senet.engine.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
