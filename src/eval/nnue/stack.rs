//! The accumulators along a search line: one per ply, each made from its parent's by the
//! move between them (a few row additions instead of a rebuild, unless a king move changes
//! its side's input bucket), as the move is pushed. Made then, the update overlaps the
//! wait for the child's table entry, which the search has just asked the processor to
//! fetch: made only when a position is evaluated, fewer updates took more time.

use std::sync::Arc;

use shakmaty::{Board, Chess, Move, Piece, Position, Role};

use super::{Accumulator, Network, evaluate, move_changes};

/// A network and the accumulators of the line a search thread walks.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    /// Index `ply` holds the position at that ply of the current line.
    plies: Box<[Accumulator]>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `plies` positions.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let empty = Accumulator::new(&net, &Board::empty());
        AccumulatorStack { plies: vec![empty; plies].into_boxed_slice(), net }
    }

    /// The network whose accumulators these are.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts the line at `root` (ply 0).
    pub fn start_at(&mut self, root: &Board) {
        self.plies[0].refresh(&self.net, root);
    }

    /// Makes ply `ply + 1` the position after `m`, played in `pos` at `ply`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, pos: &Chess, m: Move) {
        let changes = move_changes(pos, m);
        let (before, after) = self.plies.split_at_mut(ply + 1);
        if !self.net.input_buckets().is_none() {
            let us = pos.turn();
            let king = Piece { color: us, role: Role::King };
            let moved_to = changes.added().iter().find(|f| f.piece == king).map(|f| f.square);
            if let Some(to) = moved_to
                && self.net.input_buckets().view(us, to) != before[ply].view(us)
            {
                // Every input of our perspective changes: rebuild from the board after the move.
                let mut board = pos.board().clone();
                changes.removed().iter().for_each(|f| board.discard_piece_at(f.square));
                changes.added().iter().for_each(|f| board.set_piece_at(f.square, f.piece));
                after[0].refresh(&self.net, &board);
                return;
            }
        }
        after[0].update_from(&self.net, &before[ply], changes.added(), changes.removed());
    }

    /// Makes ply `ply + 1` the position after a null move at `ply`: the same pieces.
    #[inline]
    pub fn push_null_move(&mut self, ply: usize) {
        let (before, after) = self.plies.split_at_mut(ply + 1);
        after[0].copy_from(&before[ply]);
    }

    /// The accumulator of the position at `ply` of the line.
    #[cfg(test)]
    pub fn accumulator(&self, ply: usize) -> &Accumulator {
        &self.plies[ply]
    }

    /// The network's output for `pos`, the position at `ply` of the line, in centipawns for
    /// its side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        evaluate(&self.net, &self.plies[ply], pos)
    }
}
