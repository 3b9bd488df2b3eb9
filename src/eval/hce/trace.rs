//! The evaluation term by term: the counts behind every weight, for the `eval` command and
//! for the tuner, which fits the weights to them.

use shakmaty::{Board, Chess, Color, Position};

use super::score::S;
use super::terms::{GROUPS, Sink, Term, WEIGHT_COUNT};
use super::{Blend, blend, king_attack};

/// How often each weight counts in one position, for each colour.
pub struct Trace {
    /// `counts[w][c]`: weight `w` of the flat list counts this often for colour `c`
    /// (indexed by `Color as usize`).
    pub counts: Vec<[i32; 2]>,
}

impl Sink for Trace {
    #[inline]
    fn add(&mut self, color: Color, term: Term, index: usize, count: i32) {
        self.counts[term.offset() + index][color as usize] += count;
    }
}

impl Default for Trace {
    fn default() -> Trace {
        Trace { counts: vec![[0; 2]; WEIGHT_COUNT] }
    }
}

/// Every weight of the engine, in the flat order of [`Term::offset`].
pub fn engine_weights() -> Vec<S> {
    Term::ALL.iter().flat_map(|&term| (0..term.size()).map(move |index| term.weight(index))).collect()
}

/// The term owning weight `flat` of the flat list.
pub fn term_of(flat: usize) -> Term {
    *Term::ALL.iter().rev().find(|term| term.offset() <= flat).expect("the first term starts at 0")
}

impl Trace {
    /// Each colour's sums under `weights` of the king-attack terms (`safety`) or the others,
    /// restricted to terms of `group` when one is given.
    pub fn sums(&self, weights: &[S], safety: bool, group: Option<&str>) -> [S; 2] {
        let mut sums = [S::ZERO; 2];
        for (flat, (counts, &weight)) in self.counts.iter().zip(weights).enumerate() {
            if counts == &[0, 0] {
                continue;
            }
            let term = term_of(flat);
            if term.kind().is_safety() != safety || group.is_some_and(|g| g != term.group()) {
                continue;
            }
            for (sum, &count) in sums.iter_mut().zip(counts) {
                *sum += weight * count;
            }
        }
        sums
    }

    /// The evaluation this trace gives under `weights`, from White's side.
    pub fn blend(&self, board: &Board, weights: &[S]) -> Blend {
        blend(board, self.sums(weights, false, None), self.sums(weights, true, None))
    }
}

/// The `eval` table of `pos`: each group of terms for each side and phase, then the blend.
pub fn report(pos: &Chess) -> Vec<String> {
    let trace = super::trace(pos);
    let weights = engine_weights();
    let mut lines = vec![
        "          Term |     White     |     Black     |     Total".to_string(),
        "               |   MG      EG  |   MG      EG  |   MG      EG".to_string(),
        "---------------+---------------+---------------+--------------".to_string(),
    ];
    let pair = |s: S| format!("{:>6.2} {:>6.2}", f64::from(s.mg()) / 100.0, f64::from(s.eg()) / 100.0);
    let (white, black) = (Color::White as usize, Color::Black as usize);
    for group in GROUPS {
        let king_attack_group = Term::ALL.iter().any(|t| t.group() == group && t.kind().is_safety());
        let sums = if king_attack_group {
            trace.sums(&weights, true, Some(group)).map(king_attack)
        } else {
            trace.sums(&weights, false, Some(group))
        };
        lines.push(format!(
            "{group:>14} | {} | {} | {}",
            pair(sums[white]),
            pair(sums[black]),
            pair(sums[white] - sums[black])
        ));
    }
    let result = trace.blend(pos.board(), &weights);
    lines.push("---------------+---------------+---------------+--------------".to_string());
    lines.push(format!("{:>14} | {:>13} | {:>13} | {}", "Total", "", "", pair(result.total)));
    lines.push(format!(
        "Phase {}/{} (middlegame share), endgame scale {}/{}",
        result.phase,
        super::params::PHASE_TOTAL,
        result.scale,
        super::params::SCALE_NORMAL
    ));
    let strong = if result.value >= 0 { Color::White } else { Color::Black };
    let draw_scale = super::draws::draw_factor(pos.board(), strong);
    if draw_scale != super::params::SCALE_NORMAL {
        lines.push(format!("Known draw: scaled by {draw_scale}/{}", super::params::SCALE_NORMAL));
    }
    let white = result.value * draw_scale / super::params::SCALE_NORMAL;
    lines.push(format!("Final evaluation: {:+.2} (white side)", f64::from(white) / 100.0));
    lines
}
