//! The `horizon` binary over pipes, as a GUI drives it: every command, every `go` form,
//! latencies of `stop`, `isready` and `quit`, bad input, and the guards around
//! vampirc-uci's defects. Every `bestmove` is checked legal with shakmaty.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

mod common;

/// Engine tests run one at a time: the latency assertions should not measure the other
/// tests' searches competing for the two cores.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Engine {
    _serial: std::sync::MutexGuard<'static, ()>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with_env(&[])
    }

    /// Starts the engine with extra environment variables (test hooks).
    fn start_with_env(env: &[(&str, &str)]) -> Engine {
        let serial = SERIAL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut child = Command::new(env!("CARGO_BIN_EXE_horizon"))
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("horizon starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            _serial: serial,
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("engine reads");
        self.stdin.flush().expect("flush");
    }

    /// The first line (from now) for which `wanted` holds, and how long it took.
    fn wait_for(
        &mut self,
        wanted: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Option<(String, Duration)> {
        let start = Instant::now();
        loop {
            let left = timeout.checked_sub(start.elapsed())?;
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return Some((line, start.elapsed()));
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn expect(&mut self, prefix: &str, timeout: Duration) -> (String, Duration) {
        self.wait_for(|l| l.starts_with(prefix), timeout)
            .unwrap_or_else(|| panic!("no '{prefix}' within {timeout:?}; seen {:?}", self.tail()))
    }

    fn ready(&mut self) {
        self.send("isready");
        self.expect("readyok", Duration::from_secs(5));
    }

    fn bestmove(&mut self, timeout: Duration) -> (String, Duration) {
        let (line, took) = self.expect("bestmove", timeout);
        let mv = line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        (mv, took)
    }

    /// Sends a `go` (or `ponderhit`) and waits for `bestmove`; the time counts from before
    /// the command was written, so a test thread descheduled after writing cannot make the
    /// engine look faster than it was.
    fn timed_bestmove(&mut self, command: &str, timeout: Duration) -> (String, Duration) {
        let sent = Instant::now();
        self.send(command);
        let (mv, _) = self.bestmove(timeout);
        (mv, sent.elapsed())
    }

    fn tail(&self) -> Vec<String> {
        self.seen.iter().rev().take(8).cloned().collect()
    }

    /// Lines seen so far that start with `prefix`.
    fn seen_with(&self, prefix: &str) -> Vec<String> {
        self.seen
            .iter()
            .filter(|l| l.starts_with(prefix))
            .cloned()
            .collect()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn position_after(fen: Option<&str>, moves: &[&str], mode: CastlingMode) -> Chess {
    let mut pos: Chess = match fen {
        None => Chess::default(),
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .expect("fen")
            .into_position(mode)
            .expect("legal"),
    };
    for m in moves {
        let m = UciMove::from_ascii(m.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
    }
    pos
}

fn assert_legal(pos: &Chess, uci: &str, mode: CastlingMode) {
    let m = UciMove::from_ascii(uci.as_bytes()).unwrap_or_else(|_| panic!("'{uci}' is not UCI"));
    let m = m
        .to_move(pos)
        .unwrap_or_else(|_| panic!("'{uci}' is illegal"));
    if m.is_castle() && mode == CastlingMode::Standard {
        assert!(
            ["e1g1", "e1c1", "e8g8", "e8c8"].contains(&uci),
            "castling as king two squares: {uci}"
        );
    }
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", 5 * SECOND);
    let options = e.seen_with("option name");
    for name in [
        "Hash",
        "Threads",
        "Clear Hash",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "TimeNodeShare",
        "UCI_Chess960",
        "NullMove",
        "NullMoveR",
        "LMR",
        "PreSearch",
        "PreSearchRisk",
        "TTReplacement",
        "Aspiration",
        "Killers",
        "History",
        "ETC",
        "SyzygyPath",
        "SyzygyProbeDepth",
        "SyzygyProbeLimit",
        "Syzygy50MoveRule",
        "Syzygy",
        "SMPBestThread",
        "SMPHelperSkip",
        "SMPDefer",
        "SMPHelperSync",
        "SMPHelperLMR",
    ] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type"))),
            "{name}"
        );
    }
    assert!(e.seen_with("id name Horizon").len() == 1);
    e.ready();
}

#[test]
fn every_go_form_gives_a_legal_move_in_time() {
    let mut e = Engine::start();
    let moves = ["e2e4", "c7c5", "g1f3", "d7d6"];
    let pos = position_after(None, &moves, CastlingMode::Standard);
    let forms: [(&str, Duration); 6] = [
        ("go depth 6", 30 * SECOND),
        ("go nodes 30000", 30 * SECOND),
        ("go movetime 300", Duration::from_millis(600)),
        (
            "go wtime 3000 btime 3000 winc 50 binc 50",
            Duration::from_millis(3000),
        ),
        (
            "go wtime 2000 btime 2000 movestogo 3",
            Duration::from_millis(2000),
        ),
        ("go btime 100 wtime 100", Duration::from_millis(100)),
    ];
    for (go, limit) in forms {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send(go);
        let (best, took) = e.bestmove(limit + SECOND);
        assert!(took <= limit, "{go}: {took:?}");
        assert_legal(&pos, &best, CastlingMode::Standard);
    }
    // searchmoves restricts the root.
    e.send("position startpos");
    e.send("go depth 5 searchmoves a2a3 h2h3");
    let (best, _) = e.bestmove(30 * SECOND);
    assert!(best == "a2a3" || best == "h2h3", "{best}");
}

#[test]
fn depth_and_nodes_are_obeyed() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 7");
    e.bestmove(30 * SECOND);
    let depths: Vec<u32> = e
        .seen_with("info depth")
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .collect();
    assert_eq!(depths.iter().max(), Some(&7));
    e.send("go nodes 5000");
    e.bestmove(30 * SECOND);
    let last = e
        .seen_with("info depth")
        .last()
        .cloned()
        .unwrap_or_default();
    let nodes: u64 = last
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX);
    assert!(nodes <= 5000, "{last}");
}

#[test]
fn mate_search_reports_the_mate() {
    let mut e = Engine::start();
    e.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    e.send("go mate 2");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_eq!(best, "g3g6");
    assert!(
        e.seen_with("info depth")
            .iter()
            .any(|l| l.contains("score mate 2 "))
    );
}

#[test]
fn infinite_waits_for_stop_and_stop_is_fast() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    // currmove lines after the first second, spelled as the spec says (vampirc defect e).
    let (line, _) = e
        .wait_for(
            |l| l.contains(" currmovenumber ") || l.starts_with("bestmove"),
            10 * SECOND,
        )
        .expect("currmove within 10 s");
    assert!(
        line.contains(" currmove ") && !line.starts_with("bestmove"),
        "{line}"
    );
    e.send("isready");
    let (_, ready) = e.expect("readyok", SECOND);
    assert!(
        ready <= Duration::from_millis(50),
        "isready during search took {ready:?}"
    );
    e.send("stop");
    let (best, took) = e.bestmove(SECOND);
    assert!(took <= Duration::from_millis(50), "stop took {took:?}");
    assert_legal(&Chess::default(), &best, CastlingMode::Standard);
    // Repeated stop is harmless.
    e.send("stop");
    e.send("stop");
    e.ready();
}

#[test]
fn infinite_search_that_ends_still_waits_for_stop() {
    let mut e = Engine::start();
    e.send("position fen 7k/8/5KQ1/8/8/8/8/8 w - - 0 1"); // mate in 1: the search ends at once
    e.send("go infinite depth 3");
    assert!(
        e.wait_for(|l| l.starts_with("bestmove"), Duration::from_millis(500))
            .is_none()
    );
    e.send("stop");
    e.bestmove(SECOND);
}

#[test]
fn ponder_waits_for_ponderhit_then_plays_on_the_clock() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4");
    // vampirc defect a: the ponder flag survives the clock parameters.
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    assert!(
        e.wait_for(|l| l.starts_with("bestmove"), Duration::from_millis(600))
            .is_none(),
        "pondering"
    );
    e.send("ponderhit");
    let pos = position_after(None, &["e2e4"], CastlingMode::Standard);
    let (best, took) = e.bestmove(3 * SECOND);
    assert!(took < 2 * SECOND, "{took:?}");
    assert_legal(&pos, &best, CastlingMode::Standard);
    // A ponder search stopped by `stop` still answers.
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (best, _) = e.bestmove(SECOND);
    assert_legal(&pos, &best, CastlingMode::Standard);
}

