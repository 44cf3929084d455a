//! The trainer's random numbers: SplitMix64 (Steele, Lea and Flood 2014), written out here so
//! that a run, its checkpoints and `--resume` depend on nothing but `--seed` and this file
//! (not on a library's choice of generator, which may change between versions).

/// A SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

/// SplitMix64's output function: a bijective mix of 64 bits.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream `stream` of `seed`: different streams of one seed are unrelated.
    pub fn new(seed: u64, stream: u64) -> Rng {
        Rng(mix(seed ^ mix(stream.wrapping_add(0x9E37_79B9_7F4A_7C15))))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (`n > 0`), by the multiply-shift method (bias below 2⁻³²
    /// for any `n` under 2³²).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `[-a, a)`.
    pub fn symmetric(&mut self, a: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (2.0 * unit - 1.0) * a
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7, 1).next_u64()).collect();
        assert!(a.iter().all(|&x| x == a[0]));
        assert_ne!(Rng::new(7, 1).next_u64(), Rng::new(7, 2).next_u64());
        assert_ne!(Rng::new(7, 1).next_u64(), Rng::new(8, 1).next_u64());
    }

    #[test]
    fn shuffle_is_a_permutation_and_roughly_uniform() {
        let mut rng = Rng::new(1, 0);
        let mut v: Vec<u32> = (0..1000).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
        assert_ne!(v, sorted);
        // Where element 0 lands, over many shuffles of 4: each place about a quarter.
        let mut counts = [0usize; 4];
        for _ in 0..40_000 {
            let mut s = [0u8, 1, 2, 3];
            rng.shuffle(&mut s);
            counts[s.iter().position(|&x| x == 0).expect("present")] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_400..10_600).contains(&c)),
            "{counts:?}"
        );
        let x: Vec<f32> = (0..10_000).map(|_| rng.symmetric(0.5)).collect();
        assert!(x.iter().all(|v| (-0.5..0.5).contains(v)));
        let mean = x.iter().sum::<f32>() / x.len() as f32;
        assert!(mean.abs() < 0.02, "{mean}");
    }
}
