//! The alpha-beta searcher against independent references written here from shakmaty
//! alone: a plain minimax (Edwards & Hart's check that alpha-beta returns the minimax
//! value), a reference quiescence search, and hand-made draws by repetition, the fifty-move
//! rule and insufficient material (the mate suites are in `mates`). Every search has
//! a fixed depth, so results do not depend on the machine.

use std::time::Duration;

use crate::common::Harrier;
use crate::common::searching::*;
use harrier::engine::game::Game;
use harrier::eval::hce::evaluate;
use harrier::search::alphabeta::presets::{Features, Full, Plain, Preset};
use harrier::search::probe::ProbeLimits;
use harrier::search::{INFINITY, Score, SearchOutcome, Searcher, mated_in};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

// ---------------------------------------------------------------------------------------
// Alpha-beta equals minimax
// ---------------------------------------------------------------------------------------

/// A tiny deterministic PRNG (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// How often each draw rule decided a node of the reference minimax.
#[derive(Default, Debug)]
struct DrawStats {
    fifty: u64,
    insufficient: u64,
    repetition: u64,
}

/// The engine's draw rules, restated: the fifty-move rule (unless the move that reached
/// 100 half-moves mated), insufficient material, and repetition of a position with the
/// same side to move within the reversible half-moves: any repetition of a position
/// reached after the root, or a third occurrence counting the game's earlier positions
/// and the root. `keys` ends with the current position; `root` is the root's index.
fn drawn_by_rule(pos: &Chess, keys: &[u64], root: usize, stats: &mut DrawStats) -> bool {
    if pos.halfmoves() >= 100 {
        if pos.is_checkmate() {
            return false;
        }
        stats.fifty += 1;
        return true;
    }
    if pos.is_insufficient_material() {
        stats.insufficient += 1;
        return true;
    }
    let current = keys.len() - 1;
    let oldest = current.saturating_sub(pos.halfmoves() as usize);
    let same_side = (oldest..current.saturating_sub(3)).rev().filter(|&i| (current - i).is_multiple_of(2));
    let matches: Vec<usize> = same_side.filter(|&i| keys[i] == keys[current]).collect();
    if matches.iter().any(|&i| i > root) || matches.len() >= 2 {
        stats.repetition += 1;
        return true;
    }
    false
}

/// Plain negamax over every legal move: leaves are the static evaluation, positions without
/// moves are mated (in check) or stalemate, and the draw rules apply below the root.
fn minimax(pos: &Chess, depth: u32, ply: usize, keys: &mut Vec<u64>, root: usize, stats: &mut DrawStats) -> i32 {
    if depth == 0 {
        return evaluate(pos);
    }
    if ply > 0 && drawn_by_rule(pos, keys, root, stats) {
        return 0;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { mated_in(ply) } else { 0 };
    }
    let mut best = -INFINITY;
    for m in moves {
        let child = play(pos, m);
        keys.push(key(&child));
        best = best.max(-minimax(&child, depth - 1, ply + 1, keys, root, stats));
        keys.pop();
    }
    best
}

/// A search root with the keys of the game positions before it.
struct Sample {
    root: Chess,
    history: Vec<u64>,
}

/// Random games from `start`: `walks` walks of `plies` half-moves, keeping every position
/// from `skip` half-moves on. A third of the moves undo the side's previous move when
/// they can, so positions repeat often.
fn random_samples(start: &str, walks: usize, plies: usize, skip: usize, rng: &mut Rng) -> Vec<Sample> {
    let mut samples = Vec::new();
    for _ in 0..walks {
        let mut pos = chess(start);
        let mut history: Vec<u64> = Vec::new();
        let mut played: Vec<Move> = Vec::new();
        for ply in 0..plies {
            if ply >= skip {
                samples.push(Sample { root: pos.clone(), history: history.clone() });
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let back = played.len().checked_sub(2).map(|i| played[i]).and_then(|m| {
                let Move::Normal { role, from, to, capture: None, promotion: None } = m else { return None };
                moves.iter().copied().find(|r| {
                    matches!(*r, Move::Normal { role: r_role, from: r_from, to: r_to, capture: None, .. }
                        if r_role == role && r_from == to && r_to == from)
                })
            });
            let m = match back {
                Some(back) if rng.below(3) == 0 => back,
                _ => moves[rng.below(moves.len())],
            };
            history.push(key(&pos));
            played.push(m);
            pos.play_unchecked(m);
        }
    }
    samples
}

/// Starting positions for the random games: openings, middlegames with tactics, and
/// endgames whose clocks are near 100 half-moves, whose captures leave insufficient
/// material, or whose pieces shuffle back and forth.
const WALK_STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/2R5/8/4K3/8 w - - 90 80",
    "8/3k4/8/4r3/8/2Q5/3K4/8 w - - 88 70",
    "8/8/3k4/8/3p4/8/3N4/4K3 w - - 80 60",
    "8/8/2b5/3k4/8/2NK4/8/8 b - - 85 90",
];

