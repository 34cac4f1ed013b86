//! The remote event protocol of the original pi-ask (`started`, `completed`, `submit`,
//! `submit-result`), as JSON values with a `type` field, and the validation of a `submit` against
//! the open flow. Validation is exact: ids and option values from the started event, labels and
//! indices recomputed, nothing guessed from labels.

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::form::{Question, QuestionType};
use crate::model::AnswerState;
use crate::result::AskResult;

/// The protocol version every event carries.
pub const VERSION: u64 = 1;

/// What a listener needs to know about the open flow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowInfo {
    /// The flow's id (a UUID), which submits name.
    pub flow_id: String,
    /// The tool call the flow answers, if the host gave one.
    pub tool_call_id: Option<String>,
    /// `tool`, `answer`, `answer:again`, `ask:replay` or `ask:resume`.
    pub source: String,
    /// The form's title, if any.
    pub title: Option<String>,
}

pub use crate::clock::unix_ms;

/// A new flow id: `flow:<ms>:<random>`, or `tool:<id>` for a tool call.
pub fn flow_id(tool_call_id: Option<&str>) -> String {
    match tool_call_id {
        Some(id) => format!("tool:{id}"),
        None => {
            let random = uuid::Uuid::new_v4().simple().to_string();
            format!("flow:{}:{}", unix_ms(), &random[..6])
        }
    }
}

fn question_json(q: &Question) -> Value {
    let options: Vec<Value> = q
        .options
        .iter()
        .map(|o| {
            let mut v = json!({"value": o.value, "label": o.label});
            if let Some(d) = &o.description {
                v["description"] = d.clone().into();
            }
            if let Some(p) = &o.preview {
                v["preview"] = p.clone().into();
            }
            if let Some(r) = o.recommended {
                v["recommended"] = r.into();
            }
            v
        })
        .collect();
    let mut v = json!({
        "id": q.id,
        "label": q.label,
        "prompt": q.prompt,
        "type": q.requested_type.as_str(),
        "required": q.required,
        "options": options,
    });
    if let Some(t) = q.presented_type_if_different() {
        v["presentedType"] = t.as_str().into();
    }
    if q.freeform {
        v["freeform"] = true.into();
    }
    v
}

fn with_flow(mut event: Value, flow: &FlowInfo) -> Value {
    if let Some(id) = &flow.tool_call_id {
        event["toolCallId"] = id.clone().into();
    }
    event
}

/// The `started` event.
pub fn started(flow: &FlowInfo, questions: &[Question], created_at: u64) -> Value {
    let mut event = json!({
        "type": "started",
        "version": VERSION,
        "flowId": flow.flow_id,
        "source": flow.source,
    });
    event = with_flow(event, flow);
    if let Some(title) = &flow.title {
        event["title"] = title.clone().into();
    }
    event["questions"] = questions.iter().map(question_json).collect();
    event["createdAt"] = created_at.into();
    event
}

/// The `completed` event. Its `result` is the bare result object (the tool result's `details`:
/// `title`, `cancelled`, `mode`, `questions`, `answers`, ...), as the original's `AskResult`, so a
/// bridge written for the original reads `result.answers`.
pub fn completed(flow: &FlowInfo, result: &AskResult, completed_at: u64) -> Value {
    let event = json!({
        "type": "completed",
        "version": VERSION,
        "flowId": flow.flow_id,
        "source": flow.source,
    });
    let mut event = with_flow(event, flow);
    event["result"] = serde_json::to_value(&result.details).unwrap_or(Value::Null);
    event["completedAt"] = completed_at.into();
    event
}

/// Why a submit was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    #[error("{}: {}", self.kind(), self.message())]
    /// No flow with that id is open.
    FlowNotFound,
    #[error("{}: {}", self.kind(), self.message())]
    /// The submit is malformed (says how).
    InvalidRequest(String),
    #[error("{}: {}", self.kind(), self.message())]
    /// The answer does not fit the form (says how).
    InvalidAnswer(String),
}

impl SubmitError {
    /// The error's kind as the remote events spell it (`invalid_answer`).
    pub fn kind(&self) -> &'static str {
        match self {
            SubmitError::FlowNotFound => "flow_not_found",
            SubmitError::InvalidRequest(_) => "invalid_request",
            SubmitError::InvalidAnswer(_) => "invalid_answer",
        }
    }

    /// The error's message, the original's words.
    pub fn message(&self) -> &str {
        match self {
            SubmitError::FlowNotFound => "Ask flow is not active.",
            SubmitError::InvalidRequest(m) | SubmitError::InvalidAnswer(m) => m,
        }
    }
}

/// How a remote answer completes the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteMode {
    /// Complete with Submit.
    Submit,
    /// Complete with Elaborate.
    Elaborate,
}

