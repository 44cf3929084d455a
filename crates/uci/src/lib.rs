//! Horizon's UCI front-end: the protocol loop, the engine controller, the search worker,
//! time management and the options. The `horizon` binary calls [`run`].

pub mod engine;
pub mod options;
pub mod output;
pub mod protocol;
pub mod strength;
pub mod time;
pub mod worker;

use std::collections::VecDeque;
use std::io::BufRead;

use crossbeam_channel::select;
use engine::{Engine, Flow};
use output::Output;
use protocol::Command;

/// Reads UCI commands from `input` until `quit` or end of input.
///
/// A reader thread parses the input while the engine works, so that a command that has to
/// wait for a search (see [`Engine::search_to_wait_for`]) does not keep `stop` and `quit`
/// from being heard: while it waits, later commands queue in order, and a `stop` or `quit`
/// among them (or the end of input) ends that search at once, so nothing sent ahead can
/// hang the engine behind a long search.
pub fn run(input: impl BufRead + Send + 'static, output: Output) -> std::io::Result<()> {
    let (sender, commands) = crossbeam_channel::unbounded();
    let reader = std::thread::Builder::new()
        .name("horizon-input".into())
        .spawn(move || -> std::io::Result<()> {
            for line in input.split(b'\n') {
                // Invalid UTF-8 is garbage like any other: read what can be read.
                let command = protocol::parse(&String::from_utf8_lossy(&line?));
                if sender.send(command).is_err() {
                    break;
                }
            }
            Ok(())
        })?;
    let mut engine = Engine::new(output);
    let mut queued: VecDeque<Command> = VecDeque::new();
    let mut input_ended = false;
    loop {
        let command = match queued.pop_front() {
            Some(command) => command,
            None if input_ended => break,
            None => match commands.recv() {
                Ok(command) => command,
                Err(_) => break,
            },
        };
        if let Some(search_done) = engine.search_to_wait_for(&command) {
            loop {
                // A `stop` or `quit` already sent (or the end of input) ends this search
                // now; it stays queued for whatever runs after.
                if input_ended
                    || queued
                        .iter()
                        .any(|c| matches!(c, Command::Stop | Command::Quit))
                {
                    engine.handle(Command::Stop);
                    break;
                }
                let next = select! {
                    recv(search_done) -> _ => break,
                    recv(commands) -> next => next,
                };
                match next {
                    Ok(next) => queued.push_back(next),
                    Err(_) => input_ended = true,
                }
            }
        }
        if engine.handle(command) == Flow::Quit {
            return Ok(());
        }
    }
    engine.shutdown();
    // The channel is closed: the reader has ended (end of input or a read error, which is
    // the caller's), so the join does not block.
    reader
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("the input thread failed")))
}
