//! Alpha-beta as the bandwidth searcher's [`Prober`]: its main thread values tips, its
//! table and histories answer what the tree asks about move order.

use std::sync::Arc;

use shakmaty::{Chess, Color, Move};

use super::AlphaBeta;
use super::negamax::late_move_reduction;
use super::presets::{Full, Minimax, Preset, Selectivity};
use crate::eval::Evaluation;
use crate::moves::encode;
use crate::search::probe::{ProbeLimits, Prober, ProberFactory};
use crate::search::syzygy::Syzygy;
use crate::search::time::TimeManager;
use crate::search::tt::TtHit;
use crate::search::tunables;
use crate::search::{INFINITY, MAX_DEPTH, Reporter, SearchJob, SearchOutcome, Searcher};
use crate::zobrist::key_of;

/// The bandwidth searcher's tip probers: one-thread alpha-beta searchers.
pub fn alpha_beta_probers() -> ProberFactory {
    Arc::new(|table_mb, signals| {
        let prober = AlphaBeta::new(table_mb, Selectivity::Full, signals)?;
        Ok(Box::new(prober) as Box<dyn Prober>)
    })
}

impl AlphaBeta {
    /// [`Prober::probe`] with the preset `P`, whatever the searcher's own selectivity.
    pub fn probe_with<P: Preset>(
        &mut self,
        pos: &Chess,
        history: &[u64],
        depth: u32,
        (alpha, beta): (i32, i32),
        limits: ProbeLimits,
    ) -> Option<i32> {
        let (alpha, beta) = (alpha.max(-INFINITY), beta.min(INFINITY));
        let worker = &mut self.main;
        worker.start(limits.nodes.unwrap_or(u64::MAX), limits.clock.cloned(), true);
        let key = key_of(pos);
        worker.evaluator.start_at(pos);
        if depth == 0 {
            let value = worker.quiescence::<P>(pos, key, 0, alpha, beta);
            return (!worker.stopped).then_some(value);
        }
        worker.line.set_root(history, key);
        // A null window asks only on which side of it the value lies: the cheaper non-PV
        // search answers that, as it does for PVS's scouts.
        let scout = beta - alpha == 1;
        // Iterations the table already holds a search of this position for would only
        // repeat it: a probe deepens from there, as the next move's search would.
        let depth = depth.min(MAX_DEPTH);
        let first = worker.shared.tt.probe(key, 0).map_or(1, |hit| (hit.depth.max(1) as u32).min(depth));
        let mut value = 0;
        for d in first..=depth {
            value = if scout {
                worker.negamax::<P, false>(pos, key, d as i32, 0, alpha, beta, true)
            } else {
                worker.negamax::<P, true>(pos, key, d as i32, 0, alpha, beta, true)
            };
            if worker.stopped {
                return None;
            }
        }
        Some(value)
    }
}

impl Prober for AlphaBeta {
    fn probe(
        &mut self,
        pos: &Chess,
        history: &[u64],
        depth: u32,
        window: (i32, i32),
        limits: ProbeLimits,
    ) -> Option<i32> {
        match self.selectivity {
            Selectivity::Full => self.probe_with::<Full>(pos, history, depth, window, limits),
            Selectivity::Minimax => self.probe_with::<Minimax>(pos, history, depth, window, limits),
        }
    }

    fn nodes(&self) -> u64 {
        self.main.nodes
    }

    fn table_entry(&self, key: u64) -> Option<TtHit> {
        self.shared.tt.probe(key, 0)
    }

    /// The butterfly history of the main thread.
    fn quiet_move_score(&self, side: Color, m: Move) -> i32 {
        self.main.histories.quiet.score(side, encode(m))
    }

    /// Alpha-beta's reduction of a principal-variation node's late quiet move, leaving at
    /// least two plies.
    fn late_move_reduction(&self, depth: u32, searched: usize) -> u32 {
        if depth < tunables::lmr_min_depth() as u32 || searched < tunables::lmr_full_depth_moves() {
            return 0;
        }
        let reduction = late_move_reduction(depth as i32, searched) - 1;
        reduction.clamp(0, depth as i32 - 2) as u32
    }

    fn search_root(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: TimeManager) -> SearchOutcome {
        match self.selectivity {
            Selectivity::Full => self.search_on::<Full>(job, reporter, time, self.multi_pv),
            Selectivity::Minimax => self.search_on::<Minimax>(job, reporter, time, self.multi_pv),
        }
    }

    fn set_full_width(&mut self, full_width: bool) {
        self.selectivity = if full_width { Selectivity::Minimax } else { Selectivity::Full };
    }

    fn new_search(&mut self) {
        self.shared.tt.new_search();
    }

    fn new_game(&mut self) {
        Searcher::new_game(self);
    }

    fn resize(&mut self, mb: usize) -> Result<(), String> {
        Searcher::resize(self, mb)
    }

    fn set_tablebases(&mut self, tables: Option<Syzygy>) {
        Searcher::set_tablebases(self, tables);
    }

    fn set_evaluation(&mut self, evaluation: &Evaluation) {
        self.helpers.set_evaluation(evaluation);
        self.main.evaluator.set(evaluation);
    }

    fn evaluate(&mut self, pos: &Chess) -> i32 {
        self.main.evaluator.start_at(pos);
        self.main.evaluator.evaluate(pos, 0)
    }
}
