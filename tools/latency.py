#!/usr/bin/env python3
"""Measures how fast Harrier answers through the real binary: `stop` (with bestmove) and
`isready` (with readyok) during a search, median and worst over TRIALS searches; then
`go depth 1` to `bestmove` over GOS commands, median, mean and 99th percentile. Each time
runs from the command's write to the answer's read, in one thread (tools/uci_engine.py).

usage: tools/latency.py [path/to/harrier] [trials] [gos]
"""

import statistics
import sys
import time

sys.dont_write_bytecode = True  # no tools/__pycache__ in the work tree
from uci_engine import Engine, EngineError  # noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else "target/release/harrier"
trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
gos = int(sys.argv[3]) if len(sys.argv) > 3 else 1000


def timed(engine, command, answer):
    """Milliseconds from sending `command` to reading the line that starts with `answer`."""
    t = time.perf_counter()
    engine.send(command)
    engine.wait_for(answer)
    return (time.perf_counter() - t) * 1000


def main():
    engine = Engine(path)
    engine.handshake()
    stop_ms, ready_ms = [], []
    for i in range(trials):
        if i % 2:
            engine.position(None, ["e2e4", "e7e5", "g1f3"])
        else:
            engine.position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        engine.send("go infinite")
        # Slept through, not read: the published figures were timed with the search's output
        # queued meanwhile and read within the timed wait.
        time.sleep(0.3)
        ready_ms.append(timed(engine, "isready", "readyok"))
        time.sleep(0.2)
        stop_ms.append(timed(engine, "stop", "bestmove"))
    for name, values in (("stop -> bestmove", stop_ms), ("isready -> readyok", ready_ms)):
        print(f"{name}: median {statistics.median(values):.2f} ms, max {max(values):.2f} ms over {len(values)} searches")

    engine.position(None, ["e2e4"])
    go_ms = sorted(timed(engine, "go depth 1", "bestmove") for _ in range(gos))
    p99 = go_ms[min(len(go_ms) - 1, int(len(go_ms) * 0.99))]
    print(
        f"go depth 1 -> bestmove: median {statistics.median(go_ms):.3f} ms, "
        f"mean {statistics.mean(go_ms):.3f} ms, p99 {p99:.3f} ms over {len(go_ms)} commands"
    )
    engine.quit(timeout=5)


if __name__ == "__main__":
    try:
        main()
    except EngineError as error:
        sys.exit(str(error))
