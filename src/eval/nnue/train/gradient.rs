//! The loss (mean squared error of the predicted expected result) and its gradient over a
//! batch, each thread summing a slice of the batch into its own buffer.
//!
//! A position activates some 30 of the 768 input rows per perspective, so each sample
//! touches only those rows of the feature transformer's gradient; the per-batch work on
//! the whole buffer (clearing, summing the threads' buffers) is small beside the batch.

use super::data::{Sample, logistic};
use super::lanes;
use super::lanes::{screlu, screlu_slope};
use super::model::{Layout, Model};

/// What one thread needs per sample besides the model: the accumulators of the forward
/// pass and the loss's gradient at them.
struct Workspace {
    accumulators: [Vec<f32>; 2],
    slopes: [Vec<f32>; 2],
}

impl Workspace {
    fn new(hidden: usize) -> Workspace {
        Workspace { accumulators: [Vec::new(), Vec::new()], slopes: [vec![0.0; hidden], vec![0.0; hidden]] }
    }
}

/// The squared error of `model` at `sample`.
#[inline(always)]
pub fn sample_loss(model: &Model, sample: &Sample, wdl: f32, accumulators: &mut [Vec<f32>; 2]) -> f32 {
    let error = logistic(model.forward(&model.inputs(sample), accumulators)) - sample.target(wdl);
    error * error
}

/// Adds `scale` times the gradient of the squared error at `sample` to `gradient` and
/// returns the squared error.
#[inline(always)]
fn add_sample_gradient(
    model: &Model,
    layout: &Layout,
    sample: &Sample,
    wdl: f32,
    scale: f32,
    gradient: &mut [f32],
    work: &mut Workspace,
) -> f32 {
    let inputs = model.inputs(sample);
    let prediction = logistic(model.forward(&inputs, &mut work.accumulators));
    let error = prediction - sample.target(wdl);
    // d(error²)/d(output) through the sigmoid.
    let g = scale * 2.0 * error * prediction * (1.0 - prediction);
    let hidden = model.hidden();
    let params = model.params();
    let bucket = model.bucket(&inputs);
    let (feature_gradient, rest) = gradient.split_at_mut(layout.feature_bias.start);
    let (bias_gradient, output_gradient) = rest.split_at_mut(hidden);
    let (output_weight_gradient, output_bias_gradient) = output_gradient.split_at_mut(layout.output_weights.len());
    output_bias_gradient[bucket] += g;
    let active = [&inputs.ours[..inputs.count], &inputs.theirs[..inputs.count]];
    let bucket_weights = layout.bucket_weights(bucket);
    let output_weights = params[layout.output_weights.clone()][bucket_weights.clone()].chunks_exact(hidden);
    let parts = output_weight_gradient[bucket_weights].chunks_exact_mut(hidden).zip(output_weights);
    for (((weight_gradient, weights), (acc, slope)), features) in
        parts.zip(work.accumulators.iter().zip(&mut work.slopes)).zip(active)
    {
        let lanes =
            weight_gradient.iter_mut().zip(weights).zip(acc).zip(slope.iter_mut()).zip(bias_gradient.iter_mut());
        for ((((weight_gradient, &weight), &a), slope), bias_gradient) in lanes {
            *weight_gradient += g * screlu(a);
            *slope = g * weight * screlu_slope(a);
            *bias_gradient += *slope;
        }
        lanes::scatter(feature_gradient, slope, features);
    }
    error * error
}

/// The mean squared error over the samples `batch` picks from `samples`, its gradient
/// left in `gradients[0]`. `gradients` holds one buffer per thread, each the size of the
/// model's parameters.
pub fn batch_gradient(model: &Model, samples: &[Sample], batch: &[u32], wdl: f32, gradients: &mut [Vec<f32>]) -> f64 {
    if batch.is_empty() {
        gradients[0].fill(0.0);
        return 0.0;
    }
    let layout = model.layout();
    let per_thread = batch.len().div_ceil(gradients.len().max(1));
    let scale = 1.0 / batch.len() as f32;
    let slices = batch.chunks(per_thread).count();
    let total: f64 = std::thread::scope(|scope| {
        let workers: Vec<_> = gradients
            .iter_mut()
            .zip(batch.chunks(per_thread))
            .map(|(gradient, part)| {
                let layout = &layout;
                scope.spawn(move || {
                    gradient.fill(0.0);
                    part_gradient(model, layout, samples, part, wdl, scale, gradient)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).sum()
    });
    let (first, others) = gradients.split_at_mut(1);
    for other in &others[..slices - 1] {
        first[0].iter_mut().zip(other).for_each(|(a, b)| *a += b);
    }
    total / batch.len() as f64
}

/// The mean squared error of `model` over `samples`, on `threads` threads.
pub fn mean_loss(model: &Model, samples: &[Sample], wdl: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let per_thread = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let workers: Vec<_> =
            samples.chunks(per_thread).map(|part| scope.spawn(move || part_loss(model, part, wdl))).collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).sum()
    });
    total / samples.len() as f64
}

