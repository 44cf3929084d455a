//! The engine controller: the state behind the protocol (position, options, table, search
//! threads) and what each command does to it. Runs on the protocol thread (`crate::run`,
//! fed by an input thread); searches run on a worker thread, so `isready`, `stop` and `quit`
//! are answered at once unless they queue behind a command that waits for a search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use horizon_chess::nnue::{Network, simd::Simd};
use horizon_chess::tablebase::MAX_TABLE_PIECES;
use horizon_chess::{CastlingMode, PackedMove, Position, Tablebases};
use horizon_search::driver::MAX_DEPTH;
use horizon_search::{Limits, SearchConfig, SearchControl, Searcher, TranspositionTable};
use shakmaty::Position as _;

use crate::options;
use crate::output::Output;
use crate::protocol::{Command, GoParams};
use crate::strength::{self, StrengthLimit};
use crate::time;
use crate::worker::{self, Job, PonderState, Searchers, Signal};

pub const ENGINE_NAME: &str = concat!("Horizon ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the Horizon developers";

const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 65_536;
const MAX_THREADS: usize = 256;
const DEFAULT_OVERHEAD_MS: u64 = 10;

/// Whether the protocol loop goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

struct Running {
    handle: JoinHandle<(Searchers, Position)>,
    finished: Arc<AtomicBool>,
    signals: Sender<Signal>,
    ponder: Arc<PonderState>,
    hard: Option<Duration>,
    start: Instant,
    /// A clock, movetime, depth, nodes or mate limit, and not `infinite`: the search ends
    /// without a `stop` (once a ponder search is hit).
    ends_by_itself: bool,
    /// Disconnects when the search thread ends.
    done: Receiver<()>,
}

/// The engine behind the protocol.
pub struct Engine {
    out: Output,
    position: Position,
    config: SearchConfig,
    hash_mib: usize,
    threads: usize,
    ponder: bool,
    chess960: bool,
    move_overhead: Duration,
    /// `TimeNodeShare`: the time target follows the best move's share of the nodes.
    time_node_share: bool,
    debug: bool,
    show_wdl: bool,
    limit_strength: bool,
    elo: u32,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    searchers: Option<Searchers>,
    /// The position every `go` is searched in (the game copied into it each time), kept
    /// between searches so that its evaluation caches stay warm and nothing large is
    /// allocated or copied per move; `None` until the first search and after a failed one.
    search_position: Option<Position>,
    running: Option<Running>,
    syzygy: Syzygy,
    evaluation: Evaluation,
}

/// The `Eval` and `EvalFile` options and the network they loaded.
struct Evaluation {
    /// `Eval=nnue`: the network evaluates (when one is loaded).
    nnue: bool,
    /// `EvalFile`; empty for the built-in network.
    file: String,
    network: Option<Arc<Network>>,
}

impl Evaluation {
    /// The built-in network, whose file is part of the build (a test reads it).
    fn built_in() -> Option<Arc<Network>> {
        Network::embedded().ok().map(Arc::new)
    }

    /// Where the network came from, for `info string`.
    fn source(&self) -> String {
        if self.file.is_empty() {
            "built-in".to_owned()
        } else {
            truncate(&self.file)
        }
    }

    /// The network the search uses, if any.
    fn active(&self) -> Option<Arc<Network>> {
        if self.nnue {
            self.network.clone()
        } else {
            None
        }
    }
}

/// The Syzygy options and the tables they opened.
struct Syzygy {
    path: String,
    tables: Option<Arc<Tablebases>>,
    probe_limit: usize,
    rule50: bool,
    /// Failed probes already reported.
    failures_reported: u64,
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        let tt = Arc::new(TranspositionTable::new(DEFAULT_HASH_MIB));
        let control = Arc::new(SearchControl::default());
        let config = SearchConfig::default();
        let searchers = build_searchers(&config, 1, &tt, &control);
        Engine {
            out,
            position: Position::startpos(),
            config,
            hash_mib: DEFAULT_HASH_MIB,
            threads: 1,
            ponder: false,
            chess960: false,
            move_overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
            time_node_share: false,
            debug: false,
            show_wdl: false,
            limit_strength: false,
            elo: strength::DEFAULT_ELO,
            tt,
            control,
            searchers: Some(searchers),
            search_position: None,
            running: None,
            syzygy: Syzygy {
                path: String::new(),
                tables: None,
                probe_limit: MAX_TABLE_PIECES,
                rule50: true,
                failures_reported: 0,
            },
            evaluation: Evaluation {
                // The built-in network beat the classic evaluation by SPRT (docs/nnue.md).
                nnue: true,
                file: String::new(),
                network: Evaluation::built_in(),
            },
        }
    }

    /// Carries out one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        self.reap();
        match command {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::Register | Command::Empty => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponder_hit(),
            Command::Quit => {
                self.stop();
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Eval => {
                let breakdown = horizon_chess::eval::breakdown_with(
                    self.position.chess(),
                    self.config.eval_knowledge(),
                );
                self.out.info_string(&breakdown.to_string());
                if let Some(network) = &self.evaluation.network {
                    let mut position = Position::from_chess(
                        self.position.chess().clone(),
                        self.position.castling_mode(),
                    );
                    position.set_network(Some(network.clone()), Simd::detect());
                    self.out.info_string(&format!(
                        "network {:016x} ({}): {} cp for the side to move{}",
                        network.hash(),
                        self.evaluation.source(),
                        position.evaluate(),
                        if self.evaluation.nnue {
                            " (the search's evaluation)"
                        } else {
                            " (Eval=classic: not used)"
                        }
                    ));
                }
            }
            Command::Invalid(reason) => self.out.info_string(&format!("error: {reason}")),
            Command::Unknown(text) => self
                .out
                .info_string(&format!("unknown command '{}' ignored", truncate(&text))),
        }
        Flow::Continue
    }

    /// End of input: stop a search and let it print its move.
    pub fn shutdown(&mut self) {
        self.stop();
    }

    fn uci(&self) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        let o = &self.out;
        o.line(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        o.line(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        o.line("option name Clear Hash type button");
        o.line("option name Ponder type check default false");
        o.line("option name MultiPV type spin default 1 min 1 max 256");
        o.line(&format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"
        ));
        o.line("option name TimeNodeShare type check default false");
        o.line("option name UCI_Chess960 type check default false");
        o.line("option name UCI_ShowWDL type check default false");
        o.line("option name UCI_LimitStrength type check default false");
        o.line(&format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            strength::DEFAULT_ELO,
            strength::MIN_ELO,
            strength::MAX_ELO
        ));
        o.line("option name SyzygyPath type string default <empty>");
        o.line(&format!(
            "option name SyzygyProbeLimit type spin default {MAX_TABLE_PIECES} min 0 max {MAX_TABLE_PIECES}"
        ));
        o.line("option name Syzygy50MoveRule type check default true");
        o.line("option name Eval type combo default nnue var nnue var classic");
        o.line("option name EvalFile type string default <empty>");
        let defaults = SearchConfig::default();
        for option in options::SEARCH_OPTIONS {
            o.line(&option.uci_line(&defaults));
        }
        o.line("uciok");
    }

    /// The search that `command` has to wait for, if any: a `go`, `setoption` or
    /// `ucinewgame` that arrives during a search that ends by itself (a GUI or a script that
    /// sends commands ahead) is carried out after it, in order, as Stockfish does; the
    /// returned channel disconnects when the search thread ends. During an infinite or
    /// ponder search, which only `stop` or `ponderhit` ends, such commands are refused instead.
    pub fn search_to_wait_for(&self, command: &Command) -> Option<Receiver<()>> {
        let running = self.running.as_ref()?;
        let waits = matches!(
            command,
            Command::Go(_) | Command::SetOption { .. } | Command::UciNewGame
        );
        (waits
            && running.ends_by_itself
            && !running.ponder.is_pondering()
            && !running.finished.load(Ordering::Acquire))
        .then(|| running.done.clone())
    }

    /// Joins a search thread that has finished or is printing its `bestmove` (a GUI sends
    /// the next `go` as soon as it reads it; the join then takes microseconds), or whose
    /// `done` has closed: the thread is returning (also after a panic outside the search's
    /// own guard), and a command that waited on `done` must find it joined, not still running.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| {
            r.finished.load(Ordering::Acquire)
                || r.handle.is_finished()
                || matches!(r.done.try_recv(), Err(TryRecvError::Disconnected))
        }) {
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            match running.handle.join() {
                Ok((searchers, position)) => {
                    self.searchers = Some(searchers);
                    self.search_position = Some(position);
                }
                Err(_) => {
                    // A panic in the search must not take the engine down: start afresh.
                    self.out
                        .info_string("error: the search thread failed; state reset");
                    self.searchers = Some(build_searchers(
                        &self.config,
                        self.threads,
                        &self.tt,
                        &self.control,
                    ));
                }
            }
        }
    }

    fn busy(&self, what: &str) -> bool {
        if self.running.is_some() {
            self.out.info_string(&format!(
                "error: {what} ignored while searching (send stop first)"
            ));
            true
        } else {
            false
        }
    }

    fn stop(&mut self) {
        if let Some(running) = &self.running {
            self.control.stop();
            let _ = running.signals.send(Signal::Stop);
            self.join();
        }
    }

    fn ponder_hit(&mut self) {
        let Some(running) = &self.running else {
            return;
        };
        if !running.ponder.is_pondering() {
            return;
        }
        let since_start = running.start.elapsed();
        running.ponder.hit(since_start);
        if let Some(hard) = running.hard {
            self.control.set_deadline(Some(Instant::now() + hard));
        }
        let _ = running.signals.send(Signal::PonderHit);
    }

    fn new_game(&mut self) {
        if self.busy("ucinewgame") {
            return;
        }
        self.tt.clear();
        if let Some(s) = self.searchers.as_mut() {
            s.main.clear();
            s.helpers.iter_mut().for_each(Searcher::clear);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.busy(&format!("setoption {name}")) {
            return;
        }
        let value_text = value.unwrap_or("");
        let spin = |min: i64, max: i64| -> Option<i64> {
            value_text
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
        };
        let bad = |expected: &str| {
            self.out.info_string(&format!(
                "error: option '{name}' value '{value_text}' is not {expected}; unchanged"
            ))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match spin(1, MAX_HASH_MIB as i64) {
                Some(mib) => match TranspositionTable::try_new(mib as usize) {
                    Ok(table) => {
                        self.hash_mib = mib as usize;
                        // The old table goes when the searchers let go of it.
                        self.tt = Arc::new(table);
                        self.rebuild();
                    }
                    Err(e) => self.out.info_string(&format!(
                        "error: {e}; keeping the {} MiB table",
                        self.hash_mib
                    )),
                },
                None => bad(&format!("an integer from 1 to {MAX_HASH_MIB}")),
            },
            "threads" => match spin(1, MAX_THREADS as i64) {
                Some(n) => {
                    self.threads = n as usize;
                    self.rebuild();
                }
                None => bad(&format!("an integer from 1 to {MAX_THREADS}")),
            },
            "clear hash" => self.tt.clear(),
            "ponder" => match parse_bool(value_text) {
                Some(on) => self.ponder = on,
                None => bad("true or false"),
            },
            "multipv" => match spin(1, 256) {
                Some(n) => self.set_config(|c| c.multipv = n as usize),
                None => bad("an integer from 1 to 256"),
            },
            "move overhead" => match spin(0, 5000) {
                Some(ms) => self.move_overhead = Duration::from_millis(ms as u64),
                None => bad("an integer from 0 to 5000"),
            },
            "timenodeshare" => match parse_bool(value_text) {
                Some(on) => self.time_node_share = on,
                None => bad("true or false"),
            },
            "uci_chess960" => match parse_bool(value_text) {
                Some(on) => {
                    self.chess960 = on;
                    let mode = if on {
                        CastlingMode::Chess960
                    } else {
                        CastlingMode::Standard
                    };
                    self.position.set_castling_mode(mode);
                }
                None => bad("true or false"),
            },
            "uci_showwdl" => match parse_bool(value_text) {
                Some(on) => self.show_wdl = on,
                None => bad("true or false"),
            },
            "uci_limitstrength" => match parse_bool(value_text) {
                Some(on) => self.limit_strength = on,
                None => bad("true or false"),
            },
            "uci_elo" => match spin(i64::from(strength::MIN_ELO), i64::from(strength::MAX_ELO)) {
                Some(elo) => self.elo = elo as u32,
                None => bad(&format!(
                    "an integer from {} to {}",
                    strength::MIN_ELO,
                    strength::MAX_ELO
                )),
            },
            "syzygypath" => self.open_tables(value_text.trim()),
            "syzygyprobelimit" => match spin(0, MAX_TABLE_PIECES as i64) {
                Some(pieces) => {
                    self.syzygy.probe_limit = pieces as usize;
                    if let Some(tables) = &self.syzygy.tables {
                        tables.set_probe_limit(pieces as usize);
                    }
                }
                None => bad(&format!("an integer from 0 to {MAX_TABLE_PIECES}")),
            },
            "syzygy50moverule" => match parse_bool(value_text) {
                Some(on) => {
                    self.syzygy.rule50 = on;
                    if let Some(tables) = &self.syzygy.tables {
                        tables.set_rule50(on);
                        // Stored table results followed the old rule.
                        self.tt.clear();
                    }
                }
                None => bad("true or false"),
            },
            "eval" => match value_text.trim().to_ascii_lowercase().as_str() {
                "classic" => self.set_evaluation(false),
                "nnue" => self.set_evaluation(true),
                _ => bad("classic or nnue"),
            },
            "evalfile" => self.load_network(value_text.trim()),
            _ => match options::find(name) {
                Some(option) => {
                    let mut config = self.config.clone();
                    match option.set(&mut config, value_text) {
                        Ok(()) => {
                            if config.kpk_bitbase {
                                // Built here, before any clock runs.
                                horizon_chess::eval::kpk::prepare();
                            }
                            if config.eval_knowledge() != self.config.eval_knowledge() {
                                // Stored static evaluations had the other gradient.
                                self.tt.clear();
                            }
                            self.set_config(|c| *c = config);
                        }
                        Err(e) => self.out.info_string(&format!("error: {e}; unchanged")),
                    }
                }
                None => self
                    .out
                    .info_string(&format!("error: no option named '{}'", truncate(name))),
            },
        }
        if self.debug {
            self.out
                .info_string(&format!("option {name} = {value_text}"));
        }
    }

    /// `Eval`: which evaluation the search uses.
    fn set_evaluation(&mut self, nnue: bool) {
        if nnue != self.evaluation.nnue {
            // Stored static evaluations came from the other evaluation.
            self.tt.clear();
        }
        self.evaluation.nnue = nnue;
        if nnue && self.evaluation.network.is_none() {
            self.out.info_string(
                "Eval nnue: no network loaded (set EvalFile); the classic evaluation plays until one is",
            );
        }
    }

    /// `EvalFile`: loads a network; on any problem says why and keeps the current one.
    /// Empty or `<empty>` goes back to the built-in network.
    fn load_network(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            if !self.evaluation.file.is_empty() && self.evaluation.nnue {
                self.tt.clear();
            }
            self.evaluation.network = Evaluation::built_in();
            self.evaluation.file.clear();
            return;
        }
        let keeping = match &self.evaluation.network {
            Some(n) => format!(
                "keeping network {:016x} ({})",
                n.hash(),
                self.evaluation.source()
            ),
            None => "no network loaded".to_owned(),
        };
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                self.out.info_string(&format!(
                    "error: EvalFile {}: {e}; {keeping}",
                    truncate(path)
                ));
                return;
            }
        };
        match Network::from_bytes(&bytes) {
            Ok(network) => {
                self.out.info_string(&format!(
                    "EvalFile {}: network {:016x} loaded{}",
                    truncate(path),
                    network.hash(),
                    if self.evaluation.nnue {
                        ""
                    } else {
                        " (used with Eval=nnue)"
                    }
                ));
                if self.evaluation.nnue {
                    self.tt.clear();
                }
                self.evaluation.file = path.to_owned();
                self.evaluation.network = Some(Arc::new(network));
            }
            Err(e) => self.out.info_string(&format!(
                "error: EvalFile {}: {e}; {keeping}",
                truncate(path)
            )),
        }
    }

    /// `SyzygyPath`: opens the tables of its directories and says what it found;
    /// empty or `<empty>` closes them.
    fn open_tables(&mut self, path: &str) {
        self.syzygy.path = path.to_owned();
        if self.syzygy.tables.take().is_some() {
            // Stored table results came from the old tables.
            self.tt.clear();
        }
        self.syzygy.failures_reported = 0;
        if path.is_empty() || path == "<empty>" {
            return;
        }
        let (tables, report) = Tablebases::open(path);
        for problem in &report.problems {
            self.out
                .info_string(&format!("Syzygy: {}", truncate(problem)));
        }
        match tables {
            Some(tables) => {
                tables.set_probe_limit(self.syzygy.probe_limit);
                tables.set_rule50(self.syzygy.rule50);
                self.out.info_string(&format!("Syzygy: {report} in {path}"));
                self.syzygy.tables = Some(Arc::new(tables));
            }
            None => self.out.info_string(&format!(
                "Syzygy: no usable tables in {path}; searching without tables"
            )),
        }
    }

    fn set_config(&mut self, change: impl FnOnce(&mut SearchConfig)) {
        change(&mut self.config);
        if let Some(s) = self.searchers.as_mut() {
            s.main.config = self.config.clone();
            for h in &mut s.helpers {
                h.config = self.config.clone();
            }
        }
    }

    fn rebuild(&mut self) {
        self.searchers = Some(build_searchers(
            &self.config,
            self.threads,
            &self.tt,
            &self.control,
        ));
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mode = if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let parsed = match fen {
            None => Ok(Position::startpos()),
            Some(fen) => {
                // Detect Chess960 rights (Shredder-FEN) even when the option is off, but
                // write castling moves the way the GUI expects.
                Position::from_fen(fen)
            }
        };
        let mut position = match parsed {
            Ok(p) => p,
            Err(e) => {
                self.out
                    .info_string(&format!("error: {e}; position unchanged"));
                return;
            }
        };
        position.set_castling_mode(mode);
        for (i, text) in moves.iter().enumerate() {
            if text == "0000" {
                if position.in_check() {
                    self.out.info_string(&format!(
                        "error: null move 0000 (move {}) while in check; position unchanged",
                        i + 1
                    ));
                    return;
                }
                position.play_null();
                continue;
            }
            if let Err(e) = position.play_uci(text) {
                self.out
                    .info_string(&format!("error: move {} {e}; position unchanged", i + 1));
                return;
            }
        }
        self.position = position;
    }

    fn go(&mut self, go: &GoParams) {
        if self.busy("go") {
            return;
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        let Some(mut searchers) = self.searchers.take() else {
            return;
        };
        let start = Instant::now();
        let white = self.position.turn() == horizon_chess::Color::White;
        let phase = game_phase(&self.position);
        // Untimed (depth, nodes, mate, infinite) unless a clock or movetime is given.
        let plan = if go.infinite {
            None
        } else {
            time::plan(go, white, phase, self.move_overhead)
        };
        let mut limits = Limits {
            depth: go.depth.map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: go.nodes.map(|n| n.max(1)),
            mate: go.mate.filter(|&m| m > 0),
            ..Limits::default()
        };
        if let Some(mate) = limits.mate {
            limits.depth = Some(
                limits
                    .depth
                    .unwrap_or(MAX_DEPTH)
                    .min((2 * mate + 8).min(MAX_DEPTH)),
            );
        }
        let strength = self.limit_strength.then(|| StrengthLimit::new(self.elo));
        if let Some(limit) = strength {
            // Checked between iterations: the first one, with every line to choose from,
            // always completes.
            limits.min_nodes = Some(limit.nodes());
        }
        for text in &go.searchmoves {
            match self.position.parse_uci(text) {
                Ok(m) => limits.search_moves.push(PackedMove::new(m).0),
                Err(e) => self
                    .out
                    .info_string(&format!("error: searchmoves: {e}; ignored")),
            }
        }
        let mut position = match self.search_position.take() {
            Some(mut position) => {
                position.copy_game_from(&self.position);
                position
            }
            None => self.position.clone(),
        };
        position.set_tablebases(None);
        // `go mate N` wants the shortest mate, which the root filter may hide.
        if self.config.syzygy
            && limits.mate.is_none()
            && let Some(tables) = &self.syzygy.tables
        {
            let failures = tables.failures();
            if failures > self.syzygy.failures_reported {
                self.out.info_string(&format!(
                    "Syzygy: {} probes failed on unreadable tables; their positions are searched",
                    failures - self.syzygy.failures_reported
                ));
                self.syzygy.failures_reported = failures;
            }
            tables.restrict_root(&position, &mut limits.search_moves);
            position.set_tablebases(Some(tables.clone()));
        }
        position.set_network(self.evaluation.active(), Simd::detect());
        let pondering = go.ponder && !go.infinite;
        self.control.reset();
        if let Some(plan) = plan
            && !pondering
        {
            self.control.set_deadline(Some(start + plan.hard));
        }
        for s in std::iter::once(&mut searchers.main).chain(searchers.helpers.iter_mut()) {
            s.config = self.config.clone();
            if let Some(limit) = strength {
                s.config.multipv = s.config.multipv.max(limit.lines());
            }
        }
        let ends_by_itself = !go.infinite
            && (plan.is_some()
                || limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.mate.is_some());
        let (signals, receiver) = crossbeam_channel::unbounded();
        let (done_sender, done) = crossbeam_channel::bounded(0);
        let ponder = Arc::new(PonderState::new(pondering));
        let finished = Arc::new(AtomicBool::new(false));
        let job = Job {
            finished: finished.clone(),
            position,
            limits,
            plan,
            infinite: go.infinite,
            ponder: ponder.clone(),
            control: self.control.clone(),
            signals: receiver,
            out: self.out.clone(),
            start,
            show_wdl: self.show_wdl,
            strength,
            node_share: self.time_node_share,
            done: done_sender,
        };
        match worker::spawn(searchers, job) {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    finished,
                    signals,
                    ponder,
                    hard: plan.map(|p| p.hard),
                    start,
                    ends_by_itself,
                    done,
                })
            }
            Err(e) => {
                self.out
                    .info_string(&format!("error: cannot start the search thread: {e}"));
                self.rebuild();
            }
        }
    }

    fn perft(&mut self, depth: u32) {
        let start = Instant::now();
        let split = horizon_chess::perft::divide(&mut self.position, depth.max(1));
        let mut total = 0;
        for (m, nodes) in &split {
            self.out
                .line(&format!("{}: {nodes}", self.position.uci(*m)));
            total += nodes;
        }
        let ms = start.elapsed().as_millis().max(1);
        self.out.line(&format!(
            "\nNodes searched: {total} ({} knps)",
            u128::from(total) / ms
        ));
    }

    fn display(&self) {
        let board = self.position.chess().board();
        let mut text = String::new();
        for rank in (0..8u32).rev() {
            text.push_str(" +---+---+---+---+---+---+---+---+\n |");
            for file in 0..8u32 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                let c = board.piece_at(sq).map_or(' ', |p| p.char());
                text.push_str(&format!(" {c} |"));
            }
            text.push_str(&format!(" {}\n", rank + 1));
        }
        text.push_str(" +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n");
        for line in text.lines() {
            self.out.line(line);
        }
        self.out.line(&format!("Fen: {}", self.position.fen()));
        self.out.line(&format!("Key: {:016X}", self.position.key()));
    }
}

fn build_searchers(
    config: &SearchConfig,
    threads: usize,
    tt: &Arc<TranspositionTable>,
    control: &Arc<SearchControl>,
) -> Searchers {
    Searchers {
        main: Searcher::new(config.clone(), tt.clone(), control.clone()),
        helpers: (1..threads)
            .map(|_| Searcher::new(config.clone(), tt.clone(), control.clone()))
            .collect(),
    }
}

/// 24 with all minor and major pieces on the board, 0 with none.
fn game_phase(position: &Position) -> u32 {
    let board = position.chess().board();
    let phase = (board.knights() | board.bishops()).count()
        + 2 * board.rooks().count()
        + 4 * board.queens().count();
    (phase as u32).min(24)
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(80).collect()
}
