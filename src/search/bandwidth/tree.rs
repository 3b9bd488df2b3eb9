//! The node arena of the bandwidth search.
//!
//! Nodes are 16 bytes and hold no position: the search replays moves from the root. The
//! sons of a node sit in one contiguous block, allocated after their father from a single
//! pre-sized vector (bump allocation, no per-node heap). Because every block lies after its
//! father, one forward sweep finds the reachable nodes and a slide compaction with a rank
//! bitmap as forwarding table reclaims the rest without moving a block apart.

use std::ops::Range;

use crate::moves::{MoveCode, NO_MOVE};

use super::game_tree::{Accuracy, Tip};
use super::params::{MAX_TREE_NODES, MIN_TREE_NODES};

/// Index of a node in the arena.
pub type NodeId = u32;

/// The game is over at this node; its value is exact.
pub const TERMINAL: u8 = 1;
/// The outcome is decided: terminal, a proven winning son, or every son proven. A proven
/// win may still get shorter while the node is not [`EXHAUSTED`].
pub const PROVEN: u8 = 1 << 1;
/// Nothing below is left to expand: every son that could still change the value (in the
/// band, or able to mate faster than a proven mate) is exhausted. Selection skips it.
pub const EXHAUSTED: u8 = 1 << 2;
/// Dropped for good (strict Harris mode): never selected, left out of every backup.
pub const DROPPED: u8 = 1 << 3;
/// Left unexpanded by the band-lowered cutoff of a double expansion: the value is a bound
/// that already puts the node out of the band.
pub const CUT: u8 = 1 << 4;
/// Its subtree was freed to save memory; the value is the one backed up before.
pub const COLLAPSED: u8 = 1 << 5;
/// Inside a freed subtree (garbage until the next compaction).
const FREED: u8 = 1 << 6;
/// A tip exhausted only by a depth horizon (a mate-distance bound, or the tree's depth
/// limit): both depend on the root, so these marks are cleared when the root moves.
pub const HORIZON: u8 = 1 << 7;

/// One node of the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    /// The sons are `first_child..first_child + n_children`.
    first_child: NodeId,
    /// Backed-up negamax value for the side to move here; mate values relative to the node.
    value: i16,
    /// The node's own estimate from when it was created; for a stub collapsed under a
    /// depth penalty, its plain negamax value.
    tip_eval: i16,
    /// The move from the father.
    mv: MoveCode,
    /// Number of sons (0: a tip).
    n_children: u8,
    /// Length of the principal line below the node.
    pvlen: u8,
    /// Index of the best son within the block.
    best: u8,
    /// `TERMINAL`, `PROVEN`, ...
    flags: u8,
    /// How deep the game looked for `tip_eval` (the low six bits), and [`LOWER_BIT`] or
    /// [`UPPER_BIT`] (or both, for a bound either way) when that was only a bound.
    depth: u8,
    /// Plies of look-ahead the move into the node adds to every line through it.
    extension: u8,
}

/// Marks the depth byte of a node whose own estimate is a lower bound (failed high).
const LOWER_BIT: u8 = 0x40;
/// Marks the depth byte of a node whose own estimate is an upper bound (failed low).
const UPPER_BIT: u8 = 0x80;
/// The bits of the depth byte that hold the look-ahead.
const DEPTH_MASK: u8 = LOWER_BIT - 1;

/// The depth byte of a tip estimate.
fn depth_byte(tip: Tip) -> u8 {
    let bits = match tip.accuracy {
        Accuracy::Exact => 0,
        Accuracy::Lower => LOWER_BIT,
        Accuracy::Upper => UPPER_BIT,
        Accuracy::Unknown => LOWER_BIT | UPPER_BIT,
    };
    tip.depth.min(DEPTH_MASK) | bits
}

const _: () = assert!(size_of::<Node>() == 16);

/// Clamps a value into a node's 16 bits (mate values fit: `MATE` is below `i16::MAX`).
#[inline]
fn to_i16(value: i32) -> i16 {
    value.clamp(-i16::MAX as i32, i16::MAX as i32) as i16
}

