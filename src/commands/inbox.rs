//! `pi-ask inbox`: answers the queued asks of `pi-ask mcp` (or any program using the queue) in
//! this terminal, oldest first, each in the normal form.

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Value, json};

use super::{HistoryChoice, Opening, failure, recorded};
use crate::cli::{EXIT_OK, report};
use crate::history::{Origin, Source, process_is_alive};
use crate::input;
use crate::model::Msg;
use crate::queue::{Claim, Queue, QueuedAsk};
use crate::result;
use crate::run::RunOptions;

/// How often the queue is looked at while waiting (an ask shows within this time).
const POLL: Duration = Duration::from_millis(40);

/// Closes the form when its asker withdraws the ask (cancelled the call, timed out).
struct Withdrawal {
    queue: Queue,
    id: String,
    seen: bool,
}

impl crate::tui::Outside for Withdrawal {
    fn poll(&mut self, _: &[crate::form::Question]) -> Vec<Msg> {
        if !self.seen && self.queue.is_withdrawn(&self.id) {
            self.seen = true;
            return vec![Msg::RemoteCancel];
        }
        Vec::new()
    }
}

fn age(created_at: u64) -> String {
    let secs = crate::remote::protocol::unix_ms().saturating_sub(created_at) / 1000;
    match secs {
        0..60 => format!("{secs} s ago"),
        60..3600 => format!("{} min ago", secs / 60),
        _ => format!("{} h ago", secs / 3600),
    }
}

fn first_prompt(ask: &QueuedAsk) -> String {
    ask.payload
        .get("questions")
        .and_then(|q| q.get(0))
        .and_then(|q| q.get("prompt"))
        .and_then(Value::as_str)
        .unwrap_or("(no prompt)")
        .chars()
        .take(70)
        .collect()
}

/// The picker shown when several asks wait: itself a form, one option per ask, oldest first.
fn pick(pending: &[QueuedAsk], options: &RunOptions) -> Option<String> {
    let picker = json!({
        "title": format!("pi-ask inbox: {} asks waiting", pending.len()),
        "questions": [{
            "id": "ask",
            "label": "Inbox",
            "prompt": "Which ask do you want to answer first?",
            "options": pending.iter().map(|a| json!({
                "value": a.id,
                "label": first_prompt(a),
                "description": format!("{} · {} · {}", a.client, a.cwd, age(a.created_at)),
            })).collect::<Vec<_>>(),
        }]
    });
    let form = input::validate_payload(&picker).ok()?;
    let options = RunOptions {
        submit_when_answered: true,
        listen: None,
        ..options.clone()
    };
    let done = crate::run::ask_result(form, &options).ok()?;
    if done.result.details.cancelled || done.interrupted {
        return None;
    }
    done.result
        .details
        .answers
        .get("ask")
        .and_then(|a| a.values.first().cloned())
}

/// What happened to one claimed ask.
enum Shown {
    Answered,
    Withdrawn,
    /// The inbox was stopped (a signal, a terminal error): the claim was released.
    Stopped,
}

fn show(claim: Claim, queue: &Queue, options: &RunOptions, history: &HistoryChoice) -> Shown {
    let ask = claim.ask.clone();
    report(&format!(
        "ask from {} in {}, {}",
        ask.client,
        ask.cwd,
        age(ask.created_at)
    ));
    if !process_is_alive(&ask.asker) {
        report("its asker has gone: an answer will only be kept in the history");
    }
    let form = match input::validate_payload(&ask.payload) {
        Ok(form) => form,
        Err(invalid) => {
            // The asker validated it; a payload that is not valid here is answered as such.
            let result = result::invalid_input_result(&invalid);
            let _ = queue.answer(claim, &serde_json::to_value(&result).unwrap_or(Value::Null));
            return Shown::Answered;
        }
    };
    let opening = Opening {
        form,
        payload: &ask.payload,
        source: Source::Tool,
        origin: Origin {
            queue_id: Some(ask.id.clone()),
            ..Origin::default()
        },
        restore: None,
    };
    let watch: Box<dyn crate::tui::Outside> = Box::new(Withdrawal {
        queue: queue.clone(),
        id: ask.id.clone(),
        seen: false,
    });
    let done = recorded(history, &opening, ask.cwd.clone(), |form, journal| {
        let options = RunOptions {
            journal,
            ..options.clone()
        };
        crate::run::ask_result_with(form, &options, vec![watch])
    });
    match done {
        _ if queue.is_withdrawn(&ask.id) => {
            let _ = queue.drop_claim(claim);
            report("the asker withdrew the ask; it was closed unanswered");
            Shown::Withdrawn
        }
        Ok(done) if !done.interrupted => {
            let value = serde_json::to_value(&done.result).unwrap_or(Value::Null);
            match queue.answer(claim, &value) {
                Err(e) => report(&format!(
                    "cannot deliver the answer: {e}; it is kept in the history"
                )),
                Ok(crate::queue::Delivery::TooLate) => report(
                    "the answer came too late: the asker had stopped waiting (its time limit passed, or it was cancelled); it is kept in the history",
                ),
                Ok(crate::queue::Delivery::Delivered) => {}
            }
            if !process_is_alive(&ask.asker) {
                report(&format!(
                    "the asker ({}, process {}) has gone; the answer is kept in the history",
                    ask.client, ask.asker.pid
                ));
            }
            Shown::Answered
        }
        _ => {
            let _ = queue.release(claim);
            Shown::Stopped
        }
    }
}

/// `pi-ask inbox [--once]`.
pub fn inbox(queue: &Queue, options: &RunOptions, history: &HistoryChoice, once: bool) -> ExitCode {
    if let Err(code) = super::require_terminal("inbox") {
        return code;
    }
    let stop = match crate::tui::runtime::signal_flag() {
        Ok(flag) => flag,
        Err(e) => return failure(&format!("cannot watch for signals: {e}")),
    };
    queue.sweep(Duration::from_secs(24 * 3600));
    let mut said_waiting = false;
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return ExitCode::from(EXIT_OK);
        }
        let pending = queue.pending();
        if pending.is_empty() {
            if !said_waiting {
                report(&format!(
                    "inbox: waiting for asks in {} (Ctrl+C to quit)",
                    crate::paths::display(queue.dir())
                ));
                said_waiting = true;
            }
            std::thread::sleep(POLL);
            continue;
        }
        said_waiting = false;
        let id = if pending.len() == 1 {
            pending[0].id.clone()
        } else {
            match pick(&pending, options) {
                Some(id) => id,
                None => return ExitCode::from(EXIT_OK),
            }
        };
        // Another inbox may have been faster: then look again.
        let claim = match queue.claim(&id) {
            Ok(Some(claim)) => claim,
            Ok(None) => continue,
            Err(e) => return failure(&format!("cannot claim the ask: {e}")),
        };
        match show(claim, queue, options, history) {
            Shown::Stopped => return ExitCode::from(EXIT_OK),
            Shown::Answered | Shown::Withdrawn if once => return ExitCode::from(EXIT_OK),
            Shown::Answered | Shown::Withdrawn => {}
        }
    }
}
