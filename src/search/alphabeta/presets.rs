//! Selectivity presets: which parts of the search run. A preset is a type whose constants
//! the search reads, so each preset compiles to its own search and a part that is off
//! costs nothing in the hot path.

/// The parts of the search that can be left out. Every part is on unless a preset says
/// otherwise: [`Full`] is the engine's search.
pub trait Preset: 'static {
    /// Probe and store the transposition table.
    const TRANSPOSITION_TABLE: bool = true;
    /// Run quiescence search at the horizon (otherwise: static evaluation).
    const QUIESCENCE: bool = true;
    /// Quiescence leaves out the captures that lose material by static exchange evaluation.
    const QUIESCENCE_SEE: bool = true;
    /// Quiescence delta pruning: it leaves out the captures that cannot lift the score to
    /// within a margin of alpha.
    const DELTA_PRUNING: bool = true;
    /// Order quiet moves by the two killers of the ply.
    const KILLERS: bool = true;
    /// Order moves by what earlier cutoffs taught: butterfly, continuation and capture
    /// history, counter moves.
    const HISTORY: bool = true;
    /// Order the captures that lose material by static exchange evaluation after the quiet
    /// moves.
    const SEE_ORDERING: bool = true;
    /// The main search's selectivity: null move, reverse futility and futility pruning,
    /// late move pruning and reductions, SEE pruning, internal iterative reductions,
    /// singular extensions and multi-cut.
    const PRUNING: bool = true;
    /// Mate distance pruning. Exact: it cuts only what cannot beat a mate already found.
    const MATE_DISTANCE: bool = true;
    /// The correction history learned from earlier searches, added to the static
    /// evaluation (of quiescence's stand pat too).
    const CORRECTION: bool = true;
    /// Search checking moves one ply deeper.
    const CHECK_EXTENSION: bool = true;
    /// Aspiration windows around the previous iteration's score.
    const ASPIRATION: bool = true;
}

/// Everything on: how the engine plays.
pub struct Full;

impl Preset for Full {}

/// Full-width alpha-beta, the reference Harris's bandwidth search is measured against
/// (he played fixed-depth, full-width alpha-beta programs against their conversions to
/// his search, with the same evaluation): the engine's evaluation, quiescence,
/// transposition table and move ordering, iterated to the clock, without the main
/// search's selectivity, check extension and aspiration windows. Quiescence keeps its
/// static exchange filter, which decides which captures it looks at whatever the window,
/// and drops delta pruning, a futility pruning that depends on the window. The correction
/// history is off: it is learnt from earlier searches, so with it the value would not be
/// a minimax of the evaluation. Mate distance pruning stays: it changes no value. At a
/// fixed depth and without the table, the root value is the minimax value of that depth
/// with this quiescence at the leaves.
pub struct Minimax;

impl Preset for Minimax {
    const DELTA_PRUNING: bool = false;
    const PRUNING: bool = false;
    const CORRECTION: bool = false;
    const CHECK_EXTENSION: bool = false;
    const ASPIRATION: bool = false;
}

/// Plain fixed-depth alpha-beta with static evaluation at the leaves (tests).
pub struct Plain;

impl Preset for Plain {
    const TRANSPOSITION_TABLE: bool = false;
    const QUIESCENCE: bool = false;
    const QUIESCENCE_SEE: bool = false;
    const DELTA_PRUNING: bool = false;
    const KILLERS: bool = false;
    const HISTORY: bool = false;
    const SEE_ORDERING: bool = false;
    const PRUNING: bool = false;
    const MATE_DISTANCE: bool = false;
    const CORRECTION: bool = false;
    const CHECK_EXTENSION: bool = false;
    const ASPIRATION: bool = false;
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
