#!/usr/bin/env python3
"""Plays games between two UCI engines through python-chess and counts what goes wrong.

The project's own match runner for stress and calibration runs (`make stress`,
tools/calibrate_levels.py); measured matches against other engines are played with
cutechess-cli or fastchess (docs/matches.md).

Every game starts both engines afresh, so a broken engine spoils one game, not the match.
The runner keeps each side's clock (`--tc base+inc`, seconds, sudden death) from the wall
time each move takes: from the moment the opponent's move is known (on a side's first
move, from its `go`, after python-chess's `ucinewgame`/`isready`) to the arrival of its
`bestmove`. With `--ponder1`/`--ponder2` a side ponders as lichess-bot drives an engine
through python-chess: after its move it gets `go ponder` on the reply it expects, then
`ponderhit` if that reply is played and `stop` if not; the clock does not run while it
ponders. Openings come from an EPD or FEN file, one position a line, each played twice
with colours swapped (shuffled by `--seed`); without a file each pair starts from
`--random-plies` random moves from the initial position.

Faults, charged to the engine that made them; each but the last two loses the game:
  time     the move came more than --margin-ms (default 100 ms) after its clock ran out
           (a move within the margin leaves the clock at 0)
  illegal  a bestmove that is not a legal move (or "(none)" with legal moves left)
  crash    the engine failed to start or died; also, without changing the result, an
           exit status other than 0 after `quit`
  hang     no move within the side's clock plus --hang-s (default 5 s; twice that on a
           side's first move): the process is killed; also, without changing the result,
           not exiting within 10 s of `quit`
  ponder   a bestmove during `go ponder` before `ponderhit` or `stop` (python-chess
           drops it in silence; a bestmove after `quit` is allowed)
A game still running after --game-timeout seconds (default: a generous bound from the
time control) is aborted, both engines killed, and counted apart, not scored.

Adjudication, off unless asked for, ends a game whose result the engines agree on, as
OpenBench and cutechess-cli do (the scores are those of each side's own `bestmove`):
  --resign MOVES,CP       a side loses once, for MOVES moves in a row each, it scores
                          -CP or worse and its opponent +CP or better
  --draw START,MOVES,CP   a draw from move START once both sides have scored within CP
                          of 0 for MOVES moves in a row each

Elo: the logistic model, Elo = -400 log10(1/s - 1) for the mean score s of engine1. The
95 % interval is s +/- 1.96 sd/sqrt(n) mapped through the same curve, where the samples
are the colour-swapped game pairs (pentanomial) when every scored game has its partner,
else the single games (trinomial).

usage: tools/games.py --engine1 CMD [--name1 N] [--opt1 NAME=VALUE ...] [--ponder1]
                      --engine2 CMD [--name2 N] [--opt2 NAME=VALUE ...] [--ponder2]
                      [--tc 10+0.1] [--games 2] [--openings FILE | --random-plies 6]
                      [--concurrency 1] [--seed 1] [--margin-ms 100] [--hang-s 5]
                      [--game-timeout S] [--resign MOVES,CP] [--draw START,MOVES,CP]
                      [--json FILE] [-v]
example: tools/games.py --engine1 target/release/harrier --opt1 SearchMode=Bandwidth \\
             --engine2 target/release/harrier --tc 5+0.05 --ponder1 --ponder2 --games 20
Prints a line per game, then the score, Elo and fault counts. Exit status 1 if any
fault happened or a game was aborted. Needs python-chess (pip install chess).
"""

import argparse
import concurrent.futures
import dataclasses
import json
import logging
import math
import random
import shlex
import subprocess
import threading
import time

import chess
import chess.engine

FAULTS = ("time", "illegal", "crash", "hang", "ponder")
QUIT_WAIT = 10.0


