//! `harrier datagen`: self-play games of the current engine on node limits, the training
//! data of its evaluation network.
//!
//! Games are numbered; game `g` of a run depends only on the seed and `g` (its opening is
//! drawn from both, and the searcher's memory is cleared before it), so a run gives the
//! same games on any number of threads. They are written in files of `games_per_file`
//! games, each whole or absent (written aside, then renamed), and each listed in the
//! folder's [`manifest`] once it is whole: an interrupted run loses at most the files it
//! was writing, and started again with the same settings it skips the files it has.

mod selfplay;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::eval::Evaluation;
use crate::eval::nnue::data::format::{GameRecord, write_header};
use crate::eval::nnue::data::manifest::{self, DATA_EXTENSION, Provenance};
use crate::eval::nnue::data::training_positions;
use crate::random::{GOLDEN_GAMMA, mix};
use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta::presets::Selectivity;
use crate::search::syzygy::Syzygy;
use crate::search::{SearchSettings, Searcher, Signals};
pub use selfplay::{Ending, GameCost, NodeLimits, SearchCost};

/// The folder `harrier datagen` writes to, and `harrier data check` checks, by default.
pub const DEFAULT_DIR: &str = "data";
/// Games in a run by default.
pub const DEFAULT_GAMES: u64 = 1_000;
/// Games in one data file by default: about half a megabyte, and a few minutes of one
/// thread's work, which is what an interruption can lose.
pub const DEFAULT_GAMES_PER_FILE: u64 = 1_000;
/// The seed that chooses the openings by default.
pub const DEFAULT_DATAGEN_SEED: u64 = 1;
/// Nodes per move by default.
pub const DEFAULT_NODES: NodeLimits = NodeLimits { soft: 5_000, hard: 20_000 };
/// Transposition table per thread by default, in MB.
pub const DEFAULT_THREAD_HASH_MB: usize = 16;
/// Seconds between two progress lines.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(30);

/// What a run makes and how.
#[derive(Clone, Debug)]
pub struct DatagenSettings {
    /// The folder the data files and their manifest go to.
    pub out: PathBuf,
    /// Games in the whole run.
    pub games: u64,
    /// Games in each data file.
    pub games_per_file: u64,
    /// Files written at once, one thread each (no more threads than files to write).
    pub threads: usize,
    /// Chooses the openings.
    pub seed: u64,
    /// Nodes per move.
    pub nodes: NodeLimits,
    /// Transposition table per thread, in MB.
    pub hash_mb: usize,
    /// Syzygy tables to adjudicate with (and search with).
    pub syzygy: Option<String>,
    /// The static evaluation the searches use.
    pub evaluation: Evaluation,
    /// What the manifest says made the files.
    pub provenance: Provenance,
}

/// What a run (or the part of it already on disk) holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games.
    pub games: u64,
    /// Positions kept for training ([`is_training_position`]).
    pub positions: u64,
}

/// Where a run's work went: the sums of its games' [`GameCost`]s and kept positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Profile {
    /// Games kept.
    pub games: u64,
    /// Their searched plies.
    pub plies: u64,
    /// Positions kept for training.
    pub positions: u64,
    /// Where the searches' nodes and time went.
    pub search: SearchCost,
    /// Thread time in all (searching, replaying, counting and writing).
    pub working: Duration,
    /// Games ended by the rules, the tables, a decisive score, a level score, the ply cap.
    pub endings: [u64; 5],
}

impl Profile {
    fn merge(&mut self, other: &Profile) {
        self.games += other.games;
        self.plies += other.plies;
        self.positions += other.positions;
        self.search.add(&other.search);
        self.working += other.working;
        for (sum, count) in self.endings.iter_mut().zip(other.endings) {
            *sum += count;
        }
    }

    /// The profile of one game of `plies` searched plies and `positions` kept ones.
    fn of_game(cost: &GameCost, plies: u64, positions: u64) -> Profile {
        let mut endings = [0; 5];
        endings[cost.ending as usize] = 1;
        Profile { games: 1, plies, positions, search: cost.search, working: Duration::ZERO, endings }
    }

