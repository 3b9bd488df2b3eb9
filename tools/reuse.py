#!/usr/bin/env python3
"""Plays one game, Harrier in bandwidth mode (White) against Harrier in alpha-beta mode, at a fixed
time per move, and prints for every bandwidth move the tree nodes reused from earlier
searches (`info string reused N nodes`), the tree's size when the search ended (from the
search's closing `info string bandwidth: ... tree T nodes`), the reused share of that
tree and the expansions made; then the mean share and the expansions per second over the
game.

usage: tools/reuse.py [path/to/harrier] [movetime_ms] [--always-think false] [--style harris|hybrid]
                      [--fen FEN]
Needs python-chess (pip install chess) for the rules of the game.
"""

import argparse
import re
import sys

import chess

sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
from uci_engine import Engine  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("engine", nargs="?", default="target/release/harrier")
parser.add_argument("movetime", nargs="?", type=int, default=200)
parser.add_argument("--always-think", default="true")
parser.add_argument("--style", default="hybrid")
parser.add_argument("--fen", default=chess.STARTING_FEN)
args = parser.parse_args()


def start(options):
    engine = Engine(args.engine)
    engine.set_options(options)
    engine.send("ucinewgame")
    return engine


def search(engine, moves):
    """The engine's move after `moves` from --fen, with the nodes it reused, its tree's size
    and its expansions (0 where it does not say: alpha-beta)."""
    engine.position(args.fen, moves)
    engine.send(f"go movetime {args.movetime}")
    reused, tree, expansions = None, 0, 0
    for line in engine.lines_until("bestmove"):
        if m := re.match(r"info string reused (\d+) nodes", line):
            reused = int(m.group(1))
        elif m := re.search(r"bandwidth: .*?(\d+) expansions.* tree (\d+) nodes", line):
            expansions, tree = int(m.group(1)), int(m.group(2))
        elif line.startswith("bestmove"):
            return line.split()[1], reused, tree, expansions


bandwidth = start({"SearchMode": "Bandwidth", "BandwidthStyle": args.style, "AlwaysThink": args.always_think})
alphabeta = start({})
board = chess.Board(args.fen)
moves, shares, expansions = [], [], []
while not board.is_game_over(claim_draw=True) and len(moves) < 200:
    engine = bandwidth if board.turn == chess.WHITE else alphabeta
    move, reused, tree, made = search(engine, moves)
    if engine is bandwidth:
        share = min(reused / tree, 1.0) if tree else 0.0
        shares.append(share)
        expansions.append(made)
        print(f"move {board.fullmove_number:>3} {move:<6} reused {reused:>8} tree {tree:>8} share {share:.2f} "
              f"expansions {made:>6}")
    board.push_uci(move)
    moves.append(move)
for engine in (bandwidth, alphabeta):
    engine.quit(timeout=10)
print(f"result {board.result(claim_draw=True)}; mean reused share over {len(shares)} bandwidth moves: "
      f"{sum(shares) / max(len(shares), 1):.2f}; from the second move on: "
      f"{sum(shares[1:]) / max(len(shares) - 1, 1):.2f}; expansions per second: "
      f"{sum(expansions) / max(len(expansions), 1) * 1000 / args.movetime:.0f}")
