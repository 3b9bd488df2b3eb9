//! Syzygy tablebases through the real binary, checked against shakmaty-syzygy's own probes.
//! The tables are not part of the project: the tests read them from the directory in
//! `HARRIER_SYZYGY_PATH` (3- and 4-piece WDL and DTZ tables) and say so when it is unset.

use shakmaty::{CastlingMode, Chess, Position};
use shakmaty_syzygy::{Tablebase, Wdl};

use crate::common::*;

/// The tables' directory, or `None` (with a note on stderr) when the test cannot run.
fn tables_dir(test: &str) -> Option<String> {
    match std::env::var("HARRIER_SYZYGY_PATH") {
        Ok(dir) if !dir.is_empty() => Some(dir),
        _ => {
            eprintln!("{test}: skipped: set HARRIER_SYZYGY_PATH to a directory of 3-4-piece Syzygy tables");
            None
        }
    }
}

fn reference(dir: &str) -> Tablebase<Chess> {
    let mut tables = Tablebase::new();
    tables.add_directory(dir).expect("the tables' directory can be read");
    tables
}

#[test]
fn a_won_rook_ending_is_converted_to_mate() {
    let Some(dir) = tables_dir("a_won_rook_ending_is_converted_to_mate") else { return };
    let tables = reference(&dir);
    let mut e = Harrier::spawn();
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    let lines = e.ready();
    assert!(lines.iter().any(|l| l.contains("Syzygy tablebases up to 4 pieces")), "{lines:#?}");
    // The defender's king in the centre: the longest kind of KRvK win.
    let start = "8/8/8/4k3/8/8/8/KR6 w - - 0 1";
    let mut moves: Vec<String> = Vec::new();
    let mut pos = position(Some(start), &[]);
    for _ in 0..80 {
        if pos.is_game_over() {
            break;
        }
        let before = tables.probe_wdl(&pos).expect("a KRvK position is in the tables");
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.send(&format!("position fen {start} moves {}", refs.join(" ")));
        let search = e.go("go movetime 50", &pos);
        let m = assert_legal(&pos, &search.best);
        pos.play_unchecked(m);
        moves.push(search.best);
        if before.unambiguous() == Some(Wdl::Win) {
            // The winner never lets the win slip.
            let after = tables.probe_wdl(&pos).expect("still in the tables");
            assert_eq!(after.unambiguous(), Some(Wdl::Loss), "{} gave the win away", moves.last().unwrap());
        }
    }
    assert!(pos.is_checkmate(), "no mate after {} plies: {}", moves.len(), moves.join(" "));
}

#[test]
fn search_probes_report_tbhits_and_the_root_keeps_the_draw() {
    let Some(dir) = tables_dir("search_probes_report_tbhits_and_the_root_keeps_the_draw") else { return };
    let tables = reference(&dir);
    let mut e = Harrier::spawn();
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    e.ready();
    // Black draws only by stopping the pawn; the other king moves lose.
    let fen = "8/4P3/3k4/8/8/8/8/4K3 b - - 0 1";
    let pos = position(Some(fen), &[]);
    let drawing: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            tables.probe_wdl_after_zeroing(&after).is_ok_and(|wdl| wdl == Wdl::Draw)
        })
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    assert!(!drawing.is_empty() && drawing.len() < pos.legal_moves().len(), "{drawing:?}");
    e.send(&format!("position fen {fen}"));
    let search = e.go("go movetime 200", &pos);
    assert!(drawing.contains(&search.best), "{} loses; {drawing:?} draw", search.best);

    // A rook ending with pawns, out of the tables until a capture: the search probes.
    let fen = "8/8/3k4/3p4/3P4/8/5K2/7R w - - 0 1";
    let pos = position(Some(fen), &[]);
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 10", &pos);
    assert!(search.lines.iter().any(|l| field(l, "tbhits").is_some_and(|n| n > 0)), "{:#?}", search.lines);
}

/// In bandwidth mode the tables value the tips they cover (and the hybrid's alpha-beta
/// iterations probe them): a capture into a won KBNvK ending scores as a tablebase win,
/// where the evaluation alone gives it a few pawns.
#[test]
fn bandwidth_mode_sees_the_tables() {
    let Some(dir) = tables_dir("bandwidth_mode_sees_the_tables") else { return };
    let tables = reference(&dir);
    let fen = "k7/8/8/8/3p4/8/2N5/1B2K3 w - - 0 1";
    let pos = position(Some(fen), &[]);
    let capture = assert_legal(&pos, "c2d4");
    let mut after = pos.clone();
    after.play_unchecked(capture);
    assert_eq!(tables.probe_wdl_after_zeroing(&after).ok(), Some(Wdl::Loss), "the capture wins");
    for style in ["Hybrid", "Harris"] {
        let mut e = Harrier::spawn();
        e.send("setoption name SearchMode value Bandwidth");
        e.send(&format!("setoption name BandwidthStyle value {style}"));
        e.send(&format!("position fen {fen}"));
        let without = e.go("go nodes 30000", &pos).final_field("cp");
        assert!(without.is_some_and(|cp| cp < 3000), "{style} without tables: {without:?}");
        e.send(&format!("setoption name SyzygyPath value {dir}"));
        e.ready();
        e.send(&format!("position fen {fen}"));
        let search = e.go("go nodes 30000", &pos);
        assert_eq!(search.best, "c2d4", "{style}");
        let with = search.final_field("cp");
        assert!(with.is_some_and(|cp| cp > 20_000), "{style} with tables: {with:?}");
    }
}

/// A root the tables cover shows their result, as the GUI reads it from the reports: a win
/// as a tablebase win, a draw as 0, with the probes counted in `tbhits`.
#[test]
fn a_root_in_the_tables_shows_their_result() {
    let Some(dir) = tables_dir("a_root_in_the_tables_shows_their_result") else { return };
    let mut e = Harrier::spawn();
    e.send(&format!("setoption name SyzygyPath value {dir}"));
    e.ready();
    for (fen, won) in [("8/8/8/4k3/8/8/8/KR6 w - - 0 1", true), ("8/4P3/3k4/8/8/8/8/4K3 b - - 0 1", false)] {
        e.send(&format!("position fen {fen}"));
        let search = e.go("go movetime 200", &position(Some(fen), &[]));
        let cp = search.final_field("cp").expect("a centipawn score");
        assert!(if won { cp > 20_000 } else { cp == 0 }, "{fen}: cp {cp}");
        assert!(search.final_field("tbhits").is_some_and(|hits| hits > 0), "{fen}: {:#?}", search.lines);
    }
}
