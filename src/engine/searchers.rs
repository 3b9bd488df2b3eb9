//! The one place that names the concrete searchers: which modes exist, the options each
//! declares, and how the engine builds the searcher of a mode. Only the active searcher
//! exists, so its memory is the only memory `Hash` pays for.

use std::sync::Arc;

use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta::options as alphabeta_options;
use crate::search::alphabeta::presets::Selectivity;
use crate::search::bandwidth::Bandwidth;
use crate::search::bandwidth::options::{self as bandwidth_options, BandwidthSettings};
use crate::search::options::{OptionSpec, Setting};
use crate::search::probe::{Prober, ProberFactory};
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
    pub fn name(self) -> &'static str {
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

    /// The options this mode's searcher declares.
    pub fn options(self) -> Vec<OptionSpec> {
        match self {
            SearchMode::AlphaBeta | SearchMode::Minimax => alphabeta_options::declared(),
            SearchMode::Bandwidth => bandwidth_options::declared(),
        }
    }

    /// True when this mode's searcher declares the option `name`.
    pub fn declares(self, name: &str) -> bool {
        self.options().iter().any(|spec| spec.name == name)
    }
}

/// Every searcher's own options, in the order `uci` prints them: each once, also when
/// several modes declare it.
pub fn searcher_options() -> Vec<OptionSpec> {
    let mut options: Vec<OptionSpec> = Vec::new();
    for spec in SearchMode::ALL.into_iter().flat_map(SearchMode::options) {
        if !options.iter().any(|known| known.name == spec.name) {
            options.push(spec);
        }
    }
    options
}

/// A searcher of `mode` with `hash_mb` megabytes, listening to `signals`, with those of
/// `settings` that its mode declares applied.
pub fn build(
    mode: SearchMode,
    hash_mb: usize,
    settings: &[Setting],
    signals: Arc<Signals>,
) -> Result<Box<dyn Searcher>, String> {
    let own: Vec<Setting> = settings.iter().filter(|&(name, _)| mode.declares(name)).cloned().collect();
    Ok(match mode {
        SearchMode::AlphaBeta | SearchMode::Minimax => {
            let selectivity = if mode == SearchMode::Minimax { Selectivity::Minimax } else { Selectivity::Full };
            let mut searcher = AlphaBeta::new(hash_mb, selectivity, signals)?;
            for (name, value) in own {
                searcher.set_option(name, value)?;
            }
            Box::new(searcher)
        }
        SearchMode::Bandwidth => {
            let settings = BandwidthSettings::from_settings(&own)?;
            Box::new(Bandwidth::with_settings(hash_mb, settings, alpha_beta_probers(), signals)?)
        }
    })
}

/// The bandwidth searcher's tip probers: one-thread alpha-beta searchers.
pub fn alpha_beta_probers() -> ProberFactory {
    Arc::new(|table_mb, signals| {
        let prober = AlphaBeta::new(table_mb, Selectivity::Full, signals)?;
        Ok(Box::new(prober) as Box<dyn Prober>)
    })
}
