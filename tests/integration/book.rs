//! The opening book (`OwnBook`, `BookFile`) through the real binary. Each test writes its
//! own Polyglot book: keys from shakmaty's zobrist keys (Polyglot's, as the specification's
//! test positions show in the unit tests), moves packed as the specification lays them out.

use std::path::{Path, PathBuf};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Square};

use crate::common::*;

/// A clock for both sides: a game move, which the book may answer.
const GAME_GO: &str = "go wtime 60000 btime 60000";
/// Moves to a position where White castles short from the book.
const ITALIAN: &str = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";

/// The Polyglot key: the en passant file counts when a pawn of the side to move stands
/// beside the pawn that advanced two squares.
fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// A Polyglot move: to-square in bits 0-5, from-square in bits 6-11 (each row * 8 + file),
/// promotion piece in bits 12-14.
fn polyglot_move(from: Square, to: Square, promotion: u16) -> u16 {
    let square = |sq: Square| ((sq.rank() as u16) << 3) | sq.file() as u16;
    square(to) | (square(from) << 6) | (promotion << 12)
}

fn after(moves: &str) -> Chess {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    position(None, &moves)
}

/// Writes a book of `(key, move, weight)` entries, sorted by key, to a file named `name`
/// in the tests' scratch directory, with unrelated entries around them so that the
/// position's entries are found by search.
fn write_book(name: &str, entries: &[(u64, u16, u16)]) -> PathBuf {
    let mut all = entries.to_vec();
    let a2a3 = polyglot_move(Square::A2, Square::A3, 0);
    all.extend((1..200u64).map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15), a2a3, 1)));
    all.sort_by_key(|&(key, _, _)| key);
    let bytes: Vec<u8> = all
        .iter()
        .flat_map(|&(key, mv, weight)| {
            [&key.to_be_bytes()[..], &mv.to_be_bytes(), &weight.to_be_bytes(), &[0; 4]].concat()
        })
        .collect();
    write_file(name, &bytes)
}

fn write_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).expect("the scratch directory is writable");
    path
}

/// The book of these tests: in the start position d2d4 (e2e4 weighs nothing, and two
/// heavy entries are not legal moves); after 1. e4 c7c5; in the Italian, castling short.
fn standard_book(name: &str) -> PathBuf {
    let start = Chess::default();
    write_book(
        name,
        &[
            (key(&start), polyglot_move(Square::E2, Square::E4, 0), 0),
            (key(&start), polyglot_move(Square::E2, Square::E5, 0), 60000),
            (key(&start), polyglot_move(Square::D2, Square::D4, 0), 7),
            (key(&start), polyglot_move(Square::G1, Square::F3, 6), 60000),
            (key(&after("e2e4")), polyglot_move(Square::C7, Square::C5, 0), 5),
            (key(&after(ITALIAN)), polyglot_move(Square::E1, Square::H1, 0), 9),
        ],
    )
}

/// An engine with `OwnBook` on and the book at `path` loaded.
fn with_book(path: &Path) -> Harrier {
    let mut e = Harrier::spawn();
    e.send("setoption name OwnBook value true");
    e.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = e.ready();
    assert!(lines.iter().any(|l| l.starts_with("info string opening book ") && l.ends_with(" entries")), "{lines:#?}");
    e
}

/// Asserts that `go` answers at once with the book move `expected`.
fn assert_book_move(e: &mut Harrier, go: &str, expected: &str, weights: &str) {
    e.send(go);
    let lines = e.read_until("bestmove", TIMEOUT);
    assert_eq!(lines, [format!("info string book move {expected} ({weights})"), format!("bestmove {expected}")]);
}

/// Asserts that a search's lines hold no book move.
fn assert_searched(search: &Search) {
    assert!(!search.lines.iter().any(|l| l.contains("book move")), "{:#?}", search.lines);
}

