//! What the search threads of one alpha-beta searcher share: the transposition table and
//! each thread's published progress. Everything else a thread owns alone (`worker.rs`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Move;

use crate::search::MATE_BOUND;
use crate::search::tt::TranspositionTable;

/// An iteration a thread finished: what the search answers if that thread's result is
/// chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Finished {
    /// The iteration's depth.
    pub(super) depth: u32,
    /// The deepest ply it reached.
    pub(super) seldepth: u32,
    /// The best move's value, for the side to move at the root.
    pub(super) value: i32,
    /// The principal variation, from the root.
    pub(super) line: Vec<Move>,
}

/// One thread's progress as the others read it, on a cache line of its own: its node
/// count changes all the time, and the other threads must not pay for that.
#[repr(align(64))]
#[derive(Default)]
struct ThreadProgress {
    nodes: AtomicU64,
    tbhits: AtomicU64,
    finished: Mutex<Option<Finished>>,
}

/// The state every thread of one search sees.
pub(super) struct SharedState {
    /// The transposition table.
    pub(super) tt: TranspositionTable,
    threads: Box<[ThreadProgress]>,
    /// Set when a helper finished the search's last iteration (`go depth`): the main
    /// thread stops and answers with it.
    goal_reached: AtomicBool,
}

impl SharedState {
    /// A table of `hash_mb` megabytes and room for `threads` threads' progress.
    pub(super) fn new(hash_mb: usize, threads: usize) -> Result<SharedState, String> {
        let tt = TranspositionTable::new(hash_mb)?;
        let threads = (0..threads.max(1)).map(|_| ThreadProgress::default()).collect();
        Ok(SharedState { tt, threads, goal_reached: AtomicBool::new(false) })
    }

    /// The number of threads, the main one included.
    pub(super) fn thread_count(&self) -> usize {
        self.threads.len()
    }

    /// Forgets the progress of the last search, before the next one starts.
    pub(super) fn reset_progress(&self) {
        self.goal_reached.store(false, Ordering::Relaxed);
        for progress in self.threads.iter() {
            progress.nodes.store(0, Ordering::Relaxed);
            progress.tbhits.store(0, Ordering::Relaxed);
            *lock(&progress.finished) = None;
        }
    }

    /// Publishes thread `index`'s counts so far in this search.
    pub(super) fn publish_counts(&self, index: usize, nodes: u64, tbhits: u64) {
        let progress = &self.threads[index];
        progress.nodes.store(nodes, Ordering::Relaxed);
        progress.tbhits.store(tbhits, Ordering::Relaxed);
    }

    /// Publishes an iteration thread `index` finished; `last` when it was the search's
    /// last (its depth goal).
    pub(super) fn publish_iteration(&self, index: usize, finished: Finished, last: bool) {
        *lock(&self.threads[index].finished) = Some(finished);
        if last && index > 0 {
            self.goal_reached.store(true, Ordering::Release);
        }
    }

    /// True once a helper has finished the search's last iteration.
    pub(super) fn goal_reached(&self) -> bool {
        self.goal_reached.load(Ordering::Acquire)
    }

    /// Nodes searched by every thread but `index` in this search, as last published.
    pub(super) fn nodes_of_others(&self, index: usize) -> u64 {
        self.sum_of_others(index, |progress| &progress.nodes)
    }

    /// Tablebase hits of every thread but `index` in this search, as last published.
    pub(super) fn tbhits_of_others(&self, index: usize) -> u64 {
        self.sum_of_others(index, |progress| &progress.tbhits)
    }

    fn sum_of_others(&self, index: usize, count: impl Fn(&ThreadProgress) -> &AtomicU64) -> u64 {
        let all = self.threads.iter().enumerate().filter(|&(i, _)| i != index);
        all.map(|(_, progress)| count(progress).load(Ordering::Relaxed)).sum()
    }

    /// A helper's finished iteration to answer with instead of the main thread's: one
    /// deeper whose value is at least as good, or a mate the main thread has not seen (the
    /// best such); and one that reached the depth `goal` when the main thread did not.
    /// Read without waiting: a thread still searching offers its last finished iteration.
    pub(super) fn better_helper_result(&self, goal: u32) -> Option<Finished> {
        let main = lock(&self.threads[0].finished).clone()?;
        let mut best: Option<Finished> = None;
        for progress in self.threads.iter().skip(1) {
            let Some(other) = lock(&progress.finished).clone() else { continue };
            let rival = best.as_ref().unwrap_or(&main);
            let reaches_goal = other.depth >= goal && rival.depth < goal;
            let deeper_and_no_worse = reaches_goal || (other.depth > rival.depth && other.value >= rival.value);
            let better_mate = other.value >= MATE_BOUND && other.value > rival.value;
            if (deeper_and_no_worse || better_mate) && !other.line.is_empty() {
                best = Some(other);
            }
        }
        best
    }
}

/// Locks `mutex`, also when another thread panicked holding it: the data is a whole
/// value either way.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_uci;
    use shakmaty::Chess;

    fn finished(depth: u32, value: i32, text: &str) -> Finished {
        let m = parse_uci(&Chess::default(), text).unwrap();
        Finished { depth, seldepth: depth, value, line: vec![m] }
    }

    #[test]
    fn a_deeper_helper_result_wins_only_when_no_worse() {
        let shared = SharedState::new(1, 3).unwrap();
        shared.publish_iteration(1, finished(12, 50, "b2b3"), false);
        assert_eq!(shared.better_helper_result(99), None, "the main thread has finished nothing");
        shared.reset_progress();
        shared.publish_iteration(0, finished(10, 20, "e2e4"), false);
        assert_eq!(shared.better_helper_result(99), None, "no helper has finished an iteration");
        shared.publish_iteration(1, finished(11, 10, "d2d4"), false);
        assert_eq!(shared.better_helper_result(99), None, "deeper but worse");
        shared.publish_iteration(2, finished(11, 25, "c2c4"), false);
        assert_eq!(shared.better_helper_result(99), Some(finished(11, 25, "c2c4")));
        shared.publish_iteration(1, finished(9, MATE_BOUND + 5, "g1f3"), false);
        assert_eq!(shared.better_helper_result(99), Some(finished(9, MATE_BOUND + 5, "g1f3")), "a mate wins");
        shared.reset_progress();
        assert_eq!(shared.better_helper_result(99), None);
        assert!(!shared.goal_reached());
        shared.publish_iteration(0, finished(10, 20, "e2e4"), false);
        shared.publish_iteration(1, finished(11, 10, "d2d4"), true);
        assert!(shared.goal_reached());
        assert_eq!(shared.better_helper_result(11), Some(finished(11, 10, "d2d4")), "the goal, though worse");
    }

    #[test]
    fn counts_of_the_other_threads_add_up() {
        let shared = SharedState::new(1, 3).unwrap();
        shared.publish_counts(0, 100, 1);
        shared.publish_counts(1, 20, 2);
        shared.publish_counts(2, 3, 4);
        assert_eq!((shared.nodes_of_others(0), shared.tbhits_of_others(0)), (23, 6));
        assert_eq!(shared.nodes_of_others(1), 103);
        shared.reset_progress();
        assert_eq!(shared.nodes_of_others(0), 0);
    }
}
