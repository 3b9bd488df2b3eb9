#!/usr/bin/env python3
"""lichess-bot without the server: plays Harrier through python-chess the way lichess-bot
(lib/engine_wrapper.py, lib/lichess_bot.py) drives a UCI engine, and checks what a bot on
lichess depends on.

As lichess-bot does, every game starts a fresh engine process with
`SimpleEngine.popen_uci`, sets the `uci_options` of docs/lichess-bot.md's configuration
with `configure` (python-chess rejects names and values the engine does not declare), sends
`UCI_Opponent`, plays each side's first move under `Limit(time=...)` without pondering,
then every move under the real clocks less the time lichess-bot itself took and its own
`move_overhead` (`Limit(white_clock=..., black_clock=..., white_inc=..., black_inc=...)`),
with `ponder=True`: python-chess then sends `go ponder` on the expected reply, and at the
next move `ponderhit` if the opponent played it, `stop` if not. Draw offers are decided
from the engine's scores as lichess-bot decides them. At the end: `isready`, `quit`.

The opponent is a second Harrier process, without pondering; at each move it plays, by a
seeded draw, the bot's expected reply (a ponder hit), a random legal move (mostly a miss)
or its own engine's move, after thinking a random short time.

Games, at 10+0.1: standard in both search modes (AlphaBeta, Bandwidth) with either colour,
a Chess960 game (`UCI_Chess960`, set by python-chess from the board) and a "fromPosition"
game from a drawn ending; then one standard game in each mode where the bot starts with
1 s, as late in a bullet game. The opponent accepts every draw the bot offers. A game ends
by the rules, by a draw agreement or after MAX_PLIES plies (adjudicated, no result).

Checked: docs/lichess-bot.md's configuration configures the engine (and so does lichess-bot's default
`uci_options` block); every move is legal; the engine never dies and answers every move in
time (a watchdog kills it otherwise); the bot's clock, charged with the time from the
opponent's move to the bot's bestmove plus a simulated network lag, never runs out, and the
first moves stay inside lichess's first-move limit; no `bestmove` comes during `go ponder`
before `ponderhit`, `stop` or `quit`, and at least one ponder hit and one miss happened;
every move carries a score (lichess-bot's draw and resign decisions read it); python-chess
logged no warning or error apart from `info` lines outside a search; the engine exits with
status 0.

usage: tools/lichess_bot_sim.py [--engine target/release/harrier] [--guide docs/lichess-bot.md]
       [--seed N] [--game N] [--transcript FILE [--transcript-game N]]
$HARRIER_SYZYGY_PATH, if set, replaces the configuration's placeholder SyzygyPath.
Needs python-chess and PyYAML; `make lichess-test` installs both in target/lichess-venv and
runs this. Prints one line per game, then 'N passed, N failed'; exits 1 on any failure.
"""

import argparse
import logging
import os
import random
import re
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

import chess
import chess.engine
import yaml

