//! One self-play game: a few random opening plies, then the engine against itself on node
//! limits (no clock), ended by the rules or adjudicated once decided or dead drawn.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Position};

use crate::eval::nnue::data::format::{GameRecord, GameResult};
use crate::moves::{encode, is_tactical};
use crate::random::SplitMix;
use crate::search::syzygy::Syzygy;
use crate::search::{Limits, SearchJob, Searcher, Silent, drawn_by_rule};
use crate::value::TB_WIN_BOUND;
use crate::zobrist::key_of;

/// Random plies before the scored game: this many, or one more (so both sides start).
const RANDOM_PLIES: u32 = 8;
/// An opening whose first search scores beyond this (centipawns) is drawn again.
const MAX_OPENING_SCORE: i32 = 400;
/// A game is won once the winner's score stays at least this...
const WIN_SCORE: i32 = 1200;
/// ...for this many plies in a row.
const WIN_PLIES: usize = 6;
/// A game is drawn once the score stays within this of zero...
const DRAW_SCORE: i32 = 10;
/// ...for this many plies in a row...
const DRAW_PLIES: usize = 12;
/// ...from this ply on.
const DRAW_FROM_PLY: usize = 80;
/// A game still going after this many plies is a draw.
const MAX_PLIES: usize = 400;
/// A position in check is searched with this share of the node limits: it is never a
/// training position, and its few legal moves need fewer nodes to choose among.
const CHECK_LIMIT_DIVISOR: u64 = 4;
/// A search out of check starts no iteration past this share of the soft limit while its
/// best move is a capture or promotion: such a position is not a training position
/// either, and the move is played. The rule stops only searches that end on a capture or
/// promotion, so a search that ends on a quiet move, a kept position's, is the one it was.
const TACTICAL_LIMIT_DIVISOR: u64 = 4;

/// How each move is searched.
#[derive(Clone, Copy, Debug)]
pub struct NodeLimits {
    /// No iteration starts past this many nodes.
    pub soft: u64,
    /// The search stops at this many nodes.
    pub hard: u64,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Mate, stalemate, repetition, the fifty-move rule or bare material.
    Rule,
    /// The Syzygy tables' verdict.
    Tablebase,
    /// One side's score stayed decisive.
    Won,
    /// The score stayed level late in the game.
    Level,
    /// The game reached the ply cap.
    Long,
}

/// Where searches' nodes and time went, for one game or summed over many.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchCost {
    /// Nodes of the kept games' searches.
    pub nodes: u64,
    /// Searches of positions in check (never training positions).
    pub check_searches: u64,
    /// Their nodes.
    pub check_nodes: u64,
    /// Openings drawn again because their first search was too one-sided.
    pub redrawn: u64,
    /// Nodes spent on those openings.
    pub redrawn_nodes: u64,
    /// Time in the searcher, all searches included.
    pub searching: Duration,
    /// Searches out of check that chose a capture or promotion (never training
    /// positions either).
    pub tactical_searches: u64,
    /// Their nodes.
    pub tactical_nodes: u64,
}

impl SearchCost {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &SearchCost) {
        self.nodes += other.nodes;
        self.check_searches += other.check_searches;
        self.check_nodes += other.check_nodes;
        self.redrawn += other.redrawn;
        self.redrawn_nodes += other.redrawn_nodes;
        self.searching += other.searching;
        self.tactical_searches += other.tactical_searches;
        self.tactical_nodes += other.tactical_nodes;
    }
}

/// What one game cost to make, and how it ended.
#[derive(Clone, Copy, Debug)]
pub struct GameCost {
    /// Its searches' nodes and time.
    pub search: SearchCost,
    /// How the kept game ended.
    pub ending: Ending,
}

/// Plays one game with `searcher` (its memory cleared first), the opening drawn from
/// `seed`; `tables` adjudicate positions they cover.
pub fn play_game(
    searcher: &mut dyn Searcher,
    tables: Option<&Syzygy>,
    limits: NodeLimits,
    seed: u64,
) -> (GameRecord, GameCost) {
    let mut rng = SplitMix::new(seed);
    let (mut redrawn, mut redrawn_nodes, mut redrawn_time) = (0, 0, Duration::ZERO);
    loop {
        searcher.new_game();
        let start = random_opening(&mut rng);
        match play_from(searcher, tables, limits, start) {
            Ok((game, mut cost)) => {
                cost.search.redrawn = redrawn;
                cost.search.redrawn_nodes = redrawn_nodes;
                cost.search.searching += redrawn_time;
                return (game, cost);
            }
            Err(thrown) => {
                redrawn += 1;
                redrawn_nodes += thrown.search.nodes;
                redrawn_time += thrown.search.searching;
            }
        }
    }
}

