//! `--eval-file`, `--nnue` and `--simd` for the tools that search (`bench`, `epd`, `selfplay`): the
//! network that replaces the classic evaluation, and which vector kernels run it.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use horizon_chess::Position;
use horizon_chess::nnue::Network;
use horizon_chess::nnue::simd::Simd;

#[derive(Args, Debug, Clone, Default)]
pub struct NetworkArgs {
    /// Evaluate with this network (Horizon's `HZNN` format, as `horizon train` writes)
    /// instead of the classic evaluation.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<PathBuf>,
    /// Evaluate with the built-in network (`crates/chess/nets/default.nnue`) when no
    /// --eval-file is given.
    #[arg(long)]
    pub nnue: bool,
    /// The network's vector kernels: the fastest this processor has, or the portable ones
    /// (for comparisons; `avx2` falls back to portable where the processor lacks it).
    #[arg(long, value_enum, default_value_t = SimdChoice::Auto)]
    pub simd: SimdChoice,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SimdChoice {
    #[default]
    Auto,
    Portable,
    Avx2,
}

/// A loaded network with the kernels to run it.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub network: Arc<Network>,
    pub simd: Simd,
}

/// Reads a network file (Horizon's `HZNN` format), saying which file failed and why.
pub fn read_network(path: &std::path::Path) -> Result<Network> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Network::from_bytes(&bytes)
        .with_context(|| format!("{} is not a usable network", path.display()))
}

impl NetworkArgs {
    /// The network of `--eval-file`, or the built-in one with `--nnue`, if either is given.
    pub fn load(&self) -> Result<Option<Evaluator>> {
        let network = match &self.eval_file {
            Some(path) => read_network(path)?,
            None if self.nnue => {
                Network::embedded().context("the built-in network does not read")?
            }
            None => return Ok(None),
        };
        let simd = match self.simd {
            SimdChoice::Auto => Simd::detect(),
            SimdChoice::Portable => Simd::Portable,
            SimdChoice::Avx2 => Simd::Avx2.checked(),
        };
        Ok(Some(Evaluator {
            network: Arc::new(network),
            simd,
        }))
    }
}

impl Evaluator {
    /// Makes `position` evaluate with this network.
    pub fn install(&self, position: &mut Position) {
        position.set_network(Some(self.network.clone()), self.simd);
    }

    /// One line for reports: the network's hash and the kernels.
    pub fn describe(&self) -> String {
        format!(
            "network {:016x}, {:?} kernels",
            self.network.hash(),
            self.simd
        )
    }
}
