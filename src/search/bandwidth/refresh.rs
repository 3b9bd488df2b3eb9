//! Valuing tips again: the selected tip when its value cannot be relied on, and the sweep
//! that asks the moves along the selected line, in the band or not, whether a deeper look
//! brings them back into it.

use super::best_first::{BestFirst, Step};
use super::game_tree::{Accuracy, GameTree, Tip, Window};
use super::tree::{COLLAPSED, CUT, DROPPED, Node, NodeId};
use super::window::{self, path_window};

impl<G: GameTree> BestFirst<G> {
    /// True if the value of the tip `node`, `ply` plies below the root on a line extended by
    /// `ext` plies, cannot be relied on (see
    /// [`LookAhead::unreliable`](super::schedule::LookAhead::unreliable)).
    pub(super) fn unreliable(&self, node: &Node, ply: usize, ext: u32) -> bool {
        self.look_ahead.unreliable(node, ply, ext, self.reach())
    }

    /// The window the node at the end of the path needs (see [`window::path_window`]).
    pub(super) fn path_window(&self) -> Window {
        path_window(&self.tree, self.band(), self.path.ids(), &|node, ply, ext| self.unreliable(node, ply, ext))
    }

    /// Values the selected tip `tip` again if its value cannot be relied on; `None` if it
    /// can.
    pub(super) fn refresh_selected(&mut self, tip: NodeId, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        let ply = self.path.len() - 1;
        if !self.unreliable(self.tree.node(tip), ply, self.path.extension(&self.tree, ply)) {
            return None;
        }
        // A bound (a reply never valued, or one cut off earlier) is expected out of the
        // band, a tip that is only behind in look-ahead is not.
        let mut window = self.path_window();
        if window.alpha >= window.beta {
            // Not expected: selection walks only nodes inside their windows. Should bounds
            // among the keys make it otherwise, the band at the father alone still gets the
            // tip a value, so that selection moves on.
            let unreliable = |node: &Node, ply, ext| self.unreliable(node, ply, ext);
            window = window::brothers_window(&self.tree, self.band(), self.path.ids(), ply, &unreliable);
        }
        let scout = self.tree.node(tip).is_bound();
        Some(self.refresh(tip, window, scout, 0, abort))
    }

    /// Before a selected tip that is up to date is expanded, values again one tip due for
    /// the sweep (see [`LookAhead::sweep_due`](super::schedule::LookAhead::sweep_due))
    /// below a node on the selected path (the nearest the root first): a tip son off the
    /// path, or a tip among those an expanded son's value rests on (see
    /// [`sweep_due_in_proof`](BestFirst::sweep_due_in_proof)). It is asked
    /// only whether it now comes within the band of its best brother (one that does gets
    /// its exact value; one that does not, a bound). Best-first search alone never looks
    /// again at a son whose shallow estimate put it out of the band, so a refutation that
    /// only a deeper look finds would stay hidden: this is iterative deepening's second
    /// look at every move along the principal line. Returns `None` when the path holds none.
    pub(super) fn sweep_path(&mut self, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        if !self.reach().deepens() {
            return None;
        }
        let mut route = Vec::new();
        let path = self.path.ids();
        let k = (0..path.len() - 1).find(|&k| {
            let (next, above) = (path[k + 1], self.path.extension(&self.tree, k));
            self.tree.children(path[k]).any(|c| {
                c != next
                    && !self.tree.node(c).has(DROPPED)
                    && self.sweep_due_in_proof(c, k + 1, above, false, &mut route)
            })
        })?;
        // Rewind the entered line to the father, then enter the line to the tip instead.
        self.path.truncate(&mut self.game, k + 1);
        for &id in route.iter().rev() {
            self.path.descend(&mut self.game, &self.tree, id);
        }
        let tip = *route.first().expect("the route ends at a tip");
        let window = self.path_window();
        let reduction = self.late_son_reduction(tip);
        Some(self.refresh(tip, window, true, reduction, abort))
    }

    /// Looks for a tip due for the sweep among those that prove the value of `id`, `ply`
    /// plies below the root, from its father's view: the tip itself, or below it, where the
    /// father's side is to move (`all` set), every son, and elsewhere the best son, the
    /// refutation. A move out of the band is only as bad as its refutation's best answer,
    /// so a deeper look at any answer (not only the best one, which the principal line ends
    /// in) may bring it back. On success `route` holds the nodes from the tip up to `id`.
    fn sweep_due_in_proof(&self, id: NodeId, ply: usize, above: u32, all: bool, route: &mut Vec<NodeId>) -> bool {
        let node = self.tree.node(id);
        let ext = above + node.extension();
        let found = if node.is_tip() {
            self.look_ahead.sweep_due(node, ply, ext, self.reach())
        } else if all {
            self.tree
                .children(id)
                .any(|c| !self.tree.node(c).has(DROPPED) && self.sweep_due_in_proof(c, ply + 1, ext, false, route))
        } else {
            self.sweep_due_in_proof(self.tree.best_son(id), ply + 1, ext, true, route)
        };
        if found {
            route.push(id);
        }
        found
    }

