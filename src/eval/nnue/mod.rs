//! The evaluation network (NNUE) and everything about it: the network and its file, the
//! accumulators the search keeps along its line ([`AccumulatorStack`]), the training data
//! ([`data`]) and the trainer ([`train`], `harrier train`).
//!
//! The network is a perspective net `768 x input buckets -> hidden (x2) -> 1`, its input
//! buckets, hidden size and output buckets read from its file: every piece on the board
//! switches on one of 768 inputs (colour relative to the perspective, role, square) for
//! each side's perspective, in the rows of the bucket that perspective's king chooses
//! ([`InputBuckets`]; one bucket in the networks so far); the feature transformer sums
//! those inputs' weight rows into an [`Accumulator`] per perspective; the output layer
//! reads both accumulators through SCReLU, the side to move's first, with the weights of
//! the position's output bucket (chosen by the number of pieces). Integers throughout, as
//! `harrier train` quantises them (see `docs/nnue.md`), so a move costs a few row additions
//! and an evaluation one dot product.

mod accumulator;
pub mod data;
mod features;
pub mod file;
mod input_buckets;
mod kernels;
mod stack;
pub mod train;

pub use accumulator::Accumulator;
pub use features::{Changes, Feature, feature_index, move_changes};
pub use file::QuantisedNet;
pub use input_buckets::{INPUT_BUCKET_BYTES, InputBuckets, InputView, MAX_INPUT_BUCKETS};
pub use stack::AccumulatorStack;

use std::sync::Arc;

use once_cell::sync::Lazy;
use shakmaty::{Chess, Position};

/// Inputs of the feature transformer per input bucket: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// Lanes the kernels process together: a hidden size the engine loads is a multiple of it.
pub const BLOCK: usize = 64;
/// The widest hidden layer the engine loads.
pub const MAX_ENGINE_HIDDEN: usize = 2048;
/// The scale of the feature transformer's weights and biases: a float 1.0 is `QA`.
pub const QA: i32 = 255;
/// The scale of the output weights: a float 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output (the output is a win-rate logit).
pub const EVAL_SCALE: i32 = 400;
/// Pieces a legal position can hold: the accumulator's range is checked against it, and
/// a training sample has room for this many.
pub const MAX_PIECES: usize = 32;
/// The most output buckets a network file may have.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position of `pieces` pieces (kings included) in a network of
/// `buckets` buckets: the range 2 to 32 pieces cut into `buckets` near-equal parts, so that
/// endings and middlegames get output weights of their own.
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / (MAX_PIECES - 1)).min(buckets - 1)
}

/// [`BLOCK`] lanes of a weight row or an accumulator, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Block(pub [i16; BLOCK]);

/// `values` (a multiple of [`BLOCK`] long) as blocks.
fn blocks_of(values: &[i16]) -> Box<[Block]> {
    values
        .chunks_exact(BLOCK)
        .map(|chunk| {
            let mut block = Block([0; BLOCK]);
            block.0.copy_from_slice(chunk);
            block
        })
        .collect()
}

/// A quantised network, of the hidden size and output buckets its file gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Lanes per accumulator half, a multiple of [`BLOCK`].
    hidden: usize,
    /// Which rows each perspective reads, by where its king stands.
    input_buckets: InputBuckets,
    /// One row of `hidden / BLOCK` blocks per input, `feature_index` order.
    feature_weights: Box<[Block]>,
    feature_bias: Box<[Block]>,
    /// Per output bucket, the side to move's half, then the other side's.
    output_weights: Box<[Block]>,
    /// Per output bucket.
    output_bias: Box<[i32]>,
}

impl Network {
    /// The network of `net`'s weights, checked to be of a shape the engine loads and small
    /// enough that neither the accumulator nor the output sum can overflow.
    pub fn from_quantised(net: &QuantisedNet) -> Result<Network, String> {
        check_shape(net.hidden())?;
        net.check_lengths()?;
        let largest = |values: &[i16]| values.iter().map(|v| i32::from(v.unsigned_abs())).max().unwrap_or(0);
        let accumulator_bound = largest(&net.feature_weights) * MAX_PIECES as i32 + largest(&net.feature_bias);
        if accumulator_bound > i32::from(i16::MAX) {
            return Err(format!(
                "feature weights too large: an accumulator could reach {accumulator_bound} (limit {})",
                i16::MAX
            ));
        }
        // The SCReLU product clamp(acc)·w is taken in i16 lanes before widening.
        let output_limit = i32::from(i16::MAX) / QA;
        if largest(&net.output_weights) > output_limit {
            return Err(format!(
                "an output weight is {}, beyond the limit {output_limit}",
                largest(&net.output_weights)
            ));
        }
        Ok(Network {
            hidden: net.hidden(),
            input_buckets: net.input_buckets,
            feature_weights: blocks_of(&net.feature_weights),
            feature_bias: blocks_of(&net.feature_bias),
            output_weights: blocks_of(&net.output_weights),
            output_bias: net.output_bias.clone().into_boxed_slice(),
        })
    }

    /// The weights of this network, as the file holds them.
    pub fn to_quantised(&self) -> QuantisedNet {
        let flat = |blocks: &[Block]| blocks.iter().flat_map(|block| block.0).collect();
        QuantisedNet {
            input_buckets: self.input_buckets,
            feature_weights: flat(&self.feature_weights),
            feature_bias: flat(&self.feature_bias),
            output_weights: flat(&self.output_weights),
            output_bias: self.output_bias.to_vec(),
        }
    }

