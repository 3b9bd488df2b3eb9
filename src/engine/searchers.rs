//! The searcher the engine owns: one of the two, as the `SearchMode` option says. Only the
//! active one exists, so its memory is the only memory `Hash` pays for.

use std::sync::Arc;

use crate::search::alphabeta::AlphaBeta;
use crate::search::bandwidth::Bandwidth;
use crate::search::bandwidth::params::BandwidthParams;
use crate::search::{Reporter, SearchJob, SearchOutcome, Signals};

use super::options::SearchMode;

/// The active searcher.
pub enum ActiveSearcher {
    /// Iterative-deepening alpha-beta with a transposition table of `Hash` MB.
    AlphaBeta(Box<AlphaBeta>),
    /// Bandwidth best-first search whose tree, tip cache and probes' table share `Hash` MB.
    Bandwidth(Box<Bandwidth>),
}

impl ActiveSearcher {
    /// A searcher of `mode` with `hash_mb` megabytes.
    pub fn new(
        mode: SearchMode,
        hash_mb: usize,
        params: BandwidthParams,
        signals: Arc<Signals>,
    ) -> Result<ActiveSearcher, String> {
        Ok(match mode {
            SearchMode::AlphaBeta => ActiveSearcher::AlphaBeta(Box::new(AlphaBeta::new(hash_mb, signals)?)),
            SearchMode::Bandwidth => ActiveSearcher::Bandwidth(Box::new(Bandwidth::new(hash_mb, params, signals)?)),
        })
    }

    /// Which searcher this is.
    pub fn mode(&self) -> SearchMode {
        match self {
            ActiveSearcher::AlphaBeta(_) => SearchMode::AlphaBeta,
            ActiveSearcher::Bandwidth(_) => SearchMode::Bandwidth,
        }
    }

    /// Runs a search.
    pub fn search(&mut self, job: &SearchJob, reporter: &mut dyn Reporter) -> SearchOutcome {
        match self {
            ActiveSearcher::AlphaBeta(s) => s.search(job, reporter),
            ActiveSearcher::Bandwidth(s) => s.search(job, reporter),
        }
    }

    /// Forgets everything learned in the game.
    pub fn new_game(&mut self) {
        match self {
            ActiveSearcher::AlphaBeta(s) => s.new_game(),
            ActiveSearcher::Bandwidth(s) => s.new_game(),
        }
    }

    /// `Clear Hash`: empties the table, or the tree, its tip cache and the probes' table.
    pub fn clear_hash(&mut self) {
        match self {
            ActiveSearcher::AlphaBeta(s) => s.clear_hash(),
            ActiveSearcher::Bandwidth(s) => s.new_game(),
        }
    }

    /// Gives the searcher `mb` megabytes; on failure it keeps what it has.
    pub fn resize(&mut self, mb: usize) -> Result<(), String> {
        match self {
            ActiveSearcher::AlphaBeta(s) => s.resize_hash(mb),
            ActiveSearcher::Bandwidth(s) => s.resize(mb),
        }
    }
}
