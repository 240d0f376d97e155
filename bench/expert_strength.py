"""Expert against another bot over duplicate single hands, streamed to a file as they finish.

    python bench/expert_strength.py --hands 40 [--opponent heuristic] [--expert expert]
        [--rules '{"blind_nil": false}'] [--jobs 2] [--seed 0] [--log runs/x.jsonl]
    python bench/expert_strength.py --summary runs/x.jsonl     # report what is done so far
    python bench/expert_strength.py --summary runs/s1.jsonl runs/s2.jsonl  # seeds pooled
    python bench/expert_strength.py --paired runs/old1.jsonl runs/new1.jsonl [OLD NEW ...]

The games are ``spades match``'s (``spades.match.play_task``: the same seats, seeds and
deals, each deal played twice with the sides swapped). Every finished game is appended to
``--log`` at once, so a long run on a busy machine can be read (``--summary``) or continued
(run the same command again: deals already in the log are skipped) before it ends. A game in
which a bot faulted (a ``cmd:`` program that would not start or answer in time, whose
decisions another bot then made) stops the run unless ``--allow-faults``. The report
counts only deals whose games are all done (two, or with three players one from each seat of
the expert's): points per hand (the expert's side minus the other; with three players the
expert's seat minus the mean of the other two) with the match's bootstrap 95% interval, and
per side the set rate, Nils and Blind Nils bid and made, the opponents' Nils broken, bags,
and ms per decision.

``--paired`` compares two versions of the expert on the same deals: each pair of logs is one
seed played by the old and the new expert against the same opponent; per deal, the new
version's points (its two games) less the old one's, pooled over the pairs, with the same
bootstrap interval over deals. The deals' own luck cancels, so this says far more than two
separate figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

from spades.errors import SpadesError
from spades.match import (
    GameResult,
    SideStats,
    a_seats_of,
    bootstrap_ratio,
    check_specs,
    run_tasks,
    summarize,
    tasks_for,
)
from spades.protocol.client import configure
from spades.rules import Rules
from spades.rulestext import parse_rules_text as parse_rules


def _load(path: Path) -> tuple[dict[str, Any], list[GameResult]]:
    head: dict[str, Any] = {}
    results: list[GameResult] = []
    if not path.exists():
        return head, results
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "head" in row:
            head = row["head"]
            continue
        a, b = SideStats(**row.pop("a")), SideStats(**row.pop("b"))
        row["a_seats"] = tuple(row["a_seats"])
        results.append(GameResult(a=a, b=b, **row))
    return head, results


def _games_per_deal(spec: dict[str, Any]) -> int:
    """A duplicate deal is played once per seat of A with three players, twice otherwise."""
    return 3 if Rules.from_spec(spec).players == 3 else 2


def _whole_deals(results: list[GameResult], per_deal: int) -> list[GameResult]:
    """The games of the deals whose every duplicate game is done."""
    done: dict[int, int] = {}
    for r in results:
        done[r.deal] = done.get(r.deal, 0) + 1
    return [r for r in results if done[r.deal] == per_deal]


def report(*paths: Path) -> dict[str, Any]:
    """The report of one log, or of several runs of the same match on other seeds pooled
    (one seed moves the figure by more than its interval: pool seeds before concluding)."""
    pooled: list[GameResult] = []
    first: dict[str, Any] = {}
    seeds: set[int] = set()
    for i, path in enumerate(paths):
        head, results = _load(path)
        if not head:
            raise SystemExit(f"{path}: not a log of this bench (no head line)")
        if first and (head["a"], head["b"], head["rules"]) != (first["a"], first["b"], first["rules"]):
            raise SystemExit(f"{path}: another match ({head}) than {paths[0]} ({first})")
        if head["seed"] in seeds:
            raise SystemExit(f"{path}: seed {head['seed']} again (its deals would count twice)")
        seeds.add(head["seed"])
        first = first or head
        # Deal numbers restart with each seed: keep each log's deals apart.
        done = _whole_deals(results, _games_per_deal(head["rules"]))
        pooled += [dataclasses.replace(r, deal=i * 1_000_000 + r.deal) for r in done]
    rules = Rules.from_spec(first["rules"])
    rep = summarize(pooled, a=first["a"], b=first["b"], rules=rules, seed=first["seed"], duplicate=True)
    rep.update(bags_at_cost(pooled, rules, first["seed"]))
    return rep


def _per_deal(results: list[GameResult], bag_cost: float = 0.0) -> dict[int, tuple[float, int]]:
    """Each deal's points (A - B, with ``bag_cost`` charged per bag) and hands, its games summed:
    the unit every interval here resamples (a deal's games share its cards)."""
    units: dict[int, tuple[float, int]] = {}
    for r in results:
        d, h = units.get(r.deal, (0.0, 0))
        units[r.deal] = (d + r.diff - bag_cost * (r.a.bags - r.b.bags), h + r.hands)
    return units


def bags_at_cost(results: list[GameResult], rules: Rules, seed: int) -> dict[str, Any]:
    """Points per hand with every bag charged its share of the penalty it leads to.

    A single hand from 0-0 never reaches ``bag_limit``, so there a bag is a point won; in a
    game each bag brings the ``bag_penalty`` one ``bag_limit``-th nearer (standard: 10
    points), which a side that plays to avoid bags (the expert charges them when it plays)
    earns only over whole games. This figure charges that share per bag to both sides, as a
    game would on average; the plain figure beside it charges nothing.
    """
    cost = rules.bag_penalty / rules.bag_limit if rules.bag_penalty else 0.0
    units = _per_deal(results, cost)
    hands = sum(h for _, h in units.values())
    total = sum(d for d, _ in units.values())
    lo, hi = bootstrap_ratio(list(units.values()), seed)
    return {
        "bag_cost": cost,
        "points_per_hand_bags_at_cost": total / hands if hands else 0.0,
        "points_per_hand_bags_at_cost_ci95": [lo, hi],
    }


def paired(*paths: Path) -> dict[str, Any]:
    """New minus old points per hand, deal by deal, over pairs of logs (old, new) of one seed."""
    if not paths or len(paths) % 2:
        raise SystemExit("--paired takes logs in pairs: OLD NEW [OLD NEW ...]")
    units: list[tuple[float, int]] = []
    first: dict[str, Any] = {}
    for old_path, new_path in zip(paths[::2], paths[1::2], strict=True):
        old_head, old = _load(old_path)
        new_head, new = _load(new_path)
        for path, head in ((old_path, old_head), (new_path, new_head)):
            if not head:
                raise SystemExit(f"{path}: not a log of this bench (no head line)")
        if any(old_head[k] != new_head[k] for k in ("b", "rules", "seed")):
            raise SystemExit(f"{new_path}: not the deals of {old_path} (opponent, rules and seed must agree)")
        first = first or new_head
        per_deal = _games_per_deal(new_head["rules"])
        before, after = _per_deal(_whole_deals(old, per_deal)), _per_deal(_whole_deals(new, per_deal))
        for deal in sorted(before.keys() & after.keys()):
            units.append((after[deal][0] - before[deal][0], after[deal][1]))
    hands = sum(h for _, h in units)
    lo, hi = bootstrap_ratio(units, first.get("seed", 0))
    return {
        "deals": len(units),
        "hands": hands,
        "paired_points_per_hand": sum(d for d, _ in units) / hands if hands else 0.0,
        "paired_ci95": [lo, hi],
    }


def show(rep: dict[str, Any]) -> None:
    lo, hi = rep["points_per_hand_ci95"]
    print(f"{rep['a']} vs {rep['b']}: {rep['deals']} duplicate deals, {rep['hands']} hands ({rep['rules']})")
    print(f"points per hand A - B: {rep['points_per_hand']:+.1f}  (95% CI {lo:+.1f} .. {hi:+.1f})")
    if "points_per_hand_bags_at_cost" in rep:
        clo, chi = rep["points_per_hand_bags_at_cost_ci95"]
        print(
            f"  with each bag charged {rep['bag_cost']:g} points (its share of the penalty, as in a game): "
            f"{rep['points_per_hand_bags_at_cost']:+.1f}  (95% CI {clo:+.1f} .. {chi:+.1f})"
        )
    for side in ("a", "b"):
        s = rep["sides"][side]
        ms = rep["ms_per_decision"][side]
        print(
            f"  {side.upper()}: set {s['set_rate']:.1%}, bid error {s['bid_accuracy']:.2f}, bags/hand "
            f"{s['bags_per_hand']:.2f}, nils {s['nil_made']}/{s['nil_bids']} made (blind "
            f"{s['blind_nil_made']}/{s['blind_nil_bids']}), opp nils broken {s['opp_nils_broken']}/"
            f"{s['opp_nils']}, faults {s['faults']}, ms median {ms['median']:.0f} p99 {ms['p99']:.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40, help="duplicate deals (each played twice)")
    ap.add_argument("--opponent", default="heuristic")
    ap.add_argument("--expert", default="expert")
    ap.add_argument("--rules", default=None, help="a preset name or a JSON object of overrides")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--log", type=Path, default=None, help="JSON lines file of finished games")
    ap.add_argument(
        "--summary", type=Path, nargs="+", default=None, help="only report the games in these logs (pooled)"
    )
    ap.add_argument(
        "--paired",
        type=Path,
        nargs="+",
        default=None,
        help="logs in pairs OLD NEW (one seed each): new minus old, deal by deal",
    )
    ap.add_argument("--json", action="store_true", help="print the report as one JSON line too")
    ap.add_argument("--bot-timeout", type=float, default=None, help="seconds a cmd: bot may take (10)")
    ap.add_argument(
        "--allow-faults",
        action="store_true",
        help="keep games where a bot faulted (another bot then decided for it); default: stop",
    )
    a = ap.parse_args()
    if a.bot_timeout is not None:
        configure(timeout=a.bot_timeout)
    if a.paired is not None:
        rep = paired(*a.paired)
        lo, hi = rep["paired_ci95"]
        print(
            f"paired over {rep['deals']} deals ({rep['hands']} hands): new - old "
            f"{rep['paired_points_per_hand']:+.1f} points per hand  (95% CI {lo:+.1f} .. {hi:+.1f})"
        )
        if a.json:
            print(json.dumps(rep))
        return
    if a.summary is not None:
        rep = report(*a.summary)
    else:
        rules = parse_rules(a.rules)
        log = a.log or Path(f"/tmp/expert_strength-{a.seed}.jsonl")
        head = {"a": a.expert, "b": a.opponent, "rules": rules.to_spec(), "seed": a.seed}
        check_specs(a.expert, a.opponent)  # before the log is started: a typo leaves no log behind
        old_head, old = _load(log)
        if old_head and old_head != head:
            raise SystemExit(f"{log} holds another match ({old_head}); give another --log")
        if not old_head:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(json.dumps({"head": head}) + "\n")
        # A game is known by its deal and A's seats (with three players, A's one seat).
        have = {(r.deal, r.a_seats) for r in old}
        tasks = [
            t
            for t in tasks_for(a.expert, a.opponent, rules, hands=a.hands, seed=a.seed)
            if (t.deal, a_seats_of(rules, t.swapped, t.rotation)) not in have
        ]

        def keep(r: GameResult) -> None:
            if (r.a.faults or r.b.faults) and not a.allow_faults:
                # A faulted bot's decisions were the fallback's: the figure would not be its own.
                who = a.expert if r.a.faults else a.opponent
                raise SystemExit(
                    f"{Path(__file__).name}: {who!r} faulted in deal {r.deal} (see above; a cmd: bot"
                    " must start with a Python that has spades installed); the game is not logged,"
                    " rerun to resume, or pass --allow-faults"
                )
            with log.open("a") as f:
                f.write(json.dumps(dataclasses.asdict(r)) + "\n")

        run_tasks(tasks, jobs=a.jobs, on_done=keep)
        rep = report(log)
    show(rep)
    if a.json:
        print(json.dumps(rep))


if __name__ == "__main__":
    try:
        main()
    except SpadesError as e:  # bad --hands, --rules or bot spec: one line, no traceback
        raise SystemExit(f"{Path(__file__).name}: {e}") from None
