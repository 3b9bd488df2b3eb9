"""A UCI engine driven line by line, for the tools that time the protocol or send what
python-chess would not (tools/latency.py, memory.py, reuse.py, smp.py, stress.py); games
go through python-chess (tools/games.py).

Lines are read in the calling thread, straight from the pipe (with select() where a read
has a timeout): a timed answer is timed to the moment it is read, with no hand-over
between threads. The engine's output is only drained while the caller reads, so a
caller that idles through a long search should idle with `read_for`. POSIX only;
`peak_rss_mb` reads /proc and so needs Linux.

    engine = Engine("target/release/harrier")
    engine.handshake()                      # uci ... uciok
    engine.set_options({"Hash": 16})
    engine.is_ready()                       # isready ... readyok
    engine.position(fen, ["e2e4"])          # position fen ... moves e2e4
    engine.send("go depth 8")
    lines = engine.lines_until("bestmove")  # every line up to and with the bestmove
    status = engine.quit()                  # the exit status

Reads raise EngineExited when the engine's output ends and EngineTimeout when a timeout
passes first; both are EngineError, as is a write to an engine that has exited.
"""

import os
import select
import subprocess
import time

# Seconds to wait for `uciok` and `readyok` by default: they come in milliseconds, but
# `readyok` after a large `Hash` follows the table's allocation.
ANSWER_TIMEOUT = 60.0
QUIT_TIMEOUT = 10.0


class EngineError(Exception):
    pass


class EngineExited(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class Engine:
    """One engine process. `command` is a path or an argument list; `stderr` is passed to
    subprocess (None: the tool's own). With `transcript=True` every line sent ("> ...") and
    read ("< ...") is kept in `transcript`."""

    def __init__(self, command, stderr=None, transcript=False):
        argv = [command] if isinstance(command, (str, os.PathLike)) else list(command)
        # Unbuffered: select() sees only what is in the pipe, not what a buffer has taken.
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, bufsize=0
        )
        self.pid = self.process.pid
        self.transcript = [] if transcript else None
        self._out = self.process.stdout.fileno()
        self._pending = b""
        self._ended = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    # ------------------------------------------------------------------ lines

    def send(self, line):
        if self.transcript is not None:
            self.transcript.append("> " + line)
        data = (line + "\n").encode()
        try:
            while data:  # an unbuffered write may take part of a long line
                data = data[self.process.stdin.write(data):]
        except (BrokenPipeError, ValueError) as error:  # ValueError: stdin already closed
            raise EngineExited(f"the engine exited (sending {line!r})") from error

    def read_line(self, timeout=None):
        """The next line without its line end; waits at most `timeout` seconds (None: for
        ever)."""
        end = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._pending:
            if self._ended:
                raise EngineExited("the engine exited")
            # Without a timeout, no select(): a timed answer is read a system call sooner.
            if end is not None and not select.select([self._out], [], [], max(end - time.monotonic(), 0))[0]:
                raise EngineTimeout(f"no line within {timeout:g} s")
            chunk = os.read(self._out, 65536)
            self._ended = not chunk
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        text = line.decode(errors="replace").rstrip("\r")
        if self.transcript is not None:
            self.transcript.append("< " + text)
        return text

    def lines_until(self, prefix, timeout=None):
        """The lines read up to and with the first that starts with `prefix`, all within
        `timeout` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        seen = []
        while True:
            left = None if end is None else max(end - time.monotonic(), 0)
            try:
                seen.append(self.read_line(left))
            except EngineTimeout:
                raise EngineTimeout(f"no {prefix} within {timeout:g} s") from None
            except EngineExited:
                raise EngineExited(f"the engine exited before {prefix}") from None
            if seen[-1].startswith(prefix):
                return seen

    def wait_for(self, prefix, timeout=None):
        """The first line that starts with `prefix`; the lines before it are dropped."""
        return self.lines_until(prefix, timeout)[-1]

    def read_for(self, seconds):
        """The lines that come within `seconds`; the wait lasts that long unless the engine
        exits (EngineExited)."""
        end = time.monotonic() + seconds
        seen = []
        while (left := end - time.monotonic()) > 0:
            try:
                seen.append(self.read_line(left))
            except EngineTimeout:
                break
        return seen

    # ------------------------------------------------------------------ commands

    def handshake(self, timeout=ANSWER_TIMEOUT):
        """`uci` up to `uciok`; returns the lines (the `id` and `option` lines among them)."""
        self.send("uci")
        return self.lines_until("uciok", timeout)

    def set_option(self, name, value):
        self.send(f"setoption name {name} value {value}")

    def set_options(self, options):
        """Sets each option of a dict or of (name, value) pairs, in order."""
        for name, value in options.items() if isinstance(options, dict) else options:
            self.set_option(name, value)

    def is_ready(self, timeout=ANSWER_TIMEOUT):
        self.send("isready")
        self.wait_for("readyok", timeout)

    def position(self, fen=None, moves=()):
        """`position startpos` (fen None) or `position fen ...`, with `moves` (UCI texts)."""
        line = f"position fen {fen}" if fen else "position startpos"
        self.send(line + (" moves " + " ".join(moves) if moves else ""))

    def quit(self, timeout=QUIT_TIMEOUT):
        """Sends `quit` and returns the exit status; an engine still running `timeout`
        seconds later is killed (EngineTimeout)."""
        try:
            self.send("quit")
        except EngineExited:
            pass  # gone already: its status says how
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise EngineTimeout(f"still running {timeout:g} s after quit") from None
        self._close_pipes()
        return status

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close_pipes()

    def _close_pipes(self):
        self.process.stdin.close()
        self.process.stdout.close()

    # ------------------------------------------------------------------ /proc (Linux)

    def peak_rss_mb(self):
        """The peak resident set so far (VmHWM of /proc/<pid>/status), in MB of 2^20 bytes."""
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        raise EngineError("no VmHWM in /proc/<pid>/status (not Linux?)")