    /// The profile in a few lines: nodes per kept position, what the filter and the
    /// adjudication took, and the share of time in the search.
    pub fn lines(&self) -> Vec<String> {
        let per = |a: u64, b: u64| a as f64 / b.max(1) as f64;
        let share = |a: u64, b: u64| 100.0 * per(a, b);
        let cost = &self.search;
        let all_nodes = cost.nodes + cost.redrawn_nodes;
        let [rule, tablebase, won, level, long] = self.endings;
        vec![
            format!(
                "{:.0} nodes per kept position; {:.0} nodes per search; {:.1} plies and {:.1} kept positions a game",
                per(all_nodes, self.positions),
                per(cost.nodes, self.plies),
                per(self.plies, self.games),
                per(self.positions, self.games),
            ),
            format!(
                "kept {:.1} % of the searched plies; searches in check {:.1} % of the plies, {:.1} % of the nodes; \
                 out of check with a capture or promotion chosen {:.1} % of the plies, {:.1} % of the nodes; \
                 redrawn openings {} ({:.1} % of the nodes)",
                share(self.positions, self.plies),
                share(cost.check_searches, self.plies),
                share(cost.check_nodes, all_nodes),
                share(cost.tactical_searches, self.plies),
                share(cost.tactical_nodes, all_nodes),
                cost.redrawn,
                share(cost.redrawn_nodes, all_nodes),
            ),
            format!(
                "endings: rules {rule}, tables {tablebase}, decisive score {won}, level score {level}, ply cap {long}"
            ),
            format!(
                "time in the search {:.1} % of the threads' time",
                100.0 * cost.searching.as_secs_f64() / self.working.as_secs_f64().max(1e-9)
            ),
        ]
    }
}

/// The name of data file `index` of the run seeded `seed` with the evaluation `net`.
fn file_name(net: &str, seed: u64, index: u64) -> String {
    format!("{net}-s{seed}-{index:05}.{DATA_EXTENSION}")
}

