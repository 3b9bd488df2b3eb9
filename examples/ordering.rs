//! Measures what the killer and history heuristics save: total nodes to a fixed depth over
//! the bench positions with and without them, all else equal.
//!
//! `cargo run --release --example ordering [depth]` (default depth 8).

use harrier::bench;
use harrier::search::alphabeta::Features;

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(8);
    let without = Features { killers: false, history: false, ..Features::FULL };
    let plain_with =
        Features { transposition_table: true, quiescence: true, killers: true, history: true, ..Features::PLAIN };
    let plain_without = Features { killers: false, history: false, ..plain_with };
    let runs = [
        ("full search, killers+history", Features::FULL),
        ("full search, neither", without),
        ("no pruning, killers+history", plain_with),
        ("no pruning, neither", plain_without),
    ];
    let nodes: Vec<u64> = runs
        .iter()
        .map(|(name, features)| {
            let result = bench::run(depth, *features, |_, _| {});
            println!("{name:<32} depth {depth}: {:>12} nodes {:>8.2} s", result.nodes, result.elapsed.as_secs_f64());
            result.nodes
        })
        .collect();
    println!("node ratio without/with, full search: {:.2}", nodes[1] as f64 / nodes[0] as f64);
    println!("node ratio without/with, no pruning:  {:.2}", nodes[3] as f64 / nodes[2] as f64);
}
