//! What replay, resume and answer look for on a session's current branch, with the original's
//! rules: stored `ask:payload` entries first (revalidated), the `ask_user` tool call's own
//! arguments when the stored payload is missing or invalid, and for resume only calls with neither
//! a tool result nor a dismissal.

use std::collections::HashSet;

use serde_json::Value;

use super::SessionEntry;
use crate::form::Form;
use crate::input;

/// The custom entry type under which pi-ask stores payloads.
pub const PAYLOAD_ENTRY: &str = "ask:payload";
/// The custom entry type that marks an interrupted call as dismissed.
pub const DISMISSED_ENTRY: &str = "ask:pending-dismissed";
/// The stored payload format version this reader understands.
const PAYLOAD_VERSION: u64 = 1;

/// A form found on a branch.
#[derive(Debug, Clone, PartialEq)]
pub struct BranchForm {
    /// The payload as stored (what the history records).
    pub payload: Value,
    /// The form, validated again.
    pub form: Form,
    /// The `ask_user` tool call it belongs to.
    pub tool_call_id: Option<String>,
    /// The entry it was found in (the `ask:payload` entry or the assistant message).
    pub entry_id: Option<String>,
    /// Whether it came from a stored `ask:payload` (else from the tool call's arguments).
    pub stored: bool,
}

/// Nothing to open: `incompatible` when a stored form exists but no longer validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Missing {
    /// The stored payload no longer validates (the engine is newer than the ask).
    pub incompatible: bool,
}

/// An `ask:payload` entry's params when it has this source and the version this reader knows.
fn stored_params<'a>(entry: &'a SessionEntry, source: &str) -> Option<&'a Value> {
    let data = entry.custom_data(PAYLOAD_ENTRY)?;
    (data.get("version").and_then(Value::as_u64) == Some(PAYLOAD_VERSION)
        && data.get("source").and_then(Value::as_str) == Some(source))
    .then(|| data.get("params"))
    .flatten()
}

fn stored_source_entry(entry: &SessionEntry) -> Option<String> {
    entry
        .custom_data(PAYLOAD_ENTRY)?
        .get("sourceEntryId")?
        .as_str()
        .map(str::to_owned)
}

/// How a stored or called payload is validated: as a real `ask_user` call, or as an extracted
/// form (freeform options allowed).
type Validate = fn(&Value) -> Result<Form, input::InvalidInput>;

/// The newest `ask:payload` of `source` on the branch among those `accept` takes that still
/// validates; `Missing::incompatible` when a matching one no longer does.
fn newest_stored(
    branch: &[&SessionEntry],
    source: &str,
    validate: Validate,
    accept: impl Fn(&SessionEntry) -> bool,
) -> Result<BranchForm, Missing> {
    let mut incompatible = false;
    for entry in branch.iter().rev().filter(|e| accept(e)) {
        let Some(params) = stored_params(entry, source) else {
            continue;
        };
        match validate(params) {
            Ok(form) => {
                return Ok(BranchForm {
                    payload: params.clone(),
                    form,
                    tool_call_id: stored_source_entry(entry),
                    entry_id: entry.id.clone(),
                    stored: true,
                });
            }
            Err(_) => incompatible = true,
        }
    }
    Err(Missing { incompatible })
}

/// A form from a tool call's own arguments, when they validate.
fn from_call(entry: &SessionEntry, call: Option<String>, args: &Value) -> Option<BranchForm> {
    let form = input::validate_payload(args).ok()?;
    Some(BranchForm {
        payload: args.clone(),
        form,
        tool_call_id: call,
        entry_id: entry.id.clone(),
        stored: false,
    })
}

/// The `ask_user` tool calls of an assistant message: (call id, arguments).
fn ask_user_calls(entry: &SessionEntry) -> Vec<(Option<String>, &Value)> {
    if entry.role() != Some("assistant") {
        return Vec::new();
    }
    let Some(blocks) = entry
        .message()
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter(|b| {
            b.get("type").and_then(Value::as_str) == Some("toolCall")
                && b.get("name").and_then(Value::as_str) == Some("ask_user")
        })
        .filter_map(|b| {
            let id = b.get("id").and_then(Value::as_str).map(str::to_owned);
            Some((id, b.get("arguments")?))
        })
        .collect()
}

