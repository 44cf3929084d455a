//! A lock-free transposition table that several search threads share.
//!
//! An entry is four `AtomicU64` words (32 bytes, two entries per 64-byte cache line):
//!
//! | word | contents                                                          |
//! |------|-------------------------------------------------------------------|
//! | `w0` | `key ^ w1 ^ w2`                                                   |
//! | `w1` | data: move (bits 0-15), value (16-31), static eval (32-47),       |
//! |      | depth (48-55), bound (56-57, 0 = empty), flags (58-63)            |
//! | `w2` | meta: generation (bits 0-7), iteration (8-15), path signature (16-63) |
//! | `w3` | `key_ext ^ w1 ^ w2`                                               |
//!
//! Every access is a `Relaxed` atomic load or store, so sharing the table is free of data
//! races without any lock. Two writers may still interleave their words in one slot, and a
//! reader may see words of two different writes; the key words are stored XORed with the
//! payload (Hyatt's lockless hashing) so such a torn entry fails verification and reads as a
//! miss instead of handing one position another position's data.
//!
//! The same memory serves every [`Replacement`] policy: a key maps to a group of `ways`
//! consecutive slots starting at `(key & mask) & !(ways - 1)`.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::large_pages::{CACHE_LINE, LargeArray, Zeroable};
use crate::score::Bound;

/// Bytes per entry.
const ENTRY_BYTES: usize = 32;
/// The smallest table: one group of the widest policy.
const MIN_ENTRIES: usize = 4;
/// The widest group ([`Replacement::Bucket`]).
const MAX_WAYS: usize = 4;
/// Entries sampled by [`TranspositionTable::hashfull`].
const HASHFULL_SAMPLE: usize = 1000;
/// Depth is stored in an `i8`; -1 is the deepest quiescence entry the search stores.
const MIN_DEPTH: i32 = -1;
const MAX_DEPTH: i32 = 127;
/// In [`Replacement::Bucket`], one search of age outweighs this many plies of depth.
const AGE_WEIGHT: i32 = 8;

/// Bits of a path signature the meta word keeps.
pub const PATH_SIGNATURE_BITS: u32 = 48;
const PATH_SIGNATURE_SHIFT: u32 = 16;

const BOUND_SHIFT: u32 = 56;
const FLAGS_SHIFT: u32 = 58;
/// Flags occupy the top 6 bits of the data word.
const FLAGS_MASK: u8 = 0x3F;

/// How a store chooses the slot it writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// One slot per key, always overwritten.
    Always,
    /// One slot per key, kept unless the new entry is at least as deep or the old one is from
    /// an earlier search.
    DepthPreferred,
    /// Two slots: a depth-preferred one and an always-replace one (Breuker's TwoDeep).
    TwoTier,
    /// Four slots: the new entry evicts the shallowest, oldest entry.
    Bucket,
    /// Two slots, one 64-byte cache line per probe (issue 17): the eviction rule of
    /// [`Replacement::Bucket`] over half as many slots.
    Line,
}

impl Replacement {
    /// Every policy, for option lists and experiments.
    pub const ALL: [Replacement; 5] = [
        Replacement::Always,
        Replacement::DepthPreferred,
        Replacement::TwoTier,
        Replacement::Bucket,
        Replacement::Line,
    ];

    /// The policy's name in options and reports.
    pub fn name(self) -> &'static str {
        match self {
            Replacement::Always => "always",
            Replacement::DepthPreferred => "depth",
            Replacement::TwoTier => "two-tier",
            Replacement::Bucket => "bucket",
            Replacement::Line => "line",
        }
    }

    /// The policy called `name` (as [`Replacement::name`] spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|policy| policy.name() == name)
    }

    /// Slots in the group a key maps to (a power of two, at most `MAX_WAYS`).
    fn ways(self) -> usize {
        match self {
            Replacement::Always | Replacement::DepthPreferred => 1,
            Replacement::TwoTier | Replacement::Line => 2,
            Replacement::Bucket => MAX_WAYS,
        }
    }
}

/// The bits of [`Hit::flags`] and [`Store::flags`], as plain `u8` constants so they combine
/// with `|` and test with `&` (6 bits are stored; higher bits are dropped).
pub struct EntryFlags;

impl EntryFlags {
    /// The value rests on a repetition or move-rule draw, so it depends on the path that
    /// reached the position (the graph history interaction problem).
    pub const PATH_DEPENDENT: u8 = 1;
    /// Stored from a null-move cutoff.
    pub const NULL_MOVE: u8 = 2;
    /// Stored by a pre-search.
    pub const PRESEARCH: u8 = 4;
    /// Stored by a node on (or once on) the principal variation (`SearchConfig::tt_pv`).
    pub const PV: u8 = 8;
}

/// An entry found by [`TranspositionTable::probe`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The game's 16-bit move encoding; 0 for none.
    pub mv: u16,
    /// The value as stored: convert mate scores with [`crate::score::from_table`].
    pub value: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The draft the value was searched to.
    pub depth: i32,
    /// What the value says about the true score.
    pub bound: Bound,
    /// The search (`go`) that stored it.
    pub generation: u8,
    /// The iterative-deepening iteration that stored it.
    pub iteration: u8,
    /// [`EntryFlags`] bits.
    pub flags: u8,
    /// The stored [`Store::path_signature`] (48 bits).
    pub path_signature: u64,
}