/// Runs the games not yet on disk; `progress` gets a line now and then. Returns the new
/// games' profile and the totals found on disk. A file found whole but not listed (the
/// run stopped between the two) is listed first.
pub fn run(settings: &DatagenSettings, progress: &(dyn Fn(&str) + Sync)) -> Result<(Profile, Totals), String> {
    if settings.games_per_file == 0 {
        return Err("--games-per-file must be at least 1".to_string());
    }
    fs::create_dir_all(&settings.out).map_err(|e| format!("cannot create {}: {e}", settings.out.display()))?;
    let tables = match &settings.syzygy {
        Some(path) => Some(Syzygy::load(path, 1, 7, true)?.ok_or_else(|| format!("no Syzygy tables in {path}"))?),
        None => None,
    };
    let listed = manifest::read(&settings.out)?;
    let files = settings.games.div_ceil(settings.games_per_file);
    let mut on_disk = Totals::default();
    let mut to_play = Vec::new();
    for index in 0..files {
        let name = file_name(&settings.provenance.net, settings.seed, index);
        let row = match listed.iter().find(|row| row.file == name) {
            Some(row) => row.clone(),
            None => match fs::read(settings.out.join(&name)) {
                Ok(bytes) => {
                    let row = manifest::row_of(&name, &bytes, settings.provenance.clone())?;
                    manifest::append(&settings.out, &row)?;
                    row
                }
                Err(_) => {
                    to_play.push(index);
                    continue;
                }
            },
        };
        on_disk.games += row.games;
        on_disk.positions += row.positions;
    }
    // A file is one thread's work, so threads beyond the files to write would only wait.
    let threads = settings.threads.clamp(1, to_play.len().max(1));
    if !to_play.is_empty() && threads < settings.threads {
        progress(&format!(
            "{} of {} threads work: {} to write, one thread a file (--games-per-file makes smaller files)",
            threads,
            settings.threads,
            if to_play.len() == 1 { "1 file".to_string() } else { format!("{} files", to_play.len()) },
        ));
    }
    let queue = Mutex::new(to_play.into_iter());
    let appending = Mutex::new(());
    let games_done = AtomicU64::new(0);
    let positions_done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let profile = Mutex::new(Profile::default());
    let failure = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let signals = Arc::new(Signals::default());
                    let mut searcher = AlphaBeta::new(settings.hash_mb, Selectivity::Full, signals)?;
                    searcher.set_tablebases(tables.clone());
                    searcher.configure(&SearchSettings {
                        evaluation: settings.evaluation.clone(),
                        ..SearchSettings::default()
                    });
                    let mut mine = Profile::default();
                    let started = Instant::now();
                    let outcome = (|| loop {
                        let next = queue.lock().map_err(|_| "a datagen thread failed".to_string())?.next();
                        let Some(index) = next else { return Ok(()) };
                        let first = index * settings.games_per_file;
                        let last = (first + settings.games_per_file).min(settings.games);
                        let mut games = Vec::new();
                        for game in first..last {
                            let seed = mix(settings.seed.wrapping_mul(GOLDEN_GAMMA) ^ game);
                            let (record, cost) =
                                selfplay::play_game(&mut searcher, tables.as_ref(), settings.nodes, seed);
                            let kept = training_positions(&record).count() as u64;
                            mine.merge(&Profile::of_game(&cost, record.plies.len() as u64, kept));
                            games_done.fetch_add(1, Ordering::Relaxed);
                            positions_done.fetch_add(kept, Ordering::Relaxed);
                            games.push(record);
                        }
                        let name = file_name(&settings.provenance.net, settings.seed, index);
                        let bytes = write_file(&settings.out.join(&name), &games)?;
                        let row = manifest::row_of(&name, &bytes, settings.provenance.clone())?;
                        let _one_at_a_time = appending.lock().map_err(|_| "a datagen thread failed".to_string())?;
                        manifest::append(&settings.out, &row)?;
                    })();
                    mine.working = started.elapsed();
                    if let Ok(mut sum) = profile.lock() {
                        sum.merge(&mine);
                    }
                    outcome
                })
            })
            .collect();
        let reporter = scope.spawn(|| {
            let mut last = Instant::now();
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if last.elapsed() >= PROGRESS_INTERVAL {
                    last = Instant::now();
                    progress(&progress_line(
                        games_done.load(Ordering::Relaxed),
                        positions_done.load(Ordering::Relaxed),
                        start.elapsed(),
                    ));
                }
            }
        });
        for worker in workers {
            let outcome = worker.join().unwrap_or_else(|_| Err("a datagen thread panicked".to_string()));
            if let Err(reason) = outcome
                && let Ok(mut slot) = failure.lock()
            {
                slot.get_or_insert(reason);
            }
        }
        finished.store(true, Ordering::Relaxed);
        let _ = reporter.join();
    });
    if let Some(reason) = failure.into_inner().ok().flatten() {
        return Err(reason);
    }
    let profile = profile.into_inner().map_err(|_| "a datagen thread failed".to_string())?;
    Ok((profile, on_disk))
}

/// The progress line: games, kept positions, and their rate.
pub fn progress_line(games: u64, positions: u64, elapsed: Duration) -> String {
    let rate = positions as f64 / elapsed.as_secs_f64().max(1e-3);
    format!("{games} games, {positions} positions, {rate:.0} positions/s, {:.0} s", elapsed.as_secs_f64())
}

