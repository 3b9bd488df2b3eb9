//! `harrier tune`: a Texel-style fit of every evaluation weight to game results. It
//! minimises the mean squared error between the results and a logistic of the evaluation,
//! with Adam over the whole data set, from per-position term counts traced once.

pub mod data;
pub mod writer;

use crate::eval::hce::params::{SAFETY_EG_DIVISOR, SAFETY_MG_DIVISOR};
use crate::eval::hce::terms::{Kind, WEIGHT_COUNT};
use crate::eval::hce::trace::{engine_weights, term_of};
use data::TracedPosition;

/// Adam's decay of the gradient's running mean.
const ADAM_BETA1: f64 = 0.9;
/// Adam's decay of the squared gradient's running mean.
const ADAM_BETA2: f64 = 0.999;
/// Keeps Adam's step finite where a weight's gradient has always been zero.
const ADAM_EPSILON: f64 = 1e-8;
/// The range searched for the logistic's scale K.
const K_RANGE: (f64, f64) = (0.1, 5.0);
/// Steps of the golden-section search for K.
const K_STEPS: usize = 40;

/// Every weight as (middlegame, endgame) reals, in the flat order of the trace.
#[derive(Clone, Debug)]
pub struct RealWeights {
    /// One (middlegame, endgame) pair per entry of every term, in centipawns.
    pub weights: Vec<[f64; 2]>,
}

impl RealWeights {
    /// The engine's current weights.
    pub fn from_engine() -> RealWeights {
        RealWeights { weights: engine_weights().iter().map(|w| [f64::from(w.mg()), f64::from(w.eg())]).collect() }
    }

    /// Evaluation of `sample` in centipawns for White.
    pub fn evaluate(&self, sample: &TracedPosition) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for c in &sample.linear {
            let w = self.weights[c.weight as usize];
            mg += w[0] * f64::from(c.count);
            eg += w[1] * f64::from(c.count);
        }
        for (side, sign) in [1.0, -1.0].into_iter().enumerate() {
            let [units_mg, units_eg] = self.units(&sample.units[side]);
            mg += sign * units_mg.max(0.0).powi(2) / f64::from(SAFETY_MG_DIVISOR);
            eg += sign * units_eg.max(0.0) / f64::from(SAFETY_EG_DIVISOR);
        }
        mg * sample.mg_share + eg * sample.eg_share
    }

    /// The king-attack units of one side.
    fn units(&self, coefficients: &[data::Coefficient]) -> [f64; 2] {
        coefficients.iter().fold([0.0, 0.0], |[mg, eg], c| {
            let w = self.weights[c.weight as usize];
            [mg + w[0] * f64::from(c.count), eg + w[1] * f64::from(c.count)]
        })
    }

    /// Adds `factor` times the evaluation's gradient at `sample` to `gradient`.
    fn add_gradient(&self, sample: &TracedPosition, factor: f64, gradient: &mut [[f64; 2]]) {
        let (mg, eg) = (factor * sample.mg_share, factor * sample.eg_share);
        for c in &sample.linear {
            let g = &mut gradient[c.weight as usize];
            g[0] += mg * f64::from(c.count);
            g[1] += eg * f64::from(c.count);
        }
        for (side, sign) in [1.0, -1.0].into_iter().enumerate() {
            let [units_mg, units_eg] = self.units(&sample.units[side]);
            let d_mg = if units_mg > 0.0 { sign * 2.0 * units_mg / f64::from(SAFETY_MG_DIVISOR) } else { 0.0 };
            let d_eg = if units_eg > 0.0 { sign / f64::from(SAFETY_EG_DIVISOR) } else { 0.0 };
            for c in &sample.units[side] {
                let g = &mut gradient[c.weight as usize];
                g[0] += mg * d_mg * f64::from(c.count);
                g[1] += eg * d_eg * f64::from(c.count);
            }
        }
    }
}

/// The centipawns that make one power of ten in the odds of the expected score (at `k` 1).
const ODDS_DECADE_CP: f64 = 400.0;

/// The expected score for White of an evaluation of `value` centipawns, at scale `k`.
pub fn expected_score(k: f64, value: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * value / ODDS_DECADE_CP))
}

