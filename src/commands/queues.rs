//! The queue folders a command watches: `--queue` or the default one, and the folders earlier
//! versions queued asks in.

use std::path::PathBuf;

use super::CommandError;
use crate::report::report;

/// The folders earlier versions queued asks in that exist here and are safe to read (an unsafe
/// one is named and skipped).
pub fn earlier_queues(
    primary: &std::path::Path,
    max_bytes: u64,
) -> Vec<crate::stores::queue::Queue> {
    crate::stores::queue::earlier_queue_dirs(|k| std::env::var(k).ok(), primary)
        .into_iter()
        .filter_map(|dir| match crate::stores::queue::Queue::open(&dir) {
            Ok(queue) => Some(queue.with_max_bytes(max_bytes)),
            Err(e) => {
                report(&format!(
                    "not watching {}, where earlier versions queued asks: {e}",
                    crate::paths::display(&dir)
                ));
                None
            }
        })
        .collect()
}

/// The queue folder: `--queue`, else the default one.
pub fn open_queue(dir: Option<PathBuf>) -> Result<crate::stores::queue::Queue, CommandError> {
    let dir = dir
        .or_else(|| crate::stores::queue::default_queue_dir(|k| std::env::var(k).ok()))
        .ok_or(CommandError::NoQueueFolder)?;
    crate::stores::queue::Queue::open(&dir).map_err(|source| CommandError::Queue {
        folder: crate::paths::display(&dir),
        source,
    })
}
