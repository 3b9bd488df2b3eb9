//! The trainer against finite differences, a function it must learn, the engine's integer
//! evaluation of what it writes, and its own checkpoints.

use std::sync::OnceLock;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Role};

use super::data::Sample;
use super::gradient::{batch_gradient, mean_loss};
use super::model::{Model, WEIGHT_LIMIT};
use super::*;
use crate::eval::nnue::data::format::{GameRecord, GameResult, write_header};
use crate::eval::nnue::testing::random_move;
use crate::eval::nnue::{InputBuckets, Network, QA, QB, evaluate_position};
use crate::moves::encode;
use crate::random::SplitMix;

/// Positions after up to `max_plies` random moves from the start.
fn random_positions(count: usize, max_plies: u64, seed: u64) -> Vec<Chess> {
    let mut rng = SplitMix::new(seed);
    (0..count)
        .map(|_| {
            let mut pos = Chess::default();
            for _ in 0..rng.below(max_plies + 1) {
                let Some(m) = random_move(&pos, &mut rng) else { break };
                pos.play_unchecked(m);
            }
            pos
        })
        .collect()
}

/// Material in pawns (1, 3, 3, 5, 9), the side to move's minus the other side's.
fn material(pos: &Chess) -> i32 {
    let values = [(Role::Pawn, 1), (Role::Knight, 3), (Role::Bishop, 3), (Role::Rook, 5), (Role::Queen, 9)];
    let board = pos.board();
    let side = |color: Color| -> i32 {
        values.iter().map(|&(role, value)| value * (board.by_role(role) & board.by_color(color)).count() as i32).sum()
    };
    side(pos.turn()) - side(!pos.turn())
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
fn the_gradient_matches_finite_differences() {
    const HIDDEN_LANES: usize = 8;
    const STEP: f32 = 1e-3;
    let mut rng = SplitMix::new(31);
    // Random middlegames and some endings, so that both output buckets are used.
    let mut positions = random_positions(6, 60, 30);
    let endings = [
        "8/8/4k3/8/2R5/8/4K3/8 w - - 0 1",
        "8/5pk1/8/3B4/8/8/1P3K2/8 b - - 0 1",
        "r4rk1/pp3ppp/8/8/8/8/PP3PPP/R4RK1 w - - 0 1",
        "2r3k1/1p1n1pp1/p3p2p/8/3N4/P3P2P/1P3PP1/2R3K1 b - - 0 1",
    ];
    positions.extend(endings.map(position));
    let samples: Vec<Sample> = positions
        .iter()
        .map(|pos| Sample::new(pos, rng.range(-600, 600) as i16, rng.below(3) as f32 / 2.0).unwrap())
        .collect();
    // Larger weights than a fresh network's, so that the activations span SCReLU's curve.
    let mut model = Model::new(HIDDEN_LANES, 2, InputBuckets::NONE, 32);
    let layout = model.layout();
    model.params_mut()[..layout.output_weights.start].iter_mut().for_each(|p| *p *= 8.0);
    model.params_mut()[layout.output_weights.start..].iter_mut().for_each(|p| *p *= 4.0);
    let wdl = 0.3;
    let batch: Vec<u32> = (0..samples.len() as u32).collect();
    let mut gradients = vec![vec![0.0; layout.parameters()]];
    batch_gradient(&model, &samples, &batch, wdl, &mut gradients);
    let analytic = &gradients[0];
    // Each sample's accumulators, to skip a parameter whose nudge crosses SCReLU's kink at 1.
    let accumulators: Vec<([Vec<f32>; 2], Vec<usize>)> = samples
        .iter()
        .map(|s| {
            let mut acc = [Vec::new(), Vec::new()];
            model.forward(&model.inputs(s), &mut acc);
            let inputs = model.inputs(s);
            (
                acc,
                inputs.ours[..inputs.count].iter().chain(&inputs.theirs[..inputs.count]).map(|&f| f as usize).collect(),
            )
        })
        .collect();
    let near_kink = |row: Option<usize>, lane: usize| {
        accumulators.iter().any(|(acc, rows)| {
            row.is_none_or(|r| rows.contains(&r)) && acc.iter().any(|a| (a[lane] - 1.0).abs() < 2.0 * STEP)
        })
    };
    let first = model.inputs(&samples[0]);
    let active_rows = [first.ours[0], first.ours[5], first.theirs[9]].map(usize::from);
    // Own pawns on the first rank: never on the board.
    let idle_row = 0;
    let mut checked = Vec::new();
    for &row in active_rows.iter().chain([&idle_row]) {
        for lane in 0..HIDDEN_LANES {
            if !near_kink(Some(row), lane) {
                checked.push(("feature weight", row * HIDDEN_LANES + lane));
            }
        }
    }
    for lane in 0..HIDDEN_LANES {
        if !near_kink(None, lane) {
            checked.push(("feature bias", layout.feature_bias.start + lane));
        }
    }
    checked.extend(layout.output_weights.clone().map(|p| ("output weight", p)));
    checked.extend(layout.output_bias.clone().map(|p| ("output bias", p)));
    let mut large = 0;
    for &(group, p) in &checked {
        let nudged = |delta: f32| {
            let mut m = model.clone();
            m.params_mut()[p] += delta;
            mean_loss(&m, &samples, wdl, 1)
        };
        let numeric = (nudged(STEP) - nudged(-STEP)) / (2.0 * f64::from(STEP));
        let exact = f64::from(analytic[p]);
        let tolerance = 2e-5 + 1e-2 * exact.abs();
        assert!((numeric - exact).abs() <= tolerance, "{group} {p}: analytic {exact:e}, numeric {numeric:e}");
        large += usize::from(exact.abs() > 1e-3);
    }
    // The idle row's gradients are zero by design (asserted below): most of the others are not.
    let live = checked.len() - HIDDEN_LANES;
    assert!(large * 2 > live, "most live gradients are far from zero ({large} of {live})");
    assert!(analytic[idle_row * HIDDEN_LANES..][..HIDDEN_LANES].iter().all(|&g| g == 0.0));
}

/// Output buckets of the network trained to count material.
const MATERIAL_BUCKETS: usize = 3;

/// A network of the engine's shape trained to count material (100 cp a pawn), with the
/// validation loss before and after: trained once, shared by the tests below.
struct MaterialRun {
    model: Model,
    before: f64,
    after: f64,
}

fn material_run() -> &'static MaterialRun {
    static RUN: OnceLock<MaterialRun> = OnceLock::new();
    RUN.get_or_init(|| {
        let label = |pos: &Chess| Sample::new(pos, (100 * material(pos)) as i16, 0.5).unwrap();
        let training: Vec<Sample> = random_positions(6000, 100, 40).iter().map(label).collect();
        let validation: Vec<Sample> = random_positions(500, 100, 41).iter().map(label).collect();
        let plan = Plan { epochs: 6, batch: 128, lr: 0.01, wdl: 0.0, threads: 2, seed: 42 };
        let mut trainer = Trainer::new(DEFAULT_HIDDEN, MATERIAL_BUCKETS, InputBuckets::NONE, plan.seed);
        let before = mean_loss(&trainer.model, &validation, plan.wdl, 2);
        for _ in 0..plan.epochs {
            trainer.train_epoch(&training, &plan);
        }
        let after = mean_loss(&trainer.model, &validation, plan.wdl, 2);
        MaterialRun { model: trainer.model, before, after }
    })
}

