//! Selectivity presets: which parts of the search run. A preset is a type whose
//! [`Features`] are a constant the search reads, so each preset compiles to its own search
//! and a part that is off costs nothing in the hot path.

/// The parts of the search that can be left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Probe and store the transposition table.
    pub transposition_table: bool,
    /// Run quiescence search at the horizon (otherwise: static evaluation).
    pub quiescence: bool,
    /// Quiescence leaves out the captures that lose material by static exchange evaluation.
    pub quiescence_see: bool,
    /// Quiescence delta pruning: it leaves out the captures that cannot lift the score to
    /// within a margin of alpha.
    pub delta_pruning: bool,
    /// Order quiet moves by the two killers of the ply.
    pub killers: bool,
    /// Order moves by what earlier cutoffs taught: butterfly, continuation and capture
    /// history, counter moves.
    pub history: bool,
    /// Order the captures that lose material by static exchange evaluation after the quiet
    /// moves.
    pub see_ordering: bool,
    /// The main search's selectivity: null move, reverse futility and futility pruning,
    /// late move pruning and reductions, SEE pruning, internal iterative reductions,
    /// singular extensions and multi-cut.
    pub pruning: bool,
    /// Mate distance pruning. Exact: it cuts only what cannot beat a mate already found.
    pub mate_distance: bool,
    /// The correction history learned from earlier searches, added to the static
    /// evaluation (of quiescence's stand pat too).
    pub correction: bool,
    /// Search checking moves one ply deeper.
    pub check_extension: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
}

impl Features {
    /// Everything on: how the engine plays.
    pub const FULL: Features = Features {
        transposition_table: true,
        quiescence: true,
        quiescence_see: true,
        delta_pruning: true,
        killers: true,
        history: true,
        see_ordering: true,
        pruning: true,
        mate_distance: true,
        correction: true,
        check_extension: true,
        aspiration: true,
    };

    /// Full-width alpha-beta, the reference Harris's bandwidth search is measured against
    /// (he played fixed-depth, full-width alpha-beta programs against their conversions to
    /// his search, with the same evaluation): the engine's evaluation, quiescence,
    /// transposition table and move ordering, iterated to the clock, without the main
    /// search's selectivity, check extension and aspiration windows. Quiescence keeps its
    /// static exchange filter, which decides which captures it looks at whatever the
    /// window, and drops delta pruning, a futility pruning that depends on the window. The
    /// correction history is off: it is learnt from earlier searches, so with it the value
    /// would not be a minimax of the evaluation. Mate distance pruning stays: it changes
    /// no value. At a fixed depth and without the table, the root value is the minimax
    /// value of that depth with this quiescence at the leaves.
    pub const MINIMAX: Features = Features {
        delta_pruning: false,
        pruning: false,
        correction: false,
        check_extension: false,
        aspiration: false,
        ..Features::FULL
    };

    /// Plain fixed-depth alpha-beta with static evaluation at the leaves (tests).
    pub const PLAIN: Features = Features {
        transposition_table: false,
        quiescence: false,
        quiescence_see: false,
        delta_pruning: false,
        killers: false,
        history: false,
        see_ordering: false,
        pruning: false,
        mate_distance: false,
        correction: false,
        check_extension: false,
        aspiration: false,
    };
}

/// A selectivity fixed at compile time: the search is compiled once per preset.
pub trait Preset: 'static {
    /// The parts of the search that run.
    const FEATURES: Features;
}

/// [`Features::FULL`]: how the engine plays.
pub struct Full;

impl Preset for Full {
    const FEATURES: Features = Features::FULL;
}

/// [`Features::MINIMAX`]: the full-width reference.
pub struct Minimax;

impl Preset for Minimax {
    const FEATURES: Features = Features::MINIMAX;
}

/// [`Features::PLAIN`]: plain alpha-beta (tests).
pub struct Plain;

impl Preset for Plain {
    const FEATURES: Features = Features::PLAIN;
}

/// The preset of a searcher the engine drives, chosen at run time: each search runs the
/// matching compiled search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selectivity {
    /// [`Full`]: `SearchMode` `AlphaBeta`, and the hybrid bandwidth style's probes.
    Full,
    /// [`Minimax`]: `SearchMode` `Minimax`, and the Harris style's probes.
    Minimax,
}