/// Compares the engine's plain search with the reference at `depth` on every sample, and
/// returns the draw statistics and the plain search's node count.
fn compare_with_minimax(samples: &[Sample], depth: u32) -> (DrawStats, u64) {
    let mut stats = DrawStats::default();
    let mut nodes = 0;
    let mut s = searcher();
    for sample in samples {
        let outcome = search_with::<Plain>(&mut s, &sample.root, &sample.history, depth);
        nodes += s.nodes();
        let mut keys = sample.history.clone();
        keys.push(key(&sample.root));
        let expected = minimax(&sample.root, depth, 0, &mut keys, sample.history.len(), &mut stats);
        let fen = Fen::from_position(&sample.root, EnPassantMode::Legal);
        assert_eq!(
            outcome.report.score,
            Score::from_value(expected),
            "depth {depth}, {fen}, history of {} positions",
            sample.history.len()
        );
        if let Some(best) = outcome.best {
            // The chosen move must be worth the root value.
            let child = play(&sample.root, best);
            let mut keys = keys.clone();
            keys.push(key(&child));
            let value = -minimax(&child, depth - 1, 1, &mut keys, sample.history.len(), &mut DrawStats::default());
            assert_eq!(value, expected, "depth {depth}, {fen}: {} is not a best move", uci(best));
        }
    }
    (stats, nodes)
}

fn samples_for(seed: u64, walks: usize, plies: usize, skip: usize, every: usize) -> Vec<Sample> {
    let mut rng = Rng(seed);
    let mut samples = Vec::new();
    for start in WALK_STARTS {
        let all = random_samples(start, walks, plies, skip, &mut rng);
        samples.extend(all.into_iter().step_by(every));
    }
    samples
}

