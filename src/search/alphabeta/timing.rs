//! How much of its soft time budget the searcher wants after an iteration: more when the
//! best move keeps changing or the score falls, less when one move stays best and takes
//! most of the root's nodes.

use shakmaty::Move;

use crate::search::tunables;

/// What the iterations so far said about the best move.
#[derive(Default)]
pub(super) struct Stability {
    /// The best move of the last iteration.
    best: Option<Move>,
    /// The value of the last iteration.
    value: Option<i32>,
    /// Best-move changes, halved every iteration, in per mille of a change.
    changes: u32,
}

impl Stability {
    /// Records iteration `depth`'s `best` move and `value`; `best_nodes` of its `root_nodes`
    /// went below the best move. Returns the share of the soft budget to use, in per cent.
    pub(super) fn soft_scale(&mut self, depth: u32, best: Move, value: i32, best_nodes: u64, root_nodes: u64) -> u32 {
        let changed = self.best.is_some_and(|before| before != best);
        self.changes = self.changes / 2 + if changed { 1000 } else { 0 };
        let drop = self.value.map_or(0, |before| (before - value).clamp(0, tunables::tm_drop_cap()));
        self.best = Some(best);
        self.value = Some(value);
        if depth < tunables::tm_min_depth() {
            return 100;
        }
        let share_per_mille = (best_nodes * 1000 / root_nodes.max(1)) as i64;
        let instability = 100 + (tunables::tm_change_percent() * self.changes / 1000) as i64;
        let falling = 100 + i64::from(tunables::tm_drop_percent_per_10cp() * drop / 10);
        let base = i64::from(tunables::tm_node_base_percent());
        let effort = (base - i64::from(tunables::tm_node_slope_percent()) * share_per_mille / 1000).max(0);
        let percent = instability * falling / 100 * effort / 100;
        percent.clamp(i64::from(tunables::tm_min_percent()), i64::from(tunables::tm_max_percent())) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::Chess;

    #[test]
    fn a_settled_best_move_spends_less_and_an_unsettled_one_more() {
        let pos = Chess::default();
        let (e4, d4) = (parse_uci(&pos, "e2e4").unwrap(), parse_uci(&pos, "d2d4").unwrap());
        let mut settled = Stability::default();
        let mut scale = 0;
        for depth in 1..12 {
            scale = settled.soft_scale(depth, e4, 30, 900, 1000);
        }
        assert!(scale < 100, "{scale}");
        let mut unsettled = Stability::default();
        for depth in 1..12 {
            let best = if depth % 2 == 0 { e4 } else { d4 };
            scale = unsettled.soft_scale(depth, best, 30, 400, 1000);
        }
        assert!(scale > 100, "{scale}");
        let mut falling = Stability::default();
        falling.soft_scale(9, e4, 100, 400, 1000);
        let steady = Stability { best: Some(e4), value: Some(40), changes: 0 }.soft_scale(10, e4, 40, 400, 1000);
        assert!(falling.soft_scale(10, e4, 40, 400, 1000) > steady, "a falling score asks for more time");
        assert_eq!(Stability::default().soft_scale(2, e4, 0, 1, 1000), 100, "no opinion before tm_min_depth");
        let mut wild = Stability::default();
        for depth in 1..30 {
            let best = if depth % 2 == 0 { e4 } else { d4 };
            scale = wild.soft_scale(depth, best, -30 * depth as i32, 0, 1000);
        }
        assert_eq!(scale, tunables::tm_max_percent());
    }
}