#[test]
fn quit_during_a_search_exits_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("quit");
    loop {
        if e.child.try_wait().expect("wait").is_some() {
            break;
        }
        assert!(
            start.elapsed() <= Duration::from_millis(100),
            "still running after quit"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn bad_input_never_hurts() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    for garbage in [
        "xboard",
        "protover 2",
        "hello world",
        "",
        "   ",
        "go banana",
        "position",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/ppp w",
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 zz99",
        "setoption name Hash value -5",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "setoption name Threads value 100000",
        "setoption name NullMove value maybe",
        "setoption",
        "go depth -3 nodes -1",
        "debug on",
        "debug off",
        "register later",
        "\u{0}\u{1}\u{7f}",
    ] {
        e.send(garbage);
    }
    e.ready();
    // The last valid position stands.
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(
        e.seen_with("info string error").len() >= 10,
        "errors are explained: {:?}",
        e.seen_with("info string")
    );
    // Negative or absurd clocks still give a legal move, quickly.
    let pos = position_after(None, &["e2e4"], CastlingMode::Standard);
    e.send("go wtime -100 btime -100");
    let (best, _) = e.bestmove(5 * SECOND);
    assert_legal(&pos, &best, CastlingMode::Standard);
    e.send("go wtime 99999999999 btime 99999999999 movestogo 0 movetime 50");
    let (best, _) = e.bestmove(5 * SECOND);
    assert_legal(&pos, &best, CastlingMode::Standard);
    // vampirc defect b: depth 300 does not panic.
    e.send("go depth 300");
    std::thread::sleep(Duration::from_millis(100));
    // A new position is taken during the search, which goes on with its own.
    e.send("position startpos moves d2d4");
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    // `ucinewgame` waits for the search (it ends by itself, if not soon), and so does the
    // `isready` after it; `stop` is still heard, and then both are answered in order.
    e.send("ucinewgame");
    e.send("isready");
    assert!(
        e.wait_for(
            |l| l.starts_with("readyok") || l.starts_with("bestmove"),
            Duration::from_millis(300)
        )
        .is_none(),
        "answered before the search ended: {:?}",
        e.tail()
    );
    e.send("stop");
    let (best, _) = e.bestmove(SECOND);
    assert_legal(&pos, &best, CastlingMode::Standard);
    e.expect("readyok", SECOND);
    e.send("stop");
    e.ready();
}

/// Commands sent ahead, as scripts and some GUIs do: a `go` or `setoption` during a search
/// that ends by itself is carried out after it, in order; during `go infinite` it is refused
/// with a message.
#[test]
fn commands_sent_during_a_search_run_in_order() {
    let mut e = Engine::start();
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); // stalemate: no search at all
    e.send("go depth 5");
    e.send("position fen 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"); // mate in 1
    e.send("go mate 2");
    e.send("position startpos moves e2e4");
    e.send("go depth 6");
    e.send("setoption name Hash value 8");
    e.send("go nodes 5000");
    for _ in 0..4 {
        e.bestmove(30 * SECOND);
    }
    let best = e.seen_with("bestmove");
    assert_eq!(best[0], "bestmove (none)");
    assert!(best[1].starts_with("bestmove f1f8"), "{best:?}");
    let after_e4 = position_after(None, &["e2e4"], CastlingMode::Standard);
    for line in &best[2..] {
        let mv = line.split_whitespace().nth(1).unwrap_or_default();
        assert_legal(&after_e4, mv, CastlingMode::Standard);
    }
    assert!(
        e.seen_with("info string").is_empty(),
        "nothing refused: {:?}",
        e.seen_with("info string")
    );
    // The depth-6 search ran to its depth before the next command: between the second
    // and the third `bestmove`.
    let bestmove_at: Vec<usize> = (0..e.seen.len())
        .filter(|&i| e.seen[i].starts_with("bestmove"))
        .collect();
    let depth_6_search = &e.seen[bestmove_at[1]..bestmove_at[2]];
    assert!(
        depth_6_search
            .iter()
            .any(|l| word_after::<u32>(l, "depth") == Some(6)),
        "{depth_6_search:?}"
    );

    e.send("go infinite");
    e.send("go depth 3");
    let (refused, _) = e.expect("info string", 5 * SECOND);
    assert!(refused.contains("go ignored while searching"), "{refused}");
    e.send("stop");
    let (mv, _) = e.bestmove(SECOND);
    assert_legal(&after_e4, &mv, CastlingMode::Standard);
    e.ready();
    assert_eq!(e.seen_with("bestmove").len(), 5);

    // Long searches sent ahead: the `stop` behind them ends each in turn, nothing hangs.
    for _ in 0..3 {
        e.send("go depth 300");
    }
    e.send("stop");
    e.send("isready");
    e.expect("readyok", 2 * SECOND);
    while e.seen_with("bestmove").len() < 8 {
        e.bestmove(2 * SECOND);
    }
    for line in &e.seen_with("bestmove")[5..] {
        let mv = line.split_whitespace().nth(1).unwrap_or_default();
        assert_legal(&after_e4, mv, CastlingMode::Standard);
    }
}

