//! The bandwidth search on any [`GameTree`]: select a tip along the best in-band sons,
//! double-expand it with the band-lowered cutoff, back the values up, drop what fell out
//! of the band, repeat; plus the memory management and re-rooting the engine needs.

use crate::moves::{MoveCode, NO_MOVE};
use crate::search::{MATE, MATE_BOUND};

use super::game::{Accuracy, GameTree, Tip, Window};
use super::params::*;
use super::tree::{COLLAPSED, CUT, DROPPED, EXHAUSTED, HORIZON, Node, NodeId, PROVEN, TERMINAL, Tree};

/// A value below every value a node can hold.
const NO_VALUE: i32 = i32::MIN / 2;
/// A proven mate in this many plies or fewer cannot be shortened: the only shorter mate
/// is a son that mates at once, and every son is valued (mate detected) when created.
const SHORTEST_PROOF_PLIES: i32 = 3;

/// How far a root son's value can be trusted, in rising order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Trust {
    /// The son is a tip whose own estimate is a bound in the root's favour: a scout showed
    /// only that the move was no better than the best one then.
    None,
    /// The son once had an exact value (it was expanded), but a bound in the root's favour
    /// ends its principal line now.
    Partial,
    /// No bound flatters the son's value.
    Full,
}

/// What one call of [`Searcher::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A tip was expanded and the values backed up.
    Expanded,
    /// A stale tip (a shallower look-ahead than the search now uses, or a bound) was valued
    /// again and the values backed up.
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
    /// Stale tips valued again.
    pub refreshed: u64,
    /// Compactions of the arena.
    pub compactions: u64,
    /// Nodes freed by collapsing subtrees for memory.
    pub collapsed: u64,
}

/// Where selection ended.
enum Selection {
    /// At a tip to expand.
    Tip(NodeId),
    /// At a tip beyond the depth horizon.
    Beyond(NodeId),
    /// At a node whose flags claim an eligible son it does not have.
    Stuck,
}

/// Result of expanding one tip.
enum Expansion {
    Done,
    Aborted,
    Full,
}

/// The search: a game, the root position, the tree and the settings.
pub struct Searcher<G: GameTree> {
    game: G,
    root_pos: G::Pos,
    tree: Tree,
    params: BandwidthParams,
    /// Parity of the depth (below the root) of regular tips: every tip made by a double
    /// expansion has it, so all tips share a side to move.
    tip_parity: usize,
    frozen: bool,
    /// Some tip carries a [`HORIZON`] mark.
    horizons: bool,
    /// When set, the root's sons are restricted to these codes.
    root_moves: Vec<MoveCode>,
    /// The move of the last root son that was best with a trusted value (see
    /// [`root_choices`](Searcher::root_choices)), as alpha-beta's last finished iteration
    /// keeps its move until another one is confirmed better.
    incumbent: Option<MoveCode>,
    stats: Stats,
    /// Deepest tip created, in plies below the current root.
    deepest: usize,
    /// How far ahead the game looks for new estimates now: raised every
    /// `deepen_every` expansions, and when the tree is frozen.
    probe_depth: u32,
    /// Expansions since `probe_depth` was last raised.
    since_deepening: u64,
    // Scratch, kept to avoid allocating per expansion.
    path: Vec<NodeId>,
    path_pos: Vec<G::Pos>,
    moves: Vec<G::Move>,
    son_pos: Vec<G::Pos>,
}

/// The window of a son whose father needs `father`, and whose best brother whose value
/// is known has key `brother` (from the father's side), under a band of `band`. From the
/// son's side, values at or below `alpha` take the father above its window; values at or
/// above `beta` leave the son outside the band of that brother, or, where the brothers do
/// not reach the father's window, take the father below it. (Where they do, the band
/// rules: a son inside it is selected even below the father's window.) Edges of the
/// father's window in the mate range become no edge, since backing up shifts mate values
/// by a ply; the band's edge is placed where the son's value, backed up, falls below it.
pub fn son_window(father: Window, brother: Option<i32>, band: i32) -> Window {
    let plain = |edge: i32| edge.abs() < MATE_BOUND;
    let alpha = if plain(father.beta) { -father.beta } else { Window::FULL.alpha };
    let beta = match brother {
        Some(best) if best > father.alpha => least_value_backing_up_below(best - band),
        _ if plain(father.alpha) => -father.alpha,
        _ => Window::FULL.beta,
    };
    Window { alpha, beta }
}

/// The least value of a son whose [backed-up](back_up) value is below `key`. Outside the
/// mate range that is `1 - key`; inside it the shift of a ply moves it by one, without
/// which a son tying its mating brother would be asked whether it lies at or above a top
/// that it reaches and yet stays in the band: a bound, selected and asked again for ever.
fn least_value_backing_up_below(key: i32) -> i32 {
    let backing_up_to_key = if key >= MATE_BOUND {
        -key - 1
    } else if key <= -MATE_BOUND {
        1 - key
    } else {
        -key
    };
    backing_up_to_key + 1
}

/// One ply of backing up: the father's view of a son's value, mates one ply longer.
#[inline]
pub fn back_up(son_value: i32) -> i32 {
    let v = -son_value;
    if v >= MATE_BOUND {
        v - 1
    } else if v <= -MATE_BOUND {
        v + 1
    } else {
        v
    }
}

impl<G: GameTree> Searcher<G> {
    /// A searcher on `game` rooted at `root` with a tree of at most `cap` nodes.
    pub fn new(game: G, root: G::Pos, params: BandwidthParams, cap: usize) -> Result<Searcher<G>, String> {
        let mut searcher = Searcher {
            game,
            root_pos: root.clone(),
            tree: Tree::new(cap)?,
            params,
            tip_parity: 0,
            frozen: false,
            horizons: false,
            root_moves: Vec::new(),
            incumbent: None,
            stats: Stats::default(),
            deepest: 0,
            probe_depth: 0,
            since_deepening: 0,
            path: Vec::new(),
            path_pos: Vec::new(),
            moves: Vec::new(),
            son_pos: Vec::new(),
        };
        searcher.reset(root);
        Ok(searcher)
    }

    /// Sets the look-ahead of new estimates back to the base depth (`TipProbeDepth`), as
    /// for a new game.
    fn restart_deepening(&mut self) {
        self.probe_depth = 0;
        self.carry_deepening(0);
    }

    fn base_depth(&self) -> u32 {
        self.params.tip_probe_depth.min(self.game.deepest_estimate())
    }

    /// Takes the look-ahead back by `plies` (the moves played since it was reached, which
    /// brought the tips that much nearer), not below the base depth: the next search goes on
    /// from about the look-ahead the last one reached, as iterative deepening would.
    fn carry_deepening(&mut self, plies: usize) {
        let plies = plies.min(u32::MAX as usize) as u32;
        self.probe_depth = self.probe_depth.saturating_sub(plies).max(self.base_depth());
        self.since_deepening = 0;
    }

