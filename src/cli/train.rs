//! `horizon train`: fits the engine's neural evaluation (see `horizon_chess::nnue`) to
//! self-play positions on the CPU, on all cores, and writes it in the engine's network
//! format.
//!
//! The data are bullet `ChessBoard` records (`horizon selfplay --format bullet`); the model,
//! loss and passes are in [`model`], the optimiser and learning-rate schedule in
//! [`optimizer`], the checkpoint format in [`checkpoint`], the conversion to the engine's
//! integers and its check in [`quantise`].
//!
//! Each batch is cut into one contiguous part per thread; each thread adds its part's
//! gradient into a dense buffer of its own (the first layer's gradient of a position touches
//! only the rows of its active features), and the optimiser step sums the buffers in thread
//! order. A run is therefore reproducible bit for bit for a given `--threads` (and a resumed
//! run reaches the weights of an uninterrupted one), whatever the scheduling.

mod checkpoint;
pub mod data;
mod model;
mod optimizer;
pub mod quantise;
pub mod rng;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, ensure};
use clap::{Args, ValueEnum};
use horizon_chess::nnue::{Activation, HIDDEN, INPUTS, Inputs, Network};
use rayon::prelude::*;

use super::progress::Progress;
use super::report::{human, thousands};
use checkpoint::{Checkpoint, DataInfo, EpochRecord, Settings};
use model::{Layout, Model};
use optimizer::{AdamW, cosine_rate, learning_rate};

/// Positions of the training set the quantisation check uses when nothing is held out.
const CHECK_WITHOUT_VALIDATION: usize = 10_000;

#[derive(Args, Debug)]
#[command(after_help = "\
Data: files of 32-byte records in bullet's ChessBoard layout, as `horizon selfplay --format \
bullet` writes them (the board from the side to move, its score in centipawns and the game's \
result). One seeded shuffle holds out --val-fraction of the positions for validation, for the \
whole run; with --val-data, those files validate and every --data position trains.

Model: the engine's perspective network 768 -> 256 x2 -> 1 (output buckets by piece count), \
in f32. y = output (the engine's score is 400 y centipawns), p = sigmoid(y), target = \
lambda sigmoid(score / 400) + (1 - lambda) result / 2, loss = mean (p - target)^2.

Training: AdamW (beta1 0.9, beta2 0.999, eps 1e-8; weight decay --wd on weights, not biases), \
learning rate --lr, multiplied by --lr-gamma every --lr-drop-epoch epochs (step decay; \
constant without it) or with --lr-end falling batch by batch along a cosine to that rate, batches of --batch positions in a new seeded order each epoch. After each \
step the first layer's weights and biases are clipped to +-1.98 (so that the engine's 16-bit accumulators hold any position) and the output weights to \
+-127/64 (kept from the first networks; 16 times inside i16 at the output scale 1024). A run is reproducible bit for bit for \
a given --threads. --init NET starts from a network's weights (a file, or `built-in`) instead of \
random ones, to fine-tune it on new games; the optimiser starts afresh.

