//! AdamW (Adam with weight decay kept apart from the gradient) and the learning rate's
//! schedule.

/// Decay of the gradient's running mean.
const BETA1: f32 = 0.9;
/// Decay of the squared gradient's running mean.
const BETA2: f32 = 0.999;
/// Keeps the step finite where a parameter's gradient has always been zero.
const EPSILON: f32 = 1e-8;
/// Each step shrinks every parameter by this share of the learning rate: a light pull
/// towards zero that keeps rarely seen inputs from drifting.
pub const WEIGHT_DECAY: f32 = 0.01;
/// The learning rate at the end of the run, as a share of the starting rate.
pub const FINAL_RATE_SHARE: f32 = 0.01;

/// The optimiser's running moments.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    mean: Vec<f32>,
    square: Vec<f32>,
    steps: u64,
}

impl AdamW {
    /// A fresh optimiser for `parameters` parameters.
    pub fn new(parameters: usize) -> AdamW {
        AdamW { mean: vec![0.0; parameters], square: vec![0.0; parameters], steps: 0 }
    }

    /// An optimiser resumed from its moments and step count (a checkpoint's).
    pub fn from_state(mean: Vec<f32>, square: Vec<f32>, steps: u64) -> AdamW {
        AdamW { mean, square, steps }
    }

    /// The running mean of the gradient, of its square, and the steps taken.
    pub fn state(&self) -> (&[f32], &[f32], u64) {
        (&self.mean, &self.square, self.steps)
    }

    /// Moves `params` one step against `gradient` at learning rate `rate`.
    pub fn step(&mut self, params: &mut [f32], gradient: &[f32], rate: f32) {
        self.steps += 1;
        let t = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let (bias1, bias2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        let moments = self.mean.iter_mut().zip(self.square.iter_mut());
        for ((p, &g), (m, v)) in params.iter_mut().zip(gradient).zip(moments) {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *p -= rate * ((*m / bias1) / ((*v / bias2).sqrt() + EPSILON) + WEIGHT_DECAY * *p);
        }
    }
}

/// The learning rate `progress` (0 to 1) of the way through a run that starts at `base`:
/// half a cosine down to `base · FINAL_RATE_SHARE`. A cosine needs no choice of where to
/// drop the rate, whatever the number of epochs; it stays high through most of the run and
/// ends with small steps that settle the weights before they are rounded for the engine.
pub fn learning_rate(base: f32, progress: f64) -> f32 {
    let floor = base * FINAL_RATE_SHARE;
    let cosine = (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos()) / 2.0;
    floor + (base - floor) * cosine as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_falls_from_the_base_to_its_floor() {
        assert_eq!(learning_rate(0.001, 0.0), 0.001);
        assert!((learning_rate(0.001, 1.0) - 0.001 * FINAL_RATE_SHARE).abs() < 1e-9);
        let rates: Vec<f32> = (0..=10).map(|i| learning_rate(0.001, f64::from(i) / 10.0)).collect();
        assert!(rates.windows(2).all(|pair| pair[1] < pair[0]));
    }

    #[test]
    fn a_step_goes_against_the_gradient_and_decay_pulls_towards_zero() {
        let mut adam = AdamW::new(3);
        let mut params = [1.0, -1.0, 0.5];
        adam.step(&mut params, &[0.2, -0.3, 0.0], 0.01);
        // The first step moves each parameter by about the rate, whatever the gradient's size.
        assert!((params[0] - (1.0 - 0.01 - 0.01 * WEIGHT_DECAY)).abs() < 1e-6);
        assert!((params[1] - (-1.0 + 0.01 + 0.01 * WEIGHT_DECAY)).abs() < 1e-6);
        assert!((params[2] - (0.5 - 0.01 * WEIGHT_DECAY * 0.5)).abs() < 1e-7, "decay alone: {}", params[2]);
        assert_eq!(adam.state().2, 1);
    }
}
