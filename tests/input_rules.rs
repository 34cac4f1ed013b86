//! One test per Input rule of the contract.

mod common;

use common::*;
use pi_ask::form::{CUSTOM_ROW_LABEL, QuestionType};
use pi_ask::input::{Issue, derive_label, parse_payload, validate_payload};
use serde_json::json;

fn issues(payload: serde_json::Value) -> Vec<(String, String)> {
    validate_payload(&payload)
        .expect_err("payload should be invalid")
        .issues
        .into_iter()
        .map(|Issue { path, message }| (path, message))
        .collect()
}

fn one(path: &str, message: &str) -> Vec<(String, String)> {
    vec![(path.to_owned(), message.to_owned())]
}

#[test]
fn at_least_one_question_is_required() {
    assert_eq!(
        issues(json!({ "questions": [] })),
        one("questions", "At least one question is required")
    );
    assert_eq!(
        issues(json!({})),
        one("questions", "At least one question is required")
    );
}

#[test]
fn every_question_needs_non_empty_trimmed_id_and_prompt() {
    let got = issues(payload(vec![
        json!({ "id": "   ", "prompt": "\t", "options": [{ "value": "a", "label": "A" }] }),
    ]));
    assert_eq!(
        got,
        vec![
            (
                "questions[0].id".into(),
                "Question 1: id is required".into()
            ),
            (
                "questions[0].prompt".into(),
                "Question 1: prompt is required".into()
            ),
        ]
    );
}

#[test]
fn ids_prompts_and_option_text_are_trimmed() {
    let f = form(
        json!({ "questions": [{ "id": "  scope  ", "prompt": "  Which scope? ", "options": [
        { "value": " small ", "label": " Small ", "description": " Lowest risk " }
    ] }] }),
    );
    let q = &f.questions[0];
    assert_eq!(
        (q.id.as_str(), q.prompt.as_str()),
        ("scope", "Which scope?")
    );
    let o = &q.options[0];
    assert_eq!(
        (o.value.as_str(), o.label.as_str(), o.description.as_deref()),
        ("small", "Small", Some("Lowest risk"))
    );
    assert_eq!(o.preview, None);
    assert_eq!(o.recommended, None, "recommended is only kept when present");
}

#[test]
fn every_question_needs_at_least_one_option() {
    let got = issues(payload(vec![
        json!({ "id": "q", "prompt": "P", "options": [] }),
    ]));
    assert_eq!(
        got,
        one(
            "questions[0].options",
            "Question 1: at least one option is required"
        )
    );
    let got = issues(payload(vec![json!({ "id": "q", "prompt": "P" })]));
    assert_eq!(
        got,
        one(
            "questions[0].options",
            "Question 1: at least one option is required"
        )
    );
}

#[test]
fn question_ids_are_unique_within_a_call() {
    let got = issues(payload(vec![single("scope"), single("scope")]));
    assert_eq!(
        got,
        one(
            "questions[1].id",
            r#"Question 2: duplicate question id "scope""#
        )
    );
}

#[test]
fn option_values_are_unique_within_a_question() {
    let got = issues(payload(vec![
        json!({ "id": "size", "prompt": "P", "options": [
        { "value": "small", "label": "Small" }, { "value": " small", "label": "Tiny" }
    ] }),
    ]));
    assert_eq!(
        got,
        one(
            "questions[0].options[1].value",
            r#"Question 1, option 2: duplicate option value "small""#
        )
    );
    // The same value in two questions is fine.
    assert!(validate_payload(&payload(vec![single("a"), single("b")])).is_ok());
}

#[test]
fn blank_optional_fields_are_treated_as_omitted() {
    let f = form(
        json!({ "title": "   ", "questions": [{ "id": "q", "label": "  ", "prompt": "P", "type": "preview", "options": [
        { "value": "a", "label": "A", "description": " ", "preview": "ok" },
        { "value": "b", "label": "B", "preview": "ok too", "description": null }
    ] }] }),
    );
    assert_eq!(f.title, None);
    assert_eq!(f.questions[0].label, "Q1");
    assert_eq!(f.questions[0].options[0].description, None);
    let f = form(
        json!({ "questions": [{ "id": "q", "prompt": "P", "options": [{ "value": "a", "label": "A", "preview": "\t" }] }] }),
    );
    assert_eq!(f.questions[0].options[0].preview, None);
}