Output: --out gets the network in the engine's format (first layer x 255, output weights x 1024, \
output bias x 255 x 1024, rounded), after a check of the engine's integer evaluation against the \
float network on the validation positions: a mean difference over --quant-tolerance (8 cp) is an error (rounding costs about 3 cp). With \
--checkpoint-dir, every epoch writes DIR/epoch-N.ckpt (float weights and optimiser state) and \
DIR/epoch-N.nnue (that epoch's network); --resume DIR/epoch-N.ckpt goes on from there with the \
same data and options (--epochs, --threads, --out, --checkpoint-dir, --lr, --wd and the \
schedule may change).

Example: `horizon selfplay --games 2000 --nodes 5000 --format bullet --out out/nnue/d.bin`, \
then `horizon train --data out/nnue/d.bin --epochs 20 --lr-drop-epoch 15 --checkpoint-dir \
out/nnue/ckpt --out out/nnue/net.nnue` and play it with `--eval-file out/nnue/net.nnue`.")]
pub struct TrainArgs {
    /// Training positions (bullet records); several files separated by commas.
    #[arg(
        long,
        value_name = "FILE[,FILE...]",
        value_delimiter = ',',
        required = true
    )]
    pub data: Vec<PathBuf>,
    /// Write the trained network here (Horizon's network format).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions (in all, counting those of a resumed checkpoint).
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// AdamW's learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Multiply the learning rate by --lr-gamma after every N epochs (none: constant).
    #[arg(long, value_name = "N")]
    pub lr_drop_epoch: Option<usize>,
    /// Cosine decay instead of steps: the learning rate falls batch by batch from --lr at
    /// the first batch to this rate after the last batch of --epochs.
    #[arg(long, value_name = "LR", conflicts_with = "lr_drop_epoch")]
    pub lr_end: Option<f64>,
    /// The factor of each learning-rate drop.
    #[arg(long, default_value_t = 0.3)]
    pub lr_gamma: f64,
    /// AdamW's decoupled weight decay (on weights, not biases).
    #[arg(long, default_value_t = 0.01)]
    pub wd: f64,
    /// Weight of the search score in the target (the rest is the game's result).
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f64,
    /// Share of the positions held out for validation (not used with --val-data).
    #[arg(long, default_value_t = 0.02)]
    pub val_fraction: f64,
    /// Validate on these positions instead of a share of --data, which then all train:
    /// positions of other games (another `horizon selfplay` run, or `horizon data --val-out`
    /// without --shuffle), so that no validation position shares a game with training ones.
    #[arg(long, value_name = "FILE[,FILE...]", value_delimiter = ',')]
    pub val_data: Vec<PathBuf>,
    /// Output buckets by piece count (1 to 32; the engine reads any).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// The first layer's activation.
    #[arg(long, value_enum, default_value_t = ActivationArg::Screlu)]
    pub activation: ActivationArg,
    /// Seed of the initial weights, the validation split and the order of each epoch.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write a checkpoint and the network after every epoch in this directory.
    #[arg(long, value_name = "DIR")]
    pub checkpoint_dir: Option<PathBuf>,
    /// Go on from this checkpoint (DIR/epoch-N.ckpt of an earlier run).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Start from this network's weights (a `.nnue` file, or `built-in`) instead of random
    /// ones: fine-tuning on new games. --buckets, --activation and --king-mirror must be
    /// the network's own; the optimiser starts afresh.
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<String>,
    /// Before writing, multiply the output layer so that the network's mean absolute
    /// evaluation over the validation positions equals NET's (a file, or `built-in`). The
    /// search's margins are tuned to the built-in network's scale, which a network trained
    /// on deeper searches' scores outgrows. With --init and --epochs 0: rescale a network.
    #[arg(long, value_name = "NET")]
    pub scale_to: Option<String>,
    /// Refuse to write a network whose evaluations differ from the float network's by more
    /// than this many centipawns on average (over the validation positions).
    #[arg(long, value_name = "CP", default_value_t = quantise::TOLERANCE_CP)]
    pub quant_tolerance: f64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Train on every position and on its mirror image (a-file to h-file) in each epoch:
    /// twice the positions per epoch, from the same games.
    #[arg(long)]
    pub mirror: bool,
    /// King-mirrored inputs: each side's view of the board is mirrored left to right while
    /// its king stands on files a-d, so the network only ever sees its king on files e-h
    /// (the engine reads this from the file). Not with --mirror, which it makes redundant.
    #[arg(long)]
    pub king_mirror: bool,
    /// Train only the output layer (its weights and biases, every bucket), holding the --init
    /// network's first layer exactly as it is: the features it computes stay, and only how
    /// each output bucket weighs them is learnt. Positions of one kind (endings) then move
    /// their own buckets without changing how any other position is evaluated through the
    /// shared layer.
    #[arg(long, requires = "init")]
    pub freeze_input_layer: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ActivationArg {
    /// clamp(x, 0, 1)^2
    Screlu,
    /// clamp(x, 0, 1)
    Crelu,
}

impl ActivationArg {
    fn activation(self) -> Activation {
        match self {
            ActivationArg::Screlu => Activation::SCReLU,
            ActivationArg::Crelu => Activation::CReLU,
        }
    }
}

