//! The trainer's checkpoint: everything a run needs to go on exactly where it stopped (the
//! float weights, AdamW's moments and step count, the epochs done with their losses, and the
//! settings that fix the data split and the model), in a small binary file of its own.
//!
//! Layout, little-endian:
//!
//! | field | type |
//! | --- | --- |
//! | magic `HZTC` | 4 bytes |
//! | format version (3; version 1 had no mirror field, 2 no inputs field) | u32 |
//! | inputs, hidden, buckets | u32 each |
//! | activation (0 CReLU, 1 SCReLU) | u32 |
//! | mirror images trained (0 or 1; version 2) | u32 |
//! | inputs (0 plain, 1 king-mirrored; version 3) | u32 |
//! | seed, batch | u64 each |
//! | validation fraction, λ, learning rate, weight decay, γ | f64 each |
//! | learning-rate drop epoch (0 none) | u64 |
//! | records, data hash, training positions, validation positions | u64 each |
//! | epochs done, AdamW steps | u64 each |
//! | per epoch done: training loss, validation loss (NaN without), seconds, learning rate | 4 × f64 |
//! | parameters, AdamW `m`, AdamW `v` | `len` f32 each, `len` from the architecture |
//! | FNV-1a 64 of every byte before it | u64 |

use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use horizon_chess::nnue::network::fnv1a;
use horizon_chess::nnue::{Activation, HIDDEN, INPUTS, Inputs};

use super::model::{Layout, Model};
use super::optimizer::AdamW;

const MAGIC: &[u8; 4] = b"HZTC";
const VERSION: u32 = 3;

/// The settings a checkpoint records.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub buckets: usize,
    pub activation: Activation,
    pub seed: u64,
    pub batch: usize,
    pub val_fraction: f64,
    pub lambda: f64,
    pub lr: f64,
    pub weight_decay: f64,
    pub lr_gamma: f64,
    pub lr_drop_epoch: Option<usize>,
    /// `--mirror`: every position is also trained mirrored left to right.
    pub mirror: bool,
    /// `--king-mirror`: the inputs of the network.
    pub inputs: Inputs,
}

/// The data the run trains on, to refuse a resume on other data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataInfo {
    pub records: u64,
    pub hash: u64,
    pub train: u64,
    pub validation: u64,
}

