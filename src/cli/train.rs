//! `harrier train`: the evaluation network trained on `harrier datagen`'s games.

use std::path::PathBuf;

use clap::Args;
use harrier::eval::nnue::InputBuckets;
use harrier::eval::nnue::train::{self, DEFAULT_HIDDEN, Plan, TrainSettings};

use super::values::{at_least_one, cores};

/// The flags of `harrier train <inputs>...`.
#[derive(Args)]
pub struct Train {
    /// Data files, or folders of them
    #[arg(required = true, value_name = "DATA")]
    inputs: Vec<PathBuf>,
    /// The network written after every epoch; the checkpoint goes beside it
    #[arg(long, value_name = "FILE", default_value = train::DEFAULT_NET_FILE)]
    out: PathBuf,
    /// Lanes per accumulator (the engine loads multiples of 64 up to 2048)
    #[arg(long, default_value_t = DEFAULT_HIDDEN)]
    hidden: usize,
    /// Output buckets, chosen by the number of pieces
    #[arg(long, default_value_t = train::DEFAULT_BUCKETS)]
    buckets: usize,
    /// Input buckets by each side's king: none, mirror (a king on the e to h files mirrors
    /// its side's board), 32 bucket numbers for the king's squares on files a to d, rank 1
    /// first, mirrored (e.g. 0,0,1,1/2,2,2,2/3,3,3,3/...), or 64 for every square
    #[arg(long, value_name = "LAYOUT", value_parser = InputBuckets::parse, default_value = "none")]
    input_buckets: InputBuckets,
    /// Full passes over the data
    #[arg(long, default_value_t = train::DEFAULT_TRAIN_EPOCHS)]
    epochs: usize,
    /// Positions per optimiser step
    #[arg(long, default_value_t = train::DEFAULT_BATCH)]
    batch: usize,
    /// The starting learning rate
    #[arg(long, default_value_t = train::DEFAULT_LR)]
    lr: f32,
    /// The game result's share of the target (the score's is the rest)
    #[arg(long, default_value_t = train::DEFAULT_WDL)]
    wdl: f32,
    /// Threads summing each batch's gradient [default: every core]
    #[arg(long, value_parser = at_least_one::<usize>, default_value_t = cores(), hide_default_value = true)]
    threads: usize,
    /// Draws the initial weights, the validation split and each epoch's order
    #[arg(long, default_value_t = train::DEFAULT_TRAIN_SEED)]
    seed: u64,
    /// The share of games held out to measure the validation loss
    #[arg(long, value_name = "SHARE", default_value_t = train::DEFAULT_VALIDATION)]
    validation: f64,
    /// Also train on positions without castling rights mirrored from a to h (0: no; never
    /// with mirrored input buckets, which read both alike)
    #[arg(long, value_name = "0|1", default_value_t = u8::from(train::DEFAULT_MIRROR))]
    mirror: u8,
    /// A checkpoint to carry on from
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
}

impl Train {
    /// Trains, progress on stderr.
    pub fn run(self) -> Result<(), String> {
        let settings = TrainSettings {
            inputs: self.inputs,
            out: self.out,
            hidden: self.hidden,
            buckets: self.buckets,
            input_buckets: self.input_buckets,
            validation: self.validation,
            mirror: self.mirror != 0,
            resume: self.resume,
            plan: Plan {
                epochs: self.epochs,
                batch: self.batch,
                lr: self.lr,
                wdl: self.wdl,
                threads: self.threads,
                seed: self.seed,
            },
        };
        let summary = train::run(&settings, &|line| eprintln!("train: {line}"))?;
        eprintln!("train: done: {summary}");
        Ok(())
    }
}
