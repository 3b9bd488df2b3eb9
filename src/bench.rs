//! `harrier bench`: a fixed-depth search of fixed positions with one thread and a 16 MB
//! table. The node count is the engine's functional signature: the same on every run and
//! every machine, changed only by changes to search or evaluation.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess};

use crate::engine::game::parse_fen;
use crate::eval::Evaluation;
use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta::alpha_beta_probers;
use crate::search::alphabeta::presets::{Full, Minimax, Preset, Selectivity};
use crate::search::bandwidth::Bandwidth;
use crate::search::bandwidth::params::BandwidthParams;
use crate::search::{Limits, SearchJob, SearchSettings, Searcher, Signals, Silent, nodes_per_second};

/// Default depth of `harrier bench`.
pub const DEFAULT_DEPTH: u32 = 11;
/// Default depth of `harrier bench --minimax`: the full-width search needs far more nodes
/// per ply.
pub const DEFAULT_MINIMAX_DEPTH: u32 = 6;
/// Default nodes (tree positions and probe nodes) per bench position in bandwidth mode.
pub const DEFAULT_BANDWIDTH_NODES: u64 = 100_000;
/// Table size for bench, in MB.
const BENCH_HASH_MB: usize = 16;

/// The bench positions: openings, middlegames with tactics, endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "r4k2/pb2bp1r/1p1qp2p/3pNp2/3P1P2/2N3P1/PPP1Q2P/2KRR3 w - - 0 1",
    "3rn2k/ppb2rpp/2ppqp2/5N2/2P1P3/1P5Q/PB3PPP/3RR1K1 w - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "r1bqk2r/pp2bppp/2p5/3pP3/P2Q1P2/2N1B3/1PP3PP/R4RK1 b kq - 0 1",
    "r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
    "4k1r1/2p3r1/1pR1p3/3pP2p/3P2qP/P4N2/1PQ4P/5R1K b - - 0 1",
    "5rk1/pp4p1/2n1p2p/2Npq3/2p5/6P1/P3P1BP/R4Q1K w - - 0 1",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/8/8/5k2/8/3K4/4P3/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 b - - 0 1",
];

/// Nodes and time of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes over all positions.
    pub nodes: u64,
    /// Total search time: the searches alone, not the clearing of the searcher's memory
    /// before each (Ethereal's and Stockfish's benches leave their clearing out too).
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// The settings of a bench searcher: the defaults with `evaluation`.
fn settings(evaluation: Evaluation) -> SearchSettings {
    SearchSettings { evaluation, ..SearchSettings::default() }
}

/// Searches every bench position to `depth` with the given selectivity and `evaluation`;
/// `each` sees the index and node count of every position as it finishes.
pub fn run(depth: u32, selectivity: Selectivity, evaluation: Evaluation, each: impl FnMut(usize, u64)) -> BenchResult {
    match selectivity {
        Selectivity::Full => run_preset::<Full>(depth, evaluation, each),
        Selectivity::Minimax => run_preset::<Minimax>(depth, evaluation, each),
    }
}

/// [`run`] with the preset `P`, for measuring a part of the search.
pub fn run_preset<P: Preset>(depth: u32, evaluation: Evaluation, mut each: impl FnMut(usize, u64)) -> BenchResult {
    let signals = Arc::new(Signals::default());
    let mut searcher = AlphaBeta::new(BENCH_HASH_MB, Selectivity::Full, signals).expect("16 MB fits in memory");
    searcher.configure(&settings(evaluation));
    over_positions(
        Limits { depth: Some(depth), ..Limits::default() },
        |job| {
            searcher.new_game();
            let start = Instant::now();
            searcher.search_with::<P>(job, &mut Silent);
            (searcher.nodes(), start.elapsed())
        },
        &mut each,
    )
}

/// Bandwidth mode's bench: each position searched until it has visited `nodes` positions,
/// from a fresh tree, with the default settings and `evaluation`.
pub fn run_bandwidth(nodes: u64, evaluation: Evaluation, mut each: impl FnMut(usize, u64)) -> BenchResult {
    let signals = Arc::new(Signals::default());
    let mut searcher = Bandwidth::new(BENCH_HASH_MB, BandwidthParams::default(), alpha_beta_probers(), signals)
        .expect("16 MB fits in memory");
    searcher.configure(&settings(evaluation));
    over_positions(
        Limits { nodes: Some(nodes), ..Limits::default() },
        |job| {
            searcher.new_game();
            let start = Instant::now();
            let nodes = searcher.search(job, &mut Silent).report.nodes;
            (nodes, start.elapsed())
        },
        &mut each,
    )
}

/// Runs `search` on every bench position under `limits`. `search` clears its searcher's
/// memory (the table and the histories), then searches, and returns the search's nodes and
/// its time without the clearing.
fn over_positions(
    limits: Limits,
    mut search: impl FnMut(&SearchJob) -> (u64, Duration),
    each: &mut impl FnMut(usize, u64),
) -> BenchResult {
    let mut total = BenchResult { nodes: 0, elapsed: Duration::ZERO };
    for (index, fen) in POSITIONS.iter().enumerate() {
        let root: Chess = parse_fen(fen, CastlingMode::Standard, &mut Vec::new()).expect("bench FENs are valid");
        let job =
            SearchJob { root, history: Vec::new(), limits: limits.clone(), move_overhead: 0, started: Instant::now() };
        let (nodes, elapsed) = search(&job);
        total.elapsed += elapsed;
        total.nodes += nodes;
        each(index, nodes);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_is_deterministic() {
        let first = run(5, Selectivity::Full, Evaluation::HandCrafted, |_, _| {});
        let second = run(5, Selectivity::Full, Evaluation::HandCrafted, |_, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > POSITIONS.len() as u64);
    }

    /// Each search keeps to its node limit and spends most of it.
    #[test]
    fn bandwidth_node_count_is_deterministic() {
        const LIMIT: u64 = 500;
        let first = run_bandwidth(LIMIT, Evaluation::HandCrafted, |index, nodes| {
            assert!(nodes <= LIMIT, "position {index}: {nodes}")
        });
        let second = run_bandwidth(LIMIT, Evaluation::HandCrafted, |_, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > LIMIT / 2 * POSITIONS.len() as u64);
    }
}