#[test]
fn go_before_position_searches_the_start_position() {
    let mut e = Engine::start();
    e.send("go depth 4");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_legal(&Chess::default(), &best, CastlingMode::Standard);
}

#[test]
fn a_ten_thousand_ply_game_is_accepted() {
    let mut e = Engine::start();
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(10_000).collect();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 4");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_legal(&Chess::default(), &best, CastlingMode::Standard);
}

#[test]
fn null_moves_in_position_and_searchmoves() {
    let mut e = Engine::start();
    // vampirc defect d: 0000 is a null move, not silently dropped.
    e.send("position startpos moves e2e4 0000 d2d4");
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert!(
        fen.starts_with("Fen: rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b"),
        "{fen}"
    );
    e.send("go depth 3 searchmoves 0000 a7a6");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_eq!(best, "a7a6");
}

#[test]
fn castling_notation_standard_and_chess960() {
    let mut e = Engine::start();
    // Standard: e1g1 is castling; the king move is reported the same way.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
    e.send("d");
    let (fen, _) = e.expect("Fen:", 5 * SECOND);
    assert!(fen.contains("RNBQ1RK1 b kq"), "{fen}");
    // Only castling is legal: it is written e1g1.
    e.send("position fen 4k3/8/8/8/8/8/3PPPPP/3QK2R w K - 0 1");
    e.send("go depth 6 searchmoves e1g1");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_eq!(best, "e1g1");
    // Chess960 with Shredder-FEN castling rights (vampirc defect c): king takes rook.
    e.send("setoption name UCI_Chess960 value true");
    let fen960 = "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1";
    e.send(&format!("position fen {fen960} moves b1c1"));
    e.send("d");
    let (after, _) = e.expect("Fen:", 5 * SECOND);
    assert!(
        after.contains("R4RK1 b kq"),
        "castled king-takes-rook: {after}"
    );
    e.send(&format!("position fen {fen960}"));
    e.send("go depth 4 searchmoves b1c1");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_eq!(best, "b1c1");
}

#[test]
fn multipv_reports_several_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 6");
    e.bestmove(30 * SECOND);
    let at_depth_6: Vec<String> = e.seen_with("info depth 6 ");
    for k in 1..=3 {
        assert!(
            at_depth_6
                .iter()
                .any(|l| l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {at_depth_6:?}"
        );
    }
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::start();
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 5");
    let (best, _) = e.bestmove(5 * SECOND);
    assert_eq!(best, "(none)");
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"); // checkmated
    e.send("go movetime 100");
    let (best, _) = e.bestmove(5 * SECOND);
    assert_eq!(best, "(none)");
}

#[test]
fn options_take_effect_before_readyok() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 64");
    e.send("setoption name Threads value 2");
    e.send("setoption name Clear Hash");
    e.send("setoption name NullMove value false");
    e.send("setoption name TTReplacement value two-tier");
    e.send("ucinewgame");
    e.ready();
    e.send("position startpos");
    e.send("go depth 6");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_legal(&Chess::default(), &best, CastlingMode::Standard);
}

