//! The fuzzer (`harrier::uci::fuzz`) in process: generated lines go through the UCI loop's
//! own path into an engine, and every answer and state is checked after every command.
//! `harrier fuzz --lines N --seed S` runs more lines, with other seeds.

use std::process::Command;

use harrier::uci::fuzz::{self, FuzzSettings};

/// Lines fed by `make test`: enough for every kind of command to come thousands of times,
/// few enough to take well under a minute on a loaded machine.
const LINES: u64 = 100_000;
/// The seed of `make test`'s run, so that a failure comes back with the same lines.
const SEED: u64 = 1;

#[test]
fn a_hundred_thousand_fuzzed_lines_find_nothing() {
    let settings = FuzzSettings { lines: LINES, seed: SEED };
    let report = fuzz::run(&settings, &mut |_| {}).unwrap_or_else(|finding| panic!("{finding}"));
    println!("{report}");
    assert_eq!(report.lines, LINES);
    // The mix reached what it is meant to: searches answered, perft counts, refusals,
    // and `quit` with a fresh engine after it.
    assert!(report.searches > LINES / 50, "{report}");
    assert!(report.perfts > 0 && report.refusals > LINES / 10 && report.engines > 1, "{report}");
    if cfg!(target_os = "linux") {
        let peak = report.peak_resident.as_ref().expect("Linux says how much memory the process held");
        assert!(peak.mb > 0 && (1..=LINES).contains(&peak.line), "{report}");
        assert!(!peak.recent.is_empty(), "the lines before the peak are quoted");
    }
}

/// `harrier fuzz` runs the lines it is asked for and says so on stderr; a bad number is a
/// usage error.
#[test]
fn the_command_line_tool_runs_and_reports() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_harrier")).arg("fuzz").args(args).output().unwrap();
    let output = run(&["--lines", "300", "--seed", "5"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{output:?}");
    assert!(stderr.contains("fuzz: done, seed 5: 300 lines"), "{stderr}");
    if cfg!(target_os = "linux") {
        assert!(stderr.contains("peak resident") && stderr.contains("the memory peak came by line"), "{stderr}");
    }
    assert!(output.stdout.is_empty(), "a clean run prints nothing on stdout: {output:?}");
    assert_eq!(run(&["--lines", "many"]).status.code(), Some(2));
}