#[test]
fn question_label_falls_back_to_q_and_position() {
    let mut second = single("b");
    second.as_object_mut().unwrap().remove("label");
    let mut first = single("a");
    first.as_object_mut().unwrap().remove("label");
    let f = form(payload(vec![first, second]));
    assert_eq!(
        f.questions
            .iter()
            .map(|q| q.label.as_str())
            .collect::<Vec<_>>(),
        ["Q1", "Q2"]
    );
}

#[test]
fn missing_or_blank_option_label_is_derived_from_value() {
    let f = form(
        json!({ "questions": [{ "id": "q", "prompt": "P", "options": [
        { "value": "region-local-kms-reencrypt-dek" },
        { "value": "follow_up", "label": "  " },
        { "value": "existing", "label": "Existing label" },
        { "value": "my-option_x" },
        { "value": "--a__b  c" }
    ] }] }),
    );
    let labels: Vec<_> = f.questions[0]
        .options
        .iter()
        .map(|o| o.label.as_str())
        .collect();
    assert_eq!(
        labels,
        [
            "Region local kms reencrypt dek",
            "Follow up",
            "Existing label",
            "My option x",
            "A b c"
        ]
    );
    assert_eq!(derive_label("ñandú-x"), Some("Ñandú x".into()));
    assert_eq!(derive_label("-_-"), None);
}

#[test]
fn option_label_cannot_be_derived_from_a_blank_value() {
    let got = issues(payload(vec![
        json!({ "id": "q", "prompt": "P", "options": [{ "value": "  " }] }),
    ]));
    assert_eq!(
        got,
        vec![
            (
                "questions[0].options[0].value".into(),
                "Question 1, option 1: value is required".into()
            ),
            (
                "questions[0].options[0].label".into(),
                "Question 1, option 1: label is required".into()
            ),
        ]
    );
}

#[test]
fn recommended_is_optional_metadata_on_any_number_of_options() {
    let f = form(
        json!({ "questions": [{ "id": "q", "prompt": "P", "options": [
        { "value": "a", "label": "A", "recommended": true },
        { "value": "b", "label": "B", "recommended": false },
        { "value": "c", "label": "C", "recommended": true }
    ] }] }),
    );
    let rec: Vec<_> = f.questions[0]
        .options
        .iter()
        .map(|o| o.recommended)
        .collect();
    assert_eq!(rec, [Some(true), Some(false), Some(true)]);
    // Not preselected: a fresh flow has no answers.
    let m = flow(
        json!({ "questions": [{ "id": "q", "prompt": "P", "options": [{ "value": "a", "label": "A", "recommended": true }] }] }),
    );
    assert!(!m.answer(0).is_dirty());
}

#[test]
fn type_defaults_to_single() {
    let f = form(payload(vec![single("q")]));
    assert_eq!(f.questions[0].requested_type, QuestionType::Single);
    assert_eq!(f.questions[0].presented_type, QuestionType::Single);
}

#[test]
fn type_must_be_single_multi_or_preview() {
    let got = issues(payload(vec![
        json!({ "id": "q", "prompt": "P", "type": "grid", "options": [{ "value": "a", "label": "A" }] }),
    ]));
    assert_eq!(
        got,
        one(
            "questions[0].type",
            r#"Question 1: invalid type "grid"; expected "single", "multi", or "preview""#
        )
    );
    let got = issues(payload(vec![
        json!({ "id": "q", "prompt": "P", "type": 3, "options": [{ "value": "a", "label": "A" }] }),
    ]));
    assert_eq!(
        got,
        one(
            "questions[0].type",
            r#"Question 1: invalid type 3; expected "single", "multi", or "preview""#
        )
    );
}

