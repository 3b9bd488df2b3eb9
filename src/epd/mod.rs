//! `harrier epd`: runs a test suite of EPD records and grades the engine on it. Records
//! carry `bm` (best moves) or `am` (moves to avoid) in SAN or UCI notation, `dm` (mate in
//! N), or the point lists of the Strategic Test Suite; the run prints one line per
//! position, then the totals (per theme when the ids name several).

mod record;
mod run;
mod score;

pub use record::{EpdRecord, MAX_POINTS, parallel_points, parse_record, point_list};
pub use run::{EpdResult, run_suite, solve};
pub use score::{SuiteSummary, Tally, is_solved, theme};

use crate::engine::searchers::SearchMode;
use crate::search::bandwidth::params::BandwidthParams;

/// How long to think per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpdLimit {
    /// Milliseconds per position.
    MoveTime(u64),
    /// Fixed depth per position.
    Depth(u32),
    /// Nodes per position: results that do not depend on the machine's speed or load.
    Nodes(u64),
}

/// The searchers an EPD run uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdSearcher {
    /// Which searcher.
    pub mode: SearchMode,
    /// Each searcher's memory in MB.
    pub hash_mb: usize,
    /// Bandwidth mode's settings.
    pub bandwidth: BandwidthParams,
    /// Positions searched at once, each by its own single-threaded searcher.
    pub threads: usize,
    /// The static evaluation the searchers use.
    pub evaluation: crate::eval::Evaluation,
}
