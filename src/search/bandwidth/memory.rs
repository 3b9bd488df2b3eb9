//! Keeping the tree within its node cap: compaction, collapsing the least promising
//! subtrees, freezing when neither helps.

use super::best_first::BestFirst;
use super::choice::Ranking;
use super::game_tree::GameTree;
use super::params::{COLLAPSE_ABOVE_PERCENT, COLLAPSE_TARGET_PERCENT, COMPACT_AT_PERCENT};
use super::tree::{Node, NodeId, Tree};

impl Tree {
    /// Collapses subtrees, the furthest from the principal variation first (by the sum of
    /// the gaps between a son's `key` and its best brother's along the path), until at most
    /// `target` nodes live; `protected` (sorted) are never collapsed. A collapsed stub keeps
    /// its value and flags, and its plain value (`values`, under a depth penalty) as its
    /// own estimate. Returns the number of nodes freed.
    fn collapse_to(
        &mut self,
        target: usize,
        protected: &[NodeId],
        values: Option<&[i32]>,
        key: impl Fn(&Node) -> i32,
    ) -> u64 {
        // (gap from the PV, depth, node) for every expanded node off the protected lines.
        let mut candidates: Vec<(i32, u8, NodeId)> = Vec::new();
        let mut stack: Vec<(NodeId, i32, u8)> = vec![(self.root(), 0, 0)];
        while let Some((id, gap, depth)) = stack.pop() {
            let best_key = key(self.node(self.best_son(id)));
            for c in self.children(id) {
                if self.node(c).is_tip() {
                    continue;
                }
                let son_gap = gap.saturating_add(best_key - key(self.node(c)));
                let son_depth = depth.saturating_add(1);
                if protected.binary_search(&c).is_err() {
                    candidates.push((son_gap, son_depth, c));
                }
                stack.push((c, son_gap, son_depth));
            }
        }
        candidates.sort_unstable_by_key(|&(gap, depth, _)| (std::cmp::Reverse(gap), depth));
        let mut collapsed = 0;
        for (_, _, id) in candidates {
            if self.live() <= target {
                break;
            }
            let freed = self.collapse(id);
            if freed > 0 {
                collapsed += freed as u64;
                let node = self.node_mut(id);
                node.set_tip_eval(values.map_or(node.value(), |v| v[id as usize]));
            }
        }
        collapsed
    }
}

impl<G: GameTree> BestFirst<G> {
    /// Compacts the arena; collapses the least promising subtrees when the live nodes still
    /// fill too much of it; freezes the tree when even that does not help. The search does
    /// this when the arena fills up.
    pub fn manage_memory(&mut self) {
        self.tree.compact();
        self.stats.compactions += 1;
        let cap = self.tree.cap();
        if self.tree.live() * 100 > cap * COLLAPSE_ABOVE_PERCENT {
            self.collapse_to(cap * COLLAPSE_TARGET_PERCENT / 100);
            self.tree.compact();
        }
        self.frozen = self.tree.live() * 100 >= cap * COMPACT_AT_PERCENT;
    }

    /// True when the arena is full enough to be compacted before the next expansion.
    pub(super) fn memory_is_short(&self) -> bool {
        !self.frozen && self.tree.len() * 100 >= self.tree.cap() * COMPACT_AT_PERCENT
    }

    /// Collapses subtrees until at most `target` nodes live. Neither the reported principal
    /// variation nor the line of best keys (which carries the stored root value) is
    /// collapsed; under a depth penalty a stub keeps its plain negamax value too, so the
    /// move choice survives.
    fn collapse_to(&mut self, target: usize) {
        let root = self.tree.root();
        if self.tree.node(root).is_tip() {
            return;
        }
        let ranking = Ranking::new(&self.tree, self.params.applied_depth_penalty(), self.incumbent);
        let mut protected = ranking.principal_nodes();
        let values = ranking.into_values();
        let mut id = root;
        while !self.tree.node(id).is_tip() {
            id = self.tree.best_son(id);
            protected.push(id);
        }
        protected.sort_unstable();
        let band = self.band();
        self.stats.collapsed += self.tree.collapse_to(target, &protected, values.as_deref(), |node| band.key(node));
    }
}