# The clocks of every game, per side (lichess-bot plays 1+0 and up; this keeps the run short)...
BASE_MS = 10_000
INC_MS = 100
# ...but in the low-clock games the bot starts with this, as late in a bullet game.
LOW_BASE_MS = 1_000
# lichess-bot's first move: `Limit(time=10)`, scaled down here...
FIRST_MOVE_S = 1.0
# ...and the limit lichess sets on a first move (30 s, lichess-bot's comment says), scaled alike.
FIRST_MOVE_ABORT_S = 3.0
# lichess-bot's `move_overhead` (config.yml.default: 2000 ms), scaled to the short clocks.
LICHESS_BOT_MOVE_OVERHEAD_MS = 200
# Network time charged to the bot's clock on every move, on top of the time it took.
NETWORK_LAG_MS = 50
# Plies after which a game is adjudicated without a result.
MAX_PLIES = 80
# lichess-bot's `popen_uci(timeout=60.)`: python-chess's wait for `uciok` and `readyok`.
ENGINE_TIMEOUT_S = 60.0
# How long past its clock a move may take before the watchdog kills the engine.
WATCHDOG_GRACE_S = 10.0
# The opponent thinks a random time in this range (seconds), the bot pondering meanwhile.
OPPONENT_THINK_S = (0.05, 0.3)
# The opponent's choice: the bot's expected reply below the first share, a random legal
# move below the second, its engine's move above.
OPPONENT_PLAYS_PREDICTED = 0.35
OPPONENT_PLAYS_RANDOM = 0.6
# lichess-bot's draw_or_resign settings (config.yml.default), but a score window of 20 cp
# instead of 0: Harrier scores exactly 0 only the draws it sees (repetition, fifty moves).
OFFER_DRAW_SCORE = 20
OFFER_DRAW_MOVES = 10
OFFER_DRAW_PIECES = 10
# Where the UCI lines of a failed game go.
FAILED_TRANSCRIPT = os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "lichess-game-{}-failed.txt")
)
# Commands to the engine quoted with a protocol fault.
FAULT_CONTEXT_LINES = 4
# lichess-bot reads mate scores as this many centipawns.
MATE_SCORE = 40000
# A dead-drawn rook ending for the "fromPosition" game.
DRAWN_FEN = "8/8/4k3/8/2r5/8/3R4/4K3 w - - 0 1"
# lichess-bot's default `uci_options` (config.yml.default), which Harrier must accept too.
LICHESS_BOT_DEFAULT_UCI_OPTIONS = {
    "Move Overhead": 100,
    "Threads": 4,
    "Hash": 512,
    "SyzygyPath": "./syzygy/",
    "UCI_ShowWDL": True,
}


@dataclass
class GameSpec:
    """One game: lichess variant, Harrier's SearchMode, the bot's colour, the start,
    whether the opponent may play random moves, the bot's starting clock."""

    variant: str
    mode: str
    bot_color: chess.Color
    board: chess.Board
    random_opponent: bool = True
    bot_base_ms: int = BASE_MS


@dataclass
class Transcript:
    """UCI lines of one engine process, from python-chess's debug log."""

    lines: list = field(default_factory=list)  # (seconds, "<<" or ">>", text)


class EngineLog(logging.Handler):
    """Collects the UCI lines of the engines under watch and python-chess's complaints."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.watched = {}  # protocol object -> Transcript
        self.complaints = []

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            message = record.getMessage()
            if not re.search(r"Unexpected engine output: '?info ", message):
                self.complaints.append(message)
            return
        if record.msg in ("%s: << %s", "%s: >> %s") and record.args[0] in self.watched:
            direction = "<<" if "<<" in record.msg else ">>"
            self.watched[record.args[0]].lines.append((record.created, direction, record.args[1]))


LOG = EngineLog()


def guide_config(path):
    """The lichess-bot `config.yml` keys of the guide's `yaml` blocks, checked."""
    with open(path, encoding="utf-8") as guide:
        text = guide.read()
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    config = {}
    for block in blocks:
        config.update(yaml.safe_load(block))
    engine = config["engine"]
    for key, value in (("protocol", "uci"), ("ponder", True), ("working_dir", "")):
        assert engine.get(key) == value, f"{path}: engine.{key} is {engine.get(key)!r}, not {value!r}"
    assert engine.get("name") and engine.get("dir"), f"{path}: engine.dir and engine.name missing"
    assert not engine.get("engine_options"), f"{path}: engine.engine_options must stay empty"
    options = engine["uci_options"]
    for name in ("Threads", "Hash", "Move Overhead", "SyzygyPath"):
        assert name in options, f"{path}: uci_options lacks {name}"
    variants = config["challenge"]["variants"]
    assert {"standard", "fromPosition", "chess960"} <= set(variants), f"{path}: variants {variants}"
    return options


def lichess_bot_options(guide_options):
    """The guide's uci_options as lichess-bot sends them: managed options dropped; the
    placeholder SyzygyPath replaced by $HARRIER_SYZYGY_PATH or left out."""
    options = {
        k: v for k, v in guide_options.items() if not chess.engine.Option(k, "", None, None, None, None).is_managed()
    }
    tables = os.environ.get("HARRIER_SYZYGY_PATH")
    if tables:
        options["SyzygyPath"] = tables
    else:
        del options["SyzygyPath"]
    return options


