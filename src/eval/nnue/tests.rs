//! The network's evaluation against a plain reference, and incremental updates against
//! refreshes along random games.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

use std::sync::Arc;

use super::testing::{self, random_move, random_network};
use super::*;
use crate::random::SplitMix;

/// The evaluation written out plainly from the file's weights, in wide integers.
fn reference(net: &QuantisedNet, pos: &Chess) -> i32 {
    let hidden = net.hidden();
    let accumulator = |perspective: Color| -> Vec<i64> {
        // The board as the perspective sees it: upside down for Black, and mirrored from a
        // to h when the input buckets mirror and its king stands on the e to h files.
        let king = pos.board().king_of(perspective).unwrap();
        let ranks = if perspective == Color::Black { 56 } else { 0 };
        let files = if net.input_buckets.mirrored() && king.file() >= shakmaty::File::E { 7 } else { 0 };
        let seen = |square: shakmaty::Square| usize::from(square as u8 ^ ranks ^ files);
        let bucket = usize::from(net.input_buckets.map()[seen(king)]);
        let mut acc: Vec<i64> = net.feature_bias.iter().map(|&b| i64::from(b)).collect();
        for (square, piece) in pos.board() {
            let relative = usize::from(piece.color != perspective) * 6 + piece.role as usize - 1;
            let row = (bucket * INPUTS + relative * 64 + seen(square)) * hidden;
            for (lane, value) in acc.iter_mut().enumerate() {
                *value += i64::from(net.feature_weights[row + lane]);
            }
        }
        acc
    };
    let (ours, theirs) = (accumulator(pos.turn()), accumulator(!pos.turn()));
    let activated = |value: i64| value.clamp(0, i64::from(QA)).pow(2);
    // Buckets by piece count, written out: 2 to 32 pieces in near-equal parts.
    let pieces = pos.board().occupied().count();
    let bucket = (0..net.buckets()).rev().find(|&b| (pieces - 2) * net.buckets() >= b * 31).unwrap();
    let weights = &net.output_weights[bucket * 2 * hidden..];
    let sum: i64 = (0..hidden)
        .map(|lane| {
            activated(ours[lane]) * i64::from(weights[lane])
                + activated(theirs[lane]) * i64::from(weights[hidden + lane])
        })
        .sum();
    ((sum / i64::from(QA) + i64::from(net.output_bias[bucket])) * i64::from(EVAL_SCALE) / i64::from(QA * QB)) as i32
}

fn position(fen: &str, mode: CastlingMode) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
}

/// Positions after random moves from the start, `count` of them.
fn random_positions(count: usize, seed: u64) -> Vec<Chess> {
    let mut rng = SplitMix::new(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut pos = Chess::default();
        for _ in 0..rng.below(120) {
            let Some(m) = random_move(&pos, &mut rng) else { break };
            pos.play_unchecked(m);
        }
        positions.push(pos);
    }
    positions
}

/// A random network of each kind of input buckets ([`testing::INPUT_BUCKET_LAYOUTS`]).
fn networks_of_each_layout() -> Vec<Network> {
    testing::INPUT_BUCKET_LAYOUTS
        .iter()
        .map(|layout| {
            let wanted = InputBuckets::parse(layout).unwrap();
            (1..).map(random_network).find(|net| net.input_buckets() == &wanted).unwrap()
        })
        .collect()
}

#[test]
fn the_evaluation_is_the_plain_formula() {
    for (seed, net) in (1..).zip(networks_of_each_layout()) {
        let weights = net.to_quantised();
        for pos in random_positions(60, seed) {
            assert_eq!(
                evaluate_position(&net, &pos),
                reference(&weights, &pos),
                "{}",
                Fen::from_position(&pos, EnPassantMode::Legal)
            );
        }
    }
}

#[test]
fn the_evaluation_does_not_depend_on_which_colour_is_which() {
    for net in networks_of_each_layout() {
        for pos in random_positions(60, 8) {
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.mirror();
            let mirrored: Chess = setup.position(CastlingMode::Standard).unwrap();
            assert_eq!(evaluate_position(&net, &pos), evaluate_position(&net, &mirrored));
        }
    }
}

/// How often each kind of move was played while checking the accumulators.
#[derive(Default, Debug)]
struct Played {
    castles: usize,
    chess960_castles: usize,
    en_passant: usize,
    promotions: usize,
    capturing_promotions: usize,
}

