//! Horizon's UCI front-end: the protocol loop, the engine controller, the search worker,
//! time management and the options. The `horizon` binary calls [`run`].

pub mod engine;
pub mod options;
pub mod output;
pub mod protocol;
pub mod strength;
pub mod time;
pub mod worker;

use std::io::BufRead;

use engine::{Engine, Flow};
use output::Output;

/// Reads UCI commands from `input` until `quit` or end of input.
pub fn run(input: impl BufRead, output: Output) -> std::io::Result<()> {
    let mut engine = Engine::new(output);
    for line in input.split(b'\n') {
        let line = line?;
        // Invalid UTF-8 is garbage like any other: read what can be read.
        let text = String::from_utf8_lossy(&line);
        if engine.handle(protocol::parse(&text)) == Flow::Quit {
            return Ok(());
        }
    }
    engine.shutdown();
    Ok(())
}
