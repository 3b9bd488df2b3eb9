//! `harrier datagen`: self-play games of the current engine on node limits, the training
//! data of its evaluation network.
//!
//! Games are numbered; game `g` of a run depends only on the seed and `g` (its opening is
//! drawn from both, and the searcher's memory is cleared before it), so a run gives the
//! same games on any number of threads. They are written in chunks of
//! [`GAMES_PER_CHUNK`], each file complete or absent (written aside, then renamed): an
//! interrupted run started again with the same settings skips the chunks it has.

pub mod format;
mod selfplay;

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::eval::nnue::Network;
use crate::random::{GOLDEN_GAMMA, mix};
use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta::presets::Selectivity;
use crate::search::syzygy::{Syzygy, TB_WIN_BOUND};
use crate::search::{SearchSettings, Searcher, Signals};
use format::{GameRecord, read_games, write_header};
pub use selfplay::NodeLimits;

/// Games in one chunk file: an interruption loses at most one chunk per thread.
pub const GAMES_PER_CHUNK: u64 = 100;
/// Seconds between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// What a run makes and how.
#[derive(Clone, Debug)]
pub struct DatagenSettings {
    /// The folder the chunk files go to.
    pub out: PathBuf,
    /// Games in the whole run.
    pub games: u64,
    /// Games played at once, one per thread.
    pub threads: usize,
    /// Chooses the openings.
    pub seed: u64,
    /// Nodes per move.
    pub nodes: NodeLimits,
    /// Transposition table per thread, in MB.
    pub hash_mb: usize,
    /// Syzygy tables to adjudicate with (and search with).
    pub syzygy: Option<String>,
    /// The network the searches evaluate with (`None`: the hand-crafted evaluation).
    pub network: Option<Arc<Network>>,
}

/// What a run (or the part of it already on disk) holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games.
    pub games: u64,
    /// Positions kept for training ([`is_training_position`]).
    pub positions: u64,
}

/// True when a scored position is worth training on: not in check, its best move quiet
/// (neither a capture nor a promotion), its score not a mate or tablebase result.
pub fn is_training_position(pos: &Chess, best: Move, score: i16) -> bool {
    !pos.is_check() && !best.is_capture() && !best.is_promotion() && i32::from(score).abs() < TB_WIN_BOUND
}

/// The positions of `game` kept for training.
pub fn training_positions(game: &GameRecord) -> impl Iterator<Item = (Chess, i16)> + '_ {
    game.positions().filter(|(pos, m, score)| is_training_position(pos, *m, *score)).map(|(pos, _, s)| (pos, s))
}

fn count(games: &[GameRecord]) -> Totals {
    let positions = games.iter().map(|game| training_positions(game).count() as u64).sum();
    Totals { games: games.len() as u64, positions }
}

/// The path of chunk `index` of the run seeded `seed`.
fn chunk_path(out: &Path, seed: u64, index: u64) -> PathBuf {
    out.join(format!("games-s{seed}-{index:06}.bin"))
}

