"""``python -m spades`` is the ``spades`` command."""

import sys

from spades.cli import main

sys.exit(main())
