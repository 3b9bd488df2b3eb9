//! Play at a level ([`Level`]): a node-limited search of the level's best few root moves,
//! one of them chosen on the level's temperature, answered no sooner than a share of the
//! time a full search would take.

use std::time::Duration;

use shakmaty::Position;

use super::AlphaBeta;
use super::presets::Preset;
use crate::search::level::{Level, TIME_SHARE_PERCENT};
use crate::search::time::TimeManager;
use crate::search::{Report, Reporter, SearchJob, SearchOutcome};

/// How often a level's wait for its time share looks at the stop flag.
const WAIT_STEP: Duration = Duration::from_millis(5);

impl AlphaBeta {
    /// Searches `job` at `level` and returns the move chosen.
    pub(super) fn search_at_level<P: Preset>(
        &mut self,
        job: &SearchJob,
        reporter: &mut dyn Reporter,
        level: Level,
    ) -> SearchOutcome {
        let time = TimeManager::new(&job.limits, job.root.turn(), job.move_overhead, job.started);
        let floor = time.soft_budget().map(|soft| soft * TIME_SHARE_PERCENT / 100);
        let mut limited = job.clone();
        limited.limits.nodes = Some(job.limits.nodes.map_or(level.nodes(), |nodes| nodes.min(level.nodes())));
        let candidates = level.candidates();
        let outcome = self.search_on::<P>(&limited, reporter, time, self.multi_pv.max(candidates));
        let values: Vec<i32> = self.main.lines.iter().take(candidates).map(|report| report.score.value()).collect();
        let chosen = self.main.lines.get(level.choose(&values, &mut self.rng)).filter(|r| !r.pv.is_empty());
        let outcome = match chosen {
            Some(line) => SearchOutcome {
                best: line.pv.first().copied(),
                ponder: line.pv.get(1).copied(),
                report: Report {
                    multipv: 1,
                    nodes: outcome.report.nodes,
                    elapsed: outcome.report.elapsed,
                    hashfull: outcome.report.hashfull,
                    tbhits: outcome.report.tbhits,
                    ..line.clone()
                },
            },
            None => outcome,
        };
        if let Some(floor) = floor {
            while job.started.elapsed() < floor && !self.signals.stop_requested() {
                std::thread::sleep(WAIT_STEP);
            }
        }
        outcome
    }
}