#[test]
fn a_short_run_learns_to_count_material() {
    let run = material_run();
    assert!(run.after < run.before / 5.0, "validation loss {} -> {}", run.before, run.after);
    let queen_up = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let queen_down = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
    let (up, down) = (run.model.evaluate(&queen_up).unwrap(), run.model.evaluate(&queen_down).unwrap());
    assert!(up > 400.0 && down < -400.0, "a queen up {up:.0} cp, a queen down {down:.0} cp");
}

/// The trainer's float model with every weight rounded as quantisation rounds it.
fn rounded(model: &Model) -> Model {
    let layout = model.layout();
    let mut rounded = model.clone();
    for (i, p) in rounded.params_mut().iter_mut().enumerate() {
        let scale = match i {
            _ if i < layout.output_weights.start => QA,
            _ if i < layout.output_bias.start => QB,
            _ => QA * QB,
        } as f32;
        *p = (*p * scale).round() / scale;
    }
    rounded
}

/// The standard deviation, in centipawns, that rounding the weights adds to `model`'s
/// evaluation of `sample`, each rounding error taken as independent and uniform within
/// half a step: an output weight's error (half of 1/QB) times its lane's activation, and
/// each accumulator lane's error (one per active input and the bias, half of 1/QA each)
/// times the output's slope in that lane.
fn rounding_deviation(model: &Model, sample: &Sample) -> f32 {
    let inputs = model.inputs(sample);
    let mut accumulators = [Vec::new(), Vec::new()];
    model.forward(&inputs, &mut accumulators);
    let layout = model.layout();
    let hidden = model.hidden();
    let bucket = model.bucket(&inputs);
    let weights = model.params()[layout.output_weights.clone()][layout.bucket_weights(bucket)].chunks_exact(hidden);
    let uniform_variance = |step: f32| step * step / 12.0;
    let lane_variance = (inputs.count + 1) as f32 * uniform_variance(1.0 / QA as f32);
    let mut variance = 0.0;
    for (acc, weights) in accumulators.iter().zip(weights) {
        for (&a, &w) in acc.iter().zip(weights) {
            variance += super::lanes::screlu(a).powi(2) * uniform_variance(1.0 / QB as f32);
            variance += (super::lanes::screlu_slope(a) * w).powi(2) * lane_variance;
        }
    }
    variance.sqrt() * crate::eval::nnue::EVAL_SCALE as f32
}

