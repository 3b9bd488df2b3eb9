//! The look-ahead schedule of the bandwidth search: how far ahead new tip estimates look,
//! how that grows as the search goes on (in the hybrid, every
//! [`HYBRID_DEEPEN_EVERY`](super::params::HYBRID_DEEPEN_EVERY) expansions, as iterative
//! deepening would), and how it tapers with the depth of a tip so that every tip shares
//! the root's horizon. It also holds the one notion of staleness the search knows, an estimate
//! [behind the schedule](LookAhead::is_behind), and the two tests built on it.

use super::params::LOOK_AHEAD_TAPER;
use super::tree::{COLLAPSED, CUT, DROPPED, EXHAUSTED, Node, TERMINAL};

/// What the schedule reads from the settings and the game. Both may change between
/// searches, so the searcher hands it over fresh at every use instead of the schedule
/// keeping a copy.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    /// The look-ahead a search starts from: `TipProbeDepth`, within what the game offers.
    pub base: u32,
    /// The deepest look-ahead the game offers (0: estimates do not look ahead).
    pub deepest: u32,
    /// Expansions between two deepenings (`u64::MAX`: never).
    pub deepen_every: u64,
    /// Look-ahead taken off the tips of each double expansion below the root's (see
    /// [`LookAhead::regular_at`])...
    pub taper: u32,
    /// ...but [`LOOK_AHEAD_TAPER`] off those of the first this many (the levels a search
    /// of the root to the look-ahead's horizon has seen already).
    pub full_taper_levels: u32,
}

impl Reach {
    /// True when the game's estimates look ahead (are searches), so that a narrower window
    /// makes them cheaper.
    pub fn estimates_search(&self) -> bool {
        self.deepest > 0
    }

    /// True when the game's estimates deepen and the search deepens them: then a double
    /// expansion values the sons with one probe each, and the moves along the selected
    /// line are swept again after each deepening.
    pub fn deepens(&self) -> bool {
        self.deepen_every != u64::MAX && self.estimates_search()
    }

    /// `look_ahead` extended by `ext` plies, but not past the deepest estimate the game
    /// offers: a tip asked for more would record less and stay behind for ever.
    pub fn extended(&self, look_ahead: u32, ext: u32) -> u32 {
        (look_ahead + ext).min(self.deepest.max(look_ahead))
    }
}

/// The look-ahead the search asks of new estimates now, and where regular tips lie.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LookAhead {
    /// How far ahead the game looks for new estimates at the root's level: raised every
    /// `deepen_every` expansions, and when the tree is frozen.
    depth: u32,
    /// Expansions since `depth` was last raised.
    since_deepening: u64,
    /// Parity of the depth (below the root) of regular tips: every tip made by a double
    /// expansion has it, so all tips share a side to move.
    tip_parity: usize,
}

impl LookAhead {
    /// The look-ahead new estimates get now at the root's level.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// True if tips `ply` plies below the root are regular: a double expansion of a node
    /// there makes tips of the same parity.
    pub fn is_regular_ply(&self, ply: usize) -> bool {
        ply % 2 == self.tip_parity
    }

    /// Starts a fresh tree: the base look-ahead, regular tips at even plies.
    pub fn reset(&mut self, reach: Reach) {
        self.restart(reach);
        self.tip_parity = 0;
    }

    /// Sets the look-ahead of new estimates back to the base depth, as for a new game.
    pub fn restart(&mut self, reach: Reach) {
        self.depth = 0;
        self.carry(0, reach);
    }

    /// Takes the look-ahead back by `plies` (the moves played since it was reached, which
    /// brought the tips that much nearer), not below the base depth: the next search goes on
    /// from about the look-ahead the last one reached, as iterative deepening would.
    pub fn carry(&mut self, plies: usize, reach: Reach) {
        let plies = plies.min(u32::MAX as usize) as u32;
        self.depth = self.depth.saturating_sub(plies).max(reach.base);
        self.since_deepening = 0;
    }

    /// Follows the root `plies` plies down the tree. The look-ahead is carried over where
    /// the new root has sons (`root_is_tip` false), and starts from the base depth where
    /// it is a tip: expanding a tip root probes every son, a ply deeper than the
    /// look-ahead, which at a look-ahead carried from a deep tree can outlast a short clock
    /// and leave the search without a move, while the probes' table, which keeps what the
    /// deeper tree learnt, makes the climb from the base cheap. A look-ahead that does not
    /// deepen by itself (Harris's) was raised only because the tree froze, which the kept
    /// subtree, with room again, is not: it starts from the base depth too.
    pub fn reroot(&mut self, plies: usize, root_is_tip: bool, reach: Reach) {
        if root_is_tip || !reach.deepens() {
            self.restart(reach);
        } else {
            self.carry(plies, reach);
        }
        self.tip_parity ^= plies % 2;
    }

