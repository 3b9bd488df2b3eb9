//! The one place that names the concrete searchers: which modes exist and how the engine
//! builds the searcher of a mode. Only the active searcher
//! exists, so its memory is the only memory `Hash` pays for.

use std::sync::Arc;

use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta::alpha_beta_probers;
use crate::search::alphabeta::presets::Selectivity;
use crate::search::bandwidth::Bandwidth;
use crate::search::bandwidth::params::BandwidthParams;
use crate::search::{Searcher, Signals};

/// The searcher the engine uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchMode {
    /// Iterative-deepening alpha-beta.
    AlphaBeta,
    /// Harris's bandwidth best-first search.
    Bandwidth,
    /// The alpha-beta searcher without its selectivity (the minimax preset): the
    /// full-width reference for the bandwidth search.
    Minimax,
}

impl SearchMode {
    /// The names offered by the `SearchMode` combo.
    pub const NAMES: &'static [&'static str] = &["AlphaBeta", "Bandwidth", "Minimax"];
    /// Every mode, in the combo's order.
    pub const ALL: [SearchMode; 3] = [SearchMode::AlphaBeta, SearchMode::Bandwidth, SearchMode::Minimax];
    /// The mode a new engine starts in.
    pub const DEFAULT: SearchMode = SearchMode::AlphaBeta;

    /// The mode's name, as the combo offers it.
    pub const fn name(self) -> &'static str {
        match self {
            SearchMode::AlphaBeta => "AlphaBeta",
            SearchMode::Bandwidth => "Bandwidth",
            SearchMode::Minimax => "Minimax",
        }
    }

    /// The mode of a name from [`SearchMode::NAMES`] (in any case).
    pub fn from_name(name: &str) -> Option<SearchMode> {
        match name.to_ascii_lowercase().as_str() {
            "alphabeta" => Some(SearchMode::AlphaBeta),
            "bandwidth" => Some(SearchMode::Bandwidth),
            "minimax" => Some(SearchMode::Minimax),
            _ => None,
        }
    }
}

/// A searcher of `mode` with `hash_mb` megabytes and the default settings, listening to
/// `signals`.
pub fn build(mode: SearchMode, hash_mb: usize, signals: Arc<Signals>) -> Result<Box<dyn Searcher>, String> {
    Ok(match mode {
        SearchMode::AlphaBeta => Box::new(AlphaBeta::new(hash_mb, Selectivity::Full, signals)?),
        SearchMode::Minimax => Box::new(AlphaBeta::new(hash_mb, Selectivity::Minimax, signals)?),
        SearchMode::Bandwidth => {
            Box::new(Bandwidth::new(hash_mb, BandwidthParams::default(), alpha_beta_probers(), signals)?)
        }
    })
}
