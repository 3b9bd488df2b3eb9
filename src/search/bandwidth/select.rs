//! Selection and backing up: the walk from the root along the best sons in the band to a
//! tip, and the negamax recomputation of the nodes above it afterwards, which also drops
//! what fell out of the band and marks what is proven or exhausted.

use super::best_first::{BestFirst, Step};
use super::game_tree::GameTree;
use super::params::MAX_TREE_DEPTH;
use super::tree::{COLLAPSED, CUT, DROPPED, EXHAUSTED, HORIZON, Node, NodeId, PROVEN};
use super::window::{NO_VALUE, back_up, proven_win};

/// A proven mate in this many plies or fewer cannot be shortened: the only shorter mate
/// is a son that mates at once, and every son is valued (mate detected) when created.
const SHORTEST_PROOF_PLIES: i32 = 3;

/// Where selection ended.
enum Selection {
    /// At a tip to expand.
    Tip(NodeId),
    /// At a tip beyond the depth horizon.
    Beyond(NodeId),
    /// At a node whose flags claim an eligible son it does not have.
    Stuck,
}

impl<G: GameTree> BestFirst<G> {
    /// Selects the tip to work at, leaving the path to it entered. A selection that ends
    /// elsewhere repairs the flags that misled it (stale after a change of band, or a tip
    /// beyond the depth horizon) and selects again: `Err` when the search is then finished,
    /// or `abort` fires in between.
    pub(super) fn select_tip(&mut self, abort: &mut dyn FnMut() -> bool) -> Result<NodeId, Step> {
        loop {
            if self.is_finished() {
                return Err(Step::Done);
            }
            match self.select() {
                Selection::Tip(tip) => return Ok(tip),
                Selection::Beyond(tip) => {
                    // Out of reach from here: exhausted until the root moves.
                    let node = self.tree.node_mut(tip);
                    node.set_flags(node.flags() | EXHAUSTED | HORIZON);
                    self.horizons = true;
                }
                Selection::Stuck => {}
            }
            self.back_up_path();
            self.path.leave(&mut self.game);
            if abort() {
                return Err(Step::Aborted);
            }
        }
    }

    /// Walks from the root to the tip to expand, entering each position in the game. A
    /// proven mate in k plies at a node on the way bounds the depth at which a faster mate
    /// can still be found below it; a tip beyond that horizon is not expanded.
    fn select(&mut self) -> Selection {
        self.path.enter_root(&mut self.game, &self.tree, &self.root_pos);
        let mut horizon = MAX_TREE_DEPTH;
        loop {
            let id = self.path.last();
            let depth = self.path.len() - 1;
            if self.tree.node(id).is_tip() {
                return if depth < horizon { Selection::Tip(id) } else { Selection::Beyond(id) };
            }
            let win = proven_win(&self.tree, id);
            if let Some(plies) = win {
                horizon = horizon.min((depth + plies as usize).saturating_sub(2));
            }
            let Some(son) = self.pick_son(id, win) else {
                return Selection::Stuck;
            };
            self.path.descend(&mut self.game, &self.tree, son);
        }
    }

    /// The key of the best son of `id` (whose sons exist).
    pub(super) fn best_key(&self, id: NodeId) -> i32 {
        self.band().key(self.tree.node(self.tree.best_son(id)))
    }

    /// True if son `c` of a father whose best key is `best_key` is inside the band.
    fn son_in_band(&self, c: NodeId, best_key: i32) -> bool {
        let son = self.tree.node(c);
        !son.has(DROPPED) && self.band().contains(self.band().key(son), best_key)
    }

    /// True if son `c` of `father` lies inside the band of its brothers (and is not
    /// dropped for good): it may be selected while unproven.
    pub fn is_in_band(&self, father: NodeId, c: NodeId) -> bool {
        self.son_in_band(c, self.best_key(father))
    }

    /// True if `son` may still change its father's value, so selection may descend into it:
    /// not exhausted, and inside the band, or, when the father has a proven mate in
    /// `win` plies, possibly a faster mate.
    fn eligible(&self, son: &Node, best_key: i32, win: Option<i32>) -> bool {
        if son.flags() & (EXHAUSTED | DROPPED) != 0 {
            return false;
        }
        match win {
            Some(plies) => plies > SHORTEST_PROOF_PLIES,
            None => self.band().contains(self.band().key(son), best_key),
        }
    }

    /// The son to descend into: the highest key among the eligible sons.
    fn pick_son(&self, id: NodeId, win: Option<i32>) -> Option<NodeId> {
        let best_key = self.best_key(id);
        let mut pick = None;
        let mut pick_key = NO_VALUE;
        for c in self.tree.children(id) {
            let son = self.tree.node(c);
            let key = self.band().key(son);
            if key > pick_key && self.eligible(son, best_key, win) {
                pick = Some(c);
                pick_key = key;
            }
        }
        pick
    }

    /// Recomputes the nodes of the path, from its end up.
    pub(super) fn back_up_path(&mut self) {
        for k in (0..self.path.len()).rev() {
            let id = self.path.ids()[k];
            if !self.tree.node(id).is_tip() {
                self.recompute(id);
            }
        }
    }

    /// Drops for good the sons of `id` outside the band of the best key `best_key`, as
    /// Harris does, except at the root, whose moves stay selectable: the move played is
    /// never one whose brother was dropped on an estimate that later turned. Collapse mode
    /// only stops selecting them and frees their subtrees when memory runs short (largest
    /// gaps first), so a son that comes back into the band resumes from its deep subtree
    /// instead of restarting from a stub.
    fn drop_out_of_band(&mut self, id: NodeId, best_key: i32) {
        if id == self.tree.root() {
            return;
        }
        let band = self.band();
        for c in self.tree.children(id) {
            let son = *self.tree.node(c);
            if !son.has(DROPPED) && !band.contains(band.key(&son), best_key) {
                self.tree.collapse(c);
                let son = self.tree.node_mut(c);
                son.set_flags(son.flags() | DROPPED);
            }
        }
    }

    /// Recomputes value, principal line, flags of an expanded node from its sons, and drops
    /// the sons outside the band in strict Harris mode. A dropped son still counts with the
    /// value it had when dropped (only its growth stops), and a node is proven only when
    /// every son is: dropping a move never hides it from the backup, so that no value or
    /// proof claims more than the dropped moves allow (at a band of 0, Harris's drop would
    /// otherwise prove a mate that an escape dropped on its first estimate avoids).
    pub(super) fn recompute(&mut self, id: NodeId) {
        let band = self.band();
        let range = self.tree.children(id);
        let mut best = 0;
        let mut best_key = NO_VALUE;
        for (k, c) in range.clone().enumerate() {
            let key = band.key(self.tree.node(c));
            if key > best_key {
                best_key = key;
                best = k;
            }
        }
        if self.params.strict_harris {
            self.drop_out_of_band(id, best_key);
        }
        let win = proven_win(&self.tree, id);
        let mut all_proven = true;
        let mut exhausted = true;
        for c in range.clone() {
            let son = self.tree.node(c);
            all_proven &= son.has(PROVEN);
            exhausted &= !self.eligible(son, best_key, win);
        }
        let best_son = *self.tree.node(range.start + best as NodeId);
        let node = self.tree.node_mut(id);
        node.set_value(back_up(best_son.value()));
        node.set_line(best, best_son.pvlen() + 1);
        let mut flags = node.flags() & !(PROVEN | EXHAUSTED | CUT | COLLAPSED);
        if win.is_some() || all_proven {
            flags |= PROVEN;
        }
        if exhausted {
            flags |= EXHAUSTED;
        }
        node.set_flags(flags);
    }
}