/// A search of `root` to `depth` with the full preset and with the plain one, each named.
fn full_and_plain(root: &Chess, history: &[u64], depth: u32) -> [(&'static str, SearchOutcome); 2] {
    [("full", search::<Full>(root, history, depth)), ("plain", search::<Plain>(root, history, depth))]
}

/// The full preset without pruning and without the filters of quiescence that depend on
/// the window or on exchanges: its quiescence is exact.
struct FullWithoutPruning;

impl Preset for FullWithoutPruning {
    const FEATURES: Features =
        Features { pruning: false, quiescence_see: false, delta_pruning: false, correction: false, ..Features::FULL };
}

/// Plain alpha-beta with quiescence at the leaves.
struct PlainWithQuiescence;

impl Preset for PlainWithQuiescence {
    const FEATURES: Features = Features { quiescence: true, ..Features::PLAIN };
}

/// [`PlainWithQuiescence`] with the transposition table.
struct PlainWithTable;

impl Preset for PlainWithTable {
    const FEATURES: Features = Features { transposition_table: true, quiescence: true, ..Features::PLAIN };
}

#[test]
fn alpha_beta_equals_minimax() {
    // Depth 3 on many positions: the interior nodes (plies 1 and 2) see the fifty-move
    // rule, insufficient material and repetitions of the game's earlier positions.
    let samples = samples_for(0x4841_5252_4945_5221, 2, 24, 4, 4);
    assert!(samples.len() >= 80, "{} samples", samples.len());
    let (stats, _) = compare_with_minimax(&samples, 3);
    assert!(stats.fifty > 0 && stats.insufficient > 0 && stats.repetition > 0, "{stats:?}");

    // Depth 4 on fewer: more interior nodes (plies 1 to 3) meet the rules.
    let samples = samples_for(0x5345_4152_4348_0004, 1, 16, 6, 5);
    assert!(samples.len() >= 20, "{} samples", samples.len());
    let (stats, _) = compare_with_minimax(&samples, 4);
    assert!(stats.repetition > 0, "{stats:?}");
}

#[test]
fn alpha_beta_equals_minimax_in_endgames_at_depth_5() {
    // Depth 5 in endgames where pieces shuffle: the node at ply 4 may repeat the root (its
    // second occurrence, a draw only when the root occurred before in the game), and the
    // interior nodes may repeat the game's earlier positions.
    let mut rng = Rng(0x454E_4447_414D_4535);
    let mut samples = Vec::new();
    for start in [
        "8/8/4k3/8/2R5/8/4K3/8 w - - 0 80",
        "8/8/4k3/8/2R5/8/4K3/8 w - - 90 80",
        "8/3k4/8/4r3/8/2Q5/3K4/8 w - - 0 70",
        "8/8/2b5/3k4/8/2NK4/8/8 b - - 0 90",
    ] {
        samples.extend(random_samples(start, 1, 14, 8, &mut rng).into_iter().step_by(3));
    }
    assert!(samples.len() >= 8, "{} samples", samples.len());
    let (stats, _) = compare_with_minimax(&samples, 5);
    assert!(stats.repetition > 0 && stats.fifty > 0, "{stats:?}");
}

#[test]
fn full_search_visits_fewer_nodes_than_plain() {
    let samples = samples_for(0x4E4F_4445_5321_0001, 1, 20, 8, 6);
    let mut full = searcher();
    let mut plain = searcher();
    for depth in [3, 4, 5] {
        let (mut full_nodes, mut plain_nodes) = (0u64, 0u64);
        for sample in samples.iter().filter(|s| !s.root.legal_moves().is_empty()) {
            search_with::<Full>(&mut full, &sample.root, &sample.history, depth);
            full_nodes += full.nodes();
            search_with::<Plain>(&mut plain, &sample.root, &sample.history, depth);
            plain_nodes += plain.nodes();
        }
        // Pruning, the table and quiescence must pay for themselves, more so with depth.
        let factor = if depth >= 5 { 4 } else { 1 };
        assert!(full_nodes * factor < plain_nodes, "depth {depth}: full {full_nodes} nodes, plain {plain_nodes}");
    }
}

// ---------------------------------------------------------------------------------------
// Quiescence with the transposition table
// ---------------------------------------------------------------------------------------

/// Without pruning, the quiescence search is exact whatever its table holds: cold or
/// warm, after null-window searches have stored bounds, it returns the reference value,
/// and its null-window answers are bounds on the right side of it.
#[test]
fn quiescence_with_the_table_agrees_with_the_reference() {
    let mut s = searcher();
    for fen in harrier::bench::POSITIONS {
        let pos = chess(fen);
        let exact = reference_quiescence(&pos, 0, -INFINITY, INFINITY, false);
        s.new_game();
        for _ in 0..2 {
            assert_eq!(
                s.probe_with::<FullWithoutPruning>(&pos, &[], 0, (-INFINITY, INFINITY), ProbeLimits::default()),
                Some(exact),
                "{fen}"
            );
        }
        for delta in [-60, -1, 0, 1, 60] {
            let beta = exact + delta;
            let value =
                s.probe_with::<FullWithoutPruning>(&pos, &[], 0, (beta - 1, beta), ProbeLimits::default()).unwrap();
            if exact >= beta {
                assert!(value >= beta && value <= exact, "{fen}: beta {beta}, value {value}, exact {exact}");
            } else {
                assert!(value < beta && value >= exact, "{fen}: beta {beta}, value {value}, exact {exact}");
            }
        }
        assert_eq!(
            s.probe_with::<FullWithoutPruning>(&pos, &[], 0, (-INFINITY, INFINITY), ProbeLimits::default()),
            Some(exact),
            "{fen}: after the bounds"
        );
    }
}

/// The table, quiescence entries included, changes the work and not the answer of a plain
/// fixed-depth search with quiescence: the same values with and without it.
#[test]
fn the_table_keeps_plain_search_values() {
    for fen in harrier::bench::POSITIONS.iter().step_by(4) {
        let pos = chess(fen);
        let a = search::<PlainWithTable>(&pos, &[], 3).report.score;
        let b = search::<PlainWithQuiescence>(&pos, &[], 3).report.score;
        assert_eq!(a, b, "{fen}");
    }
}

// ---------------------------------------------------------------------------------------
// Draws
// ---------------------------------------------------------------------------------------

/// White (to move) can check forever so that every line repeats a position within
/// `plies` half-moves: a check every white move, whatever Black replies.
fn forces_perpetual(pos: &Chess, path: &mut Vec<u64>, plies: u32) -> bool {
    if path[..path.len() - 1].iter().rev().skip(1).step_by(2).any(|&k| k == key(pos)) {
        return true;
    }
    if plies == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|&m| {
        let child = play(pos, m);
        if !child.is_check() || child.is_checkmate() {
            return false;
        }
        path.push(key(&child));
        let holds = child.legal_moves().iter().all(|&r| {
            let next = play(&child, r);
            path.push(key(&next));
            let holds = forces_perpetual(&next, path, plies - 2);
            path.pop();
            holds
        });
        path.pop();
        holds
    })
}

