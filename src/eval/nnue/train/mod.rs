//! `harrier train`: fits the evaluation network ([`crate::eval::nnue`]) to self-play data
//! (`harrier datagen`) on the CPU.
//!
//! The target of a position blends the search's score, as an expected result, with the
//! game's result; the prediction is the network's output through a logistic; the loss is
//! their mean squared error. AdamW over shuffled batches, the batch's gradient summed by
//! several threads, the learning rate on a cosine from `--lr` down to a hundredth of it.
//! After every epoch the quantised net and a float checkpoint are written.

pub mod adamw;
pub mod checkpoint;
pub mod data;
pub mod gradient;
mod lanes;
pub mod model;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::eval::nnue::{InputBuckets, MAX_BUCKETS, check_shape};
use adamw::{AdamW, learning_rate};
use checkpoint::{Checkpoint, write_whole};
use data::{Sample, epoch_order};
use gradient::{batch_gradient, mean_loss};
use model::Model;

/// Positions per optimiser step by default.
pub const DEFAULT_BATCH: usize = 16_384;
/// Full passes over the data by default.
pub const DEFAULT_TRAIN_EPOCHS: usize = 10;
/// The starting learning rate by default.
pub const DEFAULT_LR: f32 = 0.001;
/// The game result's share of the target by default.
pub const DEFAULT_WDL: f32 = 0.4;
/// The share of games held out for validation by default.
pub const DEFAULT_VALIDATION: f64 = 0.01;
/// Output buckets by default.
pub const DEFAULT_BUCKETS: usize = 1;
/// Lanes per accumulator half by default.
pub const DEFAULT_HIDDEN: usize = 128;
/// Also train on mirrored positions by default.
pub const DEFAULT_MIRROR: bool = true;
/// The seed of the initial weights, the validation split and the epochs' order by default.
pub const DEFAULT_TRAIN_SEED: u64 = 1;
/// Where the network is written by default.
pub const DEFAULT_NET_FILE: &str = "net.nnue";

/// How the optimiser runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Epochs of the whole run (the learning rate's schedule spans them).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// The starting learning rate.
    pub lr: f32,
    /// The game result's share of the target (the score's is the rest).
    pub wdl: f32,
    /// Threads summing each batch's gradient.
    pub threads: usize,
    /// Draws the initial weights, the validation split and each epoch's order.
    pub seed: u64,
}

/// What `harrier train` was asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// Data files, or folders of them.
    pub inputs: Vec<PathBuf>,
    /// The quantised network written after every epoch; the checkpoint goes beside it.
    pub out: PathBuf,
    /// Lanes per accumulator half (the engine loads the widths [`check_shape`] allows).
    pub hidden: usize,
    /// Output buckets, chosen by the number of pieces (1 to [`MAX_BUCKETS`]).
    pub buckets: usize,
    /// Input buckets, chosen by each perspective's king.
    pub input_buckets: InputBuckets,
    /// The share of games held out to measure the validation loss.
    pub validation: f64,
    /// Also train on each position without castling rights mirrored from a to h (its
    /// value is the same); never with mirrored input buckets, which read the mirrored
    /// position as they read the position.
    pub mirror: bool,
    /// A checkpoint to carry on from.
    pub resume: Option<PathBuf>,
    /// The optimiser's settings.
    pub plan: Plan,
}

impl TrainSettings {
    /// The defaults for training on `inputs`.
    pub fn new(inputs: Vec<PathBuf>) -> TrainSettings {
        TrainSettings {
            inputs,
            out: PathBuf::from(DEFAULT_NET_FILE),
            hidden: DEFAULT_HIDDEN,
            buckets: DEFAULT_BUCKETS,
            input_buckets: InputBuckets::NONE,
            validation: DEFAULT_VALIDATION,
            mirror: DEFAULT_MIRROR,
            resume: None,
            plan: Plan {
                epochs: DEFAULT_TRAIN_EPOCHS,
                batch: DEFAULT_BATCH,
                lr: DEFAULT_LR,
                wdl: DEFAULT_WDL,
                threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
                seed: DEFAULT_TRAIN_SEED,
            },
        }
    }