/// Runs `work` on `threads` slices of `samples` and sums what the slices return.
fn parallel<T: Send>(
    samples: &[TracedPosition],
    threads: usize,
    work: impl Fn(&[TracedPosition]) -> T + Sync,
    sum: impl Fn(T, T) -> T,
) -> T {
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples.chunks(chunk).map(|part| scope.spawn(|| work(part))).collect();
        parts.into_iter().map(|p| p.join().expect("a tuning thread panicked")).reduce(sum).expect("at least one sample")
    })
}

/// Mean squared error of `model` over `samples` at scale `k`.
pub fn loss(model: &RealWeights, samples: &[TracedPosition], k: f64, threads: usize) -> f64 {
    let total = parallel(
        samples,
        threads,
        |part| part.iter().map(|s| (s.result - expected_score(k, model.evaluate(s))).powi(2)).sum::<f64>(),
        |a, b| a + b,
    );
    total / samples.len() as f64
}

/// The scale K that minimises `model`'s loss (golden-section search).
pub fn fit_k(model: &RealWeights, samples: &[TracedPosition], threads: usize) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = K_RANGE;
    for _ in 0..K_STEPS {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss(model, samples, a, threads) < loss(model, samples, b, threads) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// The gradient of the loss over `samples` with respect to every weight.
pub fn gradient(model: &RealWeights, samples: &[TracedPosition], k: f64, threads: usize) -> Vec<[f64; 2]> {
    let slope = k * std::f64::consts::LN_10 / ODDS_DECADE_CP;
    let mut total = parallel(
        samples,
        threads,
        |part| {
            let mut g = vec![[0.0; 2]; WEIGHT_COUNT];
            for s in part {
                let p = expected_score(k, model.evaluate(s));
                model.add_gradient(s, -2.0 * (s.result - p) * p * (1.0 - p) * slope, &mut g);
            }
            g
        },
        |mut a, b| {
            a.iter_mut().zip(b).for_each(|(x, y)| *x = [x[0] + y[0], x[1] + y[1]]);
            a
        },
    );
    let n = samples.len() as f64;
    total.iter_mut().for_each(|g| *g = [g[0] / n, g[1] / n]);
    total
}

/// Adam's running moments.
pub struct Adam {
    mean: Vec<[f64; 2]>,
    square: Vec<[f64; 2]>,
    steps: i32,
    rate: f64,
}

impl Adam {
    /// An optimiser with step size `rate` (centipawns).
    pub fn new(rate: f64) -> Adam {
        Adam { mean: vec![[0.0; 2]; WEIGHT_COUNT], square: vec![[0.0; 2]; WEIGHT_COUNT], steps: 0, rate }
    }

    /// Moves `model` one step against `gradient`.
    pub fn step(&mut self, model: &mut RealWeights, gradient: &[[f64; 2]]) {
        self.steps += 1;
        let (bias1, bias2) = (1.0 - ADAM_BETA1.powi(self.steps), 1.0 - ADAM_BETA2.powi(self.steps));
        let moments = self.mean.iter_mut().zip(self.square.iter_mut());
        for ((weight, g), (mean, square)) in model.weights.iter_mut().zip(gradient).zip(moments) {
            for phase in 0..2 {
                let m = &mut mean[phase];
                let v = &mut square[phase];
                *m = ADAM_BETA1 * *m + (1.0 - ADAM_BETA1) * g[phase];
                *v = ADAM_BETA2 * *v + (1.0 - ADAM_BETA2) * g[phase] * g[phase];
                weight[phase] -= self.rate * (*m / bias1) / ((*v / bias2).sqrt() + ADAM_EPSILON);
            }
        }
    }
}

/// How [`train`] runs.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub rate: f64,
    /// Threads summing the gradient.
    pub threads: usize,
    /// A weight that counts in fewer positions than this keeps its value: Adam would
    /// move it as fast as a common one and fit it to the noise of a handful of games.
    pub min_positions: usize,
}

