//! The bandwidth search on any [`GameTree`]: select a tip along the best in-band sons,
//! value it again if its value cannot be relied on, or else double-expand it with the band-lowered
//! cutoff, back the values up, repeat; plus the re-rooting the engine needs.
//!
//! The searcher's state and its loop live here; the parts live beside it: the look-ahead
//! schedule (`schedule`), the value and window arithmetic (`window`), selection and backing
//! up (`select`), valuing tips again (`refresh`), expansion (`expand`), memory (`memory`)
//! and the root move choice (`choice`).

use crate::moves::{MoveCode, NO_MOVE};

pub use super::window::{back_up, son_window};

use super::choice::{self, Ranking};
use super::game_tree::{GameTree, Tip, Window};
use super::params::*;
use super::path::Path;
use super::schedule::{LookAhead, Reach};
use super::tree::{DROPPED, EXHAUSTED, HORIZON, Node, NodeId, PROVEN, TERMINAL, Tree};
use super::window::Band;

/// What one call of [`BestFirst::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A tip was expanded and the values backed up.
    Expanded,
    /// A tip whose value could not be relied on (an estimate behind the look-ahead the
    /// search now asks, or a bound) was valued again and the values backed up.
    Refreshed,
    /// Nothing in the band was left to expand at the current look-ahead, so the
    /// look-ahead grew by a ply: the moves out of the band are swept again.
    Deepened,
    /// The abort callback fired during an expansion, which was undone.
    Aborted,
    /// Nothing is left to expand: the root is terminal or exhausted.
    Done,
    /// The tree is full even after compaction and collapsing; it no longer grows.
    Frozen,
}

/// Counters since the searcher was created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Completed expansions.
    pub expansions: u64,
    /// Positions created and valued by expansions (those of aborted expansions included).
    pub created: u64,
    /// Expansions undone by the abort callback.
    pub aborted: u64,
    /// Tips valued again (behind the look-ahead, or bounds).
    pub refreshed: u64,
    /// Compactions of the arena.
    pub compactions: u64,
    /// Nodes freed by collapsing subtrees for memory.
    pub collapsed: u64,
}

/// Result of expanding one tip.
pub(super) enum Expansion {
    Done,
    Aborted,
    Full,
}

/// The search: a game, the root position, the tree and the settings.
pub struct BestFirst<G: GameTree> {
    pub(super) game: G,
    pub(super) root_pos: G::Pos,
    pub(super) tree: Tree,
    pub(super) params: BandwidthParams,
    /// How far ahead new estimates look, and where regular tips lie.
    pub(super) look_ahead: LookAhead,
    pub(super) frozen: bool,
    /// Some tip carries a [`HORIZON`] mark.
    pub(super) horizons: bool,
    /// When set, the root's sons are restricted to these codes.
    pub(super) root_moves: Vec<MoveCode>,
    /// The move of the last root son that was best with a trusted value (see
    /// [`root_choices`](BestFirst::root_choices)), as alpha-beta's last finished iteration
    /// keeps its move until another one is confirmed better.
    pub(super) incumbent: Option<MoveCode>,
    /// Steps so far, for [`RUNNER_UP_EVERY`].
    pub(super) turns: u64,
    pub(super) stats: Stats,
    /// Deepest tip created, in plies below the current root.
    pub(super) deepest: usize,
    /// The line selection walks, entered in the game.
    pub(super) path: Path<G::Pos>,
    // Scratch, kept to avoid allocating per expansion.
    pub(super) moves: Vec<G::Move>,
    pub(super) son_pos: Vec<G::Pos>,
}

impl<G: GameTree> BestFirst<G> {
    /// A searcher on `game` rooted at `root` with a tree of at most `cap` nodes.
    pub fn new(game: G, root: G::Pos, params: BandwidthParams, cap: usize) -> Result<BestFirst<G>, String> {
        let mut searcher = BestFirst {
            game,
            root_pos: root.clone(),
            tree: Tree::new(cap)?,
            params,
            look_ahead: LookAhead::default(),
            frozen: false,
            horizons: false,
            root_moves: Vec::new(),
            incumbent: None,
            turns: 0,
            stats: Stats::default(),
            deepest: 0,
            path: Path::new(),
            moves: Vec::new(),
            son_pos: Vec::new(),
        };
        searcher.reset(root);
        Ok(searcher)
    }

