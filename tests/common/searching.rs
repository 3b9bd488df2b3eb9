//! Helpers for the tests that drive the alpha-beta searcher in-process: positions from
//! shakmaty alone, keys, move text, fixed-depth searches from a fresh start, and a
//! brute-force mate prover written from shakmaty alone.

use std::sync::Arc;
use std::time::Instant;

use harrier::search::alphabeta::{AlphaBeta, Features};
use harrier::search::{Limits, SearchJob, SearchOutcome, Searcher, Signals, Silent};
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

/// Parses a FEN with shakmaty only (standard castling).
pub fn chess(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    fen.into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("{e}"))
}

pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

pub fn play(pos: &Chess, m: Move) -> Chess {
    let mut child = pos.clone();
    child.play_unchecked(m);
    child
}

pub fn searcher(features: Features) -> AlphaBeta {
    let mut s = AlphaBeta::new(16, Arc::new(Signals::default())).expect("a 16 MB table");
    s.features = features;
    s
}

/// A fixed-depth search of `root` after a fresh start of the searcher.
pub fn search_with(s: &mut AlphaBeta, root: &Chess, history: &[u64], depth: u32) -> SearchOutcome {
    s.new_game();
    let job = SearchJob {
        root: root.clone(),
        history: history.to_vec(),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        move_overhead: 0,
        started: Instant::now(),
    };
    let outcome = s.search(&job, &mut Silent);
    if outcome.best.is_some() {
        assert_eq!(outcome.report.depth, depth, "a depth-limited search must finish its last iteration");
    }
    outcome
}

pub fn search(root: &Chess, history: &[u64], depth: u32, features: Features) -> SearchOutcome {
    search_with(&mut searcher(features), root, history, depth)
}

/// True when the side to move can force mate within `n` of its moves.
pub fn mates_within(pos: &Chess, n: u32) -> bool {
    n > 0 && pos.legal_moves().iter().any(|&m| mating_move(pos, m, n))
}

/// True when `m` forces mate within `n` moves (counting `m`).
pub fn mating_move(pos: &Chess, m: Move, n: u32) -> bool {
    let child = play(pos, m);
    if child.is_checkmate() {
        return true;
    }
    if n <= 1 {
        return false;
    }
    let replies = child.legal_moves();
    // Stalemate is no mate.
    !replies.is_empty() && replies.iter().all(|&r| mates_within(&play(&child, r), n - 1))
}