impl Node {
    /// A new tip reached by `mv`, valued `tip`.
    pub(crate) fn tip(mv: MoveCode, tip: Tip) -> Node {
        let value = to_i16(tip.value);
        let flags = if tip.terminal { TERMINAL | PROVEN | EXHAUSTED } else { 0 };
        Node {
            first_child: 0,
            value,
            tip_eval: value,
            mv,
            n_children: 0,
            pvlen: 0,
            best: 0,
            flags,
            depth: depth_byte(tip),
            extension: 0,
        }
    }

    /// The node, its move extending every line through it by `plies`.
    pub(crate) fn with_extension(self, plies: u32) -> Node {
        Node { extension: plies.min(u8::MAX as u32) as u8, ..self }
    }

    /// Plies of look-ahead the move into the node adds to every line through it.
    #[inline]
    pub fn extension(&self) -> u32 {
        self.extension as u32
    }

    /// Gives a tip the deeper estimate `tip` (of the same position); a cut son's bound, or
    /// a collapsed stub's backed-up value, becomes an estimate.
    pub(crate) fn re_estimate(&mut self, tip: Tip) {
        debug_assert!(self.is_tip());
        self.value = to_i16(tip.value);
        self.tip_eval = self.value;
        self.depth = depth_byte(tip);
        self.flags &= !(CUT | COLLAPSED);
        if tip.terminal {
            self.flags |= TERMINAL | PROVEN | EXHAUSTED;
        }
    }

    /// Negamax value for the side to move here.
    #[inline]
    pub fn value(&self) -> i32 {
        self.value as i32
    }

    /// The estimate the node got when it was created (see the field for collapsed stubs).
    #[inline]
    pub fn tip_eval(&self) -> i32 {
        self.tip_eval as i32
    }

    /// The move leading here ([`NO_MOVE`] at a fresh root).
    #[inline]
    pub fn mv(&self) -> MoveCode {
        self.mv
    }

    /// How deep the game looked for the node's own estimate.
    #[inline]
    pub fn depth(&self) -> u32 {
        (self.depth & DEPTH_MASK) as u32
    }

    /// True if the node's own estimate is only a bound.
    #[inline]
    pub fn is_bound(&self) -> bool {
        self.depth & !DEPTH_MASK != 0
    }

    /// What the node's own estimate says of its true value, from its side to move.
    #[inline]
    pub fn accuracy(&self) -> Accuracy {
        match (self.depth & LOWER_BIT != 0, self.depth & UPPER_BIT != 0) {
            (false, false) => Accuracy::Exact,
            (true, false) => Accuracy::Lower,
            (false, true) => Accuracy::Upper,
            (true, true) => Accuracy::Unknown,
        }
    }

    /// Number of sons.
    #[inline]
    pub fn n_children(&self) -> usize {
        self.n_children as usize
    }

    /// Length of the principal line below the node.
    #[inline]
    pub fn pvlen(&self) -> usize {
        self.pvlen as usize
    }

    /// Index of the best son within the block of sons.
    #[inline]
    pub fn best(&self) -> usize {
        self.best as usize
    }

    /// All flags.
    #[inline]
    pub fn flags(&self) -> u8 {
        self.flags
    }

    /// True if every flag of `mask` is set.
    #[inline]
    pub fn has(&self, mask: u8) -> bool {
        self.flags & mask == mask
    }

    /// True if the node has no sons.
    #[inline]
    pub fn is_tip(&self) -> bool {
        self.n_children == 0
    }

    /// Sets the backed-up value (stored in 16 bits).
    pub(crate) fn set_value(&mut self, value: i32) {
        self.value = to_i16(value);
    }

    /// Sets the node's own estimate (stored in 16 bits; see the field).
    pub(crate) fn set_tip_eval(&mut self, value: i32) {
        self.tip_eval = to_i16(value);
    }

