//! The trainer's float checkpoint: what `--resume` needs to carry on a run where it
//! stopped.
//!
//! Layout (little-endian): [`CHECKPOINT_MAGIC`], the hidden size (u32), the output buckets (u32), the
//! epochs done (u32), the seed (u64), the optimiser's step count (u64), the input buckets
//! as a network file stores them ([`InputBuckets::to_bytes`], 72 bytes); the
//! parameters, then the optimiser's mean and squared-gradient moments (f32 each,
//! [`super::model::Layout`] order); then a checksum (u64) of everything before it.

use std::path::Path;

use super::adamw::AdamW;
use super::model::{Layout, Model};
use crate::eval::nnue::file::{MAX_FILE_HIDDEN, check_bucket_count, checksum};
use crate::eval::nnue::{INPUT_BUCKET_BYTES, InputBuckets};

/// The first bytes of a checkpoint file.
pub const CHECKPOINT_MAGIC: [u8; 8] = *b"HRRCKPT3";
/// Where the input buckets lie.
const INPUT_BUCKETS_AT: usize = 36;
/// Bytes before the parameters.
const CHECKPOINT_HEADER_BYTES: usize = INPUT_BUCKETS_AT + INPUT_BUCKET_BYTES;

/// A run's state after some epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float network as the last finished epoch left it.
    pub model: Model,
    /// The optimiser's moments.
    pub adam: AdamW,
    /// Epochs completed.
    pub epochs_done: usize,
    /// The run's seed (initial weights, validation split, shuffles).
    pub seed: u64,
}

impl Checkpoint {
    /// The checkpoint file's contents.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (mean, square, steps) = self.adam.state();
        let mut bytes = Vec::with_capacity(CHECKPOINT_HEADER_BYTES + 12 * self.model.params().len() + 8);
        bytes.extend_from_slice(&CHECKPOINT_MAGIC);
        bytes.extend_from_slice(&(self.model.hidden() as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.model.buckets() as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        bytes.extend_from_slice(&steps.to_le_bytes());
        bytes.extend_from_slice(&self.model.input_buckets().to_bytes());
        for value in self.model.params().iter().chain(mean).chain(square) {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&checksum(&bytes).to_le_bytes());
        bytes
    }

    /// Reads a checkpoint file's contents; a damaged or cut file is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        if bytes.len() < CHECKPOINT_HEADER_BYTES + 8 {
            return Err(format!("{} bytes, too short for a checkpoint", bytes.len()));
        }
        if bytes[..8] != CHECKPOINT_MAGIC {
            if bytes[..7] == CHECKPOINT_MAGIC[..7] {
                return Err("a checkpoint of an earlier trainer (its format predates input buckets)".to_string());
            }
            return Err("not a Harrier training checkpoint (bad magic)".to_string());
        }
        let word = |offset: usize| {
            u32::from_le_bytes([bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]])
        };
        let long = |offset: usize| u64::from(word(offset)) | u64::from(word(offset + 4)) << 32;
        let hidden = word(8) as usize;
        if hidden == 0 || hidden > MAX_FILE_HIDDEN {
            return Err(format!("a hidden size of {hidden} is not a network"));
        }
        let buckets = word(12) as usize;
        check_bucket_count(buckets)?;
        let mut stored = [0u8; INPUT_BUCKET_BYTES];
        stored.copy_from_slice(&bytes[INPUT_BUCKETS_AT..CHECKPOINT_HEADER_BYTES]);
        let input_buckets = InputBuckets::from_bytes(&stored)?;
        let parameters = Layout::new(input_buckets.inputs(), hidden, buckets).parameters();
        let expected = CHECKPOINT_HEADER_BYTES + 12 * parameters + 8;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, a checkpoint of a network {hidden} wide with {buckets} output buckets has {expected}",
                bytes.len()
            ));
        }
        let body = &bytes[..expected - 8];
        if checksum(body) != long(expected - 8) {
            return Err("the checkpoint does not match its checksum (a damaged file)".to_string());
        }
        let floats = |group: usize| -> Vec<f32> {
            body[CHECKPOINT_HEADER_BYTES + 4 * parameters * group..][..4 * parameters]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        Ok(Checkpoint {
            model: Model::from_params(hidden, buckets, input_buckets, floats(0))?,
            adam: AdamW::from_state(floats(1), floats(2), long(28)),
            epochs_done: word(16) as usize,
            seed: long(20),
        })
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes `bytes` beside `path` and renames the file into place, so that an interrupted
/// run leaves the previous file whole.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let partial = path.with_extension("part");
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checkpoint() -> Checkpoint {
        let input_buckets = InputBuckets::parse(crate::eval::nnue::testing::INPUT_BUCKET_LAYOUTS[2]).unwrap();
        let model = Model::new(8, 2, input_buckets, 5);
        let parameters = model.params().len();
        let mut adam = AdamW::new(parameters);
        let mut params = model.params().to_vec();
        adam.step(&mut params, &vec![0.25; parameters], 0.01);
        Checkpoint { model: Model::from_params(8, 2, input_buckets, params).unwrap(), adam, epochs_done: 3, seed: 77 }
    }

    #[test]
    fn a_checkpoint_round_trips_and_damage_is_an_error() {
        let saved = checkpoint();
        let bytes = saved.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes), Ok(saved));
        for cut in [0, 20, CHECKPOINT_HEADER_BYTES + 8, bytes.len() - 1] {
            assert!(Checkpoint::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for offset in (0..bytes.len()).step_by(101) {
            let mut flipped = bytes.clone();
            flipped[offset] ^= 1;
            assert!(Checkpoint::from_bytes(&flipped).is_err(), "flipped byte {offset}");
        }
    }
}