/// Writes a data file beside its final name and renames it, so that it is whole or
/// absent; returns its contents.
fn write_file(path: &Path, games: &[GameRecord]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let partial = path.with_extension("part");
    let write = |bytes: &mut Vec<u8>| -> std::io::Result<()> {
        write_header(bytes)?;
        for game in games {
            game.write_to(bytes)?;
        }
        let mut file = fs::File::create(&partial)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&partial, path)
    };
    write(&mut bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::manifest::{Depth, MANIFEST, check, data_files};
    use super::*;

    fn settings(out: &Path, threads: usize) -> DatagenSettings {
        DatagenSettings {
            out: out.to_path_buf(),
            games: 3,
            games_per_file: 2,
            threads,
            seed: 7,
            nodes: NodeLimits { soft: 300, hard: 3_000 },
            hash_mb: 1,
            syzygy: None,
            evaluation: Evaluation::HandCrafted,
            provenance: Provenance { commit: "test".into(), net: "hce".into(), command: "datagen test".into() },
        }
    }

    /// The data files of `dir`, by name.
    fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
        data_files(dir).unwrap().into_iter().map(|name| (name.clone(), fs::read(dir.join(name)).unwrap())).collect()
    }

    #[test]
    fn a_run_is_the_same_on_any_number_of_threads_and_resumes() {
        let base = std::env::temp_dir().join(format!("harrier-datagen-{}", std::process::id()));
        let (one, two) = (base.join("one"), base.join("two"));
        let (profile, before) = run(&settings(&one, 1), &|_| {}).unwrap();
        let made = Totals { games: profile.games, positions: profile.positions };
        assert_eq!((made.games, before), (3, Totals::default()));
        assert!(made.positions > 0);
        run(&settings(&two, 2), &|_| {}).unwrap();
        assert_eq!(files(&one), files(&two), "the same games on one thread and on two");
        assert_eq!(files(&one).len(), 2, "three games in files of two");
        let report = check(&one, Depth::Full).unwrap();
        assert_eq!(report.problems, Vec::<String>::new());
        assert_eq!((report.files, report.games, report.positions), (2, made.games, made.positions));

        // Stopped after the second file was renamed but before its row was written, with a
        // third file half written: the rerun lists the second and plays nothing.
        let text = fs::read_to_string(one.join(MANIFEST)).unwrap();
        let first_row: Vec<&str> = text.lines().take(2).collect();
        fs::write(one.join(MANIFEST), first_row.join("\n") + "\n").unwrap();
        fs::write(one.join("hce-s7-00002.part"), b"HRRGAME1").unwrap();
        let unlisted = check(&one, Depth::Full).unwrap();
        assert_eq!(unlisted.problems.len(), 1, "{:?}", unlisted.problems);
        assert!(unlisted.problems[0].contains("hce-s7-00001.bin"), "{:?}", unlisted.problems);
        let (again, found) = run(&settings(&one, 1), &|_| {}).unwrap();
        assert_eq!((again.games, found), (0, made), "a finished run plays nothing more");
        assert_eq!(check(&one, Depth::Full).unwrap(), report);
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_run_with_more_threads_than_files_to_write_says_how_many_work() {
        let dir = std::env::temp_dir().join(format!("harrier-datagen-threads-{}", std::process::id()));
        let lines = Mutex::new(Vec::new());
        let (profile, _) = run(&settings(&dir, 3), &|line| lines.lock().unwrap().push(line.to_string())).unwrap();
        assert_eq!(profile.games, 3);
        let lines = lines.into_inner().unwrap();
        assert_eq!(
            lines.first().map(String::as_str),
            Some("2 of 3 threads work: 2 files to write, one thread a file (--games-per-file makes smaller files)"),
            "{lines:?}"
        );
        let (again, _) = run(&settings(&dir, 3), &|line| panic!("nothing to write, yet: {line}")).unwrap();
        assert_eq!(again.games, 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_data_file_is_reported_by_name_and_place() {
        let dir = std::env::temp_dir().join(format!("harrier-datagen-damage-{}", std::process::id()));
        run(&settings(&dir, 2), &|_| {}).unwrap();
        let name = "hce-s7-00000.bin";
        let whole = fs::read(dir.join(name)).unwrap();
        fs::write(dir.join(name), &whole[..whole.len() - 3]).unwrap();
        let problems = check(&dir, Depth::Full).unwrap().problems;
        assert_eq!(problems.len(), 1);
        assert!(problems[0].starts_with(name) && problems[0].contains("SHA-256"), "{problems:?}");
        let cut = manifest::describe(&whole[..whole.len() - 3]).unwrap_err();
        assert!(cut.starts_with("game 2 at byte ") && cut.ends_with("cut short"), "{cut}");
        let mut flipped = whole.clone();
        flipped[whole.len() / 2] ^= 0x40;
        fs::write(dir.join(name), &flipped).unwrap();
        assert!(check(&dir, Depth::Full).unwrap().problems[0].contains(name));
        assert!(check(&dir, Depth::Sample(1)).unwrap().problems[0].contains(name), "a sampled check hashes file 0");
        fs::remove_dir_all(&dir).unwrap();
    }
}