class Watched(chess.engine.UciProtocol):
    """python-chess's UCI protocol, noting when a move is asked for and answered, and the
    bestmoves sent while pondering, which python-chess itself ignores."""

    def __init__(self):
        super().__init__()
        self.pondering = False  # `go ponder` sent, no `ponderhit`, `stop` or `quit` since
        self.early_bestmoves = 0
        self.hits = self.misses = 0
        self.asked_at = 0.0  # the last `go` (not ponder) or `ponderhit`
        self.answered_at = 0.0  # the last bestmove that was not early

    def send_line(self, line):
        word = line.split(" ", 1)[0]
        if word == "go":
            self.pondering = line.startswith("go ponder")
            if not self.pondering:
                self.asked_at = time.monotonic()
        elif word in ("ponderhit", "stop", "quit") and self.pondering:
            self.pondering = False
            self.hits += word == "ponderhit"
            self.misses += word == "stop"
            if word == "ponderhit":
                self.asked_at = time.monotonic()
        super().send_line(line)

    def line_received(self, line):
        if line.split(" ", 1)[0] == "bestmove":
            if self.pondering:
                self.pondering = False
                self.early_bestmoves += 1
            else:
                self.answered_at = time.monotonic()
        super().line_received(line)


@dataclasses.dataclass
class Player:
    """How to start and set up one engine."""

    name: str
    command: list
    options: dict
    ponder: bool = False

    def start(self):
        engine = chess.engine.SimpleEngine.popen(
            Watched, self.command, timeout=QUIT_WAIT, setpgrp=True, stderr=subprocess.DEVNULL
        )
        try:
            # Values of the options' own types: python-chess compares them with what it
            # set before each move, and a text "16" against the number 16 would count
            # as a change of options and so turn every ponder hit into a miss.
            declared = engine.options
            engine.configure({k: declared[k].parse(v) if k in declared else v for k, v in self.options.items()})
        except BaseException:
            engine.close()
            raise
        return engine


@dataclasses.dataclass
class TimeControl:
    base: float
    inc: float

    @staticmethod
    def parse(text):
        base, _, inc = text.partition("+")
        return TimeControl(float(base), float(inc or 0))

    def __str__(self):
        return f"{self.base:g}+{self.inc:g}"


@dataclasses.dataclass
class Settings:
    tc: TimeControl
    margin: float = 0.1  # seconds a move may come after its clock ran out
    hang: float = 5.0  # seconds beyond the clock before a silent engine is killed
    game_timeout: float = 0.0  # 0: from the time control
    resign: tuple = None  # (moves, cp): adjudicate a loss both sides agree on; None: off
    draw: tuple = None  # (from move, moves, cp): adjudicate a draw; None: off


@dataclasses.dataclass
class GameResult:
    number: int  # from 0; games 2k and 2k + 1 share an opening
    white: int  # index of the player with White
    result: str  # "1-0", "0-1", "1/2-1/2", or "*" if aborted
    reason: str
    plies: int
    opening: str
    faults: list = dataclasses.field(default_factory=list)  # (player, fault, text)
    ponder: list = dataclasses.field(default_factory=lambda: [[0, 0], [0, 0]])  # hits, misses per player
    seconds: list = dataclasses.field(default_factory=lambda: [0.0, 0.0])  # clock time used per player

    def points(self, player):
        """Points of `player` (0 or 1); None if the game was aborted."""
        if self.result == "*":
            return None
        if self.result == "1/2-1/2":
            return 0.5
        return float((self.result == "1-0") == (self.white == player))