/// How far the engine's integer evaluation may fall from the trainer's float model of the
/// same rounded weights (centipawns): the integer divisions truncate, under EVAL_SCALE /
/// (QA·QB) for the first, under 1 cp for the last.
const TRUNCATION_CP: f32 = 1.1;

/// The engine's integer evaluation of the quantised network against the trainer's float
/// evaluation: within [`TRUNCATION_CP`] of the float model of the rounded weights. Against
/// the unrounded weights, rounding adds an error of deviation
/// [`rounding_deviation`] (some 5 to 10 cp here, mostly from the output weights' step of
/// 1/64): allowed up to five deviations.
#[test]
fn the_engine_evaluates_the_trained_network_as_the_trainer_does() {
    const DEVIATIONS: f32 = 5.0;
    let model = &material_run().model;
    let net = Network::from_bytes(&model.quantise().to_bytes()).unwrap();
    let rounded = rounded(model);
    let mut largest_rounding_error: f32 = 0.0;
    for pos in random_positions(300, 120, 50) {
        let integer = evaluate_position(&net, &pos) as f32;
        let exact = rounded.evaluate(&pos).unwrap();
        assert!((integer - exact).abs() <= TRUNCATION_CP, "engine {integer}, rounded weights {exact:.2}");
        let float = model.evaluate(&pos).unwrap();
        let deviation = rounding_deviation(model, &Sample::new(&pos, 0, 0.5).unwrap());
        let error = (integer - float).abs();
        assert!(
            error <= TRUNCATION_CP + DEVIATIONS * deviation,
            "engine {integer}, trainer {float:.1} (σ {deviation:.1})"
        );
        largest_rounding_error = largest_rounding_error.max(error);
    }
    assert!(largest_rounding_error > TRUNCATION_CP, "rounding the weights changes something");
}

/// With input buckets, the engine reads the rows the trainer trained: a network of each
/// kind of input buckets, its weights drawn large enough to span SCReLU's curve, evaluates
/// in the engine as the trainer's float model of its rounded weights does.
#[test]
fn the_engine_reads_the_input_buckets_the_trainer_trained() {
    for (seed, layout) in (70..).zip(crate::eval::nnue::testing::INPUT_BUCKET_LAYOUTS) {
        let mut model = Model::new(DEFAULT_HIDDEN, 2, InputBuckets::parse(layout).unwrap(), seed);
        model.params_mut().iter_mut().for_each(|p| *p *= 6.0);
        let net = Network::from_bytes(&model.quantise().to_bytes()).unwrap();
        let rounded = rounded(&model);
        for pos in random_positions(200, 120, seed) {
            let integer = evaluate_position(&net, &pos) as f32;
            let exact = rounded.evaluate(&pos).unwrap();
            assert!((integer - exact).abs() <= TRUNCATION_CP, "{layout}: engine {integer}, trainer {exact:.2}");
        }
    }
}

#[test]
fn weights_at_the_clipping_limit_load_in_the_engine() {
    let mut model = Model::new(DEFAULT_HIDDEN, 2, InputBuckets::NONE, 3);
    model.params_mut().iter_mut().enumerate().for_each(|(i, p)| *p = if i % 3 == 0 { -1e3 } else { 1e3 });
    model.clip();
    assert!(model.params().iter().all(|p| p.abs() == WEIGHT_LIMIT));
    let quantised = model.quantise();
    assert!(quantised.output_bias.iter().all(|b| b.abs() == (WEIGHT_LIMIT * (QA * QB) as f32).round() as i32));
    assert!(Network::from_quantised(&quantised).is_ok());
}

