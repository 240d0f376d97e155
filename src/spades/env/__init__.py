"""Spades for reinforcement learning: a PettingZoo AEC environment (extra ``rl``).

``spades.env.env()`` is the wrapped environment, ``raw_env()`` / ``SpadesEnv`` the bare one;
``spades.env.encoding`` (numpy only) turns an ``Observation`` into the documented vector.
See ``docs/rl-env.md``.
"""

try:
    from spades.env.aec import REWARD_MODES, SpadesEnv, action_text, env, raw_env, table_text
except ImportError as e:  # pragma: no cover - depends on the installed extras
    if e.name in ("pettingzoo", "gymnasium") or (e.name or "").startswith(("pettingzoo.", "gymnasium.")):
        raise ImportError("spades.env needs the rl extra: pip install 'spades[rl]'") from e
    raise

__all__ = ["REWARD_MODES", "SpadesEnv", "action_text", "env", "raw_env", "table_text"]
