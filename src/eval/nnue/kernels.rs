//! The network's hot loops over `HIDDEN` lanes: adding and subtracting weight rows, and the
//! SCReLU dot product of the output layer.
//!
//! Each loop is written once, as plain fixed-size loops that LLVM vectorises for the
//! default x86-64 target (SSE2), and compiled a second time with AVX2 enabled; the AVX2
//! copy is taken when the CPU has it (checked once).

#[cfg(target_arch = "x86_64")]
use once_cell::sync::Lazy;

use super::{HIDDEN, Lanes, QA};

/// Lanes updated at a time, kept in registers while every row is added to them: 64 lanes
/// are 8 SSE2 or 4 AVX2 registers.
const BLOCK: usize = 64;

/// Whether this CPU runs the AVX2 copies, asked once.
#[cfg(target_arch = "x86_64")]
static AVX2: Lazy<bool> = Lazy::new(|| std::arch::is_x86_feature_detected!("avx2"));

/// Whether to take the AVX2 copies.
#[cfg(target_arch = "x86_64")]
#[inline]
fn use_avx2() -> bool {
    #[cfg(test)]
    if PORTABLE_ONLY.with(std::cell::Cell::get) {
        return false;
    }
    *AVX2
}

#[cfg(test)]
thread_local! {
    /// Set by the speed test to time the portable loops on a CPU with AVX2.
    pub static PORTABLE_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// For each perspective `p`: `accs[p] += Σ rows[adds[p]] − Σ rows[subs[p]]`, lane by lane.
/// Wrapping, so that a subtraction undoes an addition exactly whatever the values (the
/// loader's range check keeps real sums in range).
#[inline]
pub fn update(accs: [&mut Lanes; 2], rows: &[Lanes], adds: [&[usize]; 2], subs: [&[usize]; 2]) {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU has AVX2 (detected at run time), all `avx2::update` requires.
        return unsafe { avx2::update(accs, rows, adds, subs) };
    }
    update_lanes(accs, rows, adds, subs)
}

/// `Σ clamp(acc, 0, QA)² · weights` over the lanes.
#[inline]
pub fn screlu_dot(acc: &Lanes, weights: &Lanes) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU has AVX2 (detected at run time), all `avx2::screlu_dot` requires.
        return unsafe { avx2::screlu_dot(acc, weights) };
    }
    screlu_dot_lanes(acc, weights)
}

#[inline(always)]
fn update_lanes(accs: [&mut Lanes; 2], rows: &[Lanes], adds: [&[usize]; 2], subs: [&[usize]; 2]) {
    for ((acc, adds), subs) in accs.into_iter().zip(adds).zip(subs) {
        for start in (0..HIDDEN).step_by(BLOCK) {
            let lanes = start..start + BLOCK;
            let mut block = [0i16; BLOCK];
            block.copy_from_slice(&acc.0[lanes.clone()]);
            for &row in adds {
                for (value, weight) in block.iter_mut().zip(&rows[row].0[lanes.clone()]) {
                    *value = value.wrapping_add(*weight);
                }
            }
            for &row in subs {
                for (value, weight) in block.iter_mut().zip(&rows[row].0[lanes.clone()]) {
                    *value = value.wrapping_sub(*weight);
                }
            }
            acc.0[lanes].copy_from_slice(&block);
        }
    }
}

#[inline(always)]
fn screlu_dot_lanes(acc: &Lanes, weights: &Lanes) -> i32 {
    // Clamped values and their products with the weights first, in i16 lanes (clamped·weight
    // fits: the loader keeps |weight| ≤ i16::MAX / QA), then a plain dot product of the two,
    // which LLVM turns into multiply-adds of i16 pairs; in one loop it does not (SSE2: 22 ns
    // against 16 ns a call).
    let mut clamped = [0i16; HIDDEN];
    let mut weighted = [0i16; HIDDEN];
    for lane in 0..HIDDEN {
        clamped[lane] = acc.0[lane].clamp(0, QA as i16);
        weighted[lane] = clamped[lane] * weights.0[lane];
    }
    clamped.iter().zip(&weighted).map(|(&c, &cw)| i32::from(c) * i32::from(cw)).sum()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The same loops compiled for AVX2.

    use super::Lanes;

    /// [`super::update_lanes`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn update(accs: [&mut Lanes; 2], rows: &[Lanes], adds: [&[usize]; 2], subs: [&[usize]; 2]) {
        super::update_lanes(accs, rows, adds, subs)
    }

    /// [`super::screlu_dot_lanes`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &Lanes, weights: &Lanes) -> i32 {
        super::screlu_dot_lanes(acc, weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix;

    fn random_lanes(rng: &mut SplitMix, limit: i32) -> Lanes {
        let mut lanes = Lanes([0; HIDDEN]);
        lanes.0.iter_mut().for_each(|v| *v = rng.range(-limit, limit) as i16);
        lanes
    }

    #[test]
    fn both_copies_agree_with_a_plain_loop() {
        let mut rng = SplitMix::new(5);
        for _ in 0..50 {
            let acc = random_lanes(&mut rng, 600);
            let rows: Vec<Lanes> = (0..4).map(|_| random_lanes(&mut rng, 500)).collect();
            let weights = random_lanes(&mut rng, 128);
            let mut expected = acc;
            for i in 0..HIDDEN {
                expected.0[i] = expected.0[i] + rows[0].0[i] + rows[1].0[i] - rows[2].0[i] - rows[3].0[i];
            }
            let dot: i32 = (0..HIDDEN).map(|i| i32::from(acc.0[i]).clamp(0, QA).pow(2) * i32::from(weights.0[i])).sum();
            let (mut portable, mut other) = (acc, acc);
            update_lanes([&mut portable, &mut other], &rows, [&[0, 1], &[]], [&[2, 3], &[]]);
            assert_eq!((portable, other), (expected, acc));
            assert_eq!(screlu_dot_lanes(&acc, &weights), dot);
            let (mut dispatched, mut other) = (acc, acc);
            update([&mut other, &mut dispatched], &rows, [&[], &[1, 0]], [&[], &[3, 2]]);
            assert_eq!((dispatched, other), (expected, acc));
            assert_eq!(screlu_dot(&acc, &weights), dot);
        }
    }
}