/// A position after [`RANDOM_PLIES`] or one more random legal moves from the start, with
/// moves left to play.
fn random_opening(rng: &mut SplitMix) -> Chess {
    'again: loop {
        let mut pos = Chess::default();
        for _ in 0..RANDOM_PLIES + rng.below(2) as u32 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'again;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        if !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

/// Plays the game from `start`; an error, with what its one search cost, when the
/// opening is too one-sided to keep.
fn play_from(
    searcher: &mut dyn Searcher,
    tables: Option<&Syzygy>,
    limits: NodeLimits,
    start: Chess,
) -> Result<(GameRecord, GameCost), GameCost> {
    let mut pos = start.clone();
    let mut keys: Vec<u64> = Vec::new();
    let mut plies = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let mut cost = GameCost { search: SearchCost::default(), ending: Ending::Rule };
    let result = loop {
        if let Some(result) = result_by_rule(&pos, &keys) {
            cost.ending = Ending::Rule;
            break result;
        }
        if let Some(result) = tables.and_then(|tables| tablebase_result(tables, &pos)) {
            cost.ending = Ending::Tablebase;
            break result;
        }
        let in_check = pos.is_check();
        let divisor = if in_check { CHECK_LIMIT_DIVISOR } else { 1 };
        let job = SearchJob {
            root: pos.clone(),
            history: keys.clone(),
            limits: Limits {
                nodes: Some((limits.hard / divisor).max(1)),
                soft_nodes: Some((limits.soft / divisor).max(1)),
                tactical_soft_nodes: (!in_check).then_some((limits.soft / TACTICAL_LIMIT_DIVISOR).max(1)),
                ..Limits::default()
            },
            move_overhead: 0,
            started: Instant::now(),
        };
        let outcome = searcher.search(&job, &mut Silent);
        cost.search.nodes += outcome.report.nodes;
        cost.search.searching += job.started.elapsed();
        if in_check {
            cost.search.check_searches += 1;
            cost.search.check_nodes += outcome.report.nodes;
        } else if outcome.best.is_some_and(is_tactical) {
            cost.search.tactical_searches += 1;
            cost.search.tactical_nodes += outcome.report.nodes;
        }
        let Some(best) = outcome.best else {
            // The rules end every game without a legal move before it is searched.
            cost.ending = Ending::Rule;
            break GameResult::Draw;
        };
        let value = outcome.report.score.value();
        if plies.is_empty() && value.abs() > MAX_OPENING_SCORE {
            return Err(cost);
        }
        plies.push((encode(best), value.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        let white_value = if pos.turn() == Color::White { value } else { -value };
        keys.push(key_of(&pos));
        pos.play_unchecked(best);
        if let Some((result, ending)) = adjudicator.after(white_value, plies.len()) {
            cost.ending = ending;
            break result;
        }
    };
    Ok((GameRecord { start, plies, result }, cost))
}

/// The result the rules give `pos` (whose earlier positions have the keys `earlier`),
/// if the game is over.
fn result_by_rule(pos: &Chess, earlier: &[u64]) -> Option<GameResult> {
    if pos.is_checkmate() {
        return Some(GameResult::win_for(!pos.turn()));
    }
    // Every earlier position counts as before the root: a repetition must be threefold.
    if pos.is_stalemate() || drawn_by_rule(pos, key_of(pos), earlier, earlier.len()) {
        return Some(GameResult::Draw);
    }
    None
}

/// The tables' verdict on `pos`, right after the capture or pawn move that brought it
/// into their range (a cursed win or blessed loss is a draw).
fn tablebase_result(tables: &Syzygy, pos: &Chess) -> Option<GameResult> {
    if pos.halfmoves() != 0 || !tables.covers(pos) {
        return None;
    }
    let value = tables.probe_value(pos, 0)?;
    Some(if value >= TB_WIN_BOUND {
        GameResult::win_for(pos.turn())
    } else if value <= -TB_WIN_BOUND {
        GameResult::win_for(!pos.turn())
    } else {
        GameResult::Draw
    })
}

/// Counts the plies in a row that look won for one side or dead drawn.
#[derive(Debug, Default)]
struct Adjudicator {
    white_winning: usize,
    black_winning: usize,
    level: usize,
}

impl Adjudicator {
    /// Takes the score of the search at ply `ply` (from 1), from White's side; returns the
    /// result once the game is decided.
    fn after(&mut self, white_value: i32, ply: usize) -> Option<(GameResult, Ending)> {
        let count = |on: bool, run: &mut usize| *run = if on { *run + 1 } else { 0 };
        count(white_value >= WIN_SCORE, &mut self.white_winning);
        count(white_value <= -WIN_SCORE, &mut self.black_winning);
        count(white_value.abs() <= DRAW_SCORE, &mut self.level);
        if self.white_winning >= WIN_PLIES {
            Some((GameResult::WhiteWin, Ending::Won))
        } else if self.black_winning >= WIN_PLIES {
            Some((GameResult::BlackWin, Ending::Won))
        } else if self.level >= DRAW_PLIES && ply >= DRAW_FROM_PLY {
            Some((GameResult::Draw, Ending::Level))
        } else if ply >= MAX_PLIES {
            Some((GameResult::Draw, Ending::Long))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_a_run_of_plies() {
        let mut adjudicator = Adjudicator::default();
        for ply in 1..WIN_PLIES {
            assert_eq!(adjudicator.after(WIN_SCORE, ply), None);
        }
        assert_eq!(adjudicator.after(WIN_SCORE - 1, WIN_PLIES), None, "a ply below the bar breaks the run");
        for ply in 1..WIN_PLIES {
            assert_eq!(adjudicator.after(-WIN_SCORE, WIN_PLIES + ply), None);
        }
        assert_eq!(adjudicator.after(-WIN_SCORE, 2 * WIN_PLIES), Some((GameResult::BlackWin, Ending::Won)));

        let mut level = Adjudicator::default();
        for ply in 1..=DRAW_PLIES {
            assert_eq!(level.after(0, ply), None, "too early for a draw");
        }
        assert_eq!(level.after(DRAW_SCORE, DRAW_FROM_PLY), Some((GameResult::Draw, Ending::Level)));
        assert_eq!(Adjudicator::default().after(500, MAX_PLIES), Some((GameResult::Draw, Ending::Long)));
    }

    /// A searcher that plays a capture when there is one, and otherwise a quiet move,
    /// spending `SPENT` nodes a search; it records each search's root and limits.
    #[derive(Default)]
    struct Recorder {
        searches: Vec<(Chess, Limits)>,
    }

    const SPENT: u64 = 70;

    impl Searcher for Recorder {
        fn search(&mut self, job: &SearchJob, _: &mut dyn crate::search::Reporter) -> crate::search::SearchOutcome {
            self.searches.push((job.root.clone(), job.limits.clone()));
            let moves = job.root.legal_moves();
            let best = moves.iter().find(|m| is_tactical(**m)).or(moves.first()).copied();
            let mut report = crate::search::Report::new(0, 1, best.into_iter().collect());
            report.nodes = SPENT;
            crate::search::SearchOutcome { best, ponder: None, report }
        }
        fn new_game(&mut self) {}
        fn resize(&mut self, _: usize) -> Result<(), String> {
            Ok(())
        }
        fn configure(&mut self, _: &crate::search::SearchSettings) -> Vec<String> {
            Vec::new()
        }
        fn set_tablebases(&mut self, _: Option<Syzygy>) {}
        fn set_threads(&mut self, _: usize) -> Result<Option<String>, String> {
            Ok(None)
        }
    }

    #[test]
    fn each_ply_is_searched_once_within_the_limits_its_position_calls_for() {
        let limits = NodeLimits { soft: 4_000, hard: 16_000 };
        let mut recorder = Recorder::default();
        let (game, cost) = play_game(&mut recorder, None, limits, 5);
        assert_eq!(recorder.searches.len(), game.plies.len(), "one search a ply");
        let mut pos = game.start.clone();
        let (mut tactical, mut quiet, mut in_check) = (0, 0, 0);
        for ((root, searched), &(code, _)) in recorder.searches.iter().zip(&game.plies) {
            assert_eq!(root, &pos);
            let m = crate::moves::decode(&pos, code).unwrap();
            let (soft, hard, tactical_soft) = (searched.soft_nodes, searched.nodes, searched.tactical_soft_nodes);
            if pos.is_check() {
                in_check += 1;
                let quarter = (Some(limits.soft / CHECK_LIMIT_DIVISOR), Some(limits.hard / CHECK_LIMIT_DIVISOR));
                assert_eq!((soft, hard, tactical_soft), (quarter.0, quarter.1, None), "in check: a quarter");
            } else {
                let expected = (Some(limits.soft), Some(limits.hard), Some(limits.soft / TACTICAL_LIMIT_DIVISOR));
                assert_eq!((soft, hard, tactical_soft), expected, "out of check: the full limits");
                if is_tactical(m) { tactical += 1 } else { quiet += 1 }
            }
            pos.play_unchecked(m);
        }
        assert!(tactical > 0 && quiet > 0 && in_check > 0, "{tactical} tactical, {quiet} quiet, {in_check} in check");
        assert_eq!((cost.search.tactical_searches, cost.search.check_searches), (tactical, in_check));
        assert_eq!(cost.search.tactical_nodes, tactical * SPENT);
    }

    #[test]
    fn the_rules_end_games() {
        let mated: Chess = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(result_by_rule(&mated, &[]), Some(GameResult::BlackWin));
        let bare: Chess = "8/8/4k3/8/8/3K4/8/8 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        assert_eq!(result_by_rule(&bare, &[]), Some(GameResult::Draw));
        assert_eq!(result_by_rule(&Chess::default(), &[]), None);
    }
}
