//! `horizon bench --uci`: the bench positions searched through the UCI front-end, in this
//! process, the way a GUI drives it (`ucinewgame`, `position fen`, `go depth`), one position
//! after the other, on one thread.
//!
//! Why a second path: games reach the search through the front-end (its options, its
//! observer, its worker thread), not through `horizon bench`. Its node counts must equal
//! `horizon bench`'s, and its speed is the one games get. Rust compiles a generic function
//! anew in each crate that calls it, and the UCI crate once held its own copy of the search:
//! a build guided by a profile of `bench` alone ran `epd --nodes` 9% faster and the same
//! searches over UCI no faster (`docs/speed.md`). Now every caller shares one copy
//! (`horizon_chess::search`), and `make pgo` profiles both paths.

use std::io::{BufReader, Cursor, Read, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use horizon_uci::output::Output;

use super::bench::{BenchArgs, config_from, selected_positions};

/// The session's input: the lines sent, then the end of input when the sender is dropped.
struct LineReader {
    lines: Receiver<String>,
    pending: Cursor<Vec<u8>>,
}

impl LineReader {
    fn new(lines: Receiver<String>) -> Self {
        LineReader {
            lines,
            pending: Cursor::new(Vec::new()),
        }
    }
}

impl Read for LineReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.position() as usize == self.pending.get_ref().len() {
            let Ok(line) = self.lines.recv() else {
                return Ok(0);
            };
            let mut bytes = line.into_bytes();
            bytes.push(b'\n');
            self.pending = Cursor::new(bytes);
        }
        self.pending.read(buf)
    }
}

