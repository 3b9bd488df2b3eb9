#!/usr/bin/env python3
"""Measures how fast Harrier answers through the real binary: `stop` (with bestmove) and
`isready` (with readyok) during a search, median and worst over TRIALS searches; then
`go depth 1` to `bestmove` over GOS commands, median, mean and 99th percentile.

usage: tools/latency.py [path/to/harrier] [trials] [gos]
"""

import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/harrier"
trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
gos = int(sys.argv[3]) if len(sys.argv) > 3 else 1000

proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def wait_for(prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("engine exited")
        if line.startswith(prefix):
            return line


send("uci")
wait_for("uciok")
stop_ms, ready_ms = [], []
for i in range(trials):
    send("position startpos moves e2e4 e7e5 g1f3" if i % 2 else "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    send("go infinite")
    time.sleep(0.3)
    t = time.perf_counter()
    send("isready")
    wait_for("readyok")
    ready_ms.append((time.perf_counter() - t) * 1000)
    time.sleep(0.2)
    t = time.perf_counter()
    send("stop")
    wait_for("bestmove")
    stop_ms.append((time.perf_counter() - t) * 1000)
for name, values in (("stop -> bestmove", stop_ms), ("isready -> readyok", ready_ms)):
    print(f"{name}: median {statistics.median(values):.2f} ms, max {max(values):.2f} ms over {len(values)} searches")

go_ms = []
send("position startpos moves e2e4")
for _ in range(gos):
    t = time.perf_counter()
    send("go depth 1")
    wait_for("bestmove")
    go_ms.append((time.perf_counter() - t) * 1000)
go_ms.sort()
p99 = go_ms[min(len(go_ms) - 1, int(len(go_ms) * 0.99))]
print(
    f"go depth 1 -> bestmove: median {statistics.median(go_ms):.3f} ms, "
    f"mean {statistics.mean(go_ms):.3f} ms, p99 {p99:.3f} ms over {len(go_ms)} commands"
)
send("quit")
proc.wait(timeout=5)