/// What [`TranspositionTable::store`] writes. The generation is the table's current one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Store {
    /// The game's 16-bit move encoding; 0 keeps the move already stored for this key.
    pub mv: u16,
    /// The value, mate scores converted with [`crate::score::to_table`]; clamped to `i16`.
    pub value: i32,
    /// The static evaluation; clamped to `i16`.
    pub eval: i32,
    /// The draft; clamped to `-1..=127`.
    pub depth: i32,
    /// What the value says about the true score.
    pub bound: Bound,
    /// The iterative-deepening iteration.
    pub iteration: u8,
    /// [`EntryFlags`] bits (the low 6 are kept).
    pub flags: u8,
    /// For a path-dependent value under `GHI=exact`: the history it was searched under
    /// (only the low [`PATH_SIGNATURE_BITS`] are kept); 0 otherwise.
    pub path_signature: u64,
}

/// What a store did, for statistics.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StoreOutcome {
    /// Written without losing another key's entry (into an empty slot, or, in
    /// [`Replacement::TwoTier`], pushing slot 0's entry into an empty slot 1).
    New,
    /// Refreshed the entry this key already had.
    SameKey,
    /// Another key's valid entry left the table.
    Overwrite,
    /// The policy kept the old entry and dropped the new one.
    Skipped,
    /// This key's deeper entry, stored in this search by a deeper iteration (another
    /// thread), was kept and the shallower result dropped (`keep_deeper`).
    KeptDeeper,
}

/// One entry's words as loaded (a plain-value snapshot).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Words {
    w0: u64,
    data: u64,
    meta: u64,
    w3: u64,
}

impl Words {
    fn new(key: u64, key_ext: u64, data: u64, meta: u64) -> Self {
        let payload = data ^ meta;
        Words {
            w0: key ^ payload,
            data,
            meta,
            w3: key_ext ^ payload,
        }
    }

    /// Bound code 0 marks a slot never written (or cleared).
    #[inline]
    fn is_empty(self) -> bool {
        (self.data >> BOUND_SHIFT) & 3 == 0
    }

    /// Whether this is `key`'s entry (64-bit verification). Key 0 cannot match an empty
    /// slot thanks to the bound check.
    #[inline]
    fn holds(self, key: u64) -> bool {
        !self.is_empty() && self.w0 ^ self.data ^ self.meta == key
    }

    /// The upper 64 key bits, for 128-bit verification.
    #[inline]
    fn key_ext(self) -> u64 {
        self.w3 ^ self.data ^ self.meta
    }

    #[inline]
    fn mv(self) -> u16 {
        self.data as u16
    }

    #[inline]
    fn depth(self) -> i32 {
        (self.data >> 48) as u8 as i8 as i32
    }

    #[inline]
    fn generation(self) -> u8 {
        self.meta as u8
    }

    #[inline]
    fn iteration(self) -> u8 {
        (self.meta >> 8) as u8
    }

    /// Only meaningful for a non-empty entry.
    fn hit(self) -> Hit {
        let bound = match (self.data >> BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Hit {
            mv: self.mv(),
            value: (self.data >> 16) as u16 as i16 as i32,
            eval: (self.data >> 32) as u16 as i16 as i32,
            depth: self.depth(),
            bound,
            generation: self.generation(),
            iteration: self.iteration(),
            flags: (self.data >> FLAGS_SHIFT) as u8,
            path_signature: self.meta >> PATH_SIGNATURE_SHIFT,
        }
    }
}

/// Packs the data word; `depth` must already be clamped.
fn pack_data(mv: u16, entry: &Store, depth: i32) -> u64 {
    let clamp16 = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16 as u16;
    let bound: u64 = match entry.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(mv)
        | (u64::from(clamp16(entry.value)) << 16)
        | (u64::from(clamp16(entry.eval)) << 32)
        | (u64::from(depth as i8 as u8) << 48)
        | (bound << BOUND_SHIFT)
        | (u64::from(entry.flags & FLAGS_MASK) << FLAGS_SHIFT)
}

fn pack_meta(generation: u8, iteration: u8, path_signature: u64) -> u64 {
    u64::from(generation) | (u64::from(iteration) << 8) | (path_signature << PATH_SIGNATURE_SHIFT)
}

/// A table size the allocator refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableAllocError {
    pub mib: usize,
}

impl std::fmt::Display for TableAllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MiB transposition table", self.mib)
    }
}

impl std::error::Error for TableAllocError {}

/// One slot. `align(32)` keeps an entry inside one cache line and a bucket of four inside
/// two adjacent ones.
#[repr(C, align(32))]
#[derive(Default)]
struct Entry {
    w0: AtomicU64,
    w1: AtomicU64,
    w2: AtomicU64,
    w3: AtomicU64,
}

// SAFETY: four atomics of zero: a valid (empty) entry, `Entry::default()`.
unsafe impl Zeroable for Entry {}

impl Entry {
    #[inline]
    fn load(&self) -> Words {
        Words {
            w0: self.w0.load(Relaxed),
            data: self.w1.load(Relaxed),
            meta: self.w2.load(Relaxed),
            w3: self.w3.load(Relaxed),
        }
    }

    #[inline]
    fn save(&self, words: Words) {
        self.w0.store(words.w0, Relaxed);
        self.w1.store(words.data, Relaxed);
        self.w2.store(words.meta, Relaxed);
        self.w3.store(words.w3, Relaxed);
    }
}