/// The number of positions in which each weight counts.
pub fn positions_per_weight(samples: &[TracedPosition]) -> Vec<usize> {
    let mut seen = vec![0; WEIGHT_COUNT];
    for s in samples {
        let mut weights: Vec<u16> = s.linear.iter().chain(&s.units[0]).chain(&s.units[1]).map(|c| c.weight).collect();
        weights.sort_unstable();
        weights.dedup();
        weights.into_iter().for_each(|w| seen[w as usize] += 1);
    }
    seen
}

/// The weights training leaves as they are: those set by hand ([`Kind::Fixed`]) and those
/// counting in fewer than `min_positions` of `samples`.
pub fn frozen_weights(samples: &[TracedPosition], min_positions: usize) -> Vec<bool> {
    let seen = positions_per_weight(samples);
    seen.iter().enumerate().map(|(w, &n)| n < min_positions || term_of(w).kind() == Kind::Fixed).collect()
}

/// Fits `model` to `samples` at scale `k`, calling `progress` with the epoch and the loss
/// every `report_every` epochs.
pub fn train(
    model: &mut RealWeights,
    samples: &[TracedPosition],
    k: f64,
    schedule: Schedule,
    report_every: usize,
    mut progress: impl FnMut(usize, f64),
) {
    let frozen = frozen_weights(samples, schedule.min_positions);
    let mut adam = Adam::new(schedule.rate);
    for epoch in 1..=schedule.epochs {
        let mut g = gradient(model, samples, k, schedule.threads);
        g.iter_mut().zip(&frozen).filter(|(_, frozen)| **frozen).for_each(|(g, _)| *g = [0.0; 2]);
        adam.step(model, &g);
        if epoch % report_every.max(1) == 0 || epoch == schedule.epochs {
            progress(epoch, loss(model, samples, k, schedule.threads));
        }
    }
}

/// `model` with every weight rounded to whole centipawns, as the engine would use it.
pub fn rounded(model: &RealWeights) -> RealWeights {
    RealWeights { weights: model.weights.iter().map(|w| [w[0].round(), w[1].round()]).collect() }
}

/// What `harrier tune` was asked for.
pub struct TuneSettings {
    /// Read at most this many positions.
    pub positions: usize,
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub rate: f64,
    /// Threads tracing positions and summing gradients.
    pub threads: usize,
    /// Weights counting in fewer positions keep their values ([`Schedule::min_positions`]).
    pub min_positions: usize,
    /// Where the weight file is written.
    pub out: String,
}

/// Epochs between two progress lines.
const REPORT_EVERY: usize = 50;
/// `harrier tune`'s default [`Schedule::min_positions`].
pub const DEFAULT_MIN_POSITIONS: usize = 1000;
/// `harrier tune`'s default [`Schedule::epochs`].
pub const DEFAULT_TUNE_EPOCHS: usize = 2000;
/// `harrier tune`'s default [`Schedule::rate`], in centipawns.
pub const DEFAULT_RATE: f64 = 1.0;
/// Where `harrier tune` writes the weight file by default: in the current directory, not
/// over the engine's own `src/eval/hce/weights.rs`.
pub const DEFAULT_WEIGHTS_FILE: &str = "weights.rs";

