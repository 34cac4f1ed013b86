//! The queue as every inbox reads it (the terminal's, line mode's, the web page's): its waiting
//! asks as list entries, where an ask that left the list went, and the answer a declined ask
//! gets.

use serde_json::Value;

use super::{AskQueue, Queue};
use crate::inbox::WaitingAsk;
use crate::liveness::process_is_alive;

/// An ask as the list shows it, in watched queue `queue`.
pub fn waiting_ask(ask: &super::QueuedAsk, asker_alive: bool, queue: usize) -> WaitingAsk {
    let prompt = ask
        .payload
        .get("questions")
        .and_then(|q| q.get(0))
        .and_then(|q| q.get("prompt"))
        .and_then(Value::as_str)
        .unwrap_or("(no prompt)");
    WaitingAsk {
        id: ask.id.clone(),
        // One line each wherever they are shown (a peer names its client).
        client: crate::printable::one_line(&ask.client),
        cwd: crate::printable::one_line(&ask.cwd),
        created_at: ask.created_at,
        first_prompt: prompt.split_whitespace().collect::<Vec<_>>().join(" "),
        asker_alive,
        queue,
    }
}

/// The list's entries: every waiting ask of every queue.
pub fn entries(queues: &[super::SharedQueue]) -> Vec<WaitingAsk> {
    queues
        .iter()
        .enumerate()
        .flat_map(|(i, queue)| {
            queue.waiting().into_iter().map(move |ask| {
                let alive = process_is_alive(&ask.asker);
                waiting_ask(&ask, alive, i)
            })
        })
        .collect()
}

/// The result a declined ask's asker gets: cancelled, saying why (`because`, as in "they declined
/// it in pi-ask inbox"); an invalid payload gets its validation result instead.
pub fn declined(payload: &Value, because: &str) -> crate::result::AskResult {
    match crate::input::validate_payload(payload) {
        Ok(form) => {
            let mut result = crate::result::build_from_state(
                form.title.as_deref(),
                &form.questions,
                &vec![crate::model::AnswerState::default(); form.questions.len()],
                crate::result::Outcome::Cancelled,
            );
            crate::result::mark_cancelled_because(&mut result, because);
            result.details.outcome = Some(crate::result::Resolution::Declined);
            result
        }
        Err(invalid) => crate::result::invalid_input_result(&invalid),
    }
}

/// Where an ask is, for an inbox that no longer sees it waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whereabouts {
    /// Still waiting.
    Waiting,
    /// Claimed by a live inbox: being answered there.
    OpenElsewhere,
    /// Its asker took it back.
    Withdrawn,
    /// Answered (the answer waits for its asker, or was taken), or never here.
    Gone,
}

impl Queue {
    /// Waiting ask `id`, read alone (not the whole folder): `None` when it is not waiting (claimed,
    /// withdrawn, answered) or its file is not a good ask (the next look sets that aside).
    pub(super) fn read_waiting_ask(&self, id: &str) -> Option<super::QueuedAsk> {
        if !super::is_valid_id(id) || self.is_withdrawn(id) {
            return None;
        }
        self.read_ask(id, &self.path(id, ".ask.json")).ok()
    }

    /// Where ask `id` is now.
    pub(super) fn whereabouts_of(&self, id: &str) -> Whereabouts {
        if !super::is_valid_id(id) {
            return Whereabouts::Gone;
        }
        if self.is_withdrawn(id) {
            return Whereabouts::Withdrawn;
        }
        if self.path(id, ".ask.json").exists() {
            return Whereabouts::Waiting;
        }
        let claimed = self.names().iter().any(|name| {
            super::claimer(name)
                .is_some_and(|(claimed, process)| claimed == id && process_is_alive(&process))
        });
        if claimed {
            Whereabouts::OpenElsewhere
        } else {
            Whereabouts::Gone
        }
    }
}
