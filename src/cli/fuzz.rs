//! `harrier fuzz`: generated UCI input fed to the engine in process, every answer checked.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use harrier::uci::fuzz::{self, FuzzSettings};

/// Lines fed by default: about three minutes on an idle two-core machine.
const DEFAULT_LINES: u64 = 1_000_000;
/// The generator's seed by default.
const DEFAULT_FUZZ_SEED: u64 = 1;
/// The exit status of a run that found a problem, told apart from a usage error (2).
const FINDING_STATUS: u8 = 1;

/// The flags of `harrier fuzz`.
#[derive(Args)]
pub struct Fuzz {
    /// Lines to generate and feed
    #[arg(long, default_value_t = DEFAULT_LINES)]
    lines: u64,
    /// The generator's seed: the same seed gives the same lines
    #[arg(long, default_value_t = DEFAULT_FUZZ_SEED)]
    seed: u64,
}

impl Fuzz {
    /// Progress and the report on stderr, a finding on stdout; status 1 on a finding.
    pub fn run(self) -> ExitCode {
        let settings = FuzzSettings { lines: self.lines, seed: self.seed };
        match fuzz::run(&settings, &mut |report| eprintln!("fuzz: {report}")) {
            Ok(report) => {
                eprintln!("fuzz: done, seed {}: {report}", settings.seed);
                if let Some(peak) = &report.peak_resident {
                    eprintln!("fuzz: the memory peak came by line {}, after:", peak.line);
                    for line in &peak.recent {
                        eprintln!("  {line}");
                    }
                }
                ExitCode::SUCCESS
            }
            Err(finding) => {
                // A reader that has gone (`| head`) must not turn the finding's status
                // into a panic's.
                let _ = writeln!(std::io::stdout(), "fuzz: finding: {finding}");
                ExitCode::from(FINDING_STATUS)
            }
        }
    }
}