#[test]
fn book_moves_are_legal_weighted_and_played_at_once() {
    let mut e = with_book(&standard_book("book with spaces.bin"));
    e.send("position startpos");
    // The illegal entries outweigh d2d4 by far: picked, they would show.
    for _ in 0..5 {
        assert_book_move(&mut e, GAME_GO, "d2d4", "weight 7 of 7");
    }
    assert_book_move(&mut e, "go movetime 5000", "d2d4", "weight 7 of 7");
    e.send("position startpos moves e2e4");
    assert_book_move(&mut e, GAME_GO, "c7c5", "weight 5 of 5");
    e.send(&format!("position startpos moves {ITALIAN}"));
    assert_book_move(&mut e, "go wtime 1000 btime 1000 winc 100 binc 100", "e1g1", "weight 9 of 9");
    // Out of the book: a search.
    e.send("position startpos moves d2d4");
    assert_searched(&e.go("go wtime 1000 btime 1000", &after("d2d4")));
    e.send("position startpos");
    assert_book_move(&mut e, GAME_GO, "d2d4", "weight 7 of 7");
}

#[test]
fn book_castling_is_king_takes_rook_in_chess960() {
    let mut e = with_book(&standard_book("chess960.bin"));
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position startpos moves {ITALIAN}"));
    assert_book_move(&mut e, GAME_GO, "e1h1", "weight 9 of 9");
    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_book_move(&mut e, GAME_GO, "d2d4", "weight 7 of 7");
    let chess960 =
        position_in(Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"), &[], CastlingMode::Chess960);
    assert_eq!(key(&chess960), key(&Chess::default()));
}

#[test]
fn own_book_off_analysis_and_fixed_searches_do_not_use_the_book() {
    let path = standard_book("unused.bin");
    let mut e = Harrier::spawn();
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.ready();
    e.send("position startpos");
    assert_searched(&e.go("go movetime 200", &Chess::default()));
    e.send("setoption name OwnBook value true");
    for go in ["go depth 3", "go nodes 5000", "go movetime 200 searchmoves e2e4", "go mate 1"] {
        assert_searched(&e.go(go, &Chess::default()));
    }
    e.send("setoption name UCI_AnalyseMode value true");
    assert_searched(&e.go("go movetime 200", &Chess::default()));
    e.send("setoption name UCI_AnalyseMode value false");
    assert_book_move(&mut e, GAME_GO, "d2d4", "weight 7 of 7");
    e.send("setoption name OwnBook value false");
    assert_searched(&e.go("go movetime 200", &Chess::default()));
}

#[test]
fn go_infinite_and_go_ponder_in_a_book_position_search_until_told() {
    let mut e = with_book(&standard_book("infinite.bin"));
    e.send("position startpos");
    e.send("go infinite");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    assert_searched(&e.bestmove(&Chess::default(), TIMEOUT));
    e.send("go ponder wtime 2000 btime 2000");
    e.no_bestmove_for(WATCH);
    e.send("ponderhit");
    assert_searched(&e.bestmove(&Chess::default(), TIMEOUT));
}

#[test]
fn files_that_are_not_books_are_refused_and_the_engine_keeps_working() {
    let mut e = Harrier::spawn();
    e.send("setoption name OwnBook value true");
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no such book.bin");
    let odd = write_file("odd size.bin", &[0; 17]);
    let unsorted = write_file("unsorted.bin", &[[2u8; 16], [1u8; 16]].concat());
    for (path, reason) in [(&missing, "cannot be read"), (&odd, "multiple of 16"), (&unsorted, "not sorted")] {
        e.send(&format!("setoption name BookFile value {}", path.display()));
        let lines = e.ready();
        let expected = format!("info string the opening book {}", path.display());
        assert!(
            lines.len() == 1 && lines[0].starts_with(&expected) && lines[0].contains(reason),
            "{reason}: {lines:#?}"
        );
        assert!(lines[0].ends_with("; no opening book"), "{lines:#?}");
        e.send("position startpos");
        assert_searched(&e.go("go wtime 1000 btime 1000", &Chess::default()));
    }
    // A good book stays when a bad one is set after it, and goes with the empty path.
    e.send(&format!("setoption name BookFile value {}", standard_book("kept.bin").display()));
    e.ready();
    e.send(&format!("setoption name BookFile value {}", odd.display()));
    let lines = e.ready();
    assert!(lines.len() == 1 && lines[0].ends_with("; keeping the previous opening book"), "{lines:#?}");
    assert_book_move(&mut e, GAME_GO, "d2d4", "weight 7 of 7");
    e.send("setoption name BookFile value <empty>");
    assert_eq!(e.ready(), ["info string no opening book"]);
    assert_searched(&e.go("go wtime 1000 btime 1000", &Chess::default()));
}
