//! The bench signatures: a change that is meant to keep play as it was (a refactor) must
//! keep all three node counts. A change to search or evaluation updates them here and quotes
//! the new alpha-beta count in its commit message (`Bench: <nodes>`).

use harrier::bench;
use harrier::engine::options::default_evaluation;
use harrier::search::alphabeta::presets::Selectivity;

/// `harrier bench`'s node count.
const ALPHA_BETA_SIGNATURE: u64 = 1_605_004;
/// `harrier bench --bandwidth`'s node count.
const BANDWIDTH_SIGNATURE: u64 = 3_655_301;
/// `harrier bench --minimax`'s node count.
const MINIMAX_SIGNATURE: u64 = 5_314_788;

#[test]
fn alpha_beta_bench_signature_is_unchanged() {
    let nodes = bench::run(bench::DEFAULT_DEPTH, Selectivity::Full, default_evaluation(), |_, _| {}).nodes;
    assert_eq!(nodes, ALPHA_BETA_SIGNATURE, "harrier bench now gives {nodes} nodes");
}

#[test]
fn bandwidth_bench_signature_is_unchanged() {
    let nodes = bench::run_bandwidth(bench::DEFAULT_BANDWIDTH_NODES, default_evaluation(), |_, _| {}).nodes;
    assert_eq!(nodes, BANDWIDTH_SIGNATURE, "harrier bench --bandwidth now gives {nodes} nodes");
}

#[test]
fn minimax_bench_signature_is_unchanged() {
    let nodes = bench::run(bench::DEFAULT_MINIMAX_DEPTH, Selectivity::Minimax, default_evaluation(), |_, _| {}).nodes;
    assert_eq!(nodes, MINIMAX_SIGNATURE, "harrier bench --minimax now gives {nodes} nodes");
}