    /// Replaces the node's flags.
    pub(crate) fn set_flags(&mut self, flags: u8) {
        self.flags = flags;
    }

    /// Sets the best son's index and the length of the principal line below (at most 255).
    pub(crate) fn set_line(&mut self, best: usize, pvlen: usize) {
        self.best = best as u8;
        self.pvlen = pvlen.min(u8::MAX as usize) as u8;
    }

    /// Links the node to its `count` sons, stored from `first`.
    pub(crate) fn set_children(&mut self, first: NodeId, count: usize) {
        debug_assert!(count <= u8::MAX as usize);
        self.first_child = first;
        self.n_children = count as u8;
    }

    /// Forgets the sons (they become garbage) and keeps the backed-up value.
    fn clear_children(&mut self) {
        self.first_child = 0;
        self.n_children = 0;
    }
}

/// Reachability marks with per-word ranks: the forwarding table of a compaction in about
/// 1.5 bits per node.
struct RankBitmap {
    marks: Vec<u64>,
    ranks: Vec<u32>,
}

impl RankBitmap {
    fn new(len: usize) -> RankBitmap {
        RankBitmap { marks: vec![0; len.div_ceil(64)], ranks: Vec::new() }
    }

    #[inline]
    fn set(&mut self, i: usize) {
        self.marks[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn get(&self, i: usize) -> bool {
        self.marks[i / 64] & (1 << (i % 64)) != 0
    }

    /// Prepares [`rank`](RankBitmap::rank); returns the number of marks.
    fn build_ranks(&mut self) -> usize {
        let mut total = 0u32;
        self.ranks = self
            .marks
            .iter()
            .map(|w| {
                let before = total;
                total += w.count_ones();
                before
            })
            .collect();
        total as usize
    }

    /// Number of marks before `i`: the new index of a marked node.
    #[inline]
    fn rank(&self, i: usize) -> usize {
        let below = self.marks[i / 64] & ((1u64 << (i % 64)) - 1);
        self.ranks[i / 64] as usize + below.count_ones() as usize
    }
}

/// The arena: a node cap, the root, and the count of reachable nodes.
pub struct Tree {
    nodes: Vec<Node>,
    cap: usize,
    root: NodeId,
    live: usize,
}

impl Tree {
    /// An empty arena for at most `cap` nodes, reserved at once.
    pub fn new(cap: usize) -> Result<Tree, String> {
        let cap = cap.clamp(MIN_TREE_NODES, MAX_TREE_NODES);
        let mut nodes = Vec::new();
        nodes
            .try_reserve_exact(cap)
            .map_err(|_| format!("could not allocate {} MB for the search tree", (cap * size_of::<Node>()) >> 20))?;
        Ok(Tree { nodes, cap, root: 0, live: 0 })
    }

    /// Empties the arena and makes `root` its only node.
    pub(crate) fn reset(&mut self, root: Node) {
        self.nodes.clear();
        self.nodes.push(root);
        self.root = 0;
        self.live = 1;
    }

    /// The root's id: 0 after a reset, any node after re-rooting or compaction.
    #[inline]
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// A node.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// A node, to change.
    #[inline]
    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// The sons of `id`.
    #[inline]
    pub fn children(&self, id: NodeId) -> Range<NodeId> {
        let n = self.node(id);
        n.first_child..n.first_child + n.n_children as NodeId
    }

    /// The best son of the expanded node `id` (the one its value is backed up from).
    #[inline]
    pub fn best_son(&self, id: NodeId) -> NodeId {
        self.node(id).first_child + self.node(id).best as NodeId
    }

    /// The son of `id` reached by `code`.
    pub fn child_by_move(&self, id: NodeId, code: MoveCode) -> Option<NodeId> {
        if code == NO_MOVE {
            return None;
        }
        self.children(id).find(|&c| self.node(c).mv == code)
    }

    /// Slots in use, garbage included (the bump pointer).
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the arena holds nothing (before the first root).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Nodes reachable from the root.
    #[inline]
    pub fn live(&self) -> usize {
        self.live
    }

    /// The node cap.
    #[inline]
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Live nodes per mille of the cap.
    pub fn hashfull(&self) -> u32 {
        (self.live * 1000 / self.cap) as u32
    }

    /// Reserves `count` consecutive slots, or `None` when the cap forbids it. The slots
    /// count as live: they are about to be linked, or truncated away.
    pub(crate) fn alloc(&mut self, count: usize) -> Option<NodeId> {
        let first = self.nodes.len();
        if first + count > self.cap {
            return None;
        }
        self.nodes.resize(first + count, Node::default());
        self.live += count;
        Some(first as NodeId)
    }

    /// Undoes every allocation made since the bump pointer was `mark`.
    pub(crate) fn truncate(&mut self, mark: usize) {
        self.live -= self.nodes.len() - mark;
        self.nodes.truncate(mark);
    }

    /// Nodes in the subtree of `id`, `id` included.
    pub fn subtree_size(&self, id: NodeId) -> usize {
        let mut count = 0;
        self.walk(id, |_| count += 1);
        count
    }

    /// Calls `visit` on every node of the subtree of `id`, fathers before sons.
    fn walk(&self, id: NodeId, mut visit: impl FnMut(NodeId)) {
        let mut stack: Vec<Range<NodeId>> = Vec::with_capacity(64);
        stack.push(id..id + 1);
        while let Some(range) = stack.last_mut() {
            let Some(next) = range.next() else {
                stack.pop();
                continue;
            };
            visit(next);
            if !self.node(next).is_tip() {
                stack.push(self.children(next));
            }
        }
    }

    /// Frees the subtree below `id` and keeps `id` as a tip with its backed-up value
    /// (flagged [`COLLAPSED`]). A proven stub is never expanded again (that would lose the
    /// proof); any other may be revived. Returns the number of nodes freed; 0 when `id` is
    /// a tip or already inside a freed subtree.
    pub(crate) fn collapse(&mut self, id: NodeId) -> usize {
        let node = *self.node(id);
        if node.is_tip() || node.has(FREED) {
            return 0;
        }
        let mut freed = Vec::new();
        for c in self.children(id) {
            self.walk(c, |n| freed.push(n));
        }
        for &n in &freed {
            self.node_mut(n).flags |= FREED;
        }
        let node = self.node_mut(id);
        node.clear_children();
        node.flags |= COLLAPSED;
        if node.has(PROVEN) {
            node.flags |= EXHAUSTED;
        } else {
            node.flags &= !EXHAUSTED;
        }
        self.live -= freed.len();
        freed.len()
    }

    /// Makes `id` the root; everything outside its subtree becomes garbage.
    pub(crate) fn reroot(&mut self, id: NodeId) {
        self.root = id;
        self.live = self.subtree_size(id);
    }

    /// The nodes reachable from the root, in increasing order (fathers before sons).
    pub fn reachable_ids(&self) -> Vec<NodeId> {
        let marks = self.reachable();
        (self.root as usize..self.nodes.len()).filter(|&i| marks.get(i)).map(|i| i as NodeId).collect()
    }

    /// Marks the nodes reachable from the root. Sons lie after their father, so one
    /// forward sweep suffices.
    fn reachable(&self) -> RankBitmap {
        let mut marks = RankBitmap::new(self.nodes.len());
        marks.set(self.root as usize);
        for i in self.root as usize..self.nodes.len() {
            if marks.get(i) {
                for c in self.children(i as NodeId) {
                    marks.set(c as usize);
                }
            }
        }
        marks
    }

    /// Slides the reachable nodes down over the garbage, keeping every block of sons
    /// together and after its father. Invalidates every `NodeId` but the root's, which is
    /// updated.
    pub(crate) fn compact(&mut self) {
        let mut marks = self.reachable();
        let live = marks.build_ranks();
        for i in self.root as usize..self.nodes.len() {
            if !marks.get(i) {
                continue;
            }
            let mut node = self.nodes[i];
            if !node.is_tip() {
                node.first_child = marks.rank(node.first_child as usize) as NodeId;
            }
            // The new index never exceeds the old one, and the sweep goes upwards, so no
            // live node is overwritten before it has moved.
            self.nodes[marks.rank(i)] = node;
        }
        self.root = marks.rank(self.root as usize) as NodeId;
        self.nodes.truncate(live);
        self.live = live;
    }

    /// For every reachable node, `value(node, sons' results)` computed sons first: a
    /// bottom-up pass over the tree (indexed by `NodeId`; unreachable slots hold 0).
    pub fn bottom_up(&self, mut value: impl FnMut(NodeId, &[i32]) -> i32) -> Vec<i32> {
        let marks = self.reachable();
        let mut out = vec![0; self.nodes.len()];
        for i in (self.root as usize..self.nodes.len()).rev() {
            if !marks.get(i) {
                continue;
            }
            let range = self.children(i as NodeId);
            out[i] = if range.is_empty() {
                value(i as NodeId, &[])
            } else {
                let sons = &out[range.start as usize..range.end as usize];
                value(i as NodeId, sons)
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tip(mv: MoveCode, value: i32) -> Node {
        Node::tip(mv, Tip::estimate(value))
    }

    /// A root with three sons, the second of which has two sons.
    fn small_tree() -> Tree {
        let mut tree = Tree::new(MIN_TREE_NODES).unwrap();
        tree.reset(tip(NO_MOVE, 0));
        let first = tree.alloc(3).unwrap();
        for k in 0..3 {
            *tree.node_mut(first + k) = tip(k as MoveCode + 1, 10 * k as i32);
        }
        tree.node_mut(0).set_children(first, 3);
        let grand = tree.alloc(2).unwrap();
        for k in 0..2 {
            *tree.node_mut(grand + k) = tip(k as MoveCode + 1, -5);
        }
        tree.node_mut(first + 1).set_children(grand, 2);
        tree
    }

    #[test]
    fn nodes_are_sixteen_bytes() {
        assert_eq!(size_of::<Node>(), 16);
    }

    #[test]
    fn alloc_respects_the_cap_and_truncate_undoes() {
        let mut tree = Tree::new(MIN_TREE_NODES).unwrap();
        tree.reset(tip(NO_MOVE, 0));
        assert!(tree.alloc(MIN_TREE_NODES).is_none());
        let mark = tree.len();
        tree.alloc(10).unwrap();
        assert_eq!(tree.live(), 11);
        tree.truncate(mark);
        assert_eq!((tree.len(), tree.live()), (1, 1));
    }

    #[test]
    fn compaction_after_reroot_keeps_the_subtree() {
        let mut tree = small_tree();
        assert_eq!(tree.subtree_size(0), 6);
        tree.reroot(2);
        assert_eq!(tree.live(), 3);
        tree.compact();
        assert_eq!((tree.len(), tree.live(), tree.root()), (3, 3, 0));
        let sons: Vec<_> = tree.children(0).map(|c| tree.node(c).mv()).collect();
        assert_eq!(sons, vec![1, 2]);
        assert_eq!(tree.node(0).value(), 10);
    }

    #[test]
    fn collapse_frees_below_and_keeps_the_value() {
        let mut tree = small_tree();
        tree.node_mut(2).set_value(77);
        assert_eq!(tree.collapse(2), 2);
        assert_eq!(tree.collapse(2), 0);
        assert_eq!(tree.live(), 4);
        tree.compact();
        assert_eq!(tree.len(), 4);
        assert!(tree.node(2).has(COLLAPSED) && tree.node(2).is_tip());
        assert_eq!(tree.node(2).value(), 77);
    }

    #[test]
    fn bottom_up_sees_the_sons_first() {
        let tree = small_tree();
        let sizes = tree.bottom_up(|_, sons| 1 + sons.iter().sum::<i32>());
        assert_eq!(sizes[0], 6);
        assert_eq!(sizes[2], 3);
    }
}
