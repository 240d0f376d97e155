"""Preset groups the tests share."""

from __future__ import annotations

from spades.rules import PRESETS

CLASSIC_PRESETS = ["bicycle", "hoyle", "standard", "two_player"]
"""The presets of rules.md (the house-rule presets come from house-rules.md)."""
HOUSE_PRESETS = sorted(set(PRESETS) - set(CLASSIC_PRESETS))
