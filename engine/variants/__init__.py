"""The rule systems, found by name.

    >>> find_variant("houses").name
    'houses'
    >>> sorted(VARIANTS)[:2]
    ['blockade', 'houses']
"""

from __future__ import annotations

from types import MappingProxyType

from senet.engine.variants.base import Options, StartRitual, Variant
from senet.engine.variants.blockade import Blockade
from senet.engine.variants.houses import Houses
from senet.engine.variants.kendall import Kendall
from senet.engine.variants.ludii_kendall import LudiiKendall, LudiiKendallFive
from senet.engine.variants.netherworld import Netherworld
from senet.engine.variants.pharao import Pharao
from senet.engine.variants.ramses import Ramses
from senet.engine.variants.swap_barrier import SwapBarrier

VARIANTS = MappingProxyType(
    {
        variant.name: variant
        for variant in (
            Kendall(), SwapBarrier(), Blockade(), Houses(), Netherworld(), LudiiKendall(), LudiiKendallFive(), Pharao(), Ramses(),
        )
    }
)


def find_variant(name: str) -> Variant:
    """The variant called ``name``; ValueError listing the known names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known variants: {', '.join(VARIANTS)}") from None


__all__ = ["VARIANTS", "Options", "StartRitual", "Variant", "find_variant"]
