//! `harrier tunables` (the `tune` build): every search tunable as a line of OpenBench's
//! SPSA input, or as a row of the table in docs/tuning.md.

use clap::Args;
use harrier::search::tunables::{TUNABLES, Tunable};

/// The flags of `harrier tunables`.
#[derive(Args)]
pub struct Tunables {
    /// A Markdown table instead: name, default, min, max, c_end, r_end and what it does
    #[arg(long)]
    table: bool,
}

impl Tunables {
    /// Prints a line per tunable on stdout, in the order declared.
    pub fn run(self) -> Result<(), String> {
        if self.table {
            print_line!("| name | default | min | max | c_end | r_end | what it does |");
            print_line!("|---|---|---|---|---|---|---|");
        }
        for tunable in TUNABLES {
            if self.table {
                let Tunable { name, default, min, max, c_end, r_end, .. } = tunable;
                let what = tunable.description().replace('|', "\\|");
                print_line!("| `{name}` | {default} | {min} | {max} | {c_end} | {r_end} | {what} |");
            } else {
                print_line!("{}", tunable.spsa_line());
            }
        }
        Ok(())
    }
}
