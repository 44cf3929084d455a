//! `horizon tune`: fits the evaluation weights to labelled positions by Texel's method.
//!
//! The positions (`<FEN> | <result>` lines, as `horizon selfplay` writes them) are filtered
//! to quiet ones, their evaluation features computed once, and one game in ten held out
//! for validation. The scaling `K` of `sigmoid(K · eval / 400)` is fitted first to the
//! current weights, then every weight by full-batch Adam on the mean squared error against
//! the results. `--write` renders the new weights as `weights.rs`, the source the build uses.

mod data;
mod fit;

use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::eval::layout::{self, NUM_WEIGHTS, weight_name};
use horizon_chess::eval::trace::{current_weights, render_weights_source};

use super::report::{human, thousands, write_file};

/// Range searched for `K`.
const K_RANGE: (f64, f64) = (0.1, 5.0);

#[derive(Args, Debug)]
#[command(after_help = "\
Data: one position per line, `<FEN> | <result>` with White's result 1.0, 0.5 or 0.0 (also \
1-0, 1/2-1/2, 0-1, or `<FEN> [<result>]`), as `horizon selfplay` writes it. Positions in \
check, positions where quiescence search finds a gaining capture or promotion, and positions \
scored by a rule are skipped. Lines of one game (same result, non-decreasing move numbers) \
stay together; one game in ten is held out for validation.

The error is the mean of (result - sigmoid(K * eval / 400))^2, sigmoid(x) = 1/(1 + 10^-x), \
eval from White's view. K is fitted first (golden-section search in [0.1, 5]) and then kept.

To redo the tuning: `horizon selfplay --games 4000 --nodes 6000 --openings \
../shared/openings/noob-3moves-sample.epd --out selfplay.txt`, then `horizon tune --data \
selfplay.txt --write crates/chess/src/eval/weights.rs`, rebuild, and test the result in games.")]
pub struct TuneArgs {
    /// Labelled positions; several files separated by commas.
    #[arg(
        long,
        value_name = "FILE[,FILE...]",
        value_delimiter = ',',
        required = true
    )]
    pub data: Vec<PathBuf>,
    /// Read at most this many positions (the first ones, before the quiet filter).
    #[arg(long, value_name = "N")]
    pub max_positions: Option<usize>,
    /// Full passes over the training positions (one Adam step each).
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size in centipawns at the start; it falls linearly to a tenth of it.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// L2 penalty λ · Σ (w − w_start)², in error per centipawn², added to the error while
    /// tuning: weights the data says little about stay near their values (0: plain Texel,
    /// which overfits unless there are millions of positions; lower it for more data).
    #[arg(long, default_value_t = 5e-7)]
    pub l2: f64,
    /// Weights that fewer training positions depend on keep their values.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_count: usize,
    /// Tune only the weights of these blocks (names as in layout.rs, e.g.
    /// `MATERIAL,MOBILITY_KNIGHT`, or term names: material, pst, mobility, pawns, passed,
    /// king, pieces, threats, tempo); the others keep their values.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub blocks: Vec<String>,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Write the tuned weights as Rust source here (crates/chess/src/eval/weights.rs to
    /// use them); without it nothing is written.
    #[arg(long, value_name = "PATH")]
    pub write: Option<PathBuf>,
    /// Threads for the quiet filter and the gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Flat weights (`2i` middlegame, `2i + 1` endgame) from (middlegame, endgame) pairs.
fn flatten(pairs: &[(f64, f64)]) -> Vec<f64> {
    pairs.iter().flat_map(|&(m, e)| [m, e]).collect()
}

