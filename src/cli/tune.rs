//! `harrier tune`: the hand-crafted evaluation's weights fitted to labelled positions.

use std::path::PathBuf;

use clap::Args;
use harrier::eval::hce::tune::{self, TuneSettings};

use super::values::{at_least_one, cores};

/// The flags of `harrier tune <file>`.
#[derive(Args)]
pub struct Tune {
    /// Labelled positions: `<FEN> c9 "1-0";` or `[1.0]`-style results
    file: PathBuf,
    /// Read at most this many positions [default: all]
    #[arg(long)]
    positions: Option<usize>,
    /// Full passes over the data
    #[arg(long, default_value_t = tune::DEFAULT_TUNE_EPOCHS)]
    epochs: usize,
    /// Adam's step size, in centipawns
    #[arg(long, value_name = "CP", default_value_t = tune::DEFAULT_RATE)]
    rate: f64,
    /// Threads tracing positions and summing gradients [default: every core]
    #[arg(long, value_parser = at_least_one::<usize>, default_value_t = cores(), hide_default_value = true)]
    threads: usize,
    /// Weights that count in fewer positions keep their values
    #[arg(long, default_value_t = tune::DEFAULT_MIN_POSITIONS)]
    min_positions: usize,
    /// Where the weight file is written
    #[arg(long, value_name = "FILE", default_value = tune::DEFAULT_WEIGHTS_FILE)]
    out: String,
}

impl Tune {
    /// Fits the weights, the loss on stderr, and writes the weight file.
    pub fn run(self) -> Result<(), String> {
        let settings = TuneSettings {
            positions: self.positions.unwrap_or(usize::MAX),
            epochs: self.epochs,
            rate: self.rate,
            threads: self.threads,
            min_positions: self.min_positions,
            out: self.out,
        };
        let text =
            std::fs::read_to_string(&self.file).map_err(|e| format!("cannot read {}: {e}", self.file.display()))?;
        tune::run(&text, &settings)
    }
}