def start_engine(path, watch):
    """A fresh engine process, as lichess-bot's UCIEngine starts it."""
    engine = chess.engine.SimpleEngine.popen_uci([os.path.abspath(path)], timeout=ENGINE_TIMEOUT_S, setpgrp=True)
    transcript = Transcript()
    if watch:
        LOG.watched[engine.protocol] = transcript
    return engine, transcript


def close_engine(engine):
    """lichess-bot's EngineWrapper.__exit__: `isready`, then `quit`; the exit status."""
    engine.ping()
    engine.quit()
    engine.close()
    return engine.transport.get_returncode()


def play_watched(engine, board, limit, timeout_s, **kwargs):
    """engine.play(), killing the engine if no bestmove comes within timeout_s."""
    fired = threading.Event()

    def kill():
        fired.set()
        os.kill(engine.transport.get_pid(), signal.SIGKILL)

    watchdog = threading.Timer(timeout_s, kill)
    watchdog.start()
    try:
        return engine.play(board, limit, **kwargs)
    except chess.engine.EngineTerminatedError as error:
        reason = f"no bestmove within {timeout_s:.1f} s" if fired.is_set() else "the engine died"
        raise AssertionError(f"{reason}: {error}") from error
    finally:
        watchdog.cancel()


def draw_decision(scores, board):
    """lichess-bot's EngineWrapper.offer_draw_or_resign, the draw half."""
    if len(scores) < OFFER_DRAW_MOVES or chess.popcount(board.occupied) > OFFER_DRAW_PIECES:
        return False
    recent = scores[-OFFER_DRAW_MOVES:]
    return all(abs(s.relative.score(mate_score=MATE_SCORE)) <= OFFER_DRAW_SCORE for s in recent)


def ponder_violations(transcript, game_end):
    """Protocol faults around pondering in one transcript, and the ponder hits and misses
    among its first game_end lines (after them lichess-bot's closing `isready` stops it).
    `quit` ends a ponder too: a search still running then sends its `bestmove`."""
    faults, ends = [], []
    pondering = False
    for index, (_, direction, text) in enumerate(transcript.lines):
        if direction == "<<" and text.startswith("go ponder"):
            pondering = True
        elif direction == "<<" and text in ("ponderhit", "stop", "quit") and pondering:
            pondering = False
            if index < game_end:
                ends.append(text)
        elif direction == ">>" and text.startswith("bestmove") and pondering:
            sent = [line for _, d, line in transcript.lines[:index] if d == "<<"][-FAULT_CONTEXT_LINES:]
            faults.append(f"'{text}' during go ponder, before ponderhit or stop; sent before: {sent}")
            pondering = False
    return faults, ends.count("ponderhit"), ends.count("stop")


