//! Everything the UCI options set, typed: the engine reads its own settings and hands the
//! searchers theirs. The defaults are the option table's (`options.rs`).

use super::searchers::SearchMode;
use crate::search::SearchSettings;
use crate::search::level::Level;
#[cfg(feature = "tune")]
use crate::search::tunables::Values;

/// The Syzygy options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyzygySettings {
    /// Directories of tables (empty: none).
    pub path: String,
    /// Draft from which the search probes the tables.
    pub probe_depth: i32,
    /// Probe positions with at most this many pieces.
    pub probe_limit: usize,
    /// Count wins and losses that the fifty-move rule spoils as draws.
    pub rule50: bool,
}

/// The value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Transposition table (or bandwidth memory) in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// The GUI may send `go ponder`: thinking on the opponent's time is welcome.
    pub ponder: bool,
    /// Reserve per move for communication delays, in ms.
    pub move_overhead_ms: u64,
    /// Which searcher plays (`SearchMode`).
    pub search_mode: SearchMode,
    /// Chess960 castling in FENs and move text.
    pub chess960: bool,
    /// The GUI analyses rather than plays: tablebases choose no root moves.
    pub analyse_mode: bool,
    /// Reports carry `wdl W D L`.
    pub show_wdl: bool,
    /// The Syzygy options.
    pub syzygy: SyzygySettings,
    /// Play moves from the opening book.
    pub own_book: bool,
    /// The Polyglot book's path (empty: no book).
    pub book_file: String,
    /// Play at the strength `elo` gives (`UCI_LimitStrength`).
    pub limit_strength: bool,
    /// The strength to play at with `limit_strength` (`UCI_Elo`).
    pub elo: u32,
    /// The skill to play at, 0 to 20 (`Skill Level`; 20: full strength).
    pub skill: u32,
    /// Evaluate with the network (else the hand-crafted evaluation).
    pub use_nnue: bool,
    /// The network file (empty: the network built into the binary).
    pub eval_file: String,
    /// What the searchers read.
    pub search: SearchSettings,
    /// The search tunables (the `tune` build): the engine publishes them to the search
    /// when they change.
    #[cfg(feature = "tune")]
    pub tunables: Values,
}

/// Where the tunables' options store their values.
#[cfg(feature = "tune")]
impl AsMut<Values> for Settings {
    fn as_mut(&mut self) -> &mut Values {
        &mut self.tunables
    }
}

impl Settings {
    /// The playing level these settings ask for: `UCI_Elo`'s with `UCI_LimitStrength`, else
    /// `Skill Level`'s (`None`: full strength).
    pub fn playing_level(&self) -> Option<Level> {
        if self.limit_strength { Level::from_elo(self.elo) } else { Level::from_skill(self.skill) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_tables_and_the_searchers() {
        let settings = Settings::default();
        assert_eq!((settings.hash_mb, settings.threads, settings.move_overhead_ms), (16, 1, 10));
        assert_eq!(settings.syzygy.probe_limit, 7);
        assert!(settings.syzygy.rule50);
        assert_eq!(settings.search, SearchSettings::default(), "the table agrees with the searchers' own defaults");
    }
}