fn check_args(args: &TrainArgs) -> Result<()> {
    ensure!(
        args.epochs >= 1 || args.init.is_some(),
        "--epochs must be at least 1 (0 only with --init: the network rewritten, e.g. with --scale-to)"
    );
    ensure!(args.batch >= 1, "--batch must be at least 1");
    ensure!(
        args.lr > 0.0 && args.lr.is_finite(),
        "--lr must be positive"
    );
    ensure!(
        args.lr_gamma > 0.0 && args.lr_gamma.is_finite(),
        "--lr-gamma must be positive"
    );
    ensure!(
        args.lr_drop_epoch != Some(0),
        "--lr-drop-epoch must be at least 1"
    );
    if let Some(end) = args.lr_end {
        ensure!(
            (0.0..=args.lr).contains(&end),
            "--lr-end must be between 0 and --lr"
        );
    }
    ensure!(
        args.wd >= 0.0 && args.wd.is_finite(),
        "--wd must be zero or positive"
    );
    ensure!(
        (0.0..=1.0).contains(&args.lambda),
        "--lambda must be between 0 and 1"
    );
    ensure!(
        (0.0..1.0).contains(&args.val_fraction),
        "--val-fraction must be at least 0 and below 1"
    );
    ensure!(
        (1..=32).contains(&args.buckets),
        "--buckets must be 1 to 32"
    );
    ensure!(
        args.quant_tolerance >= 0.0,
        "--quant-tolerance must be zero or positive"
    );
    if let Some(threads) = args.threads {
        ensure!((1..=256).contains(&threads), "--threads must be 1 to 256");
    }
    ensure!(
        !(args.mirror && args.king_mirror),
        "--mirror with --king-mirror trains every position twice as the same inputs; give one"
    );
    Ok(())
}

fn settings(args: &TrainArgs) -> Settings {
    Settings {
        buckets: args.buckets,
        activation: args.activation.activation(),
        seed: args.seed,
        batch: args.batch,
        val_fraction: args.val_fraction,
        lambda: args.lambda,
        lr: args.lr,
        weight_decay: args.wd,
        lr_gamma: args.lr_gamma,
        lr_drop_epoch: args.lr_drop_epoch,
        mirror: args.mirror,
        inputs: if args.king_mirror {
            Inputs::KingMirrored
        } else {
            Inputs::Plain
        },
    }
}

