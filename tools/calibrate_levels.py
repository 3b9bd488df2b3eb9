#!/usr/bin/env python3
"""Calibrates Harrier's playing levels: measures what `UCI_Elo` plays at against Stockfish
15.1's own `UCI_Elo`, and fits the table ELO_SKILL_TENTHS of src/search/level.rs (docs/levels.md).

Harrier plays with `UCI_LimitStrength` true at each `--elo` value (default 1400, 1800 and
2200, the values of the level check) against Stockfish with `UCI_LimitStrength` at the same `UCI_Elo`
(where Stockfish offers it, 1350 to 2850) and against every `--ladder` value within
`--window` Elo of it, `--games` games each (colour-swapped pairs, tools/games.py) at
`--tc` (default 10+0.1), one thread and 16 MB of hash each. Each match is appended to
`--results` (JSON lines) with the skill in tenths the value maps to under the table of
`--level-rs` (checked against the binary's node counts) and the evaluation it was played
with: the binary's `bench --eval hce` signature (search and hand-crafted evaluation), or
with `Use NNUE` (by default, or from `--opt`) the network file's SHA-256 (the binary's,
for the built-in network).

The fit uses every stored match of that evaluation and time control, also from earlier
runs (after a new table, its games measure new skills): per skill, Harrier's rating on
Stockfish's scale is the maximum-likelihood rating against its anchors (logistic model;
sandwich standard error from the observed score variance, over colour-swapped pairs).
Ratings are made non-decreasing in skill (weighted isotonic regression), joined by straight
lines, extended beyond the outer points with the slope of a weighted straight-line fit,
and inverted at `--table-elos` to give the table, clamped to skills 0..200, with
(MAX_ELO, 200) last: full strength. Skill is log2 of the node budget in steps of 1/17, so
the straight line between points is Elo linear in log nodes. After the evaluation or the
search changes, the bench (or network) changes and the fit starts from no games: rerun.

usage: tools/calibrate_levels.py [--engine target/release/harrier] [--opt NAME=VALUE ...]
           [--stockfish /usr/games/stockfish] [--elo 1400,1800,2200] [--ladder A,B,..]
           [--window 400] [--games 100] [--tc 10+0.1] [--openings FILE] [--concurrency 1]
           [--seed 1] [--results target/levels/results.jsonl] [--level-rs src/search/level.rs]
           [--fit-only] [--evaluation TEXT] [--table-elos 800,1000,...] [--write FILE]
           [--patch src/search/level.rs]
The full calibration (docs/levels.md): --elo 1000,1400,1800,2200,2600,2850 --ladder
1350,1700,2100,2500,2850 --games 100 --openings <book>. Prints each match, the measured
table, the level check (|Elo| <= 100 against Stockfish at the same UCI_Elo over >= 100
games) and the fitted table; --write puts the Rust constant in a file, --patch replaces it in a level.rs.
Needs python-chess.
"""

import argparse
import datetime
import hashlib
import json
import math
import pathlib
import re
import subprocess
import sys
import textwrap

import chess.engine

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
import games  # noqa: E402

STOCKFISH_ELO = (1350, 2850)  # the UCI_Elo range of Stockfish 15.1
CHECK_ELOS = (1400, 1800, 2200)
K = math.log(10) / 400  # d(logit of the expected score) / d(Elo)


# ---------------------------------------------------------------- the table in force