    /// What the look-ahead schedule reads from the settings and the game now: the style's
    /// schedule (see [`is_hybrid`](BestFirst::is_hybrid)) from `TipProbeDepth`, within what
    /// the game offers. Harris's look-ahead never deepens by itself.
    pub(super) fn reach(&self) -> Reach {
        let deepest = self.game.deepest_estimate();
        let base = self.params.tip_probe_depth.min(deepest);
        if self.is_hybrid() {
            let (taper, full_taper_levels) = (HYBRID_LOOK_AHEAD_TAPER, HYBRID_FULL_TAPER_LEVELS);
            return Reach { base, deepest, deepen_every: HYBRID_DEEPEN_EVERY, taper, full_taper_levels };
        }
        Reach { base, deepest, deepen_every: u64::MAX, taper: LOOK_AHEAD_TAPER, full_taper_levels: 0 }
    }

    /// The band and keys of the current settings.
    pub(super) fn band(&self) -> Band {
        Band::of(&self.params)
    }

    /// True in the hybrid style: the tree is grown after alpha-beta's iterative deepening
    /// has searched the root (in chess), each expansion below the levels the iterations saw
    /// ([`HYBRID_FULL_TAPER_LEVELS`]) pushes its line's horizon further
    /// ([`HYBRID_LOOK_AHEAD_TAPER`]), the look-ahead deepens seldom
    /// ([`HYBRID_DEEPEN_EVERY`]), and every [`RUNNER_UP_EVERY`]th step looks deeper at the
    /// runner-up root son (see [`challenge_runner_up`](BestFirst::challenge_runner_up)).
    pub fn is_hybrid(&self) -> bool {
        self.params.style == BandwidthStyle::Hybrid
    }

    /// Raises the look-ahead of new estimates at the root's level to `depth` (within what
    /// the game offers); false if it is there already. Tips behind it are valued again as
    /// selection and the sweep reach them.
    pub fn look_at_least(&mut self, depth: u32) -> bool {
        let reach = self.reach();
        self.look_ahead.deepen_to(depth, reach)
    }

    /// The look-ahead new estimates get now.
    pub fn probe_depth(&self) -> u32 {
        self.look_ahead.depth()
    }

    /// The look-ahead a tip `ply` plies below the root, on a line extended by `ext` plies,
    /// gets now: less deep below the root's sons (see [`LOOK_AHEAD_TAPER`] and
    /// [`is_hybrid`](BestFirst::is_hybrid)), a ply more off
    /// the regular parity (a cut son) so that its horizon lines up with its cousins'.
    pub fn look_ahead_at(&self, ply: usize, ext: u32) -> u32 {
        self.look_ahead.at(ply, ext, self.reach())
    }

    /// Starts a fresh tree at `root` (the game's history must already be set for it). The
    /// look-ahead starts again from the base depth, as for a tip root after a move (see
    /// [`advance`](BestFirst::advance)).
    pub fn reset(&mut self, root: G::Pos) {
        self.look_ahead.reset(self.reach());
        let tip = self.game.evaluate(&root, 0, 0, Window::FULL);
        self.tree.reset(Node::tip(NO_MOVE, tip));
        self.root_pos = root;
        self.frozen = false;
        self.horizons = false;
        self.deepest = 0;
        self.root_moves.clear();
        self.incumbent = None;
    }

    /// Starts a fresh tree at the same root, with the same sons allowed there.
    pub fn restart(&mut self) {
        let (root, codes) = (self.root_pos.clone(), std::mem::take(&mut self.root_moves));
        self.reset_restricted(root, &codes);
    }

    /// Gives a root that is still a tip the value a search of it found, looking `depth`
    /// plies ahead, so that it is expanded at once instead of being valued again. A root
    /// that has sons or is terminal is left as it is.
    pub fn value_tip_root(&mut self, value: i32, depth: u32) {
        let id = self.tree.root();
        if self.tree.node(id).is_tip() && !self.tree.node(id).has(TERMINAL) {
            self.tree.node_mut(id).re_estimate(Tip::estimate_at(value, depth));
        }
    }

    /// Starts a fresh tree at `root` whose sons are only the moves with these codes.
    pub fn reset_restricted(&mut self, root: G::Pos, codes: &[MoveCode]) {
        self.reset(root);
        self.root_moves.extend_from_slice(codes);
    }

    /// True when the root's sons are restricted.
    pub fn is_restricted(&self) -> bool {
        !self.root_moves.is_empty()
    }

    /// The node arena the search grows.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The game the tree is searched in: its moves, tip values and draw rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, to change its settings or history (then [`reset`](BestFirst::reset)).
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// The root position.
    pub fn root_pos(&self) -> &G::Pos {
        &self.root_pos
    }

    /// The style, band, depth penalty and tip probe depth the search runs with.
    pub fn params(&self) -> &BandwidthParams {
        &self.params
    }

    /// Changes the settings. The band and penalty apply from the next backup (the chess
    /// searcher starts a fresh tree after a change).
    pub fn set_params(&mut self, params: BandwidthParams) {
        self.params = params;
        self.frozen = false;
    }

