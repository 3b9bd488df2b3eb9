//! Time management: how long to think, from the clocks or a fixed move time.
//!
//! Two budgets: the *soft* one decides whether another iteration may start, the *hard*
//! one stops a running iteration. Both run from the moment `go` arrived, as the GUI's
//! clock does. While pondering neither expires; after `ponderhit` the time spent
//! pondering counts as spent on this move (as in Stockfish), so a long ponder ends soon
//! with its result and a short one has the rest of the budget. Restarting the budgets at
//! `ponderhit` instead would spend the ponder time and a whole budget on top, every move:
//! the clock drains to the increment in long games.
//!
//! A search past its soft budget may run on to a point where it can stop (the end of an
//! iteration, a settled bandwidth tree), up to the hard limit. After a ponder that outran
//! its budget the search gets that same room again from `ponderhit`: stopping it there
//! and then would play whatever the tree held at that instant.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::tunables;
use super::{Limits, Signals};

/// The most moves ahead the clock is shared over. How the clock is shared (the moves
/// assumed to remain, the increment's share, the hard limit, a low clock's limits) is
/// tunable: `search::tunables`, `tm_*`.
const MAX_MOVES_TO_GO: i64 = 50;

/// Budgets for one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The share of the soft budget in use, in per cent: a searcher lowers it when its
    /// result looks settled and raises it when it does not. Never past the hard budget.
    soft_scale_percent: u32,
    /// True when the budgets come from the clocks; a fixed `movetime` is not rescaled.
    from_clock: bool,
    /// An iteration ended after the soft budget ran out while pondering: the search stops
    /// as soon as `ponderhit` comes.
    stop_on_ponderhit: bool,
}

impl TimeManager {
    /// Computes the budgets for the side `turn` under `limits`, running from `start`
    /// (when `go` arrived).
    pub fn new(limits: &Limits, turn: Color, move_overhead: u64, start: Instant) -> TimeManager {
        let (soft, hard) = budgets(limits, turn, move_overhead as i64);
        TimeManager {
            start,
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            soft_scale_percent: 100,
            from_clock: limits.movetime.is_none(),
            stop_on_ponderhit: false,
        }
    }

    /// A clock that never runs out while the search ponders and has run out as soon as it
    /// stops pondering: for work on the opponent's time that must end at `ponderhit`,
    /// whatever the clocks say.
    pub fn until_ponder_ends() -> TimeManager {
        TimeManager {
            start: Instant::now(),
            soft: None,
            hard: Some(Duration::ZERO),
            soft_scale_percent: 100,
            from_clock: false,
            stop_on_ponderhit: false,
        }
    }

    /// Lengthens the soft budget to `percent` per cent of itself, never past the hard one.
    pub fn stretch_soft(&mut self, percent: u32) {
        if let (Some(soft), Some(hard)) = (self.soft, self.hard) {
            self.soft = Some((soft * percent / 100).min(hard));
        }
    }

    /// A clock for the first part of a search that goes on after it: its soft budget is
    /// `soft_percent` per cent of this one's, its hard limit `hard_percent` per cent of this
    /// one's soft budget (within the hard limit), so that the rest of the soft budget stays
    /// for the part after it. Pondering and `ponderhit` work on it as on this one.
    pub fn share(&self, soft_percent: u32, hard_percent: u32) -> TimeManager {
        let mut part = self.clone();
        if let (Some(soft), Some(hard)) = (self.soft, self.hard) {
            let part_hard = (soft * hard_percent / 100).min(hard);
            part.soft = Some((soft * soft_percent / 100).min(part_hard));
            part.hard = Some(part_hard);
        }
        part
    }

    /// Uses `percent` per cent of the soft budget from now on (not cumulative: each call
    /// replaces the last), never more than the hard budget. A fixed `movetime` stays as
    /// the GUI asked.
    pub fn scale_soft(&mut self, percent: u32) {
        if self.from_clock {
            self.soft_scale_percent = percent;
        }
    }

    /// The soft budget with its scale applied, capped by the hard budget.
    fn scaled_soft(&self) -> Option<Duration> {
        let soft = self.soft? * self.soft_scale_percent / 100;
        Some(self.hard.map_or(soft, |hard| soft.min(hard)))
    }

    /// True when the soft budget is spent: a search that can stop now should.
    pub fn soft_expired(&self, signals: &Signals) -> bool {
        !signals.is_pondering() && self.soft_spent()
    }

    /// [`soft_expired`](TimeManager::soft_expired), asked at the end of an iteration:
    /// while pondering it answers false but remembers a spent budget, so that
    /// `ponderhit` stops the search at once with the iteration's result.
    pub fn stop_after_iteration(&mut self, signals: &Signals) -> bool {
        if signals.is_pondering() {
            self.stop_on_ponderhit |= self.soft_spent();
            return false;
        }
        self.soft_expired(signals)
    }