/// An accepted response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteResponse {
    /// Cancel the flow.
    Cancel,
    /// One answer state per question of the flow, in order (absent questions are empty: a remote
    /// answer replaces the answers entered in the UI).
    Answer {
        /// How the answer completes the flow.
        mode: RemoteMode,
        /// The answers.
        answers: Vec<AnswerState>,
    },
}

/// A submit, with what is needed to reply to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submit {
    /// The submit's request id, which the reply carries.
    pub request_id: String,
    /// The flow it answers.
    pub flow_id: String,
    /// What it asks for.
    pub response: RemoteResponse,
}

/// The `submit-result` for a request (ids as given, when they were strings).
pub fn submit_result(
    request_id: Option<&str>,
    flow_id: Option<&str>,
    outcome: &Result<(), SubmitError>,
) -> Value {
    let mut event = json!({"type": "submit-result", "version": VERSION});
    event["requestId"] = request_id.map_or(Value::Null, Value::from);
    event["flowId"] = flow_id.map_or(Value::Null, Value::from);
    match outcome {
        Ok(()) => event["ok"] = true.into(),
        Err(e) => {
            event["ok"] = false.into();
            event["error"] = e.kind().into();
            event["message"] = e.message().into();
        }
    }
    event
}

fn invalid_request(m: &str) -> SubmitError {
    SubmitError::InvalidRequest(m.to_owned())
}

fn invalid_answer(m: String) -> SubmitError {
    SubmitError::InvalidAnswer(m)
}

/// The request and flow ids of a submit value, for the reply, when they are strings.
pub fn ids_of(value: &Value) -> (Option<String>, Option<String>) {
    let text = |k: &str| value.get(k).and_then(Value::as_str).map(str::to_owned);
    (text("requestId"), text("flowId"))
}

/// Validates a `submit` value against the open flow, in the original's order of checks.
pub fn validate_submit(
    value: &Value,
    active_flow: &str,
    questions: &[Question],
) -> Result<Submit, SubmitError> {
    let Some(obj) = value.as_object() else {
        return Err(invalid_request("Submit event must be an object."));
    };
    if obj.get("version").and_then(Value::as_u64) != Some(VERSION) {
        return Err(invalid_request("Submit event version must be 1."));
    }
    let request_id = match obj.get("requestId").and_then(Value::as_str) {
        Some(id) if !id.trim().is_empty() => id.to_owned(),
        _ => return Err(invalid_request("Submit event requestId is required.")),
    };
    let flow_id = match obj.get("flowId").and_then(Value::as_str) {
        Some(id) if !id.trim().is_empty() => id.to_owned(),
        _ => return Err(invalid_request("Submit event flowId is required.")),
    };
    if flow_id != active_flow {
        return Err(SubmitError::FlowNotFound);
    }
    let Some(response) = obj.get("response").and_then(Value::as_object) else {
        return Err(invalid_request("Submit response must be an object."));
    };
    if let Some(key) = unknown_key(obj, SUBMIT_KEYS) {
        return Err(invalid_request(&unknown_key_message(
            key,
            "the submit event",
            SUBMIT_KEYS,
        )));
    }
    let response = match response.get("kind").and_then(Value::as_str) {
        Some("cancel") => {
            if let Some(key) = unknown_key(response, CANCEL_KEYS) {
                return Err(invalid_request(&unknown_key_message(
                    key,
                    "a cancel response",
                    CANCEL_KEYS,
                )));
            }
            RemoteResponse::Cancel
        }
        Some("answer") => validate_answer(response, questions)?,
        _ => {
            return Err(invalid_request(
                r#"Submit response kind must be "answer" or "cancel"."#,
            ));
        }
    };
    Ok(Submit {
        request_id,
        flow_id,
        response,
    })
}

/// The keys of a submit event (`type` frames it on the socket).
const SUBMIT_KEYS: &[&str] = &["type", "version", "requestId", "flowId", "response"];
/// The keys of each kind of response.
const CANCEL_KEYS: &[&str] = &["kind"];
const ANSWER_RESPONSE_KEYS: &[&str] = &["kind", "mode", "answers"];
/// The keys of one question's answer. Labels and indices are not among them: pi-ask recomputes
/// them from the values, so a sender that names them has misread the protocol.
const ANSWER_KEYS: &[&str] = &["values", "customText", "note", "optionNotes"];

/// The first key of `obj` that is not in `known`. A misspelled key (`value` for `values`) would
/// otherwise be skipped and the answer it carried silently lost, so every level refuses one.
fn unknown_key<'a>(obj: &'a Map<String, Value>, known: &[&str]) -> Option<&'a str> {
    obj.keys().map(String::as_str).find(|k| !known.contains(k))
}

fn unknown_key_message(key: &str, place: &str, known: &[&str]) -> String {
    format!(
        r#"Unknown key "{key}" in {place}; known keys: {}."#,
        known.join(", ")
    )
}

