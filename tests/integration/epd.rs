//! `harrier epd` through the real binary on epd/runner.epd. The test reads the file
//! itself (with shakmaty and its own small parser), proves the `dm` claims by brute force,
//! and checks every result line, the points, the theme table and the totals against what
//! it computes from the engine's played moves. Every run has a fixed depth.

use std::collections::HashMap;
use std::process::{Command, Output};

use crate::common::searching::{chess, mates_within, uci};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

const RUNNER: &str = include_str!("../../epd/runner.epd");
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/epd/runner.epd");
/// Deep enough for every record's obvious best move, and deeper than any of its mates
/// needs, so that a `dm` search visibly stops at the mate.
const DEPTH: u32 = 8;
/// The id of the file's malformed record.
const MALFORMED_ID: &str = "bad.001";

/// A record as this test reads it.
struct Record {
    line: usize,
    pos: Chess,
    id: String,
    ops: HashMap<String, String>,
}

impl Record {
    fn moves(&self, opcode: &str) -> Vec<Move> {
        self.ops.get(opcode).map_or(Vec::new(), |text| text.split_whitespace().map(|m| san(&self.pos, m)).collect())
    }

    /// Points per move, from `c8`/`c9` (UCI) if present, else from a `c0` points list.
    fn points(&self) -> Vec<(Move, u32)> {
        if let (Some(points), Some(moves)) = (self.ops.get("c8"), self.ops.get("c9")) {
            let moves = moves.split_whitespace().map(|m| {
                self.pos.legal_moves().into_iter().find(|&legal| uci(legal) == m).unwrap_or_else(|| panic!("{m}"))
            });
            return moves.zip(points.split_whitespace().map(|p| p.parse().unwrap())).collect();
        }
        let Some(c0) = self.ops.get("c0").filter(|c0| c0.contains('=')) else { return Vec::new() };
        c0.split(", ")
            .map(|item| {
                let (m, points) = item.split_once('=').unwrap();
                (san(&self.pos, m), points.parse().unwrap())
            })
            .collect()
    }
}

fn san(pos: &Chess, text: &str) -> Move {
    let san: SanPlus = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    san.san.to_move(pos).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The records of epd/runner.epd: four FEN fields, then operations (a `;` inside quotes
/// belongs to the string).
fn records() -> Vec<Record> {
    let mut records = Vec::new();
    for (index, line) in RUNNER.lines().enumerate().filter(|(_, l)| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let pos = chess(&format!("{} 0 1", fields[..4].join(" ")));
        let mut ops = HashMap::new();
        let (mut operation, mut quoted) = (String::new(), false);
        for c in fields[4].chars() {
            match c {
                '"' => quoted = !quoted,
                ';' if !quoted => {
                    let (opcode, operand) = operation.trim().split_once(' ').unwrap();
                    ops.insert(opcode.to_string(), operand.to_string());
                    operation.clear();
                }
                c => operation.push(c),
            }
        }
        let id = ops["id"].clone();
        records.push(Record { line: index + 1, pos, id, ops });
    }
    records
}

fn run(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_harrier")).args(["epd", PATH]).args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    output
}

/// The value after `key` in a result line's words.
fn field<'a>(words: &[&'a str], key: &str) -> &'a str {
    let at = words.iter().position(|&w| w == key).unwrap_or_else(|| panic!("no {key} in {words:?}"));
    words[at + 1]
}

/// The theme a record's id names: without the trailing number and the `STS(...)` prefix.
fn theme_of(id: &str) -> String {
    let name = &id[..id.rfind('.').unwrap()];
    name.strip_prefix("STS(").map_or(name, |rest| &rest[rest.find(") ").unwrap() + 2..]).to_string()
}

