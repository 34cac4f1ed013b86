//! Gemini CLI's `ask_user` in pi-ask's terms, and back. Pure.
//!
//! Gemini CLI's tool input: `questions: [{question, header, type: choice|yesno|text, options:
//! [{label, description}], multiSelect, placeholder}]`. A `yesno` question without options is
//! asked with Yes and No; a `text` question (free-form only) is not something pi-ask's form asks,
//! so an event with one is left to Gemini CLI. Like Codex, Gemini CLI has no way for a hook to hand
//! a tool its answer: the `BeforeTool` hook denies the call (`{"decision": "deny", "reason"}`)
//! with the answers as the reason, keyed by question index as `ask_user` returns them
//! (`{"answers": {"0": "<label>"}}`; several labels joined with ", ").

use serde_json::{Map, Value, json};

use super::questions::NotOurs;
use crate::result::AskResult;

/// The event's questions as pi-ask asks them: a `yesno` question gets Yes and No when it has no
/// options; an event with a free-form only (`text`) question is not pi-ask's.
pub(super) fn questions_of(event: &Value) -> Result<Value, NotOurs> {
    let questions = event
        .pointer("/tool_input/questions")
        .and_then(Value::as_array)
        .ok_or(NotOurs::NoQuestions)?;
    let mut asked = Vec::new();
    for question in questions {
        let mut question = question.clone();
        match question.get("type").and_then(Value::as_str) {
            Some("text") => {
                return Err(NotOurs::Invalid(
                    "a free-form (text) question; Gemini CLI asks it".into(),
                ));
            }
            Some("yesno") => {
                let has_options = question
                    .get("options")
                    .and_then(Value::as_array)
                    .is_some_and(|o| !o.is_empty());
                if !has_options {
                    question["options"] = json!([{"label": "Yes"}, {"label": "No"}]);
                }
            }
            _ => {}
        }
        asked.push(question);
    }
    Ok(Value::Array(asked))
}

/// The hook's output for pi-ask's `result` of the ask made from `event`: always a deny, whose
/// reason is what the model reads.
pub fn output(event: &Value, result: &AskResult) -> Value {
    let reason = match super::questions::not_answered(result) {
        Some(reason) => reason,
        None => answered(event, result),
    };
    json!({"decision": "deny", "reason": reason})
}

/// The reason carrying the answers.
fn answered(event: &Value, result: &AskResult) -> String {
    let questions = questions_of(event).unwrap_or(Value::Array(Vec::new()));
    let mut answers = Map::new();
    let mut notes = Vec::new();
    for index in 0..questions.as_array().map_or(0, Vec::len) {
        let Some(answer) = super::questions::answer(&result.details, &questions, index) else {
            continue;
        };
        answers.insert(index.to_string(), answer.chosen.join(", ").into());
        if let Some(note) = answer.note {
            notes.push(format!("question {index}: {note}"));
        }
        for (label, note) in answer.option_notes {
            notes.push(format!("question {index}, option \"{label}\": {note}"));
        }
    }
    let mut said = format!(
        "Not an error: the user answered these questions in pi-ask, which stands in for ask_user's dialog. Their answers, keyed by question index as ask_user returns them: {}",
        json!({ "answers": answers })
    );
    if !notes.is_empty() {
        said.push_str(&format!(" The user's notes: {}", notes.join("; ")));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direct, Intent, Msg, ReviewAction};

    fn payload(event: &Value) -> Result<Value, NotOurs> {
        crate::drivers::hooks::Host::Gemini.payload(event)
    }

    fn event() -> Value {
        json!({"hook_event_name": "BeforeTool", "tool_name": "ask_user", "tool_input": {"questions": [
            {"question": "Which database?", "header": "Database", "type": "choice", "options": [
                {"label": "PostgreSQL", "description": "Solid"}, {"label": "SQLite", "description": "One file"}]},
            {"question": "Ship it today?", "header": "Ship", "type": "yesno"}]}})
    }

    fn answered_with(msgs: Vec<Msg>) -> AskResult {
        crate::drivers::hooks::questions::result_after(&payload(&event()).unwrap(), msgs)
    }

    #[test]
    fn yes_no_gets_its_options_and_a_free_form_question_is_left_to_gemini() {
        let p = payload(&event()).unwrap();
        assert_eq!(p["questions"][1]["options"][0]["label"], "Yes");
        let mut text = event();
        text["tool_input"]["questions"][1]["type"] = "text".into();
        assert!(matches!(payload(&text), Err(NotOurs::Invalid(_))));
        let mut codex = event();
        codex["hook_event_name"] = "PreToolUse".into();
        assert_eq!(payload(&codex), Err(NotOurs::OtherEvent));
    }

    #[test]
    fn answers_go_back_keyed_by_index_and_a_cancel_carries_none() {
        let result = answered_with(vec![
            Msg::Direct(Direct::Choose(vec![1])),
            Msg::Direct(Direct::Note {
                option: None,
                text: "after lunch".into(),
            }),
            Msg::Direct(Direct::Choose(vec![0])),
            Msg::Intent(Intent::Review(ReviewAction::Submit)),
        ]);
        let out = output(&event(), &result);
        assert_eq!(out["decision"], "deny");
        let reason = out["reason"].as_str().unwrap();
        assert!(
            reason.contains(r#"{"answers":{"0":"SQLite","1":"Yes"}}"#),
            "{reason}"
        );
        assert!(reason.contains("question 1: after lunch"), "{reason}");
        let cancelled = answered_with(vec![Msg::Intent(Intent::Review(ReviewAction::Cancel))]);
        let out = output(&event(), &cancelled);
        let reason = out["reason"].as_str().unwrap();
        assert!(reason.contains("declined to answer"), "{reason}");
        assert!(
            !reason.contains(r#"{"answers""#),
            "no made-up answer: {reason}"
        );
    }
}
