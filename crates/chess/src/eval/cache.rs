//! The evaluation cache: the static evaluation (classic or the network's) of recently seen
//! positions, by Zobrist key.
//!
//! Either evaluation is a pure function of the board, the side to move, castling rights and
//! the en-passant square (the key's inputs), so a cached value is the value the evaluation
//! would compute: the search sees the same numbers and `horizon bench` keeps its node count
//! (`Position::set_network` clears the cache, whose values belong to one evaluation). The
//! table entry carries the static evaluation too, but only while the entry survives; this
//! cache catches the positions the table lost or never stored (quiescence at a full table).

/// Entries per cache: 64 K of 8 bytes, 512 KiB. On `horizon bench` 8 K entries hit 19.6%,
/// 32 K 24.9% and 128 K 27.0% of the probes.
const ENTRIES: usize = 1 << 16;

/// The key's bits below this are the slot; the entry keeps the bits above as its tag, so a
/// hit verifies the whole key.
const SLOT_BITS: u32 = ENTRIES.trailing_zeros();
const _: () = assert!(SLOT_BITS == 16 && ENTRIES.is_power_of_two());

/// One entry: the key's upper 48 bits above the evaluation's 16 bits, stored offset by
/// `0x8000` so that an all-zero word (empty) decodes to `i16::MIN`, which is never stored.
/// Evaluations outside `i16` (never seen, but possible) are computed each time.
#[derive(Clone)]
pub struct EvalCache {
    entries: Box<[u64]>,
    hits: u64,
    probes: u64,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            entries: vec![0; ENTRIES].into_boxed_slice(),
            hits: 0,
            probes: 0,
        }
    }
}

impl std::fmt::Debug for EvalCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EvalCache({} hits of {} probes)", self.hits, self.probes)
    }
}

impl EvalCache {
    /// The cached evaluation of `key`, or `compute()`'s, which is then cached.
    #[inline]
    pub fn get_or_insert(&mut self, key: u64, compute: impl FnOnce() -> i32) -> i32 {
        let slot = (key as usize) & (ENTRIES - 1);
        let tag = key & !0xFFFF;
        self.probes += 1;
        let entry = self.entries[slot];
        let stored = i32::from((entry as u16 ^ 0x8000) as i16);
        if entry & !0xFFFF == tag && stored != i32::from(i16::MIN) {
            self.hits += 1;
            return stored;
        }
        let eval = compute();
        if eval > i32::from(i16::MIN) && eval <= i32::from(i16::MAX) {
            self.entries[slot] = tag | u64::from(eval as i16 as u16 ^ 0x8000);
        }
        eval
    }

    /// Forgets every evaluation (the counters go on).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// (hits, probes) since creation.
    pub fn counters(&self) -> (u64, u64) {
        (self.hits, self.probes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clear_forgets_the_values_and_keeps_the_counters() {
        let mut cache = EvalCache::default();
        assert_eq!(cache.get_or_insert(42, || 7), 7);
        cache.clear();
        assert_eq!(cache.get_or_insert(42, || 9), 9, "recomputed after clear");
        assert_eq!(cache.counters(), (0, 2));
        assert_eq!(cache.get_or_insert(42, || 11), 9);
        assert_eq!(cache.counters(), (1, 3));
    }

    #[test]
    fn returns_the_computed_value_then_the_cached_one() {
        let mut cache = EvalCache::default();
        assert_eq!(cache.get_or_insert(0xDEAD_BEEF_0000_0007, || -35), -35);
        assert_eq!(
            cache.get_or_insert(0xDEAD_BEEF_0000_0007, || unreachable!()),
            -35
        );
        assert_eq!(cache.counters(), (1, 2));
    }

    #[test]
    fn a_different_key_in_the_same_slot_is_recomputed() {
        let mut cache = EvalCache::default();
        let a = 0x1111_2222_0000_0005;
        let b = 0x3333_4444_0000_0005; // same slot, other tag
        assert_eq!(cache.get_or_insert(a, || 12), 12);
        assert_eq!(cache.get_or_insert(b, || -32_767), -32_767);
        assert_eq!(cache.get_or_insert(b, || unreachable!()), -32_767);
        assert_eq!(cache.get_or_insert(a, || 13), 13);
        assert_eq!(cache.counters(), (1, 4));
    }

    #[test]
    fn keys_differing_in_any_bit_do_not_share_an_entry() {
        let mut cache = EvalCache::default();
        let key = 0x0123_4567_89AB_CDEFu64;
        assert_eq!(cache.get_or_insert(key, || 77), 77);
        for bit in 16..64 {
            // Same slot (bits below 16), another tag.
            assert_eq!(
                cache.get_or_insert(key ^ (1 << bit), || -5),
                -5,
                "bit {bit}"
            );
            assert_eq!(cache.get_or_insert(key, || 77), 77);
        }
    }

    #[test]
    fn an_empty_slot_never_hits_and_wide_values_are_not_kept() {
        let mut cache = EvalCache::default();
        // Key 0 with an all-zero (empty) slot: a miss, then a hit.
        assert_eq!(cache.get_or_insert(0, || 0), 0);
        assert_eq!(cache.get_or_insert(0, || unreachable!()), 0);
        for wide in [40_000, -40_000, i32::from(i16::MIN)] {
            let key = 0xABCD_0000_0000_0001;
            assert_eq!(cache.get_or_insert(key, || wide), wide);
            assert_eq!(cache.get_or_insert(key, || wide), wide, "recomputed");
        }
        assert_eq!(cache.counters(), (1, 8));
    }
}
