//! `pi-ask hook claude|codex|gemini`: the host's own question tool answered in pi-ask (see
//! [`crate::hooks`]).
//! Whatever happens, the exit status is 0 and nothing but an answer is printed: a hook that fails
//! must leave the host to ask in its own way (why is said on standard error).

use std::path::PathBuf;
use std::time::Duration;

use super::Ended;
use crate::drivers::hooks::Host;
use crate::report::{CommandOutcome, report};

/// The longest hook event read (a host's questions are a few kilobytes).
const MAX_EVENT: u64 = 1024 * 1024;

/// `pi-ask hook <host> [--queue DIR] [--wait SECONDS]`.
pub fn run(host: Host, queue: Option<PathBuf>, wait: Duration) -> Ended {
    let silent = |why: &str| {
        report(&format!("hook: {why}; {} asks itself", host.name()));
        Ok(CommandOutcome::Done)
    };
    let bytes = match crate::bounded_read::read_stream(std::io::stdin().lock(), MAX_EVENT, 4096) {
        Ok(bytes) => bytes,
        Err(e) => return silent(&format!("cannot read the hook event: {e}")),
    };
    let event: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(event) => event,
        Err(e) => return silent(&format!("the hook event is not JSON: {e}")),
    };
    let payload = match host.payload(&event) {
        Ok(payload) => payload,
        Err(why) => return silent(&why.to_string()),
    };
    let queue: crate::stores::queue::SharedQueue = match super::queues::open_queue(queue) {
        Ok(queue) => std::sync::Arc::new(queue),
        Err(e) => return silent(&e.to_string()),
    };
    let stop = match crate::drivers::runtime::signal_flag() {
        Ok(stop) => stop,
        Err(e) => return silent(&format!("cannot watch for signals: {e}")),
    };
    let cwd = event
        .get("cwd")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| super::recorded_cwd(&crate::drivers::run::RunOptions::default()));
    let answer =
        match crate::drivers::hooks::ask(&queue, payload, &host.asker(&event), &cwd, wait, &stop) {
            Ok(answer) => answer,
            Err(why) => return silent(&why.to_string()),
        };
    let result: crate::result::AskResult = match serde_json::from_value(answer) {
        Ok(result) => result,
        Err(e) => return silent(&format!("the answer is not an ask_user result: {e}")),
    };
    crate::report::print_json(&host.output(&event, &result));
    Ok(CommandOutcome::Done)
}
