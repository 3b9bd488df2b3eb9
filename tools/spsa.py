#!/usr/bin/env python3
"""SPSA tuning of Harrier's search tunables on this machine, as OpenBench runs it.

Each iteration perturbs every tunable by +c or -c (a random sign each), plays game pairs
between the engine with the plus values and the engine with the minus values (one
opening a pair, each engine with both colours) and moves every value by
r * c * (wins - losses) * sign. The schedule is OpenBench's (its spsa_utils.py), from
each tunable's c_end and r_end and the planned iteration count N, with A = a_ratio * N:
    c_k = max(c_end * N^gamma / k^gamma, 0.5)
    r_k = r_end * c_end^2 * (A + N)^alpha / (A + k)^alpha / c_k^2
at iteration k = 1..N; a perturbed value is rounded up or down at random (the same
draw for plus and minus, its fractional part the chance of rounding up) and both it and
the new value are clipped to the tunable's range.

The engine is the `tune` build (`make tune-build`: target/tune/release/harrier), whose
`harrier tunables` gives the tunables in OpenBench's SPSA input format; --inputs FILE
takes such lines instead (a subset, other ranges or steps). Games go through
tools/games.py: fresh engine processes each game, the clocks kept by the runner from
the wall time of each move, faults (time, illegal move, crash, hang) scored as losses;
--resign and --draw adjudicate games the engines agree on (tools/games.py says how).

A run lives in a directory (--dir, default target/spsa): the engine copied there when
the run starts (a rebuild does not change the engine under test), state.json (the
settings, every tunable's value and the iterations done; written atomically after each
iteration) and log.jsonl (a line per iteration: the games, the plus and minus values
played and the values after the step). Running the same command again resumes the run
after its last finished iteration; an interrupted iteration is played again. --show
prints the current values (rounded, OpenBench's "name, value" lines).

usage: tools/spsa.py --engine target/tune/release/harrier --openings BOOK.epd
                     [--iterations 2000] [--tc 2+0.02] [--pairs-per 1] [--concurrency 2]
                     [--alpha 0.602] [--gamma 0.101] [--a-ratio 0.1] [--seed 1]
                     [--inputs FILE] [--opt NAME=VALUE ...] [--resign MOVES,CP]
                     [--draw START,MOVES,CP] [--dir target/spsa]
                     [--stop-after N] [--show]
example: make tune-build && tools/spsa.py --engine target/tune/release/harrier \\
             --openings UHO_4060_v4.epd --iterations 2000 --dir target/spsa/first
Needs python-chess (pip install "chess~=1.11").
"""

import argparse
import datetime
import json
import math
import os
import pathlib
import random
import shutil
import signal
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
import games  # noqa: E402

# The run's settings, fixed when it starts: a resumed run keeps them, and a flag that
# contradicts one is an error rather than a run that changes course half-way.
RUN_DEFAULTS = {
    "iterations": 2000,
    "tc": "2+0.02",
    "pairs_per": 1,
    "alpha": 0.602,
    "gamma": 0.101,
    "a_ratio": 0.1,
    "seed": 1,
    "openings": None,
    "options": {},
    "resign": None,
    "draw": None,
}
STATE, LOG, ENGINE = "state.json", "log.jsonl", "engine"


def parse_inputs(text, source):
    """Tunables from OpenBench SPSA input lines: `name, int, value, min, max, c_end, r_end`,
    split as OpenBench splits them."""
    params = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 7:
            raise SystemExit(f"{source}:{number}: expected 7 fields: {line!r}")
        name, dtype, value, low, high, c_end, r_end = fields
        if dtype != "int":
            raise SystemExit(f"{source}:{number}: {name}: the engine's options are integers, not {dtype}")
        value, low, high, c_end, r_end = map(float, (value, low, high, c_end, r_end))
        if not low <= value <= high or c_end <= 0 or r_end <= 0:
            raise SystemExit(f"{source}:{number}: {name}: the value lies outside its range or a step is not positive")
        params.append({"name": name, "start": value, "min": low, "max": high, "c_end": c_end, "r_end": r_end,
                       "value": value})
    if not params:
        raise SystemExit(f"{source}: no tunables")
    return params


def read_inputs(path):
    return parse_inputs(pathlib.Path(path).read_text(), path)


def declared(params):
    """What an input line declares of each tunable (not its current value)."""
    return [(p["name"], p["start"], p["min"], p["max"], p["c_end"], p["r_end"]) for p in params]


