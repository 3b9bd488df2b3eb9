//! Move-generation counts: the number of leaf positions at a fixed depth.

use shakmaty::{Chess, Move, Position};

/// Leaf count of `pos` at `depth` (bulk-counted at the last ply).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// Leaf counts below each root move, in generation order.
pub fn divide(pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
    let mut counts = Vec::new();
    divide_until(pos, depth, &|| false, |m, count| counts.push((m, count)));
    counts
}

/// Counts the leaves below each root move, handing each count to `each` as soon as it is
/// known, and returns the total; `None` when `stop` turned true first.
pub fn divide_until(pos: &Chess, depth: u32, stop: &dyn Fn() -> bool, mut each: impl FnMut(Move, u64)) -> Option<u64> {
    if depth == 0 {
        return Some(0);
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let count = perft_until(&child, depth - 1, stop)?;
        total += count;
        each(m, count);
    }
    Some(total)
}

/// Depth at and below which counting runs without looking at the stop flag (a few
/// hundred thousand leaves at most: well under a millisecond).
const UNINTERRUPTED_DEPTH: u32 = 3;

/// Like [`perft`], but gives up (returns `None`) soon after `stop` turns true.
pub fn perft_until(pos: &Chess, depth: u32, stop: &dyn Fn() -> bool) -> Option<u64> {
    if depth <= UNINTERRUPTED_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop() {
        return None;
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft_until(&child, depth - 1, stop)?;
    }
    Some(total)
}

/// One line of a perft suite: a FEN and the expected counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The position as FEN (standard or Shredder-FEN).
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Parses `<fen> ;D1 n ;D2 n ...` lines; blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let mut words = part.split_whitespace();
            let (Some(d), Some(n)) = (words.next(), words.next()) else {
                return Err(format!("line {}: bad field '{part}'", number + 1));
            };
            let depth =
                d.trim_start_matches('D').parse().map_err(|_| format!("line {}: bad depth '{d}'", number + 1))?;
            let nodes = n.parse().map_err(|_| format!("line {}: bad count '{n}'", number + 1))?;
            counts.push((depth, nodes));
        }
        cases.push(PerftCase { fen, counts });
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptible_count_agrees_and_stops() {
        let start = Chess::default();
        assert_eq!(perft_until(&start, 5, &|| false), Some(4_865_609));
        assert_eq!(perft_until(&start, 5, &|| true), None);
        assert_eq!(perft_until(&start, 2, &|| true), Some(400));
    }
}
