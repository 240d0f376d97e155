"""Rules as a person types them on a command line: a preset name or a JSON object.

One parser for every command that takes ``--rules`` (``spades play``, ``spades match``, the
benches), so a preset name, a house-rule option and a typo mean the same everywhere and are
refused with the same one-line message naming the option.
"""

from __future__ import annotations

import json

from spades.errors import N_, InvalidRules
from spades.rules import Rules


def parse_rules_text(text: str | None, *, target: int | None = None, option: str = "--rules") -> Rules:
    """Rules from ``text``: a preset (``cutthroat3``) or a JSON object of rule options on top
    of a preset (``{"preset": "jokers", "jokers": "jjdd"}``); ``None`` is ``standard``.

    ``target``, when given, overrides the rules' target (``--target``). Every refusal is one
    ``InvalidRules`` line starting with ``option``: what was wrong, and where."""
    spec: str | dict[str, object] | None = None
    if text is not None:
        stripped = text.strip()
        if stripped.startswith(("{", "[")):  # JSON (an array is refused as such)
            try:
                loaded = json.loads(stripped)
            except json.JSONDecodeError as e:
                raise InvalidRules(
                    N_("{option}: unreadable JSON at column {column}: {why}"),
                    option=option,
                    column=e.colno,
                    why=e.msg,
                ) from None
            if not isinstance(loaded, dict):
                raise InvalidRules(N_("{option}: JSON must be an object of rule options"), option=option)
            spec = loaded
        elif not stripped:
            raise InvalidRules(N_("{option}: empty (give a preset name or a JSON object)"), option=option)
        else:
            spec = stripped
    try:
        rules = Rules.from_spec(spec)
    except InvalidRules as e:
        raise InvalidRules(N_("{option}: {error}"), option=option, error=e.text) from None
    if target is not None:
        try:
            rules = rules.replace(target=target)
        except InvalidRules as e:
            raise InvalidRules(N_("{option}: {error}"), option="--target", error=e.text) from None
    return rules
