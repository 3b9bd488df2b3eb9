//! The transposition table: four 16-byte entries per 64-byte bucket, depth-preferred
//! replacement with aging, mate scores stored relative to the node.
//!
//! Search threads share one table without locks: an entry is two atomic words, the data
//! and the key xor the data, so a read torn by a concurrent write fails the key check and
//! reads as a miss.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::moves::{MoveCode, NO_MOVE};

use crate::value::TB_WIN_BOUND;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The exact value.
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

/// A table hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Best or refuting move, or [`NO_MOVE`].
    pub mv: MoveCode,
    /// Value, already adjusted to the probing ply.
    pub value: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Draft of the stored search.
    pub depth: i32,
    /// Bound type of `value`.
    pub bound: TtBound,
}

impl TtHit {
    /// True when the stored value settles a search with the window (`alpha`, `beta`): it
    /// is exact, or a bound at or beyond the window's edge (fail-soft).
    #[inline]
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        self.bound.settles(self.value, alpha, beta)
    }
}

impl TtBound {
    /// True when `value` with this bound settles a search with the window (`alpha`, `beta`).
    #[inline]
    pub fn settles(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            TtBound::Exact => true,
            TtBound::Lower => value >= beta,
            TtBound::Upper => value <= alpha,
        }
    }
}

/// One entry as the search sees it.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u16,
    value: i16,
    eval: i16,
    depth: u8,
    /// Generation in the upper six bits, bound in the lower two (0 = empty).
    age_bound: u8,
}

impl Entry {
    /// Everything but the key, in one word.
    fn data(&self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.value as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.age_bound) << 56
    }

    fn from_data(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: data as u16,
            value: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            age_bound: (data >> 56) as u8,
        }
    }
}

/// An entry as stored: the key xor the data, and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        Entry::from_data(self.check.load(Ordering::Relaxed) ^ data, data)
    }

    fn save(&self, entry: &Entry) {
        let data = entry.data();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(entry.key ^ data, Ordering::Relaxed);
    }
}

const ENTRIES_PER_BUCKET: usize = 4;
/// Generations wrap at 64; the bound takes the two low bits.
const AGE_STEP: u8 = 4;
/// The bound's bits of `age_bound` (0 marks an empty slot).
const BOUND_MASK: u8 = AGE_STEP - 1;
/// How many draft plies one generation of age is worth when choosing a victim.
const AGE_WEIGHT: i32 = 4;

/// The bound's code in `age_bound`: never 0, which marks an empty slot.
fn bound_bits(bound: TtBound) -> u8 {
    match bound {
        TtBound::Exact => 1,
        TtBound::Lower => 2,
        TtBound::Upper => 3,
    }
}

/// The bound of a slot's `age_bound`, `None` for an empty slot.
fn bound_of(age_bound: u8) -> Option<TtBound> {
    match age_bound & BOUND_MASK {
        0 => None,
        1 => Some(TtBound::Exact),
        2 => Some(TtBound::Lower),
        _ => Some(TtBound::Upper),
    }
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

/// The table itself, shared by every search thread.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

/// The smallest table size a `Hash` value may give, in MB.
pub const MIN_HASH_MB: usize = 1;
/// The largest, in MB.
pub const MAX_HASH_MB: usize = 32_768;

/// Asks Linux to back the whole 2 MB pages inside the table's allocation with huge pages.
/// A probe lands at a random address: with 4 KB pages nearly every one misses the TLB (the
/// processor's cache of address translations, which covers a few MB) and waits for a page
/// walk; with 2 MB pages the TLB covers the table many times over. Only a hint: where the
/// kernel has transparent huge pages off, or has none free, the table keeps 4 KB pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    const HUGE_PAGE: usize = 2 * 1024 * 1024;
    let start = buckets.as_ptr() as usize;
    let end = start + buckets.capacity() * size_of::<Bucket>();
    let first = start.next_multiple_of(HUGE_PAGE);
    let whole = end.saturating_sub(first) / HUGE_PAGE * HUGE_PAGE;
    if whole > 0 {
        // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE
        // changes how its pages are backed, never their contents.
        unsafe { libc::madvise(first as *mut libc::c_void, whole, libc::MADV_HUGEPAGE) };
    }
}