class Table:
    """ELO_SKILL_TENTHS and the level constants, read from a level.rs."""

    def __init__(self, path):
        text = pathlib.Path(path).read_text()
        consts = dict(re.findall(r"const (\w+): (?:u32|f64) = ([\d.]+);", text))
        self.min_elo, self.max_elo = int(consts["MIN_ELO"]), int(consts["MAX_ELO"])
        self.nodes_at_zero, self.per_doubling = float(consts["NODES_AT_ZERO"]), float(consts["TENTHS_PER_DOUBLING"])
        body = re.search(r"const ELO_SKILL_TENTHS: \[\(u32, u32\); \d+\] = \[(.*?)\];", text, re.S).group(1)
        names = {"MIN_ELO": self.min_elo, "MAX_ELO": self.max_elo}
        self.points = [(names.get(e) or int(e), int(t)) for e, t in re.findall(r"\((\w+), (\d+)\)", body)]

    def tenths(self, elo):
        """The skill `UCI_Elo` `elo` plays at, as Level::from_elo computes it."""
        elo = min(max(elo, self.min_elo), self.max_elo)
        pairs = list(zip(self.points, self.points[1:]))
        (low_elo, low), (high_elo, high) = next((p for p in pairs if elo <= p[1][0]), pairs[0])
        return low + (high - low) * (elo - low_elo) // max(high_elo - low_elo, 1)

    def nodes(self, tenths):
        return int(self.nodes_at_zero * 2 ** (tenths / self.per_doubling))


def searched_nodes(engine, elo):
    """The nodes the binary's search at `UCI_Elo` `elo` spends on the initial position."""
    with chess.engine.SimpleEngine.popen_uci(engine, stderr=subprocess.DEVNULL) as harrier:
        harrier.configure({"UCI_LimitStrength": True, "UCI_Elo": elo})
        return harrier.play(chess.Board(), chess.engine.Limit(depth=60), info=chess.engine.INFO_BASIC).info["nodes"]


def check_binary(engine, table):
    """Warns if the binary's node budgets are not those of `table` (one tenth is 4 %)."""
    for elo in (1800, 2400):
        if table.tenths(elo) >= 200:
            continue
        want, got = table.nodes(table.tenths(elo)), searched_nodes(engine, elo)
        if abs(got - want) > 0.05 * want + 64:
            print(f"warning: at UCI_Elo {elo} the binary searched {got} nodes where the table read "
                  f"gives {want}: was it built from this level.rs?", flush=True)


def engine_name(command):
    with chess.engine.SimpleEngine.popen_uci(command, stderr=subprocess.DEVNULL) as engine:
        return engine.id.get("name", command)


def evaluation(engine, options):
    """What the games were played with: the bench signature, or the network's hash."""
    with chess.engine.SimpleEngine.popen_uci(engine, stderr=subprocess.DEVNULL) as process:
        use_nnue_default = process.options["Use NNUE"].default
    if str(options.get("Use NNUE", use_nnue_default)).lower() == "true":
        path = options.get("EvalFile") or engine
        digest = hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()[:16]
        return f"network {'file' if options.get('EvalFile') else 'built into the binary'} sha256 {digest}"
    bench = subprocess.run([engine, "bench", "--eval", "hce"], capture_output=True, text=True, check=True).stdout
    return f"hand-crafted evaluation, bench {bench.strip().splitlines()[-1].split()[0]}"


# ---------------------------------------------------------------- playing


def play(args, table, evaluation_id, anchor_name, elo, anchor, openings):
    harrier_options = {"Threads": 1, "Hash": 16, **games.parse_options(args.opt)}
    harrier_options.update(UCI_LimitStrength="true", UCI_Elo=elo)
    players = [
        games.Player(f"harrier-{elo}", [args.engine], harrier_options),
        games.Player(f"stockfish-{anchor}", [args.stockfish],
                     {"Threads": 1, "Hash": 16, "UCI_LimitStrength": "true", "UCI_Elo": anchor}),
    ]
    settings = games.Settings(games.TimeControl.parse(args.tc))
    seed = f"{args.seed}-{elo}-{anchor}"  # other openings for each match
    match = games.run_match(players, settings, args.games, openings, 6, args.concurrency, seed)
    for line in match.summary():
        print(line, flush=True)
    if match.failed():
        print("warning: faults in this match (above); its games count as played", flush=True)
    penta, unpaired = [0] * 5, 0
    by_pair = {}
    for result in match.scored():
        by_pair.setdefault(result.number // 2, []).append(result.points(0))
    for points in by_pair.values():
        if len(points) == 2:
            penta[round(2 * sum(points))] += 1
        else:
            unpaired += 1
    return {
        "evaluation": evaluation_id,
        "tc": args.tc,
        "uci_elo": elo,
        "tenths": table.tenths(elo),
        "anchor": f"{anchor_name} UCI_Elo {anchor}",
        "anchor_elo": anchor,
        "wdl": list(match.wdl()),
        "penta": penta,
        "unpaired": unpaired,
        "faults": match.to_json()["faults"],
        "options": harrier_options,
        "date": datetime.date.today().isoformat(),
    }


# ---------------------------------------------------------------- statistics


def score_and_variance(records):
    """Mean score of merged records and the variance of that mean, over pairs when every
    game has its partner, else over games."""
    wdl = [sum(r["wdl"][i] for r in records) for i in range(3)]
    penta = [sum(r["penta"][i] for r in records) for i in range(5)]
    if sum(r["unpaired"] for r in records) == 0 and sum(penta):
        counts, values = penta, [0, 0.25, 0.5, 0.75, 1]
    else:
        counts, values = wdl, [1, 0.5, 0]
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, values)) / n
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    return mean, variance / n, sum(wdl)


