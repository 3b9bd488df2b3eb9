//! `harrier eval`: a position's hand-crafted evaluation term by term, then a network's, as
//! the UCI command `eval` prints them.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use harrier::engine::options::DEFAULT_USE_NNUE;
use harrier::eval::nnue::{self, Network};

use super::values::position;

/// The arguments of `harrier eval [--net file] [fen...]`.
#[derive(Args)]
pub struct Eval {
    /// A network file to evaluate with [default: the built-in network]
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
    /// The position, as one argument or as its words [default: the start position]
    fen: Vec<String>,
}

impl Eval {
    /// Prints the trace and the network's line on stdout.
    pub fn run(self) -> Result<(), String> {
        let (net, label) = match &self.net {
            Some(path) => (Arc::new(Network::load(path)?), path.display().to_string()),
            // Labelled as a fresh engine's `eval` labels it, so that the two print the same.
            None => (nnue::embedded(), if DEFAULT_USE_NNUE { "in use" } else { "built in" }.to_string()),
        };
        let position = position(&self.fen)?;
        for line in harrier::eval::hce::trace::report(&position) {
            print_line!("{line}");
        }
        print_line!("{}", harrier::eval::network_report_line(&net, &position, &label));
        Ok(())
    }
}
