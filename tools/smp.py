#!/usr/bin/env python3
"""Time to depth and nodes per second with 1 and N threads (Lazy SMP), through the real
binary: each bench position searched to a fixed depth from a cleared table.

usage: tools/smp.py [path/to/harrier] [depth] [threads]
"""

import re
import statistics
import subprocess
import sys
import time

engine = sys.argv[1] if len(sys.argv) > 1 else "target/release/harrier"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 14
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
# The bench positions that are not quick endings.
POSITIONS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
]


def run(thread_count):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send(f"setoption name Threads value {thread_count}")
    times, rates = [], []
    for fen in POSITIONS:
        send("ucinewgame")
        send("isready")
        while not proc.stdout.readline().startswith("readyok"):
            pass
        send(f"position fen {fen}")
        start = time.perf_counter()
        send(f"go depth {depth}")
        last = ""
        while True:
            line = proc.stdout.readline()
            if line.startswith("info depth"):
                last = line
            if line.startswith("bestmove"):
                break
        times.append(time.perf_counter() - start)
        rates.append(int(re.search(r" nps (\d+)", last).group(1)))
    send("quit")
    proc.wait()
    return times, rates


one_times, one_rates = run(1)
many_times, many_rates = run(threads)
print(f"depth {depth}, {len(POSITIONS)} positions")
for name, t, r in ((1, one_times, one_rates), (threads, many_times, many_rates)):
    print(f"threads {name}: total {sum(t):.2f} s, median nps {statistics.median(r):,.0f}")
speedups = [a / b for a, b in zip(one_times, many_times)]
print(f"time-to-depth speed-up: geometric mean {statistics.geometric_mean(speedups):.2f}")
