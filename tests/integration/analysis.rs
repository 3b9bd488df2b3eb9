//! What analysis GUIs reach for, through the real binary: Stockfish's `d` and `eval`
//! debugging commands, `go mate` from either side, and the analysis options.

use std::io::{Read, Write};

use crate::common::*;

/// Everything the engine prints for `input` (which ends with `quit`).
fn transcript(input: &str) -> String {
    let mut child = spawn_process();
    child.stdin.take().expect("stdin is piped").write_all(input.as_bytes()).expect("the engine reads");
    let mut output = String::new();
    child.stdout.take().expect("stdout is piped").read_to_string(&mut output).expect("the engine writes");
    child.wait().expect("the engine exits");
    output
}

#[test]
fn d_shows_the_board_fen_polyglot_key_and_checkers() {
    let output = transcript("position startpos moves e2e4\nd\nposition fen 4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\nd\nquit\n");
    // The key after 1. e4 as the Polyglot book format specifies it.
    assert!(output.contains("Key: 823C9B50FD114196"), "{output}");
    assert!(output.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{output}");
    assert!(output.contains(" | R | N | B | Q | K | B | N | R | 1"), "{output}");
    assert!(output.contains("Checkers: e2"), "{output}");
}

#[test]
fn eval_gives_the_evaluation_from_whites_side() {
    let output = transcript("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1\neval\nquit\n");
    let line = output.lines().find(|l| l.starts_with("Final evaluation:")).expect("an evaluation line");
    let pawns: f64 = line.split_whitespace().nth(2).and_then(|v| v.parse().ok()).expect("a number");
    assert!(pawns > 5.0, "a queen up for White, Black to move: {line}");
}

#[test]
fn go_mate_answers_both_sides() {
    let mut e = Harrier::spawn();
    e.send("setoption name UCI_AnalyseMode value true");
    e.send("setoption name UCI_Opponent value GM 2800 human Carlsen");
    let lines = e.ready();
    assert!(info_strings(&lines).is_empty(), "{lines:#?}");
    // White mates by Ra8; Black, to move, can only make room for the king.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1";
    let pos = position(Some(fen), &[]);
    e.send(&format!("position fen {fen}"));
    let search = e.go("go mate 2", &pos);
    assert_legal(&pos, &search.best);
    let white = position(Some("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), &[]);
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let search = e.go("go mate 1", &white);
    assert_eq!(search.best, "a1a8");
    assert!(search.lines[search.lines.len() - 2].contains(" score mate 1 "), "{:#?}", search.lines);
}

#[test]
fn wdl_is_off_by_default_and_sums_to_a_thousand_when_on() {
    let mut e = Harrier::spawn();
    let pos = position(None, &["e2e4"]);
    e.send("position startpos moves e2e4");
    let search = e.go("go depth 6", &pos);
    assert!(search.lines.iter().all(|l| !l.contains(" wdl ")), "{:#?}", search.lines);
    e.send("setoption name UCI_ShowWDL value true");
    let search = e.go("go depth 6", &pos);
    let scored: Vec<&String> = search.lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!scored.is_empty());
    for line in scored {
        let words: Vec<&str> = line.split(' ').collect();
        let at = words.iter().position(|&w| w == "wdl").unwrap_or_else(|| panic!("no wdl: {line}"));
        let sum: u32 = words[at + 1..at + 4].iter().map(|w| w.parse::<u32>().unwrap()).sum();
        assert_eq!(sum, 1000, "{line}");
    }
    // A mate in one is a certain win.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 4", &position(Some(fen), &[]));
    assert!(search.lines[search.lines.len() - 2].contains(" wdl 1000 0 0 "), "{:#?}", search.lines);
}

#[test]
fn eval_prints_every_term_group_and_the_command_line_prints_the_same_table() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8";
    let output = transcript(&format!("position fen {fen}\neval\nquit\n"));
    for group in harrier::eval::hce::terms::GROUPS {
        assert!(output.lines().any(|l| l.trim_start().starts_with(&format!("{group} |"))), "{group}: {output}");
    }
    assert!(output.contains("Final evaluation:") && output.contains("Network evaluation ("), "{output}");
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_harrier"))
        .arg("eval")
        .args(fen.split(' '))
        .output()
        .expect("harrier eval runs");
    assert!(cli.status.success());
    assert_eq!(String::from_utf8(cli.stdout).expect("text"), output);
}
