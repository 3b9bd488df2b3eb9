#!/usr/bin/env python3
"""Drives Harrier through random option settings and command sequences and checks that it
never dies, hangs or misbehaves: every `bestmove` legal and in time, none during `go
ponder` or `go infinite` before `ponderhit` or `stop`, `isready` answered mid-search, and
exit status 0 on `quit`. Each round is a fresh process with random search mode, bandwidth
settings, `Hash`, `Threads`, `MultiPV` and `Ponder`, then a few moves of a game from a
random position of tools/quality_positions.tsv or, with `UCI_Chess960`, a random Chess960
start, each searched by a random kind of `go`. A search on a clock must move before the
clock runs out (with a margin of two seconds for a loaded machine). A failed round's
transcript is written to target/stress-<seed>-<round>.txt.

Then, with --games-fast or --games-ponder, games with tools/games.py: Harrier in each
search mode (AlphaBeta, Bandwidth in the Hybrid and Harris styles, Minimax) against
itself in the default mode (one thread, no other option set), or against --opponent (an
anchor engine's command, set up with --opponent-opt NAME=VALUE), --games-fast games at
1+0.01 without pondering and --games-ponder games at 5+0.05 with both sides pondering.
In each mode and time control the first half of the games (rounded up) gives the mode
`Threads` 1, the rest `Threads` 2. Openings from --book (EPD or FEN) or, without it, six
random plies. A table of the faults of either side per mode, time control and thread
count ends the run; a game with a fault is printed as it ends. `make stress` runs all of
this.

usage: tools/stress.py [path/to/harrier] [--rounds N] [--seed S] [--games-fast N]
                       [--games-ponder N] [--book FILE] [--concurrency N]
                       [--opponent COMMAND [--opponent-opt NAME=VALUE ...]]
                       [--modes AlphaBeta,Hybrid,Harris,Minimax]
Exit status 1 if a round failed or a game had a fault or was aborted.
Needs python-chess (pip install chess) for the rules of the game.
"""

import argparse
import pathlib
import random
import subprocess
import sys

import chess

sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
import games  # noqa: E402
from uci_engine import Engine, EngineError  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("engine", nargs="?", default="target/release/harrier")
parser.add_argument("--rounds", type=int, default=50)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--games-fast", type=int, default=0, help="games per search mode at 1+0.01")
parser.add_argument("--games-ponder", type=int, default=0, help="games per search mode at 5+0.05, pondering")
parser.add_argument("--book", help="openings for the games: EPD or FEN, one position a line")
parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
parser.add_argument("--opponent", help="the opponent's command (default: Harrier in its default mode)")
parser.add_argument("--opponent-opt", action="append", default=[], metavar="NAME=VALUE", help="an opponent option")
# The games: each search mode against the default one, at a fast clock without pondering
# and at a slower one with both sides pondering.
MODES = {
    "AlphaBeta": {"SearchMode": "AlphaBeta"},
    "Hybrid": {"SearchMode": "Bandwidth", "BandwidthStyle": "Hybrid"},
    "Harris": {"SearchMode": "Bandwidth", "BandwidthStyle": "Harris"},
    "Minimax": {"SearchMode": "Minimax"},
}
parser.add_argument("--modes", default=",".join(MODES),
                    help="the search modes whose games are played (a long run can be split by mode)")
args = parser.parse_args()
modes = args.modes.split(",")
unknown = [mode for mode in modes if mode not in MODES]
if unknown:
    sys.exit(f"unknown mode {unknown[0]!r}: the modes are {', '.join(MODES)}")
rng = random.Random(args.seed)
here = pathlib.Path(__file__).resolve().parent
fens = [line.split("\t")[0] for line in (here / "quality_positions.tsv").read_text().splitlines() if not line.startswith("#")]

# Seconds to wait for a bestmove that a finite search owes, and for answers during a search.
BESTMOVE_WAIT = {"movetime": 10, "nodes": 30, "depth": 60}
ANSWER_WAIT = 2
# A search on a clock must move before the clock runs out; seconds allowed beyond it for
# a loaded machine.
CLOCK_MARGIN = 2
PONDER_CLOCK_MS = 3000


class Failure(Exception):
    pass


def random_options():
    return {
        "SearchMode": rng.choice(["AlphaBeta", "Minimax", "Bandwidth", "Bandwidth"]),
        "BandwidthStyle": rng.choice(["Harris", "Hybrid"]),
        "Bandwidth": rng.choice([0, 1, 10, 30, 100, 500, 1999, 2000]),
        "DepthPenalty": rng.choice([0, 1, 15, 40, 100]),
        "TipProbeDepth": rng.choice([0, 1, 2, 3]),
        "StrictHarris": rng.choice(["true", "false"]),
        "AlwaysThink": rng.choice(["true", "false"]),
        "Hash": rng.choice([1, 2, 16]),
        "Threads": rng.choice([1, 1, 2]),
        "MultiPV": rng.choice([1, 1, 3]),
        "Ponder": rng.choice(["true", "false"]),
        "UCI_Chess960": rng.choice(["true", "false", "false"]),
    }


