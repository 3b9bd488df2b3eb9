//! Syzygy endgame tablebases: WDL probes inside the search and the choice of root moves
//! by DTZ, so that a won ending is converted rather than shuffled.

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Tablebase, Wdl};

use crate::value::{TB_WIN, TB_WIN_BOUND};

/// The separator between directories in `SyzygyPath`.
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// What the tables say about a root they cover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMoves {
    /// The moves that keep the best outcome.
    pub moves: Vec<Move>,
    /// That outcome's value for the side to move at the root (a win, a draw or a loss).
    pub value: i32,
    /// Probes made to find them.
    pub probes: u64,
}

/// Loaded tables and how the search uses them.
#[derive(Clone)]
pub struct Syzygy {
    tables: Arc<Tablebase<Chess>>,
    /// Probe in the search only at this draft or deeper (fewer pieces than the limit: always).
    pub probe_depth: i32,
    /// Probe positions with at most this many pieces (the largest table's size at most).
    pub probe_limit: usize,
    /// Count wins and losses that the fifty-move rule spoils as draws.
    pub rule50: bool,
}

impl Syzygy {
    /// Loads every table in the directories of `paths` (separated by [`PATH_SEPARATOR`]).
    /// Returns the tables and how many files were found; an unreadable directory is an
    /// error, an empty path gives `None`.
    pub fn load(paths: &str, probe_depth: i32, probe_limit: usize, rule50: bool) -> Result<Option<Syzygy>, String> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        for dir in paths.split(PATH_SEPARATOR).map(str::trim).filter(|d| !d.is_empty()) {
            files += tables.add_directory(dir).map_err(|e| format!("cannot read Syzygy directory {dir}: {e}"))?;
        }
        if files == 0 {
            return Ok(None);
        }
        Ok(Some(Syzygy { tables: Arc::new(tables), probe_depth, probe_limit, rule50 }))
    }

    /// The most pieces any loaded table has.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The same tables with other probe settings.
    pub fn with_settings(&self, probe_depth: i32, probe_limit: usize, rule50: bool) -> Syzygy {
        Syzygy { tables: self.tables.clone(), probe_depth, probe_limit, rule50 }
    }

    /// True when `pos` may be probed: few enough pieces and no castling rights.
    pub fn covers(&self, pos: &Chess) -> bool {
        let pieces = pos.board().occupied().count();
        pieces <= self.probe_limit.min(self.max_pieces()) && !pos.castles().any()
    }

    /// The value of `pos` for its side to move, `ply` plies from the root, if the tables
    /// know it. Only right just after a capture or pawn move (the halfmove clock at 0).
    pub fn probe_value(&self, pos: &Chess, ply: usize) -> Option<i32> {
        let wdl = self.tables.probe_wdl_after_zeroing(pos).ok()?;
        Some(self.value_of(wdl, ply))
    }

    fn value_of(&self, wdl: Wdl, ply: usize) -> i32 {
        match wdl {
            Wdl::Win => TB_WIN - ply as i32,
            Wdl::Loss => -TB_WIN + ply as i32,
            Wdl::CursedWin if !self.rule50 => TB_WIN - ply as i32,
            Wdl::BlessedLoss if !self.rule50 => -TB_WIN + ply as i32,
            // Inside the fifty moves they are draws; a hair from 0 keeps the hope alive.
            Wdl::CursedWin => 1,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
        }
    }

    /// The root moves worth searching in `pos` and the value they keep, with the number of
    /// probes made: every move that keeps the best outcome the tables see, and of a win or
    /// a loss, with DTZ tables, only the one the tables rank best (the quickest zeroing of a
    /// win, the slowest of a loss). `None` when the tables do not cover `pos`.
    pub fn root_moves(&self, pos: &Chess) -> Option<RootMoves> {
        if !self.covers(pos) {
            return None;
        }
        let outcomes: Vec<(Move, i32)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut after = pos.clone();
                after.play_unchecked(m);
                let value = if after.is_checkmate() {
                    TB_WIN
                } else {
                    -self.value_of(self.tables.probe_wdl_after_zeroing(&after).ok()?, 0)
                };
                Some((m, value))
            })
            .collect::<Option<_>>()?;
        let best = outcomes.iter().map(|&(_, value)| value).max()?;
        let probes = outcomes.len() as u64;
        let mut moves: Vec<Move> = outcomes.into_iter().filter(|&(_, value)| value == best).map(|(m, _)| m).collect();
        if best.abs() >= TB_WIN_BOUND
            && let Ok(Some((ranked_first, _))) = self.tables.best_move(pos)
            && moves.contains(&ranked_first)
        {
            moves = vec![ranked_first];
        }
        Some(RootMoves { moves, value: best, probes })
    }
}
