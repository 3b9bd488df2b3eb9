//! The engine's threads and its end, through the real binary: one search thread for the
//! life of the process, `quit` during a search or idle thinking in either mode, and a GUI
//! that closes its end of the output.

use std::io::Write;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::*;

#[test]
fn one_search_thread_serves_every_go_in_both_modes() {
    let mut e = Harrier::spawn();
    e.ready();
    let pid = e.child.id();
    let before = thread_count(pid);
    let pos = position(None, &[]);
    for round in 0..20 {
        if round == 10 {
            // Switching searchers replaces the worker's searcher, not the worker.
            e.send("setoption name SearchMode value Bandwidth");
            e.send("setoption name AlwaysThink value false");
            e.ready();
        }
        e.send("position startpos");
        e.send("go infinite");
        e.ready();
        assert_eq!(thread_count(pid), before, "threads during go number {}", round + 1);
        e.send("stop");
        e.bestmove(&pos, TIMEOUT);
        assert_eq!(thread_count(pid), before, "threads after go number {}", round + 1);
    }
    e.send("go perft 3");
    e.read_until("Nodes searched", TIMEOUT);
    assert_eq!(thread_count(pid), before, "threads after go perft");
}

#[test]
fn quit_ends_a_bandwidth_search_and_idle_thinking() {
    let mut e = Harrier::spawn();
    e.send("setoption name SearchMode value Bandwidth");
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(300));
    e.send("quit");
    let lines = e.read_until("bestmove", TIMEOUT);
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove")), "{lines:#?}");
    assert!(e.exits_within(TIMEOUT), "quit during a bandwidth search did not end the engine");

    // After a search, AlwaysThink keeps the tree growing until the next command.
    let mut e = Harrier::spawn();
    e.send("setoption name SearchMode value Bandwidth");
    e.send("setoption name AlwaysThink value true");
    e.send("position startpos");
    e.go("go movetime 200", &position(None, &[]));
    thread::sleep(Duration::from_millis(300));
    e.send("quit");
    assert!(e.exits_within(TIMEOUT), "quit during idle thinking did not end the engine");
}

#[test]
fn quit_during_a_perft_ends_the_engine() {
    let mut e = Harrier::spawn();
    e.send("go perft 9");
    thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.exits_within(TIMEOUT), "quit during perft did not end the engine");
}

/// A GUI that dies closes the engine's output but may leave its input open: the engine
/// must not search on.
#[test]
fn a_closed_output_ends_an_infinite_search() {
    for mode in ["AlphaBeta", "Bandwidth"] {
        let mut child = spawn_process();
        let mut stdin = child.stdin.take().expect("stdin is piped");
        drop(child.stdout.take());
        writeln!(stdin, "setoption name SearchMode value {mode}\nposition startpos\ngo infinite")
            .expect("the engine reads its input");
        stdin.flush().expect("the engine reads its input");
        let deadline = Instant::now() + TIMEOUT;
        let exited = loop {
            if child.try_wait().expect("the child can be polled").is_some() {
                break true;
            }
            if Instant::now() > deadline {
                break false;
            }
            thread::sleep(Duration::from_millis(10));
        };
        let _ = child.kill();
        let _ = child.wait();
        assert!(exited, "{mode}: the engine searched on after its output was closed");
    }
}

/// CPU time the process has used so far, from `/proc` (user and system, in clock ticks).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc has the process");
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')').expect("a stat line").1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// CPU ticks the engine uses over `watch` after a bandwidth search, with `setup` sent first.
fn idle_ticks(setup: &[&str]) -> u64 {
    let mut e = Harrier::spawn();
    e.send("setoption name SearchMode value Bandwidth");
    for line in setup {
        e.send(line);
    }
    e.send("position startpos");
    e.go("go movetime 200", &position(None, &[]));
    let pid = e.child.id();
    let before = cpu_ticks(pid);
    thread::sleep(Duration::from_millis(1500));
    cpu_ticks(pid) - before
}

#[test]
fn bandwidth_mode_thinks_between_moves_only_when_allowed() {
    // Clock ticks are hundredths of a second: idle means under 0.1 s of CPU in 1.5 s, and
    // thinking over 0.3 s even on a loaded machine.
    let idle = idle_ticks(&[]);
    assert!(idle < 10, "with Ponder off the engine used {idle} ticks between moves");
    let thinking = idle_ticks(&["setoption name Ponder value true"]);
    assert!(thinking > 30, "with Ponder on the engine used only {thinking} ticks between moves");
    let thinking = idle_ticks(&["setoption name AlwaysThink value true"]);
    assert!(thinking > 30, "with AlwaysThink the engine used only {thinking} ticks between moves");
}