class Schedule:
    """OpenBench's c and r at each iteration, from the run's settings."""

    def __init__(self, run):
        self.n, self.alpha, self.gamma = run["iterations"], run["alpha"], run["gamma"]
        self.a = run["a_ratio"] * self.n

    def c(self, param, k):
        c_value = param["c_end"] * self.n ** self.gamma
        return max(c_value / k ** self.gamma, 0.5)

    def r(self, param, k):
        a_value = param["r_end"] * param["c_end"] ** 2 * (self.a + self.n) ** self.alpha
        return a_value / (self.a + k) ** self.alpha / self.c(param, k) ** 2


def perturb(params, schedule, k, rng):
    """The signs, the plus and the minus values of iteration `k`."""
    signs, plus, minus = [], {}, {}
    for p in params:
        sign, c, u = rng.choice((-1, 1)), schedule.c(p, k), rng.random()
        clip = lambda x: int(min(max(math.floor(x + u), p["min"]), p["max"]))  # noqa: E731
        signs.append(sign)
        plus[p["name"]], minus[p["name"]] = clip(p["value"] + sign * c), clip(p["value"] - sign * c)
    return signs, plus, minus


def step(params, schedule, k, signs, result):
    """Moves every value by r * c * result * sign, within its range."""
    for p, sign in zip(params, signs):
        delta = schedule.r(p, k) * schedule.c(p, k) * result * sign
        p["value"] = min(max(p["value"] + delta, p["min"]), p["max"])


