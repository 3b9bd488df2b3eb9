//! The UCI option table, declared once: `uci` prints it, `setoption` is checked against it.

use crate::search::bandwidth::params::{
    DEFAULT_BAND, DEFAULT_DEPTH_PENALTY, DEFAULT_STRICT_HARRIS, DEFAULT_TIP_PROBE_DEPTH, MAX_BAND, MAX_DEPTH_PENALTY,
    MAX_TIP_PROBE_DEPTH,
};
use crate::search::tt::{MAX_HASH_MB, MIN_HASH_MB};

/// The searcher the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Iterative-deepening alpha-beta.
    AlphaBeta,
    /// Harris's bandwidth best-first search.
    Bandwidth,
}

impl SearchMode {
    /// The names offered by the `SearchMode` combo.
    pub const NAMES: &'static [&'static str] = &["AlphaBeta", "Bandwidth"];

    fn from_name(name: &str) -> Option<SearchMode> {
        match name.to_ascii_lowercase().as_str() {
            "alphabeta" => Some(SearchMode::AlphaBeta),
            "bandwidth" => Some(SearchMode::Bandwidth),
            _ => None,
        }
    }
}

/// The kind of an option, with its default and range, as `uci` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of names.
    Combo {
        /// Default value.
        default: &'static str,
        /// The names offered.
        choices: &'static [&'static str],
    },
    /// An action without a value.
    Button,
}

/// One declared option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name, as printed.
    pub name: &'static str,
    /// Its type and range.
    pub kind: OptionKind,
}

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default reserve per move for communication delays, in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// The largest `Move Overhead` accepted, in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// Every option the engine declares, in the order `uci` prints them.
pub fn declared() -> Vec<OptionSpec> {
    vec![
        OptionSpec {
            name: "Hash",
            kind: OptionKind::Spin { default: DEFAULT_HASH_MB, min: MIN_HASH_MB as i64, max: MAX_HASH_MB as i64 },
        },
        OptionSpec { name: "Clear Hash", kind: OptionKind::Button },
        // One search thread: declare only what works.
        OptionSpec { name: "Threads", kind: OptionKind::Spin { default: 1, min: 1, max: 1 } },
        OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } },
        OptionSpec {
            name: "Move Overhead",
            kind: OptionKind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS, min: 0, max: MAX_MOVE_OVERHEAD_MS },
        },
        OptionSpec { name: "SearchMode", kind: OptionKind::Combo { default: "AlphaBeta", choices: SearchMode::NAMES } },
        OptionSpec { name: "UCI_Chess960", kind: OptionKind::Check { default: false } },
        OptionSpec {
            name: "Bandwidth",
            kind: OptionKind::Spin { default: DEFAULT_BAND as i64, min: 0, max: MAX_BAND as i64 },
        },
        OptionSpec {
            name: "DepthPenalty",
            kind: OptionKind::Spin { default: DEFAULT_DEPTH_PENALTY as i64, min: 0, max: MAX_DEPTH_PENALTY as i64 },
        },
        OptionSpec {
            name: "TipProbeDepth",
            kind: OptionKind::Spin { default: DEFAULT_TIP_PROBE_DEPTH as i64, min: 0, max: MAX_TIP_PROBE_DEPTH as i64 },
        },
        OptionSpec { name: "StrictHarris", kind: OptionKind::Check { default: DEFAULT_STRICT_HARRIS } },
        OptionSpec { name: "AlwaysThink", kind: OptionKind::Check { default: true } },
    ]
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// New table size in MB.
    Hash(usize),
    /// Empty the table.
    ClearHash,
    /// Search threads (only 1 exists).
    Threads,
    /// The GUI will (or will not) send `go ponder`.
    Ponder(bool),
    /// Reserve per move in ms.
    MoveOverhead(u64),
    /// Switch searcher.
    SearchMode(SearchMode),
    /// Chess960 castling in FENs and move text.
    Chess960(bool),
    /// Bandwidth mode: band B = e + d in centipawns.
    Band(i32),
    /// Bandwidth mode: depth penalty per ply.
    DepthPenalty(i32),
    /// Bandwidth mode: alpha-beta probe depth at tips.
    TipProbeDepth(u32),
    /// Bandwidth mode: Harris's irreversible dropping instead of collapse.
    StrictHarris(bool),
    /// Bandwidth mode: keep expanding the tree between commands.
    AlwaysThink(bool),
}

/// Checks a `setoption name <name> value <value>` against the table.
pub fn parse_change(name: &str, value: &str) -> Result<OptionChange, String> {
    let spec = declared()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = value.trim();
    let invalid = || format!("invalid value '{value}' for option {}", spec.name);
    match spec.kind {
        OptionKind::Check { .. } => {
            let on = match value.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(invalid()),
            };
            Ok(match spec.name {
                "Ponder" => OptionChange::Ponder(on),
                "StrictHarris" => OptionChange::StrictHarris(on),
                "AlwaysThink" => OptionChange::AlwaysThink(on),
                _ => OptionChange::Chess960(on),
            })
        }
        OptionKind::Spin { min, max, .. } => {
            let n: i64 = value.parse().map_err(|_| invalid())?;
            if !(min..=max).contains(&n) {
                return Err(format!("value {n} for option {} is outside {min}..{max}", spec.name));
            }
            Ok(match spec.name {
                "Hash" => OptionChange::Hash(n as usize),
                "Threads" => OptionChange::Threads,
                "Bandwidth" => OptionChange::Band(n as i32),
                "DepthPenalty" => OptionChange::DepthPenalty(n as i32),
                "TipProbeDepth" => OptionChange::TipProbeDepth(n as u32),
                _ => OptionChange::MoveOverhead(n as u64),
            })
        }
        OptionKind::Combo { .. } => SearchMode::from_name(value).map(OptionChange::SearchMode).ok_or_else(invalid),
        OptionKind::Button => Ok(OptionChange::ClearHash),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_checked() {
        assert_eq!(parse_change("hash", "64"), Ok(OptionChange::Hash(64)));
        assert_eq!(parse_change("Move Overhead", "30"), Ok(OptionChange::MoveOverhead(30)));
        assert_eq!(parse_change("Ponder", "TRUE"), Ok(OptionChange::Ponder(true)));
        assert_eq!(parse_change("Clear Hash", ""), Ok(OptionChange::ClearHash));
        assert_eq!(parse_change("SearchMode", "alphabeta"), Ok(OptionChange::SearchMode(SearchMode::AlphaBeta)));
        assert_eq!(parse_change("searchmode", "Bandwidth"), Ok(OptionChange::SearchMode(SearchMode::Bandwidth)));
        assert_eq!(parse_change("Bandwidth", "150"), Ok(OptionChange::Band(150)));
        assert_eq!(parse_change("AlwaysThink", "false"), Ok(OptionChange::AlwaysThink(false)));
        assert!(parse_change("Bandwidth", "-1").is_err());
        assert!(parse_change("TipProbeDepth", "9").is_err());
        assert!(parse_change("Hash", "0").is_err());
        assert!(parse_change("Hash", "lots").is_err());
        assert!(parse_change("Threads", "2").is_err());
        assert!(parse_change("SyzygyPath", "").is_err());
        assert!(parse_change("Ponder", "maybe").is_err());
    }
}
