//! The UCI option table, declared once: `uci` prints it, `setoption` is checked against it.
//! The engine's own options come first, then every searcher's.

use super::searchers::{SearchMode, searcher_options};
use crate::search::options::{EMPTY_TEXT, OptionKind, OptionSpec, OptionValue, Setting};
use crate::search::tt::{MAX_HASH_MB, MIN_HASH_MB};

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: i64 = 16;
/// Default reserve per move for communication delays, in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// The largest `Move Overhead` accepted, in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
/// The most search threads accepted (Lazy SMP).
pub const MAX_THREADS: i64 = 1024;
/// Default and largest draft at which the search probes the tablebases.
pub const DEFAULT_SYZYGY_PROBE_DEPTH: i64 = 1;
/// The largest `SyzygyProbeDepth`.
pub const MAX_SYZYGY_PROBE_DEPTH: i64 = 100;
/// The most pieces a Syzygy table has.
pub const MAX_SYZYGY_PIECES: i64 = 7;

/// Every option the engine declares, in the order `uci` prints them.
pub fn declared() -> Vec<OptionSpec> {
    let engine_options = vec![
        OptionSpec {
            name: "Hash",
            kind: OptionKind::Spin { default: DEFAULT_HASH_MB, min: MIN_HASH_MB as i64, max: MAX_HASH_MB as i64 },
        },
        OptionSpec { name: "Clear Hash", kind: OptionKind::Button },
        OptionSpec { name: "Threads", kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS } },
        OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } },
        OptionSpec {
            name: "Move Overhead",
            kind: OptionKind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS, min: 0, max: MAX_MOVE_OVERHEAD_MS },
        },
        OptionSpec {
            name: "SearchMode",
            kind: OptionKind::Combo { default: SearchMode::DEFAULT.name(), choices: SearchMode::NAMES },
        },
        OptionSpec { name: "UCI_Chess960", kind: OptionKind::Check { default: false } },
        OptionSpec { name: "UCI_AnalyseMode", kind: OptionKind::Check { default: false } },
        OptionSpec { name: "UCI_ShowWDL", kind: OptionKind::Check { default: false } },
        OptionSpec { name: "UCI_Opponent", kind: OptionKind::String { default: EMPTY_TEXT } },
        OptionSpec { name: "SyzygyPath", kind: OptionKind::String { default: EMPTY_TEXT } },
        OptionSpec {
            name: "SyzygyProbeDepth",
            kind: OptionKind::Spin { default: DEFAULT_SYZYGY_PROBE_DEPTH, min: 1, max: MAX_SYZYGY_PROBE_DEPTH },
        },
        OptionSpec { name: "Syzygy50MoveRule", kind: OptionKind::Check { default: true } },
        OptionSpec {
            name: "SyzygyProbeLimit",
            kind: OptionKind::Spin { default: MAX_SYZYGY_PIECES, min: 0, max: MAX_SYZYGY_PIECES },
        },
        OptionSpec { name: "OwnBook", kind: OptionKind::Check { default: false } },
        OptionSpec { name: "BookFile", kind: OptionKind::String { default: EMPTY_TEXT } },
    ];
    engine_options.into_iter().chain(searcher_options()).collect()
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// New table size in MB.
    Hash(usize),
    /// Empty the table.
    ClearHash,
    /// Search threads.
    Threads(usize),
    /// The GUI will (or will not) send `go ponder`.
    Ponder(bool),
    /// Reserve per move in ms.
    MoveOverhead(u64),
    /// Switch searcher.
    SearchMode(SearchMode),
    /// Chess960 castling in FENs and move text.
    Chess960(bool),
    /// The GUI analyses rather than plays: every root move is searched.
    AnalyseMode(bool),
    /// Add `wdl W D L` to the reports.
    ShowWdl(bool),
    /// Who the opponent is (`GM 2800 human Carlsen`); accepted, not used.
    Opponent,
    /// Directories of Syzygy tables.
    SyzygyPath(String),
    /// Draft from which the search probes the tables.
    SyzygyProbeDepth(i32),
    /// Count positions won or lost only beyond the fifty-move rule as draws.
    Syzygy50MoveRule(bool),
    /// Probe positions with at most this many pieces.
    SyzygyProbeLimit(usize),
    /// Play moves from the opening book.
    OwnBook(bool),
    /// The Polyglot book's path (empty: no book).
    BookFile(String),
    /// One of a searcher's own options.
    Searcher(Setting),
}