/// A network file with pseudo-random weights (a fixed linear congruential sequence).
fn write_network(path: &std::path::Path) -> u64 {
    use horizon_chess::nnue::{Activation, HIDDEN, INPUTS, Network};
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |range: i64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as i64 % (2 * range + 1) - range) as i16
    };
    let ft: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| next(64)).collect();
    let bias: Vec<i16> = (0..HIDDEN).map(|_| next(64) + 64).collect();
    let out: Vec<i16> = (0..2 * HIDDEN).map(|_| next(127)).collect();
    let network = Network::from_weights(&ft, &bias, &out, &[0], Activation::SCReLU)
        .expect("the build's shape");
    std::fs::write(path, network.to_bytes()).expect("temporary file");
    network.hash()
}

/// `EvalFile`: a missing, truncated or foreign file is refused with a message and the engine
/// keeps its network and plays on; a good one is loaded, and `Eval=nnue` searches with it.
#[test]
fn eval_file_problems_are_reported_and_play_goes_on() {
    let dir = common::scratch_dir("evalfile");
    let good = dir.join("good.nnue");
    let hash = write_network(&good);
    let bytes = std::fs::read(&good).expect("just written");
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("temporary file");
    let corrupt = dir.join("corrupt.nnue");
    let mut damaged = bytes.clone();
    damaged[5000] ^= 1;
    std::fs::write(&corrupt, &damaged).expect("temporary file");
    let missing = dir.join("missing.nnue");

    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", 5 * SECOND);
    for name in ["Eval", "EvalFile"] {
        assert_eq!(
            e.seen_with(&format!("option name {name} type")).len(),
            1,
            "{name}"
        );
    }
    // The built-in network before any EvalFile: the search's evaluation by default.
    let built_in = horizon_chess::nnue::Network::embedded().expect("the built-in network reads");
    e.send("eval");
    let (eval, _) = e.expect("info string network", 5 * SECOND);
    assert!(
        eval.contains(&format!("{:016x} (built-in)", built_in.hash()))
            && eval.contains("the search's evaluation"),
        "{eval}"
    );
    e.send("setoption name Eval value classic");
    e.send("eval");
    let (eval, _) = e.expect("info string network", 5 * SECOND);
    assert!(eval.contains("Eval=classic: not used"), "{eval}");
    e.send(&format!(
        "setoption name EvalFile value {}",
        missing.display()
    ));
    let (line, _) = e.expect("info string error: EvalFile", 5 * SECOND);
    assert!(
        line.contains(&format!("keeping network {:016x}", built_in.hash())),
        "{line}"
    );
    e.send("setoption name Eval value nnue");
    e.send("go depth 5");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_legal(&Chess::default(), &best, CastlingMode::Standard);
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    let (loaded, _) = e.expect("info string EvalFile", 5 * SECOND);
    assert!(loaded.contains(&format!("{hash:016x} loaded")), "{loaded}");
    for bad in [&truncated, &corrupt] {
        e.send(&format!("setoption name EvalFile value {}", bad.display()));
        let (line, _) = e.expect("info string error: EvalFile", 5 * SECOND);
        assert!(
            line.contains(&format!("keeping network {hash:016x}")),
            "{line}"
        );
    }
    e.send("position startpos moves e2e4 c7c5");
    e.send("eval");
    let (eval, _) = e.expect("info string network", 5 * SECOND);
    assert!(eval.contains(&format!("{hash:016x}")) && eval.contains("the search's evaluation"));
    e.send("go depth 6");
    let (best, _) = e.bestmove(30 * SECOND);
    let after = position_after(None, &["e2e4", "c7c5"], CastlingMode::Standard);
    assert_legal(&after, &best, CastlingMode::Standard);
    e.send("setoption name Eval value classic");
    e.send("go nodes 2000");
    let (best, _) = e.bestmove(30 * SECOND);
    assert_legal(&after, &best, CastlingMode::Standard);
    // An empty EvalFile goes back to the built-in network.
    e.send("setoption name EvalFile value <empty>");
    e.send("eval");
    let (eval, _) = e.expect("info string network", 5 * SECOND);
    assert!(
        eval.contains(&format!("{:016x} (built-in)", built_in.hash())),
        "{eval}"
    );
}

/// The latency figures of issues 19 and 21: with 1, 2 and 8 threads, 100 searches each
/// answered `isready` and then stopped. A measurement, not a check: run with
/// `--ignored --nocapture`.
#[test]
#[ignore]
fn latency_figures() {
    let mut e = Engine::start();
    for threads in [1, 2, 8] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.ready();
        let (mut ready, mut stop) = (Vec::new(), Vec::new());
        for i in 0..100u64 {
            e.send("position startpos moves e2e4 e7e5 g1f3");
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(50 + (i * 37) % 200));
            e.send("isready");
            ready.push(e.expect("readyok", SECOND).1);
            e.send("stop");
            stop.push(e.bestmove(SECOND).1);
        }
        for (name, mut v) in [("isready->readyok", ready), ("stop->bestmove", stop)] {
            v.sort();
            println!(
                "Threads={threads} {name}: median {:?} worst {:?} over {}",
                v[v.len() / 2],
                v[v.len() - 1],
                v.len()
            );
        }
    }
}

/// Tactical and quiet positions (WAC and opening middlegames) for the consistency checks.
const SHORT_SEARCH_FENS: [&str; 12] = [
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1",
    "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
    "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
    "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
    "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 1",
];

