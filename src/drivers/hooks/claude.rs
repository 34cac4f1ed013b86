//! Claude Code's `AskUserQuestion` answered: pi-ask's result as the hook's answer (the event's
//! questions are read by [`super::Host::payload`]). Pure.
//!
//! Claude Code's tool input: `questions: [{question, header, multiSelect, options: [{label,
//! description}]}]`; its "Other" is pi-ask's own `Type your own` row. The hook answers with
//! `permissionDecision: "allow"` and the tool input updated with `answers` (question text → the
//! chosen label, several joined with ", ", or the person's own words), and notes as
//! `additionalContext`. A cancelled form is the host's own deny, never a made-up answer; an
//! elaborate request is a deny whose reason asks the model to elaborate.

use serde_json::{Map, Value, json};

use crate::result::AskResult;

/// The hook's output for pi-ask's `result` of the ask made from `event`.
pub fn output(event: &Value, result: &AskResult) -> Value {
    let details = &result.details;
    if let Some(reason) = super::questions::not_answered(result) {
        return deny(&reason);
    }
    let questions = event
        .pointer("/tool_input/questions")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let mut answers = Map::new();
    let mut notes = Vec::new();
    for index in 0..questions.as_array().map_or(0, Vec::len) {
        let (Some(text), Some(answer)) = (
            super::questions::question_text(&questions, index),
            super::questions::answer(details, &questions, index),
        ) else {
            continue;
        };
        if !answer.chosen.is_empty() {
            answers.insert(text.to_owned(), answer.chosen.join(", ").into());
        }
        if let Some(note) = &answer.note {
            notes.push(format!("On \"{text}\": {note}"));
        }
        for (label, note) in &answer.option_notes {
            notes.push(format!("On \"{text}\", option \"{label}\": {note}"));
        }
    }
    let mut specific = json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": {"questions": questions, "answers": answers},
    });
    if !notes.is_empty() {
        specific["additionalContext"] = format!(
            "The user's notes on their answers (given in pi-ask): {}",
            notes.join("; ")
        )
        .into();
    }
    json!({ "hookSpecificOutput": specific })
}

fn deny(reason: &str) -> Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direct, Intent, Msg, ReviewAction};

    use crate::drivers::hooks::questions::NotOurs;

    fn payload(event: &Value) -> Result<Value, NotOurs> {
        crate::drivers::hooks::Host::Claude.payload(event)
    }

    fn event() -> Value {
        json!({"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[
            {"question":"Which database?","header":"Database","multiSelect":false,"options":[
                {"label":"PostgreSQL","description":"Solid"},{"label":"SQLite"}]},
            {"question":"Which checks?","header":"Checks","multiSelect":true,"options":[
                {"label":"Lint"},{"label":"Tests"}]}]}})
    }

    /// The result of the ask made from `event` after `msgs`, as the form builds it.
    fn answered(msgs: Vec<Msg>) -> AskResult {
        crate::drivers::hooks::questions::result_after(&payload(&event()).unwrap(), msgs)
    }

    #[test]
    fn the_questions_become_an_ask_and_other_events_are_not_ours() {
        let p = payload(&event()).unwrap();
        assert_eq!(p["questions"][0]["label"], "Database");
        assert_eq!(p["questions"][1]["type"], "multi");
        assert_eq!(p["questions"][0]["options"][0]["description"], "Solid");
        assert!(crate::input::validate_payload(&p).is_ok());
        let mut other = event();
        other["tool_name"] = "Bash".into();
        assert_eq!(payload(&other), Err(NotOurs::OtherEvent));
        let mut empty = event();
        empty["tool_input"]["questions"] = json!([]);
        assert_eq!(payload(&empty), Err(NotOurs::NoQuestions));
        // Blank questions and labels are left out; what is left must be an ask pi-ask can show.
        let mut blank = event();
        blank["tool_input"]["questions"][0]["question"] = " ".into();
        blank["tool_input"]["questions"][1]["options"][0]["label"] = "".into();
        let p = payload(&blank).unwrap();
        assert_eq!(p["questions"].as_array().unwrap().len(), 1);
        assert_eq!(p["questions"][0]["options"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn answers_labels_own_words_and_notes_go_back_in_claudes_shape() {
        let result = answered(vec![
            Msg::Direct(Direct::Note {
                option: None,
                text: "small steps".into(),
            }),
            Msg::Direct(Direct::Choose(vec![1])),
            Msg::Direct(Direct::Choose(vec![0, 1])),
            Msg::Intent(Intent::Review(ReviewAction::Submit)),
        ]);
        let out = output(&event(), &result);
        let specific = &out["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "allow");
        assert_eq!(
            specific["updatedInput"]["answers"]["Which database?"],
            "SQLite"
        );
        assert_eq!(
            specific["updatedInput"]["answers"]["Which checks?"],
            "Lint, Tests"
        );
        assert_eq!(
            specific["updatedInput"]["questions"],
            event()["tool_input"]["questions"]
        );
        assert!(
            specific["additionalContext"]
                .as_str()
                .unwrap()
                .contains("small steps")
        );
    }

    #[test]
    fn a_cancel_is_the_hosts_deny_never_an_answer() {
        let result = answered(vec![Msg::Intent(Intent::Review(ReviewAction::Cancel))]);
        let out = output(&event(), &result);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert!(out["hookSpecificOutput"].get("updatedInput").is_none());
    }
}
