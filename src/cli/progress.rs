//! The progress bar of `epd` and `ablate`: on stderr, with ETA and a message (the running
//! solved count); hidden when stderr is not a terminal, so logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `len` steps; `hidden` forces it off (`--quiet`).
    pub fn new(len: usize, hidden: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(
            Some(len as u64),
            if hidden {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            },
        );
        // The template is a constant, so this cannot fail; keep the default style if it did.
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} {msg} ETA {eta_precise}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar }
    }

    /// Prints a line on stdout above the bar.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| say!("{line}"));
    }

    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    pub fn inc(&self) {
        self.bar.inc(1);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
