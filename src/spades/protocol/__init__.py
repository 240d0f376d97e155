"""The bot protocol (``spec/bot-protocol.md``): outside programs as bots, our bots as programs.

``client.ProgramBot`` seats a program (``make_bot("cmd:...")``); ``server.serve`` is what
``spades bot NAME`` runs; ``messages`` holds the wire form both ends share.
"""

from spades.protocol.client import ProgramBot, configure
from spades.protocol.messages import PROTOCOL

__all__ = ["PROTOCOL", "ProgramBot", "configure"]
