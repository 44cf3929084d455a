//! The quantised network and its file.
//!
//! File layout, little-endian, a 32-byte header and the weights:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0-3 | magic `HZNN` |
//! | 4-5 | format version (1) |
//! | 6-7 | inputs (768) |
//! | 8-9 | hidden neurons per perspective (must equal [`HIDDEN`]) |
//! | 10-11 | output buckets (1 ..= 32) |
//! | 12 | activation: 0 CReLU, 1 SCReLU |
//! | 13 | inputs: 0 plain, 1 king-mirrored ([`Inputs`]) |
//! | 14-15 | zero |
//! | 16-17, 18-19, 20-21 | `QA`, `QB`, `SCALE` (`QA` and `SCALE` must equal this build's; `QB`, the output weights' scale, is the file's own, a power of two: 64 in the first networks, [`QB`] since) |
//! | 22-23 | zero |
//! | 24-31 | FNV-1a 64 hash of every byte after the header, continued over the bytes `hm` for king-mirrored inputs (so that damage to byte 13 is refused too) |
//!
//! Then `i16` first-layer weights, input by input (`768 × HIDDEN`), the `i16` first-layer
//! bias (`HIDDEN`), the `i16` output weights bucket by bucket (`2 × HIDDEN` each: the side to
//! move's half first), and one `i32` output bias per bucket.

use std::fmt;

use super::simd::{Row, Simd, SplitRow};
use super::{HIDDEN, INPUTS, QA, QB, SCALE};

const MAGIC: &[u8; 4] = b"HZNN";
const VERSION: u16 = 1;
const HEADER_BYTES: usize = 32;
const MAX_BUCKETS: usize = 32;

/// The default network's file, built in.
#[cfg(not(feature = "wide"))]
const EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");
/// The default network of the `wide` build (512 neurons), built in.
#[cfg(feature = "wide")]
const EMBEDDED: &[u8] = include_bytes!("../../nets/wide.nnue");

/// The output layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    CReLU,
    /// `clamp(x, 0, 1)²`.
    SCReLU,
}

/// How each perspective's squares index the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// The board as the perspective sees it (mirrored vertically for Black).
    Plain,
    /// Also mirrored left to right while the perspective's king stands on files a-d
    /// ([`super::king_flip`]).
    KingMirrored,
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Fewer bytes than the header or the weights it announces.
    Truncated { expected: usize, found: usize },
    /// More bytes than the header announces.
    TrailingBytes { expected: usize, found: usize },
    /// Not a Horizon network file.
    BadMagic,
    /// A format version this build does not read.
    UnsupportedVersion(u16),
    /// An architecture other than this build's.
    Architecture(String),
    /// The weights do not match the hash in the header.
    HashMismatch { stored: u64, computed: u64 },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { expected, found } => {
                write!(f, "truncated: {found} bytes, expected {expected}")
            }
            Self::TrailingBytes { expected, found } => {
                write!(f, "{found} bytes, expected {expected}")
            }
            Self::BadMagic => f.write_str("not a Horizon network (no HZNN header)"),
            Self::UnsupportedVersion(v) => write!(f, "format version {v}, this build reads 1"),
            Self::Architecture(what) => write!(f, "architecture mismatch: {what}"),
            Self::HashMismatch { stored, computed } => write!(
                f,
                "corrupt: content hash {computed:016x}, header says {stored:016x}"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A network's quantised weights, flat: the first layer input by input (`768 × HIDDEN`,
/// `× QA`), its bias (`× QA`), the output weights bucket by bucket (the mover's half, then
/// the other's, `× qb`) and the output biases (`× QA · qb`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantisedWeights {
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    pub out_weights: Vec<i16>,
    pub out_bias: Vec<i32>,
}

/// The network, quantised.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// One row per input.
    pub(crate) ft_weights: Box<[Row]>,
    pub(crate) ft_bias: Row,
    /// Per bucket: the side to move's half, then the other side's.
    pub(crate) out_weights: Box<[[Row; 2]]>,
    /// The same weights split for the vector kernels ([`SplitRow`]), made from them.
    out_split: Box<[[SplitRow; 2]]>,
    pub(crate) out_bias: Box<[i32]>,
    pub(crate) activation: Activation,
    pub(crate) inputs: Inputs,
    /// The output weights' scale (the bias is stored `× QA · qb`).
    pub(crate) qb: i32,
    /// The file's content hash (for `info string` and reproducibility).
    hash: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &HIDDEN)
            .field("buckets", &self.buckets())
            .field("activation", &self.activation)
            .field("inputs", &self.inputs)
            .field("qb", &self.qb)
            .field("hash", &format_args!("{:016x}", self.hash))
            .finish()
    }
}

