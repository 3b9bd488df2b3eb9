//! The network's hot loops over an accumulator's blocks: adding and subtracting weight
//! rows (in place, or from a parent accumulator into its child), and the SCReLU dot
//! product of the output layer.
//!
//! Each loop is written once, as plain fixed-size loops over a [`Block`] that LLVM
//! vectorises for the default x86-64 target (SSE2), and compiled a second time with AVX2
//! enabled; the AVX2 copy is taken when the CPU has it (checked once). A block's 64 lanes
//! stay in registers (8 SSE2 or 4 AVX2 registers) while every row is added to them.

#[cfg(target_arch = "x86_64")]
use once_cell::sync::Lazy;

use super::{BLOCK, Block, QA};

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

/// For each perspective `p`: `accs[p] += Σ rows[adds[p]] − Σ rows[subs[p]]`, lane by lane,
/// where row `r` is the `accs[p].len()` blocks of `rows` from block `r · accs[p].len()`.
/// Wrapping, so that a subtraction undoes an addition exactly whatever the values (the
/// loader's range check keeps real sums in range).
#[inline]
pub fn update(accs: [&mut [Block]; 2], rows: &[Block], adds: [&[usize]; 2], subs: [&[usize]; 2]) {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU has AVX2 (detected at run time), all `avx2::update` requires.
        return unsafe { avx2::update(accs, rows, adds, subs) };
    }
    update_blocks::<false>(accs, [&[], &[]], rows, adds, subs)
}

/// [`update`] from other accumulators: `outs[p] = sources[p] + Σ rows[adds[p]] −
/// Σ rows[subs[p]]`, each lane read once and written once.
#[inline]
pub fn update_from(
    outs: [&mut [Block]; 2],
    sources: [&[Block]; 2],
    rows: &[Block],
    adds: [&[usize]; 2],
    subs: [&[usize]; 2],
) {
    debug_assert!(outs.iter().zip(&sources).all(|(out, source)| out.len() == source.len()));
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU has AVX2 (detected at run time), all `avx2::update_from` requires.
        return unsafe { avx2::update_from(outs, sources, rows, adds, subs) };
    }
    update_blocks::<true>(outs, sources, rows, adds, subs)
}

/// `Σ clamp(acc, 0, QA)² · weights` over the lanes of equally long `acc` and `weights`.
#[inline]
pub fn screlu_dot(acc: &[Block], weights: &[Block]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if use_avx2() {
        // SAFETY: the CPU has AVX2 (detected at run time), all `avx2::screlu_dot` requires.
        return unsafe { avx2::screlu_dot(acc, weights) };
    }
    screlu_dot_blocks(acc, weights)
}

/// [`update`]'s loops (from `sources` when `FROM`, in place otherwise), compiled for the
/// common widths with the width a constant (the row of an input is then one
/// bounds-checked step into rows of fixed size), and for any other width with the width
/// read at run time.
#[inline(always)]
fn update_blocks<const FROM: bool>(
    outs: [&mut [Block]; 2],
    sources: [&[Block]; 2],
    rows: &[Block],
    adds: [&[usize]; 2],
    subs: [&[usize]; 2],
) {
    match outs[0].len() {
        2 => update_width::<2, FROM>(outs, sources, rows, adds, subs),
        4 => update_width::<4, FROM>(outs, sources, rows, adds, subs),
        8 => update_width::<8, FROM>(outs, sources, rows, adds, subs),
        width => {
            for (((out, source), adds), subs) in outs.into_iter().zip(sources).zip(adds).zip(subs) {
                for (index, block) in out.iter_mut().enumerate() {
                    let start = if FROM { source[index] } else { *block };
                    *block = update_block(start, |row| &rows[row * width + index], adds, subs);
                }
            }
        }
    }
}

/// [`update_blocks`] for accumulators `W` blocks wide.
#[inline(always)]
fn update_width<const W: usize, const FROM: bool>(
    outs: [&mut [Block]; 2],
    sources: [&[Block]; 2],
    rows: &[Block],
    adds: [&[usize]; 2],
    subs: [&[usize]; 2],
) {
    let (rows, _) = rows.as_chunks::<W>();
    for (((out, source), adds), subs) in outs.into_iter().zip(sources).zip(adds).zip(subs) {
        for (index, block) in out.iter_mut().take(W).enumerate() {
            let start = if FROM { source[index] } else { *block };
            *block = update_block(start, |row| &rows[row][index], adds, subs);
        }
    }
}

/// The block `start` plus the same block of the `adds` rows and minus that of the `subs`
/// rows, `row_block` giving a row's block; the lanes stay in registers.
#[inline(always)]
fn update_block<'a>(start: Block, row_block: impl Fn(usize) -> &'a Block, adds: &[usize], subs: &[usize]) -> Block {
    let mut lanes = start.0;
    for &row in adds {
        for (value, weight) in lanes.iter_mut().zip(&row_block(row).0) {
            *value = value.wrapping_add(*weight);
        }
    }
    for &row in subs {
        for (value, weight) in lanes.iter_mut().zip(&row_block(row).0) {
            *value = value.wrapping_sub(*weight);
        }
    }
    Block(lanes)
}

