//! `pi-ask inbox`: answers the queued asks of `pi-ask mcp` (or any program using the queue) in
//! this terminal, oldest first, each in the normal form.

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Value, json};

use super::{HistoryChoice, Opening, failure, recorded};
use crate::cli::{EXIT_CANCELLED, EXIT_OK, report};
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

/// `pi-ask inbox [--once]`: serves the asks of `queues`, the first being where asks go now and
/// the others where earlier versions put them (see [`crate::queue::earlier_queue_dirs`]).
pub fn inbox(
    queues: &[Queue],
    options: &RunOptions,
    history: &HistoryChoice,
    once: bool,
) -> ExitCode {
    if let Err(code) = super::require_terminal("inbox") {
        return code;
    }
    let stop = match crate::tui::runtime::signal_flag() {
        Ok(flag) => flag,
        Err(e) => return failure(&format!("cannot watch for signals: {e}")),
    };
    for queue in queues {
        queue.sweep(Duration::from_secs(24 * 3600));
    }
    // Said in each queue while this inbox runs, so `--status` (and the servers) know someone
    // watches; removed when it ends, and recognised as gone when it is killed.
    let _presence: Vec<_> = queues
        .iter()
        .filter_map(|q| q.announce_inbox().ok())
        .collect();
    let mut said_waiting = false;
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return ExitCode::from(EXIT_OK);
        }
        let pending = pending_in(queues);
        if pending.is_empty() {
            if !said_waiting {
                report(&waiting_line(queues));
                said_waiting = true;
            }
            std::thread::sleep(POLL);
            continue;
        }
        said_waiting = false;
        let asks: Vec<QueuedAsk> = pending.iter().map(|(_, ask)| ask.clone()).collect();
        let id = if asks.len() == 1 {
            asks[0].id.clone()
        } else {
            match pick(&asks, options) {
                Some(id) => id,
                None => return ExitCode::from(EXIT_OK),
            }
        };
        let Some(queue) = pending
            .iter()
            .find(|(_, ask)| ask.id == id)
            .map(|(q, _)| &queues[*q])
        else {
            continue;
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

/// The asks waiting in every queue, oldest first, each with the index of its queue.
fn pending_in(queues: &[Queue]) -> Vec<(usize, QueuedAsk)> {
    let mut pending: Vec<(usize, QueuedAsk)> = queues
        .iter()
        .enumerate()
        .flat_map(|(i, q)| q.pending().into_iter().map(move |ask| (i, ask)))
        .collect();
    pending.sort_by_key(|(_, ask)| ask.created_at);
    pending
}

/// What the inbox says while nothing waits: the folders it watches.
fn waiting_line(queues: &[Queue]) -> String {
    let mut line = format!(
        "inbox: waiting for asks in {}",
        crate::paths::display(queues[0].dir())
    );
    let earlier: Vec<String> = queues[1..]
        .iter()
        .map(|q| crate::paths::display(q.dir()))
        .collect();
    if !earlier.is_empty() {
        line.push_str(&format!(
            " (and where earlier versions put them: {})",
            earlier.join(", ")
        ));
    }
    line.push_str(" (Ctrl+C to quit)");
    line
}

/// `pi-ask inbox --status`: where asks go, how many wait in each watched queue, and whether an
/// inbox watches (exit 0), or that none does and how to start one (exit 1).
pub fn status(queues: &[Queue]) -> ExitCode {
    let mut out = String::new();
    for (i, queue) in queues.iter().enumerate() {
        let waiting = queue.waiting().len();
        let live = queue.pending().len();
        let role = if i == 0 {
            "asks go to"
        } else {
            "also watched (earlier versions queued asks here)"
        };
        out.push_str(&format!(
            "{role}: {}\n  {live} waiting, {} being answered, {} whose asker is gone\n",
            crate::paths::display(queue.dir()),
            queue.being_answered(),
            waiting.saturating_sub(live)
        ));
    }
    let inboxes = queues[0].inboxes_watching();
    let watched = !inboxes.is_empty();
    if watched {
        let pids: Vec<String> = inboxes.iter().map(|p| p.pid.to_string()).collect();
        out.push_str(&format!("inbox: watching (pid {})\n", pids.join(", ")));
    } else {
        out.push_str("inbox: none is watching; start `pi-ask inbox` in a terminal\n");
    }
    for line in out.lines() {
        println!("{}", crate::printable::printable(line));
    }
    ExitCode::from(if watched { EXIT_OK } else { EXIT_CANCELLED })
}
