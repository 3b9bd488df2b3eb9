//! The static evaluation a search thread uses: the hand-crafted one, or the network with
//! one accumulator per ply of the current line, each made from its parent's by the move
//! between them (a few row additions instead of a rebuild).

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use super::worker::Worker;
use crate::eval::nnue::{self, Accumulator, Network, move_changes};
use crate::eval::{draws, evaluate};
use crate::search::MAX_PLY;

/// The network and the accumulators of the line a thread searches.
pub(super) struct NetworkLine {
    net: Arc<Network>,
    /// Index `ply` holds the position at that ply of the current line.
    accumulators: Box<[Accumulator]>,
}

impl NetworkLine {
    fn new(net: Arc<Network>) -> NetworkLine {
        let empty = Accumulator::new(&net, &shakmaty::Board::empty());
        NetworkLine { net, accumulators: vec![empty; MAX_PLY + 2].into_boxed_slice() }
    }
}

impl Worker {
    /// Evaluates with `net` from now on (`None`: the hand-crafted evaluation).
    pub(super) fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.network, &net) {
            (Some(line), Some(net)) => Arc::ptr_eq(&line.net, net),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.network = net.map(NetworkLine::new);
        }
    }

    /// The network this thread evaluates with, if any.
    pub(super) fn network_in_use(&self) -> Option<Arc<Network>> {
        self.network.as_ref().map(|line| line.net.clone())
    }

    /// The static evaluation of `pos`, the position at `ply` of the current line, for its
    /// side to move; known draws are scaled towards 0 whichever evaluation gives it.
    #[inline]
    pub(super) fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        match &self.network {
            Some(line) => draws::scale(pos, nnue::evaluate(&line.net, &line.accumulators[ply], pos.turn())),
            None => evaluate(pos),
        }
    }

    /// Starts the line's evaluation at `root` (ply 0).
    pub(super) fn evaluate_from(&mut self, root: &Chess) {
        if let Some(line) = &mut self.network {
            line.accumulators[0].refresh(&line.net, root.board());
        }
    }

    /// Prepares the evaluation of the position after `m`, played in `pos` at `ply`.
    #[inline]
    pub(super) fn follow_move(&mut self, ply: usize, pos: &Chess, m: Move) {
        if let Some(line) = &mut self.network {
            let changes = move_changes(pos, m);
            let (before, after) = line.accumulators.split_at_mut(ply + 1);
            after[0] = before[ply];
            after[0].apply(&line.net, changes.added(), changes.removed());
        }
    }

    /// Prepares the evaluation after a null move at `ply`: the same pieces.
    #[inline]
    pub(super) fn follow_null_move(&mut self, ply: usize) {
        if let Some(line) = &mut self.network {
            line.accumulators[ply + 1] = line.accumulators[ply];
        }
    }
}
