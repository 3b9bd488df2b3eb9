#!/usr/bin/env python3
"""Move-quality probe: plays one move in each of a set of positions and reports the mean
centipawn loss of the moves chosen, as Stockfish scores them.

The default set (tools/quality_positions.tsv) holds 398 middlegame positions, two per game
from a 200-game match of bandwidth against alpha-beta at 5+0.05 (plies 16 to 90, more than
8 men), each with Stockfish's scores at depth 14 (1 thread, 64 MB) of its 8 best moves and
of other moves scored since through `root_moves`. tools/quality_endgames.tsv holds 150
endgames (5 to 10 men, from ply 40 on, at most two per game, bandwidth to move, best score
within 4 pawns) from three such matches, with the 6 best moves at depth 16. A move a set
lacks is scored at the depth its header names by the Stockfish named by --stockfish and
cached in target/quality_cache.tsv; the loss of a move is capped at 300 cp. With a node
limit the result does not depend on the machine's load; on a clock it does.

usage: tools/quality.py [path/to/harrier] [--mode alphabeta|bandwidth|minimax]
           [--nodes N | --clock SECONDS+INCREMENT] [--option Name=Value ...]
           [--positions FILE] [--save losses.json] [--compare losses.json]
           [--stockfish PATH]
Needs python-chess (pip install chess).
"""

import argparse
import json
import re
import os
import statistics

import chess
import chess.engine

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.join(HERE, "..", "target", "quality_cache.tsv")
MAX_LOSS = 300
BLUNDER = 100

parser = argparse.ArgumentParser()
parser.add_argument("engine", nargs="?", default="target/release/harrier")
parser.add_argument("--mode", choices=["alphabeta", "bandwidth", "minimax"], default="alphabeta")
parser.add_argument("--nodes", type=int)
parser.add_argument("--clock", help="a game clock for each position, e.g. 3+0.05")
parser.add_argument("--option", action="append", default=[], help="a UCI option, Name=Value")
parser.add_argument("--positions", default=os.path.join(HERE, "quality_positions.tsv"),
                    help="the set of positions (default: the 398 middlegames)")
parser.add_argument("--save", help="write each position's loss here, for --compare")
parser.add_argument("--compare", help="a --save file of another run: print the paired difference")
parser.add_argument("--stockfish", default="/usr/games/stockfish")
args = parser.parse_args()


def parse_scores(field):
    return {move: int(score) for move, score in (item.split(":") for item in field.split())}


def read_table(path):
    table = {}
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("#") or not line.strip():
                continue
            fen, best, *other = line.rstrip("\n").split("\t")
            table[fen] = (parse_scores(best), parse_scores(other[0]) if other else {})
    return table


def limit():
    if args.clock:
        seconds, increment = map(float, args.clock.split("+"))
        return chess.engine.Limit(white_clock=seconds, black_clock=seconds, white_inc=increment, black_inc=increment)
    return chess.engine.Limit(nodes=args.nodes or 300_000)


def read_cache(path):
    cached = {}
    if os.path.exists(path):
        for line in open(path):
            fen, scores = line.rstrip("\n").split("\t")
            cached.setdefault(fen, {}).update(parse_scores(scores))
    return cached


positions = read_table(args.positions)
# The header names the depth of the set's scores ("Stockfish 14-ply ..."): moves it lacks
# are scored as deep.
oracle_depth = int(re.search(r"(\d+)-ply", open(args.positions).readline()).group(1))
cached = read_cache(CACHE)

engine = chess.engine.SimpleEngine.popen_uci(args.engine)
options = {"Hash": 16}
if args.mode == "bandwidth":
    options.update({"SearchMode": "Bandwidth", "AlwaysThink": "false"})
elif args.mode == "minimax":
    options["SearchMode"] = "Minimax"
options.update(option.split("=", 1) for option in args.option)
engine.configure(options)
played = {}
for game, fen in enumerate(positions):
    played[fen] = engine.play(chess.Board(fen), limit(), game=game).move.uci()
engine.quit()


def score_of(fen, move):
    best, other = positions[fen]
    return best.get(move, other.get(move, cached.get(fen, {}).get(move)))


unscored = [(fen, move) for fen, move in played.items() if score_of(fen, move) is None]
if unscored:
    oracle = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    oracle.configure({"Threads": 1, "Hash": 64})
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    with open(CACHE, "a") as cache:
        for fen, move in unscored:
            info = oracle.analyse(chess.Board(fen), chess.engine.Limit(depth=oracle_depth),
                                  root_moves=[chess.Move.from_uci(move)])
            score = info["score"].relative.score(mate_score=3000)
            cached.setdefault(fen, {})[move] = score
            cache.write(f"{fen}\t{move}:{score}\n")
    oracle.quit()

losses, best_moves = [], 0
for fen, move in played.items():
    best = max(positions[fen][0].values())
    score = min(score_of(fen, move), best)
    losses.append(min(best - score, MAX_LOSS))
    best_moves += score == best
n = len(losses)
mean = statistics.mean(losses)
print(f"{args.mode}, {args.clock or args.nodes or 300_000}: mean loss {mean:.1f} ± "
      f"{statistics.stdev(losses) / n ** 0.5:.1f} cp, best-move rate {best_moves / n:.3f}, "
      f"moves losing over {BLUNDER} cp: {sum(loss > BLUNDER for loss in losses)} of {n}")
if args.save:
    json.dump(losses, open(args.save, "w"))
if args.compare:
    other = json.load(open(args.compare))
    diffs = [mine - theirs for mine, theirs in zip(losses, other)]
    print(f"paired difference (this run − {args.compare}): {statistics.mean(diffs):+.2f} ± "
          f"{statistics.stdev(diffs) / len(diffs) ** 0.5:.2f} cp")
