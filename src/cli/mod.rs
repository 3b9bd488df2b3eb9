//! The command line of the `harrier` binary, declared from `main.rs` and no part of the
//! library: every command's flags with their defaults, declared once through clap's derive,
//! and what each command does with them. A command's module holds both, so that a flag is
//! read beside its use; [`values`] holds what several commands' flags share.

/// `println!` for a command's output: a reader that has gone (`harrier perft 6 | head`) is
/// no error. The command ends as it would have, its output cut short where the reader left,
/// where `println!` would panic.
macro_rules! print_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod bench;
mod data;
mod datagen;
mod epd;
mod eval;
mod fuzz;
mod perft;
mod train;
#[cfg(feature = "tune")]
mod tunables;
mod tune;
mod values;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The status of a command that failed (a file it cannot read, a bad FEN, problems in the
/// data): the status of a usage error too, as it has always been, so that scripts keep
/// telling success from failure by the same number.
const FAILURE_STATUS: u8 = 2;

/// Harrier, a UCI chess engine. Without a command it speaks UCI on stdin and stdout.
// The display name makes `--version` print `Harrier 0.1.0`, the engine's `id name`
// (`harrier::engine::NAME`), while usage lines name the binary by its file name.
#[derive(Parser)]
#[command(name = "harrier", display_name = "Harrier", version)]
pub struct Cli {
    /// The tool to run; none runs the UCI engine.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The tools the binary runs instead of the UCI engine.
#[derive(Subcommand)]
pub enum Command {
    /// Fixed searches of the bench positions; the last line, `<nodes> nodes <nps> nps`,
    /// holds the engine's signature
    Bench(bench::Bench),
    /// Move-generation counts per root move, then `Nodes searched: <n>`
    Perft(perft::Perft),
    /// Run an EPD test suite (bm/am/dm, STS points)
    Epd(epd::Epd),
    /// The hand-crafted evaluation term by term, then the network's
    Eval(eval::Eval),
    /// Self-play games for training the evaluation network
    Datagen(datagen::Datagen),
    /// The training data files
    #[command(subcommand)]
    Data(data::Data),
    /// Fit the evaluation weights to labelled positions
    Tune(tune::Tune),
    /// Train the evaluation network on datagen's games
    Train(train::Train),
    /// Feed the engine generated UCI input in process and check every answer (exit status
    /// 1 on a finding)
    Fuzz(fuzz::Fuzz),
    /// The search tunables as OpenBench's SPSA input (the `tune` build only)
    #[cfg(feature = "tune")]
    Tunables(tunables::Tunables),
}

impl Command {
    /// Runs the command: data on stdout, progress and problems on stderr.
    pub fn run(self) -> ExitCode {
        let result = match self {
            Command::Bench(bench) => bench.run(),
            Command::Perft(perft) => perft.run(),
            Command::Epd(epd) => epd.run(),
            Command::Eval(eval) => eval.run(),
            Command::Datagen(datagen) => datagen.run(),
            Command::Data(data) => data.run(),
            Command::Tune(tune) => tune.run(),
            Command::Train(train) => train.run(),
            #[cfg(feature = "tune")]
            Command::Tunables(tunables) => tunables.run(),
            // The one command with a status of its own: a finding is not a failure to run.
            Command::Fuzz(fuzz) => return fuzz.run(),
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("harrier: {message}");
                ExitCode::from(FAILURE_STATUS)
            }
        }
    }
}