#[inline(always)]
fn screlu_dot_blocks(acc: &[Block], weights: &[Block]) -> i64 {
    acc.iter().zip(weights).map(|(acc, weights)| i64::from(screlu_dot_block(acc, weights))).sum()
}

/// One block's share: at most `BLOCK · QA² · (i16::MAX / QA)` < 2^29 in magnitude.
#[inline(always)]
fn screlu_dot_block(acc: &Block, weights: &Block) -> i32 {
    // Clamped values and their products with the weights first, in i16 lanes (clamped·weight
    // fits: the loader keeps |weight| ≤ i16::MAX / QA), then a plain dot product of the two,
    // which LLVM turns into multiply-adds of i16 pairs; in one loop it does not.
    let mut clamped = [0i16; BLOCK];
    let mut weighted = [0i16; BLOCK];
    for lane in 0..BLOCK {
        clamped[lane] = acc.0[lane].clamp(0, QA as i16);
        weighted[lane] = clamped[lane] * weights.0[lane];
    }
    clamped.iter().zip(&weighted).map(|(&c, &cw)| i32::from(c) * i32::from(cw)).sum()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The same loops compiled for AVX2.

    use super::Block;

    /// [`super::update`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn update(accs: [&mut [Block]; 2], rows: &[Block], adds: [&[usize]; 2], subs: [&[usize]; 2]) {
        super::update_blocks::<false>(accs, [&[], &[]], rows, adds, subs)
    }

    /// [`super::update_from`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn update_from(
        outs: [&mut [Block]; 2],
        sources: [&[Block]; 2],
        rows: &[Block],
        adds: [&[usize]; 2],
        subs: [&[usize]; 2],
    ) {
        super::update_blocks::<true>(outs, sources, rows, adds, subs)
    }

    /// [`super::screlu_dot_blocks`] with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &[Block], weights: &[Block]) -> i64 {
        super::screlu_dot_blocks(acc, weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix;

    /// `width` blocks of random lanes within ±`limit`.
    fn random_blocks(rng: &mut SplitMix, width: usize, limit: i32) -> Vec<Block> {
        (0..width)
            .map(|_| {
                let mut block = Block([0; BLOCK]);
                block.0.iter_mut().for_each(|v| *v = rng.range(-limit, limit) as i16);
                block
            })
            .collect()
    }

    fn lanes(blocks: &[Block]) -> Vec<i32> {
        blocks.iter().flat_map(|block| block.0).map(i32::from).collect()
    }

    #[test]
    fn both_copies_agree_with_a_plain_loop() {
        let mut rng = SplitMix::new(5);
        // The widths compiled with the width a constant, and others read at run time.
        for width in [1, 2, 3, 4, 5, 8] {
            let acc = random_blocks(&mut rng, width, 600);
            let rows: Vec<Block> = (0..4).flat_map(|_| random_blocks(&mut rng, width, 500)).collect();
            let weights = random_blocks(&mut rng, width, 128);
            let row = |r: usize| lanes(&rows[width * r..width * (r + 1)]);
            let expected: Vec<i32> =
                (0..width * BLOCK).map(|i| lanes(&acc)[i] + row(0)[i] + row(1)[i] - row(2)[i] - row(3)[i]).collect();
            let dot: i64 =
                lanes(&acc).iter().zip(lanes(&weights)).map(|(&a, w)| i64::from(a.clamp(0, QA).pow(2) * w)).sum();
            let (mut portable, mut other) = (acc.clone(), acc.clone());
            update_blocks::<false>([&mut portable, &mut other], [&[], &[]], &rows, [&[0, 1], &[]], [&[2, 3], &[]]);
            assert_eq!((lanes(&portable), &other), (expected.clone(), &acc));
            // From a parent into children whose lanes were anything before.
            let garbage = random_blocks(&mut rng, width, 900);
            let (mut portable, mut dispatched) = (garbage.clone(), garbage.clone());
            let (mut portable_other, mut dispatched_other) = (garbage.clone(), garbage.clone());
            let source_other = random_blocks(&mut rng, width, 600);
            let (adds, subs): ([&[usize]; 2], [&[usize]; 2]) = ([&[0, 1], &[]], [&[2, 3], &[]]);
            update_blocks::<true>([&mut portable, &mut portable_other], [&acc, &source_other], &rows, adds, subs);
            update_from([&mut dispatched, &mut dispatched_other], [&acc, &source_other], &rows, adds, subs);
            assert_eq!((lanes(&portable), &portable_other), (expected.clone(), &source_other));
            assert_eq!((lanes(&dispatched), &dispatched_other), (expected.clone(), &source_other));
            assert_eq!(screlu_dot_blocks(&acc, &weights), dot);
            let (mut dispatched, mut other) = (acc.clone(), acc.clone());
            update([&mut other, &mut dispatched], &rows, [&[], &[1, 0]], [&[], &[3, 2]]);
            assert_eq!((lanes(&dispatched), &other), (expected, &acc));
            assert_eq!(screlu_dot(&acc, &weights), dot);
        }
    }
}