fn pairs(flat: &[f64]) -> Vec<(f64, f64)> {
    flat.chunks(2).map(|c| (c[0], c[1])).collect()
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01, in 400-year eras starting on March 1st.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A weight's name, with the piece and square for piece-square entries (`PST[77] knight
/// f3/c3`, squares from the owner's side, files mirrored).
fn describe(index: usize) -> String {
    let name = weight_name(index);
    let Some(offset) = index.checked_sub(layout::PST).filter(|&o| o < 6 * 32) else {
        return name;
    };
    let role = ["pawn", "knight", "bishop", "rook", "queen", "king"][offset / 32];
    let (rank, file) = ((offset % 32) / 4, offset % 4);
    let files = b"abcdefgh";
    format!(
        "{name} {role} {}{}/{}{}",
        files[file] as char,
        rank + 1,
        files[7 - file] as char,
        rank + 1
    )
}

/// Which weights `--blocks` selects (all when the list is empty).
fn selected_weights(names: &[String]) -> Result<Vec<bool>> {
    if names.is_empty() {
        return Ok(vec![true; NUM_WEIGHTS]);
    }
    let mut selected = vec![false; NUM_WEIGHTS];
    for name in names {
        let wanted = name.trim().to_ascii_lowercase();
        let mut found = false;
        for block in layout::BLOCKS {
            let term = block.term.name().to_ascii_lowercase();
            let term_matches = term == wanted || term.split_whitespace().next() == Some(&wanted);
            if block.name.eq_ignore_ascii_case(&wanted) || term_matches {
                selected[block.start..block.start + block.len].fill(true);
                found = true;
            }
        }
        anyhow::ensure!(
            found,
            "--blocks: unknown block {name:?} (blocks: {})",
            layout::BLOCKS
                .iter()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(selected)
}

/// The command line as typed (for the header of the written weights).
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("horizon {}", args.join(" "))
}

pub fn run(args: &TuneArgs) -> Result<()> {
    anyhow::ensure!(
        (1..=256).contains(&args.threads),
        "--threads must be 1 to 256"
    );
    anyhow::ensure!(
        args.learning_rate > 0.0 && args.learning_rate.is_finite(),
        "--learning-rate must be positive"
    );
    anyhow::ensure!(
        args.l2 >= 0.0 && args.l2.is_finite(),
        "--l2 must be zero or positive"
    );
    if let Some(k) = args.k {
        anyhow::ensure!(k > 0.0 && k.is_finite(), "--k must be positive");
    }
    let selected = selected_weights(&args.blocks)?;
    let threads = args.threads;
    let started = Instant::now();
    let (train, valid, stats) = data::load(&args.data, args.max_positions, threads, args.quiet)?;
    let names: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
    say!(
        "read {} positions from {} in {}: {} quiet kept ({} training, {} validation, {:.0} MiB)",
        thousands(stats.lines as u64),
        names.join(", "),
        human(started.elapsed()),
        thousands(stats.kept() as u64),
        thousands(stats.train as u64),
        thousands(stats.validation as u64),
        (train.bytes() + valid.bytes()) as f64 / f64::from(1 << 20),
    );
    say!(
        "skipped: {} in check, {} not quiet (quiescence gains), {} scored by rule, {} unreadable",
        thousands(stats.in_check as u64),
        thousands(stats.tactical as u64),
        thousands(stats.by_rule as u64),
        thousands(stats.unreadable as u64),
    );
    anyhow::ensure!(!train.is_empty(), "no quiet training positions");

    let start = flatten(&current_weights());
    let fit_started = Instant::now();
    let evals = fit::evaluations(&train, &start, threads);
    let k = match args.k {
        Some(k) => k,
        None => fit::fit_k(&evals, &train.results, K_RANGE.0, K_RANGE.1),
    };
    let train_before = fit::mean_error(k, &evals, &train.results);
    let valid_before = fit::error(&valid, &start, k, threads);
    say!(
        "K = {k:.4}{}; error with the current weights: training {train_before:.6}, validation \
         {valid_before:.6}",
        if args.k.is_some() { " (given)" } else { "" }
    );

    let frozen: Vec<bool> = train
        .occurrences(2 * NUM_WEIGHTS)
        .into_iter()
        .enumerate()
        .map(|(i, n)| n < args.min_count.max(1) || !selected[i / 2])
        .collect();
    let free = frozen.iter().filter(|&&f| !f).count();
    say!(
        "tuning {free} of {} values ({NUM_WEIGHTS} middlegame/endgame pairs; the others are \
         {}in fewer than {} training positions), {} epochs, learning rate {}, L2 {}",
        2 * NUM_WEIGHTS,
        if args.blocks.is_empty() {
            ""
        } else {
            "outside --blocks or "
        },
        args.min_count.max(1),
        args.epochs,
        args.learning_rate,
        args.l2
    );
    let mut weights = start.clone();
    let mut adam = fit::Adam::new(weights.len());
    let every = (args.epochs / 20).max(1);
    for epoch in 0..args.epochs {
        let (err, mut grad) = fit::gradient(&train, &weights, k, threads);
        for ((g, w), w0) in grad.iter_mut().zip(&weights).zip(&start) {
            *g += 2.0 * args.l2 * (w - w0);
        }
        if epoch % every == 0 {
            let v = fit::error(&valid, &weights, k, threads);
            say!(
                "epoch {epoch:>5}: training {err:.6}, validation {v:.6}  ({})",
                human(fit_started.elapsed())
            );
        }
        let rate = args.learning_rate * (1.0 - 0.9 * epoch as f64 / args.epochs as f64);
        adam.step(&mut weights, &grad, &frozen, rate);
    }
    let train_after = fit::error(&train, &weights, k, threads);
    let valid_after = fit::error(&valid, &weights, k, threads);
    // The source holds whole centipawns: the errors of what the engine will use.
    let rounded: Vec<f64> = weights.iter().map(|w| w.round()).collect();
    let train_rounded = fit::error(&train, &rounded, k, threads);
    let valid_rounded = fit::error(&valid, &rounded, k, threads);
    say!(
        "epoch {:>5}: training {train_after:.6}, validation {valid_after:.6}  ({})",
        args.epochs,
        human(fit_started.elapsed())
    );
    say!("rounded weights: training {train_rounded:.6}, validation {valid_rounded:.6}");
    say!(
        "training error {train_before:.6} -> {train_rounded:.6} ({:+.2}%), validation {valid_before:.6} -> {valid_rounded:.6} ({:+.2}%)",
        100.0 * (train_rounded / train_before - 1.0),
        100.0 * (valid_rounded / valid_before.max(1e-300) - 1.0),
    );

    let mut changes: Vec<(usize, f64)> = (0..NUM_WEIGHTS)
        .map(|i| {
            let d = (rounded[2 * i] - start[2 * i])
                .abs()
                .max((rounded[2 * i + 1] - start[2 * i + 1]).abs());
            (i, d)
        })
        .filter(|&(_, d)| d > 0.0)
        .collect();
    changes.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    say!(
        "{} of {NUM_WEIGHTS} weights changed; the largest changes (middlegame, endgame):",
        changes.len()
    );
    for &(i, _) in changes.iter().take(20) {
        say!(
            "  {:<28} ({:>5}, {:>5}) -> ({:>5}, {:>5})",
            describe(i),
            start[2 * i],
            start[2 * i + 1],
            rounded[2 * i],
            rounded[2 * i + 1]
        );
    }

    if let Some(path) = &args.write {
        let header = vec![
            format!(
                "Tuned by Texel's method on {}: `{}`.",
                today(),
                command_line()
            ),
            format!(
                "{} quiet positions of {} read ({} training, {} validation); K = {k:.4}.",
                stats.kept(),
                stats.lines,
                stats.train,
                stats.validation
            ),
            format!(
                "Mean squared error: training {train_before:.6} -> {train_rounded:.6}, \
                 validation {valid_before:.6} -> {valid_rounded:.6}."
            ),
            format!(
                "Settings: {} epochs, learning rate {}, L2 {}, min count {}, blocks {}.",
                args.epochs,
                args.learning_rate,
                args.l2,
                args.min_count.max(1),
                if args.blocks.is_empty() {
                    "all".to_owned()
                } else {
                    args.blocks.join(",")
                }
            ),
            "`horizon tune --help` says how to redo it.".to_owned(),
        ];
        let source = render_weights_source(&pairs(&rounded), &header);
        write_file(path, &source).with_context(|| "writing the tuned weights")?;
        say!("wrote {}", path.display());
    }
    say!("total time {}", human(started.elapsed()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_square_weights_are_named_by_square() {
        assert_eq!(
            describe(layout::PST + 32 + 2 * 4 + 2),
            "PST[42] knight c3/f3"
        );
        assert_eq!(describe(layout::TEMPO), "TEMPO");
    }

    #[test]
    fn blocks_select_by_block_or_term_name() {
        let all = selected_weights(&[]).expect("all");
        assert!(all.iter().all(|&s| s));
        let some = selected_weights(&["material".into(), "PASSED_FREE".into(), "king".into()])
            .expect("known names");
        assert!(some[layout::MATERIAL] && some[layout::PASSED_FREE] && some[layout::STORM]);
        assert!(!some[layout::PST] && !some[layout::PASSED] && !some[layout::TEMPO]);
        assert!(selected_weights(&["nonsense".into()]).is_err());
    }

    #[test]
    fn today_is_a_plausible_date() {
        let d = today();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.as_str() >= "2024-01-01", "{d}");
    }

    #[test]
    fn gradient_matches_finite_differences() {
        use horizon_chess::eval;
        let fens = [
            (
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
                1.0,
            ),
            ("8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", 0.5),
            ("4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", 0.0),
        ];
        let mut set = data::Dataset::default();
        for (fen, r) in fens {
            let chess = data::parse_fen(fen).expect("fen");
            set.push(&eval::features(&chess).expect("linear"), r);
        }
        let w = flatten(&current_weights());
        let k = 1.1;
        let (err, grad) = fit::gradient(&set, &w, k, 2);
        assert!((err - fit::error(&set, &w, k, 1)).abs() < 1e-12);
        let seen = set.occurrences(w.len());
        for i in (0..w.len()).filter(|&i| seen[i] > 0).step_by(7) {
            let h = 1e-3;
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i] += h;
            down[i] -= h;
            let numeric = (fit::error(&set, &up, k, 1) - fit::error(&set, &down, k, 1)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() <= 1e-6 * (1.0 + numeric.abs()),
                "weight {i}: {numeric} vs {}",
                grad[i]
            );
        }
    }
}