impl TranspositionTable {
    /// A table of `mb` megabytes, or an error when the memory cannot be had.
    pub fn new(mb: usize) -> Result<TranspositionTable, String> {
        let mb = mb.clamp(MIN_HASH_MB, MAX_HASH_MB);
        let count = mb * 1024 * 1024 / size_of::<Bucket>();
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| format!("could not allocate {mb} MB for the hash table"))?;
        // Before the fill, which faults the pages in: the advice applies to pages not yet there.
        #[cfg(target_os = "linux")]
        advise_huge_pages(&buckets);
        buckets.extend((0..count).map(|_| Bucket::default()));
        Ok(TranspositionTable { buckets, age: AtomicU8::new(0) })
    }

    /// Empties the table.
    pub fn clear(&self) {
        let empty = Entry::default();
        for slot in self.buckets.iter().flat_map(|b| b.0.iter()) {
            slot.save(&empty);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that the probe a
    /// moment later finds it there instead of waiting for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = &self.buckets[self.bucket_index(key)];
            // SAFETY: a prefetch is only a hint; it never dereferences the address.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast()) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Starts a new search: entries from earlier searches become replaceable.
    pub fn new_search(&self) {
        self.age.fetch_add(AGE_STEP, Ordering::Relaxed);
    }

    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Looks `key` up; `ply` converts mate values back to this node.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let bucket = &self.buckets[self.bucket_index(key)];
        bucket.0.iter().map(Slot::load).find_map(|e| {
            let bound = bound_of(e.age_bound).filter(|_| e.key == key)?;
            Some(TtHit {
                mv: e.mv,
                value: value_from_tt(e.value as i32, ply),
                eval: e.eval as i32,
                depth: e.depth as i32,
                bound,
            })
        })
    }

    /// Stores a search result.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, ply: usize, mv: MoveCode, value: i32, eval: i32, depth: i32, bound: TtBound) {
        let index = self.bucket_index(key);
        let age = self.age.load(Ordering::Relaxed);
        let bucket: [Entry; ENTRIES_PER_BUCKET] = std::array::from_fn(|i| self.buckets[index].0[i].load());
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry| {
                    if bound_of(e.age_bound).is_none() {
                        return i32::MIN;
                    }
                    let age_diff = (age.wrapping_sub(e.age_bound & !BOUND_MASK) / AGE_STEP) as i32;
                    e.depth as i32 - AGE_WEIGHT * age_diff
                };
                (0..ENTRIES_PER_BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            }
        };
        let entry = &bucket[slot];
        // Keep an older move for the same position when this search found none.
        let mv = if mv == NO_MOVE && entry.key == key { entry.mv } else { mv };
        self.buckets[index].0[slot].save(&Entry {
            key,
            mv,
            value: value_to_tt(value, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            age_bound: age | bound_bits(bound),
        });
    }

    /// Occupancy by entries of the current search, in per mille (sampled).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000 / ENTRIES_PER_BUCKET);
        let age = self.age.load(Ordering::Relaxed);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter().map(Slot::load))
            .filter(|e| bound_of(e.age_bound).is_some() && e.age_bound & !BOUND_MASK == age)
            .count();
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// Mate and tablebase values are stored as distance from this node, so they stay true at
/// any ply.
fn value_to_tt(value: i32, ply: usize) -> i32 {
    if value >= TB_WIN_BOUND {
        value + ply as i32
    } else if value <= -TB_WIN_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn value_from_tt(value: i32, ply: usize) -> i32 {
    if value >= TB_WIN_BOUND {
        value - ply as i32
    } else if value <= -TB_WIN_BOUND {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{MATE, mate_in};

    #[test]
    fn stores_and_finds_with_mate_adjustment() {
        let tt = TranspositionTable::new(1).unwrap();
        tt.store(42, 3, 77, mate_in(5), 10, 6, TtBound::Exact);
        let hit = tt.probe(42, 7).unwrap();
        assert_eq!(hit.value, MATE - 9);
        assert_eq!((hit.mv, hit.depth, hit.bound, hit.eval), (77, 6, TtBound::Exact, 10));
        assert!(tt.probe(43, 0).is_none());
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
    }

    #[test]
    fn deeper_entries_survive_in_a_full_bucket() {
        let tt = TranspositionTable::new(1).unwrap();
        let n = tt.buckets.len() as u128;
        // Keys that land in bucket 0.
        let keys: Vec<u64> = (0..6u64).map(|i| i + 1).collect();
        assert!(keys.iter().all(|&k| (k as u128 * n) >> 64 == 0));
        for (i, &k) in keys.iter().enumerate() {
            tt.store(k, 0, 0, 0, 0, 10 - i as i32, TtBound::Lower);
        }
        assert!(tt.probe(keys[0], 0).is_some(), "deepest entry kept");
        assert!(tt.probe(keys[5], 0).is_some(), "newest entry stored");
    }

    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        let tt = std::sync::Arc::new(TranspositionTable::new(1).unwrap());
        // Few buckets for many keys, so that writers keep overwriting each other's slots.
        let key = |i: u64| (i % 512).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let value_of = |k: u64| (k % 1000) as i32;
        let writers: Vec<_> = (0..2u64)
            .map(|t| {
                let tt = tt.clone();
                std::thread::spawn(move || {
                    for i in 0..200_000u64 {
                        let k = key(i * 2 + t);
                        tt.store(k, 0, (k % 4096) as u16, value_of(k), -value_of(k), (k % 60) as i32, TtBound::Exact);
                    }
                })
            })
            .collect();
        let mut hits = 0;
        // Read while the writers run (however the machine schedules them), then once more.
        loop {
            let writing = writers.iter().any(|w| !w.is_finished());
            for i in 0..4_096u64 {
                let k = key(i);
                if let Some(hit) = tt.probe(k, 0) {
                    hits += 1;
                    assert_eq!((hit.mv, hit.value, hit.eval), ((k % 4096) as u16, value_of(k), -value_of(k)));
                    assert_eq!(hit.depth, (k % 60) as i32);
                }
            }
            if !writing {
                break;
            }
        }
        writers.into_iter().for_each(|w| w.join().unwrap());
        assert!(hits > 0);
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..200_000u64 {
            tt.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, 0, 0, 0, 1, TtBound::Exact);
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
