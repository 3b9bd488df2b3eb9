//! The static evaluation a search thread uses: the hand-crafted one, or the network with
//! one accumulator per ply of the current line, each made from its parent's by the move
//! between them (a few row additions instead of a rebuild).

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use crate::eval::nnue::{self, Accumulator, Network, move_changes};
use crate::eval::{evaluate, network_value};
use crate::search::MAX_PLY;

/// The network and the accumulators of the line a thread searches.
struct NetworkLine {
    net: Arc<Network>,
    /// Index `ply` holds the position at that ply of the current line.
    accumulators: Box<[Accumulator]>,
}

/// A thread's static evaluation (`None`: the hand-crafted one).
#[derive(Default)]
pub(super) struct Evaluator(Option<NetworkLine>);

impl Evaluator {
    /// Evaluates with `net` from now on (`None`: the hand-crafted evaluation).
    pub(super) fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.0, &net) {
            (Some(line), Some(net)) => Arc::ptr_eq(&line.net, net),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.0 = net.map(|net| {
                let empty = Accumulator::new(&net, &shakmaty::Board::empty());
                NetworkLine { net, accumulators: vec![empty; MAX_PLY + 2].into_boxed_slice() }
            });
        }
    }

    /// The network in use, if any.
    pub(super) fn network(&self) -> Option<Arc<Network>> {
        self.0.as_ref().map(|line| line.net.clone())
    }

    /// The static evaluation of `pos`, the position at `ply` of the current line, for its
    /// side to move; the rules for known draws and bare kings apply to either evaluation.
    #[inline]
    pub(super) fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        match &self.0 {
            Some(line) => network_value(pos, nnue::evaluate(&line.net, &line.accumulators[ply], pos)),
            None => evaluate(pos),
        }
    }

    /// Starts the line at `root` (ply 0).
    pub(super) fn start_at(&mut self, root: &Chess) {
        if let Some(line) = &mut self.0 {
            line.accumulators[0].refresh(&line.net, root.board());
        }
    }

    /// Prepares the evaluation of the position after `m`, played in `pos` at `ply`.
    #[inline]
    pub(super) fn follow_move(&mut self, ply: usize, pos: &Chess, m: Move) {
        if let Some(line) = &mut self.0 {
            let changes = move_changes(pos, m);
            let (before, after) = line.accumulators.split_at_mut(ply + 1);
            after[0] = before[ply];
            after[0].apply(&line.net, changes.added(), changes.removed());
        }
    }

    /// Prepares the evaluation after a null move at `ply`: the same pieces.
    #[inline]
    pub(super) fn follow_null_move(&mut self, ply: usize) {
        if let Some(line) = &mut self.0 {
            line.accumulators[ply + 1] = line.accumulators[ply];
        }
    }
}
