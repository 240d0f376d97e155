"""The terminal game (``spades play``): Textual screens over one human seat's observation."""

from spades.tui.config import PlayConfig, make_config

__all__ = ["PlayConfig", "make_config"]