class Game:
    """One game between fresh processes of the two players, on the runner's clocks."""

    def __init__(self, number, opening, players, settings, stop):
        self.number, self.players, self.settings, self.stop = number, players, settings, stop
        self.board = opening.copy()
        self.book_plies = len(opening.move_stack)
        self.white = number % 2
        self.index = {chess.WHITE: self.white, chess.BLACK: 1 - self.white}
        self.clocks = {colour: settings.tc.base for colour in chess.COLORS}
        self.moved = {colour: 0 for colour in chess.COLORS}
        self.engines = {}
        self.killed = set()
        # Each side's own moves in a row with a score of at most -cp, at least +cp, and
        # within the draw's cp of 0 (the adjudication rules' counts).
        self.losing = {colour: 0 for colour in chess.COLORS}
        self.winning = {colour: 0 for colour in chess.COLORS}
        self.level = {colour: 0 for colour in chess.COLORS}
        self.aborted = threading.Event()
        self.result = GameResult(number, self.white, "*", "", 0, opening.fen())

    def run(self):
        tc = self.settings.tc
        timeout = self.settings.game_timeout or 60 + 4 * (tc.base + 200 * tc.inc + 100 * self.settings.margin)
        timer = threading.Timer(timeout, self.abort)
        timer.start()
        try:
            for colour in chess.COLORS:
                try:
                    self.engines[colour] = self.players[self.index[colour]].start()
                except (OSError, TimeoutError, chess.engine.EngineError) as error:
                    return self.lose(colour, "crash", f"fails to start ({error})")
            while not self.stop.is_set():
                if self.rules() or self.move() or self.adjudicate():
                    return self.result
            return None
        finally:
            timer.cancel()
            for colour, engine in self.engines.items():
                self.close(colour, engine)
            if self.aborted.is_set():
                self.result.result, self.result.reason = "*", f"aborted after the game timeout of {timeout:.0f} s"

    def abort(self):
        self.aborted.set()
        for colour, engine in list(self.engines.items()):
            self.killed.add(colour)
            engine.close()

    def rules(self):
        """Ends the game if the rules do (a threefold repetition and the fifty-move rule
        as if claimed)."""
        outcome = self.board.outcome()
        if outcome:
            return self.finish(outcome.result(), outcome.termination.name.lower().replace("_", " "))
        if self.board.is_repetition(3):
            return self.finish("1/2-1/2", "threefold repetition")
        if self.board.halfmove_clock >= 100:
            return self.finish("1/2-1/2", "fifty-move rule")
        return None

    def move(self):
        """Lets the side to move play; returns the result if that ended the game."""
        side, settings = self.board.turn, self.settings
        engine, player = self.engines[side], self.players[self.index[side]]
        first = self.moved[side] == 0
        clock = self.clocks[side]
        limit = chess.engine.Limit(
            white_clock=self.clocks[chess.WHITE],
            black_clock=self.clocks[chess.BLACK],
            white_inc=settings.tc.inc,
            black_inc=settings.tc.inc,
        )
        allowed = clock + settings.hang * (2 if first else 1)
        watchdog = threading.Timer(allowed, self.kill, (side,))
        called = time.monotonic()
        watchdog.start()
        error, played = None, None
        try:
            played = engine.play(self.board, limit, game=self, ponder=player.ponder, info=chess.engine.INFO_SCORE)
        except (chess.engine.EngineError, TimeoutError, concurrent.futures.CancelledError) as caught:
            error = caught  # a killed engine's play() is cancelled
        finally:
            watchdog.cancel()
        watch = engine.protocol
        start = watch.asked_at if first and watch.asked_at >= called else called
        end = watch.answered_at if watch.answered_at >= start else time.monotonic()
        if self.aborted.is_set():
            return self.result
        if side in self.killed:
            return self.lose(side, "hang", f"no move in {allowed:.1f} s: killed")
        for colour, other in self.engines.items():
            if other.protocol.early_bestmoves:
                return self.lose(colour, "ponder", "bestmove during go ponder before ponderhit or stop")
        if isinstance(error, chess.engine.EngineTerminatedError):
            return self.lose(side, "crash", f"died ({error})")
        if error is not None:
            return self.lose(side, "illegal", f"illegal move ({error})")
        if played.move is None or played.move not in self.board.legal_moves:
            return self.lose(side, "illegal", f"illegal move {played.move} in {self.board.fen()}")
        elapsed = end - start
        self.result.seconds[self.index[side]] += elapsed
        self.clocks[side] -= elapsed
        if self.clocks[side] < -settings.margin:
            return self.lose(side, "time", f"lost on time ({elapsed:.3f} s on a clock of {clock:.3f} s)")
        self.clocks[side] = max(self.clocks[side], 0.0) + settings.tc.inc
        self.moved[side] += 1
        self.board.push(played.move)
        self.note_score(side, played.info.get("score"))
        return None

    def note_score(self, side, score):
        """Counts `side`'s score (its own point of view; None when it sent none) towards
        the adjudication rules."""
        cp = score.pov(side).score(mate_score=100_000) if score is not None else None
        if self.settings.resign:
            bar = self.settings.resign[1]
            self.losing[side] = self.losing[side] + 1 if cp is not None and cp <= -bar else 0
            self.winning[side] = self.winning[side] + 1 if cp is not None and cp >= bar else 0
        if self.settings.draw:
            bar = self.settings.draw[2]
            self.level[side] = self.level[side] + 1 if cp is not None and abs(cp) <= bar else 0

    def adjudicate(self):
        """Ends the game if an adjudication rule asked for applies."""
        resign, draw = self.settings.resign, self.settings.draw
        if resign:
            for colour in chess.COLORS:
                if self.losing[colour] >= resign[0] and self.winning[not colour] >= resign[0]:
                    winner = "0-1" if colour == chess.WHITE else "1-0"
                    return self.finish(winner, f"adjudicated: {chess.COLOR_NAMES[colour]} is lost")
        if draw and self.board.fullmove_number >= draw[0] and min(self.level.values()) >= draw[1]:
            return self.finish("1/2-1/2", "adjudicated: a draw")
        return None

    def kill(self, colour):
        self.killed.add(colour)
        self.engines[colour].close()

    def close(self, colour, engine):
        """Quits an engine; a crash or hang at quit is a fault that leaves the result."""
        index = self.index[colour]
        watch = engine.protocol
        self.result.ponder[index] = [watch.hits, watch.misses]
        if colour in self.killed:
            return
        name = self.players[index].name
        try:
            engine.quit()
            status = watch.returncode.result()
            if status != 0:
                self.result.faults.append((index, "crash", f"{name} exit status {status} after quit"))
        except TimeoutError:
            self.result.faults.append((index, "hang", f"{name} still running {QUIT_WAIT:g} s after quit"))
        except chess.engine.EngineError:
            pass  # died earlier: charged where it was seen
        finally:
            engine.close()

    def lose(self, colour, fault, text):
        index = self.index[colour]
        self.result.faults.insert(0, (index, fault, f"{self.players[index].name} {text}"))
        return self.finish("0-1" if colour == chess.WHITE else "1-0", self.result.faults[0][2])

    def finish(self, result, reason):
        self.result.result, self.result.reason = result, reason
        self.result.plies = len(self.board.move_stack) - self.book_plies
        return self.result


