//! Reading UCI commands: `vampirc-uci` recognises them, and guards around it mend its known
//! defects (version 0.11.1, each reproduced and tested in `tests/`):
//! (a) `go ponder wtime …` loses the ponder flag: flags are read from the raw tokens;
//! (b) `go depth 300` panics (u8 fields parsed with `unwrap`): numbers are validated and
//!     clamped before the line is handed over, and any panic is caught;
//! (c) Shredder-FEN castling (`HAha`) and FENs without move counters do not parse: the FEN
//!     is taken from the raw tokens and read with shakmaty;
//! (d) the null move `0000` is dropped from `position … moves` and `searchmoves`: moves are
//!     taken from the raw tokens;
//! (e) its serializer writes `currmovenum`: Horizon prints every output line itself.

use std::panic::{AssertUnwindSafe, catch_unwind};

use vampirc_uci::UciMessage;

/// The parameters of `go`, as read from the raw tokens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub ponder: bool,
    pub infinite: bool,
    /// Milliseconds; negative values (sent by some GUIs in time trouble) are kept so the
    /// time manager can treat them as "no time left".
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub searchmoves: Vec<String>,
    /// `go perft N` (an extension every engine author expects).
    pub perft: Option<u32>,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    Register,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    /// `fen: None` is `startpos`. Moves are the raw tokens (`0000` included).
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `d`: print the board, FEN and key.
    Display,
    /// `eval`: print the evaluation breakdown.
    Eval,
    /// A blank line.
    Empty,
    /// A known command with unusable arguments: what was wrong.
    Invalid(String),
    /// Not a command.
    Unknown(String),
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "register",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
];

/// Hands a line to vampirc-uci, which may panic on some input (defect b).
fn vampirc(line: &str) -> Option<UciMessage> {
    let message = catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(line))).ok()?;
    match message {
        UciMessage::Unknown(..) => None,
        m => Some(m),
    }
}

/// Parses one line. Never panics.
pub fn parse(line: &str) -> Command {
    // Control characters (NUL, CR) are noise from pipes and files.
    let clean: String = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let tokens: Vec<&str> = clean.split_whitespace().collect();
    if tokens.is_empty() {
        return Command::Empty;
    }
    // The UCI spec: unknown tokens before a command are skipped ("joho debug on").
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Command::Unknown(tokens.join(" "));
    };
    let tokens = &tokens[start..];
    let args = &tokens[1..];
    match tokens[0] {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "debug" => match vampirc(&tokens.join(" ")) {
            Some(UciMessage::Debug(on)) => Command::Debug(on),
            _ => match args.first() {
                None => Command::Debug(true),
                Some(_) => Command::Invalid("debug takes 'on' or 'off'".into()),
            },
        },
        "setoption" => parse_setoption(tokens),
        "position" => parse_position(args),
        "go" => parse_go(args),
        _ => Command::Unknown(tokens.join(" ")),
    }
}

fn parse_setoption(tokens: &[&str]) -> Command {
    let line = tokens.join(" ");
    if let Some(UciMessage::SetOption { name, value }) = vampirc(&line) {
        return Command::SetOption {
            name: name.trim().to_owned(),
            value: value.map(|v| v.trim().to_owned()),
        };
    }
    // Fallback for what the grammar refuses (e.g. an empty value): split by hand.
    let rest = &tokens[1..];
    if rest.first() != Some(&"name") || rest.len() < 2 {
        return Command::Invalid("setoption needs 'name <id> [value <x>]'".into());
    }
    let value_at = rest.iter().position(|t| *t == "value");
    let name = rest[1..value_at.unwrap_or(rest.len())].join(" ");
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    if name.is_empty() {
        return Command::Invalid("setoption needs an option name".into());
    }
    Command::SetOption { name, value }
}

fn parse_position(args: &[&str]) -> Command {
    let moves_at = args.iter().position(|t| *t == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves: Vec<String> = moves_at.map_or_else(Vec::new, |i| {
        args[i + 1..].iter().map(|m| (*m).to_owned()).collect()
    });
    // Recognition by vampirc where it can; the FEN itself is always read with shakmaty.
    let _recognised = vampirc(&format!("position {}", head.join(" ")));
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Command::Position { fen: None, moves },
        Some(&"fen") if head.len() >= 2 && head.len() <= 7 => Command::Position {
            fen: Some(head[1..].join(" ")),
            moves,
        },
        Some(&"fen") => Command::Invalid("position fen needs 1 to 6 FEN fields".into()),
        _ => Command::Invalid("position needs 'startpos' or 'fen <FEN>'".into()),
    }
}

/// Reads the value after a `go` keyword.
fn number<T: std::str::FromStr>(args: &[&str], i: usize, key: &str) -> Result<T, String> {
    args.get(i + 1)
        .and_then(|v| v.parse::<T>().ok())
        .ok_or_else(|| format!("go {key} needs a number"))
}