fn centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) => panic!("expected centipawns, got mate {n}"),
    }
}

#[test]
fn perpetual_check_a_queen_down_is_a_draw() {
    // White is two queens against one; Qh5+ Kg8 Qe8+ Kh7 Qh5+ repeats for ever.
    let drawn = chess("8/6pk/8/8/8/8/qq4PP/3Q3K w - - 0 1");
    assert!(forces_perpetual(&drawn, &mut vec![key(&drawn)], 8));
    // Without the g7 pawn the king walks out (Kg7) and White is simply lost.
    let lost = chess("8/7k/8/8/8/8/qq4PP/3Q3K w - - 0 1");
    assert!(!forces_perpetual(&lost, &mut vec![key(&lost)], 8));

    for (preset, outcome) in full_and_plain(&drawn, &[], 8) {
        assert_eq!(outcome.report.score, Score::Centipawns(0), "{preset}");
        assert_eq!(outcome.best.map(uci).as_deref(), Some("d1h5"), "{preset}");
    }
    let outcome = search::<Full>(&lost, &[], 8);
    assert!(centipawns(outcome.report.score) < -300, "{:?}", outcome.report.score);

    // The same with colours reversed, Black to move.
    let mirrored = chess("3q3k/QQ4pp/8/8/8/8/6PK/8 b - - 0 1");
    let outcome = search::<Full>(&mirrored, &[], 8);
    assert_eq!(outcome.report.score, Score::Centipawns(0));
    assert_eq!(outcome.best.map(uci).as_deref(), Some("d8h4"));
}

#[test]
fn repeating_the_root_once_is_not_yet_a_draw() {
    // Black to move must play Kg8; after Qe8+ Kh7 Qh5+ the root position is back, which
    // counts as its second occurrence only, so the plain search at depth 5 scores the
    // leaf after Kg8 (two queens up). At depth 6 it reaches Kg8 again, a repetition of a
    // position after the root: a draw.
    let root = chess("8/6pk/8/7Q/8/8/qq4PP/7K b - - 1 1");
    let outcome = search::<Plain>(&root, &[], 5);
    assert!(centipawns(outcome.report.score) > 300, "{:?}", outcome.report.score);
    let outcome = search::<Plain>(&root, &[], 6);
    assert_eq!(outcome.report.score, Score::Centipawns(0));
    // When the root had occurred before in the game, returning to it is its third
    // occurrence: a draw at depth 5 already.
    let again = game("8/6pk/8/7Q/8/8/qq4PP/7K b - - 1 1", &["h7g8", "h5e8", "g8h7", "e8h5"]);
    assert_eq!(key(again.position()), key(&root));
    let outcome = search::<Plain>(again.position(), again.earlier_keys(), 5);
    assert_eq!(outcome.report.score, Score::Centipawns(0));
}

#[test]
fn stalemate_saves_the_lost_side() {
    // Qg7+ Kxg7 leaves White without a move: stalemate, where anything else loses to the
    // extra rook.
    let pos = chess("1q1r3k/8/8/8/6Q1/p7/P7/K7 w - - 0 1");
    for depth in [3, 5] {
        for (preset, outcome) in full_and_plain(&pos, &[], depth) {
            assert_eq!(outcome.report.score, Score::Centipawns(0), "depth {depth}, {preset}");
        }
    }
    // Without the a3 pawn White's a-pawn can move, so there is no stalemate.
    let outcome = search::<Full>(&chess("1q1r3k/8/8/8/6Q1/8/P7/K7 w - - 0 1"), &[], 5);
    assert!(centipawns(outcome.report.score) < -300, "{:?}", outcome.report.score);
}

