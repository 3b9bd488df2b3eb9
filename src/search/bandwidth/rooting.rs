//! Re-rooting the kept tree: on the game's moves from its root, or on a new position for
//! each search, keeping the subtree the game reached.

use shakmaty::{Chess, Move, Position};

use super::Bandwidth;
use super::chess::ChessPos;
use crate::moves::{MoveCode, encode};
use crate::search::SearchJob;

impl Bandwidth {
    /// Re-roots the tree after the legal `moves` were played from its root, keeping the
    /// subtree they lead to. False when that subtree is not in the tree (a move never
    /// generated, dropped for good, or ending the game): the tree then starts afresh at the
    /// new position. An illegal move leaves everything unchanged and returns false.
    pub fn advance(&mut self, moves: &[Move]) -> bool {
        let mut pos = self.searcher.root_pos().clone();
        let mut history = self.searcher.game().history().to_vec();
        let mut codes = Vec::with_capacity(moves.len());
        for &m in moves {
            if !pos.pos.is_legal(m) {
                return false;
            }
            history.push(pos.key);
            codes.push(encode(m));
            pos = pos.play(m);
        }
        self.searcher.game_mut().set_history(&history);
        if self.searcher.advance(&codes, pos.clone()) {
            return true;
        }
        self.searcher.reset(pos);
        false
    }

    /// Makes `root` (after the game positions whose keys are `history`, oldest first) the
    /// root. When the game continues the tree's root by moves inside the tree, that subtree
    /// is kept (true); otherwise the tree starts afresh (false).
    pub fn set_position(&mut self, root: &Chess, history: &[u64]) -> bool {
        let target = ChessPos::new(root.clone());
        let codes = self.path_to(&target, history);
        self.searcher.game_mut().set_history(history);
        if let Some(codes) = codes
            && (codes.is_empty() || self.searcher.advance(&codes, target.clone()))
        {
            return true;
        }
        self.searcher.reset(target);
        false
    }

    /// Roots the tree for `job` and says whether it kept a subtree. The hybrid's `go
    /// ponder` roots it after the expected reply, as alpha-beta does: all of the opponent's
    /// time goes into the answers to the reply it expects, and `ponderhit` goes on in the
    /// same tree. A miss then starts a fresh tree, but the probes' table keeps what was
    /// learnt. (The Harris style ponders on every reply first: see `ponder`.)
    /// `searchmoves` gives a fresh tree whose root has only those sons. Calling it again
    /// for the same job changes nothing.
    pub fn prepare(&mut self, job: &SearchJob) -> bool {
        if !job.limits.searchmoves.is_empty() {
            let codes: Vec<MoveCode> = job.limits.searchmoves.iter().map(|&m| encode(m)).collect();
            self.searcher.game_mut().set_history(&job.history);
            self.searcher.reset_restricted(ChessPos::new(job.root.clone()), &codes);
            return false;
        }
        self.set_position(&job.root, &job.history)
    }

    /// The game's moves from the tree's root to `target`, found by matching `history`
    /// (which must extend the tree's history through its root) against the keys of the
    /// positions they lead to; empty when `target` is the root.
    pub(super) fn line_to(&self, target: &ChessPos, history: &[u64]) -> Option<Vec<Move>> {
        if self.searcher.is_restricted() {
            return None;
        }
        let old = self.searcher.game().history();
        let root = self.searcher.root_pos();
        if history == old {
            return (target.key == root.key && target.pos == root.pos).then(Vec::new);
        }
        if history.len() <= old.len() || history[..old.len()] != *old || history[old.len()] != root.key {
            return None;
        }
        let mut pos = root.clone();
        let mut line = Vec::new();
        for &key in history[old.len() + 1..].iter().chain([&target.key]) {
            let (m, next) = pos.pos.legal_moves().into_iter().find_map(|m| {
                let next = pos.play(m);
                (next.key == key).then_some((m, next))
            })?;
            line.push(m);
            pos = next;
        }
        (pos.pos == target.pos).then_some(line)
    }

    /// The moves from the tree's root to `target` as the codes of sons in the tree, when
    /// the game reached it along the tree (see [`line_to`](Bandwidth::line_to)).
    fn path_to(&self, target: &ChessPos, history: &[u64]) -> Option<Vec<MoveCode>> {
        let tree = self.searcher.tree();
        let mut id = tree.root();
        let mut codes = Vec::new();
        for m in self.line_to(target, history)? {
            let code = encode(m);
            id = tree.child_by_move(id, code)?;
            codes.push(code);
        }
        Some(codes)
    }
}