/// The shared transposition table. `&self` methods may run on many threads at once.
pub struct TranspositionTable {
    entries: LargeArray<Entry>,
    /// `entries.len() - 1` (the length is a power of two).
    mask: usize,
    /// Bumped once per search so entries from earlier searches age without being cleared.
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A zeroed table of the largest power-of-two entry count fitting in `mib` MiB (at least
    /// 4 entries, even for 0 MiB).
    pub fn new(mib: usize) -> Self {
        Self::with_entries(entries_for(mib))
    }

    /// A table of `mib` MiB, or an error (and nothing allocated) when the memory cannot be
    /// had: a GUI asking for more `Hash` than the machine has keeps its old table.
    pub fn try_new(mib: usize) -> Result<Self, TableAllocError> {
        let count = entries_for(mib);
        let entries = LargeArray::zeroed(count).ok_or(TableAllocError { mib })?;
        Ok(TranspositionTable {
            entries,
            mask: count - 1,
            generation: AtomicU8::new(0),
        })
    }

    /// A zeroed table of `count` entries (a power of two, at least `MIN_ENTRIES`).
    fn with_entries(count: usize) -> Self {
        debug_assert!(count.is_power_of_two() && count >= MIN_ENTRIES);
        // Like a `Vec`, an allocation failure here is fatal (`try_new` is the fallible way).
        let entries = LargeArray::zeroed(count)
            .unwrap_or_else(|| panic!("cannot allocate a table of {count} entries"));
        TranspositionTable {
            entries,
            mask: count - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Reallocates for `mib` MiB; the contents and the generation are lost.
    pub fn resize(&mut self, mib: usize) {
        let count = entries_for(mib);
        if count != self.entries.len() {
            // Free the old table first so peak memory is one table, not two.
            self.entries = LargeArray::zeroed(0).expect("an empty array allocates nothing");
            *self = Self::with_entries(count);
        } else {
            self.clear();
        }
    }

    /// Empties every entry and restarts the generation (for `ucinewgame`).
    pub fn clear(&self) {
        for entry in self.entries.iter() {
            entry.save(Words::default());
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search (once per `go`): entries stored before become older, preferred
    /// victims of replacement, and stop counting in [`TranspositionTable::hashfull`].
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The current search's generation (wraps after 255).
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed)
    }

    /// The number of entries.
    #[allow(clippy::len_without_is_empty)] // never empty: at least MIN_ENTRIES
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The table's actual size in MiB, rounded down (0 for tables under 1 MiB).
    pub fn mib(&self) -> usize {
        (self.entries.len() * ENTRY_BYTES) >> 20
    }

    /// The slots `key` may occupy under `policy`.
    #[inline]
    fn group(&self, key: u64, policy: Replacement) -> &[Entry] {
        let ways = policy.ways();
        let start = (key as usize & self.mask) & !(ways - 1);
        &self.entries[start..start + ways]
    }

    /// Starts loading `key`'s group into the cache: called as soon as a child's key is
    /// known, so the probe at the child's entry finds it there (Stockfish's prefetch).
    #[inline]
    pub fn prefetch(&self, key: u64, policy: Replacement) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let group = self.group(key, policy);
            // A group starts on a cache line when it is one line or less (the array is
            // line-aligned); a group of four 32-byte entries spans two.
            let lines = if size_of_val(group) > CACHE_LINE {
                [group.first(), group.last()]
            } else {
                [group.first(), None]
            };
            for entry in lines.into_iter().flatten() {
                // SAFETY: SSE is part of every x86_64 target, and a prefetch is only a hint:
                // it reads nothing and cannot fault, whatever the address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(entry).cast::<i8>()) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (key, policy);
    }

    /// The entry stored for `key`, if its group holds one. `wide` also verifies `key_ext`
    /// (128-bit verification); otherwise only the 64-bit `key` is checked.
    pub fn probe(&self, key: u64, key_ext: u64, wide: bool, policy: Replacement) -> Option<Hit> {
        self.group(key, policy).iter().find_map(|slot| {
            let words = slot.load();
            (words.holds(key) && (!wide || words.key_ext() == key_ext)).then(|| words.hit())
        })
    }

    /// Stores `entry` for `key` as `policy` decides; see [`StoreOutcome`].
    pub fn store(
        &self,
        key: u64,
        key_ext: u64,
        policy: Replacement,
        entry: &Store,
    ) -> StoreOutcome {
        self.store_with(key, key_ext, policy, false, entry)
    }

    /// [`Self::store`], and with `keep_deeper` this key's entry is not refreshed by a
    /// shallower, inexact result when the entry was stored in this search by a deeper
    /// iteration than the storer's own, that is by another thread ahead of it (Lazy SMP: a
    /// helper an iteration ahead stores deeper results for the positions the main thread
    /// reaches next, and the main thread's shallower results would overwrite them). One
    /// thread never meets such an entry, so its search is unchanged.
    pub fn store_with(
        &self,
        key: u64,
        key_ext: u64,
        policy: Replacement,
        keep_deeper: bool,
        entry: &Store,
    ) -> StoreOutcome {
        let group = self.group(key, policy);
        // One snapshot of the group decides; a concurrent writer may change it meanwhile,
        // which at worst loses an entry (never corrupts one: torn words fail verification).
        let mut old = [Words::default(); MAX_WAYS];
        for (snapshot, slot) in old.iter_mut().zip(group) {
            *snapshot = slot.load();
        }
        let old = &old[..group.len()];

        let generation = self.generation();
        let depth = entry.depth.clamp(MIN_DEPTH, MAX_DEPTH);
        let meta = pack_meta(generation, entry.iteration, entry.path_signature);
        let words = |mv: u16| Words::new(key, key_ext, pack_data(mv, entry, depth), meta);

        // This key's own entry is refreshed wherever it sits in the group. A 64-bit match is
        // enough: a position colliding on all 64 bits has nothing better to keep.
        if let Some(i) = old.iter().position(|w| w.holds(key)) {
            if keep_deeper
                && old[i].generation() == generation
                && old[i].iteration() > entry.iteration
                && old[i].depth() > depth
                && entry.bound != Bound::Exact
            {
                return StoreOutcome::KeptDeeper;
            }
            // A store without a move (fail low) keeps the move an earlier search found, unless
            // the 128-bit extension shows that entry was another position's.
            let mv = if entry.mv == 0 && old[i].key_ext() == key_ext {
                old[i].mv()
            } else {
                entry.mv
            };
            group[i].save(words(mv));
            return StoreOutcome::SameKey;
        }

        let new = words(entry.mv);
        let put = |i: usize| {
            group[i].save(new);
            if old[i].is_empty() {
                StoreOutcome::New
            } else {
                StoreOutcome::Overwrite
            }
        };
        // Depth-preferred rule: an entry of this search is only displaced by a draft at
        // least as deep.
        let yields = |w: Words| w.is_empty() || w.generation() != generation || depth >= w.depth();

        match policy {
            Replacement::Always => put(0),
            Replacement::DepthPreferred => {
                if yields(old[0]) {
                    put(0)
                } else {
                    StoreOutcome::Skipped
                }
            }
            Replacement::TwoTier => {
                if !yields(old[0]) {
                    put(1)
                } else if !old[0].is_empty() && old[0].generation() == generation {
                    // We chose to demote the displaced entry of this search into the
                    // always-replace tier instead of dropping it (as Breuker's TwoDeep
                    // does): it is as deep as anything and likely to be probed again.
                    group[1].save(old[0]);
                    group[0].save(new);
                    if old[1].is_empty() {
                        StoreOutcome::New
                    } else {
                        StoreOutcome::Overwrite
                    }
                } else {
                    put(0)
                }
            }
            Replacement::Bucket | Replacement::Line => {
                // An empty slot first, else the lowest `depth - 8 * age` (the first on ties).
                let worth = |w: &Words| {
                    if w.is_empty() {
                        i32::MIN
                    } else {
                        let age = generation.wrapping_sub(w.generation());
                        w.depth() - AGE_WEIGHT * i32::from(age)
                    }
                };
                let victim = (0..old.len()).min_by_key(|&i| worth(&old[i])).unwrap_or(0);
                put(victim)
            }
        }
    }

    /// Per mille of the first `min(1000, len)` entries that hold an entry of the current
    /// search, as UCI's `hashfull` reports it.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(HASHFULL_SAMPLE);
        let generation = self.generation();
        let used = self.entries[..sample]
            .iter()
            .map(Entry::load)
            .filter(|w| !w.is_empty() && w.generation() == generation)
            .count();
        (used * 1000 / sample) as u32
    }
}

/// The largest power of two of entries fitting in `mib` MiB, at least `MIN_ENTRIES`.
fn entries_for(mib: usize) -> usize {
    let count = (mib.saturating_mul(1 << 20) / ENTRY_BYTES).max(MIN_ENTRIES);
    1 << count.ilog2()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const BOUNDS: [Bound; 3] = [Bound::Exact, Bound::Lower, Bound::Upper];

    fn entry(mv: u16, value: i32, depth: i32) -> Store {
        Store {
            mv,
            value,
            eval: 0,
            depth,
            bound: Bound::Exact,
            iteration: 0,
            flags: 0,
            path_signature: 0,
        }
    }

    /// The `i`-th key of the group `base` maps to, in a table of at most 2^32 entries.
    fn sibling(base: u64, i: u64) -> u64 {
        base ^ (i << 40)
    }

    fn expected_hit(e: &Store, generation: u8) -> Hit {
        Hit {
            mv: e.mv,
            value: e.value,
            eval: e.eval,
            depth: e.depth,
            bound: e.bound,
            generation,
            iteration: e.iteration,
            flags: e.flags,
            path_signature: e.path_signature & ((1 << PATH_SIGNATURE_BITS) - 1),
        }
    }

    impl TranspositionTable {
        /// `clear` without restarting the generation.
        fn clear_for_test(&self) {
            for e in self.entries.iter() {
                e.save(Words::default());
            }
        }
    }

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        let mib = usize::MAX >> 20;
        assert_eq!(
            TranspositionTable::try_new(mib).err(),
            Some(TableAllocError { mib })
        );
        let small = TranspositionTable::try_new(1).expect("1 MiB");
        assert_eq!(small.len(), (1 << 20) / ENTRY_BYTES);
    }

    #[test]
    fn entry_is_32_bytes_and_aligned() {
        assert_eq!(std::mem::size_of::<Entry>(), ENTRY_BYTES);
        assert_eq!(std::mem::align_of::<Entry>(), 32);
    }

    #[test]
    fn sizes_are_powers_of_two() {
        assert_eq!(TranspositionTable::new(0).len(), 4);
        assert_eq!(TranspositionTable::new(0).mib(), 0);
        assert_eq!(TranspositionTable::new(1).len(), 1 << 15);
        let mut tt = TranspositionTable::new(3);
        assert_eq!(tt.len(), 1 << 16);
        assert_eq!(tt.mib(), 2);
        tt.store(5, 0, Replacement::Always, &entry(1, 2, 3));
        tt.new_search();
        tt.resize(4);
        assert_eq!((tt.len(), tt.mib(), tt.generation()), (1 << 17, 4, 0));
        assert_eq!(tt.probe(5, 0, false, Replacement::Always), None);
    }

    #[test]
    fn replacement_names_round_trip() {
        for policy in Replacement::ALL {
            assert_eq!(Replacement::from_name(policy.name()), Some(policy));
            let ways = policy.ways();
            assert!(ways.is_power_of_two() && ways <= MAX_WAYS);
        }
        assert_eq!(
            Replacement::from_name("two-tier"),
            Some(Replacement::TwoTier)
        );
        assert_eq!(Replacement::from_name("nope"), None);
    }

    #[test]
    fn flags_are_distinct_stored_bits() {
        let all = [
            EntryFlags::PATH_DEPENDENT,
            EntryFlags::NULL_MOVE,
            EntryFlags::PRESEARCH,
            EntryFlags::PV,
        ];
        assert!(
            all.iter()
                .all(|f| f.is_power_of_two() && f & !FLAGS_MASK == 0)
        );
        assert_eq!(all.iter().fold(0, |acc, f| acc | f).count_ones(), 4);
    }

    #[test]
    fn round_trip_keeps_every_field() {
        let tt = TranspositionTable::new(0);
        tt.new_search();
        tt.new_search();
        let values = [0, 1, -1, 30_990, -30_990, 31_000, -31_000, 123, -32_000];
        let evals = [-250, 0, 777, -1, 32_767, -32_768];
        let depths = [-1, 0, 1, 17, 127];
        let mut n = 0u64;
        for (i, &value) in values.iter().enumerate() {
            for (j, &eval) in evals.iter().enumerate() {
                for (k, &depth) in depths.iter().enumerate() {
                    n += 1;
                    let e = Store {
                        mv: (n as u16).wrapping_mul(40_503) | 1,
                        value,
                        eval,
                        depth,
                        bound: BOUNDS[(i + j + k) % 3],
                        iteration: (n * 7) as u8,
                        flags: (n % 64) as u8,
                        // Every bit set, none, and patterns that overflow the 48 kept bits.
                        path_signature: match n % 3 {
                            0 => 0,
                            1 => u64::MAX,
                            _ => n.wrapping_mul(0xD6E8_FEB8_6659_FD93),
                        },
                    };
                    let key = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let ext = !key;
                    for policy in Replacement::ALL {
                        tt.clear_for_test();
                        assert_ne!(tt.store(key, ext, policy, &e), StoreOutcome::Skipped);
                        let want = Some(expected_hit(&e, 2));
                        assert_eq!(tt.probe(key, ext, false, policy), want, "{e:?}");
                        assert_eq!(tt.probe(key, ext, true, policy), want, "{e:?}");
                    }
                }
            }
        }
        // Every flag bit survives, with every bound.
        for flags in 0..64u8 {
            for bound in BOUNDS {
                let e = Store {
                    flags,
                    bound,
                    ..entry(9, -5, 3)
                };
                tt.store(77, 0, Replacement::Always, &e);
                let hit = tt.probe(77, 0, true, Replacement::Always).unwrap();
                assert_eq!((hit.flags, hit.bound), (flags, bound));
            }
        }
    }

    #[test]
    fn out_of_range_fields_are_clamped() {
        let tt = TranspositionTable::new(0);
        let e = Store {
            eval: -40_000,
            flags: 0xFF,
            ..entry(3, 40_000, 300)
        };
        tt.store(1, 0, Replacement::Always, &e);
        let hit = tt.probe(1, 0, false, Replacement::Always).unwrap();
        assert_eq!(
            (hit.value, hit.eval, hit.depth, hit.flags),
            (32_767, -32_768, 127, 0x3F)
        );
        tt.store(1, 0, Replacement::Always, &entry(3, 0, -9));
        assert_eq!(
            tt.probe(1, 0, false, Replacement::Always).unwrap().depth,
            -1
        );
    }

    #[test]
    fn empty_table_misses() {
        let tt = TranspositionTable::new(0);
        for policy in Replacement::ALL {
            for key in [0, 1, 2, 3, u64::MAX] {
                assert_eq!(tt.probe(key, 0, false, policy), None);
                assert_eq!(tt.probe(key, 0, true, policy), None);
            }
        }
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn another_key_of_the_group_is_not_returned() {
        let tt = TranspositionTable::new(0);
        let key = 0x1234_5678_9ABC_DEF0;
        for policy in Replacement::ALL {
            tt.clear();
            tt.store(key, 0, policy, &entry(5, 10, 4));
            assert!(tt.probe(key, 0, false, policy).is_some());
            for i in 1..8 {
                assert_eq!(tt.probe(sibling(key, i), 0, false, policy), None);
            }
        }
        // Key 0 never matches an all-zero (empty) slot.
        tt.clear();
        assert_eq!(tt.probe(0, 0, true, Replacement::Bucket), None);
    }

    #[test]
    fn wide_probe_checks_the_key_extension() {
        let tt = TranspositionTable::new(0);
        for policy in Replacement::ALL {
            tt.clear();
            tt.store(42, 0xAAAA, policy, &entry(5, 10, 4));
            assert!(tt.probe(42, 0xAAAA, true, policy).is_some());
            assert_eq!(tt.probe(42, 0xBBBB, true, policy), None);
            assert!(tt.probe(42, 0xBBBB, false, policy).is_some());
        }
    }

    #[test]
    fn keep_deeper_spares_only_another_iterations_deeper_entry_of_this_search() {
        let tt = TranspositionTable::new(0);
        let policy = Replacement::Bucket;
        let at = |iteration: u8, depth: i32, bound: Bound| Store {
            iteration,
            bound,
            ..entry(7, depth, depth)
        };
        let depth_of = |key| tt.probe(key, 0, false, policy).unwrap().depth;
        // A helper's iteration 12 stored depth 9; the main thread's iteration 11 brings 6.
        tt.store(1, 0, policy, &at(12, 9, Bound::Lower));
        let shallower = at(11, 6, Bound::Upper);
        assert_eq!(
            tt.store_with(1, 0, policy, true, &shallower),
            StoreOutcome::KeptDeeper
        );
        assert_eq!(depth_of(1), 9);
        // Without the switch, or with an exact result, the key's entry is refreshed.
        assert_eq!(
            tt.store_with(1, 0, policy, false, &shallower),
            StoreOutcome::SameKey
        );
        assert_eq!(depth_of(1), 6);
        tt.store(2, 0, policy, &at(12, 9, Bound::Lower));
        let exact = at(11, 6, Bound::Exact);
        assert_eq!(
            tt.store_with(2, 0, policy, true, &exact),
            StoreOutcome::SameKey
        );
        // The storer's own iteration (one thread), or a shallower entry: refreshed.
        tt.store(3, 0, policy, &at(11, 9, Bound::Lower));
        assert_eq!(
            tt.store_with(3, 0, policy, true, &shallower),
            StoreOutcome::SameKey
        );
        tt.store(4, 0, policy, &at(12, 5, Bound::Lower));
        assert_eq!(
            tt.store_with(4, 0, policy, true, &shallower),
            StoreOutcome::SameKey
        );
        // An entry of an earlier search is not spared.
        tt.store(5, 0, policy, &at(12, 9, Bound::Lower));
        tt.new_search();
        assert_eq!(
            tt.store_with(5, 0, policy, true, &shallower),
            StoreOutcome::SameKey
        );
        assert_eq!(depth_of(5), 6);
    }

    #[test]
    fn always_overwrites_a_deeper_entry() {
        let tt = TranspositionTable::new(0);
        let (a, b) = (100, sibling(100, 1));
        assert_eq!(
            tt.store(a, 0, Replacement::Always, &entry(1, 1, 20)),
            StoreOutcome::New
        );
        assert_eq!(
            tt.store(b, 0, Replacement::Always, &entry(2, 2, 1)),
            StoreOutcome::Overwrite
        );
        assert_eq!(tt.probe(a, 0, false, Replacement::Always), None);
        assert_eq!(tt.probe(b, 0, false, Replacement::Always).unwrap().depth, 1);
    }

    #[test]
    fn depth_preferred_keeps_a_deeper_entry_until_it_ages() {
        let p = Replacement::DepthPreferred;
        let tt = TranspositionTable::new(0);
        let (a, b) = (100, sibling(100, 1));
        assert_eq!(tt.store(a, 0, p, &entry(1, 1, 20)), StoreOutcome::New);
        assert_eq!(tt.store(b, 0, p, &entry(2, 2, 19)), StoreOutcome::Skipped);
        assert_eq!(tt.probe(a, 0, false, p).unwrap().depth, 20);
        assert_eq!(tt.probe(b, 0, false, p), None);
        // Equal depth replaces.
        assert_eq!(tt.store(b, 0, p, &entry(2, 2, 20)), StoreOutcome::Overwrite);
        assert_eq!(tt.store(a, 0, p, &entry(1, 1, 30)), StoreOutcome::Overwrite);
        tt.new_search();
        assert_eq!(tt.store(b, 0, p, &entry(2, 2, 1)), StoreOutcome::Overwrite);
        assert_eq!(tt.probe(a, 0, false, p), None);
        assert_eq!(tt.probe(b, 0, false, p).unwrap().generation, 1);
    }

    #[test]
    fn two_tier_keeps_deep_and_recent_entries() {
        let p = Replacement::TwoTier;
        let tt = TranspositionTable::new(0);
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| sibling(200, i));
        assert_eq!(tt.store(a, 0, p, &entry(1, 1, 10)), StoreOutcome::New);
        // Shallower: the always-replace tier.
        assert_eq!(tt.store(b, 0, p, &entry(2, 2, 3)), StoreOutcome::New);
        assert_eq!(tt.probe(a, 0, false, p).unwrap().depth, 10);
        assert_eq!(tt.probe(b, 0, false, p).unwrap().depth, 3);
        // Deeper: takes slot 0, the old deep entry moves to slot 1 and `b` is lost.
        assert_eq!(tt.store(c, 0, p, &entry(3, 3, 12)), StoreOutcome::Overwrite);
        assert_eq!(tt.probe(c, 0, false, p).unwrap().mv, 3);
        assert_eq!(tt.probe(a, 0, false, p).unwrap().mv, 1);
        assert_eq!(tt.probe(b, 0, false, p), None);
        // After a new search the deep entry is old: replaced outright, not demoted.
        tt.new_search();
        assert_eq!(tt.store(d, 0, p, &entry(4, 4, 1)), StoreOutcome::Overwrite);
        assert_eq!(tt.probe(d, 0, false, p).unwrap().mv, 4);
        assert_eq!(tt.probe(c, 0, false, p), None);
        assert_eq!(tt.probe(a, 0, false, p).unwrap().mv, 1);
    }

    #[test]
    fn a_line_group_is_one_cache_line() {
        for mib in [0, 1, 4] {
            let tt = TranspositionTable::new(mib);
            for key in [0, 1, 2, 3, 0xDEAD_BEEF, u64::MAX] {
                let group = tt.group(key, Replacement::Line);
                let addr = group.as_ptr() as usize;
                assert_eq!(addr % CACHE_LINE, 0, "{mib} MiB, key {key:#x}");
                assert_eq!(size_of_val(group), CACHE_LINE);
            }
        }
    }

    #[test]
    fn line_evicts_the_shallower_of_its_two_slots() {
        let p = Replacement::Line;
        let tt = TranspositionTable::new(0);
        let keys = [0, 1, 2, 3].map(|i| sibling(300, i));
        assert_eq!(tt.store(keys[0], 0, p, &entry(1, 0, 9)), StoreOutcome::New);
        assert_eq!(tt.store(keys[1], 0, p, &entry(2, 0, 4)), StoreOutcome::New);
        // A third key evicts the shallower entry (depth 4), even when shallower itself.
        assert_eq!(
            tt.store(keys[2], 0, p, &entry(3, 0, 1)),
            StoreOutcome::Overwrite
        );
        assert_eq!(tt.probe(keys[1], 0, false, p), None);
        assert_eq!(tt.probe(keys[0], 0, false, p).unwrap().depth, 9);
        assert_eq!(tt.probe(keys[2], 0, false, p).unwrap().depth, 1);
        // A search later the depth-9 entry is worth 9 - 8 = 1, not more than the fresh
        // depth-1 one: the first of the tied slots (the old entry) goes.
        tt.new_search();
        assert_eq!(
            tt.store(keys[2], 0, p, &entry(3, 0, 1)),
            StoreOutcome::SameKey
        );
        assert_eq!(
            tt.store(keys[3], 0, p, &entry(4, 0, 0)),
            StoreOutcome::Overwrite
        );
        assert_eq!(tt.probe(keys[0], 0, false, p), None);
        assert!(tt.probe(keys[2], 0, false, p).is_some());
        assert!(tt.probe(keys[3], 0, false, p).is_some());
    }

    #[test]
    fn bucket_evicts_the_shallowest_then_the_oldest() {
        let p = Replacement::Bucket;
        let tt = TranspositionTable::new(0);
        let keys = [0, 1, 2, 3, 4, 5].map(|i| sibling(300, i));
        for (i, depth) in [10, 3, 7, 12].into_iter().enumerate() {
            let e = entry(i as u16 + 1, 0, depth);
            assert_eq!(tt.store(keys[i], 0, p, &e), StoreOutcome::New);
        }
        for key in &keys[..4] {
            assert!(tt.probe(*key, 0, false, p).is_some());
        }
        // A fifth key evicts the shallowest (depth 3), even when shallower itself.
        assert_eq!(
            tt.store(keys[4], 0, p, &entry(5, 0, 1)),
            StoreOutcome::Overwrite
        );
        assert_eq!(tt.probe(keys[1], 0, false, p), None);
        for key in [keys[0], keys[2], keys[3], keys[4]] {
            assert!(tt.probe(key, 0, false, p).is_some());
        }
        // A search later, refresh all but the depth-12 entry at depths 5..=7: the old entry
        // is worth 12 - 8 = 4 and goes next.
        tt.new_search();
        for (key, depth) in [(keys[0], 5), (keys[2], 6), (keys[4], 7)] {
            assert_eq!(
                tt.store(key, 0, p, &entry(9, 0, depth)),
                StoreOutcome::SameKey
            );
        }
        assert_eq!(
            tt.store(keys[5], 0, p, &entry(6, 0, 0)),
            StoreOutcome::Overwrite
        );
        assert_eq!(tt.probe(keys[3], 0, false, p), None);
        for key in [keys[0], keys[2], keys[4], keys[5]] {
            assert_eq!(tt.probe(key, 0, false, p).unwrap().generation, 1);
        }
    }

    #[test]
    fn same_key_without_a_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(0);
        for policy in Replacement::ALL {
            tt.clear();
            tt.store(7, 0, policy, &entry(1234, 50, 9));
            // Shallower, no move: still refreshes this key's entry (even depth-preferred).
            let e = Store {
                bound: Bound::Upper,
                ..entry(0, -20, 2)
            };
            assert_eq!(tt.store(7, 0, policy, &e), StoreOutcome::SameKey);
            let hit = tt.probe(7, 0, false, policy).unwrap();
            assert_eq!(
                (hit.mv, hit.value, hit.depth, hit.bound),
                (1234, -20, 2, Bound::Upper)
            );
            assert_eq!(
                tt.store(7, 0, policy, &entry(99, 0, 2)),
                StoreOutcome::SameKey
            );
            assert_eq!(tt.probe(7, 0, false, policy).unwrap().mv, 99);
        }
    }

