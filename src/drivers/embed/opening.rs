//! Which form an `open` asks for: the payload it carries, or one found on the session branch it
//! carries (replay, recovery, `/answer`), with the original's rules and notices. Also what the
//! host must record and say around the form (session entries, notices, the answer to send on).

use serde_json::{Value, json};

use super::messages;
use super::protocol::{Find, Open};
use crate::form::Form;
use crate::input::validate_payload;
use crate::result::{self, AskResult};
use crate::stores::history::Source;
use crate::stores::pi_session::{self, DISMISSED_ENTRY, PAYLOAD_ENTRY, SessionEntry};
use crate::strings::{question_count, reopening};

/// A form to open, and where it came from.
#[derive(Debug, Clone)]
pub struct EmbedOpening {
    pub form: Form,
    /// What opened it (the remote events' `source`).
    pub source: Source,
    pub tool_call_id: Option<String>,
    /// Lines for the host before the form opens (a notice, the payload to store).
    pub before: Vec<Value>,
}

/// What an `open` leads to.
pub enum OpenOutcome {
    Open(Box<EmbedOpening>),
    /// The payload is invalid: this result, at once.
    Refused(Box<AskResult>),
    /// Nothing to open: these lines (a notice), then the engine is done.
    Nothing(Vec<Value>),
}

/// The stored-payload entry the original appends before a form opens.
pub(super) fn stored(source: &str, params: &Value, source_entry: Option<&str>) -> Value {
    let mut data = json!({"version": 1, "source": source, "params": params});
    if let Some(id) = source_entry {
        data["sourceEntryId"] = json!(id);
    }
    data["timestamp"] = json!(crate::remote::protocol::unix_ms());
    messages::store(PAYLOAD_ENTRY, data)
}

/// Resolves an `open` for the form flows (`ask`, `dialogs`, `fallback`).
pub fn resolve(open: &Open) -> OpenOutcome {
    let Some(find) = open.find else {
        let payload = open.payload.clone().unwrap_or(Value::Null);
        return match validate_payload(&payload) {
            Ok(form) => {
                let source = open
                    .source
                    .as_deref()
                    .and_then(Source::from_name)
                    .unwrap_or_default();
                // A real tool call's payload is kept on the branch for `/ask:replay`.
                let before = if source == Source::Tool {
                    vec![stored(
                        Source::Tool.as_str(),
                        &payload,
                        open.tool_call_id.as_deref(),
                    )]
                } else {
                    Vec::new()
                };
                OpenOutcome::Open(Box::new(EmbedOpening {
                    form,
                    source,
                    tool_call_id: open.tool_call_id.clone(),
                    before,
                }))
            }
            Err(invalid) => OpenOutcome::Refused(Box::new(result::invalid_input_result(&invalid))),
        };
    };
    let entries = branch_entries(open);
    let branch: Vec<&SessionEntry> = entries.iter().collect();
    let missing = |m: pi_session::Missing, none: &str| {
        OpenOutcome::Nothing(vec![if m.incompatible {
            messages::notice("error", reopening::INCOMPATIBLE)
        } else {
            messages::notice("info", none)
        }])
    };
    match find {
        Find::Replay => match pi_session::latest_tool_form(&branch) {
            // A replay is a new flow, not the call it came from: its events get their own
            // `flow:` id, so a bridge never takes it for that call (as the original).
            Ok(found) => opened(found.form, Source::Replay, None, reopening::replaying),
            Err(m) => missing(m, reopening::NO_ASK_FORM),
        },
        Find::AnswerAgain => match pi_session::latest_extracted_form(&branch) {
            Ok(found) => opened(
                found.form,
                Source::AnswerAgain,
                None,
                reopening::reopening_answer,
            ),
            Err(m) => missing(m, reopening::NO_ANSWER_FORM),
        },
        // Extraction talks to the host: resolved by `answer::resolve` before this is reached.
        Find::Answer => OpenOutcome::Nothing(Vec::new()),
        Find::Resume => match pi_session::pending_call(&branch, &|call| {
            open.running.iter().any(|live| live == call)
        }) {
            Some(pending) => opened(
                pending.form.form,
                Source::Resume,
                Some(pending.tool_call_id),
                reopening::reopening_unanswered,
            ),
            None => OpenOutcome::Nothing(Vec::new()),
        },
    }
}

/// The session branch an `open` carries, as entries (anything but an object is skipped).
pub(super) fn branch_entries(open: &Open) -> Vec<SessionEntry> {
    open.branch
        .clone()
        .unwrap_or_default()
        .into_iter()
        .filter_map(SessionEntry::from_value)
        .collect()
}

fn opened(
    form: Form,
    source: Source,
    tool_call_id: Option<String>,
    saying: fn(&str) -> String,
) -> OpenOutcome {
    let notice = messages::notice("info", &saying(&question_count(&form)));
    OpenOutcome::Open(Box::new(EmbedOpening {
        form,
        source,
        tool_call_id,
        before: vec![notice],
    }))
}

/// What the host does once a form it opened from a command or a recovery ended: a tool call's
/// result goes back through the tool; anything else is sent on as the person's message when
/// answered, or named in a notice when cancelled. A recovered call is marked dismissed either way,
/// so it is not reopened at the next start.
pub fn after(opening: &EmbedOpening, result: &AskResult) -> Vec<Value> {
    let mut lines = Vec::new();
    if opening.source == Source::Resume
        && let Some(id) = &opening.tool_call_id
    {
        lines.push(messages::store(
            DISMISSED_ENTRY,
            json!({"toolCallId": id, "timestamp": crate::remote::protocol::unix_ms()}),
        ));
    }
    if opening.source == Source::Tool {
        return lines;
    }
    if result.details.cancelled {
        let message = if opening.source == Source::Resume {
            reopening::unanswered_dismissed("/ask:replay")
        } else {
            reopening::CANCELLED.to_owned()
        };
        lines.push(messages::notice("info", &message));
    } else {
        lines.push(messages::deliver(result.text()));
    }
    lines
}