/// Runs the games not yet on disk; `progress` gets a line now and then. Returns the new
/// games' totals and those found on disk.
pub fn run(settings: &DatagenSettings, progress: &(dyn Fn(&str) + Sync)) -> Result<(Totals, Totals), String> {
    fs::create_dir_all(&settings.out).map_err(|e| format!("cannot create {}: {e}", settings.out.display()))?;
    let tables = match &settings.syzygy {
        Some(path) => Some(Syzygy::load(path, 1, 7, true)?.ok_or_else(|| format!("no Syzygy tables in {path}"))?),
        None => None,
    };
    let chunks = settings.games.div_ceil(GAMES_PER_CHUNK);
    let mut on_disk = Totals::default();
    let mut to_play = Vec::new();
    for index in 0..chunks {
        let path = chunk_path(&settings.out, settings.seed, index);
        match fs::read(&path) {
            Ok(bytes) => {
                let games = read_games(bytes.as_slice()).map_err(|e| format!("{}: {e}", path.display()))?;
                let found = count(&games);
                on_disk.games += found.games;
                on_disk.positions += found.positions;
            }
            Err(_) => to_play.push(index),
        }
    }
    let queue = Mutex::new(to_play.into_iter());
    let games_done = AtomicU64::new(0);
    let positions_done = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let failure = Mutex::new(None);
    let start = Instant::now();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..settings.threads.max(1))
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    let signals = Arc::new(Signals::default());
                    let mut searcher = AlphaBeta::new(settings.hash_mb, Selectivity::Full, signals)?;
                    searcher.set_tablebases(tables.clone());
                    searcher
                        .configure(&SearchSettings { network: settings.network.clone(), ..SearchSettings::default() });
                    loop {
                        let next = queue.lock().map_err(|_| "a datagen thread failed".to_string())?.next();
                        let Some(index) = next else { return Ok(()) };
                        let first = index * GAMES_PER_CHUNK;
                        let last = (first + GAMES_PER_CHUNK).min(settings.games);
                        let mut games = Vec::new();
                        for game in first..last {
                            let seed = mix(settings.seed.wrapping_mul(GOLDEN_GAMMA) ^ game);
                            let record = selfplay::play_game(&mut searcher, tables.as_ref(), settings.nodes, seed);
                            games_done.fetch_add(1, Ordering::Relaxed);
                            positions_done.fetch_add(training_positions(&record).count() as u64, Ordering::Relaxed);
                            games.push(record);
                        }
                        write_chunk(&chunk_path(&settings.out, settings.seed, index), &games)?;
                    }
                })
            })
            .collect();
        let reporter = scope.spawn(|| {
            let mut last = Instant::now();
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if last.elapsed() >= PROGRESS_EVERY {
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
    let new = Totals { games: games_done.into_inner(), positions: positions_done.into_inner() };
    Ok((new, on_disk))
}

/// The progress line: games, kept positions, and their rate.
pub fn progress_line(games: u64, positions: u64, elapsed: Duration) -> String {
    let rate = positions as f64 / elapsed.as_secs_f64().max(1e-3);
    format!("{games} games, {positions} positions, {rate:.0} positions/s, {:.0} s", elapsed.as_secs_f64())
}

/// Writes a chunk beside its final name and renames it, so a chunk file is whole or absent.
fn write_chunk(path: &Path, games: &[GameRecord]) -> Result<(), String> {
    let partial = path.with_extension("part");
    let write = || -> std::io::Result<()> {
        let mut out = BufWriter::new(fs::File::create(&partial)?);
        write_header(&mut out)?;
        for game in games {
            game.write_to(&mut out)?;
        }
        out.flush()?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&partial, path)
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(out: &Path, threads: usize) -> DatagenSettings {
        DatagenSettings {
            out: out.to_path_buf(),
            games: 3,
            threads,
            seed: 7,
            nodes: NodeLimits { soft: 300, hard: 3_000 },
            hash_mb: 1,
            syzygy: None,
            network: None,
        }
    }

    fn files(dir: &Path) -> Vec<Vec<u8>> {
        let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        names.iter().map(|p| fs::read(p).unwrap()).collect()
    }

    #[test]
    fn a_run_is_the_same_on_any_number_of_threads_and_resumes() {
        let base = std::env::temp_dir().join(format!("harrier-datagen-{}", std::process::id()));
        let (one, two) = (base.join("one"), base.join("two"));
        let (made, before) = run(&settings(&one, 1), &|_| {}).unwrap();
        assert_eq!((made.games, before), (3, Totals::default()));
        assert!(made.positions > 0);
        run(&settings(&two, 2), &|_| {}).unwrap();
        assert_eq!(files(&one), files(&two), "the same games on one thread and on two");
        let games = read_games(files(&one)[0].as_slice()).unwrap();
        assert_eq!(count(&games), made);
        for game in &games {
            assert_eq!(game.positions().count(), game.plies.len(), "every move is legal where it stands");
        }
        let (again, found) = run(&settings(&one, 1), &|_| {}).unwrap();
        assert_eq!((again, found), (Totals::default(), made), "a finished run plays nothing more");
        fs::remove_dir_all(&base).unwrap();
    }
}
