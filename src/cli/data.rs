//! `harrier data`: the training data files that `harrier datagen` wrote.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use harrier::datagen;
use harrier::eval::nnue::data::manifest;

/// The subcommands of `harrier data`.
#[derive(Subcommand)]
pub enum Data {
    /// The data files against their manifest: the totals on stdout, each problem on stderr
    Check(Check),
}

/// The arguments of `harrier data check [dir] [--sample n]`.
#[derive(Args)]
pub struct Check {
    /// The folder of the data files and their manifest
    #[arg(default_value = datagen::DEFAULT_DIR)]
    dir: PathBuf,
    /// Check only every file's size and header, and the hash of every N-th file [default:
    /// hash every file and replay its games]
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
}

impl Data {
    /// Runs the subcommand; problems found make it fail.
    pub fn run(self) -> Result<(), String> {
        let Data::Check(check) = self;
        let depth = check.sample.map_or(manifest::Depth::Full, manifest::Depth::Sample);
        let report = manifest::check(&check.dir, depth)?;
        for problem in &report.problems {
            eprintln!("data: {problem}");
        }
        print_line!(
            "{}: {} files, {} games, {} positions, {} bytes; {} problems",
            check.dir.display(),
            report.files,
            report.games,
            report.positions,
            report.bytes,
            report.problems.len()
        );
        if report.problems.is_empty() {
            Ok(())
        } else {
            Err(format!("{} problems in {}", report.problems.len(), check.dir.display()))
        }
    }
}
