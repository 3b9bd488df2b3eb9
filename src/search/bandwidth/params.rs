//! Every tunable number of the bandwidth searcher, and the per-search settings the UCI
//! options map onto ([`BandwidthParams`]).

/// Default band width B = e + d in centipawns: sons more than this below their best
/// brother are not expanded. The narrowest band measured best (docs/measurements.md).
pub const DEFAULT_BAND: i32 = 0;
/// A band at least this wide never drops anything: pure best-first minimax.
pub const MAX_BAND: i32 = 2000;

/// Default depth penalty g' of the `Harris` style, in centipawns per ply of principal line
/// (0 makes selection follow the principal variation): the best of 0, 15, 25 and 40
/// measured (docs/measurements.md).
pub const DEFAULT_DEPTH_PENALTY: i32 = 15;
/// The largest depth penalty accepted: more turns the search breadth-first.
pub const MAX_DEPTH_PENALTY: i32 = 100;

/// Default depth of the alpha-beta probe that values a tip (0: quiescence search only).
pub const DEFAULT_TIP_PROBE_DEPTH: u32 = 1;
/// The deepest tip probe accepted: probes run for every created node, so they must be cheap.
pub const MAX_TIP_PROBE_DEPTH: u32 = 3;
/// A quiescence probe (look-ahead 0) ends after this many nodes, and its tip takes the
/// static evaluation. Real positions need a few thousand at most; one with far too much
/// material (which the engine accepts, repaired) can need hours, and the root is valued
/// so when the tree is reset by `setoption`, while the engine waits and no `stop` reaches
/// the probe.
pub const MAX_QUIESCENCE_PROBE_NODES: u64 = 200_000;
/// Look-ahead taken off the tips of each double expansion below the root's, so that they
/// keep the root's horizon as alpha-beta's leaves do: in the hybrid at the first
/// [`HYBRID_FULL_TAPER_LEVELS`] levels, in Harris's style at every level (its look-ahead
/// rises above `TipProbeDepth` only when a frozen tree looks further instead of growing).
pub const LOOK_AHEAD_TAPER: u32 = 2;
/// The deepest tip probe the search deepens to (at most what a node records).
pub const DEEPEST_TIP_PROBE: u32 = super::game_tree::MAX_TIP_DEPTH;

/// The hybrid (a deepening look-ahead) first runs alpha-beta's iterative deepening at the
/// root for this share of the soft budget, and of a `go nodes` budget (per cent)...
pub const ID_SHARE_PERCENT: u32 = 65;
/// ...and stops its running iteration at this share of the soft budget (per cent), so the
/// tree always gets the rest.
pub const ID_HARD_SHARE_PERCENT: u32 = 85;
/// After iterative deepening to depth d, the tree's tips at the root's level look d less
/// this many plies ahead: the root's sons, probed a ply deeper, then share the depth-d
/// horizon and find the iterations' table entries.
pub const ID_HORIZON_GAP: u32 = 2;
/// A kept tree whose look-ahead is more than this many plies behind the one iterative
/// deepening reached starts afresh from the iterations (its tips would all be valued again).
pub const HYBRID_KEEP_BEHIND_PLIES: u32 = 2;
/// In the hybrid, look-ahead taken off the tips of each double expansion below the root's:
/// under two plies, each expansion pushes its line's horizon further, so the tree extends
/// the lines it grows past the horizon iterative deepening reached...
pub const HYBRID_LOOK_AHEAD_TAPER: u32 = 1;
/// ...below the first this many double expansions under the root's, whose tips keep that
/// horizon and find the iterations' table entries (so the expected reply gets sons at
/// little cost).
pub const HYBRID_FULL_TAPER_LEVELS: u32 = 1;
/// In the hybrid, expansions between two deepenings of the tree's look-ahead: the tree
/// extends lines rather than re-searching the root at each new look-ahead.
pub const HYBRID_DEEPEN_EVERY: u64 = 32;
/// In the hybrid, every this many steps the runner-up root son (by key) is asked whether
/// a look a ply deeper than its last brings it level with the best (B*'s DISPROVEREST),
/// while it looks less far than the principal line: the move choice is settled where it is
/// uncertain.
pub const RUNNER_UP_EVERY: u64 = 2;

