//! Freeform questions: the open questions of extracted forms, answered only by typing.

use pi_ask::input::{validate_extracted_payload, validate_payload};
use pi_ask::testing::Harness;
use serde_json::json;

fn open_questions() -> serde_json::Value {
    json!({"questions": [
        {"id": "goal", "prompt": "What is the goal?", "options": [{"value": "freeform", "label": "Type answer", "freeform": true}]},
        {"id": "deadline", "prompt": "When is it due?", "options": [{"value": "freeform", "label": "Type answer", "freeform": true}]}
    ]})
}

#[test]
fn freeform_is_refused_in_tool_payloads_and_must_stand_alone_in_extracted_ones() {
    let tool = validate_payload(&open_questions()).unwrap_err();
    assert_eq!(
        tool.issues[0].message,
        "Question 1: freeform options are only supported for /answer forms"
    );
    let mixed = json!({"questions": [{"id": "q", "prompt": "P?", "options": [
        {"value": "freeform", "label": "Type answer", "freeform": true},
        {"value": "a", "label": "A"}
    ]}]});
    let err = validate_extracted_payload(&mixed).unwrap_err();
    assert_eq!(
        err.issues[0].message,
        "Question 1: freeform options must be the only option"
    );
    let form = validate_extracted_payload(&open_questions()).unwrap();
    assert!(form.questions[0].freeform);
    assert!(
        form.questions[0].options.is_empty(),
        "the marker is not a choice"
    );
}

#[test]
fn a_freeform_question_shows_its_label_without_number_or_caret_and_a_gap_before_the_editor() {
    let form = validate_extracted_payload(&open_questions()).unwrap();
    let mut h = Harness::with_form(form, 60, 16);
    let screen = h.screen();
    let text = screen.join("\n");
    assert!(!text.contains('❯'), "{text}");
    assert!(!text.contains("1. Type your answer:"), "{text}");
    let label = screen
        .iter()
        .position(|l| l.trim() == "Type your answer:")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(screen[label].starts_with(" T"), "{:?}", screen[label]);
    assert_eq!(
        screen[label + 1].trim(),
        "",
        "a blank line follows the label"
    );
    let placeholder = &screen[label + 2];
    assert!(
        placeholder.starts_with(' ') && !placeholder.starts_with("     "),
        "{placeholder:?}\n{text}"
    );
}

#[test]
fn typed_freeform_answers_advance_and_come_back_as_custom_text() {
    let form = validate_extracted_payload(&open_questions()).unwrap();
    let mut h = Harness::with_form(form, 60, 16);
    h.type_text("Ship the beta").press("enter");
    h.type_text("Friday").press("enter");
    // On the review tab: submit.
    h.press("enter");
    let result = h.result().expect("submitted").clone();
    let answers = serde_json::to_value(&result.details.answers).unwrap();
    assert_eq!(answers["goal"]["customText"], "Ship the beta", "{answers}");
    assert_eq!(answers["deadline"]["customText"], "Friday", "{answers}");
}
