//! Static evaluation, of two kinds: the hand-crafted evaluation ([`hce`], with its Texel
//! tuner) and the network ([`nnue`], with its training data and trainer). [`Evaluation`]
//! says which one a search uses; [`LineEvaluator`] evaluates along a search thread's line
//! with it. [`wdl`] turns a score into chances of a win, draw and loss.

pub mod hce;
pub mod nnue;
pub mod wdl;

use std::sync::Arc;

use shakmaty::{Chess, Color, Move, Position, Role};

use crate::value::MAX_PLY;
use nnue::{AccumulatorStack, Network};

/// A piece's worth in pawns by the usual count (pawn 1, minor 3, rook 5, queen 9; king
/// 0), which the rules that count material (drawish endings, the win-rate model) use.
pub fn pawn_units(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Which static evaluation a search uses. Two are equal when both are the hand-crafted
/// evaluation or networks with the same weights; [`Evaluation::is_same`] is the cheap test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The hand-crafted evaluation: needs nothing loaded.
    #[default]
    HandCrafted,
    /// A network.
    Network(Arc<Network>),
}

impl Evaluation {
    /// The network built into the binary.
    pub fn built_in_network() -> Evaluation {
        Evaluation::Network(nnue::embedded())
    }

    /// The network, if this is one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        match self {
            Evaluation::HandCrafted => None,
            Evaluation::Network(net) => Some(net),
        }
    }

    /// True when both are the hand-crafted evaluation or the same loaded network.
    pub fn is_same(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::HandCrafted, Evaluation::HandCrafted) => true,
            (Evaluation::Network(a), Evaluation::Network(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// The static evaluation of `pos` for its side to move, from scratch.
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        match self {
            Evaluation::HandCrafted => hce::evaluate(pos),
            Evaluation::Network(net) => network_value(pos, nnue::evaluate_position(net, pos)),
        }
    }
}

/// The network's `value` of `pos` (for the side to move) as the searchers use it: known
/// draws scaled towards 0, and against a bare king the hand-crafted evaluation, whose
/// mop-up terms lead the search to the mate (self-play games seldom reach such endings).
#[inline]
pub fn network_value(pos: &Chess, value: i32) -> i32 {
    if hce::mopup::applies(pos.board()) { hce::evaluate(pos) } else { hce::draws::scale(pos, value) }
}

/// The `eval` line of `net`'s evaluation of `pos` as the searchers use it
/// ([`network_value`]), from White's side as the hand-crafted trace gives it; `label`
/// names the network.
pub fn network_report_line(net: &Network, pos: &Chess, label: &str) -> String {
    let value = network_value(pos, nnue::evaluate_position(net, pos));
    let white = if pos.turn() == Color::White { value } else { -value };
    format!("Network evaluation ({label}): {:+.2} (white side)", f64::from(white) / 100.0)
}

/// A search thread's static evaluation along its line: the hand-crafted one, or the
/// network with one accumulator per ply, each made from its parent's by the move between.
#[derive(Clone, Debug, Default)]
pub enum LineEvaluator {
    /// The hand-crafted evaluation, which needs no state.
    #[default]
    HandCrafted,
    /// The network and the accumulators of the line.
    Network(AccumulatorStack),
}

impl LineEvaluator {
    /// Evaluates with `evaluation` from now on; the accumulators are kept if it is the same.
    pub fn set(&mut self, evaluation: &Evaluation) {
        if self.evaluation().is_same(evaluation) {
            return;
        }
        *self = match evaluation {
            Evaluation::HandCrafted => LineEvaluator::HandCrafted,
            Evaluation::Network(net) => LineEvaluator::Network(AccumulatorStack::new(net.clone(), MAX_PLY + 2)),
        };
    }

    /// The evaluation in use.
    pub fn evaluation(&self) -> Evaluation {
        match self {
            LineEvaluator::HandCrafted => Evaluation::HandCrafted,
            LineEvaluator::Network(stack) => Evaluation::Network(stack.network().clone()),
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the current line, for its
    /// side to move; the rules for known draws and bare kings apply to either evaluation.
    #[inline]
    pub fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        match self {
            LineEvaluator::HandCrafted => hce::evaluate(pos),
            LineEvaluator::Network(stack) => network_value(pos, stack.evaluate(pos, ply)),
        }
    }

    /// Starts the line at `root` (ply 0).
    pub fn start_at(&mut self, root: &Chess) {
        if let LineEvaluator::Network(stack) = self {
            stack.start_at(root.board());
        }
    }

    /// Prepares the evaluation of the position after `m`, played in `pos` at `ply`.
    #[inline]
    pub fn follow_move(&mut self, ply: usize, pos: &Chess, m: Move) {
        if let LineEvaluator::Network(stack) = self {
            stack.push_move(ply, pos, m);
        }
    }

    /// Prepares the evaluation after a null move at `ply`: the same pieces.
    #[inline]
    pub fn follow_null_move(&mut self, ply: usize) {
        if let LineEvaluator::Network(stack) = self {
            stack.push_null_move(ply);
        }
    }
}
