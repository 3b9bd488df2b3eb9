//! The alpha-beta searcher's UCI options.

use crate::search::options::{OptionKind, OptionSpec};

/// The number of principal variations searched and reported.
pub const MULTI_PV: &str = "MultiPV";
/// One line: the best move only.
pub const DEFAULT_MULTI_PV: usize = 1;
/// The most lines accepted.
pub const MAX_MULTI_PV: usize = 256;

/// The options alpha-beta mode declares, in the order `uci` prints them.
pub fn declared() -> Vec<OptionSpec> {
    vec![OptionSpec {
        name: MULTI_PV,
        kind: OptionKind::Spin { default: DEFAULT_MULTI_PV as i64, min: 1, max: MAX_MULTI_PV as i64 },
    }]
}
