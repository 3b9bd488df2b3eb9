//! Writes tuned weights as the Rust source of `src/eval/hce/weights.rs`.

use std::fmt::Write;

use crate::eval::hce::terms::Term;

/// Entries per line: a rank of a piece-square table.
const PER_LINE: usize = 8;

/// The source of the weight file holding `weights` (flat order, rounded to integers).
pub fn weights_source(weights: &[[f64; 2]]) -> String {
    let mut out = String::from(
        "//! The learned weights of the evaluation, (middlegame, endgame) centipawns per entry.\n\
         //!\n\
         //! Written by `harrier tune`; change the tuner or run it again rather than edit this file.\n\
         \n\
         use super::score::{S, s};\n",
    );
    for &term in Term::ALL {
        let values = &weights[term.offset()..term.offset() + term.size()];
        let entries: Vec<String> =
            values.iter().map(|w| format!("s({}, {})", w[0].round() as i64, w[1].round() as i64)).collect();
        let _ =
            write!(out, "\n/// {}\n#[rustfmt::skip]\npub const {}: [S; {}] = [", term.doc(), term.name(), term.size());
        if entries.len() <= PER_LINE {
            let _ = writeln!(out, "{}];", entries.join(", "));
        } else {
            out.push('\n');
            for line in entries.chunks(PER_LINE) {
                let _ = writeln!(out, "    {},", line.join(", "));
            }
            out.push_str("];\n");
        }
    }
    out
}