/// A quiet middlegame (Queen's Gambit Declined) with no forced line and many legal moves.
const QUIET_MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 1";

impl Engine {
    /// Lines since the last `go` was sent (the caller marks it with `mark`).
    fn lines_since(&self, mark: usize) -> &[String] {
        &self.seen[mark..]
    }
}

/// The checks of item 2 of issue 19 on one search's output (the `bestmove` line last): the
/// last main-line PV starts with the best move, every PV is legal, and the ponder move is legal
/// after the best move and is the PV's second move when the PV has one.
fn assert_pv_matches_bestmove(fen: &str, lines: &[String], what: &str) {
    let pos = position_after(Some(fen), &[], CastlingMode::Standard);
    let last = lines.last().expect("a bestmove line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{what}: {last}");
    let best = words.get(1).copied().unwrap_or_default();
    let ponder = words
        .iter()
        .position(|w| *w == "ponder")
        .and_then(|i| words.get(i + 1));
    let mut last_pv: Option<Vec<&str>> = None;
    for line in &lines[..lines.len() - 1] {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
            continue;
        }
        let Some(at) = words.iter().position(|w| *w == "pv") else {
            continue;
        };
        let pv = &words[at + 1..];
        let mut walk = pos.clone();
        for m in pv {
            let m = UciMove::from_ascii(m.as_bytes())
                .ok()
                .and_then(|m| m.to_move(&walk).ok())
                .unwrap_or_else(|| panic!("{what}: illegal PV move {m} in {line}"));
            walk.play_unchecked(m);
        }
        let multipv = words
            .iter()
            .position(|w| *w == "multipv")
            .and_then(|i| words.get(i + 1));
        if multipv.is_none_or(|k| *k == "1") {
            assert!(
                words.contains(&"score"),
                "{what}: PV without a score: {line}"
            );
            last_pv = Some(pv.to_vec());
        }
    }
    let last_pv = last_pv.unwrap_or_else(|| panic!("{what}: no PV before {last}"));
    assert_eq!(
        last_pv.first().copied(),
        Some(best),
        "{what}: the last PV {last_pv:?} does not start with bestmove {best}"
    );
    assert_legal(&pos, best, CastlingMode::Standard);
    if let Some(ponder) = ponder {
        let mut after = pos.clone();
        let m = UciMove::from_ascii(best.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        after.play_unchecked(m);
        assert_legal(&after, ponder, CastlingMode::Standard);
        if let Some(second) = last_pv.get(1) {
            assert_eq!(ponder, second, "{what}: ponder is not the PV's second move");
        }
    }
}

/// Issue 19, item 1: `go movetime` searches the time given (minus Move Overhead, 10 ms by
/// default), not a share of it.
#[test]
fn movetime_is_used_in_full() {
    let mut e = Engine::start();
    for _ in 0..3 {
        e.send("ucinewgame");
        e.send(&format!("position fen {QUIET_MIDDLEGAME}"));
        e.ready();
        let (_, took) = e.timed_bestmove("go movetime 300", 2 * SECOND);
        assert!(
            took >= Duration::from_millis(270) && took <= Duration::from_millis(400),
            "go movetime 300 answered after {took:?}"
        );
    }
    // A single legal move is played at once.
    e.send("position fen 7k/8/8/8/8/8/6q1/7K w - - 0 1");
    let (best, took) = e.timed_bestmove("go movetime 2000", 3 * SECOND);
    assert_eq!(best, "h1g2");
    assert!(
        took < Duration::from_millis(500),
        "single reply took {took:?}"
    );
    // After ponderhit, movetime runs in full from the hit.
    e.send("setoption name Ponder value true");
    e.send(&format!("position fen {QUIET_MIDDLEGAME}"));
    e.send("go ponder movetime 300");
    std::thread::sleep(Duration::from_millis(200));
    let (_, took) = e.timed_bestmove("ponderhit", 2 * SECOND);
    assert!(
        took >= Duration::from_millis(270) && took <= Duration::from_millis(400),
        "movetime 300 after ponderhit answered {took:?} after the hit"
    );
}

/// Issue 19, items 2 and 4: the last printed PV starts with the best move, after short
/// movetimes, stops in the middle of an iteration, with two threads and with MultiPV 3.
#[test]
fn last_pv_always_starts_with_bestmove() {
    let mut e = Engine::start();
    let setups: [(&str, &[&str]); 4] = [
        ("one thread", &[]),
        ("Threads=2", &["setoption name Threads value 2"]),
        (
            "Threads=3, SMPBestThread",
            &[
                "setoption name Threads value 3",
                "setoption name SMPBestThread value true",
            ],
        ),
        ("MultiPV=3", &["setoption name MultiPV value 3"]),
    ];
    for (name, options) in setups {
        e.send("setoption name Threads value 1");
        e.send("setoption name SMPBestThread value false");
        e.send("setoption name MultiPV value 1");
        for option in options {
            e.send(option);
        }
        for (i, fen) in SHORT_SEARCH_FENS.iter().enumerate() {
            for ms in [7u64, 23, 61] {
                e.send("ucinewgame");
                e.send(&format!("position fen {fen}"));
                e.ready();
                let mark = e.seen.len();
                // Every third search is an infinite one stopped at an arbitrary moment.
                let stopped = (i + ms as usize).is_multiple_of(3);
                if stopped {
                    e.send("go infinite");
                    std::thread::sleep(Duration::from_millis(ms));
                    e.send("stop");
                } else {
                    e.send(&format!("go movetime {ms}"));
                }
                e.bestmove(5 * SECOND);
                let how = if stopped { "stop after" } else { "movetime" };
                let what = format!("{name}, {how} {ms} ms, {fen}");
                assert_pv_matches_bestmove(fen, e.lines_since(mark), &what);
            }
        }
    }
}

