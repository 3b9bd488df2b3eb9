//! Measures what the killer and history heuristics save: total nodes to a fixed depth over
//! the bench positions with and without them, all else equal.
//!
//! `cargo run --release --example ordering [depth]` (default depth 8).

use harrier::bench::{self, BenchResult};
use harrier::search::alphabeta::presets::{Features, Full, Preset};

/// The full search without killers and history.
struct FullWithoutOrdering;

impl Preset for FullWithoutOrdering {
    const FEATURES: Features = Features { killers: false, history: false, ..Features::FULL };
}

/// No pruning: the table, quiescence, killers and history.
struct Unpruned;

impl Preset for Unpruned {
    const FEATURES: Features =
        Features { transposition_table: true, quiescence: true, killers: true, history: true, ..Features::PLAIN };
}

/// [`Unpruned`] without killers and history.
struct UnprunedWithoutOrdering;

impl Preset for UnprunedWithoutOrdering {
    const FEATURES: Features = Features { killers: false, history: false, ..Unpruned::FEATURES };
}

/// A bench run at a depth with one preset.
type Run = fn(u32) -> BenchResult;

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(8);
    let runs: [(&str, Run); 4] = [
        ("full search, killers+history", |d| {
            bench::run_preset::<Full>(d, harrier::eval::Evaluation::HandCrafted, |_, _| {})
        }),
        ("full search, neither", |d| {
            bench::run_preset::<FullWithoutOrdering>(d, harrier::eval::Evaluation::HandCrafted, |_, _| {})
        }),
        ("no pruning, killers+history", |d| {
            bench::run_preset::<Unpruned>(d, harrier::eval::Evaluation::HandCrafted, |_, _| {})
        }),
        ("no pruning, neither", |d| {
            bench::run_preset::<UnprunedWithoutOrdering>(d, harrier::eval::Evaluation::HandCrafted, |_, _| {})
        }),
    ];
    let nodes: Vec<u64> = runs
        .iter()
        .map(|(name, run)| {
            let result = run(depth);
            println!("{name:<32} depth {depth}: {:>12} nodes {:>8.2} s", result.nodes, result.elapsed.as_secs_f64());
            result.nodes
        })
        .collect();
    println!("node ratio without/with, full search: {:.2}", nodes[1] as f64 / nodes[0] as f64);
    println!("node ratio without/with, no pruning:  {:.2}", nodes[3] as f64 / nodes[2] as f64);
}