#[test]
fn the_records_claim_what_they_should() {
    let records = records();
    let malformed: Vec<&Record> = records.iter().filter(|r| r.id == MALFORMED_ID).collect();
    assert_eq!(malformed.len(), 1);
    assert!(
        !malformed[0]
            .pos
            .legal_moves()
            .iter()
            .any(|&m| SanPlus::from_move(malformed[0].pos.clone(), m).to_string().starts_with("Qh5"))
    );
    for r in records.iter().filter(|r| r.id != MALFORMED_ID) {
        if let Some(n) = r.ops.get("dm") {
            let n: u32 = n.parse().unwrap();
            assert!(mates_within(&r.pos, n) && !mates_within(&r.pos, n - 1), "{}: not a mate in {n}", r.id);
        }
        // The moves parse and are legal (san() panics otherwise).
        r.moves("bm");
        r.moves("am");
        let points = r.points();
        assert!(points.iter().all(|&(_, p)| p <= 10), "{}", r.id);
    }
    // Every kind of record is there.
    let has = |op: &str| records.iter().filter(|r| r.ops.contains_key(op)).count();
    assert!(has("dm") >= 2 && has("c8") >= 1 && has("am") >= 2);
    assert!(records.iter().filter(|r| r.points().len() > 1 && !r.ops.contains_key("c8")).count() >= 2);
    assert!(records.iter().any(|r| r.ops.contains_key("c0") && r.points().is_empty()));
}

