//! The network evaluation inside the search: accumulators made move by move along the
//! search's line must value every node as a fresh network evaluation of its position does,
//! so a full-width search with the network returns the minimax value of that evaluation.

use std::sync::Arc;

use crate::common::searching::*;
use harrier::eval::nnue::{self, Network};
use harrier::eval::{Evaluation, network_value};
use harrier::search::alphabeta::presets::{Features, Preset};
use harrier::search::{INFINITY, Score, SearchSettings, Searcher, mated_in};
use shakmaty::{Chess, Position};

/// The minimax preset without the transposition table: its value is the minimax value.
struct MinimaxWithoutTable;

impl Preset for MinimaxWithoutTable {
    const FEATURES: Features = Features { transposition_table: false, ..Features::MINIMAX };
}

/// The network's evaluation of `pos` from scratch, with the rules for endings applied as
/// the engine applies them.
fn fresh(net: &Network, pos: &Chess) -> i32 {
    network_value(pos, nnue::evaluate_position(net, pos))
}

/// Negamax to `depth` over every move with the reference quiescence at the leaves, every
/// leaf valued from scratch.
fn minimax(net: &Network, pos: &Chess, depth: u32, ply: usize) -> i32 {
    if depth == 0 {
        return reference_quiescence_with(&|p| fresh(net, p), pos, ply, -INFINITY, INFINITY, true);
    }
    if ply > 0 && ((pos.halfmoves() >= 100 && !pos.is_checkmate()) || pos.is_insufficient_material()) {
        return 0;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { mated_in(ply) } else { 0 };
    }
    moves.into_iter().map(|m| -minimax(net, &play(pos, m), depth - 1, ply + 1)).max().expect("a move")
}

#[test]
fn a_full_width_search_with_the_network_returns_its_minimax_value() {
    let net = nnue::embedded();
    let mut s = searcher();
    s.configure(&SearchSettings { evaluation: Evaluation::Network(net.clone()), ..SearchSettings::default() });
    let extra = [
        // Castling both ways, en passant and promotions with and without capture within reach.
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ];
    let positions = harrier::bench::POSITIONS.iter().step_by(3).chain(extra.iter());
    for fen in positions {
        let pos = chess(fen);
        for depth in [1, 2] {
            let expected = minimax(&net, &pos, depth, 0);
            let outcome = search_with::<MinimaxWithoutTable>(&mut s, &pos, &[], depth);
            assert_eq!(outcome.report.score, Score::from_value(expected), "depth {depth}: {fen}");
        }
    }
}

#[test]
fn the_evaluation_follows_the_setting() {
    let net = Arc::new(nnue::embedded().as_ref().clone());
    let mut s = searcher();
    let pos = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let hand_crafted = search_with::<MinimaxWithoutTable>(&mut s, &pos, &[], 1).report.score;
    s.configure(&SearchSettings { evaluation: Evaluation::Network(net.clone()), ..SearchSettings::default() });
    let with_net = search_with::<MinimaxWithoutTable>(&mut s, &pos, &[], 1).report.score;
    assert_eq!(with_net, Score::from_value(minimax(&net, &pos, 1, 0)));
    s.configure(&SearchSettings::default());
    assert_eq!(search_with::<MinimaxWithoutTable>(&mut s, &pos, &[], 1).report.score, hand_crafted);
}
