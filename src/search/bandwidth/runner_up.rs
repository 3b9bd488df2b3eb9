//! The hybrid's second look at the root: besides growing the principal line, the search
//! asks the runner-up root son, a ply deeper each time, whether it comes level with the
//! best (B*'s DISPROVEREST), so that probes go where the move choice is uncertain rather
//! than into a uniform deepening of every root son.

use super::best_first::{BestFirst, Step};
use super::game_tree::{GameTree, Window};
use super::tree::{COLLAPSED, DROPPED, EXHAUSTED, NodeId, TERMINAL};

impl<G: GameTree> BestFirst<G> {
    /// Values the runner-up root son (the best by key after the best son) again, looking a
    /// ply further than its last estimate, and asks only whether that brings it into the
    /// band of the best son; one that comes in gets its exact value, and the best son
    /// changes if it is better. `None` (nothing done) when the root has no runner-up that
    /// is a tip, or the runner-up already looks as far as the principal line.
    pub(super) fn challenge_runner_up(&mut self, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        let root = self.tree.root();
        if self.tree.node(root).is_tip() || self.is_proven() {
            return None;
        }
        let best = self.tree.best_son(root);
        let band = self.band();
        let runner_up = self
            .tree
            .children(root)
            .filter(|&c| c != best && !self.tree.node(c).has(DROPPED))
            .max_by_key(|&c| (band.key(self.tree.node(c)), std::cmp::Reverse(c)))?;
        let node = *self.tree.node(runner_up);
        let deeper = node.depth() + 1;
        // The son lies a ply below the root: its horizon is a ply past its look-ahead.
        let reaches = deeper < self.line_horizon(best) && deeper <= self.reach().deepest;
        if !node.is_tip() || node.flags() & (TERMINAL | EXHAUSTED | COLLAPSED) != 0 || !reaches {
            return None;
        }
        let window = band.son_window(Window::FULL, Some(self.best_key(root)));
        self.path.enter_root(&mut self.game, &self.tree, &self.root_pos);
        self.path.descend(&mut self.game, &self.tree, runner_up);
        let pos = self.path.last_pos().clone();
        // The son itself is not on the entered line: its father is the last entered.
        self.game.leave();
        let tip = self.estimate(&pos, 1, deeper, window, true, 0);
        self.game.enter(&pos);
        if abort() {
            self.stats.aborted += 1;
            self.path.leave(&mut self.game);
            return Some(Step::Aborted);
        }
        self.tree.node_mut(runner_up).re_estimate(tip);
        self.stats.refreshed += 1;
        self.back_up_path();
        self.path.leave(&mut self.game);
        Some(Step::Refreshed)
    }

    /// How far ahead the principal line of the root son `son` looks: the ply of its tip
    /// plus the tip's look-ahead.
    fn line_horizon(&self, son: NodeId) -> u32 {
        let (mut id, mut ply) = (son, 1);
        while !self.tree.node(id).is_tip() {
            id = self.tree.best_son(id);
            ply += 1;
        }
        ply + self.tree.node(id).depth()
    }
}
