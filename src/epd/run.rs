//! Running a suite: positions shared out to single-threaded searchers, one line per
//! position printed in suite order, a progress line on a terminal's stderr.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use shakmaty::Move;
use shakmaty::san::SanPlus;

use super::record::{EpdRecord, parse_record};
use super::score::{SuiteSummary, is_solved};
use super::{EpdLimit, EpdSearcher};
use crate::engine::searchers::{self, SearchMode};
use crate::search::alphabeta::alpha_beta_probers;
use crate::search::bandwidth::Bandwidth;
use crate::search::{Limits, Score, SearchJob, SearchSettings, Searcher, Signals, Silent};

/// The verdict on one record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdResult {
    /// The move the engine chose.
    pub played: Option<Move>,
    /// True when `played` meets the record's conditions (see [`is_solved`]).
    pub solved: bool,
    /// The points `played` earns (zero without a point list).
    pub points: u32,
    /// The final score.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

/// Runs the engine on one record, from a fresh table or tree. A `dm` record's search
/// stops as soon as it proves a mate that short, as `go mate` does.
pub fn solve(searcher: &mut dyn Searcher, record: &EpdRecord, limit: EpdLimit) -> EpdResult {
    let limits = match limit {
        EpdLimit::MoveTime(ms) => Limits { movetime: Some(ms), ..Limits::default() },
        EpdLimit::Depth(d) => Limits { depth: Some(d), ..Limits::default() },
        EpdLimit::Nodes(n) => Limits { nodes: Some(n), ..Limits::default() },
    };
    searcher.new_game();
    let started = Instant::now();
    let job = SearchJob {
        root: record.position.clone(),
        history: Vec::new(),
        limits: Limits { mate: record.mate, ..limits },
        move_overhead: 0,
        started,
    };
    let outcome = searcher.search(&job, &mut Silent);
    let score = outcome.report.score;
    EpdResult {
        played: outcome.best,
        solved: is_solved(record, outcome.best, score),
        points: record.points_for(outcome.best),
        score,
        depth: outcome.report.depth,
        nodes: outcome.report.nodes,
        elapsed: started.elapsed(),
    }
}

/// Runs a whole suite: reports malformed records on stderr and skips them, prints one line
/// per record on stdout in suite order, then the summary with `solved X/Y` last.
pub fn run_suite(text: &str, limit: EpdLimit, setup: EpdSearcher) -> Result<SuiteSummary, String> {
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match parse_record(line, index + 1) {
            Ok(record) => records.push(record),
            Err(reason) => eprintln!("line {}: skipped: {reason}", index + 1),
        }
    }
    let workers = setup.threads.clamp(1, records.len().max(1));
    // Every searcher exists before the run starts, so that a failure to allocate one
    // stops the run before any output.
    let searchers = (0..workers).map(|_| new_searcher(&setup)).collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let mut summary = SuiteSummary::default();
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut out = std::io::stdout().lock();
    let written = std::thread::scope(|scope| {
        for mut searcher in searchers {
            let (sender, next, records) = (sender.clone(), &next, &records);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(record) = records.get(index) else { break };
                    // The receiver is gone when the results cannot be written: stop.
                    if sender.send((index, solve(searcher.as_mut(), record, limit))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut progress = SuiteProgress::new(records.len());
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (index, result) in receiver {
            progress.finished(&result);
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&printed) {
                let record = &records[printed];
                progress.clear();
                writeln!(out, "{}", result_line(record, &result))?;
                summary.add(record, result.solved, result.points, result.nodes);
                printed += 1;
            }
            progress.show();
        }
        progress.clear();
        Ok(())
    });
    summary.elapsed = started.elapsed();
    written
        .and_then(|()| summary.lines().iter().try_for_each(|line| writeln!(out, "{line}")))
        .map_err(|e| format!("cannot write the results: {e}"))?;
    Ok(summary)
}

fn new_searcher(setup: &EpdSearcher) -> Result<Box<dyn Searcher>, String> {
    let signals = Arc::new(Signals::default());
    let mut searcher: Box<dyn Searcher> = match setup.mode {
        SearchMode::Bandwidth => {
            Box::new(Bandwidth::new(setup.hash_mb, setup.bandwidth, alpha_beta_probers(), signals)?)
        }
        mode => searchers::build(mode, setup.hash_mb, signals)?,
    };
    searcher.configure(&SearchSettings { evaluation: setup.evaluation.clone(), ..SearchSettings::default() });
    Ok(searcher)
}

/// `<id> ok|FAIL played <move> expected <conditions> depth <d> score <s>
/// [points <p>/<max>] nodes <n> time <ms>`.
fn result_line(record: &EpdRecord, result: &EpdResult) -> String {
    let san = |m: &Move| SanPlus::from_move(record.position.clone(), *m).to_string();
    let mut expected: Vec<String> = record
        .best
        .iter()
        .map(|m| format!("bm {}", san(m)))
        .chain(record.avoid.iter().map(|m| format!("am {}", san(m))))
        .chain(record.mate.map(|n| format!("dm {n}")))
        .collect();
    if expected.is_empty() {
        // A record with only a point list: the moves that earn the most.
        let top = record.max_points();
        expected.extend(record.points.iter().filter(|&&(_, p)| p == top).map(|(m, _)| format!("top {}", san(m))));
    }
    let score = match result.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let points = if record.points.is_empty() {
        String::new()
    } else {
        format!(" points {}/{}", result.points, record.max_points())
    };
    format!(
        "{:<24} {:<6} played {:<8} expected {:<16} depth {} score {}{points} nodes {} time {}",
        record.id,
        if result.solved { "ok" } else { "FAIL" },
        result.played.as_ref().map_or("(none)".to_string(), san),
        expected.join(" "),
        result.depth,
        score,
        result.nodes,
        result.elapsed.as_millis()
    )
}

/// `[k/N] solved s` on stderr, rewritten in place, when stderr is a terminal. It is
/// erased before each result line so that the two never share a line on one terminal.
struct SuiteProgress {
    shown: bool,
    on_terminal: bool,
    done: usize,
    solved: usize,
    total: usize,
}

impl SuiteProgress {
    fn new(total: usize) -> SuiteProgress {
        SuiteProgress { shown: false, on_terminal: std::io::stderr().is_terminal(), done: 0, solved: 0, total }
    }

    fn finished(&mut self, result: &EpdResult) {
        self.done += 1;
        self.solved += usize::from(result.solved);
    }

    fn show(&mut self) {
        if self.on_terminal {
            eprint!("\r[{}/{}] solved {}", self.done, self.total, self.solved);
            self.shown = true;
        }
    }

    fn clear(&mut self) {
        if self.shown {
            // Carriage return, then erase to the end of the line (ANSI).
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }
}