#[test]
fn a_resumed_run_continues_exactly() {
    let samples: Vec<Sample> = random_positions(700, 80, 60)
        .iter()
        .map(|pos| Sample::new(pos, (37 * material(pos)) as i16, 1.0).unwrap())
        .collect();
    let plan = Plan { epochs: 2, batch: 64, lr: 0.003, wdl: 0.5, threads: 2, seed: 61 };
    let input_buckets = InputBuckets::parse(crate::eval::nnue::testing::INPUT_BUCKET_LAYOUTS[2]).unwrap();
    let mut straight = Trainer::new(16, 2, input_buckets, plan.seed);
    straight.train_epoch(&samples, &plan);
    straight.train_epoch(&samples, &plan);
    let mut halted = Trainer::new(16, 2, input_buckets, plan.seed);
    halted.train_epoch(&samples, &plan);
    let saved = halted.checkpoint(plan.seed).to_bytes();
    let mut resumed = Trainer::resume(checkpoint::Checkpoint::from_bytes(&saved).unwrap());
    resumed.train_epoch(&samples, &plan);
    assert_eq!(resumed.epochs_done, 2);
    assert_eq!(resumed.model, straight.model);
    assert_ne!(halted.model, straight.model);
}

/// Writes `games` random games, scored by material, as a data file.
fn write_games(path: &Path, games: usize, seed: u64) {
    let mut rng = SplitMix::new(seed);
    let mut bytes = Vec::new();
    write_header(&mut bytes).unwrap();
    for _ in 0..games {
        let start = Chess::default();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for _ in 0..60 {
            let Some(m) = random_move(&pos, &mut rng) else { break };
            plies.push((encode(m), (100 * material(&pos)) as i16));
            pos.play_unchecked(m);
        }
        let result = [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin][rng.below(3) as usize];
        GameRecord { start, plies, result }.write_to(&mut bytes).unwrap();
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_run_over_data_files_writes_a_network_the_engine_loads_and_resumes() {
    let dir = std::env::temp_dir().join(format!("harrier-train-run-{}", std::process::id()));
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    write_games(&data.join("games-s1-000000.bin"), 40, 70);
    write_games(&data.join("games-s1-000001.bin"), 40, 71);
    let mut settings = TrainSettings::new(vec![data]);
    settings.out = dir.join("net.bin");
    settings.validation = 0.1;
    settings.plan = Plan { epochs: 1, batch: 256, threads: 2, ..settings.plan };
    let lines = std::sync::Mutex::new(Vec::new());
    let progress = |line: &str| lines.lock().unwrap().push(line.to_string());
    let first = run(&settings, &progress).unwrap();
    assert_eq!((first.epochs, first.last_epoch, first.games), (1, 1, 80));
    assert!(first.positions.0 > 0 && first.positions.1 > 0 && first.validation_loss.is_some());
    let net = Network::load(&settings.out).unwrap();
    assert!(evaluate_position(&net, &Chess::default()).abs() < 1000);
    let again = TrainSettings { out: dir.join("again.bin"), ..settings.clone() };
    run(&again, &|_| {}).unwrap();
    let bytes = std::fs::read(&settings.out).unwrap();
    assert_eq!(std::fs::read(&again.out).unwrap(), bytes, "the same run writes the same bytes");
    assert!(lines.lock().unwrap().iter().any(|line| line.starts_with("epoch 1/1: training loss")));
    settings.resume = Some(checkpoint_path(&settings.out));
    settings.plan.epochs = 2;
    let second = run(&settings, &progress).unwrap();
    assert_eq!((second.epochs, second.last_epoch), (1, 2));
    assert!(run(&settings, &progress).unwrap_err().contains("epochs already"));
    settings.plan.epochs = 3;
    settings.buckets = 4;
    assert!(run(&settings, &progress).unwrap_err().contains("--buckets"));
    settings.buckets = DEFAULT_BUCKETS;
    settings.hidden = 64;
    assert!(run(&settings, &progress).unwrap_err().contains("wide"));
    settings.resume = None;
    settings.inputs = vec![dir.join("absent")];
    assert!(run(&settings, &progress).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
