//! Fits the win-rate model of `UCI_ShowWDL` (`src/eval/wdl.rs`) to labelled positions:
//! lines of `<4 FEN fields> c9 "<result>";` with the result from White's side. Each
//! position is scored by the static evaluation; the four coefficients minimise the
//! negative log-likelihood of the results, by gradient descent with numerical gradients.
//!
//! `cargo run --release --example fit_wdl -- <file> [positions]` (default 200,000).

use harrier::eval::hce::evaluate;
use harrier::eval::wdl::{A0, A1, B0, B1, material, probabilities};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// Gradient-descent steps and their size.
const STEPS: usize = 3000;
const LEARNING_RATE: f64 = 20.0;
/// Finite-difference step for the gradients.
const EPSILON: f64 = 0.01;

/// (score for the side to move, material, outcome index 0 win / 1 draw / 2 loss)
type Sample = (f64, u32, usize);

fn read(path: &str, limit: usize) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter_map(|line| {
            let (fen, rest) = line.split_once(" c9 ")?;
            let result = rest.trim().trim_end_matches(';').trim_matches('"');
            let pos: Chess = format!("{fen} 0 1").parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()?;
            let white_outcome = match result {
                "1-0" => 0,
                "1/2-1/2" => 1,
                "0-1" => 2,
                _ => return None,
            };
            let outcome = if pos.turn().is_white() { white_outcome } else { 2 - white_outcome };
            Some((f64::from(evaluate(&pos)), material(&pos), outcome))
        })
        .take(limit)
        .collect()
}

fn loss(coefficients: [f64; 4], samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|&(value, material, outcome)| -probabilities(coefficients, value, material)[outcome].max(1e-9).ln())
        .sum();
    total / samples.len() as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: fit_wdl <file> [positions]");
    let limit = args.next().and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let samples = read(&path, limit);
    let mut coefficients = [A0, A1, B0, B1];
    println!("{} positions, loss {:.5} with the committed coefficients", samples.len(), loss(coefficients, &samples));
    for step in 0..STEPS {
        let base = loss(coefficients, &samples);
        let gradient: Vec<f64> = (0..4)
            .map(|i| {
                let mut moved = coefficients;
                moved[i] += EPSILON;
                (loss(moved, &samples) - base) / EPSILON
            })
            .collect();
        for (c, g) in coefficients.iter_mut().zip(&gradient) {
            *c -= LEARNING_RATE * g * 1000.0;
        }
        if step % 500 == 0 {
            println!("step {step}: loss {base:.5} {coefficients:.1?}");
        }
    }
    let [a0, a1, b0, b1] = coefficients;
    println!("loss {:.5}", loss(coefficients, &samples));
    println!("A0 = {a0:.1}, A1 = {a1:.1}, B0 = {b0:.1}, B1 = {b1:.1}");
}