/// The newest real `ask_user` form on the branch (`pi-ask replay --session`).
pub fn latest_tool_form(branch: &[&SessionEntry]) -> Result<BranchForm, Missing> {
    let stored = newest_stored(branch, "tool", input::validate_payload, |_| true);
    let Err(missing) = stored else {
        return stored;
    };
    // No valid stored payload: the newest call whose own arguments validate.
    let mut incompatible = missing.incompatible;
    for entry in branch.iter().rev() {
        for (call, args) in ask_user_calls(entry).into_iter().rev() {
            match from_call(entry, call, args) {
                Some(found) => return Ok(found),
                None => incompatible = true,
            }
        }
    }
    Err(Missing { incompatible })
}

/// The newest extracted form on the branch (`pi-ask answer --again --session`). Its entry is the
/// assistant message it was extracted from (the payload's `sourceEntryId`).
pub fn latest_extracted_form(branch: &[&SessionEntry]) -> Result<BranchForm, Missing> {
    let found = newest_stored(
        branch,
        "answer-extraction",
        input::validate_extracted_payload,
        |_| true,
    )?;
    Ok(BranchForm {
        entry_id: found.tool_call_id.or(found.entry_id),
        tool_call_id: None,
        ..found
    })
}

/// An `ask_user` call that was interrupted: no tool result, no dismissal.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The tool call's id.
    pub tool_call_id: String,
    /// Its form.
    pub form: BranchForm,
}

/// The newest `ask_user` call on the branch with neither a tool result nor a dismissal (an
/// `ask:pending-dismissed` entry on the branch, or `dismissed(call id)` from pi-ask's history),
/// whose stored payload (matched by `sourceEntryId`) or own arguments validate.
pub fn pending_call(branch: &[&SessionEntry], dismissed: &dyn Fn(&str) -> bool) -> Option<Pending> {
    let mut resolved: HashSet<&str> = HashSet::new();
    for entry in branch {
        if entry.role() == Some("toolResult")
            && let Some(id) = entry
                .message()
                .and_then(|m| m.get("toolCallId"))
                .and_then(Value::as_str)
        {
            resolved.insert(id);
        }
        if let Some(id) = entry
            .custom_data(DISMISSED_ENTRY)
            .and_then(|d| d.get("toolCallId"))
            .and_then(Value::as_str)
        {
            resolved.insert(id);
        }
    }
    for entry in branch.iter().rev() {
        for (call, args) in ask_user_calls(entry).into_iter().rev() {
            let Some(call) = call else { continue };
            if resolved.contains(call.as_str()) || dismissed(&call) {
                continue;
            }
            let own_payload =
                |e: &SessionEntry| stored_source_entry(e).as_deref() == Some(call.as_str());
            let stored = newest_stored(branch, "tool", input::validate_payload, own_payload).ok();
            let Some(form) = stored.or_else(|| from_call(entry, Some(call.clone()), args)) else {
                continue;
            };
            return Some(Pending {
                tool_call_id: call,
                form,
            });
        }
    }
    None
}

/// The latest assistant message on the branch and the user message before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssistantTurn {
    /// The entry's id.
    pub entry_id: Option<String>,
    /// The turn's text.
    pub text: String,
    /// The user's message before it, if any.
    pub previous_user: Option<String>,
}

/// Why the latest assistant message cannot be extracted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The branch has no assistant turn.
    #[error("No assistant message found to extract questions from.")]
    NoAssistant,
    #[error(
        "Latest assistant message is incomplete ({0}); wait for it to finish, then run pi-ask answer again."
    )]
    /// The newest assistant turn has not finished (why).
    Incomplete(String),
}

/// The text of a message's content: a string, or its text blocks joined by newlines.
fn content_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The latest assistant message, refused unless it finished with `stop`.
pub fn latest_assistant_turn(branch: &[&SessionEntry]) -> Result<AssistantTurn, TurnError> {
    let at = branch
        .iter()
        .rposition(|e| e.role() == Some("assistant"))
        .ok_or(TurnError::NoAssistant)?;
    let entry = branch[at];
    let message = entry.message().expect("an entry with a role has a message");
    let reason = message
        .get("stopReason")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    if reason != "stop" {
        return Err(TurnError::Incomplete(reason.to_owned()));
    }
    let previous_user = branch[..at]
        .iter()
        .rev()
        .find(|e| e.role() == Some("user"))
        .and_then(|e| e.message())
        .map(content_text);
    Ok(AssistantTurn {
        entry_id: entry.id.clone(),
        text: content_text(message),
        previous_user,
    })
}
