//! The `harrier` binary. Without arguments it is the UCI engine on stdin and stdout
//! ([`harrier::uci::run`]), and nothing but UCI ever goes to stdout. With a command it runs
//! one of the engine's tools instead:
//!
//! - `bench`: fixed searches of fixed positions; the node count is the engine's signature;
//! - `perft`: move-generation counts per root move;
//! - `epd`: an EPD test suite, searched and graded;
//! - `eval`: a position's hand-crafted evaluation term by term, then the network's;
//! - `datagen`: self-play games, the network's training data;
//! - `data check`: the data files against their manifest;
//! - `tune`: the hand-crafted evaluation's weights fitted to labelled positions;
//! - `train`: the network trained on datagen's games;
//! - `fuzz`: generated UCI input fed to the engine in process, every answer checked;
//! - `tunables` (the `tune` build only): the search tunables as OpenBench's SPSA input.
//!
//! `harrier --help` lists them and `harrier <command> --help` describes one; their flags
//! are declared in [`cli`], a module per command. A command's data goes to stdout and its
//! progress to stderr. A usage error (an unknown command or flag, a bad value) exits with
//! status 2, as does a command that fails; `fuzz` exits with status 1 on a finding.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match cli::Cli::parse().command {
        None => {
            harrier::uci::run();
            ExitCode::SUCCESS
        }
        Some(command) => command.run(),
    }
}