    #[test]
    fn aging_hashfull_and_clear() {
        let tt = TranspositionTable::new(1);
        let mut rng = StdRng::seed_from_u64(1);
        let keys: Vec<u64> = (0..8 * tt.len()).map(|_| rng.random()).collect();
        for (i, &key) in keys.iter().enumerate() {
            tt.store(key, 0, Replacement::Bucket, &entry(1, i as i32 % 1000, 5));
        }
        let full = tt.hashfull();
        assert!(full >= 990, "hashfull {full}");
        let present: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| tt.probe(k, 0, false, Replacement::Bucket).is_some())
            .collect();
        assert!(present.len() > tt.len() / 2, "{} present", present.len());

        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        for &key in &present {
            let hit = tt.probe(key, 0, false, Replacement::Bucket).unwrap();
            assert_eq!(hit.generation, 0);
        }
        // Re-storing the sampled region's keys brings hashfull back.
        for &key in &present {
            tt.store(key, 0, Replacement::Bucket, &entry(1, 0, 5));
        }
        assert!(tt.hashfull() >= 990);

        tt.clear();
        assert_eq!((tt.hashfull(), tt.generation()), (0, 0));
        assert!(
            present
                .iter()
                .all(|&k| tt.probe(k, 0, false, Replacement::Bucket).is_none())
        );
    }

    #[test]
    fn generation_wraps() {
        let tt = TranspositionTable::new(0);
        for _ in 0..256 {
            tt.new_search();
        }
        assert_eq!(tt.generation(), 0);
    }

    /// The fields a stress-test store writes: a function of the key, except `value`, which is
    /// random and tied to `eval` so a mix of two writes of one key is caught too.
    fn stress_entry(key: u64, salt: i16) -> Store {
        Store {
            mv: key as u16 | 1,
            value: salt.into(),
            eval: ((key >> 32) as i16 ^ salt).into(),
            depth: i32::from((key >> 48) as i8).clamp(MIN_DEPTH, MAX_DEPTH),
            bound: BOUNDS[(key % 3) as usize],
            iteration: (key >> 56) as u8,
            flags: (key >> 40) as u8 & FLAGS_MASK,
            path_signature: key.rotate_left(13) >> 16,
        }
    }

    fn stress_ext(key: u64) -> u64 {
        key.rotate_left(29) ^ 0x9E37_79B9_7F4A_7C15
    }

    /// Stores and probes random keys of `pool`; returns the number of hits, panicking on one
    /// that does not belong to the probed key.
    fn stress_worker(tt: &TranspositionTable, pool: &[u64], policy: Replacement, seed: u64) -> u64 {
        // Debug builds are ~50x slower here; tests normally run in release.
        const OPS: usize = if cfg!(debug_assertions) {
            200_000
        } else {
            2_000_000
        };
        let mut rng = StdRng::seed_from_u64(seed);
        let mut hits = 0;
        for i in 0..OPS {
            let key = pool[rng.random_range(0..pool.len())];
            tt.store(
                key,
                stress_ext(key),
                policy,
                &stress_entry(key, rng.random()),
            );

            let key = pool[rng.random_range(0..pool.len())];
            let wide = i.is_multiple_of(2);
            if let Some(hit) = tt.probe(key, stress_ext(key), wide, policy) {
                hits += 1;
                let want = Hit {
                    generation: hit.generation,
                    ..expected_hit(&stress_entry(key, hit.value as i16), 0)
                };
                assert_eq!(hit, want, "key {key:#x} got another entry ({policy:?})");
            }
            // Age the table now and then so the generation-aware rules run concurrently too.
            if seed.is_multiple_of(2) && i.is_multiple_of(65_536) {
                tt.new_search();
            }
        }
        hits
    }

    #[test]
    fn two_threads_never_see_another_keys_data() {
        let mut rng = StdRng::seed_from_u64(0x5EED);
        // Four keys per slot: constant collisions and overwrites. The one-group table makes
        // both threads hammer the same cache line, where torn reads actually happen (a few
        // per million operations on x86; `torn_entries_read_as_misses` covers every mix).
        for (entries, keys) in [(1024, 4096), (4, 64)] {
            let pool: Vec<u64> = (0..keys).map(|_| rng.random()).collect();
            for (n, policy) in Replacement::ALL.into_iter().enumerate() {
                let tt = TranspositionTable::with_entries(entries);
                let hits = std::thread::scope(|s| {
                    let workers = [0, 1].map(|t| {
                        let (tt, pool) = (&tt, &pool);
                        s.spawn(move || stress_worker(tt, pool, policy, 2 * n as u64 + t))
                    });
                    workers.map(|w| w.join().unwrap())
                });
                assert!(hits.iter().all(|&h| h > 0), "{policy:?}: hits {hits:?}");
            }
        }
    }

    #[test]
    fn torn_entries_read_as_misses() {
        let p = Replacement::Always;
        let tt = TranspositionTable::new(0);
        let a = 0x0123_4567_89AB_CDE0;
        let b = sibling(a, 1);
        // Three writes to one slot, pairwise different in every word.
        let with = |iteration: u8, bound: Bound, e: Store| Store {
            iteration,
            bound,
            ..e
        };
        let writes = [
            (a, with(1, Bound::Exact, entry(11, 100, 5))),
            (b, with(2, Bound::Upper, entry(22, -200, 6))),
            (a, with(3, Bound::Lower, entry(33, 300, 7))),
        ];
        let ext = |key: u64| !key.rotate_left(7);
        let snapshots = writes.map(|(key, e)| {
            tt.clear();
            tt.store(key, ext(key), p, &e);
            tt.group(key, p)[0].load()
        });
        for x in 0..writes.len() {
            for y in 0..writes.len() {
                if x == y {
                    continue;
                }
                // Bit i of `mix` takes word i from write y, else from write x.
                for mix in 1..15u32 {
                    let pick = |i: u32| if mix >> i & 1 == 1 { y } else { x };
                    let (sx, sy) = (snapshots[x], snapshots[y]);
                    let choose = |i: u32, vx: u64, vy: u64| if pick(i) == y { vy } else { vx };
                    let torn = Words {
                        w0: choose(0, sx.w0, sy.w0),
                        data: choose(1, sx.data, sy.data),
                        meta: choose(2, sx.meta, sy.meta),
                        w3: choose(3, sx.w3, sy.w3),
                    };
                    tt.group(a, p)[0].save(torn);
                    for key in [a, b] {
                        for wide in [false, true] {
                            // A hit only when every verified word comes from one write of
                            // this key, and then it is exactly that write.
                            let verified = if wide { 0..4 } else { 0..3 };
                            let source = pick(verified.start);
                            let whole = verified.clone().all(|i| pick(i) == source);
                            let want = (whole && writes[source].0 == key)
                                .then(|| expected_hit(&writes[source].1, 0));
                            let got = tt.probe(key, ext(key), wide, p);
                            assert_eq!(got, want, "x {x} y {y} mix {mix:04b} wide {wide}");
                        }
                    }
                }
            }
        }
    }
}