#[test]
fn incremental_updates_equal_a_refresh_along_random_games() {
    let starts = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", CastlingMode::Standard),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", CastlingMode::Standard),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", CastlingMode::Chess960),
        // Castling on the king's side swaps king and rook (f1, g1).
        ("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1", CastlingMode::Chess960),
    ];
    const PLIES: usize = 150;
    let mut rng = SplitMix::new(12);
    let mut played = Played::default();
    for net in networks_of_each_layout().into_iter().map(Arc::new) {
        let mut stack = AccumulatorStack::new(net.clone(), PLIES + 1);
        let mut rebuilt = 0;
        for (fen, mode) in starts {
            for _ in 0..12 {
                let mut pos = position(fen, mode);
                let mut acc = Accumulator::new(&net, pos.board());
                stack.start_at(pos.board());
                for ply in 0..PLIES {
                    // A null move now and then: the next ply's accumulator is this one's.
                    if !pos.is_check() && rng.below(10) == 0 {
                        stack.push_null_move(ply);
                        pos = pos.swap_turn().expect("not in check");
                        continue;
                    }
                    let Some(m) = random_move(&pos, &mut rng) else { break };
                    let changes = move_changes(&pos, m);
                    stack.push_move(ply, &pos, m);
                    count(&mut played, m, mode);
                    pos.play_unchecked(m);
                    let fresh = Accumulator::new(&net, pos.board());
                    assert_eq!(stack.accumulator(ply + 1), &fresh, "{fen}: the stack after {m:?}");
                    // A king move into another input bucket changes every input of its side:
                    // the stack rebuilt that accumulator, and an update would be wrong.
                    if Color::ALL.iter().any(|&side| fresh.view(side) != acc.view(side)) {
                        rebuilt += 1;
                        acc = fresh;
                        continue;
                    }
                    let before = acc.clone();
                    if ply % 2 == 0 {
                        acc.apply(&net, changes.added(), changes.removed());
                    } else {
                        changes.removed().iter().for_each(|f| acc.remove(&net, f.piece, f.square));
                        changes.added().iter().for_each(|f| acc.add(&net, f.piece, f.square));
                    }
                    assert_eq!(acc, fresh, "{fen}: after {m:?}");
                    let mut undone = acc.clone();
                    undone.apply(&net, changes.removed(), changes.added());
                    assert_eq!(undone, before, "{fen}: undoing {m:?}");
                }
            }
        }
        assert_eq!(rebuilt > 0, !net.input_buckets().is_none(), "{}: {rebuilt} rebuilt", net.input_buckets().spec());
    }
    assert!(
        played.castles > 0
            && played.chess960_castles > 0
            && played.en_passant > 0
            && played.promotions > 0
            && played.capturing_promotions > 0,
        "every kind of move is played: {played:?}"
    );
}

fn count(played: &mut Played, m: Move, mode: CastlingMode) {
    match m {
        Move::Castle { .. } if mode == CastlingMode::Chess960 => played.chess960_castles += 1,
        Move::Castle { .. } => played.castles += 1,
        Move::EnPassant { .. } => played.en_passant += 1,
        Move::Normal { promotion: Some(_), capture: Some(_), .. } => played.capturing_promotions += 1,
        Move::Normal { promotion: Some(_), .. } => played.promotions += 1,
        _ => {}
    }
}

/// Nanoseconds this thread has run on a CPU (Linux: the machine may be busy with other
/// work), wall-clock time elsewhere. Updated at scheduler ticks, so only long spans count.
fn cpu_time() -> u128 {
    let on_cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok());
    on_cpu.unwrap_or_else(|| std::time::UNIX_EPOCH.elapsed().map_or(0, |t| t.as_nanos()))
}

/// CPU nanoseconds per operation of `pass`, which does `operations` of them, over about a
/// second of repeated passes.
fn nanoseconds_each(operations: usize, mut pass: impl FnMut()) -> f64 {
    const SPAN: u128 = 1_000_000_000;
    const PASSES: usize = 1000;
    let start = cpu_time();
    let mut done = 0;
    while cpu_time() - start < SPAN {
        (0..PASSES).for_each(|_| pass());
        done += PASSES * operations;
    }
    (cpu_time() - start) as f64 / done as f64
}

/// `cargo test --release speed_of_the_network -- --ignored --nocapture`: nanoseconds per
/// refresh, per quiet-move update (one piece off, one on) and per evaluation, with and
/// without AVX2.
#[test]
#[ignore]
fn speed_of_the_network() {
    let net = random_network(21);
    let positions = random_positions(64, 22);
    let quiet: Vec<(Accumulator, Changes, Chess)> = positions
        .iter()
        .filter_map(|pos| {
            let m = pos.legal_moves().into_iter().find(|m| !m.is_capture() && !m.is_promotion() && !m.is_castle())?;
            Some((Accumulator::new(&net, pos.board()), move_changes(pos, m), pos.clone()))
        })
        .collect();
    for portable in [false, true] {
        kernels::PORTABLE_ONLY.with(|flag| flag.set(portable));
        let mut acc = Accumulator::new(&net, positions[0].board());
        let refresh = nanoseconds_each(positions.len(), || {
            positions.iter().for_each(|pos| acc.refresh(&net, std::hint::black_box(pos.board())))
        });
        let mut accumulators: Vec<Accumulator> = quiet.iter().map(|q| q.0.clone()).collect();
        let update = nanoseconds_each(2 * quiet.len(), || {
            for (acc, (_, changes, _)) in accumulators.iter_mut().zip(&quiet) {
                acc.apply(&net, changes.added(), changes.removed());
                acc.apply(&net, changes.removed(), changes.added());
            }
        });
        let mut sum = 0i64;
        let evaluation = nanoseconds_each(quiet.len(), || {
            for (acc, _, pos) in &quiet {
                sum += i64::from(evaluate(&net, std::hint::black_box(acc), pos));
            }
        });
        std::hint::black_box((acc, accumulators, sum));
        let path = if portable { "portable (SSE2)" } else { "dispatched (AVX2 where present)" };
        println!("{path}: refresh {refresh:.1} ns, update {update:.1} ns, evaluation {evaluation:.1} ns");
    }
}
