//! The `harrier` binary's command line, through the real binary: help for every command,
//! usage errors with status 2 and a message naming the culprit on stderr, the version, and
//! nothing but UCI on stdout when it runs without arguments. Every case is quick: nothing
//! here searches.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Every command `harrier --help` must list.
const COMMANDS: [&str; 9] = ["bench", "perft", "epd", "eval", "datagen", "data", "tune", "train", "fuzz"];

/// The status of a usage error.
const USAGE_STATUS: i32 = 2;

fn harrier(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harrier")).args(args).stdin(Stdio::null()).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// A usage error: status 2, nothing on stdout, and the message on stderr.
fn usage_error(args: &[&str]) -> String {
    let output = harrier(args);
    assert_eq!(output.status.code(), Some(USAGE_STATUS), "harrier {args:?}: {output:?}");
    assert!(output.stdout.is_empty(), "harrier {args:?} printed on stdout: {output:?}");
    stderr(&output)
}

#[test]
fn help_lists_every_command() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let output = harrier(args);
        assert!(output.status.success(), "harrier {args:?}: {output:?}");
        let text = stdout(&output);
        for command in COMMANDS {
            let listed = text.lines().any(|line| line.trim_start().starts_with(&format!("{command} ")));
            assert!(listed, "harrier {args:?} does not list {command}:\n{text}");
        }
    }
}

#[test]
fn every_command_has_its_help() {
    let nested = [&["data", "check"][..]];
    for command in COMMANDS.iter().map(std::slice::from_ref).chain(nested) {
        let name = command.join(" ");
        for flag in ["--help", "-h"] {
            let output = harrier(&[command, &[flag]].concat());
            assert!(output.status.success(), "harrier {name} {flag}: {output:?}");
            assert!(stdout(&output).contains(&format!("Usage: harrier {name}")), "harrier {name} {flag}: {output:?}");
        }
        let output = harrier(&[&["help"], command].concat());
        assert!(output.status.success(), "harrier help {name}: {output:?}");
        assert_eq!(stdout(&output), stdout(&harrier(&[command, &["--help"]].concat())), "harrier help {name}");
    }
}

#[test]
fn version_is_the_engine_name() {
    for flag in ["--version", "-V"] {
        let output = harrier(&[flag]);
        assert!(output.status.success(), "{output:?}");
        assert_eq!(stdout(&output), format!("{}\n", harrier::engine::NAME));
    }
}

#[test]
fn an_unknown_flag_is_named_and_a_close_one_suggested() {
    let message = usage_error(&["bench", "--depht", "3"]);
    assert!(message.contains("unexpected argument '--depht'"), "{message}");
    // `epd` has a `--depth`, so clap points to it.
    let message = usage_error(&["epd", "suite.epd", "--depht", "3"]);
    assert!(message.contains("unexpected argument '--depht'") && message.contains("'--depth'"), "{message}");
}

#[test]
fn an_unknown_command_is_named() {
    let message = usage_error(&["frobnicate"]);
    assert!(message.contains("unrecognized subcommand 'frobnicate'"), "{message}");
    let message = usage_error(&["data", "chek"]);
    assert!(message.contains("'chek'") && message.contains("'check'"), "{message}");
}

/// `tunables` is the tune build's (tests/tunables.rs checks what it prints): listed and
/// with its help there, an unknown command in the default build.
#[test]
fn the_tunables_command_is_the_tune_builds_alone() {
    if cfg!(feature = "tune") {
        assert!(stdout(&harrier(&["--help"])).lines().any(|line| line.trim_start().starts_with("tunables ")));
        assert!(stdout(&harrier(&["tunables", "--help"])).contains("Usage: harrier tunables"));
    } else {
        let message = usage_error(&["tunables"]);
        assert!(message.contains("unrecognized subcommand 'tunables'"), "{message}");
    }
}

#[test]
fn a_bad_value_is_named() {
    for (args, named) in [
        (&["perft", "x"][..], "'x'"),
        (&["perft"], "<DEPTH>"),
        (&["bench", "--eval", "neural"], "'neural'"),
        (&["epd", "suite.epd", "--mode", "fullwidth"], "'fullwidth'"),
        (&["fuzz", "--lines", "many"], "'many'"),
        (&["epd", "suite.epd", "--depth", "3", "--nodes", "100"], "'--nodes <NODES>'"),
        (&["datagen", "--eval", "hce", "--net", "net.bin"], "'--net <FILE>'"),
    ] {
        let message = usage_error(args);
        assert!(message.contains(named), "harrier {args:?}: {message}");
    }
}

/// A command that cannot do its work fails with the status of a usage error, its reason on
/// stderr.
#[test]
fn a_failing_command_says_why() {
    let message = usage_error(&["epd", "no such suite.epd"]);
    assert!(message.starts_with("harrier: cannot read no such suite.epd"), "{message}");
}

#[test]
fn without_arguments_it_speaks_only_uci() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_harrier"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"uci\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.lines().last() == Some("uciok"), "{text}");
    for line in text.lines() {
        assert!(["id ", "option "].iter().any(|start| line.starts_with(start)) || line == "uciok", "{line}");
    }
}

#[test]
fn perft_counts_on_stdout() {
    let output = harrier(&["perft", "3"]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).lines().any(|line| line == "Nodes searched: 8902"), "{output:?}");
}

/// A reader that leaves early (`harrier perft 5 | head -1`) ends the command quietly: status
/// 0 and no panic message, where `println!` would panic on the closed pipe.
#[test]
fn a_reader_that_leaves_early_is_no_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_harrier"))
        .args(["perft", "5"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closed before perft has counted anything, so every line meets a pipe with no reader.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "harrier perft 5 into a closed pipe: {output:?}");
    assert!(!stderr(&output).contains("panicked"), "harrier perft 5 into a closed pipe: {output:?}");
}