def opening_lines(path):
    """The (line number, text) of every position of an EPD or FEN file, one a line; '#'
    starts a comment line."""
    lines = []
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            lines.append((number, line))
    if not lines:
        raise SystemExit(f"{path}: no positions")
    return lines


def parse_opening(path, number, line):
    """The position of line `number` of `path`, an EPD record or a FEN."""
    fields = line.split()
    try:
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
            return chess.Board(" ".join(fields[:6]))
        return chess.Board.from_epd(line)[0]
    except ValueError as error:
        raise SystemExit(f"{path}:{number}: {error}")


def load_openings(path):
    """Positions of an EPD or FEN file, one a line; '#' starts a comment line."""
    return [parse_opening(path, number, line) for number, line in opening_lines(path)]


def random_opening(rng, plies):
    while True:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            return board


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0.0"


def elo_interval(samples):
    """(Elo, half-width of its 95 % interval) of the mean of `samples` (scores 0..1)."""
    n = len(samples)
    if n == 0:
        return 0.0, math.inf
    mean = sum(samples) / n
    if n == 1:
        return elo(mean), math.inf
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / n)
    low, high = mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)
    return elo(mean), (elo(high) - elo(low)) / 2 if 0 < low and high < 1 else math.inf


class Match:
    """The results so far, from player 0's (engine1's) view."""

    def __init__(self, players, settings):
        self.players, self.settings = players, settings
        self.results = []

    def scored(self):
        return [r for r in self.results if r.result != "*"]

    def wdl(self):
        points = [r.points(0) for r in self.scored()]
        return points.count(1.0), points.count(0.5), points.count(0.0)

    def elo(self):
        """(Elo, error, model) of player 0 against player 1."""
        by_pair = {}
        for r in self.scored():
            by_pair.setdefault(r.number // 2, []).append(r.points(0))
        if by_pair and all(len(p) == 2 for p in by_pair.values()):
            value, error = elo_interval([sum(p) / 2 for p in by_pair.values()])
            return value, error, f"pentanomial, {len(by_pair)} pairs"
        value, error = elo_interval([r.points(0) for r in self.scored()])
        return value, error, f"trinomial, {len(self.scored())} games"

    def faults(self):
        counts = [dict.fromkeys(FAULTS, 0) for _ in self.players]
        for r in self.results:
            for index, fault, _ in r.faults:
                counts[index][fault] += 1
        return counts

    def aborted(self):
        return sum(r.result == "*" for r in self.results)

    def failed(self):
        return self.aborted() > 0 or any(sum(c.values()) for c in self.faults())

    def line(self, r):
        names = [p.name for p in self.players]
        w, d, l = self.wdl()
        notes = "".join(f"; {text}" for _, _, text in r.faults if text != r.reason)
        return (
            f"game {r.number + 1:>3}: {names[r.white]} - {names[1 - r.white]} {r.result:>7} "
            f"({r.reason}{notes}, {r.plies} plies) | +{w} ={d} -{l}"
        )

    def summary(self):
        names = [p.name for p in self.players]
        w, d, l = self.wdl()
        n = w + d + l
        value, error, model = self.elo()
        width = max(len(name) for name in names)
        lines = [
            f"{names[0]} vs {names[1]} at {self.settings.tc}: +{w} ={d} -{l}, "
            f"score {(w + d / 2) / max(n, 1):.3f} in {n} games, {self.aborted()} aborted",
            f"Elo {value:+.1f} +/- {error:.1f} (95 %, logistic, {model})",
            f"{'faults':<{width}}  " + " ".join(f"{f:>7}" for f in FAULTS) + "  ponder hits/misses",
        ]
        counts = self.faults()
        for index, name in enumerate(names):
            hits = sum(r.ponder[index][0] for r in self.results)
            misses = sum(r.ponder[index][1] for r in self.results)
            row = " ".join(f"{counts[index][f]:>7}" for f in FAULTS)
            lines.append(f"{name:<{width}}  {row}  {hits}/{misses}")
        return lines

    def to_json(self):
        value, error, model = self.elo()
        w, d, l = self.wdl()
        return {
            "players": [dataclasses.asdict(p) for p in self.players],
            "tc": str(self.settings.tc),
            "margin_ms": round(self.settings.margin * 1000),
            "wins": w,
            "draws": d,
            "losses": l,
            "aborted": self.aborted(),
            "elo": None if math.isinf(value) else round(value, 1),
            "error": None if math.isinf(error) else round(error, 1),
            "model": model,
            "faults": [dict(name=p.name, **counts) for p, counts in zip(self.players, self.faults())],
            "games": [dataclasses.asdict(r) for r in sorted(self.results, key=lambda r: r.number)],
        }


def run_match(players, settings, games, openings=None, random_plies=6, concurrency=1, seed=1, report=None):
    """Plays `games` games (pairs of openings, colours swapped) and returns the Match.
    `report(match, result)` is called as each game ends (default: print its line).
    Ctrl-C stops the match after the games under way."""
    report = report or (lambda match, result: print(match.line(result), flush=True))
    rng = random.Random(seed)
    if openings:
        openings = list(openings)
        rng.shuffle(openings)
        starts = [openings[pair % len(openings)] for pair in range((games + 1) // 2)]
    else:
        starts = [random_opening(rng, random_plies) for _ in range((games + 1) // 2)]
    match, stop, lock = Match(players, settings), threading.Event(), threading.Lock()

    def play(number):
        if stop.is_set():
            return
        result = Game(number, starts[number // 2], players, settings, stop).run()
        if result is None:  # stopped by Ctrl-C
            return
        with lock:
            match.results.append(result)
            report(match, result)

    with concurrent.futures.ThreadPoolExecutor(max(1, concurrency)) as pool:
        futures = [pool.submit(play, number) for number in range(games)]
        try:
            for future in futures:
                future.result()
        except KeyboardInterrupt:
            stop.set()
            print("stopping: the games under way finish first", flush=True)
            for future in futures:
                future.cancel()
    return match


def int_tuple(count):
    """An argparse type: `count` integers separated by commas, as a tuple."""

    def parse(text):
        parts = text.split(",")
        if len(parts) != count:
            raise argparse.ArgumentTypeError(f"{text!r}: expected {count} integers separated by commas")
        try:
            return tuple(int(part) for part in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r}: expected integers") from None

    return parse


def parse_options(pairs):
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"option {pair!r}: expected NAME=VALUE")
        options[name.strip()] = value
    return options


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for i in (1, 2):
        parser.add_argument(f"--engine{i}", required=True, help="command line of the engine")
        parser.add_argument(f"--name{i}", help="name in the output (default: the command)")
        parser.add_argument(f"--opt{i}", action="append", default=[], metavar="NAME=VALUE")
        parser.add_argument(f"--ponder{i}", action="store_true", help="ponder as lichess-bot does")
    parser.add_argument("--tc", default="10+0.1", help="base+increment in seconds")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--openings", help="EPD or FEN file, one position a line")
    parser.add_argument("--random-plies", type=int, default=6, help="without --openings")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--margin-ms", type=float, default=100)
    parser.add_argument("--hang-s", type=float, default=5)
    parser.add_argument("--game-timeout", type=float, default=0, help="seconds (default: from --tc)")
    parser.add_argument("--resign", type=int_tuple(2), metavar="MOVES,CP", help="adjudicate lost games (off)")
    parser.add_argument("--draw", type=int_tuple(3), metavar="START,MOVES,CP", help="adjudicate draws (off)")
    parser.add_argument("--json", help="write the summary and every game's record here")
    parser.add_argument("-v", "--verbose", action="store_true", help="show python-chess's log")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.CRITICAL)

    players = []
    for i in (1, 2):
        command = shlex.split(getattr(args, f"engine{i}"))
        name = getattr(args, f"name{i}") or command[0].rsplit("/", 1)[-1]
        players.append(Player(name, command, parse_options(getattr(args, f"opt{i}")), getattr(args, f"ponder{i}")))
    if players[0].name == players[1].name:
        players[1].name += "-2"
    settings = Settings(
        TimeControl.parse(args.tc), args.margin_ms / 1000, args.hang_s, args.game_timeout, args.resign, args.draw
    )
    openings = load_openings(args.openings) if args.openings else None
    match = run_match(players, settings, args.games, openings, args.random_plies, args.concurrency, args.seed)
    for line in match.summary():
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(match.to_json(), out, indent=1)
    raise SystemExit(1 if match.failed() else 0)


if __name__ == "__main__":
    main()
