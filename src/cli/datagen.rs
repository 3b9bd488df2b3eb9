//! `harrier datagen`: self-play games on node limits, written in data files listed in the
//! folder's manifest.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use harrier::datagen::{self, DatagenSettings, NodeLimits};
use harrier::eval::Evaluation;
use harrier::eval::nnue::data::manifest::Provenance;
use harrier::eval::nnue::{self, Network};

use super::values::{EvalChoice, at_least_one, cores};

/// The flags of `harrier datagen`.
#[derive(Args)]
pub struct Datagen {
    /// The folder of the data files and their manifest
    #[arg(long, value_name = "DIR", default_value = datagen::DEFAULT_DIR)]
    out: PathBuf,
    /// Games in the whole run
    #[arg(long, default_value_t = datagen::DEFAULT_GAMES)]
    games: u64,
    /// Games in each data file
    #[arg(long, default_value_t = datagen::DEFAULT_GAMES_PER_FILE)]
    games_per_file: u64,
    /// Files written at once, one thread each, which plays its file's games in turn [default: every core]
    #[arg(long, value_parser = at_least_one::<usize>, default_value_t = cores(), hide_default_value = true)]
    threads: usize,
    /// Chooses the openings
    #[arg(long, default_value_t = datagen::DEFAULT_DATAGEN_SEED)]
    seed: u64,
    /// No iteration starts past this many nodes
    #[arg(long, value_parser = at_least_one::<u64>, default_value_t = datagen::DEFAULT_NODES.soft)]
    soft_nodes: u64,
    /// The search stops at this many nodes
    #[arg(long, value_parser = at_least_one::<u64>, default_value_t = datagen::DEFAULT_NODES.hard)]
    hard_nodes: u64,
    /// Transposition table per thread, in MB
    #[arg(long, value_name = "MB", value_parser = at_least_one::<usize>, default_value_t = datagen::DEFAULT_THREAD_HASH_MB)]
    hash: usize,
    /// Syzygy tables to adjudicate and search with
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
    /// The evaluation to play with; the default is the engine's
    #[arg(long, value_enum, default_value_t = EvalChoice::ENGINE)]
    eval: EvalChoice,
    /// A network file to play with instead
    #[arg(long, value_name = "FILE", conflicts_with = "eval")]
    net: Option<PathBuf>,
}

impl Datagen {
    /// Plays the games the folder does not have yet, progress and totals on stderr.
    pub fn run(self) -> Result<(), String> {
        let (evaluation, net) = match &self.net {
            Some(path) => (Evaluation::Network(Arc::new(Network::load(path)?)), file_id(path)),
            None => {
                let evaluation = self.eval.evaluation();
                let id = if evaluation.network().is_some() { nnue::EMBEDDED_ID } else { "hce" };
                (evaluation, id.to_string())
            }
        };
        let settings = DatagenSettings {
            out: self.out,
            games: self.games,
            games_per_file: self.games_per_file,
            threads: self.threads,
            seed: self.seed,
            nodes: NodeLimits { soft: self.soft_nodes, hard: self.hard_nodes },
            hash_mb: self.hash,
            syzygy: self.syzygy,
            evaluation,
            provenance: Provenance { commit: env!("HARRIER_COMMIT").to_string(), net, command: typed_command() },
        };
        let start = Instant::now();
        let (made, found) = datagen::run(&settings, &|line| eprintln!("datagen: {line}"))?;
        if found.games > 0 {
            eprintln!(
                "datagen: {} games, {} positions already in {}",
                found.games,
                found.positions,
                settings.out.display()
            );
        }
        eprintln!("datagen: done: {}", datagen::progress_line(made.games, made.positions, start.elapsed()));
        for line in made.lines() {
            eprintln!("datagen: {line}");
        }
        Ok(())
    }
}

/// How the manifest names a network file: its name without the extension.
fn file_id(path: &Path) -> String {
    path.file_stem().map_or_else(|| path.display().to_string(), |stem| stem.to_string_lossy().into())
}

/// The command line as the user typed it, for the manifest: clap's parsed flags would
/// lose their order and spelling, and add the defaults.
fn typed_command() -> String {
    std::iter::once("harrier".to_string())
        .chain(std::env::args_os().skip(1).map(|arg| arg.to_string_lossy().into_owned()))
        .collect::<Vec<_>>()
        .join(" ")
}