/// By default out-of-band sons stay in the tree and return when the band moves back
/// (collapse mode); Harris's irreversible drop is the alternative.
pub const DEFAULT_STRICT_HARRIS: bool = false;
/// By default the tree grows between commands only when the GUI allows pondering.
pub const DEFAULT_ALWAYS_THINK: bool = false;

/// Bytes of one tree node.
pub const NODE_BYTES: usize = 16;
/// The tip cache gets one part in this many of the memory budget...
pub const TIP_CACHE_DIVISOR: usize = 8;
/// ...the tip prober's transposition table one part in this many (at least a megabyte),
/// the tree the rest. The probes do most of the work, and a tree of 16-byte nodes grows
/// by a few thousand nodes a second, so the table gets the largest share.
pub const PROBE_TABLE_DIVISOR: usize = 2;
/// The fewest nodes a tree may have, whatever the budget says.
pub const MIN_TREE_NODES: usize = 1024;
/// The most nodes a tree may have: indices are 32-bit.
pub const MAX_TREE_NODES: usize = (u32::MAX - 1) as usize;

/// Occupancy (per cent of the node cap) at which the arena is compacted before an expansion.
pub const COMPACT_AT_PERCENT: usize = 90;
/// Live occupancy above which the least promising subtrees are collapsed after compacting.
pub const COLLAPSE_ABOVE_PERCENT: usize = 75;
/// Collapsing stops once live occupancy is down to this, leaving room to grow before the
/// next compaction.
pub const COLLAPSE_TARGET_PERCENT: usize = 60;

/// Tips this many plies below the root are not expanded: keeps mate values within the
/// mate range and the principal-line length within a byte (as deep as alpha-beta's
/// deepest iteration).
pub const MAX_TREE_DEPTH: usize = crate::search::MAX_DEPTH as usize;

/// Stop early when the best root son leads the runner-up by more than this many bands,
/// and by at least [`CLEAR_LEAD_MIN_CP`]...
pub const CLEAR_LEAD_BANDS: i32 = 2;
/// ...centipawns (so that a narrow band, where every other root son holds only a bound one
/// centipawn below the best, never counts as a clear lead)...
pub const CLEAR_LEAD_MIN_CP: i32 = 150;
/// ...and its subtree holds at least this many nodes (B*'s "clearly better").
pub const CLEAR_LEAD_MIN_NODES: usize = 100_000;
/// Search steps between two checks of the clear-lead rule (it walks a subtree).
pub const CLEAR_LEAD_CHECK_INTERVAL: u64 = 64;
/// The move played is the root son with the best value, where a son whose value is only a
/// bound in the root's favour (a scout's, or one ending its principal line) counts this
/// many centipawns less: a trusted son wins unless it is clearly worse.
pub const UNCONFIRMED_DISCOUNT_CP: i32 = 50;
/// After the soft budget, keep searching towards the hard limit while the runner-up is
/// within this share of the band (per cent): Harris's uncertainty zone, narrowed so that a
/// quiet position does not spend the hard limit on every move.
pub const UNCERTAINTY_BAND_PERCENT: i32 = 25;

/// The soft budget, in per cent of the time manager's: alpha-beta runs past its budget to
/// finish an iteration, bandwidth stops at it, so it gets a longer one to spend as much.
pub const SOFT_BUDGET_STRETCH_PERCENT: u32 = 125;

/// After the soft budget, keep searching towards the hard limit while the principal line
/// is shorter than this: our move, the expected reply and one more ply, so that the reply's
/// node has sons when the game goes on along it.
pub const KEPT_LINE_PLIES: usize = 3;
/// Progress is reported at least this often (ms) while the search runs...
pub const REPORT_INTERVAL_MS: u64 = 1000;
/// ...and when the depth or the best move changes, but not more often than this (ms).
pub const REPORT_MIN_GAP_MS: u64 = 50;
/// Sleep between two looks at the stop flag when nothing is left to expand but the search
/// may not end yet (ms).
pub const IDLE_POLL_MS: u64 = 1;

/// The two ways the bandwidth search runs over the same core (`BandwidthStyle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandwidthStyle {
    /// Harris's loop as published: tips valued by quiescence or a fixed full-width probe
    /// (`TipProbeDepth`), no deepening, no reductions or extensions: the experiment's side
    /// against its full-width alpha-beta twin (`SearchMode` `Minimax`).
    Harris,
    /// Best-first on top, alpha-beta below: the probes are the alpha-beta searcher's, with
    /// its selectivity, and their look-ahead deepens as the search goes on, as iterative
    /// deepening would; late quiet sons are scouted with reduced probes and checks extend.
    Hybrid,
}

