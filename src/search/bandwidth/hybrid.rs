//! The hybrid, alpha-beta first: Korf and Chickering's best-first extension of alpha-beta.
//! Iterative deepening searches the root for most of the budget, with the prober whose
//! table the tree's tips share; the tree then grows from the horizon it reached, along the
//! principal line and the runner-ups in the band (see
//! [`BestFirst::is_hybrid`](super::best_first::BestFirst::is_hybrid)). The move played is the
//! iterations' own, unless the tree shows another one better by a value it trusts.

use shakmaty::Position;

use super::Bandwidth;
use super::params::{HYBRID_KEEP_BEHIND_PLIES, ID_HARD_SHARE_PERCENT, ID_HORIZON_GAP, ID_SHARE_PERCENT};
use crate::moves::encode;
use crate::search::time::TimeManager;
use crate::search::{MATE_BOUND, Reporter, SearchJob, SearchOutcome};

/// What iterative deepening leaves to the tree and to the move choice.
pub(super) struct Lead {
    /// The move, the expected reply and the last finished iteration's report.
    pub outcome: SearchOutcome,
    /// The tree may go on after it: neither `stop` nor the goal of `go depth` or `go mate`
    /// ended it.
    pub tree_goes_on: bool,
}

impl Bandwidth {
    /// Runs the prober's iterative deepening on `job`'s root, reporting its iterations: for
    /// its share of `time` and of a node budget, or to the goal of `go depth` or `go mate`
    /// on alpha-beta's own clock (the tree then adds nothing the goal asks for). Then the
    /// tree's look-ahead reaches the horizon of the last finished iteration.
    pub(super) fn lead(&mut self, job: &SearchJob, reporter: &mut dyn Reporter, time: &TimeManager) -> Lead {
        let limits = &job.limits;
        let goal = limits.depth.is_some() || limits.mate.is_some();
        let mut first = job.clone();
        let part = if goal {
            TimeManager::new(limits, job.root.turn(), job.move_overhead, job.started)
        } else {
            first.limits.nodes = limits.nodes.map(|n| (n.saturating_mul(ID_SHARE_PERCENT.into()) / 100).max(1));
            time.share(ID_SHARE_PERCENT, ID_HARD_SHARE_PERCENT)
        };
        let outcome = self.searcher.game_mut().search_root(&first, reporter, part);
        let depth = outcome.report.depth;
        self.summary.id_depth = depth;
        let value = outcome.report.score.value();
        // Iterations on a mate run deep for little (the table and mate-distance pruning cut
        // them short), where probes of the other moves would not: the tree then deepens
        // from where it was, as Harris's search with deepening probes does.
        let tree_goes_on = !goal && !self.signals.stop_requested();
        let Some(best) = outcome.best.filter(|_| value.abs() < MATE_BOUND) else {
            return Lead { outcome, tree_goes_on };
        };
        let look_ahead = depth.saturating_sub(ID_HORIZON_GAP);
        // A kept tree far behind the iterations' horizon would spend the tree's share on
        // valuing its tips again, where a fresh root expands at once from the iterations.
        if self.searcher.probe_depth() + HYBRID_KEEP_BEHIND_PLIES < look_ahead {
            self.searcher.restart();
        }
        self.searcher.look_at_least(look_ahead);
        // A tip root expands into tips that look no less far ahead than it did: it counts
        // at the look-ahead of the root's level, not at the iterations' depth.
        self.searcher.value_tip_root(value, look_ahead);
        let root = self.searcher.root_pos().clone();
        self.searcher.game_mut().seed_root(&root, best, value, depth);
        Lead { outcome, tree_goes_on }
    }

    /// True when the tree's choice of move stands against the iterations' `lead`: it is
    /// the same move (the tree then has the deeper line), or a move whose value the tree
    /// trusts (see [`BestFirst::flatters_root`](super::best_first::BestFirst::flatters_root))
    /// and that is no worse there than the lead's move (on a tie the tree's move has the
    /// line the tree grew, to reuse after the reply). A tree whose root has no sons yet has
    /// no choice.
    pub(super) fn tree_choice_stands(&self, lead: &SearchOutcome) -> bool {
        let Some(lead_move) = lead.best else { return true };
        let tree = self.searcher.tree();
        if tree.node(tree.root()).is_tip() {
            return false;
        }
        let choices = self.searcher.root_choices();
        let Some(&(first, value)) = choices.first() else { return false };
        let code = encode(lead_move);
        if tree.node(first).mv() == code {
            return true;
        }
        let lead_value = choices.iter().find(|&&(c, _)| tree.node(c).mv() == code).map(|&(_, v)| v);
        !self.searcher.flatters_root(first) && lead_value.is_none_or(|v| value >= v)
    }
}
