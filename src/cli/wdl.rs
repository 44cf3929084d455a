//! `horizon wdl-fit`: fits the win/draw/loss model of `UCI_ShowWDL` to self-play scores
//! (`horizon selfplay --wdl-out`) and compares it, on held-out games, with the same model
//! without its material terms.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::wdl::{MAX_MATERIAL, Outcome, Sample, WdlModel};

#[derive(Args, Debug)]
#[command(after_help = "\
Input: the CSV of `horizon selfplay --wdl-out` (`game,ply,material,score,result`, score and \
result from the side to move's view). Games whose number is a multiple of --holdout are kept \
out of the fit and scored afterwards; the fit is by maximum likelihood. Prints the log-loss \
(mean negative natural log of the probability given to what happened) of the model with \
material terms, of the model without, and of the current built-in model, then the fitted \
parameters as Rust source for crates/chess/src/wdl.rs.")]
pub struct WdlFitArgs {
    /// Scores written by `horizon selfplay --wdl-out`.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// Every n-th game is held out of the fit (the test set).
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// Only positions from this ply of the game on (the opening's scores say little).
    #[arg(long, default_value_t = 8)]
    pub min_ply: usize,
}

/// A labelled position, the game it came from and its ply in that game.
struct Row {
    game: usize,
    ply: usize,
    sample: Sample,
}

fn parse_row(line: &str) -> Option<Row> {
    let mut fields = line.split(',').map(str::trim);
    let game = fields.next()?.parse().ok()?;
    let ply = fields.next()?.parse().ok()?;
    let material: u32 = fields.next()?.parse().ok()?;
    let score: i32 = fields.next()?.parse().ok()?;
    let outcome = match fields.next()? {
        "1" => Outcome::Win,
        "0.5" => Outcome::Draw,
        "0" => Outcome::Loss,
        _ => return None,
    };
    if fields.next().is_some() || material > MAX_MATERIAL {
        return None;
    }
    Some(Row {
        game,
        ply,
        sample: Sample {
            score: f64::from(score),
            material,
            outcome,
        },
    })
}

/// The positions to fit and the held-out ones.
fn read(args: &WdlFitArgs) -> Result<(Vec<Sample>, Vec<Sample>)> {
    let text = std::fs::read_to_string(&args.data)
        .with_context(|| format!("cannot read {}", args.data.display()))?;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("game,") || line.starts_with('#') {
            continue;
        }
        let row = parse_row(line).with_context(|| {
            format!(
                "{}:{}: expected game,ply,material,score,result",
                args.data.display(),
                n + 1
            )
        })?;
        if row.ply < args.min_ply {
            continue;
        }
        if row.game % args.holdout == 0 {
            test.push(row.sample);
        } else {
            train.push(row.sample);
        }
    }
    Ok((train, test))
}

fn describe(name: &str, model: &WdlModel, train: &[Sample], test: &[Sample]) {
    say!(
        "{name:<24} a = {:7.1} + {:7.1}·m   b = {:7.1} + {:7.1}·m   log-loss train {:.5}  held-out {:.5}",
        model.a[0],
        model.a[1],
        model.b[0],
        model.b[1],
        model.log_loss(train),
        model.log_loss(test)
    );
}

pub fn run(args: &WdlFitArgs) -> Result<()> {
    anyhow::ensure!(args.holdout >= 2, "--holdout must be at least 2");
    let (train, test) = read(args)?;
    anyhow::ensure!(
        !train.is_empty() && !test.is_empty(),
        "{}: too few positions to fit and test (train {}, held out {})",
        args.data.display(),
        train.len(),
        test.len()
    );
    let outcomes =
        |samples: &[Sample], o: Outcome| samples.iter().filter(|s| s.outcome == o).count();
    say!(
        "positions: {} to fit, {} held out (games numbered a multiple of {}); fit set W/D/L {}/{}/{} (side to move)",
        train.len(),
        test.len(),
        args.holdout,
        outcomes(&train, Outcome::Win),
        outcomes(&train, Outcome::Draw),
        outcomes(&train, Outcome::Loss)
    );
    say!("m = material / {MAX_MATERIAL} (pawns 1, minors 3, rooks 5, queens 9)");
    let with_material = WdlModel::fit(&train, true);
    let flat = WdlModel::fit(&train, false);
    describe("score and material", &with_material, &train, &test);
    describe("score only", &flat, &train, &test);
    describe("built in", &WdlModel::FITTED, &train, &test);
    say!();
    say!(
        "    pub const FITTED: WdlModel = WdlModel {{\n        a: [{:.1}, {:.1}],\n        b: [{:.1}, {:.1}],\n    }};",
        with_material.a[0],
        with_material.a[1],
        with_material.b[0],
        with_material.b[1]
    );
    Ok(())
}