/// Issue 21, item 4: every thread count from 1 to 8 (on a 2-core machine), with the SMP
/// switches off and on (the deepest thread's line, helpers skipping depths, deferral,
/// helpers kept above the main thread's depth), answers `go
/// depth`, `go movetime` and `go nodes` with a legal move that the last printed PV starts
/// with.
#[test]
fn every_thread_count_plays_legal_moves() {
    let mut e = Engine::start();
    let fen = SHORT_SEARCH_FENS[0];
    for threads in 1..=8 {
        for switches in [false, true] {
            e.send(&format!("setoption name Threads value {threads}"));
            e.send(&format!("setoption name SMPBestThread value {switches}"));
            e.send(&format!("setoption name SMPHelperSkip value {switches}"));
            e.send(&format!("setoption name SMPDefer value {switches}"));
            e.send(&format!("setoption name SMPHelperSync value {switches}"));
            for go in ["go depth 7", "go movetime 40", "go nodes 20000"] {
                e.send("ucinewgame");
                e.send(&format!("position fen {fen}"));
                e.ready();
                let mark = e.seen.len();
                e.send(go);
                e.bestmove(10 * SECOND);
                let what = format!("Threads={threads}, SMP switches {switches}, {go}");
                assert_pv_matches_bestmove(fen, e.lines_since(mark), &what);
            }
        }
    }
}

/// `fastchess --compliance` (the field's match runner) on the release binary, when
/// `../shared/tools/fastchess/fastchess` is there; CI must have it.
#[test]
fn fastchess_compliance() {
    let fastchess = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/tools/fastchess/fastchess"
    );
    if !std::path::Path::new(fastchess).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have ../shared/tools/fastchess/fastchess"
        );
        eprintln!("skipping: {fastchess} not found");
        return;
    }
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let workdir = common::scratch_dir("compliance");
    let output = Command::new(fastchess)
        .arg("--compliance")
        .arg(env!("CARGO_BIN_EXE_horizon"))
        .current_dir(&workdir)
        .output()
        .expect("fastchess runs");
    drop(workdir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("Engine passed all compliance checks"),
        "fastchess --compliance failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Syzygy through UCI: the option report, `tbhits`, and the root filter at several depths and
/// times: a drawn position never gets its one losing move, a won one its one winning move.
#[test]
fn syzygy_tables_keep_draws_and_wins() {
    let Some(dir) = common::shared_syzygy_dir() else {
        return;
    };
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let (report, _) = e.expect("info string Syzygy:", 5 * SECOND);
    assert!(
        report.contains("70 tables (35 WDL, 35 DTZ), up to 4 pieces"),
        "{report}"
    );
    // (FEN, the moves allowed): the drawing moves of a draw with one losing move (b3b7 and
    // c2c4 lose), the only winning move of a win.
    let drawn_except = [
        ("8/5r2/8/5k2/8/1R6/8/5K2 w - - 0 1", "b3b7"),
        ("4k3/K7/8/3p4/8/8/2P5/8 w - - 0 1", "c2c4"),
    ];
    let won_only = [
        ("8/1k6/8/8/1K1P4/8/8/8 w - - 0 1", "b4b5"),
        ("8/6R1/3K4/8/2p5/1k6/8/8 w - - 0 1", "g7b7"),
    ];
    for go in ["go depth 1", "go depth 6", "go depth 12", "go movetime 150"] {
        for (fen, losing) in drawn_except {
            e.send(&format!("position fen {fen}"));
            let (mv, _) = e.timed_bestmove(go, 10 * SECOND);
            assert_legal(
                &position_after(Some(fen), &[], CastlingMode::Standard),
                &mv,
                CastlingMode::Standard,
            );
            assert_ne!(mv, losing, "{fen} {go}");
        }
        for (fen, winning) in won_only {
            e.send(&format!("position fen {fen}"));
            let (mv, _) = e.timed_bestmove(go, 10 * SECOND);
            assert_eq!(mv, winning, "{fen} {go}");
        }
    }
    // A position reached by captures deep in the search is probed: tbhits count it.
    e.send("position fen 8/8/8/3k4/8/2n5/1P5R/K7 w - - 0 1");
    e.timed_bestmove("go depth 8", 10 * SECOND);
    let last_info = e
        .seen_with("info depth")
        .last()
        .cloned()
        .unwrap_or_default();
    let hits: u64 = last_info
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("info lines carry tbhits");
    assert!(hits > 0, "{last_info}");
    // Switched off, the same search probes nothing.
    e.send("setoption name Syzygy value false");
    e.timed_bestmove("go depth 8", 10 * SECOND);
    let last_info = e
        .seen_with("info depth")
        .last()
        .cloned()
        .unwrap_or_default();
    assert!(last_info.contains(" tbhits 0 "), "{last_info}");
}

/// A `SyzygyPath` that does not exist, an empty folder, a truncated table and a renamed one:
/// an `info string` each, no crash, and the search goes on with what is usable.
#[test]
fn bad_syzygy_paths_and_tables_are_reported_not_fatal() {
    let Some(shared) = common::shared_syzygy_dir() else {
        return;
    };
    let dir = common::scratch_dir("uci-bad-tables");
    let empty = dir.join("empty");
    let broken = dir.join("broken");
    std::fs::create_dir_all(&empty).expect("scratch");
    std::fs::create_dir_all(&broken).expect("scratch");
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(shared.join(name), broken.join(name)).expect("copy table");
    }
    let bytes = std::fs::read(shared.join("KRvK.rtbw")).expect("read table");
    std::fs::write(broken.join("KRvK.rtbw"), &bytes[..bytes.len() / 2]).expect("truncate");
    std::fs::copy(shared.join("KQvK.rtbw"), broken.join("KPvK.rtbw")).expect("rename");

    let mut e = Engine::start();
    e.send("setoption name SyzygyPath value /nonexistent/horizon/tables");
    let (line, _) = e.expect("info string Syzygy: no usable tables", 5 * SECOND);
    assert!(line.contains("/nonexistent"), "{line}");
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        empty.display()
    ));
    e.expect("info string Syzygy: no usable tables", 5 * SECOND);
    e.send(&format!(
        "setoption name SyzygyPath value {}",
        broken.display()
    ));
    let (line, _) = e.expect("info string Syzygy: 2 tables", 5 * SECOND);
    assert!(line.contains("up to 3 pieces"), "{line}");
    let problems = e.seen_with("info string Syzygy: ");
    assert!(
        problems.iter().any(|l| l.contains("KRvK.rtbw")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|l| l.contains("KPvK.rtbw")),
        "{problems:?}"
    );
    for fen in [
        "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
        "8/8/8/8/8/3k4/8/KR6 w - - 0 1",
        "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1",
        "8/8/8/3k4/8/2n5/1P5R/K7 w - - 0 1",
    ] {
        e.send(&format!("position fen {fen}"));
        let (mv, _) = e.timed_bestmove("go depth 6", 10 * SECOND);
        assert_legal(
            &position_after(Some(fen), &[], CastlingMode::Standard),
            &mv,
            CastlingMode::Standard,
        );
    }
    e.ready();
}

