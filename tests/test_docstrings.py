"""The examples in the docstrings run and show what they claim."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import senet.device
import senet.engine
import senet.vision
import senet.web

MODULES = sorted(
    info.name
    for package in (senet.engine, senet.vision, senet.device, senet.web)
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
