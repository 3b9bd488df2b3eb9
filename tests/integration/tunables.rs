//! The `tune` build (`cargo test --features tune`): every search tunable is a UCI spin
//! option over its declared range, a `setoption` of one changes the search and restoring
//! it restores the search, and `harrier tunables` prints lines that OpenBench's SPSA parser
//! takes, as declared and as docs/tuning.md's table shows them. (`bench_signature`, run in
//! this build, shows that the defaults search exactly as the default build does.)

use std::collections::HashSet;
use std::process::Command;
use std::time::Instant;

use crate::common::{Harrier, TIMEOUT, position};
use harrier::engine::options;
use harrier::search::Limits;
use harrier::search::time::TimeManager;
use harrier::search::tunables::{self, TUNABLES, Values};
use shakmaty::Color;

/// A middlegame where every kind of pruning and reduction has work to do.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";

fn harrier(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_harrier")).args(args).output().unwrap();
    assert!(output.status.success(), "harrier {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Each line split as OpenBench's `create_spsa_run` splits it: seven fields around commas,
/// trimmed; the numbers must read as its `float()` reads them.
#[test]
fn every_spsa_line_parses_and_matches_its_declaration() {
    let text = harrier(&["tunables"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), TUNABLES.len(), "{text}");
    let mut names = HashSet::new();
    for (line, tunable) in lines.iter().zip(TUNABLES) {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, dtype, value, min, max, c_end, r_end] = fields[..] else { panic!("not seven fields: {line}") };
        assert!(names.insert(name), "{name} twice");
        assert!(!name.is_empty() && !name.contains(char::is_whitespace), "{line}");
        assert_eq!(dtype, "int", "{line}");
        let [value, min, max] = [value, min, max].map(|n| n.parse::<i32>().unwrap_or_else(|_| panic!("{line}")));
        let [c_end, r_end] = [c_end, r_end].map(|x| x.parse::<f64>().unwrap_or_else(|_| panic!("{line}")));
        assert!(min <= value && value <= max, "the default lies outside the range: {line}");
        assert!(c_end > 0.0 && r_end > 0.0, "{line}");
        assert_eq!(
            (name, value, min, max, c_end, r_end),
            (tunable.name, tunable.default, tunable.min, tunable.max, tunable.c_end, tunable.r_end),
            "{line}"
        );
    }
}

/// `uci` lists the built-in options, then every tunable as a spin with its default and
/// range, and `setoption` takes a value at either end of the range.
#[test]
fn uci_offers_every_tunable_as_a_spin_over_its_range() {
    let mut engine = Harrier::spawn();
    engine.send("uci");
    let lines = engine.read_until("uciok", TIMEOUT);
    let offered: Vec<&String> = lines.iter().filter(|line| line.starts_with("option name ")).collect();
    assert_eq!(offered.len(), options::all().len());
    let built_in = offered.len() - TUNABLES.len();
    for (line, tunable) in offered[built_in..].iter().zip(TUNABLES) {
        let expected = format!(
            "option name {} type spin default {} min {} max {}",
            tunable.name, tunable.default, tunable.min, tunable.max
        );
        assert_eq!(**line, expected);
    }
    for tunable in TUNABLES {
        for value in [tunable.min, tunable.max, tunable.default] {
            engine.send(&format!("setoption name {} value {value}", tunable.name));
            let said = engine.ready();
            assert!(said.is_empty(), "setoption {} {value}: {said:?}", tunable.name);
        }
    }
}

/// The nodes of a fresh depth-10 search of [`MIDDLEGAME`] (after `ucinewgame`).
fn nodes(engine: &mut Harrier) -> i64 {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {MIDDLEGAME}"));
    let search = engine.go("go depth 10", &position(Some(MIDDLEGAME), &[]));
    search.final_field("nodes").expect("the final report has nodes")
}

#[test]
fn setoption_of_a_tunable_changes_the_search_and_restoring_it_restores_it() {
    let mut engine = Harrier::spawn();
    let default = nodes(&mut engine);
    for (name, other) in [("lmr_divisor_percent", 150), ("rfp_margin", 150)] {
        let restored = TUNABLES.iter().find(|t| t.name == name).expect("a declared tunable").default;
        assert_ne!(other, restored, "{name}: the test needs a value other than the default");
        engine.send(&format!("setoption name {name} value {other}"));
        let changed = nodes(&mut engine);
        assert_ne!(changed, default, "{name} {other} searched as the default");
        engine.send(&format!("setoption name {name} value {restored}"));
        assert_eq!(nodes(&mut engine), default, "{name} back to {restored}");
    }
    // Not while a search runs: the search threads read the tunables.
    engine.send("go infinite");
    engine.send("setoption name rfp_margin value 100");
    let said = engine.ready();
    assert!(said.iter().any(|line| line.contains("ignored: a search is running")), "{said:?}");
    engine.send("stop");
    engine.read_until("bestmove", TIMEOUT);
    assert_eq!(nodes(&mut engine), default);
}

/// The time manager reads its tunables too (in this process: no other test here searches
/// in it).
#[test]
fn the_time_tunables_move_the_budgets() {
    let limits = Limits { wtime: Some(60_000), winc: Some(0), ..Limits::default() };
    let soft = || TimeManager::new(&limits, Color::White, 0, Instant::now()).soft_budget().unwrap().as_millis();
    let moves_to_go = u128::try_from(Values::default().tm_moves_to_go).unwrap();
    assert_ne!(moves_to_go, 40, "the test needs a value other than the default");
    assert_eq!(soft(), 60_000 / moves_to_go, "the default assumes {moves_to_go} moves to go");
    tunables::publish(&Values { tm_moves_to_go: 40, ..Values::default() });
    assert_eq!(soft(), 60_000 / 40);
    tunables::publish(&Values::default());
    assert_eq!(soft(), 60_000 / moves_to_go);
}

/// docs/tuning.md's table is `harrier tunables --table`'s.
#[test]
fn the_documented_table_is_the_declared_one() {
    let table = harrier(&["tunables", "--table"]);
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning.md")).unwrap();
    let documented: Vec<&str> = docs
        .lines()
        .skip_while(|line| !line.starts_with("| name |"))
        .take_while(|line| line.starts_with('|'))
        .collect();
    assert_eq!(documented, table.lines().collect::<Vec<_>>(), "regenerate it with harrier tunables --table");
}