impl BandwidthStyle {
    /// The names offered by the `BandwidthStyle` combo, in its order.
    pub const NAMES: &'static [&'static str] = &["Harris", "Hybrid"];

    /// The style's name, as the combo offers it.
    pub const fn name(self) -> &'static str {
        match self {
            BandwidthStyle::Harris => "Harris",
            BandwidthStyle::Hybrid => "Hybrid",
        }
    }

    /// The style of a name from [`BandwidthStyle::NAMES`] (in any case).
    pub fn from_name(name: &str) -> Option<BandwidthStyle> {
        match name.to_ascii_lowercase().as_str() {
            "harris" => Some(BandwidthStyle::Harris),
            "hybrid" => Some(BandwidthStyle::Hybrid),
            _ => None,
        }
    }
}

/// The style a new searcher runs: the stronger in matches (docs/measurements.md).
pub const DEFAULT_STYLE: BandwidthStyle = BandwidthStyle::Hybrid;

/// The settings of one bandwidth searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandwidthParams {
    /// Harris's loop or the hybrid.
    pub style: BandwidthStyle,
    /// Band width B = e + d in centipawns; [`MAX_BAND`] or more disables dropping.
    pub band: i32,
    /// Depth penalty g' in centipawns per ply of a son's principal line (the `Harris`
    /// style only: see [`BandwidthParams::applied_depth_penalty`]).
    pub depth_penalty: i32,
    /// Depth of the alpha-beta probe at tips (0: quiescence).
    pub tip_probe_depth: u32,
    /// Harris's irreversible drop instead of collapse mode.
    pub strict_harris: bool,
}

impl Default for BandwidthParams {
    fn default() -> BandwidthParams {
        BandwidthParams {
            style: DEFAULT_STYLE,
            band: DEFAULT_BAND,
            depth_penalty: DEFAULT_DEPTH_PENALTY,
            tip_probe_depth: DEFAULT_TIP_PROBE_DEPTH,
            strict_harris: DEFAULT_STRICT_HARRIS,
        }
    }
}

impl BandwidthParams {
    /// The depth penalty the style applies. Harris's g' offsets the uneven depth of his
    /// shallow-probed tips; the hybrid's tip probes reach at least the root's horizon, so
    /// it compares plain values.
    pub fn applied_depth_penalty(&self) -> i32 {
        match self.style {
            BandwidthStyle::Harris => self.depth_penalty,
            BandwidthStyle::Hybrid => 0,
        }
    }

    /// True when tips are valued with the alpha-beta searcher's selectivity, late quiet
    /// sons are scouted with reduced probes and checks extend a line: the hybrid style.
    pub fn selective(&self) -> bool {
        self.style == BandwidthStyle::Hybrid
    }
}

/// The number of tree nodes a budget of `mb` megabytes buys.
pub fn tree_node_cap(mb: usize) -> usize {
    (tree_bytes(mb) / NODE_BYTES).clamp(MIN_TREE_NODES, MAX_TREE_NODES)
}

/// The share of a budget of `mb` megabytes that goes to the tree, in bytes.
pub fn tree_bytes(mb: usize) -> usize {
    let total = mb.saturating_mul(1 << 20);
    total.saturating_sub(tip_cache_bytes(mb)).saturating_sub(probe_table_mb(mb) << 20)
}

/// The share of a budget of `mb` megabytes that goes to the tip prober's transposition
/// table, in MB.
pub fn probe_table_mb(mb: usize) -> usize {
    (mb / PROBE_TABLE_DIVISOR).max(1)
}

/// The share of a budget of `mb` megabytes that goes to the tip cache, in bytes.
pub fn tip_cache_bytes(mb: usize) -> usize {
    mb.saturating_mul(1 << 20) / TIP_CACHE_DIVISOR
}

/// Everything the options set for the bandwidth searcher: the search's parameters and
/// whether it thinks while idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandwidthSettings {
    /// The parameters of the search.
    pub params: BandwidthParams,
    /// Keep expanding the tree between commands (`AlwaysThink`).
    pub always_think: bool,
}

impl Default for BandwidthSettings {
    fn default() -> BandwidthSettings {
        BandwidthSettings { params: BandwidthParams::default(), always_think: DEFAULT_ALWAYS_THINK }
    }
}
