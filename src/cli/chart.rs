//! The ablation chart: nodes against depth, one line per combination, log scale, as SVG.
//! Every combination is drawn thin and grey for the overall picture; the baseline, the best
//! few and the all-on combination are drawn bold, in colour, and named in the legend.

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::prelude::*;

/// How a line is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Emphasis {
    /// Plain alpha-beta: black.
    Baseline,
    /// The n-th best combination (0 = best).
    Best(usize),
    /// Every enhancement on.
    All,
    /// Any other combination: thin grey, not in the legend.
    Other,
}

/// One line: a label and (depth, nodes) points.
pub struct Series {
    pub label: String,
    pub points: Vec<(u32, u64)>,
    pub emphasis: Emphasis,
}

const BEST_COLOURS: [RGBColor; 5] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];
const ALL_COLOUR: RGBColor = RGBColor(0xff, 0x7f, 0x0e);
const OTHER_COLOUR: RGBColor = RGBColor(0xc8, 0xc8, 0xc8);

fn style(emphasis: Emphasis) -> ShapeStyle {
    match emphasis {
        Emphasis::Baseline => BLACK.stroke_width(3),
        Emphasis::Best(n) => BEST_COLOURS[n % BEST_COLOURS.len()].stroke_width(3),
        Emphasis::All => ALL_COLOUR.stroke_width(2),
        Emphasis::Other => OTHER_COLOUR.stroke_width(1),
    }
}

/// `1.2M`, `35k`, `900`: short labels for the log axis.
fn short(n: f64) -> String {
    let (value, unit) = if n >= 1e9 {
        (n / 1e9, "G")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "k")
    } else {
        (n, "")
    };
    let digits = format!("{value:.2}");
    format!(
        "{}{unit}",
        digits.trim_end_matches('0').trim_end_matches('.')
    )
}

/// 1, 2, 5, 10, 20, 50 ... within `lo..hi`: labels for the log axis.
fn one_two_five(lo: f64, hi: f64) -> Vec<f64> {
    let mut keys = Vec::new();
    let mut decade = 10f64.powf(lo.max(1.0).log10().floor());
    while decade <= hi {
        keys.extend(
            [1.0, 2.0, 5.0]
                .iter()
                .map(|m| m * decade)
                .filter(|v| (lo..=hi).contains(v)),
        );
        decade *= 10.0;
    }
    keys
}

/// Draws `series` into an SVG file at `path`.
pub fn nodes_by_depth(path: &Path, title: &str, series: &[Series]) -> Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("chart {}: {e}", path.display());
    let points = || series.iter().flat_map(|s| s.points.iter());
    let (min_depth, max_depth) =
        points().fold((u32::MAX, 0), |(lo, hi), &(d, _)| (lo.min(d), hi.max(d)));
    let (min_nodes, max_nodes) = points().fold((u64::MAX, 1), |(lo, hi), &(_, n)| {
        (lo.min(n.max(1)), hi.max(n))
    });
    anyhow::ensure!(min_depth <= max_depth, "chart: nothing to draw");

    let root = SVGBackend::new(path, (1100, 720)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let x_range = (f64::from(min_depth) - 0.15)..(f64::from(max_depth) + 0.15);
    let y_range = (min_nodes as f64 / 1.5)..(max_nodes as f64 * 1.5);
    let y_keys = one_two_five(y_range.start, y_range.end);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(18)
        .x_label_area_size(48)
        .y_label_area_size(72)
        .build_cartesian_2d(x_range, y_range.log_scale().with_key_points(y_keys))
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("depth (plies)")
        .y_desc("nodes, summed over the suite (log scale)")
        .x_labels((max_depth - min_depth + 1) as usize)
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| short(*y))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(|e| err(&e))?;

    let to_xy = |s: &Series| -> Vec<(f64, f64)> {
        s.points
            .iter()
            .map(|&(d, n)| (f64::from(d), n.max(1) as f64))
            .collect()
    };
    // Grey lines first, so the highlighted ones are drawn over them.
    let mut others_labelled = false;
    for s in series.iter().filter(|s| s.emphasis == Emphasis::Other) {
        let drawn = chart
            .draw_series(LineSeries::new(to_xy(s), style(Emphasis::Other)))
            .map_err(|e| err(&e))?;
        if !others_labelled {
            others_labelled = true;
            drawn.label("other combinations").legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], style(Emphasis::Other))
            });
        }
    }
    let mut highlighted: Vec<&Series> = series
        .iter()
        .filter(|s| s.emphasis != Emphasis::Other)
        .collect();
    // Legend order: baseline, best 1..n, all.
    highlighted.sort_by_key(|s| match s.emphasis {
        Emphasis::Baseline => 0,
        Emphasis::Best(n) => 1 + n,
        Emphasis::All => usize::MAX - 1,
        Emphasis::Other => usize::MAX,
    });
    for s in highlighted {
        let line_style = style(s.emphasis);
        chart
            .draw_series(LineSeries::new(to_xy(s), line_style))
            .map_err(|e| err(&e))?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style));
        chart
            .draw_series(
                to_xy(s)
                    .into_iter()
                    .map(|p| Circle::new(p, 4, line_style.color.filled())),
            )
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 15))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::short;

    #[test]
    fn short_labels() {
        assert_eq!(short(500.0), "500");
        assert_eq!(short(1000.0), "1k");
        assert_eq!(short(1_500_000.0), "1.5M");
        assert_eq!(short(2_000_000_000.0), "2G");
    }

    #[test]
    fn log_axis_keys() {
        assert_eq!(
            super::one_two_five(15.0, 600.0),
            [20.0, 50.0, 100.0, 200.0, 500.0]
        );
    }
}
