//! The win-rate model behind `UCI_ShowWDL`: the chances of a win, a draw and a loss for the
//! side to move, from a score and the material on the board, fitted to game results
//! (`cargo run --release --example fit_wdl -- <labelled positions>`).

use shakmaty::{Chess, Position, Role};

use super::pawn_units;

/// The score at which a win and a draw are equally likely, at no material: `a = A0 + A1 m`,
/// where `m` is the material ([`material`]) divided by [`MATERIAL_SCALE`].
pub const A0: f64 = 296.0;
/// See [`A0`].
pub const A1: f64 = -145.1;
/// How fast the win rate rises with the score (centipawns per unit of the logistic), at
/// no material: `b = B0 + B1 m`.
pub const B0: f64 = 107.8;
/// See [`B0`].
pub const B1: f64 = 25.0;
/// The material of the start position, in pawns, which scales the model's material.
pub const MATERIAL_SCALE: f64 = 78.0;

/// Material on the board in pawns (both sides; kings not counted).
pub fn material(pos: &Chess) -> u32 {
    let board = pos.board();
    Role::ALL.into_iter().map(|role| board.by_role(role).count() as u32 * pawn_units(role)).sum()
}

/// The model's parameters `(a, b)` at `material` pawns, for the given coefficients.
pub fn parameters(coefficients: [f64; 4], material: u32) -> (f64, f64) {
    let m = f64::from(material) / MATERIAL_SCALE;
    let [a0, a1, b0, b1] = coefficients;
    ((a0 + a1 * m).max(1.0), (b0 + b1 * m).max(1.0))
}

/// Win, draw and loss probabilities for a score of `value` centipawns with `material`.
pub fn probabilities(coefficients: [f64; 4], value: f64, material: u32) -> [f64; 3] {
    let (a, b) = parameters(coefficients, material);
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let win = logistic((value - a) / b);
    let loss = logistic((-value - a) / b);
    [win, (1.0 - win - loss).max(0.0), loss]
}

/// `wdl W D L` in per mille, summing to 1000, for a score of `centipawns`.
pub fn wdl(centipawns: i32, material: u32) -> [u32; 3] {
    let [win, _, loss] = probabilities([A0, A1, B0, B1], f64::from(centipawns), material);
    let win = (win * 1000.0).round() as u32;
    let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_sum_to_a_thousand_and_follow_the_score() {
        let material = material(&Chess::default());
        assert_eq!(material, 78);
        let mut last_win = 0;
        for value in (-2000..=2000).step_by(50) {
            let [w, d, l] = wdl(value, material);
            assert_eq!(w + d + l, 1000, "at {value}");
            assert!(w >= last_win, "the win rate falls at {value}");
            last_win = w;
        }
        let [w, _, l] = wdl(0, material);
        assert_eq!(w, l, "a level score is symmetric");
    }
}