/// The options that fix the model's shape, as (flag, value) pairs: a checkpoint to resume
/// and a network to start from must have the options' own.
fn shape(buckets: usize, activation: Activation, inputs: Inputs) -> [(&'static str, String); 3] {
    let activation = match activation {
        Activation::SCReLU => "screlu",
        Activation::CReLU => "crelu",
    };
    [
        ("--buckets", buckets.to_string()),
        ("--activation", activation.to_owned()),
        (
            "--king-mirror",
            (inputs == Inputs::KingMirrored).to_string(),
        ),
    ]
}

/// The shape of `settings`.
fn settings_shape(settings: &Settings) -> [(&'static str, String); 3] {
    shape(settings.buckets, settings.activation, settings.inputs)
}

/// Refuses a checkpoint made with other data or options that fix the split and the model;
/// returns notes on the optimiser's options that changed.
fn check_resume(saved: &Checkpoint, now: &Settings, data: &DataInfo) -> Result<Vec<String>> {
    let was = &saved.settings;
    let shapes = settings_shape(was)
        .into_iter()
        .zip(settings_shape(now))
        .map(|((flag, was), (_, now))| (flag, was, now));
    let fixed = [
        ("--seed", was.seed.to_string(), now.seed.to_string()),
        ("--batch", was.batch.to_string(), now.batch.to_string()),
        (
            "--val-fraction",
            was.val_fraction.to_string(),
            now.val_fraction.to_string(),
        ),
        ("--lambda", was.lambda.to_string(), now.lambda.to_string()),
        ("--mirror", was.mirror.to_string(), now.mirror.to_string()),
    ];
    for (flag, was, now) in shapes.chain(fixed) {
        ensure!(
            was == now,
            "--resume: the checkpoint was made with {flag} {was}, not {now}; give the same"
        );
    }
    ensure!(
        saved.data == *data,
        "--resume: the checkpoint was made on other data ({} positions, hash {:016x}; these \
         files have {}, hash {:016x})",
        saved.data.records,
        saved.data.hash,
        data.records,
        data.hash
    );
    let mut notes = Vec::new();
    let soft = [
        ("--lr", was.lr.to_string(), now.lr.to_string()),
        (
            "--wd",
            was.weight_decay.to_string(),
            now.weight_decay.to_string(),
        ),
        (
            "--lr-gamma",
            was.lr_gamma.to_string(),
            now.lr_gamma.to_string(),
        ),
        (
            "--lr-drop-epoch",
            format!("{:?}", was.lr_drop_epoch),
            format!("{:?}", now.lr_drop_epoch),
        ),
    ];
    for (flag, was, now) in soft {
        if was != now {
            notes.push(format!("{flag} changed from {was} to {now}"));
        }
    }
    Ok(notes)
}

/// The network of `flag` (`--init`, `--scale-to`): a file, or the engine's built-in one.
fn named_network(flag: &str, net: &str) -> Result<Network> {
    if net == "built-in" {
        return Network::embedded().with_context(|| format!("{flag}: the built-in network"));
    }
    let bytes =
        std::fs::read(net).with_context(|| format!("{flag}: cannot read the network {net}"))?;
    Network::from_bytes(&bytes).with_context(|| format!("{flag}: {net} is not a network"))
}

/// Refuses an `--init` network whose shape differs from the options'.
fn check_init(network: &Network, now: &Settings) -> Result<()> {
    let has = shape(network.buckets(), network.activation(), network.inputs());
    for ((flag, has), (_, now)) in has.into_iter().zip(settings_shape(now)) {
        ensure!(
            has == now,
            "--init: the network has {flag} {has}, not {now}; give the network's own"
        );
    }
    Ok(())
}

/// A 64-bit hash of the float weights' bits, for comparing runs.
fn weights_hash(params: &[f32]) -> u64 {
    params.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, w| {
        (h ^ u64::from(w.to_bits())).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn rate(positions: f64, seconds: f64) -> String {
    let per_second = positions / seconds.max(1e-9);
    if per_second >= 1e6 {
        format!("{:.2}M", per_second / 1e6)
    } else {
        format!("{:.0}k", per_second / 1e3)
    }
}

pub fn run(args: &TrainArgs) -> Result<()> {
    check_args(args)?;
    let threads = match args.threads {
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("horizon-train-{i}"))
        .build()
        .context("cannot start the training threads")?;
    pool.install(|| train(args, threads))
}

fn train(args: &TrainArgs, threads: usize) -> Result<()> {
    let started = Instant::now();
    let mut dataset = data::load(&args.data)?;
    let mut names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    let split = if args.val_data.is_empty() {
        data::split(dataset.records.len(), args.val_fraction, args.seed)
    } else {
        let held_out = data::load(&args.val_data)?;
        names.extend(
            args.val_data
                .iter()
                .map(|p| format!("{} (validation)", p.display())),
        );
        data::append_held_out(&mut dataset, held_out)?
    };
    let records = &dataset.records;
    let info = DataInfo {
        records: records.len() as u64,
        hash: dataset.hash,
        train: split.train.len() as u64,
        validation: split.validation.len() as u64,
    };
    say!(
        "read {} positions from {} in {} ({} training, {} validation)",
        thousands(info.records),
        names.join(", "),
        human(started.elapsed()),
        thousands(info.train),
        thousands(info.validation)
    );

    let mut settings = settings(args);
    let (mut model, mut adam, mut history) = match &args.resume {
        Some(path) => {
            let saved = Checkpoint::load(path)?;
            for note in check_resume(&saved, &settings, &info)? {
                say!("note: {note}");
            }
            ensure!(
                saved.history.len() <= args.epochs,
                "--resume: the checkpoint has {} epochs done, more than --epochs {}",
                saved.history.len(),
                args.epochs
            );
            say!(
                "resuming from {} after epoch {}",
                path.display(),
                saved.history.len()
            );
            (saved.model, saved.adam, saved.history)
        }
        None => {
            let model = match &args.init {
                Some(net) => {
                    let network = named_network("--init", net)?;
                    check_init(&network, &settings)?;
                    say!(
                        "starting from the network {net} (hash {:016x})",
                        network.hash()
                    );
                    Model::from_network(&network)
                }
                None => {
                    let mut model = Model::new(args.buckets, settings.activation, args.seed);
                    model.inputs = settings.inputs;
                    model
                }
            };
            let adam = AdamW::new(model.params.len());
            (model, adam, Vec::new())
        }
    };
    settings.activation = model.activation;
    if let Some(dir) = &args.checkpoint_dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    }
    let layout = model.layout;
    // The positions of an epoch: the training split, and with --mirror its mirror images.
    let train_positions = if args.mirror {
        data::with_mirrored(&split.train)
    } else {
        split.train.clone()
    };
    say!(
        "network {INPUTS} -> {HIDDEN} x2 -> 1, {} output bucket{}, {:?}, {:?} inputs; {} parameters; \
         {} epochs of {} batches of {}{}, {threads} thread{}",
        layout.buckets,
        if layout.buckets == 1 { "" } else { "s" },
        model.activation,
        model.inputs,
        thousands(layout.len() as u64),
        args.epochs,
        train_positions.len().div_ceil(args.batch),
        args.batch,
        if args.mirror {
            " (every position and its mirror image)"
        } else {
            ""
        },
        if threads == 1 { "" } else { "s" }
    );

    let frozen_below = if args.freeze_input_layer {
        say!(
            "the first layer is frozen: {} parameters train (the output layer)",
            thousands((layout.len() - Layout::W2) as u64)
        );
        Layout::W2
    } else {
        0
    };
    let lambda = args.lambda as f32;
    let mut grads = vec![vec![0.0f32; layout.len()]; threads];
    let mut order = Vec::with_capacity(train_positions.len());
    let first_epoch = history.len() + 1;
    let batches_per_epoch = train_positions.len().div_ceil(args.batch) as u64;
    let total_batches = batches_per_epoch * args.epochs as u64;
    for epoch in first_epoch..=args.epochs {
        let epoch_rate = learning_rate(args.lr, args.lr_drop_epoch, args.lr_gamma, epoch);
        let rate_of = |b: usize| match args.lr_end {
            Some(end) => {
                let step = (epoch as u64 - 1) * batches_per_epoch + b as u64;
                cosine_rate(args.lr, end, step, total_batches)
            }
            None => epoch_rate,
        };
        let lr = rate_of(0);
        data::epoch_order(&train_positions, args.seed, epoch, &mut order);
        let progress = Progress::new(order.len().div_ceil(args.batch), args.quiet);
        let epoch_started = Instant::now();
        let (mut loss_sum, mut done) = (0.0f64, 0usize);
        for (b, batch) in order.chunks(args.batch).enumerate() {
            let part = batch.len().div_ceil(threads);
            let model_ref = &model;
            let losses: Vec<f64> = grads
                .par_iter_mut()
                .enumerate()
                .map(|(t, grad)| {
                    let from = (t * part).min(batch.len());
                    let to = ((t + 1) * part).min(batch.len());
                    model_ref.accumulate(records, &batch[from..to], lambda, grad)
                })
                .collect();
            loss_sum += losses.iter().sum::<f64>();
            done += batch.len();
            adam.step(
                &mut model.params,
                layout,
                &mut grads,
                1.0 / batch.len() as f32,
                rate_of(b),
                args.wd,
                frozen_below,
            );
            progress.set_message(format!(
                "loss {:.6}, {} pos/s",
                loss_sum / done as f64,
                rate(done as f64, epoch_started.elapsed().as_secs_f64())
            ));
            progress.inc();
        }
        progress.finish();
        let seconds = epoch_started.elapsed().as_secs_f64();
        let train_loss = loss_sum / order.len() as f64;
        ensure!(
            train_loss.is_finite(),
            "epoch {epoch}: the training loss is not finite; lower --lr"
        );
        let validation_loss = validation(&model, records, &split.validation, lambda);
        history.push(EpochRecord {
            train_loss,
            validation_loss,
            seconds,
            lr,
        });
        say!(
            "epoch {epoch}/{}: train loss {train_loss:.6}, validation loss {}, lr {lr:.3e}, \
             {} pos/s, {}",
            args.epochs,
            show_loss(validation_loss),
            rate(order.len() as f64, seconds),
            human(epoch_started.elapsed())
        );
        if let Some(dir) = &args.checkpoint_dir {
            let checkpoint = Checkpoint {
                settings: settings.clone(),
                data: info,
                history: history.clone(),
                model: model.clone(),
                adam: adam.clone(),
            };
            checkpoint.save(&dir.join(format!("epoch-{epoch}.ckpt")))?;
            let network = quantise::quantise(&model)?;
            write_network(&dir.join(format!("epoch-{epoch}.nnue")), &network)?;
        }
    }

    // The engine's network, checked against the float one.
    let (check_on, what) = if split.validation.is_empty() {
        let n = split.train.len().min(CHECK_WITHOUT_VALIDATION);
        (&split.train[..n], "training")
    } else {
        (&split.validation[..], "validation")
    };
    if let Some(net) = &args.scale_to {
        let reference = named_network("--scale-to", net)?;
        let target = quantise::mean_abs_eval(&reference, records, check_on);
        let before = quantise::model_mean_abs_eval(&model, records, check_on);
        let factor = model.scale_output(target / before)?;
        say!(
            "scaled the output layer by {factor:.4}: mean |eval| {before:.1} cp over {} {what} \
             positions, {target:.1} cp with {net} (hash {:016x})",
            thousands(check_on.len() as u64),
            reference.hash()
        );
    }
    let network = quantise::quantise(&model)?;
    let agreement = quantise::compare(&model, &network, records, check_on, lambda);
    say!(
        "quantised: |engine - float| mean {:.2} cp, max {:.1} cp over {} {what} positions \
         (tolerance: mean {} cp); loss {:.6} float, {:.6} engine",
        agreement.mean,
        agreement.max,
        thousands(agreement.positions as u64),
        args.quant_tolerance,
        agreement.float_loss,
        agreement.engine_loss
    );
    ensure!(
        agreement.mean <= args.quant_tolerance,
        "the quantised network differs from the float one by {:.2} cp on average, more than \
         --quant-tolerance {} cp: not written ({})",
        agreement.mean,
        args.quant_tolerance,
        match &args.checkpoint_dir {
            Some(dir) => format!(
                "the float weights are in {}; --resume from the last epoch with --epochs {} \
                 and a larger --quant-tolerance writes them",
                dir.display(),
                args.epochs
            ),
            None => "the float weights are lost: give --checkpoint-dir to keep them".to_owned(),
        }
    );
    write_network(&args.out, &network)?;

    // Summary. With --mirror an epoch trains every position twice.
    let per_epoch = train_positions.len() as u64;
    say!("epoch  train loss  validation loss        lr  positions/s  time");
    for (i, e) in history.iter().enumerate() {
        say!(
            "{:>5}  {:>10.6}  {:>15}  {:>8.2e}  {:>11}  {}",
            i + 1,
            e.train_loss,
            show_loss(e.validation_loss),
            e.lr,
            rate(per_epoch as f64, e.seconds),
            human(std::time::Duration::from_secs_f64(e.seconds))
        );
    }
    let trained_here = (history.len() + 1 - first_epoch) as u64 * per_epoch;
    let seconds: f64 = history[first_epoch - 1..].iter().map(|e| e.seconds).sum();
    say!(
        "trained {} positions ({} epochs of {}{}) in {}, {} pos/s on {threads} thread{}",
        thousands(trained_here),
        history.len() + 1 - first_epoch,
        thousands(per_epoch),
        if first_epoch > 1 {
            format!(", after {} resumed", first_epoch - 1)
        } else {
            String::new()
        },
        human(std::time::Duration::from_secs_f64(seconds)),
        rate(trained_here as f64, seconds),
        if threads == 1 { "" } else { "s" }
    );
    say!(
        "float weights hash {:016x}; wrote {} (network hash {:016x}); total time {}",
        weights_hash(&model.params),
        args.out.display(),
        network.hash(),
        human(started.elapsed())
    );
    Ok(())
}

/// The mean loss over the validation positions (NaN without any), in parallel.
fn validation(
    model: &Model,
    records: &[horizon_chess::packed::PackedBoard],
    indices: &[u32],
    lambda: f32,
) -> f64 {
    if indices.is_empty() {
        return f64::NAN;
    }
    let parts: Vec<f64> = indices
        .par_chunks(4096)
        .map(|chunk| model.loss(records, chunk, lambda))
        .collect();
    parts.iter().sum::<f64>() / indices.len() as f64
}

fn show_loss(loss: f64) -> String {
    if loss.is_nan() {
        "-".to_owned()
    } else {
        format!("{loss:.6}")
    }
}

fn write_network(path: &Path, network: &Network) -> Result<()> {
    std::fs::write(path, network.to_bytes())
        .with_context(|| format!("cannot write the network {}", path.display()))
}