class Simulation:
    """Plays the games and gathers failures."""

    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.options = lichess_bot_options(guide_config(args.guide))
        self.failures = []
        self.ponder = [0, 0]  # hits, misses

    def check_default_block(self):
        """lichess-bot's default uci_options block: accepted as it is."""
        engine, _ = start_engine(self.args.engine, watch=False)
        engine.configure(LICHESS_BOT_DEFAULT_UCI_OPTIONS)
        code = close_engine(engine)
        assert code == 0, f"exit status {code}"

    def play_game(self, number, spec):
        """One game; returns a one-line summary. Raises AssertionError on a failure."""
        bot, transcript = start_engine(self.args.engine, watch=True)
        opponent, _ = start_engine(self.args.engine, watch=False)
        board = spec.board.copy()
        clocks = {spec.bot_color: spec.bot_base_ms / 1000, not spec.bot_color: BASE_MS / 1000}
        scores, low_clock, result, code = [], spec.bot_base_ms / 1000, None, None
        try:
            bot.configure(self.options | {"SearchMode": spec.mode})
            bot.send_opponent_information(
                opponent=chess.engine.Opponent(name="sim-opponent", title="BOT", rating=2000, is_engine=True),
                engine_rating=2000,
            )
            expected_reply = None
            while result is None:
                if board.turn == spec.bot_color:
                    move, expected_reply, score, clock_left = self.bot_move(bot, board, clocks, spec)
                    scores.append(score)
                    low_clock = min(low_clock, clock_left)
                    offer = draw_decision(scores, board)
                    board.push(move)
                    if offer:
                        result = "1/2-1/2 agreed"
                else:
                    move = self.opponent_move(opponent, board, clocks, expected_reply, spec.random_opponent)
                    board.push(move)
                    if clocks[not spec.bot_color] < 0:
                        result = "opponent flagged"
                outcome = board.outcome(claim_draw=True)
                if outcome and result is None:
                    result = f"{outcome.result()} {outcome.termination.name.lower()}"
                elif result is None and len(board.move_stack) >= MAX_PLIES:
                    result = "adjudicated"
            game_end = len(transcript.lines)
            code = close_engine(bot)
            opponent.quit()
            assert code == 0, f"exit status {code} after quit"
            faults, hits, misses = ponder_violations(transcript, game_end)
            assert not faults, "; ".join(faults)
        except (AssertionError, chess.engine.EngineError, TimeoutError) as error:
            path = FAILED_TRANSCRIPT.format(number)
            self.write_transcript(path, spec, transcript, board)
            raise AssertionError(f"{error} (UCI transcript: {path})") from error
        finally:
            bot.close()
            opponent.close()
            LOG.watched.pop(bot.protocol, None)
        self.ponder[0] += hits
        self.ponder[1] += misses
        if number == self.args.transcript_game and self.args.transcript:
            self.write_transcript(self.args.transcript, spec, transcript, board)
        return (
            f"{spec.variant} {spec.mode}, bot {'white' if spec.bot_color else 'black'} "
            f"{spec.bot_base_ms / 1000:g}+{INC_MS / 1000:g}: {result} "
            f"after {len(board.move_stack)} plies, last score {scores[-1].relative}; "
            f"lowest clock after a move {low_clock:.2f} s; ponder hits {hits}, misses {misses}"
        )

    def bot_move(self, bot, board, clocks, spec):
        """lichess-bot's play_move: the limit of move_time(), search(), the clock charged."""
        received = time.perf_counter()  # lichess-bot's setup_timer starts with the game state
        first = len(board.move_stack) < 2
        if first:
            limit, can_ponder = chess.engine.Limit(time=FIRST_MOVE_S, clock_id="first move"), False
            timeout = FIRST_MOVE_S + WATCHDOG_GRACE_S
        else:
            own = spec.bot_color
            overhead = time.perf_counter() - received + LICHESS_BOT_MOVE_OVERHEAD_MS / 1000
            times = dict(clocks)
            times[own] = max(0.001, times[own] - overhead)
            limit = chess.engine.Limit(
                white_clock=times[chess.WHITE],
                black_clock=times[chess.BLACK],
                white_inc=INC_MS / 1000,
                black_inc=INC_MS / 1000,
                clock_id="real time",
            )
            can_ponder, timeout = True, clocks[own] + WATCHDOG_GRACE_S
        # A copy, as lichess-bot builds a new board for every move: python-chess keeps the
        # board it was given, and one changed later by the game's moves would turn the closing
        # `isready` into a ponder hit that sends no `stop`.
        result = play_watched(
            bot, board.copy(), limit, timeout, info=chess.engine.INFO_ALL, ponder=can_ponder, draw_offered=False
        )
        used = time.perf_counter() - received + NETWORK_LAG_MS / 1000
        assert result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}"
        assert "score" in result.info, f"no score with {result.move} in {board.fen()}"
        if first:
            assert used <= FIRST_MOVE_ABORT_S, f"first move after {used:.2f} s, limit {FIRST_MOVE_ABORT_S} s"
            clock_left = clocks[spec.bot_color]
        else:
            clocks[spec.bot_color] -= used
            assert clocks[spec.bot_color] >= 0, (
                f"time forfeit at ply {len(board.move_stack)}: move {result.move} took {used:.3f} s "
                f"(with {NETWORK_LAG_MS} ms lag), clock left {clocks[spec.bot_color]:.3f} s, sent {limit}"
            )
            clock_left = clocks[spec.bot_color]
            clocks[spec.bot_color] += INC_MS / 1000
        return result.move, result.ponder, result.info["score"], clock_left

    def opponent_move(self, opponent, board, clocks, expected_reply, random_moves):
        """The opponent's move and its clock; the bot ponders meanwhile."""
        started = time.perf_counter()
        think = self.rng.uniform(*OPPONENT_THINK_S)
        draw = self.rng.random() if random_moves else 1.0
        legal = list(board.legal_moves)
        if draw < OPPONENT_PLAYS_PREDICTED and expected_reply in legal:
            time.sleep(think)
            move = expected_reply
        elif draw < OPPONENT_PLAYS_RANDOM:
            time.sleep(think)
            move = self.rng.choice(legal)
        else:
            move = opponent.play(board, chess.engine.Limit(time=think)).move
        if len(board.move_stack) >= 2:
            clocks[board.turn] -= time.perf_counter() - started
            clocks[board.turn] += INC_MS / 1000
        return move

    def write_transcript(self, path, spec, transcript, board):
        """The game's UCI lines, timed from the first, to path."""
        start = transcript.lines[0][0] if transcript.lines else 0
        with open(path, "w", encoding="utf-8") as out:
            out.write(f"# {spec.variant} {spec.mode}, Harrier as {'white' if spec.bot_color else 'black'}\n")
            out.write(f"# {board.root().fen()} {' '.join(m.uci() for m in board.move_stack)}\n")
            out.write("# seconds since start, << to the engine, >> from the engine\n")
            out.writelines(f"{t - start:8.3f} {direction} {text}\n" for t, direction, text in transcript.lines)

    def games(self):
        """The games to play, each variant lichess-bot is told to accept."""
        chess960 = chess.Board.from_chess960_pos(self.rng.randrange(960))
        return [
            GameSpec("standard", "AlphaBeta", chess.WHITE, chess.Board()),
            GameSpec("standard", "Bandwidth", chess.BLACK, chess.Board()),
            GameSpec("standard", "AlphaBeta", chess.BLACK, chess.Board()),
            GameSpec("standard", "Bandwidth", chess.WHITE, chess.Board()),
            GameSpec("chess960", "Bandwidth", chess.WHITE, chess960),
            GameSpec("fromPosition", "AlphaBeta", chess.BLACK, chess.Board(DRAWN_FEN), random_opponent=False),
            GameSpec("standard", "AlphaBeta", chess.WHITE, chess.Board(), bot_base_ms=LOW_BASE_MS),
            GameSpec("standard", "Bandwidth", chess.BLACK, chess.Board(), bot_base_ms=LOW_BASE_MS),
        ]

    def run(self):
        """Every check in turn; prints one line each and the tally. True if all passed."""
        passed = 0
        checks = [("lichess-bot's default uci_options", self.check_default_block)]
        for number, spec in enumerate(self.games(), 1):
            if self.args.game and number != self.args.game:
                continue
            checks.append((f"game {number}", lambda n=number, s=spec: self.play_game(n, s)))
        for name, check in checks:
            try:
                summary = check()
                print(f"ok   {name}" + (f": {summary}" if summary else ""), flush=True)
                passed += 1
            except (AssertionError, chess.engine.EngineError, TimeoutError) as error:
                print(f"FAIL {name}: {error}", flush=True)
                self.failures.append(name)
        for name, count in zip(("ponder hits", "ponder misses"), self.ponder):
            if count > 0:
                print(f"ok   {name} in all games: {count}")
                passed += 1
            else:
                print(f"FAIL no {name} in any game")
                self.failures.append(name)
        if LOG.complaints:
            print("FAIL python-chess complained:\n  " + "\n  ".join(LOG.complaints[:20]))
            self.failures.append("python-chess log")
        print(f"{passed} passed, {len(self.failures)} failed")
        return not self.failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="target/release/harrier")
    parser.add_argument("--guide", default="docs/lichess-bot.md", help="the page with the config.yml blocks")
    parser.add_argument("--transcript", help="write the UCI lines of one game here")
    parser.add_argument("--transcript-game", type=int, default=1, help="which game (from 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", type=int, help="play only this game (from 1)")
    args = parser.parse_args()
    engine_logger = logging.getLogger("chess.engine")
    engine_logger.setLevel(logging.DEBUG)
    engine_logger.addHandler(LOG)
    engine_logger.propagate = False
    sys.exit(0 if Simulation(args).run() else 1)


if __name__ == "__main__":
    main()