def search(engine, board, kind):
    """Runs one search of `kind` on `board` and returns the bestmove line."""
    if kind == "clock":
        wtime, btime = rng.choice([50, 1000, 5000]), rng.choice([50, 1000, 5000])
        engine.send(f"go wtime {wtime} btime {btime} winc 50 binc 50")
        own = wtime if board.turn == chess.WHITE else btime
        return engine.wait_for("bestmove", own / 1000 + CLOCK_MARGIN)
    if kind in BESTMOVE_WAIT:
        go = {
            "movetime": f"go movetime {rng.choice([1, 20, 100, 300])}",
            "nodes": f"go nodes {rng.choice([1, 100, 5000, 50000])}",
            "depth": f"go depth {rng.choice([1, 2, 4])}",
        }[kind]
        engine.send(go)
        return engine.wait_for("bestmove", BESTMOVE_WAIT[kind])
    clock = f"wtime {PONDER_CLOCK_MS} btime {PONDER_CLOCK_MS} winc 30 binc 30"
    engine.send("go infinite" if kind == "infinite" else f"go ponder {clock}")
    early = [line for line in engine.read_for(rng.choice([0.05, 0.3, 0.8])) if line.startswith("bestmove")]
    if early:
        raise Failure(f"bestmove during go {kind}: {early[0]}")
    if rng.random() < 0.3:
        engine.is_ready(ANSWER_WAIT)
    # After ponderhit a ponder search runs on its clock: allow it that.
    hit = kind == "ponder" and rng.random() < 0.5
    engine.send("ponderhit" if hit else "stop")
    return engine.wait_for("bestmove", PONDER_CLOCK_MS / 1000 + CLOCK_MARGIN if hit else ANSWER_WAIT)


def play_round():
    engine = Engine(args.engine, stderr=subprocess.DEVNULL, transcript=True)
    options = random_options()
    try:
        engine.handshake(ANSWER_WAIT)
        engine.set_options(options)
        engine.is_ready(ANSWER_WAIT * 5)
        if options["UCI_Chess960"] == "true":
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            start = board.fen()
        else:
            start = rng.choice(fens) if rng.random() < 0.8 else chess.STARTING_FEN
            board = chess.Board(start)
        moves = []
        for _ in range(rng.randint(2, 8)):
            if board.is_game_over():
                break
            engine.position(start, moves)
            kind = rng.choice(["movetime", "nodes", "depth", "clock", "ponder", "infinite"])
            text = search(engine, board, kind).split()[1]
            if text not in {m.uci() for m in board.legal_moves}:
                raise Failure(f"illegal bestmove {text} after go {kind} in {board.fen()}")
            board.push_uci(text)
            moves.append(text)
            if rng.random() < 0.3:
                engine.read_for(rng.choice([0.05, 0.3]))
            if rng.random() < 0.1:
                engine.send("ucinewgame")
        status = engine.quit(timeout=5)
        if status != 0:
            raise Failure(f"exit status {status} after quit")
        return None
    except (Failure, EngineError) as failure:
        engine.kill()
        return failure, options, engine.transcript


failures = 0
for number in range(args.rounds):
    result = play_round()
    if result:
        failures += 1
        failure, options, transcript = result
        path = pathlib.Path("target") / f"stress-{args.seed}-{number}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(transcript) + "\n")
        print(f"round {number}: {failure}; options {options}; transcript in {path}")
print(f"{args.rounds} rounds, {failures} failed")


def play_games():
    conditions = [("1+0.01", False, args.games_fast), ("5+0.05", True, args.games_ponder)]
    opponent_command = args.opponent.split() if args.opponent else [args.engine]
    opponent_name = pathlib.Path(opponent_command[0]).name if args.opponent else "default"
    opponent_options = dict(option.split("=", 1) for option in args.opponent_opt)
    openings = games.load_openings(args.book) if args.book else None
    header = f"{'mode':<10} {'tc':<7} {'ponder':<6} {'threads':>7} {'games':>5}  {'+/=/-':<11}"
    header += " ".join(f"{fault:>7}" for fault in games.FAULTS) + " aborted  ponder hits/misses"
    print(header)
    rows, failed = [], False
    for mode in modes:
        options = MODES[mode]
        for tc, ponder, count in conditions:
            for threads, share in ((1, (count + 1) // 2), (2, count // 2)):
                if share == 0:
                    continue
                label = f"{mode:<10} {tc:<7} {'yes' if ponder else 'no':<6} {threads:>7}"

                def report(match, game):
                    if game.faults or game.result == "*":
                        print(f"  {mode} {tc} Threads {threads}: {match.line(game)}", flush=True)

                player = games.Player(mode, [args.engine], {**options, "Threads": threads}, ponder)
                opponent = games.Player(opponent_name, opponent_command, opponent_options, ponder)
                settings = games.Settings(games.TimeControl.parse(tc))
                seed = args.seed * 100 + threads  # other openings for the other thread count
                match = games.run_match(
                    [player, opponent], settings, share, openings, 6, args.concurrency, seed, report
                )
                w, d, l = match.wdl()
                faults = [sum(counts[fault] for counts in match.faults()) for fault in games.FAULTS]
                hits = sum(game.ponder[i][0] for game in match.results for i in (0, 1))
                misses = sum(game.ponder[i][1] for game in match.results for i in (0, 1))
                rows.append(f"{label} {share:>5}  {f'{w}/{d}/{l}':<11}" + " ".join(f"{n:>7}" for n in faults)
                            + f" {match.aborted():>7}  {hits}/{misses}")
                print(rows[-1], flush=True)
                failed |= match.failed()
    print(f"faults of either side (the mode under test or the opponent, {opponent_name}), all games:")
    print(header)
    print("\n".join(rows))
    return failed


games_failed = play_games() if args.games_fast or args.games_ponder else False
sys.exit(1 if failures or games_failed else 0)
