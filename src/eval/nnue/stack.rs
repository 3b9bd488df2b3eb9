//! The accumulators along a search line: one per ply, each made from its parent's by the
//! move between them (a few row additions instead of a rebuild, unless a king move changes
//! its side's input bucket). A ply's accumulator is made only when its position, or one
//! below it, is evaluated: a node that a table entry or a draw settles costs none.

use std::sync::Arc;

use shakmaty::{Board, Chess, Move, Piece, Position, Role};

use super::{Accumulator, Changes, Network, evaluate, move_changes};

/// How a ply's accumulator follows from its parent's.
#[derive(Clone, Copy, Debug)]
enum Link {
    /// The accumulator is made.
    Made,
    /// Not made yet: the parent's plus these changes.
    Move(Changes),
    /// Not made yet: the parent's (a null move).
    Null,
}

/// A network and the accumulators of the line a search thread walks.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    net: Arc<Network>,
    /// Index `ply` holds the position at that ply of the current line, once made.
    plies: Box<[Accumulator]>,
    /// Index `ply` says whether `plies[ply]` is made, and if not, how to make it.
    links: Box<[Link]>,
}

impl AccumulatorStack {
    /// A stack for lines of up to `plies` positions.
    pub fn new(net: Arc<Network>, plies: usize) -> AccumulatorStack {
        let empty = Accumulator::new(&net, &Board::empty());
        AccumulatorStack {
            plies: vec![empty; plies].into_boxed_slice(),
            links: vec![Link::Made; plies].into_boxed_slice(),
            net,
        }
    }

    /// The network whose accumulators these are.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Starts the line at `root` (ply 0).
    pub fn start_at(&mut self, root: &Board) {
        self.plies[0].refresh(&self.net, root);
        self.links[0] = Link::Made;
    }

    /// Makes ply `ply + 1` the position after `m`, played in `pos` at `ply`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, pos: &Chess, m: Move) {
        let changes = move_changes(pos, m);
        if !self.net.input_buckets().is_none() {
            let us = pos.turn();
            let king = Piece { color: us, role: Role::King };
            let moved_to = changes.added().iter().find(|f| f.piece == king).map(|f| f.square);
            let buckets = self.net.input_buckets();
            if let Some(to) = moved_to
                && buckets.view(us, to) != buckets.view_of(us, pos.board().king_of(us))
            {
                // Every input of our perspective changes: rebuild from the board after the move.
                let mut board = pos.board().clone();
                changes.removed().iter().for_each(|f| board.discard_piece_at(f.square));
                changes.added().iter().for_each(|f| board.set_piece_at(f.square, f.piece));
                self.plies[ply + 1].refresh(&self.net, &board);
                self.links[ply + 1] = Link::Made;
                return;
            }
        }
        self.links[ply + 1] = Link::Move(changes);
    }

    /// Makes ply `ply + 1` the position after a null move at `ply`: the same pieces.
    #[inline]
    pub fn push_null_move(&mut self, ply: usize) {
        self.links[ply + 1] = Link::Null;
    }

    /// Makes the accumulator of `ply` from the nearest made one above it.
    #[inline]
    fn make(&mut self, ply: usize) {
        if matches!(self.links[ply], Link::Made) {
            return;
        }
        // Ply 0 is always made: `start_at` makes it, and nothing unmakes it.
        let mut first = ply;
        while !matches!(self.links[first - 1], Link::Made) {
            first -= 1;
        }
        for at in first..=ply {
            let (above, rest) = self.plies.split_at_mut(at);
            let (parent, this) = (&above[at - 1], &mut rest[0]);
            match self.links[at] {
                Link::Move(changes) => this.update_from(&self.net, parent, changes.added(), changes.removed()),
                Link::Null => this.copy_from(parent),
                Link::Made => unreachable!("the plies between a made one and `ply` are not made"),
            }
            self.links[at] = Link::Made;
        }
    }

    /// The accumulator of the position at `ply` of the line.
    #[cfg(test)]
    pub fn accumulator(&mut self, ply: usize) -> &Accumulator {
        self.make(ply);
        &self.plies[ply]
    }

    /// The network's output for `pos`, the position at `ply` of the line, in centipawns for
    /// its side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        self.make(ply);
        evaluate(&self.net, &self.plies[ply], pos)
    }
}