    /// True when the running iteration must stop now.
    pub fn hard_expired(&self, signals: &Signals) -> bool {
        if signals.is_pondering() {
            return false;
        }
        let Some(hard) = self.hard else { return false };
        let mut deadline = self.start + hard;
        if let (Some(hit), Some(soft)) = (signals.ponderhit_at(), self.soft) {
            deadline = deadline.max(hit + hard.saturating_sub(soft));
        }
        self.stop_on_ponderhit || Instant::now() >= deadline
    }

    /// True when the soft budget has run out, pondering or not.
    fn soft_spent(&self) -> bool {
        self.scaled_soft().is_some_and(|soft| self.start.elapsed() >= soft)
    }

    /// The soft budget as the clocks give it, if the search runs on a clock.
    pub fn soft_budget(&self) -> Option<Duration> {
        self.soft
    }

    /// When the search's clock started (when `go` arrived).
    pub fn started(&self) -> Instant {
        self.start
    }

    /// True when the search runs on a clock (not fixed depth, nodes or infinite).
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// (soft, hard) budgets in ms, or `None` for an untimed search.
fn budgets(limits: &Limits, turn: Color, overhead: i64) -> (Option<u64>, Option<u64>) {
    if limits.infinite {
        return (None, None);
    }
    if let Some(movetime) = limits.movetime {
        let t = (movetime as i64 - overhead).max(1) as u64;
        return (Some(t), Some(t));
    }
    let (time, inc) = match turn {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    let available = (time - overhead).max(0);
    let inc = inc.unwrap_or(0).max(0);
    let moves = limits.movestogo.map_or(tunables::tm_moves_to_go(), |m| m as i64).clamp(1, MAX_MOVES_TO_GO);
    let hard = (available * tunables::tm_max_clock_per_mille() / 1000).max(0);
    let low_clock = available < inc * tunables::tm_low_clock_increments();
    let share =
        if low_clock { tunables::tm_low_clock_increment_per_mille() } else { tunables::tm_increment_per_mille() };
    let soft = available / moves + inc * share / 1000;
    let mut hard = (soft * tunables::tm_hard_percent() / 100).min(hard);
    if low_clock {
        hard = hard.min((inc * tunables::tm_low_clock_hard_per_mille() / 1000).max(soft));
    }
    let soft = soft.min(hard);
    (Some(soft as u64), Some(hard as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(wtime: i64, winc: i64, movestogo: Option<u32>) -> Limits {
        Limits { wtime: Some(wtime), winc: Some(winc), movestogo, ..Limits::default() }
    }

    #[test]
    fn hard_limit_stays_inside_the_clock() {
        for (t, inc, mtg) in [(5000, 50, None), (100, 0, None), (60_000, 0, Some(1)), (300, 1000, None)] {
            let (soft, hard) = budgets(&clock(t, inc, mtg), Color::White, 10);
            let (soft, hard) = (soft.unwrap() as i64, hard.unwrap() as i64);
            assert!(soft <= hard, "{t} {inc}");
            assert!(hard < t, "{t} {inc}: hard {hard}");
        }
    }

    #[test]
    fn a_low_clock_spends_less_than_the_increment() {
        let (soft, hard) = budgets(&clock(100, 20, None), Color::White, 10);
        let (soft, hard) = (soft.unwrap(), hard.unwrap());
        assert!(soft < 20 && soft <= hard && hard <= 50, "{soft} {hard}");
    }

    #[test]
    fn a_low_clock_has_a_hard_limit_under_the_increment() {
        let inc = 50;
        let low = inc * tunables::tm_low_clock_increments();
        let cap = (inc * tunables::tm_low_clock_hard_per_mille() / 1000) as u64;
        assert!(cap < inc as u64, "the low-clock cap is a share of the increment");
        for t in [100, 200, low / 2, low - 20] {
            let (soft, hard) = budgets(&clock(t, inc, None), Color::White, 10);
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(hard <= cap || hard == soft, "{t}: soft {soft} hard {hard}");
            assert!(soft <= hard, "{t}: soft {soft} hard {hard}");
        }
        let (_, hard) = budgets(&clock(2 * low, inc, None), Color::White, 10);
        assert!(hard.unwrap() > inc as u64, "a clock of twice the low threshold is not low");
    }

    #[test]
    fn empty_or_negative_clock_moves_at_once() {
        for t in [0, -500] {
            let (soft, hard) = budgets(&clock(t, 0, None), Color::White, 10);
            assert_eq!((soft, hard), (Some(0), Some(0)));
        }
    }

    #[test]
    fn untimed_searches_have_no_budget() {
        assert_eq!(budgets(&Limits::default(), Color::White, 10), (None, None));
        let infinite = Limits { infinite: true, ..clock(1000, 0, None) };
        assert_eq!(budgets(&infinite, Color::White, 10), (None, None));
        let black_only = Limits { btime: Some(1000), ..Limits::default() };
        assert_eq!(budgets(&black_only, Color::White, 10), (None, None));
    }

    /// A manager whose clock started `ms` ago, with a 100 ms soft and 300 ms hard budget.
    fn started_ago(ms: u64) -> TimeManager {
        let start = Instant::now() - Duration::from_millis(ms);
        let limits = clock(10_000, 0, None);
        TimeManager {
            soft: Some(Duration::from_millis(100)),
            hard: Some(Duration::from_millis(300)),
            ..TimeManager::new(&limits, Color::White, 0, start)
        }
    }

    fn pondering() -> Signals {
        let signals = Signals::default();
        signals.arm(true);
        signals
    }

    #[test]
    fn nothing_expires_while_pondering() {
        let signals = pondering();
        let mut time = started_ago(1000);
        assert!(!time.soft_expired(&signals) && !time.hard_expired(&signals));
        assert!(!time.stop_after_iteration(&signals));
    }

    #[test]
    fn a_ponder_that_outran_the_budget_gets_the_hard_limits_margin_after_ponderhit() {
        let signals = pondering();
        let time = started_ago(400);
        signals.ponderhit();
        assert!(time.soft_expired(&signals), "the ponder time counts as spent on the move");
        assert!(!time.hard_expired(&signals), "room to reach a point where the search can stop");
        std::thread::sleep(Duration::from_millis(210));
        assert!(time.hard_expired(&signals), "the margin is the hard limit's 200 ms over the soft one");
    }

    #[test]
    fn an_iteration_ended_past_the_soft_budget_while_pondering_stops_the_search_at_ponderhit() {
        let signals = pondering();
        let mut time = started_ago(150);
        assert!(!time.stop_after_iteration(&signals));
        signals.ponderhit();
        assert!(
            time.hard_expired(&signals),
            "150 ms is inside the hard budget, but an iteration ended past the soft one"
        );
    }

    #[test]
    fn a_short_ponder_leaves_the_rest_of_the_budget() {
        let signals = pondering();
        let mut time = started_ago(20);
        assert!(!time.stop_after_iteration(&signals));
        signals.ponderhit();
        assert!(!time.soft_expired(&signals) && !time.hard_expired(&signals));
        assert!(!time.stop_after_iteration(&signals));
    }

    #[test]
    fn a_stretched_soft_budget_never_passes_the_hard_limit() {
        let mut time = started_ago(0);
        time.stretch_soft(150);
        assert_eq!((time.soft, time.hard), (Some(Duration::from_millis(150)), Some(Duration::from_millis(300))));
        time.stretch_soft(1000);
        assert_eq!(time.soft, time.hard);
        let mut untimed = TimeManager::new(&Limits::default(), Color::White, 0, Instant::now());
        untimed.stretch_soft(150);
        assert_eq!((untimed.soft, untimed.hard), (None, None));
    }

    #[test]
    fn a_share_ends_inside_the_soft_budget_it_was_cut_from() {
        let time = started_ago(0);
        let part = time.share(60, 85);
        assert_eq!((part.soft, part.hard), (Some(Duration::from_millis(60)), Some(Duration::from_millis(85))));
        let part = time.share(60, 1000);
        assert_eq!(part.hard, time.hard, "never past the hard limit");
        let part = time.share(120, 85);
        assert_eq!(part.soft, part.hard, "the soft budget never passes the hard one");
        let untimed = TimeManager::new(&Limits::default(), Color::White, 0, Instant::now()).share(60, 85);
        assert_eq!((untimed.soft, untimed.hard), (None, None));
    }

    #[test]
    fn a_scaled_soft_budget_moves_the_stop_but_never_past_the_hard_limit() {
        let signals = Signals::default();
        let mut time = started_ago(70);
        assert!(!time.soft_expired(&signals));
        time.scale_soft(50);
        assert!(time.soft_expired(&signals), "half of 100 ms is spent after 70 ms");
        time.scale_soft(1000);
        assert_eq!(time.scaled_soft(), time.hard, "ten times the soft budget is capped by the hard one");
        let late = started_ago(310);
        let mut late = late;
        late.scale_soft(1000);
        assert!(late.soft_expired(&signals) && late.hard_expired(&signals));
    }

    #[test]
    fn a_fixed_movetime_is_not_rescaled() {
        let limits = Limits { movetime: Some(100), ..Limits::default() };
        let mut time = TimeManager::new(&limits, Color::White, 0, Instant::now() - Duration::from_millis(70));
        time.scale_soft(50);
        assert!(!time.soft_expired(&Signals::default()));
    }

    #[test]
    fn movetime_is_used_minus_overhead() {
        let limits = Limits { movetime: Some(1000), ..Limits::default() };
        assert_eq!(budgets(&limits, Color::Black, 10), (Some(990), Some(990)));
    }
}
