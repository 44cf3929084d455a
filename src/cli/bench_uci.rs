//! `horizon bench --uci`: the bench positions searched through the UCI front-end, in this
//! process, the way a GUI drives it (`ucinewgame`, `position fen`, `go depth`), one position
//! after the other.
//!
//! Why a second path: Rust compiles a generic function once per crate that uses it, so the
//! UCI crate holds its own copy of the search (`Searcher<Position>` and all it calls), apart
//! from the copy `horizon bench` runs. Games run the UCI copy. Its node count must equal
//! `horizon bench`'s (the same searches), and `make pgo` profiles it too: a build guided by
//! a profile of the bench copy alone sped up `bench` by 9% and games not at all
//! (`docs/speed.md`).

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use horizon_uci::output::Output;

use super::bench::{BenchArgs, positions};

/// The engine's input: the lines sent, then the end of input when the sender is dropped.
struct LineReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
    read: usize,
}

impl Read for LineReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.read == self.pending.len() {
            let Ok(line) = self.lines.recv() else {
                return Ok(0);
            };
            self.pending = line.into_bytes();
            self.pending.push(b'\n');
            self.read = 0;
        }
        let n = buf.len().min(self.pending.len() - self.read);
        buf[..n].copy_from_slice(&self.pending[self.read..self.read + n]);
        self.read += n;
        Ok(n)
    }
}

/// The engine's output, passed on line by line.
struct LineWriter {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line).trim_end().to_owned();
            // The reader is gone only when the bench has stopped listening.
            let _ = self.lines.send(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A UCI engine running on its own thread, with its input and output at hand.
struct Engine {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

/// Longest wait for one answer: far above any bench search, short of a hang.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);

impl Engine {
    fn start() -> Result<Engine> {
        let (input, lines_in) = channel();
        let (lines_out, output) = channel();
        let reader = BufReader::new(LineReader {
            lines: lines_in,
            pending: Vec::new(),
            read: 0,
        });
        let writer = LineWriter {
            lines: lines_out,
            partial: Vec::new(),
        };
        let thread = std::thread::Builder::new()
            .name("horizon-bench-uci".into())
            .spawn(move || horizon_uci::run(reader, Output::new(Box::new(writer))))
            .context("starting the UCI engine's thread")?;
        Ok(Engine {
            input: Some(input),
            output,
            thread: Some(thread),
        })
    }

    fn send(&self, line: &str) -> Result<()> {
        self.input
            .as_ref()
            .and_then(|input| input.send(line.to_owned()).ok())
            .ok_or_else(|| anyhow!("the UCI engine stopped reading (sending `{line}`)"))
    }

    /// Reads up to the line that starts with `prefix` and returns the lines read, that one
    /// last. An `info string error: ...` fails the bench: a rejected option would otherwise
    /// search another configuration unnoticed.
    fn read_until(&self, prefix: &str) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .output
                .recv_timeout(ANSWER_TIMEOUT)
                .map_err(|_| anyhow!("no `{prefix}` from the UCI engine"))?;
            if line.starts_with("info string error") {
                bail!("the UCI engine said: {line}");
            }
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    fn quit(mut self) -> Result<()> {
        self.send("quit")?;
        self.input = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result.context("the UCI engine failed"),
            Some(Err(_)) => bail!("the UCI engine's thread panicked"),
            None => Ok(()),
        }
    }
}

/// The `setoption` lines that give the UCI engine `horizon bench`'s configuration.
fn option_lines(args: &BenchArgs) -> Result<Vec<String>> {
    // `--bare` and `--stats` are refused by the argument parser (no UCI equivalent).
    if args.network.simd != super::network::SimdChoice::Auto {
        bail!("--uci uses the engine's own choice of kernels: --simd has no UCI equivalent");
    }
    let mut lines = vec![
        format!("setoption name Hash value {}", args.hash),
        format!("setoption name Threads value {}", args.threads),
    ];
    match (&args.network.eval_file, args.network.nnue) {
        (Some(path), _) => {
            lines.push(format!("setoption name EvalFile value {}", path.display()));
            lines.push("setoption name Eval value nnue".to_owned());
        }
        (None, true) => lines.push("setoption name Eval value nnue".to_owned()),
        (None, false) => lines.push("setoption name Eval value classic".to_owned()),
    }
    for assignment in &args.set {
        let (name, value) = assignment
            .split_once('=')
            .with_context(|| format!("--set {assignment}: expected NAME=VALUE"))?;
        lines.push(format!(
            "setoption name {} value {}",
            name.trim(),
            value.trim()
        ));
    }
    Ok(lines)
}

/// The nodes of a search's last `info` line that has them.
fn searched_nodes(lines: &[String]) -> Result<u64> {
    let line = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("info") && line.contains(" nodes "))
        .context("the search printed no `info ... nodes` line")?;
    let mut words = line.split_whitespace();
    words.find(|&word| word == "nodes");
    words
        .next()
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("no node count in `{line}`"))
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let engine = Engine::start()?;
    engine.send("uci")?;
    engine.read_until("uciok")?;
    for line in option_lines(args)? {
        engine.send(&line)?;
    }
    engine.send("isready")?;
    engine.read_until("readyok")?;
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for bench in positions()? {
        if args
            .only
            .as_ref()
            .is_some_and(|only| !bench.id.contains(only.as_str()))
        {
            continue;
        }
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        engine.read_until("readyok")?;
        engine.send(&format!("position fen {}", bench.position.fen()))?;
        let start = Instant::now();
        engine.send(&format!("go depth {}", args.depth))?;
        let lines = engine.read_until("bestmove")?;
        let elapsed = start.elapsed();
        let nodes = searched_nodes(&lines)?;
        total_nodes += nodes;
        total_time += elapsed;
        let best = lines
            .last()
            .and_then(|line| line.split_whitespace().nth(1))
            .unwrap_or("(none)");
        say!(
            "{:<24} {:>11} nodes {:>8.0} ms {:>9.0} nps  bestmove {best}",
            bench.id,
            nodes,
            elapsed.as_secs_f64() * 1000.0,
            nodes as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    engine.quit()?;
    let nps = total_nodes as f64 / total_time.as_secs_f64().max(1e-9);
    say!("{total_nodes} nodes {nps:.0} nps");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_comes_from_the_last_info_line_with_nodes() {
        let lines: Vec<String> = [
            "info depth 1 score cp 20 nodes 21 nps 1000 time 0 pv e2e4",
            "info depth 2 score cp 15 nodes 300 nps 1000 time 0 pv e2e4 e7e5",
            "info string something",
            "bestmove e2e4",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(searched_nodes(&lines).unwrap(), 300);
        assert!(searched_nodes(&lines[2..]).is_err());
    }

    #[test]
    fn reader_and_writer_carry_whole_lines() {
        let (to_engine, lines) = channel();
        let mut reader = BufReader::new(LineReader {
            lines,
            pending: Vec::new(),
            read: 0,
        });
        to_engine.send("go depth 3".to_owned()).unwrap();
        drop(to_engine);
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        assert_eq!(text, "go depth 3\n");

        let (sender, received) = channel();
        let mut writer = LineWriter {
            lines: sender,
            partial: Vec::new(),
        };
        writer.write_all(b"info depth 1\nbest").unwrap();
        writer.write_all(b"move e2e4\n").unwrap();
        drop(writer);
        let got: Vec<String> = received.iter().collect();
        assert_eq!(got, ["info depth 1", "bestmove e2e4"]);
    }
}