/// The session's output, passed on line by line.
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
            // The receiver is gone only when the bench has stopped listening.
            let _ = self.lines.send(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The UCI front-end running on its own thread, with its input and output at hand.
struct UciSession {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    thread: Option<JoinHandle<std::io::Result<()>>>,
}

/// How long `uciok` and `readyok` may take; a search's `bestmove` may take as long as it
/// needs (an engine that dies is noticed at once: its output closes).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

impl UciSession {
    fn start() -> Result<UciSession> {
        let (input, lines_in) = channel();
        let (lines_out, output) = channel();
        let reader = BufReader::new(LineReader::new(lines_in));
        let writer = LineWriter {
            lines: lines_out,
            partial: Vec::new(),
        };
        let thread = std::thread::Builder::new()
            .name("horizon-bench-uci".into())
            .spawn(move || horizon_uci::run(reader, Output::new(Box::new(writer))))
            .context("starting the UCI front-end's thread")?;
        Ok(UciSession {
            input: Some(input),
            output,
            thread: Some(thread),
        })
    }

    fn send(&mut self, line: &str) -> Result<()> {
        let sent = self
            .input
            .as_ref()
            .is_some_and(|input| input.send(line.to_owned()).is_ok());
        if sent {
            Ok(())
        } else {
            Err(self.ended(&format!("sending `{line}`")))
        }
    }

    /// Reads up to the line that starts with `prefix` and returns the lines read, that one
    /// last. An `info string error: ...` fails the bench: a rejected option would otherwise
    /// search another configuration unnoticed.
    fn read_until(&mut self, prefix: &str, timeout: Option<Duration>) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        loop {
            let received = match timeout {
                Some(timeout) => self.output.recv_timeout(timeout),
                None => self
                    .output
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            let line = match received {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    bail!("no `{prefix}` from the UCI front-end within {timeout:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended(&format!("waiting for `{prefix}`")));
                }
            };
            if line.starts_with("info string error") {
                bail!("the UCI front-end said: {line}");
            }
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Closes the input and waits for the front-end's thread: its error or panic, if any.
    fn join(&mut self) -> Result<()> {
        self.input = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result.context("the UCI front-end failed"),
            Some(Err(_)) => bail!("the UCI front-end's thread panicked"),
            None => Ok(()),
        }
    }

    /// Why the front-end stopped while it was needed.
    fn ended(&mut self, doing: &str) -> anyhow::Error {
        let stopped = format!("the UCI front-end stopped ({doing})");
        match self.join() {
            Ok(()) => anyhow!(stopped),
            Err(cause) => cause.context(stopped),
        }
    }

    fn quit(mut self) -> Result<()> {
        self.send("quit")?;
        self.join()
    }
}

/// The `setoption` lines that give the UCI front-end `horizon bench`'s configuration.
/// `--set` takes the search options `horizon bench` takes, checked the same way.
fn option_lines(args: &BenchArgs) -> Result<Vec<String>> {
    if args.network.simd != super::network::SimdChoice::Auto {
        bail!("--uci uses the engine's own choice of kernels: --simd has no UCI equivalent");
    }
    config_from(false, &args.set)?;
    let mut lines = vec![
        format!("setoption name Hash value {}", args.hash),
        "setoption name Threads value 1".to_owned(),
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
        // `config_from` accepted it, so it has the form NAME=VALUE.
        if let Some((name, value)) = assignment.split_once('=') {
            lines.push(format!(
                "setoption name {} value {}",
                name.trim(),
                value.trim()
            ));
        }
    }
    Ok(lines)
}

/// What a search reported: the node count and score of its last `info depth` line.
#[derive(Debug, PartialEq)]
struct Searched {
    nodes: u64,
    score: String,
}

fn searched(lines: &[String]) -> Result<Searched> {
    let line = lines
        .iter()
        .rev()
        .find(|line| line.starts_with("info depth") && line.contains(" nodes "))
        .context("the search printed no `info depth ... nodes` line")?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str, count: usize| {
        words
            .iter()
            .position(|&word| word == key)
            .and_then(|at| words.get(at + 1..at + 1 + count))
            .map(|found| found.join(" "))
    };
    let nodes = after("nodes", 1)
        .and_then(|n| n.parse().ok())
        .with_context(|| format!("no node count in `{line}`"))?;
    let score = after("score", 2).with_context(|| format!("no score in `{line}`"))?;
    Ok(Searched { nodes, score })
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let options = option_lines(args)?;
    let positions = selected_positions(args.only.as_deref())?;
    say!(
        "through the UCI front-end: ucinewgame, position fen, go depth {}",
        args.depth
    );
    let mut session = UciSession::start()?;
    session.send("uci")?;
    session.read_until("uciok", Some(HANDSHAKE_TIMEOUT))?;
    for line in options {
        session.send(&line)?;
    }
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for bench in positions {
        session.send("ucinewgame")?;
        session.send("isready")?;
        session.read_until("readyok", Some(HANDSHAKE_TIMEOUT))?;
        session.send(&format!("position fen {}", bench.position.fen()))?;
        let start = Instant::now();
        session.send(&format!("go depth {}", args.depth))?;
        let lines = session.read_until("bestmove", None)?;
        let elapsed = start.elapsed();
        let Searched { nodes, score } = searched(&lines)?;
        total_nodes += nodes;
        total_time += elapsed;
        let best = lines
            .last()
            .and_then(|line| line.split_whitespace().nth(1))
            .unwrap_or("(none)");
        say!(
            "{:<24} {:>9} {:>11} nodes {:>8.0} ms {:>9.0} nps  bestmove {best}",
            bench.id,
            score,
            nodes,
            elapsed.as_secs_f64() * 1000.0,
            nodes as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    session.quit()?;
    let nps = total_nodes as f64 / total_time.as_secs_f64().max(1e-9);
    say!("{total_nodes} nodes {nps:.0} nps");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_info_depth_line_gives_nodes_and_score() {
        let lines: Vec<String> = [
            "info depth 1 seldepth 1 score cp 20 nodes 21 nps 1000 time 0 pv e2e4",
            "info depth 2 seldepth 3 score mate 3 nodes 300 nps 1000 time 0 pv e2e4 e7e5",
            "info string 7 nodes in the table",
            "info nodes 400 time 1",
            "bestmove e2e4",
        ]
        .map(str::to_owned)
        .to_vec();
        let expected = Searched {
            nodes: 300,
            score: "mate 3".to_owned(),
        };
        assert_eq!(searched(&lines).unwrap(), expected);
        assert!(searched(&lines[2..]).is_err());
    }

    #[test]
    fn reader_and_writer_carry_whole_lines() {
        let (to_session, lines) = channel();
        let mut reader = BufReader::new(LineReader::new(lines));
        to_session.send("go depth 3".to_owned()).unwrap();
        to_session.send("quit".to_owned()).unwrap();
        drop(to_session);
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        assert_eq!(text, "go depth 3\nquit\n");

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
