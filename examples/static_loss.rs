//! How well a network and the hand-crafted evaluation, each without search, predict the
//! training target of `harrier train` on datagen's games: the mean squared error of
//! `sigmoid(stretch * eval / 400)` against `(1 - wdl) * sigmoid(score / 400) + wdl * result`
//! over the positions training would use, for a few stretches of each evaluation (a
//! stretch above 1 fitting better says that evaluation's scores are too timid). Give it
//! chunk files the network did not train on.
//!
//! `cargo run --release --example static_loss -- <net file> <chunk file>... [--wdl 0.2]`

use harrier::eval::hce::evaluate;
use harrier::eval::nnue::data::format::read_games;
use harrier::eval::nnue::data::training_positions;
use harrier::eval::nnue::train::data::{Sample, logistic};
use harrier::eval::nnue::{EVAL_SCALE, Network, evaluate_position};
use shakmaty::Position;

/// The evaluation multipliers tried.
const STRETCHES: [f64; 5] = [0.8, 1.0, 1.2, 1.4, 1.6];
/// The game result's share of the target unless `--wdl` is given (`harrier train`'s
/// value for the nets of docs/nnue.md).
const DEFAULT_WDL: f32 = 0.2;

/// A position's target, its search score and the two evaluations, centipawns for the side
/// to move.
struct Row {
    target: f64,
    score: f64,
    hand_crafted: f64,
    network: f64,
}

/// The expected result of `cp` centipawns.
fn expected(cp: f64) -> f64 {
    f64::from(logistic((cp / f64::from(EVAL_SCALE)) as f32))
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut wdl: f32 = DEFAULT_WDL;
    if let Some(at) = args.iter().position(|a| a == "--wdl") {
        wdl = args.get(at + 1).and_then(|v| v.parse().ok()).expect("--wdl needs a number");
        args.drain(at..at + 2);
    }
    let Some((net_path, chunks)) = args.split_first().filter(|(_, chunks)| !chunks.is_empty()) else {
        panic!("usage: static_loss <net file> <chunk file>... [--wdl x]");
    };
    let net = Network::load(std::path::Path::new(net_path)).unwrap_or_else(|e| panic!("{net_path}: {e}"));
    let mut rows = Vec::new();
    for path in chunks {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
        let games = read_games(std::io::BufReader::new(file)).unwrap_or_else(|e| panic!("{path}: {e}"));
        for game in &games {
            for (pos, score) in training_positions(game) {
                let Some(sample) = Sample::new(&pos, score, game.result.score_for(pos.turn())) else { continue };
                rows.push(Row {
                    target: f64::from(sample.target(wdl)),
                    score: f64::from(score),
                    hand_crafted: f64::from(evaluate(&pos)),
                    network: f64::from(evaluate_position(&net, &pos)),
                });
            }
        }
    }
    let count = rows.len() as f64;
    let loss = |eval: &dyn Fn(&Row) -> f64| rows.iter().map(|r| (eval(r) - r.target).powi(2)).sum::<f64>() / count;
    println!("{} positions, wdl {wdl}", rows.len());
    println!("search score (the target's own)  {:.6}", loss(&|r| expected(r.score)));
    for stretch in STRETCHES {
        let hand_crafted = loss(&|r| expected(stretch * r.hand_crafted));
        let network = loss(&|r| expected(stretch * r.network));
        println!("stretch {stretch:.1}: hand-crafted {hand_crafted:.6}, network {network:.6}");
    }
}
