//! Everything Horizon prints: one locked line at a time, flushed at once.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use horizon_search::score::mate_moves;
use horizon_search::{Bound, Iteration};
use parking_lot::Mutex;

/// A shared, line-buffered output (stdout, or a buffer in tests).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes it (GUIs read line by line; a broken pipe is ignored:
    /// the GUI has gone and `quit` or EOF follows).
    pub fn line(&self, text: &str) {
        let mut out = self.0.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    /// `info string ...`, one line per line of `text`.
    pub fn info_string(&self, text: &str) {
        for line in text.lines() {
            self.line(&format!("info string {line}"));
        }
    }
}

/// The `score ...` part: centipawns or mate in moves, with a bound when the value is one.
pub fn score_text(score: i32, bound: Bound) -> String {
    let value = match mate_moves(score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {score}"),
    };
    match bound {
        Bound::Exact => value,
        Bound::Lower => format!("{value} lowerbound"),
        Bound::Upper => format!("{value} upperbound"),
    }
}

/// One `info depth ...` line for a finished iteration; `wdl` (per mille) follows the score
/// when `UCI_ShowWDL` is on. The bound stays right after the score, where the UCI grammar
/// puts it (python-chess, for one, reads it only there).
pub fn info_line<M>(report: &Iteration<'_, M>, pv: &[String], wdl: Option<[u32; 3]>) -> String {
    let ms = report.elapsed.as_millis().max(1);
    let nps = u128::from(report.nodes) * 1000 / ms;
    let wdl = wdl.map_or(String::new(), |[w, d, l]| format!(" wdl {w} {d} {l}"));
    format!(
        "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        report.depth,
        report.seldepth.max(report.depth as usize),
        report.multipv,
        score_text(report.line.score, report.line.bound),
        report.nodes,
        nps,
        report.hashfull,
        report.tb_hits,
        report.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// `info depth D currmove M currmovenumber N`.
pub fn currmove_line(depth: u32, uci: &str, number: usize, _elapsed: Duration) -> String {
    format!("info depth {depth} currmove {uci} currmovenumber {number}")
}
