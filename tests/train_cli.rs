//! `horizon train` end to end: self-play data in bullet records, a short training run, the
//! network it writes, checkpoints, `--resume`, and the errors on bad input.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_success, built_in_network_file, run_horizon, scratch_dir, stdout};
use horizon_chess::nnue::{Activation, Inputs, Network};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The training and validation losses of the `epoch N/M: train loss X, validation loss Y`
/// lines, by epoch.
fn losses(text: &str) -> Vec<(usize, String, String)> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("epoch ")?;
            let (epoch, rest) = rest.split_once('/')?;
            let train = rest.split("train loss ").nth(1)?.split(',').next()?;
            let validation = rest.split("validation loss ").nth(1)?.split(',').next()?;
            Some((epoch.parse().ok()?, train.to_owned(), validation.to_owned()))
        })
        .collect()
}

/// The `float weights hash` of the summary.
fn weights_hash(text: &str) -> String {
    text.split("float weights hash ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap_or_else(|| panic!("no weights hash in\n{text}"))
        .to_owned()
}

fn failure(args: &[&str]) -> String {
    let output = run_horizon(args);
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn train_learns_writes_a_network_and_resumes_exactly() {
    let dir = scratch_dir("train");
    let data = dir.join("d.bin");
    let output = run_horizon(&[
        "selfplay",
        "--games",
        "4",
        "--nodes",
        "300",
        "--seed",
        "1",
        "--format",
        "bullet",
        "--out",
        path(&data),
        "--quiet",
    ]);
    assert_success(&output);
    let records = std::fs::metadata(&data).expect("data written").len() / 32;
    assert!(records >= 100, "{records} positions");

    let (a, b) = (dir.join("a"), dir.join("b"));
    let (net_a, net_b) = (dir.join("a.nnue"), dir.join("b.nnue"));
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            path(&data),
            "--epochs",
            "3",
            "--batch",
            "16",
            "--lr",
            "0.005",
            "--val-fraction",
            "0.1",
            "--seed",
            "5",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let output = run_horizon(&args);
        assert_success(&output);
        stdout(&output)
    };

    // Uninterrupted, one thread.
    let full = train(&[
        "--threads",
        "1",
        "--checkpoint-dir",
        path(&a),
        "--out",
        path(&net_a),
    ]);
    let full_losses = losses(&full);
    assert_eq!(
        full_losses.iter().map(|l| l.0).collect::<Vec<_>>(),
        [1, 2, 3],
        "{full}"
    );
    let loss = |i: usize| -> f64 { full_losses[i].1.parse().expect("a number") };
    assert!(
        loss(2) < 0.9 * loss(0),
        "the training loss did not go down: {full_losses:?}"
    );
    assert!(full.contains("quantised: |engine - float| mean"), "{full}");

    // The network loads in the engine, and is the last epoch's.
    let bytes = std::fs::read(&net_a).expect("network written");
    let network = Network::from_bytes(&bytes).expect("a valid network");
    assert_eq!(network.buckets(), 1);
    assert_eq!(network.activation(), Activation::SCReLU);
    assert_eq!(network.inputs(), Inputs::Plain);
    assert_eq!(
        std::fs::read(a.join("epoch-3.nnue")).expect("per-epoch network"),
        bytes
    );
    for epoch in 1..=3 {
        assert!(a.join(format!("epoch-{epoch}.ckpt")).is_file());
    }

    // Resumed after epoch 1: the same epochs 2 and 3, to the bit.
    let resumed = train(&[
        "--threads",
        "1",
        "--resume",
        path(&a.join("epoch-1.ckpt")),
        "--checkpoint-dir",
        path(&b),
        "--out",
        path(&net_b),
    ]);
    assert!(resumed.contains("resuming from"), "{resumed}");
    assert_eq!(losses(&resumed), full_losses[1..], "{full}\n{resumed}");
    assert_eq!(weights_hash(&resumed), weights_hash(&full));
    assert_eq!(std::fs::read(&net_b).expect("network written"), bytes);
    assert!(!b.join("epoch-1.ckpt").exists());

    // Two threads: a run of its own, reproducible.
    let two: Vec<String> = (0..2)
        .map(|_| {
            weights_hash(&train(&[
                "--threads",
                "2",
                "--out",
                path(&dir.join("two.nnue")),
            ]))
        })
        .collect();
    assert_eq!(two[0], two[1]);

    // King-mirrored inputs: another network, and the file says so.
    let mirrored_net = dir.join("king-mirrored.nnue");
    let mirrored = train(&[
        "--threads",
        "1",
        "--king-mirror",
        "--out",
        path(&mirrored_net),
    ]);
    assert!(mirrored.contains("KingMirrored inputs"), "{mirrored}");
    assert_ne!(weights_hash(&mirrored), weights_hash(&full));
    let network = Network::from_bytes(&std::fs::read(&mirrored_net).expect("network written"))
        .expect("a valid network");
    assert_eq!(network.inputs(), Inputs::KingMirrored);
    let both = failure(&[
        "train",
        "--data",
        path(&data),
        "--mirror",
        "--king-mirror",
        "--out",
        path(&dir.join("x.nnue")),
    ]);
    assert!(both.contains("give one"), "{both}");

    // A resume with another model, or on other data, is refused.
    let resume_with = |option: &[&str]| {
        let checkpoint = a.join("epoch-1.ckpt");
        let out = dir.join("x.nnue");
        let mut args = vec![
            "train",
            "--data",
            path(&data),
            "--val-fraction",
            "0.1",
            "--seed",
            "5",
            "--batch",
            "16",
            "--resume",
            path(&checkpoint),
            "--out",
            path(&out),
        ];
        args.extend_from_slice(option);
        failure(&args)
    };
    let error = resume_with(&["--buckets", "8"]);
    assert!(error.contains("made with --buckets 1, not 8"), "{error}");
    let error = resume_with(&["--king-mirror"]);
    assert!(
        error.contains("made with --king-mirror false, not true"),
        "{error}"
    );
}

#[test]
fn train_refuses_bad_data_files() {
    let dir = scratch_dir("train-bad");
    let out = dir.join("net.nnue");
    let train = |data: &Path| failure(&["train", "--data", path(data), "--out", path(&out)]);

    let missing = train(&dir.join("missing.bin"));
    assert!(missing.contains("cannot read the data file"), "{missing}");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").expect("writable");
    assert!(train(&empty).contains("is empty"));
    let text = dir.join("positions.txt");
    std::fs::write(
        &text,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5\n",
    )
    .expect("writable");
    let misaligned = train(&text);
    assert!(misaligned.contains("not a multiple of 32"), "{misaligned}");
    assert!(!out.exists());
}

/// `horizon data`: repeated games from one opening are found and removed, the split adds up,
/// the shuffle is seeded, and text output is one legal FEN line per position.
#[test]
fn data_dedups_shuffles_splits_and_converts() {
    let dir = scratch_dir("data");
    let openings = dir.join("one.epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .expect("scratch file");
    // One opening, four games, no random plies: the same game four times.
    let data = dir.join("d.bin");
    let output = run_horizon(&[
        "selfplay",
        "--games",
        "4",
        "--nodes",
        "300",
        "--threads",
        "2",
        "--openings",
        path(&openings),
        "--format",
        "bullet",
        "--out",
        path(&data),
        "--quiet",
    ]);
    assert_success(&output);
    let records = (std::fs::metadata(&data).expect("data written").len() / 32) as usize;
    assert!(
        records >= 40 && records.is_multiple_of(4),
        "{records} positions"
    );

    let (train, val) = (dir.join("train.bin"), dir.join("val.bin"));
    let split = |out: &Path, val_out: &Path, seed: &str| {
        let output = run_horizon(&[
            "data",
            "--in",
            path(&data),
            "--dedup",
            "--shuffle",
            seed,
            "--val-fraction",
            "0.25",
            "--val-out",
            path(val_out),
            "--out",
            path(out),
        ]);
        assert_success(&output);
        stdout(&output)
    };
    let report = split(&train, &val, "5");
    // Every board at least four times: at most a quarter is left.
    let unique: usize = report
        .split(" positions left")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no count left in\n{report}"));
    assert!(unique >= 10 && unique <= records / 4, "{report}");
    let size = |p: &Path| (std::fs::metadata(p).expect("written").len() / 32) as usize;
    assert_eq!(size(&val), (unique as f64 * 0.25).round() as usize);
    assert_eq!(size(&train) + size(&val), unique);
    // The same seed gives the same files; another seed another order.
    let (train2, val2) = (dir.join("train2.bin"), dir.join("val2.bin"));
    split(&train2, &val2, "5");
    assert_eq!(std::fs::read(&train2).ok(), std::fs::read(&train).ok());
    split(&train2, &val2, "6");
    assert_ne!(std::fs::read(&train2).ok(), std::fs::read(&train).ok());

    let text = dir.join("d.txt");
    let output = run_horizon(&[
        "data",
        "--in",
        path(&val),
        "--format",
        "text",
        "--out",
        path(&text),
    ]);
    assert_success(&output);
    let lines = std::fs::read_to_string(&text).expect("text written");
    assert_eq!(lines.lines().count(), size(&val));
    for line in lines.lines() {
        let (fen, result) = line.split_once(" | ").expect("FEN | result");
        assert!(["1.0", "0.5", "0.0"].contains(&result), "{line}");
        horizon_chess::Position::from_fen(fen).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}

/// Self-play games for training and for validation, and a network trained on the first
/// with `--lambda 0.6`: (training data, validation data, network, the trainer's output).
fn trained_network(dir: &Path) -> (PathBuf, PathBuf, PathBuf, String) {
    let selfplay = |seed: &str, games: &str, out: &Path| {
        let output = run_horizon(&[
            "selfplay",
            "--games",
            games,
            "--nodes",
            "300",
            "--seed",
            seed,
            "--format",
            "bullet",
            "--out",
            path(out),
            "--quiet",
        ]);
        assert_success(&output);
    };
    let (data, val) = (dir.join("d.bin"), dir.join("v.bin"));
    selfplay("1", "4", &data);
    selfplay("2", "2", &val);
    let net = dir.join("net.nnue");
    let output = run_horizon(&[
        "train",
        "--data",
        path(&data),
        "--val-data",
        path(&val),
        "--epochs",
        "2",
        "--batch",
        "16",
        "--buckets",
        "2",
        "--king-mirror",
        "--lambda",
        "0.6",
        "--threads",
        "1",
        "--quiet",
        "--out",
        path(&net),
    ]);
    assert_success(&output);
    (data, val, net, stdout(&output))
}

/// `horizon data --loss-of`: a network's loss on held-out games is the engine loss that the
/// trainer printed for the same positions and target; a file that is not a network is refused.
#[test]
fn data_loss_of_a_network_is_the_trainers_engine_loss() {
    let dir = scratch_dir("loss-of");
    let (data, val, net, trained) = trained_network(&dir);
    let engine_loss = trained
        .split(" engine")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .unwrap_or_else(|| panic!("no engine loss in\n{trained}"))
        .to_owned();
    assert!(engine_loss.starts_with("0."), "{trained}");

    let output = run_horizon(&[
        "data",
        "--in",
        path(&val),
        "--loss-of",
        path(&net),
        "--lambda",
        "0.6",
    ]);
    assert_success(&output);
    let report = stdout(&output);
    assert!(
        report.contains(&format!("lambda 0.6): {engine_loss};")),
        "trainer: {engine_loss}\n{report}"
    );
    // Another target, another loss.
    let output = run_horizon(&["data", "--in", path(&val), "--loss-of", path(&net)]);
    assert_success(&output);
    assert!(!stdout(&output).contains(&engine_loss));

    let refused = failure(&["data", "--in", path(&val), "--loss-of", path(&data)]);
    assert!(refused.contains("is not a usable network"), "{refused}");
}

/// One `--loss-of` line's figures: (loss at the best scale, mean |eval| in cp).
fn fit_figures(report: &str) -> (f64, f64) {
    let line = report
        .lines()
        .find(|line| line.starts_with("loss of "))
        .unwrap_or_else(|| panic!("no loss line in\n{report}"));
    let number = |after: &str| -> f64 {
        line.split(after)
            .nth(1)
            .and_then(|rest| rest.split([' ', ';']).find(|word| !word.is_empty()))
            .and_then(|word| word.parse().ok())
            .unwrap_or_else(|| panic!("no number after {after:?} in {line}"))
    };
    let best = line
        .split("at its best scale")
        .nth(1)
        .unwrap_or_else(|| panic!("no best-scale loss in {line}"));
    let fitted = best
        .split("): ")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("no best-scale loss in {line}"));
    (fitted, number("mean |eval| "))
}

/// `horizon train --init NET --epochs 0 --scale-to REF` rewrites NET with its output layer
/// scaled to REF's mean absolute evaluation (here the built-in network's) on the validation
/// positions: the scale moves, and the loss at the best scale, which the scale cannot
/// change, stays. `--epochs 0` without `--init` is refused.
#[test]
fn train_scale_to_gives_a_network_another_networks_scale() {
    let dir = scratch_dir("scale-to");
    let (_, val, net, _) = trained_network(&dir);
    let scaled = dir.join("scaled.nnue");
    let output = run_horizon(&[
        "train",
        "--data",
        path(&val),
        "--val-data",
        path(&val),
        "--init",
        path(&net),
        "--epochs",
        "0",
        "--scale-to",
        "built-in",
        "--buckets",
        "2",
        "--king-mirror",
        "--threads",
        "1",
        "--quiet",
        "--out",
        path(&scaled),
    ]);
    assert_success(&output);
    let said = stdout(&output);
    assert!(said.contains("scaled the output layer by "), "{said}");

    let built_in = built_in_network_file();
    let fit = |net: &str| {
        let output = run_horizon(&["data", "--in", path(&val), "--loss-of", net]);
        assert_success(&output);
        fit_figures(&stdout(&output))
    };
    let (net_fitted, net_scale) = fit(path(&net));
    let (scaled_fitted, scaled_scale) = fit(path(&scaled));
    let (_, reference_scale) = fit(built_in);
    assert!(
        (scaled_scale - reference_scale).abs() <= 2.0,
        "scaled {scaled_scale} cp, built-in {reference_scale} cp"
    );
    assert!(
        (net_scale - reference_scale).abs() > 10.0,
        "a network trained on four games already had the built-in scale: {net_scale} cp"
    );
    assert!(
        (scaled_fitted - net_fitted).abs() < 2e-4,
        "best-scale losses {net_fitted} and {scaled_fitted}"
    );

    let refused = failure(&[
        "train",
        "--data",
        path(&val),
        "--epochs",
        "0",
        "--out",
        path(&dir.join("x.nnue")),
    ]);
    assert!(refused.contains("0 only with --init"), "{refused}");
}

/// `--freeze-input-layer` trains the output layer alone: the written network's first layer
/// is the `--init` network's, weight for weight, and its output layer has moved. Without
/// `--init` the option is refused.
#[test]
fn train_with_a_frozen_input_layer_keeps_the_first_layer() {
    let dir = scratch_dir("freeze");
    let (data, val, net, _) = trained_network(&dir);
    let tuned = dir.join("tuned.nnue");
    let output = run_horizon(&[
        "train",
        "--data",
        path(&data),
        "--val-data",
        path(&val),
        "--init",
        path(&net),
        "--freeze-input-layer",
        "--epochs",
        "2",
        "--batch",
        "16",
        "--lr",
        "0.01",
        "--buckets",
        "2",
        "--king-mirror",
        "--threads",
        "1",
        "--quiet",
        "--out",
        path(&tuned),
    ]);
    assert_success(&output);
    assert!(stdout(&output).contains("the first layer is frozen"));
    let load = |p: &Path| {
        let bytes = std::fs::read(p).expect("network file");
        Network::from_bytes(&bytes).expect("a network").weights()
    };
    let (before, after) = (load(&net), load(&tuned));
    assert_eq!(before.ft_weights, after.ft_weights);
    assert_eq!(before.ft_bias, after.ft_bias);
    assert_ne!(
        before.out_weights, after.out_weights,
        "the output layer learnt nothing"
    );

    let refused = failure(&[
        "train",
        "--data",
        path(&data),
        "--freeze-input-layer",
        "--out",
        path(&dir.join("x.nnue")),
    ]);
    assert!(refused.contains("--init"), "{refused}");
}