    /// Sets the look-ahead for a search from a new root, `plies` below the old one: carried
    /// over where the root has sons, from the base depth where it is a tip. Expanding a
    /// tip root probes every son, a ply deeper than the look-ahead: at a look-ahead carried
    /// from a deep tree that can outlast a short clock and leave the search without a move,
    /// where the probes' table, which keeps what the deeper tree learnt, makes the climb
    /// from the base cheap.
    fn first_look_ahead(&mut self, plies: usize) {
        if self.root().is_tip() {
            self.restart_deepening();
        } else {
            self.carry_deepening(plies);
        }
    }

    /// The look-ahead new estimates get now.
    pub fn probe_depth(&self) -> u32 {
        self.probe_depth
    }

    /// Raises the look-ahead of new estimates to `depth` if the game offers it.
    fn deepen_to(&mut self, depth: u32) -> bool {
        let depth = depth.min(self.game.deepest_estimate());
        if depth <= self.probe_depth {
            return false;
        }
        self.probe_depth = depth;
        self.since_deepening = 0;
        true
    }

    /// True if the tip `id` holds its own estimate made with less look-ahead than the search
    /// now uses, or a bound (from a windowed estimate, or the refutation that cut it): it is
    /// valued again before it is expanded. Bounds are optimistic for the chooser above, so
    /// selection finds every one that could matter; valuing it costs one estimate, where
    /// expanding it would cost one per son. (Where estimates do not deepen, a refutation
    /// says more than the son's own estimate: a cut son is expanded, as Harris does.)
    fn is_stale(&self, id: NodeId, ply: usize, ext: u32) -> bool {
        self.is_stale_node(self.tree.node(id), ply, ext)
    }

    fn is_stale_node(&self, node: &Node, ply: usize, ext: u32) -> bool {
        node.flags() & (TERMINAL | COLLAPSED) == 0 && (node.is_bound() || self.is_behind(node, ply, ext))
    }

    /// True if the estimate of `node`, `ply` plies below the root on a line extended by
    /// `ext` plies (the node's own move included), looked less far ahead than the search now
    /// asks there, or is a cut son's refutation while estimates deepen.
    fn is_behind(&self, node: &Node, ply: usize, ext: u32) -> bool {
        node.depth() < self.regular_look_ahead_at(ply, ext) || node.has(CUT) && self.deepens()
    }

    /// True when the game's estimates deepen and the search deepens them: then a double
    /// expansion values the sons with one probe each (see [`add_replies`](Searcher::add_replies)).
    fn deepens(&self) -> bool {
        self.params.deepen_every != u64::MAX && self.estimates_search()
    }

    /// True when the game's estimates look ahead (are searches), so that a narrower window
    /// makes them cheaper.
    fn estimates_search(&self) -> bool {
        self.game.deepest_estimate() > 0
    }

    /// The look-ahead a tip `ply` plies below the root, on a line extended by `ext` plies,
    /// gets now: the [regular](Searcher::regular_look_ahead_at) one, plus one off the
    /// regular parity (a cut son), so that its horizon lines up with its cousins'.
    pub fn look_ahead_at(&self, ply: usize, ext: u32) -> u32 {
        self.regular_look_ahead_at(ply, ext) + u32::from(ply % 2 != self.tip_parity)
    }

    /// The look-ahead of a regular tip `ply` plies below the root: the search's, less
    /// [`LOOK_AHEAD_TAPER`] for every double expansion between the root's and the tip's
    /// (not below the base depth). Every move of the principal line has brothers that
    /// must be valued again whenever the look-ahead grows; without the taper, each of
    /// those levels would cost as much as the root's, and a long line would starve the
    /// root's moves of look-ahead. With it, the cost falls level by level, as alpha-beta's
    /// does with the remaining depth. The moves of the line that [extend](GameTree::extends)
    /// it add `ext` plies, as alpha-beta's check extension does.
    fn regular_look_ahead_at(&self, ply: usize, ext: u32) -> u32 {
        let level = ((ply + 1 + self.tip_parity) / 2).saturating_sub(1);
        let taper = u32::try_from(level).unwrap_or(u32::MAX).saturating_mul(LOOK_AHEAD_TAPER);
        let regular = self.probe_depth.saturating_sub(taper).max(self.base_depth());
        self.extended(regular, ext)
    }

    /// `look_ahead` extended by `ext` plies, but not past the deepest estimate the game
    /// offers: a tip asked for more would record less and stay behind for ever.
    fn extended(&self, look_ahead: u32, ext: u32) -> u32 {
        (look_ahead + ext).min(self.game.deepest_estimate().max(look_ahead))
    }

    /// The plies by which the moves of the path down to its node at `ply` extend it (the
    /// root's own move, made before the search, does not count).
    fn path_extension(&self, ply: usize) -> u32 {
        self.path[1..=ply].iter().map(|&id| self.tree.node(id).extension()).sum()
    }

    /// Starts a fresh tree at `root` (the game's history must already be set for it). The
    /// look-ahead starts again from the base depth, as for a tip root after a move (see
    /// [`first_look_ahead`](Searcher::first_look_ahead)).
    pub fn reset(&mut self, root: G::Pos) {
        self.restart_deepening();
        let tip = self.game.evaluate(&root, 0, 0, Window::FULL);
        self.tree.reset(Node::tip(NO_MOVE, tip));
        self.root_pos = root;
        self.tip_parity = 0;
        self.frozen = false;
        self.horizons = false;
        self.deepest = 0;
        self.root_moves.clear();
        self.incumbent = None;
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

    /// The tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game, to change its settings or history (then [`reset`](Searcher::reset)).
    pub fn game_mut(&mut self) -> &mut G {
        &mut self.game
    }

    /// The root position.
    pub fn root_pos(&self) -> &G::Pos {
        &self.root_pos
    }

    /// The settings.
    pub fn params(&self) -> &BandwidthParams {
        &self.params
    }

    /// Changes the settings. The band and penalty apply from the next backup; a different
    /// node cap needs a new searcher.
    pub fn set_params(&mut self, params: BandwidthParams) {
        self.params = params;
        self.frozen = false;
    }

    /// Counters since creation.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Deepest tip created below the current root (reset with [`clear_deepest`](Searcher::clear_deepest)).
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

    /// A son's value from its father's view, penalized by the depth of its principal line:
    /// what choosers compare (the alternating g' of Harris).
    #[inline]
    fn key(&self, son: &Node) -> i32 {
        back_up(son.value()) - self.params.depth_penalty * son.pvlen() as i32
    }

    #[inline]
    fn in_band(&self, key: i32, best_key: i32) -> bool {
        self.params.unlimited_band() || key >= best_key - self.params.band
    }

    /// The best son of the expanded node `id`, by key.
    #[inline]
    fn best_son(&self, id: NodeId) -> NodeId {
        self.tree.children(id).start + self.tree.node(id).best() as NodeId
    }

    /// The key of the best son of `id` (whose sons exist).
    fn best_key(&self, id: NodeId) -> i32 {
        self.key(self.tree.node(self.best_son(id)))
    }

    /// True if son `c` of a father whose best key is `best_key` is inside the band.
    pub fn son_in_band(&self, c: NodeId, best_key: i32) -> bool {
        let son = self.tree.node(c);
        !son.has(DROPPED) && self.in_band(self.key(son), best_key)
    }

    /// True if son `c` of `father` lies inside the band of its brothers (and is not
    /// dropped for good): it may be selected while unproven.
    pub fn is_in_band(&self, father: NodeId, c: NodeId) -> bool {
        self.son_in_band(c, self.best_key(father))
    }

    /// The length in plies of the shortest mate a proven son gives the side to move at
    /// `id`, if any.
    fn proven_win(&self, id: NodeId) -> Option<i32> {
        self.tree
            .children(id)
            .map(|c| self.tree.node(c))
            .filter(|son| son.has(PROVEN) && !son.has(DROPPED))
            .map(|son| back_up(son.value()))
            .filter(|&v| v >= MATE_BOUND)
            .max()
            .map(|v| MATE - v)
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
            None => self.in_band(self.key(son), best_key),
        }
    }

