#!/usr/bin/env python3
"""Plays a tablebase ending out, Harrier against itself, both with the tables, and checks
that the winner converts: every move of the winning side keeps the win (by python-chess's
own prober) until mate. Prints the moves and the outcome.

usage: tools/convert.py <syzygy dirs, ':'-separated> <fen> [binary] [movetime ms]
"""

import sys

import chess
import chess.engine
import chess.syzygy

paths, fen = sys.argv[1], sys.argv[2]
engine_path = sys.argv[3] if len(sys.argv) > 3 else "target/release/harrier"
movetime = int(sys.argv[4]) if len(sys.argv) > 4 else 200

tables = chess.syzygy.Tablebase()
for directory in paths.split(":"):
    tables.add_directory(directory)
board = chess.Board(fen)
winner = board.turn if tables.probe_wdl(board) > 0 else not board.turn
engine = chess.engine.SimpleEngine.popen_uci(engine_path)
engine.configure({"SyzygyPath": paths})
kept = True
while not board.is_game_over(claim_draw=True) and board.ply() < 400:
    move = engine.play(board, chess.engine.Limit(time=movetime / 1000)).move
    mover = board.turn
    board.push(move)
    try:
        wdl = tables.probe_wdl(board)
        if mover == winner and wdl >= 0:
            kept = False
            print(f"the win slipped after {move}")
    except (KeyError, chess.syzygy.MissingTableError):
        pass
engine.quit()
print(chess.Board(fen).variation_san(board.move_stack))
print(f"result {board.result(claim_draw=True)} after {len(board.move_stack)} plies; win kept: {kept}")