/// FNV-1a, 64 bits: enough to tell a damaged file from an intact one (network files and
/// the trainer's checkpoints).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The hash a file of `inputs` stores for `payload`: plain networks keep the hash of the
/// first files; king-mirrored ones continue it over a tag, so that the layout byte is covered.
fn content_hash(payload: &[u8], inputs: Inputs) -> u64 {
    let mut hash = fnv1a(payload);
    if inputs == Inputs::KingMirrored {
        for &b in b"hm" {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// Reads little-endian values from a slice already checked to be long enough.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn i16(&mut self) -> i16 {
        let v = i16::from_le_bytes([self.bytes[self.at], self.bytes[self.at + 1]]);
        self.at += 2;
        v
    }

    fn i32(&mut self) -> i32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&self.bytes[self.at..self.at + 4]);
        self.at += 4;
        i32::from_le_bytes(b)
    }

    fn row(&mut self) -> Row {
        let mut row = Row::ZERO;
        for v in &mut row.0 {
            *v = self.i16();
        }
        row
    }
}

/// Every output row split for the vector kernels.
fn split(out_weights: &[[Row; 2]]) -> Box<[[SplitRow; 2]]> {
    out_weights
        .iter()
        .map(|[us, them]| [SplitRow::new(us), SplitRow::new(them)])
        .collect()
}

