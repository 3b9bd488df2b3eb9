//! The trainer's loops over the hidden lanes, shaped for LLVM's vectoriser: a block of
//! lanes stays in registers while every active row is added to it, and sums are split
//! into interleaved partial sums. Every lane sees its additions in the same order at any
//! vector width, so results do not depend on the CPU. Plain indexed loops rather than
//! iterator closures, which may be compiled apart from the AVX2 copy that calls them.

/// Lanes kept in registers at a time: 8 SSE or 4 AVX registers.
const REGISTER_LANES: usize = 32;
/// Interleaved partial sums of a dot product (a float sum in one chain would wait on
/// each addition).
const PARTIAL_SUMS: usize = 8;

/// `acc = bias + Σ rows[feature]` over `features`, each row `bias.len()` wide.
#[inline(always)]
pub fn accumulate(acc: &mut [f32], bias: &[f32], rows: &[f32], features: &[u16]) {
    let hidden = bias.len();
    let whole = hidden - hidden % REGISTER_LANES;
    for start in (0..whole).step_by(REGISTER_LANES) {
        let mut block = [0.0; REGISTER_LANES];
        block.copy_from_slice(&bias[start..start + REGISTER_LANES]);
        for &feature in features {
            let row = &rows[usize::from(feature) * hidden + start..][..REGISTER_LANES];
            for lane in 0..REGISTER_LANES {
                block[lane] += row[lane];
            }
        }
        acc[start..start + REGISTER_LANES].copy_from_slice(&block);
    }
    for lane in whole..hidden {
        acc[lane] = bias[lane];
        for &feature in features {
            acc[lane] += rows[usize::from(feature) * hidden + lane];
        }
    }
}

/// `rows[feature] += delta` for every one of `features`, each row `delta.len()` wide.
#[inline(always)]
pub fn scatter(rows: &mut [f32], delta: &[f32], features: &[u16]) {
    let hidden = delta.len();
    let whole = hidden - hidden % REGISTER_LANES;
    for start in (0..whole).step_by(REGISTER_LANES) {
        let mut block = [0.0; REGISTER_LANES];
        block.copy_from_slice(&delta[start..start + REGISTER_LANES]);
        for &feature in features {
            let row = &mut rows[usize::from(feature) * hidden + start..][..REGISTER_LANES];
            for lane in 0..REGISTER_LANES {
                row[lane] += block[lane];
            }
        }
    }
    for &feature in features {
        for lane in whole..hidden {
            rows[usize::from(feature) * hidden + lane] += delta[lane];
        }
    }
}

/// `Σ screlu(acc) · weights`.
#[inline(always)]
pub fn screlu_dot(acc: &[f32], weights: &[f32]) -> f32 {
    let mut sums = [0.0; PARTIAL_SUMS];
    let pairs = acc.chunks_exact(PARTIAL_SUMS).zip(weights.chunks_exact(PARTIAL_SUMS));
    for (a, w) in pairs {
        for lane in 0..PARTIAL_SUMS {
            sums[lane] += screlu(a[lane]) * w[lane];
        }
    }
    let mut total = 0.0;
    for sum in sums {
        total += sum;
    }
    for lane in acc.len() - acc.len() % PARTIAL_SUMS..acc.len() {
        total += screlu(acc[lane]) * weights[lane];
    }
    total
}

/// SCReLU: the square of the input clamped to [0, 1].
#[inline]
pub fn screlu(x: f32) -> f32 {
    let clamped = x.clamp(0.0, 1.0);
    clamped * clamped
}

/// SCReLU's slope: 2x inside (0, 1), flat outside.
#[inline]
pub fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix;

    #[test]
    fn the_loops_agree_with_plain_ones_at_any_width() {
        let mut rng = SplitMix::new(4);
        let mut random = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.range(-1000, 1000) as f32 / 700.0).collect() };
        for hidden in [8, 32, 40, 128] {
            let rows = random(20 * hidden);
            let (bias, delta, weights) = (random(hidden), random(hidden), random(hidden));
            let features = [3u16, 17, 0, 9];
            let mut acc = vec![0.0; hidden];
            accumulate(&mut acc, &bias, &rows, &features);
            let mut scattered = rows.clone();
            scatter(&mut scattered, &delta, &features);
            for lane in 0..hidden {
                let expected = features.iter().fold(bias[lane], |s, &f| s + rows[f as usize * hidden + lane]);
                assert_eq!(acc[lane], expected);
                for &f in &features {
                    let index = f as usize * hidden + lane;
                    assert_eq!(scattered[index], rows[index] + delta[lane]);
                }
            }
            let dot: f32 = acc.iter().zip(&weights).map(|(&a, &w)| screlu(a) * w).sum();
            assert!((screlu_dot(&acc, &weights) - dot).abs() < 1e-4 * (1.0 + dot.abs()));
        }
    }
}