const ESCAPABLE: &str = "8/7k/8/8/8/8/qq4PP/3Q3K w - - 0 1";
/// Qh5+ Kg8 Qe8+ Kh7, twice: the position after Qh5+ has occurred twice.
const TWICE: &[&str] = &["d1h5", "h7g8", "h5e8", "g8h7", "e8h5", "h7g8", "h5e8", "g8h7"];

fn game(fen: &str, moves: &[&str]) -> Game {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    Game::from_command(Some(fen), &moves, CastlingMode::Standard, &mut Vec::new()).expect("a legal game")
}

#[test]
fn threefold_repetition_from_the_game_history() {
    // After the moves, Qh5+ would make a third occurrence: a draw, though Black could
    // escape with Kg7 without the history.
    let after = game(ESCAPABLE, TWICE);
    assert_eq!(after.earlier_keys().len(), TWICE.len());
    let outcome = search::<Full>(after.position(), after.earlier_keys(), 8);
    assert_eq!(outcome.report.score, Score::Centipawns(0));
    assert_eq!(outcome.best.map(uci).as_deref(), Some("e8h5"));

    // The very same position with a history where Qh5+ repeats only once: no draw yet.
    let once = game(ESCAPABLE, &TWICE[..4]);
    assert_eq!(key(once.position()), key(after.position()));
    let outcome = search::<Full>(once.position(), once.earlier_keys(), 8);
    assert!(centipawns(outcome.report.score) < -300, "{:?}", outcome.report.score);
    // And without any history.
    let outcome = search::<Full>(after.position(), &[], 8);
    assert!(centipawns(outcome.report.score) < -300, "{:?}", outcome.report.score);
    // The half-move clock bounds the look-back: with the clock at 0 (as after a pawn move
    // or a capture) the earlier positions cannot be repeated, so the history is ignored.
    let fen = Fen::from_position(after.position(), EnPassantMode::Legal).to_string();
    let fields: Vec<&str> = fen.split(' ').collect();
    let reset = chess(&format!("{} 0 {}", fields[..4].join(" "), fields[5]));
    let outcome = search::<Full>(&reset, after.earlier_keys(), 8);
    assert!(centipawns(outcome.report.score) < -300, "{:?}", outcome.report.score);
}

/// Runs a UCI session through the shared harness and returns the `info ... score` text and
/// the move of the first `bestmove` (within 60 s).
fn uci_search(commands: &str) -> (String, String) {
    let mut engine = Harrier::spawn();
    for command in commands.lines() {
        engine.send(command);
    }
    let lines = engine.read_until("bestmove", Duration::from_secs(60));
    let last_score = lines
        .iter()
        .rev()
        .find_map(|line| line.find(" score ").map(|at| line[at + 7..].split(' ').take(2).collect::<Vec<_>>().join(" ")))
        .unwrap_or_default();
    let best = lines.last().and_then(|l| l.split(' ').nth(1)).unwrap_or_default().to_string();
    (last_score, best)
}

#[test]
fn uci_position_moves_keep_the_repetition_history() {
    let drawn = uci_search(&format!("position fen {ESCAPABLE} moves {}\ngo depth 8\n", TWICE.join(" ")));
    assert_eq!(drawn, ("cp 0".to_string(), "e8h5".to_string()));
    let (score, _) = uci_search(&format!("position fen {ESCAPABLE} moves {}\ngo depth 8\n", TWICE[..4].join(" ")));
    let cp: i32 = score.strip_prefix("cp ").unwrap_or_else(|| panic!("{score}")).parse().unwrap();
    assert!(cp < -300, "{score}");
}

