//! Each thread's pawn-structure cache: the pawn and king-shelter terms and the passed
//! pawns, by a key of the pawns and the king squares.

use std::cell::RefCell;

use shakmaty::{Bitboard, Board, Color};

use super::params::PAWN_CACHE_ENTRIES;
use super::pawns;
use super::score::S;
use super::terms::TermSums;
use crate::random::mix;

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: Bitboard,
}

thread_local! {
    static CACHE: RefCell<Vec<PawnEntry>> = RefCell::new(vec![PawnEntry::default(); PAWN_CACHE_ENTRIES]);
}

/// The cache key of the pawns and king squares; never 0, the empty slot's key.
fn key(board: &Board) -> u64 {
    let white = board.pawns() & board.by_color(Color::White);
    let black = board.pawns() & board.by_color(Color::Black);
    let kings = (board.kings() & board.by_color(Color::White)).0.trailing_zeros() as u64
        | ((board.kings() & board.by_color(Color::Black)).0.trailing_zeros() as u64) << 8;
    mix(white.0 ^ mix(black.0 ^ mix(kings))) | 1
}

/// White's pawn and king-shelter score minus Black's, and the passed pawns of both.
pub fn probe(board: &Board) -> (S, Bitboard) {
    let key = key(board);
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let slot = &mut cache[key as usize & (PAWN_CACHE_ENTRIES - 1)];
        if slot.key != key {
            let mut terms = TermSums::default();
            let passed = pawns::evaluate(board, &mut terms);
            let score = terms.linear[Color::White as usize] - terms.linear[Color::Black as usize];
            *slot = PawnEntry { key, score, passed };
        }
        (slot.score, slot.passed)
    })
}