    /// Raises the look-ahead of new estimates to `depth` if the game offers it; false if it
    /// is there already.
    pub fn deepen_to(&mut self, depth: u32, reach: Reach) -> bool {
        let depth = depth.min(reach.deepest);
        if depth <= self.depth {
            return false;
        }
        self.depth = depth;
        self.since_deepening = 0;
        true
    }

    /// Counts a completed expansion, deepening every `deepen_every` of them.
    pub fn count_expansion(&mut self, reach: Reach) {
        self.since_deepening += 1;
        if self.since_deepening >= reach.deepen_every {
            self.deepen_to(self.depth + 1, reach);
        }
    }

    /// The look-ahead a tip `ply` plies below the root, on a line extended by `ext` plies,
    /// gets now: the [regular](LookAhead::regular_at) one, plus one off the regular parity
    /// (a cut son), so that its horizon lines up with its cousins'.
    pub fn at(&self, ply: usize, ext: u32, reach: Reach) -> u32 {
        self.regular_at(ply, ext, reach) + u32::from(!self.is_regular_ply(ply))
    }

    /// The look-ahead of a regular tip `ply` plies below the root: the search's, less the
    /// taper for every double expansion between the root's and the tip's (not below the
    /// base depth). Every move of the principal line has brothers that must be valued
    /// again whenever the look-ahead grows; without the taper, each of those levels would
    /// cost as much as the root's, and a long line would starve the root's moves of
    /// look-ahead. With it, the cost falls level by level, as alpha-beta's does with the
    /// remaining depth; a taper under two plies lets each expansion push its line's horizon
    /// further (the best-first extension after alpha-beta). The moves of the line that
    /// [extend](super::game_tree::GameTree::extends) it add `ext` plies, as alpha-beta's check
    /// extension does.
    pub fn regular_at(&self, ply: usize, ext: u32, reach: Reach) -> u32 {
        let level = u32::try_from(((ply + 1 + self.tip_parity) / 2).saturating_sub(1)).unwrap_or(u32::MAX);
        let full = level.min(reach.full_taper_levels);
        let taper = full.saturating_mul(LOOK_AHEAD_TAPER).saturating_add((level - full).saturating_mul(reach.taper));
        let regular = self.depth.saturating_sub(taper).max(reach.base);
        reach.extended(regular, ext)
    }

    /// The search's one notion of staleness: true if the estimate of `node`, `ply` plies
    /// below the root on a line extended by `ext` plies (the node's own move included),
    /// looked less far ahead than the schedule now asks there, or is a cut son's
    /// refutation while estimates deepen (where they do not, a refutation says more than
    /// the son's own estimate would: a cut son is expanded, as Harris does). The two tests
    /// below build on it and differ only in what else they ask of the node.
    pub fn is_behind(&self, node: &Node, ply: usize, ext: u32, reach: Reach) -> bool {
        node.depth() < self.regular_at(ply, ext, reach) || node.has(CUT) && reach.deepens()
    }

    /// True if the value of the tip `node` cannot be relied on as it stands: it is
    /// [behind](LookAhead::is_behind), or only a bound (from a windowed estimate, or the
    /// refutation that cut it). Selection values such a tip again before it expands it,
    /// and the windows of its brothers do not rest on it. Bounds are optimistic for the
    /// chooser above, so selection finds every one that could matter; valuing it costs one
    /// estimate, where expanding it would cost one per son. A terminal's value is exact and
    /// a collapsed stub's is backed up from the subtree it had: neither is unreliable.
    pub fn unreliable(&self, node: &Node, ply: usize, ext: u32, reach: Reach) -> bool {
        node.flags() & (TERMINAL | COLLAPSED) == 0 && (node.is_bound() || self.is_behind(node, ply, ext, reach))
    }

    /// True if the sweep along the selected line should renew the tip `node`: it is
    /// [behind](LookAhead::is_behind), in the band or not. Unlike
    /// [`unreliable`](LookAhead::unreliable), a bound that is not behind stays a bound (the
    /// sweep asks only whether a deeper look brings a move back into the band), and a tip
    /// dropped for good or exhausted by a depth horizon is left alone.
    pub fn sweep_due(&self, node: &Node, ply: usize, ext: u32, reach: Reach) -> bool {
        node.flags() & (TERMINAL | COLLAPSED | DROPPED | EXHAUSTED) == 0 && self.is_behind(node, ply, ext, reach)
    }
}