fn payload_bytes(buckets: usize) -> usize {
    2 * (INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

impl Network {
    /// A network from its quantised weights: `ft_weights` input by input (`768 × HIDDEN`),
    /// `out_weights` bucket by bucket (`2 × HIDDEN` each). For the trainer and tests.
    pub fn from_weights(
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i32],
        activation: Activation,
    ) -> Result<Network, NetworkError> {
        let buckets = out_bias.len();
        let mismatch = |what: &str| Err(NetworkError::Architecture(what.to_owned()));
        if ft_weights.len() != INPUTS * HIDDEN {
            return mismatch("first-layer weights are not 768 × hidden");
        }
        if ft_bias.len() != HIDDEN {
            return mismatch("first-layer bias is not hidden long");
        }
        if buckets == 0 || buckets > MAX_BUCKETS || out_weights.len() != buckets * 2 * HIDDEN {
            return mismatch("output weights are not buckets × 2 × hidden");
        }
        let row = |values: &[i16]| {
            let mut r = Row::ZERO;
            r.0.copy_from_slice(values);
            r
        };
        let out_weights: Box<[[Row; 2]]> = out_weights
            .chunks_exact(2 * HIDDEN)
            .map(|b| [row(&b[..HIDDEN]), row(&b[HIDDEN..])])
            .collect();
        let mut network = Network {
            ft_weights: ft_weights.chunks_exact(HIDDEN).map(row).collect(),
            ft_bias: row(ft_bias),
            out_split: split(&out_weights),
            out_weights,
            out_bias: out_bias.into(),
            activation,
            inputs: Inputs::Plain,
            qb: QB,
            hash: 0,
        };
        network.hash = content_hash(&network.payload(), network.inputs);
        Ok(network)
    }

    /// The same weights read through `inputs` (the hash follows).
    pub fn with_inputs(mut self, inputs: Inputs) -> Network {
        self.inputs = inputs;
        self.hash = content_hash(&self.payload(), inputs);
        self
    }

    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload_bytes(self.buckets()));
        let rows = self
            .ft_weights
            .iter()
            .chain(std::iter::once(&self.ft_bias))
            .chain(self.out_weights.iter().flatten());
        for row in rows {
            for v in row.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for b in self.out_bias.iter() {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = self.payload();
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for v in [INPUTS, HIDDEN, self.buckets()] {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        out.push(match self.activation {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        });
        out.push(match self.inputs {
            Inputs::Plain => 0,
            Inputs::KingMirrored => 1,
        });
        out.extend_from_slice(&[0; 2]);
        for v in [QA, self.qb, SCALE, 0] {
            out.extend_from_slice(&(v as i16).to_le_bytes());
        }
        out.extend_from_slice(&self.hash.to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a network file, checking its header, size and hash.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::Truncated {
                expected: HEADER_BYTES,
                found: bytes.len(),
            });
        }
        if &bytes[..4] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let i16_at = |i: usize| i16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(4);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        let (inputs, hidden, buckets) = (u16_at(6), u16_at(8), u16_at(10) as usize);
        let arch = |what: String| Err(NetworkError::Architecture(what));
        if usize::from(inputs) != INPUTS {
            return arch(format!("{inputs} inputs, this build has {INPUTS}"));
        }
        if usize::from(hidden) != HIDDEN {
            return arch(format!("{hidden} hidden neurons, this build has {HIDDEN}"));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return arch(format!("{buckets} output buckets (1 to {MAX_BUCKETS})"));
        }
        let activation = match bytes[12] {
            0 => Activation::CReLU,
            1 => Activation::SCReLU,
            other => return arch(format!("activation {other} (0 CReLU, 1 SCReLU)")),
        };
        let inputs = match bytes[13] {
            0 => Inputs::Plain,
            1 => Inputs::KingMirrored,
            other => return arch(format!("inputs {other} (0 plain, 1 king-mirrored)")),
        };
        let scales = (i16_at(16), i16_at(18), i16_at(20));
        // The header is outside the hash: a power of two (64 or 1,024 so far) refuses every
        // one-bit damage of the scale.
        if scales.0 != QA as i16
            || scales.1 <= 0
            || !(scales.1 as u16).is_power_of_two()
            || scales.2 != SCALE as i16
        {
            return arch(format!(
                "scales QA {} QB {} SCALE {}, this build reads QA {QA}, QB a power of two, SCALE {SCALE}",
                scales.0, scales.1, scales.2
            ));
        }
        let qb = i32::from(scales.1);
        let expected = HEADER_BYTES + payload_bytes(buckets);
        if bytes.len() < expected {
            return Err(NetworkError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NetworkError::TrailingBytes {
                expected,
                found: bytes.len(),
            });
        }
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[24..32]);
        let stored = u64::from_le_bytes(stored);
        let computed = content_hash(&bytes[HEADER_BYTES..], inputs);
        if stored != computed {
            return Err(NetworkError::HashMismatch { stored, computed });
        }
        let mut r = Reader {
            bytes,
            at: HEADER_BYTES,
        };
        let ft_weights = (0..INPUTS).map(|_| r.row()).collect();
        let ft_bias = r.row();
        let out_weights: Box<[[Row; 2]]> = (0..buckets).map(|_| [r.row(), r.row()]).collect();
        let out_bias = (0..buckets).map(|_| r.i32()).collect();
        Ok(Network {
            ft_weights,
            ft_bias,
            out_split: split(&out_weights),
            out_weights,
            out_bias,
            activation,
            inputs,
            qb,
            hash: stored,
        })
    }

    /// The network built into the engine (`crates/chess/nets/default.nnue`, or `wide.nnue`
    /// in the `wide` build; how each was made is in `crates/chess/nets/README.md`).
    pub fn embedded() -> Result<Network, NetworkError> {
        Network::from_bytes(EMBEDDED)
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The activation of the first layer's outputs.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// How the perspectives' squares index the inputs.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The output weights' scale.
    pub fn qb(&self) -> i32 {
        self.qb
    }

    /// The content hash (as in the file's header).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The quantised weights, flat, in [`Network::from_weights`]'s order (the trainer
    /// starts from them with `horizon train --init`).
    pub fn weights(&self) -> QuantisedWeights {
        QuantisedWeights {
            ft_weights: self.ft_weights.iter().flat_map(|row| row.0).collect(),
            ft_bias: self.ft_bias.0.to_vec(),
            out_weights: self
                .out_weights
                .iter()
                .flatten()
                .flat_map(|row| row.0)
                .collect(),
            out_bias: self.out_bias.to_vec(),
        }
    }

    /// The evaluation in centipawns, for the side to move, from its accumulator (`us`) and
    /// the other side's (`them`), with the output bucket of `pieces` pieces on the board.
    #[inline]
    pub fn output(&self, simd: Simd, us: &Row, them: &Row, pieces: u32) -> i32 {
        let bucket = super::output_bucket(pieces, self.buckets());
        let [w_us, w_them] = &self.out_weights[bucket];
        let bias = i64::from(self.out_bias[bucket]);
        let sum = match self.activation {
            Activation::SCReLU => {
                let dot =
                    simd.screlu_pair(us, them, &self.out_weights[bucket], &self.out_split[bucket]);
                // Back to one factor of QA, as the bias is stored.
                dot / i64::from(QA) + bias
            }
            Activation::CReLU => simd.crelu_dot(us, w_us) + simd.crelu_dot(them, w_them) + bias,
        };
        let cp = sum * i64::from(SCALE) / (i64::from(QA) * i64::from(self.qb));
        // Symmetric, so that the other side's view, the negation, exists.
        cp.clamp(-i64::from(i32::MAX), i64::from(i32::MAX)) as i32
    }

    /// The evaluation from feature lists, summed from scratch: `us` the side to move's
    /// active features (see [`super::feature`]), `them` the other side's, one per piece in
    /// each list. For the trainer's check of the quantised network against the float one.
    pub fn evaluate_features(&self, simd: Simd, us: &[usize], them: &[usize]) -> i32 {
        let sum = |features: &[usize]| {
            let mut row = self.ft_bias;
            for &f in features {
                simd.add(&mut row, self.row(f));
            }
            row
        };
        let (acc_us, acc_them) = (sum(us), sum(them));
        self.output(simd, &acc_us, &acc_them, us.len() as u32)
    }

    /// A row of first-layer weights.
    #[inline(always)]
    pub(crate) fn row(&self, feature: usize) -> &Row {
        &self.ft_weights[feature]
    }
}