fn parse_go(args: &[&str]) -> Command {
    let mut go = GoParams::default();
    let keywords = [
        "searchmoves",
        "ponder",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
        "perft",
    ];
    let mut i = 0;
    let result: Result<(), String> = (|| {
        while i < args.len() {
            match args[i] {
                "ponder" => go.ponder = true,
                "infinite" => go.infinite = true,
                "wtime" => go.wtime = Some(number(args, i, "wtime")?),
                "btime" => go.btime = Some(number(args, i, "btime")?),
                "winc" => go.winc = Some(number(args, i, "winc")?),
                "binc" => go.binc = Some(number(args, i, "binc")?),
                "movestogo" => {
                    go.movestogo =
                        Some(number::<i64>(args, i, "movestogo")?.clamp(0, 10_000) as u32)
                }
                "depth" => go.depth = Some(number::<i64>(args, i, "depth")?.clamp(0, 1_000) as u32),
                "nodes" => {
                    go.nodes = Some(
                        number::<i128>(args, i, "nodes")?.clamp(0, i128::from(u64::MAX)) as u64,
                    )
                }
                "mate" => go.mate = Some(number::<i64>(args, i, "mate")?.clamp(0, 1_000) as u32),
                "movetime" => go.movetime = Some(number(args, i, "movetime")?),
                "perft" => go.perft = Some(number::<i64>(args, i, "perft")?.clamp(0, 20) as u32),
                "searchmoves" => {
                    while i + 1 < args.len() && !keywords.contains(&args[i + 1]) {
                        go.searchmoves.push(args[i + 1].to_owned());
                        i += 1;
                    }
                }
                other => return Err(format!("unknown go parameter '{other}'")),
            }
            if matches!(
                args[i],
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "depth"
                    | "nodes"
                    | "mate"
                    | "movetime"
                    | "perft"
            ) {
                i += 1;
            }
            i += 1;
        }
        Ok(())
    })();
    if let Err(reason) = result {
        return Command::Invalid(reason);
    }
    // Hand vampirc a line it can parse safely (numbers within its u8 fields), as a check
    // that the command is well formed; the values above are what counts.
    let _recognised = vampirc(&sanitized_go(&go));
    Command::Go(go)
}

/// The `go` line rebuilt with every number inside the ranges vampirc-uci can hold.
fn sanitized_go(go: &GoParams) -> String {
    let mut line = String::from("go");
    let clamp_ms = |v: i64| v.clamp(0, i64::from(u32::MAX));
    if go.ponder {
        line += " ponder";
    }
    for (key, value) in [
        ("wtime", go.wtime),
        ("btime", go.btime),
        ("winc", go.winc),
        ("binc", go.binc),
        ("movetime", go.movetime),
    ] {
        if let Some(v) = value {
            line += &format!(" {key} {}", clamp_ms(v));
        }
    }
    for (key, value) in [
        ("movestogo", go.movestogo),
        ("depth", go.depth),
        ("mate", go.mate),
    ] {
        if let Some(v) = value {
            line += &format!(" {key} {}", v.min(255));
        }
    }
    if let Some(n) = go.nodes {
        line += &format!(" nodes {n}");
    }
    if go.infinite {
        line += " infinite";
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ponder_flag_survives_time_controls() {
        let Command::Go(go) = parse("go ponder wtime 1000 btime 2000 winc 10 binc 20") else {
            panic!("not go");
        };
        assert!(go.ponder);
        assert_eq!(
            (go.wtime, go.btime, go.winc, go.binc),
            (Some(1000), Some(2000), Some(10), Some(20))
        );
        // vampirc itself loses it (defect a):
        assert!(matches!(
            vampirc_uci::parse_one("go ponder wtime 1000 btime 2000"),
            UciMessage::Go {
                time_control: Some(vampirc_uci::UciTimeControl::TimeLeft { .. }),
                ..
            }
        ));
    }

    #[test]
    fn huge_depth_does_not_panic() {
        assert!(
            std::panic::catch_unwind(|| vampirc_uci::parse_one("go depth 300")).is_err(),
            "defect b reproduced"
        );
        let Command::Go(go) = parse("go depth 300") else {
            panic!("not go")
        };
        assert_eq!(go.depth, Some(300));
        assert!(matches!(parse("go depth x"), Command::Invalid(_)));
        assert!(matches!(parse("go depth"), Command::Invalid(_)));
        let Command::Go(go) = parse("go mate 999999 movestogo 4000") else {
            panic!("not go")
        };
        assert_eq!((go.mate, go.movestogo), (Some(1000), Some(4000)));
    }

    #[test]
    fn shredder_fen_and_short_fen() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert!(
            matches!(
                vampirc_uci::parse_one(&format!("position fen {fen}")),
                UciMessage::Unknown(..)
            ),
            "defect c reproduced"
        );
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Command::Position {
                fen: Some(fen.into()),
                moves: vec![]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - -"),
            Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - -".into()),
                moves: vec![]
            }
        );
    }

    #[test]
    fn null_moves_are_kept() {
        assert_eq!(
            parse("position startpos moves e2e4 0000 d2d4"),
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "0000".into(), "d2d4".into()]
            }
        );
        let Command::Go(go) = parse("go searchmoves e2e4 0000 depth 3") else {
            panic!("not go")
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "0000"]);
        assert_eq!(go.depth, Some(3));
    }

    #[test]
    fn options_with_spaces_and_garbage() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(parse("setoption"), Command::Invalid(_)));
        assert_eq!(parse("xboard"), Command::Unknown("xboard".into()));
        assert_eq!(parse("joho debug on"), Command::Debug(true));
        assert_eq!(parse("   \r\n"), Command::Empty);
        assert_eq!(parse("isready\0"), Command::IsReady);
        assert!(matches!(parse("position"), Command::Invalid(_)));
        assert!(matches!(
            parse("go wtime -500 btime -3"),
            Command::Go(GoParams {
                wtime: Some(-500),
                ..
            })
        ));
        assert!(matches!(parse("go banana"), Command::Invalid(_)));
    }
}