    /// Counters since creation.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Deepest tip created below the current root (reset with
    /// [`clear_deepest`](BestFirst::clear_deepest)).
    pub fn deepest(&self) -> usize {
        self.deepest
    }

    /// Restarts the deepest-tip count, at the current principal line's length.
    pub fn clear_deepest(&mut self) {
        self.deepest = self.root().pvlen();
    }

    /// True once the tree has stopped growing for lack of memory.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        self.tree.node(self.tree.root())
    }

    /// True when nothing is left to expand: the root is terminal or exhausted.
    pub fn is_finished(&self) -> bool {
        self.root().flags() & (TERMINAL | EXHAUSTED) != 0
    }

    /// True when the root's outcome is decided (a win may still get shorter).
    pub fn is_proven(&self) -> bool {
        self.root().has(PROVEN)
    }

    /// Number of nodes in the tree.
    pub fn nodes_in_tree(&self) -> usize {
        self.tree.live()
    }

    /// One iteration: select a tip, then value it again if its value cannot be relied on
    /// (or value again a tip the sweep along its line finds behind), or else expand it,
    /// and back up. `abort` is polled after every new estimate; when it fires, the
    /// iteration is undone. A frozen tree deepens its estimates instead of growing.
    pub fn step(&mut self, abort: &mut dyn FnMut() -> bool) -> Step {
        self.note_incumbent();
        if self.is_finished() {
            return self.look_further(abort);
        }
        if self.memory_is_short() {
            self.manage_memory();
        }
        self.turns += 1;
        if self.is_hybrid()
            && self.turns.is_multiple_of(RUNNER_UP_EVERY)
            && let Some(step) = self.challenge_runner_up(abort)
        {
            return step;
        }
        let mut retried = false;
        loop {
            let tip = match self.select_tip(abort) {
                Ok(tip) => tip,
                Err(step) => return step,
            };
            // The selected line first, as alpha-beta searches the principal move of an
            // iteration first: its brothers are then scouted against its new value, not
            // against a value the deeper look may overturn, and a search stopped between
            // the two plays a move whose line looked as far ahead as its brothers' lines.
            if let Some(step) = self.refresh_selected(tip, abort).or_else(|| self.sweep_path(abort)) {
                return step;
            }
            if self.frozen {
                return self.deepen_frozen(tip, abort);
            }
            match self.expand(tip, abort) {
                Expansion::Done => return self.back_up_expansion(),
                Expansion::Aborted => {
                    self.stats.aborted += 1;
                    self.path.leave(&mut self.game);
                    return Step::Aborted;
                }
                Expansion::Full => {
                    self.path.leave(&mut self.game);
                    if retried {
                        self.frozen = true;
                    } else {
                        retried = true;
                        self.manage_memory();
                    }
                }
            }
        }
    }

    /// Backs up the expansion just made and counts it towards the next deepening.
    fn back_up_expansion(&mut self) -> Step {
        self.stats.expansions += 1;
        self.back_up_path();
        self.path.leave(&mut self.game);
        self.look_ahead.count_expansion(self.reach());
        Step::Expanded
    }

    /// The step once nothing in the band is left to expand: the last tip valued again may
    /// have ended the search before the sweep went along its line, so the principal line
    /// is swept first. Then, since the moves out of the band were valued only as far ahead
    /// as the search looks now, unless the outcome is proven the look-ahead grows by a
    /// ply, as iterative deepening would, and the next steps sweep again. (A line that
    /// ends in a repetition would otherwise stop the search at once, however shallow the
    /// looks that kept its brothers out of the band.)
    fn look_further(&mut self, abort: &mut dyn FnMut() -> bool) -> Step {
        if let Some(step) = self.sweep_principal_line(abort) {
            return step;
        }
        let reach = self.reach();
        if !self.is_proven() && reach.deepens() && self.look_ahead.deepen_to(self.look_ahead.depth() + 1, reach) {
            return Step::Deepened;
        }
        Step::Done
    }

    /// Scorpio's freeze: with no room to grow, look further ahead from the selected tip
    /// instead of expanding it. A collapsed stub or a cut son gets a deeper estimate of its
    /// own too.
    fn deepen_frozen(&mut self, tip: NodeId, abort: &mut dyn FnMut() -> bool) -> Step {
        let deeper = self.tree.node(tip).depth().max(self.look_ahead.depth()) + 1;
        if self.look_ahead.deepen_to(deeper, self.reach()) && !self.tree.node(tip).has(TERMINAL) {
            return self.refresh(tip, Window::FULL, false, 0, abort);
        }
        self.path.leave(&mut self.game);
        Step::Frozen
    }

    /// Remembers the root's best son as the incumbent if its value can be trusted.
    fn note_incumbent(&mut self) {
        if !self.root().is_tip() && self.best_son_trusted() {
            self.incumbent = Some(self.tree.node(self.tree.best_son(self.tree.root())).mv());
        }
    }

    /// Walks the moves `codes` down from the root and keeps that subtree as the new tree.
    /// `root` is the position after the moves (its game history already set). False, and
    /// the tree unchanged, when a move is not in the tree, was dropped, or ends the game.
    /// The look-ahead is carried over, less the moves played, where the new root has sons;
    /// where it is a tip, it starts again from the base depth, since expanding a tip root
    /// probes every son a ply deeper than the look-ahead.
    pub fn advance(&mut self, codes: &[MoveCode], root: G::Pos) -> bool {
        if self.is_restricted() {
            return false;
        }
        let mut id = self.tree.root();
        for &code in codes {
            match self.tree.child_by_move(id, code) {
                Some(c) if !self.tree.node(c).has(DROPPED) => id = c,
                _ => return false,
            }
        }
        if self.tree.node(id).has(TERMINAL) {
            return false;
        }
        self.tree.reroot(id);
        self.revive_root_sons();
        self.incumbent = None;
        self.root_pos = root;
        self.look_ahead.reroot(codes.len(), self.root().is_tip(), self.reach());
        self.deepest = self.deepest.saturating_sub(codes.len());
        self.frozen = false;
        self.clear_horizons();
        true
    }

    /// Makes the sons a strict drop took out of a node selectable again now that the node
    /// is the root, whose moves are never dropped (see `drop_out_of_band`).
    fn revive_root_sons(&mut self) {
        let root = self.tree.root();
        if self.root().is_tip() {
            return;
        }
        for c in self.tree.children(root) {
            let son = self.tree.node_mut(c);
            son.set_flags(son.flags() & !DROPPED);
        }
        self.recompute(root);
    }

    /// Forgets the horizon marks (they were relative to the old root) and recomputes the
    /// flags of every expanded node, sons first.
    fn clear_horizons(&mut self) {
        if !std::mem::take(&mut self.horizons) {
            return;
        }
        for id in self.tree.reachable_ids().into_iter().rev() {
            let node = self.tree.node_mut(id);
            if node.is_tip() {
                if node.has(HORIZON) {
                    node.set_flags(node.flags() & !(HORIZON | EXHAUSTED));
                }
            } else {
                self.recompute(id);
            }
        }
    }

    /// The ranking of the root sons the move choice makes now.
    fn ranking(&self) -> Ranking<'_> {
        Ranking::new(&self.tree, self.params.applied_depth_penalty(), self.incumbent)
    }

    /// The sons of the root with their values from the root's view, ignoring the depth
    /// penalty, best first: those that [flatter](BestFirst::flatters_root) the root count
    /// [`UNCONFIRMED_DISCOUNT_CP`] less (except the [incumbent](BestFirst::incumbent_son)),
    /// and tips holding a scout's bound come after every other son; ties go to the larger
    /// subtree.
    pub fn root_choices(&self) -> Vec<(NodeId, i32)> {
        self.ranking().root_sons()
    }

    /// The root son that was last best with a trusted value since the root last changed, if
    /// it is still a son: until a brother is confirmed better, it ranks as trusted.
    pub fn incumbent_son(&self) -> Option<NodeId> {
        choice::incumbent_son(&self.tree, self.incumbent)
    }

    /// True if the value of the root son `c` may flatter the root's side: the tip at the
    /// end of its principal line holds a bound in the root's favour, such as a scout's.
    /// Such a move is neither played nor reported until it is valued again, unless every
    /// trusted brother is worse by more than [`UNCONFIRMED_DISCOUNT_CP`].
    pub fn flatters_root(&self, c: NodeId) -> bool {
        choice::flatters_root(&self.tree, c)
    }

    /// True if the root's best son (by key, the one selection follows) can be trusted: it
    /// does not [flatter](BestFirst::flatters_root) the root. A search should not stop by
    /// choice before it is.
    pub fn best_son_trusted(&self) -> bool {
        choice::best_son_trusted(&self.tree)
    }

    /// The principal variation as move codes: the best root son (see
    /// [`root_choices`](BestFirst::root_choices)), then the best sons by value.
    pub fn principal_line(&self) -> Vec<MoveCode> {
        self.ranking().principal_nodes().iter().map(|&id| self.tree.node(id).mv()).collect()
    }

    /// The root value without the depth penalty, from the root's side.
    pub fn root_value(&self) -> i32 {
        self.ranking().root_value()
    }

    /// The best root son's lead over the runner-up (keys, from the root's view), if the
    /// root has two candidate sons.
    pub fn root_lead(&self) -> Option<(NodeId, i32)> {
        choice::root_lead(&self.tree, self.band())
    }
}