#[test]
fn required_defaults_to_false_and_never_blocks_submission() {
    let f = form(payload(vec![single("q")]));
    assert!(!f.questions[0].required);
    let mut q = single("q");
    q["required"] = true.into();
    let mut m = flow(payload(vec![q]));
    let result = submit(&mut m);
    assert!(!result.details.cancelled);
    assert_eq!(result.text(), "Q: (no answer)");
}

#[test]
fn preview_questions_need_preview_text_on_every_option() {
    let got = issues(payload(vec![
        json!({ "id": "q", "prompt": "P", "type": "preview", "options": [
        { "value": "a", "label": "A", "description": "descriptions do not count" },
        { "value": "b", "label": "B", "preview": "fine" }
    ] }),
    ]));
    assert_eq!(
        got,
        one(
            "questions[0].options[0].preview",
            r#"Question 1, option 1: preview questions require preview text for every option; add preview text or use type "single" instead"#
        )
    );
}

#[test]
fn every_question_gets_an_internal_type_your_own_row_after_its_options() {
    let m =
        flow(json!({"questions":[{"id":"a","prompt":"P","options":[{"value":"my-option_x"}]}]}));
    let q = &m.questions()[0];
    assert_eq!(q.options.len(), 1);
    assert_eq!(q.row_count(), 2);
    assert_eq!(q.custom_row(), 1);
    assert_eq!(CUSTOM_ROW_LABEL, "Type your own");
}

#[test]
fn every_issue_is_reported_not_just_the_first() {
    let got = issues(json!({ "questions": [
        { "id": "a", "prompt": "", "options": [{ "value": "x", "label": "X" }] },
        { "id": "a", "prompt": "P", "type": "grid", "options": [{ "label": "no value" }] }
    ] }));
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0].0, "questions[0].prompt");
    assert_eq!(got[1].0, "questions[1].type");
    assert_eq!(got[2].0, "questions[1].id");
    assert_eq!(got[3].0, "questions[1].options[0].value");
}

#[test]
fn present_single_as_multi_keeps_requested_type_and_adds_presented_type() {
    let m = flow_with(payload(vec![single("s"), multi("m")]), |s| {
        s.behaviour.present_single_as_multi = true
    });
    let q = &m.questions()[0];
    assert_eq!(
        (q.requested_type, q.presented_type),
        (QuestionType::Single, QuestionType::Multi)
    );
    assert_eq!(q.presented_type_if_different(), Some(QuestionType::Multi));
    assert_eq!(m.questions()[1].presented_type_if_different(), None);
}

#[test]
fn unparsable_json_and_non_object_payloads_are_invalid_input() {
    let err = parse_payload("{not json").unwrap_err();
    assert_eq!(err.issues[0].path, "payload");
    assert!(
        err.issues[0]
            .message
            .starts_with("Payload is not valid JSON"),
        "{}",
        err.issues[0].message
    );
    assert_eq!(
        issues(json!([1, 2])),
        one("payload", "Payload must be a JSON object")
    );
}

#[test]
fn invalid_fixtures_report_exactly_their_expected_issues() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/payloads/invalid");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.ends_with(".issues.json") {
            continue;
        }
        let expected: Vec<Issue> = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("issues.json")).unwrap(),
        )
        .unwrap();
        let got = parse_payload(&std::fs::read_to_string(&path).unwrap())
            .expect_err(&name)
            .issues;
        assert_eq!(got, expected, "{name}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} invalid fixtures found");
}

#[test]
fn valid_fixtures_validate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/payloads");
    for name in [
        "showcase",
        "planning",
        "preview",
        "unicode-long",
        "many-options",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        let f = parse_payload(&text).unwrap_or_else(|e| panic!("{name}: {:?}", e.issues));
        assert!(!f.questions.is_empty());
    }
}

/// A field whose name is empty is named all the same (the fuzzer found it said as an empty line).
#[test]
fn an_ignored_field_with_an_empty_name_is_named_quoted() {
    let payload = json!({"": [], "questions": [{"id": "q", "": 1, "options": []}]});
    assert_eq!(
        pi_ask::input::ignored_fields(&payload),
        ["\"\"".to_owned(), "questions[0].\"\"".to_owned()]
    );
}