def elo_and_error(records):
    mean, var, _ = score_and_variance(records)
    if sum(sum(r["penta"]) for r in records) + sum(r["unpaired"] for r in records) < 2:
        return games.elo(mean), math.inf
    low, high = mean - 1.96 * math.sqrt(var), mean + 1.96 * math.sqrt(var)
    error = (games.elo(high) - games.elo(low)) / 2 if 0 < low and high < 1 else math.inf
    return games.elo(mean), error


def rating(groups):
    """Maximum-likelihood rating against anchors, with its standard error; `groups` maps
    an anchor's Elo to its records. None if every game was won or every game lost."""
    data = []
    for anchor, records in groups.items():
        mean, var, n = score_and_variance(records)
        data.append((anchor, mean, var, n))
    if all(mean == 1 for _, mean, _, _ in data) or all(mean == 0 for _, mean, _, _ in data):
        return None
    expected = lambda r, a: 1 / (1 + 10 ** ((a - r) / 400))  # noqa: E731
    low, high = min(a for a, *_ in data) - 2000, max(a for a, *_ in data) + 2000
    for _ in range(100):  # the score expected at r rises with r: bisect for the observed one
        r = (low + high) / 2
        if sum(n * (mean - expected(r, a)) for a, mean, _, n in data) > 0:
            low = r
        else:
            high = r
    information = K * sum(n * expected(r, a) * (1 - expected(r, a)) for a, _, _, n in data)
    error = math.sqrt(sum(n * n * var for _, _, var, n in data)) / information
    return r, max(error, 1.0)


def fit(points):
    """Skill -> rating: isotonic, piecewise linear, straight beyond the ends. `points` are
    (tenths, rating, error); returns (knots, slope)."""
    points = sorted(points)
    weights = [1 / e**2 for _, _, e in points]
    total = sum(weights)
    mean_t = sum(w * t for w, (t, _, _) in zip(weights, points)) / total
    mean_r = sum(w * r for w, (_, r, _) in zip(weights, points)) / total
    spread = sum(w * (t - mean_t) ** 2 for w, (t, _, _) in zip(weights, points))
    slope = sum(w * (t - mean_t) * (r - mean_r) for w, (t, r, _) in zip(weights, points)) / spread
    if slope <= 0:
        raise SystemExit(f"the ratings do not rise with skill (slope {slope:.2f} Elo per tenth): more games")
    blocks = []  # pool adjacent violators: [weight, weighted tenths, weighted rating]
    for w, (t, r, _) in zip(weights, points):
        blocks.append([w, w * t, w * r])
        while len(blocks) > 1 and blocks[-2][2] / blocks[-2][0] >= blocks[-1][2] / blocks[-1][0]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last)]
    return [(b[1] / b[0], b[2] / b[0]) for b in blocks], slope