    /// [Sweeps](BestFirst::sweep_path) the principal line, which selection no longer walks
    /// once nothing is left to expand.
    pub(super) fn sweep_principal_line(&mut self, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        if !self.reach().deepens() {
            return None;
        }
        self.path.enter_root(&mut self.game, &self.tree, &self.root_pos);
        let mut id = self.tree.root();
        while !self.tree.node(id).is_tip() {
            id = self.tree.best_son(id);
            self.path.descend(&mut self.game, &self.tree, id);
        }
        let step = self.sweep_path(abort);
        if step.is_none() {
            self.path.leave(&mut self.game);
        }
        step
    }

    /// The reduction the game allows for a scout of the tip `id` at the end of the path,
    /// ranked among its brothers by key. Only sweeps ask, and only the hybrid, which is
    /// selective, sweeps (its estimates deepen).
    fn late_son_reduction(&mut self, id: NodeId) -> u32 {
        let n = self.path.len();
        let father = self.path.ids()[n - 2];
        let band = self.band();
        let key = band.key(self.tree.node(id));
        let rank = self
            .tree
            .children(father)
            .filter(|&c| c != id && !self.tree.node(c).has(DROPPED) && band.key(self.tree.node(c)) > key)
            .count();
        let ply = n - 1;
        let look_ahead = self.look_ahead_at(ply, self.path.extension(&self.tree, ply));
        self.game.reduction(self.path.pos(n - 2), self.path.pos(n - 1), rank, look_ahead)
    }

    /// Values the tip `id` at the end of the path again with the current look-ahead
    /// (exactly inside `window`; first by a [scout](BestFirst::estimate) when `scout`) and
    /// backs up.
    pub(super) fn refresh(
        &mut self,
        id: NodeId,
        window: Window,
        scout: bool,
        reduction: u32,
        abort: &mut dyn FnMut() -> bool,
    ) -> Step {
        let ply = self.path.len() - 1;
        let look_ahead = self.look_ahead_at(ply, self.path.extension(&self.tree, ply));
        if window.alpha >= window.beta {
            // No value of the tip can bring the path back into the band: it keeps its
            // estimate as a bound, valued again if selection ever reaches it.
            let value = self.tree.node(id).value();
            self.tree.node_mut(id).re_estimate(Tip::bound_at(value, look_ahead, Accuracy::Unknown));
            self.stats.refreshed += 1;
            self.path.leave(&mut self.game);
            return Step::Refreshed;
        }
        let pos = self.path.last_pos().clone();
        // The tip itself is not on the entered line: its father is the last entered.
        self.game.leave();
        let mut tip = self.estimate(&pos, ply, look_ahead, window, scout, reduction);
        if repeats_bound(self.tree.node(id), &tip) && !abort() {
            // The same bound at the same look-ahead says nothing new: selection, which
            // reached the tip through its bound, would select it and ask again for ever.
            tip = self.estimate(&pos, ply, look_ahead, Window::FULL, false, 0);
        }
        self.game.enter(&pos);
        if abort() {
            self.stats.aborted += 1;
            self.path.leave(&mut self.game);
            return Step::Aborted;
        }
        self.tree.node_mut(id).re_estimate(tip);
        self.stats.refreshed += 1;
        self.back_up_path();
        self.path.leave(&mut self.game);
        Step::Refreshed
    }
}

/// True if `tip`, a new estimate of `node`, would leave `node` as it is: the bound it holds
/// already (the same value, kind of bound and look-ahead), and no mark of a cut or a
/// collapse for the new estimate to clear.
fn repeats_bound(node: &Node, tip: &Tip) -> bool {
    tip.is_bound()
        && !tip.terminal
        && node.flags() & (CUT | COLLAPSED) == 0
        && (node.value(), node.accuracy(), node.depth()) == (tip.value, tip.accuracy, tip.depth as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bound_that_would_leave_the_tip_as_it_was_repeats() {
        let bound = Tip::bound_at(40, 7, Accuracy::Lower);
        let tip = Node::tip(1, bound);
        assert!(repeats_bound(&tip, &bound));
        // Another value, kind of bound or look-ahead, or an exact value, says something new.
        assert!(!repeats_bound(&tip, &Tip::bound_at(41, 7, Accuracy::Lower)));
        assert!(!repeats_bound(&tip, &Tip::bound_at(40, 7, Accuracy::Upper)));
        assert!(!repeats_bound(&tip, &Tip::bound_at(40, 8, Accuracy::Lower)));
        assert!(!repeats_bound(&tip, &Tip::estimate_at(40, 7)));
        // The same bound clears a cut son's or a collapsed stub's mark: the search moves on.
        for mark in [CUT, COLLAPSED] {
            let mut marked = tip;
            marked.set_flags(mark);
            assert!(!repeats_bound(&marked, &bound), "mark {mark}");
        }
    }
}