#[test]
fn the_runner_scores_every_record() {
    let records = records();
    let output = run(&["--depth", &DEPTH.to_string()]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();

    // The malformed record is reported on stderr with its line number, and skipped.
    let bad = records.iter().find(|r| r.id == MALFORMED_ID).unwrap();
    assert_eq!(stderr.trim(), format!("line {}: skipped: bm Qh5 is not a legal move here", bad.line));
    let valid: Vec<&Record> = records.iter().filter(|r| r.id != MALFORMED_ID).collect();

    // One line per valid record, in file order, each judged as this test judges it.
    let (mut solved, mut points, mut max_points, mut nodes) = (0, 0, 0, 0);
    let mut themes: Vec<(String, [u32; 4])> = Vec::new();
    for (r, line) in valid.iter().zip(&lines) {
        let rest = line.strip_prefix(r.id.as_str()).unwrap_or_else(|| panic!("{line} is not {}", r.id));
        let words: Vec<&str> = rest.split_whitespace().collect();
        let played = san(&r.pos, field(&words, "played"));
        let (best, avoid, listed) = (r.moves("bm"), r.moves("am"), r.points());
        let mate = r.ops.get("dm").map(|n| n.parse::<i32>().unwrap());
        let reported_mate = (field(&words, "score") == "mate").then(|| field(&words, "mate").parse::<i32>().unwrap());
        let earned = listed.iter().find(|&&(m, _)| m == played).map_or(0, |&(_, p)| p);
        let top = listed.iter().map(|&(_, p)| p).max().unwrap_or(0);
        let ok = (best.is_empty() || best.contains(&played))
            && !avoid.contains(&played)
            && mate.is_none_or(|n| reported_mate.is_some_and(|k| k > 0 && k <= n))
            && (!best.is_empty() || !avoid.is_empty() || mate.is_some() || earned == top);
        assert_eq!(words[0], if ok { "ok" } else { "FAIL" }, "{line}");
        // The positions are easy: the engine solves every one at this depth.
        assert!(ok, "{line}");
        if let Some(n) = mate {
            // The search stopped at the mate rather than at the depth limit.
            assert!(field(&words, "depth").parse::<u32>().unwrap() < DEPTH, "{line}: did not stop at mate in {n}");
        }
        if listed.is_empty() {
            assert!(!words.contains(&"points"), "{line}");
        } else {
            assert_eq!(field(&words, "points"), format!("{earned}/{top}"), "{line}");
            assert_eq!(earned, 10, "{line}: the obvious move earns the most");
        }
        let record_nodes: u64 = field(&words, "nodes").parse().unwrap();
        assert!(record_nodes > 0);
        solved += u32::from(ok);
        points += earned;
        max_points += top;
        nodes += record_nodes;
        let theme = theme_of(&r.id);
        let index = themes.iter().position(|(t, _)| *t == theme).unwrap_or_else(|| {
            themes.push((theme, [0; 4]));
            themes.len() - 1
        });
        let row = &mut themes[index].1;
        *row = [row[0] + 1, row[1] + u32::from(ok), row[2] + earned, row[3] + top];
    }

    // Then the theme table, the points, time and nodes, and `solved X/Y` last.
    let mut expected = vec![vec!["theme".to_string(), "positions".into(), "solved".into(), "points".into()]];
    for (theme, [positions, solved, points, max]) in &themes {
        expected.push(vec![theme.clone(), positions.to_string(), solved.to_string(), format!("{points}/{max}")]);
    }
    let summary: Vec<Vec<String>> =
        lines[valid.len()..].iter().map(|l| l.split_whitespace().map(str::to_string).collect()).collect();
    assert!(themes.len() >= 3, "{themes:?}");
    assert_eq!(summary[..expected.len()], expected, "{stdout}");
    let rest = &lines[valid.len() + expected.len()..];
    assert_eq!(rest.len(), 3, "{stdout}");
    assert_eq!(rest[0], format!("score {points}/{max_points}"));
    let words: Vec<&str> = rest[1].split_whitespace().collect();
    assert_eq!((words[0], words[3], words[4], words[5]), ("time", "nodes", nodes.to_string().as_str(), "nps"));
    assert_eq!(rest[2], format!("solved {solved}/{}", valid.len()));
}

/// Positions searched in parallel, each by its own searcher, give the results of a run
/// one by one, printed in file order.
#[test]
fn threads_give_the_same_results() {
    let results = |threads: &str| {
        let output = run(&["--depth", &DEPTH.to_string(), "--threads", threads]);
        let stdout = String::from_utf8(output.stdout).unwrap();
        // Everything but the times.
        stdout
            .lines()
            .filter(|line| !line.starts_with("time "))
            .map(|line| line.rsplit_once(" time ").map_or(line, |(head, _)| head).to_string())
            .collect::<Vec<_>>()
    };
    let one = results("1");
    let valid = records().iter().filter(|r| r.id != MALFORMED_ID).count();
    assert_eq!(one.last(), Some(&format!("solved {valid}/{valid}")));
    assert_eq!(results("2"), one);
}

/// Every searcher the runner offers, the bandwidth search in both styles, solves the
/// records: the flags select them, and each finds the mates and wins.
#[test]
fn every_mode_and_style_solves_the_records() {
    let valid = records().iter().filter(|r| r.id != MALFORMED_ID).count();
    for flags in [
        &["--mode", "minimax"][..],
        &["--mode", "bandwidth", "--style", "harris"],
        &["--mode", "bandwidth", "--style", "hybrid"],
    ] {
        let mut args = vec!["--movetime", "300", "--threads", "2"];
        args.extend_from_slice(flags);
        let output = run(&args);
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(stdout.lines().last(), Some(format!("solved {valid}/{valid}").as_str()), "{flags:?}: {stdout}");
    }
    let output = Command::new(env!("CARGO_BIN_EXE_harrier"))
        .args(["epd", PATH, "--mode", "bandwidth", "--style", "classic"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8(output.stderr).unwrap().contains("invalid value 'classic' for '--style <STYLE>'"));
}

/// A node limit gives the same results on every run, whatever the machine's load.
#[test]
fn a_node_limit_repeats_its_results() {
    let results = || {
        let stdout = String::from_utf8(run(&["--nodes", "50000", "--threads", "2"]).stdout).unwrap();
        stdout
            .lines()
            .filter(|line| !line.starts_with("time "))
            .map(|line| line.rsplit_once(" time ").map_or(line, |(head, _)| head).to_string())
            .collect::<Vec<_>>()
    };
    let first = results();
    let valid = records().iter().filter(|r| r.id != MALFORMED_ID).count();
    assert_eq!(first.last(), Some(&format!("solved {valid}/{valid}")));
    assert_eq!(results(), first);
}
