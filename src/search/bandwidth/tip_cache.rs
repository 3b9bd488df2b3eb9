//! The bandwidth tree's cache of exact tip estimates, shared by the tips of a tree that
//! is a tree, not a graph: a position reached by two paths is valued once.

use crate::search::MATE;

/// A direct-mapped cache of exact tip estimates: the key's upper 40 bits, the look-ahead
/// and the 16-bit value packed in one word.
pub(super) struct TipCache {
    entries: Vec<u64>,
}

/// The bits of an entry that hold the key.
const CACHE_KEY_MASK: u64 = !0xFF_FFFF;

impl TipCache {
    /// A cache of at most `bytes` bytes (a power of two of entries).
    pub(super) fn new(bytes: usize) -> Result<TipCache, String> {
        // The largest power of two that fits, for masking instead of division.
        let count = 1usize << (bytes / size_of::<u64>()).max(1).ilog2();
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(count)
            .map_err(|_| format!("could not allocate {} MB for the tip cache", bytes >> 20))?;
        entries.resize(count, 0);
        Ok(TipCache { entries })
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    /// The cached value of the position with `key`, if it looked at least `depth` ahead.
    pub(super) fn get(&self, key: u64, depth: u32) -> Option<i32> {
        let entry = self.entries[self.slot(key)];
        let hit = entry != 0 && entry & CACHE_KEY_MASK == key & CACHE_KEY_MASK && (entry >> 16) as u8 as u32 >= depth;
        hit.then_some(entry as u16 as i16 as i32)
    }

    /// Keeps `value` for the position with `key`, looked at `depth` plies ahead.
    pub(super) fn put(&mut self, key: u64, depth: u32, value: i32) {
        let slot = self.slot(key);
        let value = value.clamp(-MATE, MATE) as i16 as u16 as u64;
        let depth = depth.min(u8::MAX as u32) as u64;
        self.entries[slot] = (key & CACHE_KEY_MASK) | depth << 16 | value;
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.entries.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tip_cache_keeps_values_by_key_and_look_ahead() {
        let mut cache = TipCache::new(1 << 12).unwrap();
        assert_eq!(cache.entries.len(), 512);
        cache.put(0xABCD_0000_1234_5678, 3, -250);
        assert_eq!(cache.get(0xABCD_0000_1234_5678, 3), Some(-250));
        assert_eq!(cache.get(0xABCD_0000_1234_5678, 2), Some(-250));
        assert_eq!(cache.get(0xABCD_0000_1234_5678, 4), None);
        assert_eq!(cache.get(0xABCE_0000_1234_5678, 1), None);
        cache.clear();
        assert_eq!(cache.get(0xABCD_0000_1234_5678, 0), None);
    }
}
