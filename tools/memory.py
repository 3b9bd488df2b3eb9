#!/usr/bin/env python3
"""Measures Harrier's resident memory under load and how fast `quit` ends a search.

For each search mode, `Hash` and `Threads` asked for, a fresh engine searches a middlegame
position for --seconds with `go infinite`; the peak resident set (VmHWM in
/proc/<pid>/status, Linux only) is read before `stop` and compared with the bound of
docs/measurements.md: `Hash` + 32 MB + 3 MB a helper thread in alpha-beta and minimax
modes, `Hash` + 32 MB in bandwidth mode (one thread; its tree is held within `Hash`).
Then the same engine is given a `Hash` twice the size and a `ucinewgame`, searches again,
and `quit` is sent mid-search: the time until the process has exited is printed.

usage: tools/memory.py [path/to/harrier] [--hash 16,256] [--threads 1,8] [--seconds 10]
Exit status 1 if a peak is above its bound or a `quit` took more than a second.
"""

import argparse
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
from uci_engine import Engine  # noqa: E402

MODES = {
    "AlphaBeta": [],
    "Hybrid": [("SearchMode", "Bandwidth")],
    "Harris": [("SearchMode", "Bandwidth"), ("BandwidthStyle", "Harris")],
    "Minimax": [("SearchMode", "Minimax")],
}
BASE_MB = 32
PER_HELPER_MB = 3
QUIT_LIMIT_S = 1.0
FEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9"


def numbers(text):
    return [int(word) for word in text.split(",")]


def measure(path, mode, hash_mb, threads, seconds):
    with Engine(path, stderr=subprocess.DEVNULL) as engine:
        engine.handshake()
        engine.set_options(MODES[mode] + [("Hash", hash_mb), ("Threads", threads)])
        engine.is_ready()
        engine.position(FEN)
        engine.send("go infinite")
        time.sleep(seconds)
        peak = engine.peak_rss_mb()
        engine.send("stop")
        engine.wait_for("bestmove")
        engine.set_option("Hash", hash_mb * 2)
        engine.send("ucinewgame")
        engine.is_ready()
        engine.position(FEN)
        engine.send("go infinite")
        time.sleep(min(seconds, 2))
        started = time.monotonic()
        engine.quit(timeout=30)
        return peak, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", nargs="?", default="target/release/harrier")
    parser.add_argument("--hash", type=numbers, default=[16, 256])
    parser.add_argument("--threads", type=numbers, default=[1, 8])
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    print(f"{'mode':<10} {'Hash':>5} {'Threads':>7} {'peak MB':>8} {'bound MB':>8} {'quit ms':>8}")
    failed = False
    for mode in MODES:
        for hash_mb in args.hash:
            for threads in args.threads:
                helpers = threads - 1 if mode in ("AlphaBeta", "Minimax") else 0
                bound = hash_mb + BASE_MB + PER_HELPER_MB * helpers
                peak, quit_s = measure(args.engine, mode, hash_mb, threads, args.seconds)
                bad = peak > bound or quit_s > QUIT_LIMIT_S
                failed |= bad
                flag = "  over" if bad else ""
                print(f"{mode:<10} {hash_mb:>5} {threads:>7} {peak:>8.1f} {bound:>8} {quit_s * 1000:>8.0f}{flag}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
