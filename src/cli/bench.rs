//! `harrier bench`: the bench positions searched to a fixed depth, or a fixed node count in
//! bandwidth mode; the node count on the last line is the engine's functional signature.

use clap::Args;
use harrier::bench;
use harrier::search::alphabeta::presets::Selectivity;

use super::values::{EvalChoice, at_least_one, depth};

/// The flags of `harrier bench [depth]`, `harrier bench --bandwidth [nodes]` and
/// `harrier bench --minimax [depth]`.
#[derive(Args)]
pub struct Bench {
    /// Depth of the alpha-beta search
    #[arg(value_parser = depth, default_value_t = bench::DEFAULT_DEPTH, conflicts_with_all = ["bandwidth", "minimax"])]
    depth: u32,
    // `--bandwidth` and `--minimax` are absent, alone (the mode at the library's default
    // size) or given a size: two levels of `Option`. Clap shows no default for a flag
    // given alone, so their help names it.
    #[arg(
        long,
        value_name = "NODES",
        value_parser = at_least_one::<u64>,
        conflicts_with = "minimax",
        help = format!("Bandwidth mode instead, NODES per position [default: {}]", bench::DEFAULT_BANDWIDTH_NODES)
    )]
    bandwidth: Option<Option<u64>>,
    #[arg(
        long,
        value_name = "DEPTH",
        value_parser = depth,
        help = format!("Minimax mode instead, to DEPTH [default: {}]", bench::DEFAULT_MINIMAX_DEPTH)
    )]
    minimax: Option<Option<u32>>,
    /// The evaluation to search with; the default is the engine's
    #[arg(long, value_enum, default_value_t = EvalChoice::ENGINE)]
    eval: EvalChoice,
}

impl Bench {
    /// Searches every position with one thread, each position's nodes on stderr, then the
    /// total and the speed on stdout.
    pub fn run(self) -> Result<(), String> {
        let progress = |index: usize, nodes: u64| {
            eprintln!("position {:>2}/{}: {nodes} nodes", index + 1, bench::POSITIONS.len());
        };
        let evaluation = self.eval.evaluation();
        let result = match (self.bandwidth, self.minimax) {
            (Some(nodes), _) => {
                let nodes = nodes.unwrap_or(bench::DEFAULT_BANDWIDTH_NODES);
                let result = bench::run_bandwidth(nodes, evaluation, progress);
                eprintln!("bandwidth, {nodes} nodes per position, {:.3} s", result.elapsed.as_secs_f64());
                result
            }
            (None, Some(depth)) => {
                let depth = depth.unwrap_or(bench::DEFAULT_MINIMAX_DEPTH);
                let result = bench::run(depth, Selectivity::Minimax, evaluation, progress);
                eprintln!("minimax, depth {depth}, {:.3} s", result.elapsed.as_secs_f64());
                result
            }
            (None, None) => {
                let result = bench::run(self.depth, Selectivity::Full, evaluation, progress);
                eprintln!("depth {}, {:.3} s", self.depth, result.elapsed.as_secs_f64());
                result
            }
        };
        print_line!("{} nodes {} nps", result.nodes, result.nps());
        Ok(())
    }
}
