"""A bench-size tournament on a local Ray (two CPUs, no dashboard) gives the same records and
report as the local process pool: Ray only moves the work. Starting Ray takes 10-20 s on a
loaded two-core machine, so this is the one Ray test."""

from __future__ import annotations

from pathlib import Path

import pytest

from spades.tournament import local_runner, ray_runner, records, run_tournament

ray = pytest.importorskip("ray")

BOTS = ["random", "heuristic", "heuristic:aggression=0.8"]


def test_a_tournament_on_local_ray_equals_the_local_one(tmp_path: Path) -> None:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        seen: list[str] = []
        on_ray = run_tournament(
            BOTS, out=tmp_path / "ray", games=4, seed=7, runner=ray_runner(in_flight=3), on_game=seen.append
        )
    finally:
        ray.shutdown()
    local = run_tournament(BOTS, out=tmp_path / "local", games=4, seed=7, runner=local_runner(1))
    assert len(seen) == 12 and len(set(seen)) == 12
    assert on_ray == local
    ray_files = {p.relative_to(tmp_path / "ray"): p.read_text() for p in records(tmp_path / "ray")}
    local_files = {p.relative_to(tmp_path / "local"): p.read_text() for p in records(tmp_path / "local")}
    assert ray_files == local_files and len(ray_files) == 12
