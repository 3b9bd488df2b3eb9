//! The fuzzer, `harrier fuzz` (`harrier::uci::fuzz`): generated lines go through the UCI
//! loop's own path into an engine, and every answer and state is checked after every
//! command. Each run is a process of its own, so that a hang, which makes the fuzzer's
//! watchdog abort, ends that run alone, and the memory peak it reports is the fuzzer's.
//! `harrier fuzz --lines N --seed S` runs more lines, with other seeds.

use std::process::{Command, Output};

/// Lines fed by `make test`: enough for every kind of command to come thousands of times,
/// few enough to take well under a minute on a loaded machine.
const LINES: u64 = 100_000;
/// The seed of `make test`'s run, so that a failure comes back with the same lines.
const SEED: u64 = 1;

/// `harrier fuzz` with `args`.
fn fuzz(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harrier")).arg("fuzz").args(args).output().unwrap()
}

/// The words of a summary line, without its punctuation.
fn words(text: &str) -> Vec<&str> {
    text.split([' ', ',', ':', '(', ')']).filter(|w| !w.is_empty()).collect()
}

/// The number right before the first `word` in `text` ("374 searches").
fn number_before(text: &str, word: &str) -> Option<u64> {
    let words = words(text);
    let at = words.iter().position(|w| *w == word)?;
    words.get(at.checked_sub(1)?)?.parse().ok()
}

/// The number right after the first `word` in `text` ("line 2416").
fn number_after(text: &str, word: &str) -> Option<u64> {
    let words = words(text);
    let at = words.iter().position(|w| *w == word)?;
    words.get(at + 1)?.parse().ok()
}

#[test]
fn a_hundred_thousand_fuzzed_lines_find_nothing() {
    let output = fuzz(&["--lines", &LINES.to_string(), "--seed", &SEED.to_string()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(output.stdout.is_empty(), "nothing but the engine's UCI goes to stdout: {output:?}");
    let summary = stderr.lines().find(|line| line.starts_with("fuzz: done")).expect("a summary line");
    println!("{summary}");
    let count = |word| number_before(summary, word).unwrap_or_else(|| panic!("no '{word}' in {summary}"));
    assert_eq!(count("lines"), LINES, "{summary}");
    // The mix reached what it is meant to: searches answered, perft counts, refusals,
    // and `quit` with a fresh engine after it.
    assert!(count("searches") > LINES / 50, "{summary}");
    assert!(count("perfts") > 0 && count("refused") > LINES / 10 && count("engines") > 1, "{summary}");
    if cfg!(target_os = "linux") {
        let peak_line = number_after(summary, "line").unwrap_or_else(|| panic!("no peak line in {summary}"));
        assert!(count("MB") > 0 && (1..=LINES).contains(&peak_line), "{summary}");
        let quoted = stderr.split_once("the memory peak came by line").and_then(|(_, rest)| rest.lines().nth(1));
        assert!(quoted.is_some_and(|line| line.starts_with("  \"")), "the lines before the peak are quoted: {stderr}");
    }
}

/// `harrier fuzz` runs the lines it is asked for and says so on stderr; a bad number is a
/// usage error.
#[test]
fn the_command_line_tool_runs_and_reports() {
    let output = fuzz(&["--lines", "300", "--seed", "5"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{output:?}");
    assert!(stderr.contains("fuzz: done, seed 5: 300 lines"), "{stderr}");
    if cfg!(target_os = "linux") {
        assert!(stderr.contains("peak resident") && stderr.contains("the memory peak came by line"), "{stderr}");
    }
    assert!(output.stdout.is_empty(), "a clean run prints nothing on stdout: {output:?}");
    assert_eq!(fuzz(&["--lines", "many"]).status.code(), Some(2));
}
