//! `harrier epd`: an EPD test suite, each position searched within a limit and graded.

use std::path::PathBuf;

use clap::Args;
use harrier::engine::options;
use harrier::engine::searchers::SearchMode;
use harrier::epd::{EpdLimit, EpdSearcher, run_suite};
use harrier::search::bandwidth::params::{self, BandwidthParams, BandwidthStyle};

use super::values::{EvalChoice, at_least_one, combo};

/// Milliseconds per position when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Positions searched at once by default: one, so that the searches do not share the
/// machine and a time limit means the same on any machine.
const DEFAULT_THREADS: usize = 1;
/// Each searcher's table by default: the engine's own default `Hash`, as it plays.
const EPD_HASH_MB: usize = options::DEFAULT_HASH_MB as usize;

/// The flags of `harrier epd <file>`.
#[derive(Args)]
pub struct Epd {
    /// The suite, one EPD record a line
    file: PathBuf,
    /// Milliseconds per position
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_MOVETIME_MS, group = "limit")]
    movetime: u64,
    /// A fixed depth per position instead
    #[arg(long, group = "limit")]
    depth: Option<u32>,
    /// A node count per position instead: results that do not depend on the machine's
    /// speed or load
    #[arg(long, group = "limit")]
    nodes: Option<u64>,
    /// Positions searched at once, each by its own single-threaded searcher
    #[arg(long, value_parser = at_least_one::<usize>, default_value_t = DEFAULT_THREADS)]
    threads: usize,
    /// Each searcher's transposition table, in MB
    #[arg(long, value_name = "MB", default_value_t = EPD_HASH_MB)]
    hash: usize,
    /// The searcher
    #[arg(
        long,
        ignore_case = true,
        value_parser = combo(SearchMode::NAMES, SearchMode::from_name),
        default_value = SearchMode::DEFAULT.name()
    )]
    mode: SearchMode,
    /// Bandwidth mode's style
    #[arg(
        long,
        ignore_case = true,
        value_parser = combo(BandwidthStyle::NAMES, BandwidthStyle::from_name),
        default_value = params::DEFAULT_STYLE.name()
    )]
    style: BandwidthStyle,
    /// Bandwidth mode's band, in centipawns
    #[arg(long, value_name = "CP", default_value_t = params::DEFAULT_BAND)]
    band: i32,
    /// Bandwidth mode's depth penalty (the Harris style), in centipawns per ply
    #[arg(long, value_name = "CP", default_value_t = params::DEFAULT_DEPTH_PENALTY)]
    depth_penalty: i32,
    /// Bandwidth mode's depth of the probe that values a tip (0: quiescence only)
    #[arg(long, value_name = "DEPTH", default_value_t = params::DEFAULT_TIP_PROBE_DEPTH)]
    tip_probe: u32,
    /// The evaluation to search with; the default is the engine's
    #[arg(long, value_enum, default_value_t = EvalChoice::ENGINE)]
    eval: EvalChoice,
}

impl Epd {
    /// Runs the suite: a line per position and the totals on stdout.
    pub fn run(self) -> Result<(), String> {
        let limit = match (self.depth, self.nodes) {
            (Some(depth), _) => EpdLimit::Depth(depth),
            (None, Some(nodes)) => EpdLimit::Nodes(nodes),
            (None, None) => EpdLimit::MoveTime(self.movetime),
        };
        let setup = EpdSearcher {
            mode: self.mode,
            hash_mb: self.hash,
            bandwidth: BandwidthParams {
                style: self.style,
                band: self.band,
                depth_penalty: self.depth_penalty,
                tip_probe_depth: self.tip_probe,
                ..BandwidthParams::default()
            },
            threads: self.threads,
            evaluation: self.eval.evaluation(),
        };
        let text =
            std::fs::read_to_string(&self.file).map_err(|e| format!("cannot read {}: {e}", self.file.display()))?;
        run_suite(&text, limit, setup)?;
        Ok(())
    }
}