    /// The son to descend into: the highest key among the eligible sons.
    fn pick_son(&self, id: NodeId, win: Option<i32>) -> Option<NodeId> {
        let best_key = self.best_key(id);
        let mut pick = None;
        let mut pick_key = NO_VALUE;
        for c in self.tree.children(id) {
            let son = self.tree.node(c);
            let key = self.key(son);
            if key > pick_key && self.eligible(son, best_key, win) {
                pick = Some(c);
                pick_key = key;
            }
        }
        pick
    }

    /// Recomputes value, principal line, flags of an expanded node from its sons, and drops
    /// the sons outside the band in strict Harris mode.
    fn recompute(&mut self, id: NodeId) {
        let range = self.tree.children(id);
        let mut best = 0;
        let mut best_key = NO_VALUE;
        for (k, c) in range.clone().enumerate() {
            let son = self.tree.node(c);
            if son.has(DROPPED) {
                continue;
            }
            let key = self.key(son);
            if key > best_key {
                best_key = key;
                best = k;
            }
        }
        // Harris deletes out-of-band sons for good. Collapse mode only stops selecting them
        // and frees their subtrees when memory runs short (`collapse_to`, largest gaps
        // first), so a son that comes back into the band resumes from its deep subtree
        // instead of restarting from a stub.
        if self.params.strict_harris {
            for c in range.clone() {
                let son = *self.tree.node(c);
                if !son.has(DROPPED) && !self.in_band(self.key(&son), best_key) {
                    self.tree.collapse(c);
                    let son = self.tree.node_mut(c);
                    son.set_flags(son.flags() | DROPPED);
                }
            }
        }
        let win = self.proven_win(id);
        let mut all_proven = true;
        let mut exhausted = true;
        for c in range.clone() {
            let son = self.tree.node(c);
            if son.has(DROPPED) {
                continue;
            }
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

    /// One iteration: select a tip, then value it again if its estimate is stale, or else
    /// expand it, and back up. `abort` is polled after every new estimate; when it fires,
    /// the iteration is undone. A frozen tree deepens its estimates instead of growing.
    pub fn step(&mut self, abort: &mut dyn FnMut() -> bool) -> Step {
        self.note_incumbent();
        if self.is_finished() {
            // The last stale tip valued may have ended the search before the sweep went
            // along its line.
            if let Some(step) = self.sweep_principal_line(abort) {
                return step;
            }
            // Nothing in the band is left to expand, but the moves out of it were valued
            // only as far ahead as the search looks now: unless the outcome is proven, look
            // a ply further, as iterative deepening would, and sweep again. (A line that
            // ends in a repetition would otherwise stop the search at once, however
            // shallow the looks that kept its brothers out of the band.)
            if !self.is_proven() && self.deepens() && self.deepen_to(self.probe_depth + 1) {
                return Step::Deepened;
            }
            return Step::Done;
        }
        if !self.frozen && self.tree.len() * 100 >= self.tree.cap() * COMPACT_AT_PERCENT {
            self.manage_memory();
        }
        let mut retried = false;
        loop {
            if self.is_finished() {
                return Step::Done;
            }
            let selected = self.select();
            let Selection::Tip(tip) = selected else {
                if let Selection::Beyond(tip) = selected {
                    // Out of reach from here: exhausted until the root moves.
                    let node = self.tree.node_mut(tip);
                    node.set_flags(node.flags() | EXHAUSTED | HORIZON);
                    self.horizons = true;
                }
                // Stale flags (after a change of band) are repaired by the same backup.
                self.back_up_path();
                self.leave_path();
                if abort() {
                    return Step::Aborted;
                }
                continue;
            };
            // The selected line first, as alpha-beta searches the principal move of an
            // iteration first: its brothers are then scouted against its new value, not
            // against a value the deeper look may overturn, and a search stopped between
            // the two plays a move whose line looked as far ahead as its brothers' lines.
            if self.is_stale(tip, self.path.len() - 1, self.path_extension(self.path.len() - 1)) {
                // A bound (a reply never valued, or one cut off earlier) is expected out
                // of the band, a tip that is only behind in look-ahead is not.
                let mut window = self.path_window();
                if window.alpha >= window.beta {
                    // Not expected: selection walks only nodes inside their windows. Should
                    // bounds among the keys make it otherwise, the band at the father alone
                    // still gets the tip a value, so that selection moves on.
                    let (father, ply) = (self.path[self.path.len() - 2], self.path.len() - 1);
                    window = self.brothers_window(father, tip, ply);
                }
                let scout = self.tree.node(tip).is_bound();
                return self.refresh(tip, window, scout, 0, abort);
            }
            if let Some(step) = self.sweep_path(abort) {
                return step;
            }
            if self.frozen {
                // Scorpio's freeze: no room to grow, so look further ahead from the tips.
                // A collapsed stub or a cut son gets a deeper estimate of its own too.
                let deeper = self.tree.node(tip).depth().max(self.probe_depth) + 1;
                if self.deepen_to(deeper) && !self.tree.node(tip).has(TERMINAL) {
                    return self.refresh(tip, Window::FULL, false, 0, abort);
                }
                self.leave_path();
                return Step::Frozen;
            }
            match self.expand(tip, abort) {
                Expansion::Done => {
                    self.stats.expansions += 1;
                    self.back_up_path();
                    self.leave_path();
                    self.since_deepening += 1;
                    if self.since_deepening >= self.params.deepen_every {
                        self.deepen_to(self.probe_depth + 1);
                    }
                    return Step::Expanded;
                }
                Expansion::Aborted => {
                    self.stats.aborted += 1;
                    self.leave_path();
                    return Step::Aborted;
                }
                Expansion::Full => {
                    self.leave_path();
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

    /// Remembers the root's best son as the incumbent if its value can be trusted.
    fn note_incumbent(&mut self) {
        if !self.root().is_tip() && self.best_son_trusted() {
            self.incumbent = Some(self.tree.node(self.best_son(self.tree.root())).mv());
        }
    }

    /// True if the tip `node` is [behind](Searcher::is_behind) and the sweep should renew
    /// it, whether or not it is in the band (a bound that is not behind stays a bound).
    fn is_outdated(&self, node: &Node, ply: usize, ext: u32) -> bool {
        node.flags() & (TERMINAL | COLLAPSED | DROPPED | EXHAUSTED) == 0 && self.is_behind(node, ply, ext)
    }

    /// Before a selected tip that is up to date is expanded, values again one outdated tip
    /// below a node on the selected path (the nearest the root first): a tip son off the
    /// path, or a tip among those an expanded son's value rests on (see
    /// [`outdated_in_proof`](Searcher::outdated_in_proof)). It is asked
    /// only whether it now comes within the band of its best brother (one that does gets
    /// its exact value; one that does not, a bound). Best-first search alone never looks
    /// again at a son whose shallow estimate put it out of the band, so a refutation that
    /// only a deeper look finds would stay hidden: this is iterative deepening's second
    /// look at every move along the principal line. Returns `None` when the path holds none.
    fn sweep_path(&mut self, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        if !self.deepens() {
            return None;
        }
        let mut route = Vec::new();
        let k = (0..self.path.len() - 1).find(|&k| {
            let (next, above) = (self.path[k + 1], self.path_extension(k));
            self.tree.children(self.path[k]).any(|c| {
                c != next
                    && !self.tree.node(c).has(DROPPED)
                    && self.outdated_in_proof(c, k + 1, above, false, &mut route)
            })
        })?;
        // Rewind the entered line to the father, then enter the line to the tip instead.
        for _ in k + 1..self.path.len() {
            self.game.leave();
        }
        self.path.truncate(k + 1);
        self.path_pos.truncate(k + 1);
        for &id in route.iter().rev() {
            self.descend(id);
        }
        let tip = *route.first().expect("the route ends at a tip");
        let window = self.path_window();
        let reduction = self.late_son_reduction(tip);
        Some(self.refresh(tip, window, true, reduction, abort))
    }

    /// Looks for an [outdated](Searcher::is_outdated) tip among those that prove the value
    /// of `id`, `ply` plies below the root, from its father's view: the tip itself, or below
    /// it, where the father's side is to move (`all` set), every son, and elsewhere the best
    /// son, the refutation. A move out of the band is only as bad as its refutation's best
    /// answer, so a deeper look at any answer (not only the best one, which the principal
    /// line ends in) may bring it back. On success `route` holds the nodes from the tip up
    /// to `id`.
    fn outdated_in_proof(&self, id: NodeId, ply: usize, above: u32, all: bool, route: &mut Vec<NodeId>) -> bool {
        let node = self.tree.node(id);
        let ext = above + node.extension();
        let found = if node.is_tip() {
            self.is_outdated(node, ply, ext)
        } else if all {
            self.tree
                .children(id)
                .any(|c| !self.tree.node(c).has(DROPPED) && self.outdated_in_proof(c, ply + 1, ext, false, route))
        } else {
            self.outdated_in_proof(self.best_son(id), ply + 1, ext, true, route)
        };
        if found {
            route.push(id);
        }
        found
    }

    /// [Sweeps](Searcher::sweep_path) the principal line, which selection no longer walks
    /// once nothing is left to expand.
    fn sweep_principal_line(&mut self, abort: &mut dyn FnMut() -> bool) -> Option<Step> {
        if !self.deepens() {
            return None;
        }
        self.enter_root();
        let mut id = self.tree.root();
        while !self.tree.node(id).is_tip() {
            id = self.best_son(id);
            self.descend(id);
        }
        let step = self.sweep_path(abort);
        if step.is_none() {
            self.leave_path();
        }
        step
    }

    /// The reduction the game allows for a scout of the tip `id` at the end of the path,
    /// ranked among its brothers by key.
    fn late_son_reduction(&mut self, id: NodeId) -> u32 {
        let n = self.path.len();
        let father = self.path[n - 2];
        let key = self.key(self.tree.node(id));
        let rank = self
            .tree
            .children(father)
            .filter(|&c| c != id && !self.tree.node(c).has(DROPPED) && self.key(self.tree.node(c)) > key)
            .count();
        let ply = n - 1;
        let look_ahead = self.look_ahead_at(ply, self.path_extension(ply));
        self.game.reduction(&self.path_pos[n - 2], &self.path_pos[n - 1], rank, look_ahead)
    }

    /// The tip at the end of the line of best sons from `id`, `ply` plies below the root
    /// (`id` itself if a tip), and its ply.
    fn tip_below(&self, mut id: NodeId, mut ply: usize) -> (&Node, usize) {
        while !self.tree.node(id).is_tip() {
            id = self.best_son(id);
            ply += 1;
        }
        (self.tree.node(id), ply)
    }

    /// The window the node at the end of the path needs, alpha-beta style: from the root
    /// down, each node's window follows from its father's and its brothers' (see
    /// [`son_window`]). A tip deep in a son that is out of the band at the root is so
    /// asked only whether it brings that son back, not for its exact value among its own
    /// brothers. Empty (`alpha >= beta`) when the brothers of some node of the path
    /// already put its father outside the father's window. Where keys are not values (a
    /// depth penalty), only the band at the tip's father counts; where the band does not
    /// rule selection (no band, or a proven mate on the path that selection hunts a faster
    /// one for), every value is exact.
    fn path_window(&self) -> Window {
        if self.params.unlimited_band() || self.path.len() < 2 {
            return Window::FULL;
        }
        let mut window = Window::FULL;
        for k in 1..self.path.len() {
            let father = self.path[k - 1];
            if self.proven_win(father).is_some() {
                return Window::FULL;
            }
            window = if self.params.depth_penalty != 0 {
                self.brothers_window(father, self.path[k], k)
            } else {
                son_window(window, self.best_known_brother(father, self.path[k], k), self.params.band)
            };
        }
        window
    }

    /// The window son `id` of `father` (`ply` plies below the root) needs from its
    /// brothers alone: the band of the best one whose value is known.
    fn brothers_window(&self, father: NodeId, id: NodeId, ply: usize) -> Window {
        self.best_known_brother(father, id, ply).map_or(Window::FULL, |best| self.band_window(best))
    }

    /// The best key among the sons of `father` but `id` whose values are known (not stale
    /// tips, `ply` plies below the root), from the father's side.
    fn best_known_brother(&self, father: NodeId, id: NodeId, ply: usize) -> Option<i32> {
        let above = self.path_extension(ply - 1);
        self.tree
            .children(father)
            .filter(|&c| c != id)
            .map(|c| self.tree.node(c))
            .filter(|son| !(son.has(DROPPED) || son.is_tip() && self.is_stale_node(son, ply, above + son.extension())))
            .map(|son| self.key(son))
            .max()
    }

    /// The window of a son whose father's best key (among the other sons) is `best`: from
    /// the son's side, values at or above its top put the son out of the band, so a bound
    /// is enough there. Exact everywhere without a band, or without a best key yet.
    fn band_window(&self, best: i32) -> Window {
        if best == NO_VALUE || self.params.unlimited_band() {
            return Window::FULL;
        }
        son_window(Window::FULL, Some(best), self.params.band)
    }

    /// Values the stale tip `id` at the end of the path again with the current look-ahead
    /// (exactly inside `window`; first by a [scout](Searcher::estimate) when `scout`) and
    /// backs up.
    fn refresh(
        &mut self,
        id: NodeId,
        window: Window,
        scout: bool,
        reduction: u32,
        abort: &mut dyn FnMut() -> bool,
    ) -> Step {
        let ply = self.path.len() - 1;
        let look_ahead = self.look_ahead_at(ply, self.path_extension(ply));
        if window.alpha >= window.beta {
            // No value of the tip can bring the path back into the band: it keeps its
            // estimate as a bound, valued again if selection ever reaches it.
            let value = self.tree.node(id).value();
            self.tree.node_mut(id).re_estimate(Tip::bound_at(value, look_ahead, Accuracy::Unknown));
            self.stats.refreshed += 1;
            self.leave_path();
            return Step::Refreshed;
        }
        let pos = self.path_pos.last().expect("one position per path node").clone();
        // The tip itself is not on the entered line: its father is the last entered.
        self.game.leave();
        let tip = self.estimate(&pos, ply, look_ahead, window, scout, reduction);
        self.game.enter(&pos);
        if abort() {
            self.stats.aborted += 1;
            self.leave_path();
            return Step::Aborted;
        }
        self.tree.node_mut(id).re_estimate(tip);
        self.stats.refreshed += 1;
        self.back_up_path();
        self.leave_path();
        Step::Refreshed
    }

    /// Values `pos`, `ply` plies below the root, looking `depth` ahead, exactly inside
    /// `window`. With `scout` (a son not expected within the band), where estimates are
    /// searches, the game is first asked only whether the value lies at or above the
    /// window's top, out of the band: a null window answers that for less (in alpha-beta
    /// terms, a non-PV search), and only a son it finds inside is valued again, as PVS
    /// does. A scout `reduction` plies shallower goes first for a late quiet son: if even
    /// that keeps it out of the band, the bound stands for the full look-ahead, as a
    /// late-move reduction does. (A static estimate costs the same in any window: no
    /// scout there.)
    fn estimate(&mut self, pos: &G::Pos, ply: usize, depth: u32, window: Window, scout: bool, reduction: u32) -> Tip {
        if scout && self.estimates_search() && window.beta < Window::FULL.beta {
            let null = Window { alpha: window.beta - 1, beta: window.beta };
            if reduction > 0 {
                let tip = self.game.evaluate(pos, ply, depth.saturating_sub(reduction), null);
                if tip.terminal {
                    return tip;
                }
                if tip.value >= window.beta {
                    return Tip::bound_at(tip.value, depth, Accuracy::Lower);
                }
            }
            if window.alpha < null.alpha {
                let tip = self.game.evaluate(pos, ply, depth, null);
                if tip.terminal || tip.value >= window.beta || tip.value <= window.alpha {
                    return tip;
                }
            }
        }
        self.game.evaluate(pos, ply, depth, window)
    }

    /// Walks from the root to the tip to expand, entering each position in the game. A
    /// proven mate in k plies at a node on the way bounds the depth at which a faster mate
    /// can still be found below it; a tip beyond that horizon is not expanded.
    fn select(&mut self) -> Selection {
        self.enter_root();
        let mut horizon = MAX_TREE_DEPTH;
        loop {
            let id = *self.path.last().expect("the path holds the root");
            let depth = self.path.len() - 1;
            if self.tree.node(id).is_tip() {
                return if depth < horizon { Selection::Tip(id) } else { Selection::Beyond(id) };
            }
            let win = self.proven_win(id);
            if let Some(plies) = win {
                horizon = horizon.min((depth + plies as usize).saturating_sub(2));
            }
            let Some(son) = self.pick_son(id, win) else {
                return Selection::Stuck;
            };
            self.descend(son);
        }
    }

    /// Starts the path at the root, entering the root's position in the game.
    fn enter_root(&mut self) {
        self.path.clear();
        self.path_pos.clear();
        self.game.enter(&self.root_pos);
        self.path.push(self.tree.root());
        self.path_pos.push(self.root_pos.clone());
    }

    /// Extends the path by `son` of its last node, entering the son's position in the game.
    fn descend(&mut self, son: NodeId) {
        let pos = self.path_pos.last().expect("one position per path node");
        let mv = self.game.decode(pos, self.tree.node(son).mv()).expect("tree moves are legal in their position");
        let next = self.game.play(pos, mv);
        self.game.enter(&next);
        self.path.push(son);
        self.path_pos.push(next);
    }

    fn leave_path(&mut self) {
        for _ in 0..self.path.len() {
            self.game.leave();
        }
        self.path.clear();
        self.path_pos.clear();
    }

    fn back_up_path(&mut self) {
        for k in (0..self.path.len()).rev() {
            let id = self.path[k];
            if !self.tree.node(id).is_tip() {
                self.recompute(id);
            }
        }
    }

    /// Creates and values the sons of `pos` in a new block, looking `depth` ahead (a son
    /// whose move [extends](GameTree::extends) the line further); returns the block and its
    /// size.
    fn make_sons(
        &mut self,
        pos: &G::Pos,
        ply: usize,
        depth: u32,
        restrict: bool,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(NodeId, usize), Expansion> {
        self.moves.clear();
        self.game.moves(pos, &mut self.moves);
        if restrict {
            let codes = &self.root_moves;
            let game = &self.game;
            self.moves.retain(|&m| codes.contains(&game.code(m)));
        }
        let count = self.moves.len().min(u8::MAX as usize);
        let first = self.tree.alloc(count).ok_or(Expansion::Full)?;
        self.son_pos.clear();
        // The best son so far, from the father's view: a son more than the band below it
        // needs only a bound (from its own side, one at or above the window's top).
        let mut best = NO_VALUE;
        let father = self.path_window();
        let chained = self.params.depth_penalty == 0 && father.alpha < father.beta;
        for k in 0..count {
            let mv = self.moves[k];
            let child = self.game.play(pos, mv);
            let brother = (best != NO_VALUE).then_some(best);
            let mut window =
                if chained { son_window(father, brother, self.params.band) } else { self.band_window(best) };
            if window.alpha >= window.beta {
                // The sons so far take this node out of its window: the rest only need
                // their place in the band.
                window = self.band_window(best);
            }
            let extension = u32::from(self.game.extends(&child));
            let child_depth = self.extended(depth, extension);
            let reduction = self.game.reduction(pos, &child, k, child_depth);
            let tip = self.estimate(&child, ply, child_depth, window, true, reduction);
            best = best.max(back_up(tip.value));
            self.stats.created += 1;
            *self.tree.node_mut(first + k as NodeId) = Node::tip(self.game.code(mv), tip).with_extension(extension);
            self.son_pos.push(child);
            if abort() {
                return Err(Expansion::Aborted);
            }
        }
        Ok((first, count))
    }

    /// Expands the tip `id` at the end of the path: two plies, or one when the tip is off
    /// the regular parity (a revived stub). The new tips look as far ahead as the search
    /// asks at their ply, or, if that was further, as the expanded tip did less what the
    /// search asks less at their ply than at its own (the taper, and the extra ply an
    /// off-parity tip gets), so that no line loses more than the taper by growing. In a double
    /// expansion whose replies are each valued (Harris's way) the sons, whose estimates
    /// only order them, look one ply less; where one probe per son stands in for its
    /// replies (see [`add_replies`](Searcher::add_replies)), one ply more. Every move that
    /// [extends](GameTree::extends) a line adds its ply to the tips below it.
    fn expand(&mut self, id: NodeId, abort: &mut dyn FnMut() -> bool) -> Expansion {
        let depth = self.path.len() - 1;
        let mark = self.tree.len();
        let pos = self.path_pos.last().expect("one position per path node").clone();
        let restrict = depth == 0 && self.is_restricted();
        let double = depth % 2 == self.tip_parity;
        let tips_ply = depth + if double { 2 } else { 1 };
        let ext = self.path_extension(depth);
        let asked = self.regular_look_ahead_at(tips_ply, ext);
        let step_down = self.look_ahead_at(depth, ext) - asked;
        let look_ahead = asked.max(self.tree.node(id).depth().saturating_sub(step_down));
        let by_probes = double && self.deepens();
        let sons_look_ahead = if by_probes {
            look_ahead + 1
        } else if double {
            look_ahead.saturating_sub(1)
        } else {
            look_ahead
        };
        let (first, count) = match self.make_sons(&pos, depth + 1, sons_look_ahead, restrict, abort) {
            Ok(block) => block,
            Err(e) => {
                self.tree.truncate(mark);
                return e;
            }
        };
        if count == 0 {
            // Only possible when the game did not report the end itself.
            let node = self.tree.node_mut(id);
            node.set_flags(node.flags() | TERMINAL | PROVEN | EXHAUSTED);
            self.tree.truncate(mark);
            return Expansion::Done;
        }
        if double {
            self.sort_sons(first, count);
            let sons = std::mem::take(&mut self.son_pos);
            let result = if by_probes {
                self.add_replies(first, &sons, look_ahead)
            } else {
                self.expand_grandsons(first, &sons, depth + 2, look_ahead, abort)
            };
            self.son_pos = sons;
            if let Err(e) = result {
                self.tree.truncate(mark);
                return e;
            }
        }
        self.deepest = self.deepest.max(tips_ply);
        self.tree.node_mut(id).set_children(first, count);
        Expansion::Done
    }

    /// The second ply of a double expansion when estimates deepen. Each son was valued by
    /// one probe a ply deeper than its replies would be, inside the band's window: that is
    /// the alpha-beta value of its replies, at the cost of one search instead of one per
    /// reply. A son outside the window is cut (its value a bound). Every son inside gets
    /// all its replies, as Harris's double expansion wants, each holding the son's value as
    /// a bound (no reply is better for the opponent than his best), with the prober's best
    /// reply first: selection values a reply only when it reaches it, best reply first.
    fn add_replies(&mut self, first: NodeId, sons: &[G::Pos], look_ahead: u32) -> Result<(), Expansion> {
        for (k, pos) in sons.iter().enumerate() {
            let s = first + k as NodeId;
            let son = *self.tree.node(s);
            if son.has(TERMINAL) {
                continue;
            }
            if son.is_bound() {
                let dropped = if self.params.strict_harris { DROPPED } else { 0 };
                self.tree.node_mut(s).set_flags(son.flags() | CUT | dropped);
                continue;
            }
            self.moves.clear();
            self.game.moves(pos, &mut self.moves);
            let count = self.moves.len().min(u8::MAX as usize);
            if count == 0 {
                continue;
            }
            let block = self.tree.alloc(count).ok_or(Expansion::Full)?;
            for j in 0..count {
                let mv = self.moves[j];
                // The reply's extension is known only from its position: the sweep takes
                // a bound that looked less far ahead than its line asks for outdated.
                let reply_pos = self.game.play(pos, mv);
                let extension = u32::from(self.game.extends(&reply_pos));
                let reply_look_ahead = self.extended(look_ahead, son.extension() + extension);
                let reply = Tip::bound_at(-son.value(), reply_look_ahead, Accuracy::Lower);
                *self.tree.node_mut(block + j as NodeId) =
                    Node::tip(self.game.code(mv), reply).with_extension(extension);
            }
            self.stats.created += count as u64;
            self.tree.node_mut(s).set_children(block, count);
            self.recompute(s);
        }
        Ok(())
    }

    /// Orders a fresh block of sons (and their positions) by key, best first.
    fn sort_sons(&mut self, first: NodeId, count: usize) {
        let mut order: Vec<usize> = (0..count).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(back_up(self.tree.node(first + k as NodeId).value())));
        let nodes: Vec<Node> = order.iter().map(|&k| *self.tree.node(first + k as NodeId)).collect();
        let positions: Vec<G::Pos> = order.iter().map(|&k| self.son_pos[k].clone()).collect();
        for (k, node) in nodes.into_iter().enumerate() {
            *self.tree.node_mut(first + k as NodeId) = node;
        }
        self.son_pos = positions;
    }

    /// The second ply of a double expansion, alpha-beta style with alpha lowered by the
    /// band: a son whose replies already put it more than B below the best finished son
    /// keeps no grandsons (it is `CUT`, its value a bound).
    fn expand_grandsons(
        &mut self,
        first: NodeId,
        sons: &[G::Pos],
        ply: usize,
        look_ahead: u32,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(), Expansion> {
        let band = self.params.band;
        let unlimited = self.params.unlimited_band();
        let mut best = NO_VALUE;
        for (k, pos) in sons.iter().enumerate() {
            let s = first + k as NodeId;
            if self.tree.node(s).has(TERMINAL) {
                best = best.max(back_up(self.tree.node(s).value()));
                continue;
            }
            self.game.enter(pos);
            let result = self.expand_son(s, pos, ply, look_ahead, best, band, unlimited, abort);
            self.game.leave();
            result?;
            let son = self.tree.node(s);
            if !son.has(CUT) {
                best = best.max(back_up(son.value()));
            }
            if abort() {
                return Err(Expansion::Aborted);
            }
        }
        Ok(())
    }

    /// Creates the replies of son `s` (entered in the game) until they refute it by more
    /// than the band. `abort` is polled after every reply: with tip probes one son's
    /// replies can take longer than a move may.
    ///
    /// A reply's estimate needs to be exact only inside a window: one that refutes the son
    /// (below `best - band` for the father) cuts it whatever its exact value, and one more
    /// than the band worse for the opponent than his best reply so far is out of the band.
    /// Bounds outside the window are valued again if the band ever moves onto them.
    #[allow(clippy::too_many_arguments)]
    fn expand_son(
        &mut self,
        s: NodeId,
        pos: &G::Pos,
        ply: usize,
        look_ahead: u32,
        best: i32,
        band: i32,
        unlimited: bool,
        abort: &mut dyn FnMut() -> bool,
    ) -> Result<(), Expansion> {
        self.moves.clear();
        self.game.moves(pos, &mut self.moves);
        let count = self.moves.len().min(u8::MAX as usize);
        if count == 0 {
            // Only possible when the game did not report the end itself.
            let son = self.tree.node_mut(s);
            son.set_flags(son.flags() | TERMINAL | PROVEN | EXHAUSTED);
            return Ok(());
        }
        let block = self.tree.alloc(count).ok_or(Expansion::Full)?;
        // The opponent's best reply so far, from the son's side.
        let mut reply = NO_VALUE;
        for k in 0..count {
            let mv = self.moves[k];
            let child = self.game.play(pos, mv);
            // Out of the band above (the son's best reply so far is the best key here), or
            // refuting the son below (from the reply's side to move, the father's side).
            let mut window = self.band_window(reply);
            if !unlimited && best != NO_VALUE {
                window.alpha = best - band - 1;
                window.beta = window.beta.max(window.alpha + 1);
            }
            let extension = u32::from(self.game.extends(&child));
            let child_look_ahead = self.extended(look_ahead, self.tree.node(s).extension() + extension);
            let tip = self.game.evaluate(&child, ply, child_look_ahead, window);
            self.stats.created += 1;
            *self.tree.node_mut(block + k as NodeId) = Node::tip(self.game.code(mv), tip).with_extension(extension);
            reply = reply.max(back_up(tip.value));
            if abort() {
                return Err(Expansion::Aborted);
            }
            if !unlimited && back_up(reply) < best - band {
                // Refuted: the son is out of the band whatever its other replies do.
                self.tree.truncate(block as usize);
                let son = self.tree.node_mut(s);
                son.set_value(reply);
                let dropped = if self.params.strict_harris { DROPPED } else { 0 };
                son.set_flags(son.flags() | CUT | dropped);
                return Ok(());
            }
        }
        self.tree.node_mut(s).set_children(block, count);
        self.recompute(s);
        Ok(())
    }

    /// Compacts the arena; collapses the least promising subtrees when the live nodes still
    /// fill too much of it; freezes the tree when even that does not help. The search does
    /// this itself when the arena fills up; the engine may call it while idle, after
    /// re-rooting left garbage behind.
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

    /// Collapses subtrees, the furthest from the principal variation first (by the sum of
    /// the key gaps to the best brother along the path), until at most `target` nodes live.
    /// Neither the reported principal variation nor the line of best keys (which carries
    /// the stored root value) is collapsed; values and flags stay, and under a depth
    /// penalty a stub keeps its plain negamax value too, so the move choice survives.
    fn collapse_to(&mut self, target: usize) {
        let root = self.tree.root();
        if self.tree.node(root).is_tip() {
            return;
        }
        let values = self.pure_values();
        let mut protected = self.principal_nodes(values.as_deref());
        let mut id = root;
        while !self.tree.node(id).is_tip() {
            id = self.best_son(id);
            protected.push(id);
        }
        protected.sort_unstable();
        // (gap from the PV, depth, node) for every expanded node off the protected lines.
        let mut candidates: Vec<(i32, u8, NodeId)> = Vec::new();
        let mut stack: Vec<(NodeId, i32, u8)> = vec![(root, 0, 0)];
        while let Some((id, gap, depth)) = stack.pop() {
            let best_key = self.best_key(id);
            for c in self.tree.children(id) {
                if self.tree.node(c).is_tip() {
                    continue;
                }
                let son_gap = gap.saturating_add(best_key - self.key(self.tree.node(c)));
                let son_depth = depth.saturating_add(1);
                if protected.binary_search(&c).is_err() {
                    candidates.push((son_gap, son_depth, c));
                }
                stack.push((c, son_gap, son_depth));
            }
        }
        candidates.sort_unstable_by_key(|&(gap, depth, _)| (std::cmp::Reverse(gap), depth));
        for (_, _, id) in candidates {
            if self.tree.live() <= target {
                break;
            }
            let freed = self.tree.collapse(id);
            if freed > 0 {
                self.stats.collapsed += freed as u64;
                let node = self.tree.node_mut(id);
                node.set_tip_eval(values.as_ref().map_or(node.value(), |v| v[id as usize]));
            }
        }
    }

    /// Walks the moves `codes` down from the root and keeps that subtree as the new tree.
    /// `root` is the position after the moves (its game history already set). False, and
    /// the tree unchanged, when a move is not in the tree, was dropped, or ends the game.
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
        self.incumbent = None;
        self.root_pos = root;
        self.first_look_ahead(codes.len());
        self.tip_parity ^= codes.len() % 2;
        self.deepest = self.deepest.saturating_sub(codes.len());
        self.frozen = false;
        self.clear_horizons();
        true
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

    /// The sons of the root with their values from the root's view, ignoring the depth
    /// penalty, best first: those that [flatter](Searcher::flatters_root) the root count
    /// [`UNCONFIRMED_DISCOUNT_CP`] less (except the [incumbent](Searcher::incumbent_son)),
    /// and tips holding a scout's bound come after every other son; ties go to the larger
    /// subtree.
    pub fn root_choices(&self) -> Vec<(NodeId, i32)> {
        self.ranked_root_sons(self.pure_values().as_deref())
    }

    fn ranked_root_sons(&self, values: Option<&[i32]>) -> Vec<(NodeId, i32)> {
        let root = self.tree.root();
        let incumbent = self.incumbent_son();
        let mut choices: Vec<(NodeId, i32, Trust)> = self
            .tree
            .children(root)
            .filter(|&c| !self.tree.node(c).has(DROPPED))
            .map(|c| {
                (c, back_up(values.map_or(self.tree.node(c).value(), |v| v[c as usize])), self.trust(c, incumbent))
            })
            .collect();
        // An expanded son that flatters the root ranks by its bound less a discount: a
        // little below a trusted brother (it may only have failed to beat that brother's old
        // value), far above a trusted brother that is much worse (a bound from a deeper look
        // at the former best move does not make a blunder the better choice). Tips holding
        // a scout's bound come last.
        let rank = |v: i32, trust: Trust| {
            let discount = if trust == Trust::Partial { UNCONFIRMED_DISCOUNT_CP } else { 0 };
            (trust != Trust::None, v.saturating_sub(discount), trust)
        };
        choices.sort_by_key(|&(_, v, trust)| std::cmp::Reverse(rank(v, trust)));
        let first = choices.first().map(|&(_, v, trust)| rank(v, trust));
        let ties = choices.iter().take_while(|&&(_, v, trust)| Some(rank(v, trust)) == first).count();
        if ties > 1 {
            choices[..ties].sort_by_cached_key(|&(c, _, _)| std::cmp::Reverse(self.tree.subtree_size(c)));
        }
        choices.into_iter().map(|(c, v, _)| (c, v)).collect()
    }

    /// The root son that was last best with a trusted value since the root last changed, if
    /// it is still a son: until a brother is confirmed better, it ranks as trusted.
    pub fn incumbent_son(&self) -> Option<NodeId> {
        let code = self.incumbent?;
        self.tree.child_by_move(self.tree.root(), code).filter(|&c| !self.tree.node(c).has(DROPPED))
    }

    /// How far the value of the root son `c` can be trusted. The `incumbent` counts as
    /// trusted while only the end of its line is unconfirmed, as alpha-beta keeps its last
    /// finished iteration's move: a brother whose value is a bound in the root's favour
    /// takes its place only by more than the discount.
    fn trust(&self, c: NodeId, incumbent: Option<NodeId>) -> Trust {
        if !self.flatters_root(c) || Some(c) == incumbent && !self.tree.node(c).is_tip() {
            Trust::Full
        } else if self.tree.node(c).is_tip() {
            Trust::None
        } else {
            Trust::Partial
        }
    }

    /// True if the value of the root son `c` may flatter the root's side: the tip at the
    /// end of its principal line holds a bound in the root's favour, such as a scout's,
    /// which only showed the move to be no better than the best one was then. When the
    /// best move's value falls with a deeper look, such a son leads by its bound alone
    /// until selection values it again, as a move that fails high in alpha-beta leads
    /// only once its re-search confirms it: until then it is neither played nor reported,
    /// unless every trusted brother is worse by more than [`UNCONFIRMED_DISCOUNT_CP`].
    pub fn flatters_root(&self, c: NodeId) -> bool {
        let (tip, ply) = self.tip_below(c, 1);
        // A lower bound (from the tip's side to move) favours the side that chose the move
        // into the tip, an upper bound the side to move there. The root's side chooses the
        // moves into odd plies and is to move at even ones.
        match tip.accuracy() {
            Accuracy::Exact => false,
            Accuracy::Lower => ply % 2 == 1,
            Accuracy::Upper => ply % 2 == 0,
            Accuracy::Unknown => true,
        }
    }

    /// True if the root's best son (by key, the one selection follows) can be trusted: it
    /// does not [flatter](Searcher::flatters_root) the root. A search should not stop by
    /// choice before it is.
    pub fn best_son_trusted(&self) -> bool {
        self.root().is_tip() || !self.flatters_root(self.best_son(self.tree.root()))
    }

    /// The principal variation as move codes: the best root son (see
    /// [`root_choices`](Searcher::root_choices)), then the best sons by value.
    pub fn principal_line(&self) -> Vec<MoveCode> {
        let nodes = self.principal_nodes(self.pure_values().as_deref());
        nodes.iter().map(|&id| self.tree.node(id).mv()).collect()
    }

    /// The nodes of the principal variation, given the plain values under a depth penalty.
    fn principal_nodes(&self, values: Option<&[i32]>) -> Vec<NodeId> {
        let mut line = Vec::new();
        let Some(&(mut id, _)) = self.ranked_root_sons(values).first() else {
            return line;
        };
        loop {
            line.push(id);
            let node = self.tree.node(id);
            if node.is_tip() {
                return line;
            }
            id = match values {
                None => self.tree.children(id).start + node.best() as NodeId,
                Some(v) => self
                    .tree
                    .children(id)
                    .filter(|&c| !self.tree.node(c).has(DROPPED))
                    .max_by_key(|&c| (back_up(v[c as usize]), std::cmp::Reverse(c)))
                    .expect("an expanded node keeps its best son"),
            };
        }
    }

    /// The root value without the depth penalty, from the root's side.
    pub fn root_value(&self) -> i32 {
        match self.pure_values() {
            None => self.root().value(),
            Some(v) => v[self.tree.root() as usize],
        }
    }

    /// With a depth penalty, every node's plain negamax value (one bottom-up pass; a
    /// collapsed stub keeps its own in `tip_eval`); without one the stored values are those
    /// already.
    fn pure_values(&self) -> Option<Vec<i32>> {
        if self.params.depth_penalty == 0 {
            return None;
        }
        Some(self.tree.bottom_up(|id, sons| {
            let node = self.tree.node(id);
            if sons.is_empty() {
                return if node.has(COLLAPSED) { node.tip_eval() } else { node.value() };
            }
            self.tree
                .children(id)
                .zip(sons)
                .filter(|&(c, _)| !self.tree.node(c).has(DROPPED))
                .map(|(_, &v)| back_up(v))
                .max()
                .expect("the best son is never dropped")
        }))
    }

    /// The best root son's lead over the runner-up (keys, from the root's view), if the
    /// root has two candidate sons.
    pub fn root_lead(&self) -> Option<(NodeId, i32)> {
        let root = self.tree.root();
        let mut best: Option<(NodeId, i32)> = None;
        let mut second = NO_VALUE;
        for c in self.tree.children(root) {
            let son = self.tree.node(c);
            if son.has(DROPPED) {
                continue;
            }
            let key = self.key(son);
            match best {
                Some((_, b)) if key <= b => second = second.max(key),
                _ => {
                    if let Some((_, b)) = best {
                        second = b;
                    }
                    best = Some((c, key));
                }
            }
        }
        let (c, b) = best?;
        (second > NO_VALUE).then_some((c, b - second))
    }

    /// Number of nodes in the tree.
    pub fn nodes_in_tree(&self) -> usize {
        self.tree.live()
    }
}