    fn check(&self) -> Result<(), String> {
        let plan = &self.plan;
        if self.inputs.is_empty() {
            return Err("train needs data: data files or folders of them".to_string());
        }
        if plan.epochs == 0 || plan.batch == 0 || plan.threads == 0 || self.hidden == 0 {
            return Err("--epochs, --batch, --threads and --hidden must be at least 1".to_string());
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(format!("--buckets must lie in 1 to {MAX_BUCKETS}, not {}", self.buckets));
        }
        if !(plan.lr > 0.0 && plan.lr.is_finite()) {
            return Err(format!("--lr must be a positive number, not {}", plan.lr));
        }
        if !(0.0..=1.0).contains(&plan.wdl) || !(0.0..1.0).contains(&self.validation) {
            return Err("--wdl must lie in [0, 1] and --validation in [0, 1)".to_string());
        }
        Ok(())
    }
}

/// The checkpoint written beside the network file `out`.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    out.with_extension("ckpt")
}

/// A network with its optimiser, part way through a run.
pub struct Trainer {
    /// The float network being trained.
    pub model: Model,
    /// The optimiser's moments.
    pub adam: AdamW,
    /// Epochs completed.
    pub epochs_done: usize,
    /// One gradient buffer per thread.
    gradients: Vec<Vec<f32>>,
}

impl Trainer {
    /// A fresh network `hidden` lanes wide with `buckets` output buckets and
    /// `input_buckets`, drawn from `seed`.
    pub fn new(hidden: usize, buckets: usize, input_buckets: InputBuckets, seed: u64) -> Trainer {
        let model = Model::new(hidden, buckets, input_buckets, seed);
        let adam = AdamW::new(model.params().len());
        Trainer { model, adam, epochs_done: 0, gradients: Vec::new() }
    }

    /// Carries on from `checkpoint`.
    pub fn resume(checkpoint: Checkpoint) -> Trainer {
        Trainer {
            model: checkpoint.model,
            adam: checkpoint.adam,
            epochs_done: checkpoint.epochs_done,
            gradients: Vec::new(),
        }
    }

    /// The state to save, for a run seeded `seed`.
    pub fn checkpoint(&self, seed: u64) -> Checkpoint {
        Checkpoint { model: self.model.clone(), adam: self.adam.clone(), epochs_done: self.epochs_done, seed }
    }

    /// Trains the next epoch over `samples` in that epoch's shuffled order; returns the
    /// mean training loss over the epoch.
    pub fn train_epoch(&mut self, samples: &[Sample], plan: &Plan) -> f64 {
        let parameters = self.model.params().len();
        self.gradients.resize_with(plan.threads.max(1), || vec![0.0; parameters]);
        let epoch = self.epochs_done + 1;
        let order = epoch_order(samples.len(), plan.seed, epoch);
        let batches = order.len().div_ceil(plan.batch.max(1));
        let mut total = 0.0;
        for (index, batch) in order.chunks(plan.batch.max(1)).enumerate() {
            let progress = (self.epochs_done as f64 + index as f64 / batches as f64) / plan.epochs as f64;
            let loss = batch_gradient(&self.model, samples, batch, plan.wdl, &mut self.gradients);
            total += loss * batch.len() as f64;
            self.adam.step(self.model.params_mut(), &self.gradients[0], learning_rate(plan.lr, progress));
            self.model.clip();
        }
        self.epochs_done = epoch;
        total / samples.len().max(1) as f64
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingSummary {
    /// Epochs trained in this run.
    pub epochs: usize,
    /// The last epoch's number (counting those of a resumed checkpoint).
    pub last_epoch: usize,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Games read.
    pub games: usize,
    /// The last epoch's mean training loss.
    pub training_loss: f64,
    /// The validation loss after the last epoch (none without validation games).
    pub validation_loss: Option<f64>,
    /// Training positions per second, over every epoch of the run.
    pub positions_per_second: f64,
    /// The whole run, loading included.
    pub seconds: f64,
    /// The network file written.
    pub out: PathBuf,
}

impl fmt::Display for TrainingSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} epochs (to epoch {}) on {} positions of {} games ({} held out): training loss {:.6}, validation \
             loss {}, {:.0} positions/s, {:.1} s; network in {}, checkpoint in {}",
            self.epochs,
            self.last_epoch,
            self.positions.0,
            self.games,
            self.positions.1,
            self.training_loss,
            self.validation_loss.map_or("-".to_string(), |loss| format!("{loss:.6}")),
            self.positions_per_second,
            self.seconds,
            self.out.display(),
            checkpoint_path(&self.out).display()
        )
    }
}