def write_atomically(path, text):
    """Replaces `path` with `text`: a crash leaves the old file or the new one, whole."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def start_or_resume(args, directory):
    """The state of the run in `directory`: read back, or set up from the flags."""
    state_path = directory / STATE
    given = {key: getattr(args, key) for key in RUN_DEFAULTS if getattr(args, key) is not None}
    if "options" in given:
        given["options"] = games.parse_options(given["options"])
    if "openings" in given:
        given["openings"] = str(pathlib.Path(given["openings"]).resolve())
    for key in ("resign", "draw"):
        if key in given:
            given[key] = list(given[key])  # as the state file holds it
    if state_path.exists():
        state = json.loads(state_path.read_text())
        for key, value in given.items():
            if state["run"].get(key, RUN_DEFAULTS[key]) != value:
                raise SystemExit(f"{state_path}: the run has {key} {state['run'].get(key)!r}, not {value!r}; "
                                 f"start a new run in another --dir to change it")
        if args.inputs and declared(read_inputs(args.inputs)) != declared(state["params"]):
            raise SystemExit(f"{state_path}: the run has other tunables than {args.inputs}; "
                             f"start a new run in another --dir to change them")
        print(f"resuming {directory} after iteration {state['done']} of {state['run']['iterations']} "
              f"(with the engine copied there)", flush=True)
        return state
    if not args.engine:
        raise SystemExit("a new run needs --engine (the tune build: make tune-build)")
    run = {**RUN_DEFAULTS, **given}
    if not run["openings"]:
        raise SystemExit("a new run needs --openings (an EPD or FEN file)")
    if args.inputs:
        params = read_inputs(args.inputs)
    else:
        listing = subprocess.run([args.engine, "tunables"], capture_output=True, text=True)
        if listing.returncode != 0:
            raise SystemExit(f"{args.engine} tunables failed: is it the tune build (make tune-build)?\n"
                             f"{listing.stderr.strip()}")
        params = parse_inputs(listing.stdout, f"{args.engine} tunables")
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy2(args.engine, directory / ENGINE)
    state = {"run": run, "done": 0, "wins": 0, "draws": 0, "losses": 0, "seconds": 0.0, "params": params}
    write_atomically(state_path, json.dumps(state, indent=1) + "\n")
    print(f"new run in {directory}: {len(params)} tunables, {run['iterations']} iterations of "
          f"{run['pairs_per']} pair(s) at {run['tc']}", flush=True)
    return state


def trim_log(path, done):
    """Drops log lines of iterations past `done`: written before a crash kept the state from
    recording them, they are played again."""
    if not path.exists():
        return
    lines = path.read_text().splitlines(keepends=True)
    kept = [line for line in lines if line.strip() and json.loads(line)["iteration"] <= done]
    if len(kept) != len(lines):
        write_atomically(path, "".join(kept))


def play_iteration(state, directory, k, openings, concurrency):
    """Plays iteration `k` and records it; False if it was interrupted (Ctrl-C)."""
    run, params = state["run"], state["params"]
    schedule = Schedule(run)
    rng = random.Random(f"{run['seed']}-{k}")
    signs, plus, minus = perturb(params, schedule, k, rng)
    picked = [openings[rng.randrange(len(openings))] for _ in range(run["pairs_per"])]
    starts = [games.parse_opening(run["openings"], number, line) for number, line in picked]
    command = [str(directory / ENGINE)]
    players = [games.Player("plus", command, {**run["options"], **plus}),
               games.Player("minus", command, {**run["options"], **minus})]
    adjudication = {key: tuple(run[key]) if run.get(key) else None for key in ("resign", "draw")}
    settings = games.Settings(games.TimeControl.parse(run["tc"]), **adjudication)
    began = time.monotonic()
    match = games.run_match(players, settings, 2 * run["pairs_per"], starts, concurrency=concurrency,
                            seed=rng.randrange(2**32), report=lambda match, result: None)
    if len(match.results) < 2 * run["pairs_per"]:
        return False
    seconds = time.monotonic() - began
    wins, draws, losses = match.wdl()
    step(params, schedule, k, signs, wins - losses)
    faults = [text for r in match.results for _, _, text in r.faults]
    entry = {
        "iteration": k,
        "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        "seconds": round(seconds, 2),
        "wins": wins, "draws": draws, "losses": losses, "aborted": match.aborted(),
        "faults": faults,
        "openings": [board.fen() for board in starts],
        "plus": plus, "minus": minus,
        "values": {p["name"]: round(p["value"], 4) for p in params},
    }
    with open(directory / LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")
    state["done"] = k
    state["wins"], state["draws"], state["losses"] = state["wins"] + wins, state["draws"] + draws, state["losses"] + losses
    state["seconds"] = round(state["seconds"] + seconds, 2)
    write_atomically(directory / STATE, json.dumps(state, indent=1) + "\n")
    noted = "".join(f"; {text}" for text in faults)
    print(f"iteration {k}/{run['iterations']}: +{wins} ={draws} -{losses} in {seconds:.1f} s "
          f"(run +{state['wins']} ={state['draws']} -{state['losses']}, "
          f"{state['seconds'] / k:.1f} s an iteration){noted}", flush=True)
    return True


def show(state):
    for p in state["params"]:
        print(f"{p['name']}, {int(round(p['value']))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", help="the tune build, for a new run (copied into --dir)")
    parser.add_argument("--openings", help="EPD or FEN file, one position a line (a new run)")
    parser.add_argument("--iterations", type=int, help=f"planned iterations N (default {RUN_DEFAULTS['iterations']})")
    parser.add_argument("--tc", help=f"base+increment in seconds (default {RUN_DEFAULTS['tc']})")
    parser.add_argument("--pairs-per", dest="pairs_per", type=int, help="game pairs an iteration (default 1)")
    parser.add_argument("--alpha", type=float, help="the decay of r (default 0.602)")
    parser.add_argument("--gamma", type=float, help="the decay of c (default 0.101)")
    parser.add_argument("--a-ratio", dest="a_ratio", type=float, help="A as a share of N (default 0.1)")
    parser.add_argument("--seed", type=int, help="signs, roundings and openings (default 1)")
    parser.add_argument("--inputs", help="SPSA input lines instead of the engine's `tunables` (a new run)")
    parser.add_argument("--opt", dest="options", action="append", metavar="NAME=VALUE",
                        help="an option both engines get (a new run), e.g. Hash=16")
    parser.add_argument("--resign", type=games.int_tuple(2), metavar="MOVES,CP",
                        help="adjudicate a loss both engines agree on (a new run; default off)")
    parser.add_argument("--draw", type=games.int_tuple(3), metavar="START,MOVES,CP",
                        help="adjudicate a draw from move START (a new run; default off)")
    parser.add_argument("--dir", default="target/spsa", help="the run's directory (default target/spsa)")
    parser.add_argument("--concurrency", type=int, default=2, help="games at a time (default 2)")
    parser.add_argument("--stop-after", type=int, help="end after this many iterations of this session")
    parser.add_argument("--show", action="store_true", help="print the run's current values and end")
    args = parser.parse_args()

    # Ctrl-C, and `kill` (SIGTERM), stop the games under way and end after the last finished
    # iteration, also when the run was started in the background (where SIGINT arrives
    # ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    directory = pathlib.Path(args.dir)
    if args.show:
        show(json.loads((directory / STATE).read_text()))
        return
    state = start_or_resume(args, directory)
    trim_log(directory / LOG, state["done"])
    # Lines, parsed when drawn: a book of 240,000 positions would take a while to parse whole.
    openings = games.opening_lines(state["run"]["openings"])
    played = 0
    for k in range(state["done"] + 1, state["run"]["iterations"] + 1):
        if args.stop_after is not None and played >= args.stop_after:
            break
        try:
            finished = play_iteration(state, directory, k, openings, args.concurrency)
        except KeyboardInterrupt:
            finished = False
        if not finished:
            raise SystemExit(f"interrupted: iteration {k} is played again when the run resumes")
        played += 1
    if state["done"] == state["run"]["iterations"]:
        print(f"done: {state['done']} iterations; the values:")
        show(state)


if __name__ == "__main__":
    main()
