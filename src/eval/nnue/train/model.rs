//! The trainer's float network: the engine's architecture with any hidden size, input
//! buckets and number of output buckets, its evaluation, and its quantisation into the
//! integers the engine reads.

use std::ops::Range;

use shakmaty::Chess;

use super::data::{Inputs, Sample};
use super::lanes;
use crate::eval::nnue::{EVAL_SCALE, INPUTS, InputBuckets, QA, QB, QuantisedNet, output_bucket};
use crate::random::SplitMix;

/// Every parameter stays within ±WEIGHT_LIMIT, so that quantised the network cannot
/// overflow: an output weight times QB stays within i16::MAX / QA (the SCReLU product),
/// and 32 feature weights and a bias times QA stay within i16::MAX (the accumulator).
pub const WEIGHT_LIMIT: f32 = 1.98;

/// Where each group of parameters lies in the flat parameter vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The feature transformer's weights, one row of `hidden` per input.
    pub feature_weights: Range<usize>,
    /// The feature transformer's bias.
    pub feature_bias: Range<usize>,
    /// The output weights: per bucket, the side to move's accumulator first.
    pub output_weights: Range<usize>,
    /// The output biases, one per bucket.
    pub output_bias: Range<usize>,
}

impl Layout {
    /// The layout of a network of `inputs` inputs, `hidden` lanes wide with `buckets`
    /// output buckets.
    pub fn new(inputs: usize, hidden: usize, buckets: usize) -> Layout {
        let bias = inputs * hidden;
        let output = bias + hidden;
        let output_bias = output + buckets * 2 * hidden;
        Layout {
            feature_weights: 0..bias,
            feature_bias: bias..output,
            output_weights: output..output_bias,
            output_bias: output_bias..output_bias + buckets,
        }
    }

    /// The number of parameters.
    pub fn parameters(&self) -> usize {
        self.output_bias.end
    }

    /// Where bucket `bucket`'s output weights lie, within [`Layout::output_weights`]'s range.
    pub fn bucket_weights(&self, bucket: usize) -> Range<usize> {
        let width = self.output_weights.len() / self.output_bias.len();
        bucket * width..(bucket + 1) * width
    }
}

/// The network in floats.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    hidden: usize,
    buckets: usize,
    input_buckets: InputBuckets,
    params: Vec<f32>,
}

impl Model {
    /// A network `hidden` lanes wide with `buckets` output buckets and `input_buckets`,
    /// drawn from `seed`: each layer's weights and bias uniform in ±1/√(its active inputs'
    /// span, 768 or twice the hidden size), so that the accumulators start small but not
    /// zero.
    pub fn new(hidden: usize, buckets: usize, input_buckets: InputBuckets, seed: u64) -> Model {
        let layout = Layout::new(input_buckets.inputs(), hidden, buckets);
        let mut rng = SplitMix::new(seed);
        let mut uniform = |bound: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * bound - bound;
        let transformer_bound = 1.0 / (INPUTS as f32).sqrt();
        let output_bound = 1.0 / ((2 * hidden) as f32).sqrt();
        let params = (0..layout.parameters())
            .map(|i| uniform(if i < layout.output_weights.start { transformer_bound } else { output_bound }))
            .collect();
        Model { hidden, buckets, input_buckets, params }
    }

    /// The network of `params` (a checkpoint's), checked against the shape.
    pub fn from_params(
        hidden: usize,
        buckets: usize,
        input_buckets: InputBuckets,
        params: Vec<f32>,
    ) -> Result<Model, String> {
        let expected = Layout::new(input_buckets.inputs(), hidden, buckets).parameters();
        if params.len() != expected {
            return Err(format!(
                "{} parameters, a network of {} inputs {hidden} wide with {buckets} output buckets has {expected}",
                params.len(),
                input_buckets.inputs()
            ));
        }
        Ok(Model { hidden, buckets, input_buckets, params })
    }

    /// Lanes per accumulator.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// Which rows each perspective reads, by where its king stands.
    pub fn input_buckets(&self) -> &InputBuckets {
        &self.input_buckets
    }

    /// Where each parameter group lies.
    pub fn layout(&self) -> Layout {
        Layout::new(self.input_buckets.inputs(), self.hidden, self.buckets)
    }

    /// The active inputs of `sample`'s position for this network.
    #[inline(always)]
    pub fn inputs(&self, sample: &Sample) -> Inputs {
        sample.inputs(&self.input_buckets)
    }

    /// The output bucket of `inputs`'s position.
    #[inline(always)]
    pub fn bucket(&self, inputs: &Inputs) -> usize {
        output_bucket(inputs.count, self.buckets)
    }

    /// Every parameter, in [`Layout`] order.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Every parameter, to change.
    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    /// The output (a win-rate logit) for `inputs`, leaving each perspective's accumulator
    /// (before activation) in `accumulators`, the side to move's first. Always inlined, so
    /// that the trainer's AVX2 copies of its loops include it.
    #[inline(always)]
    pub fn forward(&self, inputs: &Inputs, accumulators: &mut [Vec<f32>; 2]) -> f32 {
        let layout = self.layout();
        let hidden = self.hidden;
        let bucket = self.bucket(inputs);
        let bucket_weights = layout.bucket_weights(bucket);
        let bias = &self.params[layout.feature_bias];
        let rows = &self.params[layout.feature_weights];
        let mut output = self.params[layout.output_bias.start + bucket];
        let output_weights = self.params[layout.output_weights][bucket_weights].chunks_exact(hidden);
        let active = [&inputs.ours[..inputs.count], &inputs.theirs[..inputs.count]];
        for ((acc, features), weights) in accumulators.iter_mut().zip(active).zip(output_weights) {
            acc.resize(hidden, 0.0);
            lanes::accumulate(acc, bias, rows, features);
            output += lanes::screlu_dot(acc, weights);
        }
        output
    }

    /// The evaluation of `sample`'s position in centipawns for the side to move.
    pub fn evaluate_sample(&self, sample: &Sample) -> f32 {
        let mut accumulators = [Vec::new(), Vec::new()];
        self.forward(&self.inputs(sample), &mut accumulators) * EVAL_SCALE as f32
    }

    /// The evaluation of `pos` in centipawns for the side to move; `None` for a position
    /// of more pieces than a game can have.
    pub fn evaluate(&self, pos: &Chess) -> Option<f32> {
        Sample::new(pos, 0, 0.5).map(|sample| self.evaluate_sample(&sample))
    }

    /// Pulls every parameter back within ±[`WEIGHT_LIMIT`].
    pub fn clip(&mut self) {
        self.params.iter_mut().for_each(|p| *p = p.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT));
    }

    /// The network in the engine's integers: the feature transformer times QA, the output
    /// weights times QB, the output biases times QA·QB, each rounded to the nearest.
    pub fn quantise(&self) -> QuantisedNet {
        let layout = self.layout();
        let scaled = |range: Range<usize>, scale: i32| -> Vec<i16> {
            self.params[range].iter().map(|&p| (p * scale as f32).round() as i16).collect()
        };
        QuantisedNet {
            input_buckets: self.input_buckets,
            feature_weights: scaled(layout.feature_weights, QA),
            feature_bias: scaled(layout.feature_bias, QA),
            output_weights: scaled(layout.output_weights, QB),
            output_bias: self.params[layout.output_bias]
                .iter()
                .map(|&p| (p * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}