/// Runs `harrier train`: loads the data, trains, writes the network and the checkpoint
/// after every epoch; `progress` gets a line per epoch.
pub fn run(settings: &TrainSettings, progress: &dyn Fn(&str)) -> Result<TrainingSummary, String> {
    settings.check()?;
    let start = Instant::now();
    let plan = settings.plan;
    let mirror = settings.mirror && !settings.input_buckets.mirrored();
    let data = data::load(&settings.inputs, settings.validation, mirror, plan.seed, plan.threads)?;
    if data.training.is_empty() {
        return Err(format!("no training positions in {} files of {} games", data.files, data.games));
    }
    for dir in &data.unchecked {
        progress(&format!("{} has no manifest: its files are read unchecked", dir.display()));
    }
    progress(&format!(
        "{} files, {} games: {} training and {} validation positions ({:.1} s)",
        data.files,
        data.games,
        data.training.len(),
        data.validation.len(),
        start.elapsed().as_secs_f64()
    ));
    let mut trainer = match &settings.resume {
        Some(path) => resume(path, settings)?,
        None => Trainer::new(settings.hidden, settings.buckets, settings.input_buckets, plan.seed),
    };
    if trainer.epochs_done >= plan.epochs {
        return Err(format!("the checkpoint has {} epochs already: ask for more with --epochs", trainer.epochs_done));
    }
    if let Err(reason) = check_shape(settings.hidden) {
        progress(&reason);
    }
    let mut summary = TrainingSummary {
        epochs: 0,
        last_epoch: trainer.epochs_done,
        positions: (data.training.len(), data.validation.len()),
        games: data.games,
        training_loss: f64::NAN,
        validation_loss: None,
        positions_per_second: 0.0,
        seconds: 0.0,
        out: settings.out.clone(),
    };
    let mut training_seconds = 0.0;
    while trainer.epochs_done < plan.epochs {
        let epoch_start = Instant::now();
        summary.training_loss = trainer.train_epoch(&data.training, &plan);
        let seconds = epoch_start.elapsed().as_secs_f64();
        training_seconds += seconds;
        summary.validation_loss =
            (!data.validation.is_empty()).then(|| mean_loss(&trainer.model, &data.validation, plan.wdl, plan.threads));
        write_whole(&settings.out, &trainer.model.quantise().to_bytes())?;
        write_whole(&checkpoint_path(&settings.out), &trainer.checkpoint(plan.seed).to_bytes())?;
        summary.epochs += 1;
        summary.last_epoch = trainer.epochs_done;
        let rate = learning_rate(plan.lr, trainer.epochs_done as f64 / plan.epochs as f64);
        progress(&format!(
            "epoch {}/{}: training loss {:.6}, validation loss {}, lr now {rate:.2e}, {:.0} positions/s, {:.1} s",
            trainer.epochs_done,
            plan.epochs,
            summary.training_loss,
            summary.validation_loss.map_or("-".to_string(), |loss| format!("{loss:.6}")),
            data.training.len() as f64 / seconds.max(1e-9),
            epoch_start.elapsed().as_secs_f64()
        ));
    }
    summary.positions_per_second = (summary.epochs * data.training.len()) as f64 / f64::max(training_seconds, 1e-9);
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The trainer of the checkpoint at `path`, which must match the run's shape and seed.
fn resume(path: &Path, settings: &TrainSettings) -> Result<Trainer, String> {
    let checkpoint = Checkpoint::load(path)?;
    let model = &checkpoint.model;
    let shape = (model.hidden(), model.buckets(), model.input_buckets());
    if shape != (settings.hidden, settings.buckets, &settings.input_buckets) {
        return Err(format!(
            "{} holds a network {} wide with {} output buckets and input buckets {}, not {}, {} and {} (--hidden, \
             --buckets, --input-buckets)",
            path.display(),
            model.hidden(),
            model.buckets(),
            model.input_buckets().spec(),
            settings.hidden,
            settings.buckets,
            settings.input_buckets.spec()
        ));
    }
    if checkpoint.seed != settings.plan.seed {
        return Err(format!("{} was trained with --seed {}", path.display(), checkpoint.seed));
    }
    Ok(Trainer::resume(checkpoint))
}