/// One finished epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochRecord {
    pub train_loss: f64,
    /// NaN without validation positions.
    pub validation_loss: f64,
    pub seconds: f64,
    /// The learning rate of the epoch's first batch.
    pub lr: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub settings: Settings,
    pub data: DataInfo,
    pub history: Vec<EpochRecord>,
    pub model: Model,
    pub adam: AdamW,
}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let len = self.model.params.len();
        let mut out = Vec::with_capacity(256 + 12 * len + 32 * self.history.len());
        out.extend_from_slice(MAGIC);
        let s = &self.settings;
        let activation = match s.activation {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        };
        for v in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            s.buckets as u32,
            activation,
            u32::from(s.mirror),
            match s.inputs {
                Inputs::Plain => 0,
                Inputs::KingMirrored => 1,
            },
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [s.seed, s.batch as u64] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [s.val_fraction, s.lambda, s.lr, s.weight_decay, s.lr_gamma] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let d = &self.data;
        let words = [
            s.lr_drop_epoch.unwrap_or(0) as u64,
            d.records,
            d.hash,
            d.train,
            d.validation,
            self.history.len() as u64,
            self.adam.step,
        ];
        for v in words {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for e in &self.history {
            for v in [e.train_loss, e.validation_loss, e.seconds, e.lr] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for values in [&self.model.params, &self.adam.m, &self.adam.v] {
            for v in values.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint> {
        ensure!(
            bytes.len() >= 12 && &bytes[..4] == MAGIC,
            "not a Horizon training checkpoint (no HZTC header)"
        );
        let (body, stored) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: 4 };
        let version = r.u32()?;
        ensure!(
            (1..=VERSION).contains(&version),
            "checkpoint format version {version}, this build reads 1 to {VERSION}"
        );
        let stored = u64::from_le_bytes(stored.try_into().expect("8 bytes"));
        let computed = fnv1a(body);
        ensure!(
            stored == computed,
            "corrupt checkpoint: content hash {computed:016x}, the file says {stored:016x}"
        );
        let (inputs, hidden) = (r.u32()? as usize, r.u32()? as usize);
        ensure!(
            inputs == INPUTS && hidden == HIDDEN,
            "the checkpoint's network is {inputs} → {hidden}, this build's {INPUTS} → {HIDDEN}"
        );
        let buckets = r.u32()? as usize;
        ensure!(
            (1..=32).contains(&buckets),
            "{buckets} output buckets in the checkpoint"
        );
        let activation = match r.u32()? {
            0 => Activation::CReLU,
            1 => Activation::SCReLU,
            other => bail!("activation {other} in the checkpoint"),
        };
        let mirror = match version {
            1 => false,
            _ => match r.u32()? {
                0 => false,
                1 => true,
                other => bail!("mirror field {other} in the checkpoint"),
            },
        };
        let inputs = match version {
            1 | 2 => Inputs::Plain,
            _ => match r.u32()? {
                0 => Inputs::Plain,
                1 => Inputs::KingMirrored,
                other => bail!("inputs field {other} in the checkpoint"),
            },
        };
        let (seed, batch) = (r.u64()?, r.u64()? as usize);
        let (val_fraction, lambda, lr, weight_decay, lr_gamma) =
            (r.f64()?, r.f64()?, r.f64()?, r.f64()?, r.f64()?);
        let drop = r.u64()? as usize;
        let settings = Settings {
            buckets,
            activation,
            seed,
            batch,
            val_fraction,
            lambda,
            lr,
            weight_decay,
            lr_gamma,
            lr_drop_epoch: (drop > 0).then_some(drop),
            mirror,
            inputs,
        };
        let data = DataInfo {
            records: r.u64()?,
            hash: r.u64()?,
            train: r.u64()?,
            validation: r.u64()?,
        };
        let epochs = r.u64()? as usize;
        let step = r.u64()?;
        ensure!(epochs <= 1 << 20, "{epochs} epochs in the checkpoint");
        let mut history = Vec::with_capacity(epochs);
        for _ in 0..epochs {
            history.push(EpochRecord {
                train_loss: r.f64()?,
                validation_loss: r.f64()?,
                seconds: r.f64()?,
                lr: r.f64()?,
            });
        }
        let layout = Layout { buckets };
        let len = layout.len();
        let params = r.f32s(len)?;
        let m = r.f32s(len)?;
        let v = r.f32s(len)?;
        ensure!(
            r.at == body.len(),
            "{} unexpected bytes at the end of the checkpoint",
            body.len() - r.at
        );
        Ok(Checkpoint {
            settings,
            data,
            history,
            model: Model {
                layout,
                activation,
                inputs,
                params,
            },
            adam: AdamW { m, v, step },
        })
    }

    /// Writes the checkpoint to `path` (through a temporary file, so that a run stopped
    /// while writing leaves the previous file whole).
    pub fn save(&self, path: &Path) -> Result<()> {
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, self.to_bytes())
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        std::fs::rename(&temporary, path).with_context(|| {
            format!(
                "cannot rename {} to {}",
                temporary.display(),
                path.display()
            )
        })
    }

    pub fn load(path: &Path) -> Result<Checkpoint> {
        let bytes = std::fs::read(path)
            .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
        Checkpoint::from_bytes(&bytes).with_context(|| format!("{}", path.display()))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!("truncated checkpoint ({} bytes)", self.bytes.len() + 8);
        };
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>> {
        let bytes = self.take(n * 4)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        let mut model = Model::new(8, Activation::CReLU, 4);
        model.inputs = Inputs::KingMirrored;
        let mut adam = AdamW::new(model.params.len());
        adam.step = 17;
        adam.m[5] = 0.25;
        adam.v[model.params.len() - 1] = 3.5;
        Checkpoint {
            settings: Settings {
                buckets: 8,
                activation: Activation::CReLU,
                seed: 99,
                batch: 1024,
                val_fraction: 0.05,
                lambda: 0.75,
                lr: 0.002,
                weight_decay: 0.01,
                lr_gamma: 0.3,
                lr_drop_epoch: Some(4),
                mirror: true,
                inputs: Inputs::KingMirrored,
            },
            data: DataInfo {
                records: 1000,
                hash: 0xdead_beef,
                train: 950,
                validation: 50,
            },
            history: vec![
                EpochRecord {
                    train_loss: 0.05,
                    validation_loss: f64::NAN,
                    seconds: 1.5,
                    lr: 0.002,
                },
                EpochRecord {
                    train_loss: 0.04,
                    validation_loss: 0.045,
                    seconds: 1.4,
                    lr: 0.002,
                },
            ],
            model,
            adam,
        }
    }

    #[test]
    fn round_trip_and_damage() {
        let checkpoint = sample();
        let bytes = checkpoint.to_bytes();
        let back = Checkpoint::from_bytes(&bytes).expect("reads back");
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.model, checkpoint.model);
        assert_eq!(back.adam, checkpoint.adam);
        assert_eq!(back.settings, checkpoint.settings);
        assert_eq!(back.data, checkpoint.data);
        assert!(back.history[0].validation_loss.is_nan());
        assert_eq!(back.history[1], checkpoint.history[1]);

        let error = |bytes: &[u8]| match Checkpoint::from_bytes(bytes) {
            Ok(_) => panic!("damaged checkpoint read"),
            Err(e) => format!("{e:#}"),
        };
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(error(&flipped).contains("corrupt checkpoint"));
        assert!(error(&bytes[..bytes.len() - 100]).contains("corrupt"));
        assert!(error(b"HZNN and more bytes").contains("not a Horizon training checkpoint"));
        assert!(error(&[]).contains("not a Horizon training checkpoint"));
    }
}
