//! `harrier perft`: the leaves of the legal-move tree, per root move, to check move
//! generation against published counts.

use std::time::Instant;

use clap::Args;
use harrier::moves::uci_text;
use harrier::perft::divide;
use shakmaty::Position;

use super::values::position;

/// The arguments of `harrier perft <depth> [fen...]`.
#[derive(Args)]
pub struct Perft {
    /// Plies to count to
    depth: u32,
    /// The position, as one argument or as its words (standard or Shredder-FEN) [default:
    /// the start position]
    fen: Vec<String>,
}

impl Perft {
    /// Prints each root move's count and the total on stdout, the speed on stderr.
    pub fn run(self) -> Result<(), String> {
        let position = position(&self.fen)?;
        let mode = position.castles().mode();
        let start = Instant::now();
        let mut total = 0;
        for (m, count) in divide(&position, self.depth) {
            total += count;
            print_line!("{}: {count}", uci_text(m, mode));
        }
        let seconds = start.elapsed().as_secs_f64();
        print_line!();
        print_line!("Nodes searched: {total}");
        eprintln!("{seconds:.3} s, {:.0} nodes/s", total as f64 / seconds.max(1e-9));
        Ok(())
    }
}