fn validate_answer(
    response: &Map<String, Value>,
    questions: &[Question],
) -> Result<RemoteResponse, SubmitError> {
    if let Some(key) = unknown_key(response, ANSWER_RESPONSE_KEYS) {
        return Err(invalid_answer(unknown_key_message(
            key,
            "an answer response",
            ANSWER_RESPONSE_KEYS,
        )));
    }
    let Some(answers) = response.get("answers").and_then(Value::as_object) else {
        return Err(invalid_answer(
            "Answer response must include an answers object.".into(),
        ));
    };
    let mode = match response.get("mode") {
        None | Some(Value::Null) => RemoteMode::Submit,
        Some(Value::String(m)) if m == "submit" => RemoteMode::Submit,
        Some(Value::String(m)) if m == "elaborate" => RemoteMode::Elaborate,
        Some(_) => {
            return Err(invalid_answer(
                r#"Answer mode must be "submit" or "elaborate"."#.into(),
            ));
        }
    };
    let mut states = vec![AnswerState::default(); questions.len()];
    for (id, answer) in answers {
        let Some(q) = questions.iter().position(|q| &q.id == id) else {
            return Err(invalid_answer(format!(r#"Unknown question id "{id}"."#)));
        };
        states[q] = answer_state(&questions[q], answer)?;
    }
    Ok(RemoteResponse::Answer {
        mode,
        answers: states,
    })
}

fn answer_state(question: &Question, answer: &Value) -> Result<AnswerState, SubmitError> {
    let id = &question.id;
    let Some(obj) = answer.as_object() else {
        return Err(invalid_answer(format!(
            r#"Answer for question "{id}" must be an object."#
        )));
    };
    if let Some(key) = unknown_key(obj, ANSWER_KEYS) {
        return Err(invalid_answer(unknown_key_message(
            key,
            &format!(r#"the answer for question "{id}""#),
            ANSWER_KEYS,
        )));
    }
    let one_choice = question.presented_type != QuestionType::Multi;
    let mut state = AnswerState::default();
    if let Some(values) = obj.get("values").filter(|v| !v.is_null()) {
        let strings: Option<Vec<&str>> = values
            .as_array()
            .and_then(|items| items.iter().map(Value::as_str).collect());
        let Some(strings) = strings else {
            return Err(invalid_answer(format!(
                r#"Answer values for question "{id}" must be strings."#
            )));
        };
        let unique: std::collections::HashSet<&str> = strings.iter().copied().collect();
        if unique.len() != strings.len() {
            return Err(invalid_answer(format!(
                r#"Answer values for question "{id}" must be unique."#
            )));
        }
        if one_choice && strings.len() > 1 {
            return Err(invalid_answer(format!(
                r#"Question "{id}" accepts only one selected value."#
            )));
        }
        for value in strings {
            let Some(index) = question.option_index(value) else {
                return Err(invalid_answer(format!(
                    r#"Unknown option value "{value}" for question "{id}"."#
                )));
            };
            state.selected.push(index);
        }
    }
    match obj.get("customText") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => {
            if one_choice && !state.selected.is_empty() {
                return Err(invalid_answer(format!(
                    r#"Question "{id}" cannot combine a selected value and custom text."#
                )));
            }
            let text = text.trim();
            if !text.is_empty() {
                state.custom_text = Some(text.to_owned());
                state.custom_selected = true;
            }
        }
        Some(_) => {
            return Err(invalid_answer(format!(
                r#"Custom text for question "{id}" must be a string."#
            )));
        }
    }
    match obj.get("note") {
        None | Some(Value::Null) => {}
        Some(Value::String(note)) => {
            state.note = Some(note.trim().to_owned()).filter(|n| !n.is_empty());
        }
        Some(_) => {
            return Err(invalid_answer(format!(
                r#"Note for question "{id}" must be a string."#
            )));
        }
    }
    if let Some(notes) = obj.get("optionNotes").filter(|v| !v.is_null()) {
        let Some(map) = notes.as_object() else {
            return Err(invalid_answer(format!(
                r#"Option notes for question "{id}" must be string values."#
            )));
        };
        let mut option_notes = IndexMap::new();
        for (value, note) in map {
            let Some(note) = note.as_str() else {
                return Err(invalid_answer(format!(
                    r#"Option notes for question "{id}" must be string values."#
                )));
            };
            if question.option_index(value).is_none() {
                return Err(invalid_answer(format!(
                    r#"Unknown option note value "{value}" for question "{id}"."#
                )));
            }
            let note = note.trim();
            if !note.is_empty() {
                option_notes.insert(value.clone(), note.to_owned());
            }
        }
        state.option_notes = option_notes;
    }
    Ok(state)
}