/// Checks a `setoption name <name> value <value>` against the table.
pub fn parse_change(name: &str, value: &str) -> Result<OptionChange, String> {
    let spec = declared()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    Ok(match (spec.name, spec.check(value)?) {
        ("Hash", OptionValue::Spin(mb)) => OptionChange::Hash(mb as usize),
        ("Clear Hash", _) => OptionChange::ClearHash,
        ("Threads", OptionValue::Spin(count)) => OptionChange::Threads(count as usize),
        ("Ponder", OptionValue::Check(on)) => OptionChange::Ponder(on),
        ("Move Overhead", OptionValue::Spin(ms)) => OptionChange::MoveOverhead(ms as u64),
        ("SearchMode", OptionValue::Combo(mode)) => {
            OptionChange::SearchMode(SearchMode::from_name(mode).expect("the combo offers only mode names"))
        }
        ("UCI_Chess960", OptionValue::Check(on)) => OptionChange::Chess960(on),
        ("UCI_AnalyseMode", OptionValue::Check(on)) => OptionChange::AnalyseMode(on),
        ("UCI_Opponent", _) => OptionChange::Opponent,
        ("UCI_ShowWDL", OptionValue::Check(on)) => OptionChange::ShowWdl(on),
        ("SyzygyPath", OptionValue::Text(path)) => OptionChange::SyzygyPath(path),
        ("SyzygyProbeDepth", OptionValue::Spin(depth)) => OptionChange::SyzygyProbeDepth(depth as i32),
        ("Syzygy50MoveRule", OptionValue::Check(on)) => OptionChange::Syzygy50MoveRule(on),
        ("SyzygyProbeLimit", OptionValue::Spin(pieces)) => OptionChange::SyzygyProbeLimit(pieces as usize),
        ("OwnBook", OptionValue::Check(on)) => OptionChange::OwnBook(on),
        ("BookFile", OptionValue::Text(path)) => OptionChange::BookFile(path),
        (name, value) => OptionChange::Searcher((name, value)),
    })
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
        assert_eq!(parse_change("SearchMode", "MINIMAX"), Ok(OptionChange::SearchMode(SearchMode::Minimax)));
        assert_eq!(parse_change("Bandwidth", "150"), Ok(OptionChange::Searcher(("Bandwidth", OptionValue::Spin(150)))));
        assert_eq!(
            parse_change("alwaysthink", "false"),
            Ok(OptionChange::Searcher(("AlwaysThink", OptionValue::Check(false))))
        );
        assert!(parse_change("Bandwidth", "-1").is_err());
        assert!(parse_change("TipProbeDepth", "9").is_err());
        assert!(parse_change("Hash", "0").is_err());
        assert!(parse_change("Hash", "lots").is_err());
        assert_eq!(parse_change("Threads", "4"), Ok(OptionChange::Threads(4)));
        assert!(parse_change("Threads", "0").is_err());
        assert_eq!(parse_change("SyzygyPath", "<empty>"), Ok(OptionChange::SyzygyPath(String::new())));
        assert_eq!(parse_change("SyzygyPath", "/a:/b c"), Ok(OptionChange::SyzygyPath("/a:/b c".to_string())));
        assert!(parse_change("SyzygyProbeLimit", "8").is_err());
        assert!(parse_change("Ponder", "maybe").is_err());
        assert_eq!(parse_change("ownbook", "true"), Ok(OptionChange::OwnBook(true)));
        assert_eq!(parse_change("BookFile", "<empty>"), Ok(OptionChange::BookFile(String::new())));
        assert_eq!(parse_change("bookfile", "/a b/c.bin"), Ok(OptionChange::BookFile("/a b/c.bin".to_string())));
    }
}