/// A panic inside the search (injected by the test hook when depth 5 ends) still gives a
/// legal `bestmove`, the first move of the last PV printed, an `info string` naming the
/// failure, and an engine that answers `isready` and searches again.
#[test]
fn a_panicking_search_still_plays_and_the_engine_recovers() {
    let mut e = Engine::start_with_env(&[("HORIZON_TEST_PANIC_AT_DEPTH", "5")]);
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    e.send(&format!("position fen {fen}"));
    let (mv, _) = e.timed_bestmove("go depth 9", 10 * SECOND);
    let position = position_after(Some(fen), &[], CastlingMode::Standard);
    assert_legal(&position, &mv, CastlingMode::Standard);
    let infos = e.seen_with("info depth");
    let last = infos.last().expect("depths 1-4 were printed");
    assert!(last.starts_with("info depth 4 "), "{last}");
    assert!(last.contains(&format!(" pv {mv}")), "{last} vs {mv}");
    let errors = e.seen_with("info string error: the search failed");
    assert!(
        errors.len() == 1 && errors[0].contains("injected"),
        "{errors:?}"
    );
    e.ready();
    let resets = e.seen_with("info string error: the search thread failed; state reset");
    assert_eq!(resets.len(), 1, "{:?}", e.tail());
    // The hook fires once: the next search is whole.
    let (mv, _) = e.timed_bestmove("go depth 7", 10 * SECOND);
    assert_legal(&position, &mv, CastlingMode::Standard);
    assert!(e.seen_with("info depth 7 ").len() == 1);
}

/// More threads than cores: 8 and the maximum, 256, on this 2-core machine, through rapid
/// `go`/`stop` pairs and timed searches; every `bestmove` is legal and comes within a second
/// of `stop` with 8 threads. With 256 every thread must be scheduled once to see the stop
/// (0.1-0.3 s on two loaded cores, about a second for the first search, whose threads touch
/// their tables for the first time): the bound there only rules out a hang. Helpers watch
/// the deadline themselves, so `movetime` holds even when the main thread gets 1/256 of the
/// cores (it took 3.8 s for `movetime 300` before they did).
#[test]
fn many_threads_stop_promptly_and_play_legal_moves() {
    let mut e = Engine::start();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let position = position_after(Some(fen), &[], CastlingMode::Standard);
    for (threads, stop_bound) in [(8, SECOND), (256, 4 * SECOND)] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(&format!("position fen {fen}"));
        e.ready();
        for round in 0..20 {
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(round % 7 * 5));
            let (mv, took) = e.timed_bestmove("stop", 5 * SECOND);
            assert_legal(&position, &mv, CastlingMode::Standard);
            assert!(took < stop_bound, "{threads} threads: stop took {took:?}");
        }
        let (mv, took) = e.timed_bestmove("go movetime 300", 5 * SECOND);
        assert_legal(&position, &mv, CastlingMode::Standard);
        assert!(
            took < 2 * SECOND,
            "{threads} threads: movetime 300 took {took:?}"
        );
    }
    e.ready();
}

/// The number after `key` in a line (`nodes 1234`, `min 1000`).
fn word_after<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    line.split_whitespace()
        .skip_while(|w| *w != key)
        .nth(1)?
        .parse()
        .ok()
}

/// `UCI_Elo`'s min and max from the handshake already read.
fn uci_elo_range(e: &Engine) -> (u32, u32) {
    let option = e.seen_with("option name UCI_Elo type spin")[0].clone();
    (
        word_after(&option, "min").expect("min"),
        word_after(&option, "max").expect("max"),
    )
}

