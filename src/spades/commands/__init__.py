"""One module per ``spades`` subcommand; each exposes ``command``."""