    /// Reads a network file's contents ([`mod@file`]); a damaged file or a shape the engine
    /// does not load is an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        check_shape(file::header(bytes)?.hidden)?;
        Network::from_quantised(&QuantisedNet::from_bytes(bytes)?)
    }

    /// The network file's contents.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_quantised().to_bytes()
    }

    /// Reads the network file at `path`.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Lanes per accumulator half.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.output_bias.len()
    }

    /// Which rows each perspective reads, by where its king stands.
    pub fn input_buckets(&self) -> &InputBuckets {
        &self.input_buckets
    }

    /// Blocks per accumulator half.
    fn blocks(&self) -> usize {
        self.hidden / BLOCK
    }
}

/// The id of the network built into the binary: the default's (`nets/<id>.nnue`, named
/// in `build.rs`) or, in a build with `EVALFILE`, that file's name without its extension.
pub const EMBEDDED_ID: &str = env!("HARRIER_NET_ID");

/// The network file built into the binary.
pub const EMBEDDED_BYTES: &[u8] = include_bytes!(env!("HARRIER_NET_PATH"));

/// The network built into the binary ([`EMBEDDED_ID`]), read once.
pub fn embedded() -> Arc<Network> {
    static EMBEDDED: Lazy<Arc<Network>> = Lazy::new(|| {
        Arc::new(Network::from_bytes(EMBEDDED_BYTES).expect("the embedded network is checked by the tests"))
    });
    EMBEDDED.clone()
}

/// An error unless the engine loads a network `hidden` lanes wide: a multiple of
/// [`BLOCK`] up to [`MAX_ENGINE_HIDDEN`].
pub fn check_shape(hidden: usize) -> Result<(), String> {
    if hidden > 0 && hidden.is_multiple_of(BLOCK) && hidden <= MAX_ENGINE_HIDDEN {
        return Ok(());
    }
    Err(format!(
        "the network's shape is {INPUTS} -> {hidden} x2 -> 1 (per input bucket); this engine loads hidden sizes that are multiples of \
         {BLOCK} up to {MAX_ENGINE_HIDDEN}"
    ))
}

/// The evaluation in centipawns for the side to move of `pos`, whose accumulator is `acc`.
pub fn evaluate(net: &Network, acc: &Accumulator, pos: &Chess) -> i32 {
    let side_to_move = pos.turn();
    let bucket = output_bucket(pos.board().occupied().count(), net.buckets());
    let blocks = net.blocks();
    let weights = &net.output_weights[2 * blocks * bucket..2 * blocks * (bucket + 1)];
    let (ours, theirs) = weights.split_at(blocks);
    let ours = kernels::screlu_dot(acc.values(side_to_move), ours);
    let theirs = kernels::screlu_dot(acc.values(!side_to_move), theirs);
    // Each lane adds at most QA²·(i16::MAX / QA) < 2^23 (the loader checks the weights), so
    // the sums, at most 2^34 for the widest net, and their scaling fit in i64.
    let output = (ours + theirs) / i64::from(QA) + i64::from(net.output_bias[bucket]);
    let scaled = output * i64::from(EVAL_SCALE) / i64::from(QA * QB);
    scaled.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// The evaluation of `pos` in centipawns for the side to move, from a fresh accumulator.
pub fn evaluate_position(net: &Network, pos: &Chess) -> i32 {
    evaluate(net, &Accumulator::new(net, pos.board()), pos)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) mod testing {
    //! Random networks and random moves for the tests of the network and its trainer.

    use super::*;
    use crate::random::SplitMix;
    use shakmaty::Move;

    /// A random legal move of `pos`, `None` at the end of the game. Castling, en passant
    /// and promotions are chosen half the time they are legal, so that short random games
    /// play them.
    pub fn random_move(pos: &Chess, rng: &mut SplitMix) -> Option<Move> {
        let moves = pos.legal_moves();
        let special: Vec<Move> =
            moves.iter().copied().filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion()).collect();
        if !special.is_empty() && rng.below(2) == 0 {
            return Some(special[rng.below(special.len() as u64) as usize]);
        }
        (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
    }

    /// Input buckets of each kind: none, mirroring alone, and four buckets mirrored.
    pub const INPUT_BUCKET_LAYOUTS: [&str; 3] =
        ["none", "mirror", "0,0,1,1/2,2,2,2/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3/3,3,3,3"];

    /// A network whose weights are random but within the ranges the loader accepts, one to
    /// three blocks wide with one to four output buckets and input buckets of one of the
    /// [`INPUT_BUCKET_LAYOUTS`].
    pub fn random_network(seed: u64) -> Network {
        let mut rng = SplitMix::new(seed);
        let buckets = 1 + rng.below(4) as usize;
        let hidden = BLOCK * (1 + rng.below(3) as usize);
        let layout = INPUT_BUCKET_LAYOUTS[rng.below(INPUT_BUCKET_LAYOUTS.len() as u64) as usize];
        let input_buckets = InputBuckets::parse(layout).unwrap();
        let mut values =
            |count: usize, limit: i32| -> Vec<i16> { (0..count).map(|_| rng.range(-limit, limit) as i16).collect() };
        let net = QuantisedNet {
            input_buckets,
            feature_weights: values(input_buckets.inputs() * hidden, 500),
            feature_bias: values(hidden, 400),
            output_weights: values(buckets * 2 * hidden, 127),
            output_bias: (0..buckets).map(|bucket| 1234 - 500 * bucket as i32).collect(),
        };
        Network::from_quantised(&net).unwrap()
    }
}
