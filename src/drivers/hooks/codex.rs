//! Codex's `request_user_input` answered (its questions are read by [`super::Host::payload`]).
//! Pure.
//!
//! Codex's tool input: `questions: [{id, header, question, options: [{label, description}]}]`
//! (one choice each; Codex adds its own "Other"). Codex has no way for a hook to hand a tool its
//! answer, so the hook denies the call with the answers as the reason, which Codex gives the
//! model as the tool's output: JSON keyed by question id in the shape `request_user_input`
//! returns (`{"answers": {"<id>": {"answers": ["<label>", "user_note: <note>"]}}}`).

use serde_json::{Map, Value, json};

use crate::result::AskResult;

/// The hook's output for pi-ask's `result` of the ask made from `event`: always a deny, whose
/// reason is what the model reads.
pub fn output(event: &Value, result: &AskResult) -> Value {
    let reason = match super::questions::not_answered(result) {
        Some(reason) => reason,
        None => answered(event, result),
    };
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }})
}

/// The reason carrying the answers.
fn answered(event: &Value, result: &AskResult) -> String {
    let questions = event
        .pointer("/tool_input/questions")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let mut answers = Map::new();
    for (index, question) in questions.as_array().into_iter().flatten().enumerate() {
        let Some(answer) = super::questions::answer(&result.details, &questions, index) else {
            continue;
        };
        // The host's id when it has one (the model maps answers by it), else the position.
        let id = question
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.trim().is_empty())
            .map_or_else(|| format!("q{}", index + 1), str::to_owned);
        let mut said = answer.chosen;
        if let Some(note) = answer.note {
            said.push(format!("user_note: {note}"));
        }
        for (label, note) in answer.option_notes {
            said.push(format!("user_note on \"{label}\": {note}"));
        }
        answers.insert(id, json!({ "answers": said }));
    }
    format!(
        "Not an error: the user answered these questions in pi-ask, which stands in for request_user_input's picker. Their answers, keyed by question id as request_user_input returns them: {}",
        json!({ "answers": answers })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direct, Intent, Msg, ReviewAction};

    use crate::drivers::hooks::questions::NotOurs;

    fn payload(event: &Value) -> Result<Value, NotOurs> {
        crate::drivers::hooks::Host::Codex.payload(event)
    }

    fn event() -> Value {
        json!({"hook_event_name":"PreToolUse","tool_name":"request_user_input","tool_input":{"questions":[
            {"id":"db","header":"Database","question":"Which database?","options":[
                {"label":"PostgreSQL (Recommended)","description":"Solid"},{"label":"SQLite","description":"One file"}]},
            {"id":"ci","header":"CI","question":"Which CI?","options":[
                {"label":"GitHub","description":"Hosted"},{"label":"Local","description":"Here"}]}]}})
    }

    fn answered_with(msgs: Vec<Msg>) -> AskResult {
        crate::drivers::hooks::questions::result_after(&payload(&event()).unwrap(), msgs)
    }

    /// The answers JSON in a deny reason.
    fn answers_in(out: &Value) -> Value {
        let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        let json = &reason[reason.find('{').unwrap()..];
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn only_request_user_input_is_ours_and_the_recommended_mark_is_read() {
        let p = payload(&event()).unwrap();
        assert_eq!(p["questions"][0]["options"][0]["label"], "PostgreSQL");
        assert_eq!(p["questions"][0]["options"][0]["recommended"], true);
        let mut claude = event();
        claude["tool_name"] = "AskUserQuestion".into();
        assert_eq!(payload(&claude), Err(NotOurs::OtherEvent));
    }

    #[test]
    fn answers_go_back_keyed_by_id_with_the_hosts_labels_and_notes() {
        let result = answered_with(vec![
            Msg::Direct(Direct::Note {
                option: None,
                text: "we have one server".into(),
            }),
            Msg::Direct(Direct::Choose(vec![0])),
            Msg::Direct(Direct::Choose(vec![1])),
            Msg::Intent(Intent::Review(ReviewAction::Submit)),
        ]);
        let out = output(&event(), &result);
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(
            answers_in(&out),
            json!({"answers": {
                "db": {"answers": ["PostgreSQL (Recommended)", "user_note: we have one server"]},
                "ci": {"answers": ["Local"]}
            }})
        );
    }

    #[test]
    fn a_cancel_says_so_and_carries_no_answers() {
        let result = answered_with(vec![Msg::Intent(Intent::Review(ReviewAction::Cancel))]);
        let out = output(&event(), &result);
        let reason = out["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap();
        assert!(reason.contains("declined to answer"), "{reason}");
        assert!(!reason.contains("\"answers\""), "{reason}");
    }
}