/// Loads `text`, fits K and the weights, reports the loss before and after on stderr and
/// writes the weight file.
pub fn run(text: &str, settings: &TuneSettings) -> Result<(), String> {
    let start = std::time::Instant::now();
    let samples = data::load(text, settings.positions, settings.threads)?;
    if samples.is_empty() {
        return Err("no labelled positions".to_string());
    }
    eprintln!("{} positions traced in {:.1} s", samples.len(), start.elapsed().as_secs_f64());
    let mut model = RealWeights::from_engine();
    let k = fit_k(&model, &samples, settings.threads);
    let before = loss(&model, &samples, k, settings.threads);
    eprintln!("K = {k:.4}, loss before {before:.6}");
    let frozen = positions_per_weight(&samples).iter().filter(|&&n| n < settings.min_positions).count();
    eprintln!(
        "{frozen} of {WEIGHT_COUNT} weights count in fewer than {} positions and keep their values",
        settings.min_positions
    );
    let schedule = Schedule {
        epochs: settings.epochs,
        rate: settings.rate,
        threads: settings.threads,
        min_positions: settings.min_positions,
    };
    train(&mut model, &samples, k, schedule, REPORT_EVERY, |epoch, l| {
        eprintln!("epoch {epoch:>5}: loss {l:.6} ({:.0} s)", start.elapsed().as_secs_f64());
    });
    let after = loss(&rounded(&model), &samples, k, settings.threads);
    eprintln!("loss before {before:.6}, after {after:.6} (rounded weights), K = {k:.4}");
    std::fs::write(&settings.out, writer::weights_source(&model.weights))
        .map_err(|e| format!("cannot write {}: {e}", settings.out))?;
    eprintln!("weights written to {}", settings.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::hce::terms::Term;
    use shakmaty::Position;

    /// Labelled positions made here: a queen up wins, level positions draw.
    fn queen_odds_samples() -> Vec<TracedPosition> {
        let lines = [
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - c9 \"0-1\";",
            "4k3/pppq4/8/8/8/8/PPP5/4K3 w - - c9 \"0-1\";",
            "4k3/ppp5/8/8/8/8/PPPQ4/4K3 b - - c9 \"1-0\";",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1/2-1/2\";",
            "4k3/pppq4/8/8/8/8/PPPQ4/4K3 w - - c9 \"1/2-1/2\";",
        ];
        data::load(&lines.join("\n"), usize::MAX, 2).unwrap()
    }

    #[test]
    fn results_are_read_in_both_notations() {
        assert_eq!(data::parse_result("8/8 w - - c9 \"1/2-1/2\";"), Some(0.5));
        assert_eq!(data::parse_result("8/8 w - - [0.0]"), Some(0.0));
        assert!(data::parse_line("4k3/8/8/8/8/8/8/4K3 w - - c9 \"1-0\";").is_ok());
        assert!(data::parse_line("4k3/8/8/8/8/8/8/4K3 w - -").is_err());
        assert!(data::parse_line("4k3/8/8/8 w - - c9 \"1-0\";").is_err());
    }

    #[test]
    fn the_model_agrees_with_the_engine_evaluation() {
        let engine = RealWeights::from_engine();
        let fens = [
            "r1bq1rk1/pp2bppp/2n1pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "6k1/1q3ppp/4p3/3nN3/3P2Q1/8/5PPP/6K1 w - - 0 1",
            "8/5pk1/6p1/3P4/8/8/5K2/8 b - - 0 1",
        ];
        for fen in fens {
            let (pos, _) = data::parse_line(&format!("{fen} c9 \"1-0\";")).unwrap();
            let s = data::sample(&pos, 1.0, &engine_weights());
            let value = crate::eval::hce::evaluate(&pos);
            let white = if pos.turn() == shakmaty::Color::White { value } else { -value };
            // The engine rounds each step to whole centipawns; the model does not.
            assert!((engine.evaluate(&s) - f64::from(white)).abs() <= 2.0, "{fen}: {} vs {white}", engine.evaluate(&s));
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let lines = [
            "r1b2rk1/ppq2ppp/2n1p3/3pP1N1/3P4/2PB4/P1Q2PPP/R4RK1 w - - c9 \"1-0\";",
            "6k1/1q3ppp/4p3/3nN3/3P2Q1/8/5PPP/6K1 w - - c9 \"1/2-1/2\";",
            "2r3k1/1q3pp1/p3p2p/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - c9 \"0-1\";",
        ];
        let samples = data::load(&lines.join("\n"), usize::MAX, 1).unwrap();
        assert!(samples.iter().any(|s| !s.units[0].is_empty()), "a king attack is counted");
        let model = RealWeights::from_engine();
        let k = 1.0;
        let analytic = gradient(&model, &samples, k, 1);
        let touched: Vec<usize> = samples
            .iter()
            .flat_map(|s| s.linear.iter().chain(&s.units[0]).chain(&s.units[1]))
            .map(|c| c.weight as usize)
            .collect();
        for &weight in touched.iter().step_by(3) {
            for (phase, &expected) in analytic[weight].iter().enumerate() {
                let h = 0.01;
                let mut up = model.clone();
                up.weights[weight][phase] += h;
                let mut down = model.clone();
                down.weights[weight][phase] -= h;
                let numeric = (loss(&up, &samples, k, 1) - loss(&down, &samples, k, 1)) / (2.0 * h);
                let tolerance = 1e-6 + 1e-3 * numeric.abs();
                assert!((numeric - expected).abs() < tolerance, "weight {weight} phase {phase}");
            }
        }
    }

    #[test]
    fn fitting_learns_that_a_queen_is_worth_having() {
        let samples = queen_odds_samples();
        let queen = Term::Material.offset() + 4;
        let mut model = RealWeights::from_engine();
        model.weights[queen] = [0.0, 0.0];
        let k = 1.0;
        let before = loss(&model, &samples, k, 2);
        let schedule = Schedule { epochs: 200, rate: 5.0, threads: 2, min_positions: 0 };
        train(&mut model, &samples, k, schedule, 200, |_, _| {});
        assert!(loss(&model, &samples, k, 2) < before / 2.0);
        // The queen's worth is spread over its material, squares and mobility.
        assert!(model.evaluate(&samples[0]) > 300.0, "{}", model.evaluate(&samples[0]));
        assert!(model.evaluate(&samples[1]) < -300.0, "{}", model.evaluate(&samples[1]));
    }

    #[test]
    fn a_weight_seen_in_too_few_positions_keeps_its_value() {
        let samples = queen_odds_samples();
        let seen = positions_per_weight(&samples);
        let queen = Term::Material.offset() + 4;
        assert_eq!(seen[queen], 4, "four samples have a queen more on one side");
        assert!(seen.iter().any(|&n| n > 0 && n < 4), "some weight counts, but rarely");
        let mut model = RealWeights::from_engine();
        let before = model.clone();
        let schedule = Schedule { epochs: 50, rate: 5.0, threads: 2, min_positions: 4 };
        train(&mut model, &samples, 1.0, schedule, 50, |_, _| {});
        for (w, &n) in seen.iter().enumerate() {
            if n < 4 {
                assert_eq!(model.weights[w], before.weights[w], "weight {w} counts in {n} positions");
            }
        }
        assert_ne!(model.weights[queen], before.weights[queen]);
    }

    #[test]
    fn hand_set_weights_keep_their_values() {
        // A queen and rook against a bare king: the mop-up terms count.
        let lines = ["6k1/8/8/8/8/8/8/QR2K3 w - - c9 \"1-0\";", "qr2k3/8/8/8/8/8/8/6K1 b - - c9 \"0-1\";"];
        let samples = data::load(&lines.join("\n"), usize::MAX, 1).unwrap();
        let edge = Term::MopUpEdge.offset();
        assert_eq!(positions_per_weight(&samples)[edge], 2);
        let mut model = RealWeights::from_engine();
        let before = model.clone();
        let schedule = Schedule { epochs: 20, rate: 5.0, threads: 1, min_positions: 0 };
        train(&mut model, &samples, 1.0, schedule, 20, |_, _| {});
        assert_eq!(model.weights[edge], before.weights[edge]);
        let queen = Term::Material.offset() + 4;
        assert_ne!(model.weights[queen], before.weights[queen]);
    }

    #[test]
    fn the_weight_file_holds_every_term_at_its_length() {
        let source = writer::weights_source(&RealWeights::from_engine().weights);
        for &term in Term::ALL {
            assert!(
                source.contains(&format!("pub const {}: [S; {}] = [", term.name(), term.size())),
                "{}",
                term.name()
            );
        }
        assert_eq!(source.matches("s(").count(), WEIGHT_COUNT);
    }

    #[test]
    fn k_minimises_the_loss() {
        let samples = queen_odds_samples();
        let model = RealWeights::from_engine();
        let k = fit_k(&model, &samples, 2);
        let at = |k| loss(&model, &samples, k, 2);
        assert!(at(k) <= at(k * 0.8) && at(k) <= at(k * 1.25));
    }
}