/// The `wdl W D L` of an `info` line, if it has one.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let mut words = line.split_whitespace().skip_while(|w| *w != "wdl").skip(1);
    let mut next = || words.next()?.parse().ok();
    Some([next()?, next()?, next()?])
}

#[test]
fn show_wdl_adds_win_draw_loss_per_mille_to_every_score() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go depth 5");
    e.bestmove(30 * SECOND);
    assert!(
        e.seen_with("info depth")
            .iter()
            .all(|l| wdl_of(l).is_none()),
        "no wdl unless asked"
    );
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 3");
    e.ready();
    let mark = e.seen.len();
    e.send("go depth 7");
    e.bestmove(30 * SECOND);
    let lines: Vec<String> = e.seen[mark..]
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" score "))
        .cloned()
        .collect();
    assert!(lines.len() >= 7, "{lines:?}");
    for line in &lines {
        let wdl = wdl_of(line).unwrap_or_else(|| panic!("no wdl: {line}"));
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        // The bound stays right after the score, where UCI clients read it.
        let after_score: Vec<&str> = line
            .split_whitespace()
            .skip_while(|w| *w != "score")
            .take(4)
            .collect();
        assert!(
            after_score[3] == "wdl" || (after_score[3].ends_with("bound")),
            "{line}"
        );
    }
    // Mates are certain: a mate in 2 for White, and Black to move, mated in 1.
    e.send("setoption name MultiPV value 1");
    e.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    e.send("go mate 2");
    e.bestmove(30 * SECOND);
    let mates = e.seen_with("info depth");
    let mate_line = mates
        .iter()
        .rev()
        .find(|l| l.contains("score mate 2 "))
        .expect("mate 2 reported");
    assert_eq!(wdl_of(mate_line), Some([1000, 0, 0]), "{mate_line}");
    e.send("position fen 2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 b - - 1 1");
    e.send("go depth 4");
    e.bestmove(30 * SECOND);
    let mated = e.seen_with("info depth");
    let mated_line = mated
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("info");
    assert!(mated_line.contains("score mate -1 "), "{mated_line}");
    assert_eq!(wdl_of(mated_line), Some([0, 0, 1000]), "{mated_line}");
}

#[test]
fn strength_and_wdl_options_refuse_bad_values() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", 5 * SECOND);
    for name in ["UCI_ShowWDL", "UCI_LimitStrength", "UCI_Elo"] {
        assert_eq!(
            e.seen_with(&format!("option name {name} type")).len(),
            1,
            "{name}"
        );
    }
    let (min, max) = uci_elo_range(&e);
    let (min, max) = (i64::from(min), i64::from(max));
    let mark = e.seen.len();
    for bad in [
        format!("setoption name UCI_Elo value {}", min - 1),
        format!("setoption name UCI_Elo value {}", max + 1),
        "setoption name UCI_Elo value strong".to_owned(),
        "setoption name UCI_LimitStrength value maybe".to_owned(),
        "setoption name UCI_ShowWDL value 2".to_owned(),
    ] {
        e.send(&bad);
    }
    e.ready();
    let errors: Vec<&String> = e.seen[mark..]
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(
        errors[0].contains(&format!("{min} to {max}")),
        "{}",
        errors[0]
    );
}

#[test]
fn a_strength_limited_engine_plays_legal_moves_at_every_time_control() {
    let mut e = Engine::start();
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    let pos = position_after(None, &moves, CastlingMode::Standard);
    e.send("uci");
    e.expect("uciok", 5 * SECOND);
    let (min, max) = uci_elo_range(&e);
    e.send("setoption name UCI_LimitStrength value true");
    for elo in [min, (min + max) / 2, max] {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.ready();
        let forms: [(&str, Duration); 5] = [
            ("go depth 6", 30 * SECOND),
            ("go nodes 30000", 30 * SECOND),
            ("go movetime 200", Duration::from_millis(500)),
            (
                "go wtime 3000 btime 3000 winc 50 binc 50",
                Duration::from_millis(3000),
            ),
            ("go btime 100 wtime 100", Duration::from_millis(100)),
        ];
        for (go, limit) in forms {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let (best, took) = e.timed_bestmove(go, limit + SECOND);
            assert!(took <= limit + SECOND / 2, "{elo} {go}: {took:?}");
            assert_legal(&pos, &best, CastlingMode::Standard);
        }
        // Infinite: the node budget ends the search, bestmove still waits for stop.
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go infinite");
        assert!(
            e.wait_for(|l| l.starts_with("bestmove"), Duration::from_millis(300))
                .is_none(),
            "{elo}: bestmove before stop"
        );
        let (best, _) = e.timed_bestmove("stop", SECOND);
        assert_legal(&pos, &best, CastlingMode::Standard);
    }
    // The weakest setting searches few nodes and does not always play the same move.
    e.send(&format!("setoption name UCI_Elo value {min}"));
    let mut played = std::collections::BTreeSet::new();
    for _ in 0..24 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let mark = e.seen.len();
        let (best, _) = e.timed_bestmove("go movetime 1000", 5 * SECOND);
        assert_legal(&pos, &best, CastlingMode::Standard);
        let nodes: u64 = e.seen[mark..]
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| word_after(l, "nodes"))
            .max()
            .unwrap_or(u64::MAX);
        assert!(nodes <= 1000, "the weakest setting searched {nodes} nodes");
        played.insert(best);
    }
    assert!(played.len() >= 2, "always {played:?}");
}