/// The sum of the squared errors over the samples `part` picks, with `scale` times their
/// gradient added to `gradient`.
fn part_gradient(
    model: &Model,
    layout: &Layout,
    samples: &[Sample],
    part: &[u32],
    wdl: f32,
    scale: f32,
    gradient: &mut [f32],
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (detected just above), all `avx2::part_gradient` requires.
        return unsafe { avx2::part_gradient(model, layout, samples, part, wdl, scale, gradient) };
    }
    part_gradient_lanes(model, layout, samples, part, wdl, scale, gradient)
}

/// The sum of the squared errors over `samples`.
fn part_loss(model: &Model, samples: &[Sample], wdl: f32) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (detected just above), all `avx2::part_loss` requires.
        return unsafe { avx2::part_loss(model, samples, wdl) };
    }
    part_loss_lanes(model, samples, wdl)
}

#[inline(always)]
fn part_gradient_lanes(
    model: &Model,
    layout: &Layout,
    samples: &[Sample],
    part: &[u32],
    wdl: f32,
    scale: f32,
    gradient: &mut [f32],
) -> f64 {
    // Plain loops here and below: an iterator's closure may be compiled apart from the
    // AVX2 copy that calls it, and without AVX2.
    let mut work = Workspace::new(model.hidden());
    let mut total = 0.0;
    for &i in part {
        total += f64::from(add_sample_gradient(model, layout, &samples[i as usize], wdl, scale, gradient, &mut work));
    }
    total
}

#[inline(always)]
fn part_loss_lanes(model: &Model, samples: &[Sample], wdl: f32) -> f64 {
    let mut accumulators = [Vec::new(), Vec::new()];
    let mut total = 0.0;
    for sample in samples {
        total += f64::from(sample_loss(model, sample, wdl, &mut accumulators));
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The same loops compiled for AVX2: twice the lanes an instruction, the same results
    //! (no fused multiply-adds, every sum in the same order).

    use super::*;

    /// [`super::part_gradient_lanes`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn part_gradient(
        model: &Model,
        layout: &Layout,
        samples: &[Sample],
        part: &[u32],
        wdl: f32,
        scale: f32,
        gradient: &mut [f32],
    ) -> f64 {
        part_gradient_lanes(model, layout, samples, part, wdl, scale, gradient)
    }

    /// [`super::part_loss_lanes`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn part_loss(model: &Model, samples: &[Sample], wdl: f32) -> f64 {
        part_loss_lanes(model, samples, wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::testing::random_move;
    use crate::random::SplitMix;
    use shakmaty::{Chess, Position};

    #[test]
    fn the_portable_and_dispatched_loops_give_the_same_bits() {
        let mut rng = SplitMix::new(90);
        let mut samples = Vec::new();
        for _ in 0..40 {
            let mut pos = Chess::default();
            for _ in 0..rng.below(80) {
                let Some(m) = random_move(&pos, &mut rng) else { break };
                pos.play_unchecked(m);
            }
            samples.extend(Sample::new(&pos, rng.range(-500, 500) as i16, 0.5));
        }
        for hidden in [32, 40] {
            let input_buckets =
                crate::eval::nnue::InputBuckets::parse(crate::eval::nnue::testing::INPUT_BUCKET_LAYOUTS[2]).unwrap();
            let model = Model::new(hidden, 3, input_buckets, 91);
            let layout = model.layout();
            let part: Vec<u32> = (0..samples.len() as u32).collect();
            let mut portable = vec![0.0; layout.parameters()];
            let mut dispatched = portable.clone();
            let a = part_gradient_lanes(&model, &layout, &samples, &part, 0.4, 0.025, &mut portable);
            let b = part_gradient(&model, &layout, &samples, &part, 0.4, 0.025, &mut dispatched);
            assert_eq!(a.to_bits(), b.to_bits());
            assert!(portable.iter().zip(&dispatched).all(|(x, y)| x.to_bits() == y.to_bits()));
            assert_eq!(part_loss_lanes(&model, &samples, 0.4).to_bits(), part_loss(&model, &samples, 0.4).to_bits());
        }
    }
}