def invert(knots, slope, elo):
    """The skill in tenths (0..200) whose fitted rating is `elo`."""
    if elo <= knots[0][1]:
        tenths = knots[0][0] + (elo - knots[0][1]) / slope
    elif elo >= knots[-1][1]:
        tenths = knots[-1][0] + (elo - knots[-1][1]) / slope
    else:
        (t0, r0), (t1, r1) = next((a, b) for a, b in zip(knots, knots[1:]) if elo <= b[1])
        tenths = t0 + (t1 - t0) * (elo - r0) / (r1 - r0)
    return min(max(round(tenths), 0), 200)


def rust_table(table, rows, comment):
    lines = [f"// {line}" for line in textwrap.wrap(comment, 110)]
    entries = []
    for elo, tenths in rows:
        name = {table.min_elo: "MIN_ELO", table.max_elo: "MAX_ELO"}.get(elo, str(elo))
        entries.append(f"    ({name}, {tenths}),")
    return "\n".join([*lines, f"const ELO_SKILL_TENTHS: [(u32, u32); {len(rows)}] = [", *entries, "];"])


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    numbers = lambda text: [int(x) for x in text.split(",") if x]  # noqa: E731
    parser.add_argument("--engine", default="target/release/harrier")
    parser.add_argument("--opt", action="append", default=[], metavar="NAME=VALUE", help="more Harrier options")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--elo", type=numbers, default=list(CHECK_ELOS), help="Harrier's UCI_Elo values")
    parser.add_argument("--ladder", type=numbers, default=[], help="more Stockfish UCI_Elo anchors")
    parser.add_argument("--window", type=int, default=400, help="ladder anchors this near a UCI_Elo play it")
    parser.add_argument("--games", type=int, default=100, help="per UCI_Elo and anchor")
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--openings", help="EPD or FEN file (default: six random plies)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--results", default="target/levels/results.jsonl")
    parser.add_argument("--level-rs", default=str(HERE.parent / "src/search/level.rs"))
    parser.add_argument("--fit-only", action="store_true", help="play nothing: fit the stored results")
    parser.add_argument("--evaluation", help="fit the results of this evaluation (default: the engine's)")
    parser.add_argument("--table-elos", type=numbers, default=list(range(800, 2850, 200)))
    parser.add_argument("--write", help="write the fitted Rust constant to this file")
    parser.add_argument("--patch", help="replace ELO_SKILL_TENTHS in this level.rs with the fit")
    args = parser.parse_args()

    table = Table(args.level_rs)
    options = games.parse_options(args.opt)
    evaluation_id = args.evaluation or evaluation(args.engine, options)
    print(f"evaluation: {evaluation_id}; table of {args.level_rs}: {table.points}", flush=True)
    results = pathlib.Path(args.results)
    if not args.fit_only:
        check_binary(args.engine, table)
        openings = games.load_openings(args.openings) if args.openings else None
        anchor_name = engine_name(args.stockfish)
        if any(not STOCKFISH_ELO[0] <= a <= STOCKFISH_ELO[1] for a in args.ladder):
            raise SystemExit(f"--ladder: Stockfish offers UCI_Elo {STOCKFISH_ELO[0]} to {STOCKFISH_ELO[1]}")
        results.parent.mkdir(parents=True, exist_ok=True)
        for elo in args.elo:
            anchors = [elo] if STOCKFISH_ELO[0] <= elo <= STOCKFISH_ELO[1] else []
            anchors += [a for a in args.ladder if abs(a - elo) <= args.window and a not in anchors]
            if not anchors:
                print(f"UCI_Elo {elo}: no anchor (Stockfish offers {STOCKFISH_ELO}; widen --window or --ladder)")
            for anchor in anchors:
                record = play(args, table, evaluation_id, anchor_name, elo, anchor, openings)
                with results.open("a") as out:
                    out.write(json.dumps(record) + "\n")

    records = [json.loads(line) for line in results.open()] if results.exists() else []
    records = [r for r in records if r["evaluation"] == evaluation_id and r["tc"] == args.tc]
    if not records:
        raise SystemExit(f"no results of {evaluation_id} at {args.tc} in {results}")
    print(f"\nmeasured ({evaluation_id}, {args.tc}):")
    print(f"{'UCI_Elo':>7} {'tenths':>6}  {'anchor':<26} {'games':>5}  Elo +/- error (Harrier's view)")
    cells = {}
    for r in records:
        cells.setdefault((r["uci_elo"], r["tenths"], r["anchor"]), []).append(r)
    for (elo, tenths, anchor), group in sorted(cells.items()):
        value, error = elo_and_error(group)
        n = sum(sum(r["wdl"]) for r in group)
        print(f"{elo:>7} {tenths:>6}  {anchor:<26} {n:>5}  {value:+.0f} +/- {error:.0f}")
    print("\nthe level check: |Elo| <= 100 against Stockfish at the same UCI_Elo over >= 100 games:")
    for elo in CHECK_ELOS:
        same = [r for r in records if r["uci_elo"] == elo and r["anchor_elo"] == elo]
        if not same:
            print(f"{elo:>7}: not measured")
            continue
        value, error = elo_and_error(same)
        n = sum(sum(r["wdl"]) for r in same)
        verdict = "too few games" if n < 100 else "pass" if abs(value) <= 100 else "fail"
        print(f"{elo:>7}: {value:+.0f} +/- {error:.0f} in {n} games: {verdict}")

    by_tenths = {}
    for r in records:
        by_tenths.setdefault(r["tenths"], {}).setdefault(r["anchor_elo"], []).append(r)
    points = []
    for tenths, groups in sorted(by_tenths.items()):
        estimate = rating(groups)
        if estimate is None:
            print(f"skill {tenths} tenths: every game won or every game lost: no rating (add a nearer anchor)")
            continue
        points.append((tenths, *estimate))
        print(f"skill {tenths:>3} tenths ({table.nodes(tenths)} nodes): rating {estimate[0]:.0f} +/- "
              f"{1.96 * estimate[1]:.0f} on Stockfish's UCI_Elo scale")
    if len({t for t, _, _ in points}) < 2:
        raise SystemExit("a fit needs ratings at two skills at least: measure more UCI_Elo values")
    knots, slope = fit(points)
    rows = [(e, invert(knots, slope, e)) for e in args.table_elos if table.min_elo <= e < table.max_elo]
    rows += [(table.max_elo, 200)]
    if rows[0][0] != table.min_elo:
        rows.insert(0, (table.min_elo, rows[0][1]))
    games_count = sum(sum(r["wdl"]) for r in records)
    anchors = sorted({r["anchor"].rsplit(" UCI_Elo", 1)[0] for r in records})
    comment = (f"Measured ({evaluation_id}) at {args.tc} in {games_count} games against {', '.join(anchors)} "
               f"UCI_Elo, {datetime.date.today().isoformat()}: tools/calibrate_levels.py.")
    print(f"\nfit: {slope:.2f} Elo per tenth beyond the measured skills; weakest level about "
          f"{knots[0][1] + (0 - knots[0][0]) * slope:.0f}, full strength about "
          f"{knots[-1][1] + (200 - knots[-1][0]) * slope:.0f} (extrapolated where unmeasured)\n")
    rust = rust_table(table, rows, comment)
    print(rust)
    if args.write:
        pathlib.Path(args.write).write_text(rust + "\n")
    if args.patch:
        path = pathlib.Path(args.patch)
        earlier = r"(// Measured [^\n]*\n(// [^\n]*\n)*)?"
        pattern = re.compile(earlier + r"const ELO_SKILL_TENTHS: \[\(u32, u32\); \d+\] = \[.*?\];", re.S)
        text, count = pattern.subn(lambda _: rust, path.read_text(), count=1)
        if count != 1:
            raise SystemExit(f"{path}: no ELO_SKILL_TENTHS to replace")
        path.write_text(text)
        print(f"written into {path}")


if __name__ == "__main__":
    main()
