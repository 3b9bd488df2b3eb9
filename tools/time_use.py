#!/usr/bin/env python3
"""Time each engine used a move, read from the move comments of PGN files.

Usage: tools/time_use.py games.pgn [more.pgn ...] [--from 5] [--to 40]

Reads the cutechess-style comments that cutechess-cli and python-chess match runners
write after each engine move ("+0.35/12 0.131s": score, depth, seconds) and prints, per
time control and engine, the games, the moves counted (full moves --from to --to, by
default 5 to 40, where neither the opening book nor a long ending weighs), the mean and
median seconds a move, and the mean depth. Moves without a time in their comment (book
moves) are skipped. Compare engines from the same games: each one's clock depends on how
long the other let the game run.

Needs python-chess (`pip install "chess~=1.11"`).
"""

import argparse
import re
import statistics
import sys
from collections import defaultdict

import chess.pgn

# "+0.35/12 0.131s", "-M3/20 0.052s" or "0.131s" alone.
COMMENT = re.compile(r"(?:(?P<score>[+-](?:M\d+|\d+\.\d+))/(?P<depth>\d+)\s+)?(?P<seconds>\d+(?:\.\d+)?)s\b")


def moves_of(game: chess.pgn.Game, first: int, last: int):
    """(side, seconds, depth or None) of each timed move in full moves first..last."""
    board = game.board()
    for node in game.mainline():
        mover = board.turn
        number = board.fullmove_number
        board.push(node.move)
        match = COMMENT.search(node.comment or "")
        if match is None or not first <= number <= last:
            continue
        depth = match.group("depth")
        yield mover, float(match.group("seconds")), int(depth) if depth else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn", nargs="+", help="PGN files")
    parser.add_argument("--from", dest="first", type=int, default=5, help="first full move counted (default 5)")
    parser.add_argument("--to", dest="last", type=int, default=40, help="last full move counted (default 40)")
    args = parser.parse_args()

    seconds = defaultdict(list)
    depths = defaultdict(list)
    games = defaultdict(int)
    for path in args.pgn:
        with open(path, encoding="utf-8") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                control = game.headers.get("TimeControl", "?")
                names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
                for name in names.values():
                    games[control, name] += 1
                for side, used, depth in moves_of(game, args.first, args.last):
                    key = control, names[side]
                    seconds[key].append(used)
                    if depth is not None:
                        depths[key].append(depth)
    if not seconds:
        print("no timed moves found", file=sys.stderr)
        return 1
    print(f"moves {args.first} to {args.last}")
    print(f"{'time control':<14} {'engine':<24} {'games':>6} {'moves':>6} {'mean s':>8} {'median s':>9} {'depth':>6}")
    for key in sorted(seconds):
        control, name = key
        used = seconds[key]
        depth = f"{statistics.mean(depths[key]):.1f}" if depths[key] else "-"
        print(
            f"{control:<14} {name:<24} {games[key]:>6} {len(used):>6} {statistics.mean(used):>8.3f} "
            f"{statistics.median(used):>9.3f} {depth:>6}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