#[test]
fn fifty_move_rule() {
    // Two queens down, but any quiet move is the 100th half-move: a draw.
    let lost = "k2qq3/8/8/8/8/2N5/8/6K1 w - - 0 150";
    let saved = "k2qq3/8/8/8/8/2N5/8/6K1 w - - 99 150";
    for (preset, outcome) in full_and_plain(&chess(saved), &[], 6) {
        assert_eq!(outcome.report.score, Score::Centipawns(0), "{preset}");
    }
    let outcome = search::<Full>(&chess(lost), &[], 6);
    assert!(matches!(outcome.report.score, Score::Mate(n) if n < 0) || centipawns(outcome.report.score) < -1000);

    // The winning side must reset the clock: every rook or king move draws, a pawn move
    // keeps the win.
    let outcome = search::<Full>(&chess("7k/8/8/8/8/8/P7/K5R1 w - - 99 150"), &[], 6);
    assert!(centipawns(outcome.report.score) > 300, "{:?}", outcome.report.score);
    assert_eq!(outcome.best.map(|m| m.role()), Some(Role::Pawn), "{:?}", outcome.best.map(uci));

    // A mate on the 100th half-move still counts...
    let outcome = search::<Full>(&chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 150"), &[], 4);
    assert_eq!((outcome.report.score, outcome.best.map(uci)), (Score::Mate(1), Some("a1a8".to_string())));
    // ...but a mate in 2 that needs the 101st does not: Re2 Ka4 Ra2# from 97 half-moves,
    // a draw from 98.
    let outcome = search::<Full>(&chess("8/8/8/8/8/k7/8/1R2R1K1 w - - 97 150"), &[], 6);
    assert_eq!((outcome.report.score, outcome.best.map(uci)), (Score::Mate(2), Some("e1e2".to_string())));
    for (preset, outcome) in full_and_plain(&chess("8/8/8/8/8/k7/8/1R2R1K1 w - - 98 150"), &[], 6) {
        assert_eq!(outcome.report.score, Score::Centipawns(0), "{preset}");
    }
}

#[test]
fn insufficient_material() {
    // Nxc2 leaves king and knight against king: a draw, where anything else lets the pawn
    // queen.
    let pos = chess("k7/8/8/8/8/4N3/2p5/7K w - - 0 1");
    for (preset, outcome) in full_and_plain(&pos, &[], 5) {
        assert_eq!(outcome.report.score, Score::Centipawns(0), "{preset}");
        assert_eq!(outcome.best.map(uci).as_deref(), Some("e3c2"), "{preset}");
    }
    // With a pawn left for White, taking is winning, not a draw.
    let outcome = search::<Full>(&chess("k7/8/8/8/8/4N3/2p4P/7K w - - 0 1"), &[], 5);
    assert!(centipawns(outcome.report.score) > 100, "{:?}", outcome.report.score);
}

#[test]
fn positions_without_moves() {
    // Checkmated and stalemated roots: no move, and the score says why.
    let mated = search::<Full>(&chess("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), &[], 3);
    assert_eq!((mated.best, mated.report.score), (None, Score::Mate(0)));
    let stalemate = search::<Full>(&chess("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), &[], 3);
    assert_eq!((stalemate.best, stalemate.report.score), (None, Score::Centipawns(0)));
}

// ---------------------------------------------------------------------------------------
// Node limits
// ---------------------------------------------------------------------------------------

/// A search of `root` within node `limits`, from a fresh start.
fn search_within(root: &Chess, limits: harrier::search::Limits) -> SearchOutcome {
    let mut s = searcher();
    s.new_game();
    let job = harrier::search::SearchJob {
        root: root.clone(),
        history: Vec::new(),
        limits,
        move_overhead: 0,
        started: std::time::Instant::now(),
    };
    s.search(&job, &mut harrier::search::Silent)
}

#[test]
fn the_tactical_soft_limit_stops_only_a_search_that_chooses_a_capture() {
    const SOFT: u64 = 30_000;
    let limits = harrier::search::Limits { nodes: Some(10 * SOFT), soft_nodes: Some(SOFT), ..Default::default() };
    let tactical = harrier::search::Limits { tactical_soft_nodes: Some(SOFT / 20), ..limits.clone() };
    // The black queen hangs: every iteration takes it, and the search stops early.
    let hanging = chess("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1");
    let (full, cut) = (search_within(&hanging, limits.clone()), search_within(&hanging, tactical.clone()));
    assert_eq!(full.best.map(uci).as_deref(), Some("d1d5"));
    assert_eq!(cut.best, full.best);
    assert!(
        full.report.nodes >= SOFT && cut.report.nodes < SOFT,
        "{} and {} nodes",
        full.report.nodes,
        cut.report.nodes
    );
    assert!(cut.report.depth < full.report.depth);
    // Taking the defended pawn loses the queen: the best move is quiet, and the search is
    // the one without the limit, node for node.
    let defended = chess("4k3/4p3/3p4/8/8/8/8/3QK3 w - - 0 1");
    assert!(defended.legal_moves().iter().any(|m| m.is_capture()));
    let (full, with_limit) = (search_within(&defended, limits), search_within(&defended, tactical));
    assert!(!full.best.unwrap().is_capture());
    assert_eq!(
        (with_limit.best, with_limit.report.nodes, with_limit.report.depth),
        (full.best, full.report.nodes, full.report.depth)
    );
}
