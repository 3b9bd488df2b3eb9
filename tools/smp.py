#!/usr/bin/env python3
"""Time to depth and nodes per second with 1 and N threads (Lazy SMP), through the real
binary: each position searched to a fixed depth from a cleared table.

usage: tools/smp.py [path/to/harrier] [depth] [threads] [hash MB]
"""

import re
import statistics
import sys
import time

sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
from uci_engine import Engine  # noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else "target/release/harrier"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 14
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
HASH_MB = int(sys.argv[4]) if len(sys.argv) > 4 else 16
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
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
]


def run(thread_count):
    engine = Engine(path)
    engine.set_options({"Threads": thread_count, "Hash": HASH_MB})
    times, rates = [], []
    for fen in POSITIONS:
        engine.send("ucinewgame")
        engine.is_ready()
        engine.position(fen)
        start = time.perf_counter()
        engine.send(f"go depth {depth}")
        lines = engine.lines_until("bestmove")
        times.append(time.perf_counter() - start)
        last = [line for line in lines if line.startswith("info depth")][-1]
        rates.append(int(re.search(r" nps (\d+)", last).group(1)))
    engine.quit()
    return times, rates


one_times, one_rates = run(1)
many_times, many_rates = run(threads)
print(f"depth {depth}, {len(POSITIONS)} positions")
for name, t, r in ((1, one_times, one_rates), (threads, many_times, many_rates)):
    print(f"threads {name}: total {sum(t):.2f} s, median nps {statistics.median(r):,.0f}")
speedups = [a / b for a, b in zip(one_times, many_times)]
print(f"time-to-depth speed-up: geometric mean {statistics.geometric_mean(speedups):.2f}")
