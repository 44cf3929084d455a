//! Independent jobs on worker threads (`--jobs`), each worker with its own state (an engine
//! and its table); results come back to the calling thread in input order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{Context, Result};
use horizon_search::threads::SEARCH_STACK_BYTES;

/// Runs `work(state, i)` for every `i < count` on `jobs` threads, each with a state made by
/// `init`, and hands each result to `receive` in order of `i` as soon as all earlier ones
/// are in (so the output reads the same whatever the number of jobs).
pub fn run_ordered<S, T>(
    count: usize,
    jobs: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    mut receive: impl FnMut(usize, T),
) -> Result<()>
where
    T: Send,
{
    let next = AtomicUsize::new(0);
    let (sender, results) = mpsc::channel::<(usize, T)>();
    let (next, init, work) = (&next, &init, &work);
    std::thread::scope(|scope| -> Result<()> {
        for worker in 0..jobs.clamp(1, count.max(1)) {
            let sender = sender.clone();
            std::thread::Builder::new()
                .name(format!("horizon-job-{worker}"))
                // Search recursion needs the same stack as a search thread.
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut state = init();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count || sender.send((i, work(&mut state, i))).is_err() {
                            break;
                        }
                    }
                })
                .context("cannot start a worker thread")?;
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut expected = 0;
        for (i, result) in results {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&expected) {
                receive(expected, result);
                expected += 1;
            }
        }
        Ok(())
    })
}
