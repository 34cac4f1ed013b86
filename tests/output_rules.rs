//! One test per Output rule of the contract, with the original's exact result texts.

mod common;

use common::*;
use pi_ask::input::parse_payload;
use pi_ask::model::{Intent, Msg};
use pi_ask::result::{
    ELABORATION_INSTRUCTION, invalid_input_result, needs_input_result, render_transcript,
};
use serde_json::json;

fn framework() -> serde_json::Value {
    json!({ "questions": [{ "id": "framework", "label": "Framework", "prompt": "Pick a framework", "options": [
        { "value": "react", "label": "React" }, { "value": "vue", "label": "Vue" }
    ] }] })
}

#[test]
fn cancelled_true_when_the_user_cancels_or_dismisses() {
    let mut m = flow(framework());
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Dismiss)])).unwrap();
    assert!(r.details.cancelled);
    assert_eq!(json(&r)["details"]["mode"], "submit");
    let mut m = flow(framework());
    let r = finish_with(&mut m, pi_ask::model::ReviewAction::Cancel);
    assert!(r.details.cancelled);
}

#[test]
fn cancelled_result_hides_answers_in_text_but_keeps_them_in_details() {
    let mut m = flow_with(framework(), |s| {
        s.behaviour.confirm_dismiss_when_dirty = false
    });
    let r = finished(&send(
        &mut m,
        [Msg::Intent(Intent::Toggle), Msg::Intent(Intent::Cancel)],
    ))
    .unwrap();
    assert_eq!(r.text(), "User cancelled the ask flow");
    assert_eq!(render_transcript(&r.details), "Cancelled");
    assert_eq!(
        json(&r)["details"]["answers"]["framework"]["values"],
        json!(["react"])
    );
}

#[test]
fn invalid_payloads_return_invalid_input_with_structured_issues() {
    let err = parse_payload(r#"{"title":"T","questions":[{"id":"scope","prompt":"P","options":[{"value":"a","label":"A"}]},{"id":"scope","prompt":"P","options":[{"value":"a","label":"A"}]}]}"#).unwrap_err();
    let r = invalid_input_result(&err);
    assert_eq!(
        json(&r),
        json!({
            "content": [{ "type": "text", "text": "Invalid ask_user payload:\n- questions[1].id: Question 2: duplicate question id \"scope\"" }],
            "details": {
                "title": "T",
                "cancelled": true,
                "error": { "kind": "invalid_input", "issues": [{ "path": "questions[1].id", "message": "Question 2: duplicate question id \"scope\"" }] },
                "mode": "submit",
                "questions": [],
                "answers": {}
            }
        })
    );
    assert_eq!(render_transcript(&r.details), "Invalid tool payload");
}

#[test]
fn submit_mode_is_normal_completion() {
    let mut m = flow(framework());
    send(&mut m, [Msg::Intent(Intent::Number(2))]);
    let r = submit(&mut m);
    assert_eq!(
        json(&r),
        json!({
            "content": [{ "type": "text", "text": "Framework: Vue" }],
            "details": {
                "cancelled": false,
                "mode": "submit",
                "questions": [{ "id": "framework", "label": "Framework", "prompt": "Pick a framework", "type": "single" }],
                "answers": { "framework": { "values": ["vue"], "labels": ["Vue"], "indices": [2] } }
            }
        })
    );
    assert_eq!(render_transcript(&r.details), "✓ Framework: Vue");
}

#[test]
fn unanswered_questions_are_omitted_from_answers_but_listed_as_no_answer() {
    let p = json!({ "questions": [
        { "id": "arch", "label": "Architecture", "prompt": "P", "options": [{ "value": "enc", "label": "Encrypted" }] },
        { "id": "sources", "label": "Secret sources", "prompt": "P", "type": "multi", "options": [{ "value": "env", "label": "Env" }] }
    ] });
    let mut m = flow(p);
    send(
        &mut m,
        [Msg::Intent(Intent::Number(1)), Msg::Intent(Intent::Confirm)],
    );
    let r = submit(&mut m);
    assert!(!r.details.answers.contains_key("sources"));
    assert_eq!(
        r.text(),
        "Architecture: Encrypted\nSecret sources: (no answer)"
    );
    assert_eq!(
        render_transcript(&r.details),
        "✓ Architecture: Encrypted\n? Secret sources: (no answer)"
    );
}

#[test]
fn every_question_is_listed_when_all_are_unanswered() {
    let mut m = flow(payload(vec![single("scope"), single("tests")]));
    let r = submit(&mut m);
    assert_eq!(r.text(), "SCOPE: (no answer)\nTESTS: (no answer)");
    assert_eq!(
        render_transcript(&r.details),
        "? SCOPE: (no answer)\n? TESTS: (no answer)"
    );
}

#[test]
fn note_only_entries_remain_in_submitted_answers() {
    let mut m = flow(
        json!({ "questions": [{ "id": "scope", "label": "Scope", "prompt": "P", "options": [{ "value": "a", "label": "A" }] }] }),
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("Prefer incremental changes"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["answers"]["scope"],
        json!({ "values": [], "labels": [], "indices": [], "note": "Prefer incremental changes" })
    );
    assert_eq!(
        r.text(),
        "Scope: (no answer)\nScope note: Prefer incremental changes"
    );
    assert_eq!(
        render_transcript(&r.details),
        "? Scope: (no answer)\n  note: Prefer incremental changes"
    );
}

#[test]
fn elaborate_mode_keeps_only_committed_answers_and_moves_note_only_entries_to_items() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("Need SSR support"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::OptionNote),
            typed("Legacy codebase"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = elaborate(&mut m);
    let question = json!({ "id": "framework", "label": "Framework", "prompt": "Pick a framework", "type": "single",
        "options": [{ "value": "react", "label": "React" }, { "value": "vue", "label": "Vue" }] });
    assert_eq!(
        json(&r)["details"],
        json!({
            "cancelled": false,
            "mode": "elaborate",
            "questions": [{ "id": "framework", "label": "Framework", "prompt": "Pick a framework", "type": "single" }],
            "answers": {},
            "continuation": {
                "strategy": "refine_only",
                "affectedQuestionIds": ["framework"],
                "preservedAnswers": {},
                "questionStates": { "framework": { "status": "needs_clarification" } }
            },
            "elaboration": {
                "instruction": ELABORATION_INSTRUCTION,
                "nextAction": "clarify_then_reask",
                "items": [
                    { "target": { "kind": "question" }, "question": question, "answered": false, "note": "Need SSR support" },
                    { "target": { "kind": "option", "optionValue": "react" }, "question": question,
                      "option": { "value": "react", "label": "React" }, "selected": false, "answered": false, "note": "Legacy codebase" }
                ]
            }
        })
    );
    let expected = "User asked to elaborate on question \"Pick a framework\" with note \"Need SSR support\"\nUser asked to elaborate on question \"Pick a framework\" option \"React\" with note \"Legacy codebase\"";
    assert_eq!(r.text(), expected);
    assert_eq!(render_transcript(&r.details), expected);
}

#[test]
fn elaborate_results_keep_committed_answers_alongside_the_elaboration_context() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("Compare tradeoffs"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Number(2)),
        ],
    );
    let r = elaborate(&mut m);
    let answer = json!({ "values": ["vue"], "labels": ["Vue"], "indices": [2], "note": "Compare tradeoffs" });
    let v = json(&r);
    assert_eq!(v["details"]["answers"]["framework"], answer);
    assert_eq!(
        v["details"]["continuation"]["preservedAnswers"],
        json!({}),
        "a noted question is never preserved"
    );
    assert_eq!(v["details"]["elaboration"]["items"][0]["answered"], true);
    assert_eq!(v["details"]["elaboration"]["items"][0]["answer"], answer);
    assert_eq!(
        r.text(),
        "User asked to elaborate on question \"Pick a framework\" after current answer \"Vue\" with note \"Compare tradeoffs\""
    );
}

#[test]
fn elaboration_summary_includes_custom_answers_in_note_context() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("Compare tradeoffs"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(3)),
            typed("SolidStart"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = elaborate(&mut m);
    assert_eq!(
        json(&r)["details"]["elaboration"]["items"][0]["answer"],
        json!({ "values": ["SolidStart"], "labels": ["SolidStart"], "indices": [], "customText": "SolidStart", "note": "Compare tradeoffs" })
    );
    assert_eq!(
        r.text(),
        "User asked to elaborate on question \"Pick a framework\" after current answer \"SolidStart\" with note \"Compare tradeoffs\""
    );
}

#[test]
fn elaborate_without_notes_still_includes_committed_answer_text() {
    let mut m = flow(
        json!({ "questions": [{ "id": "kind", "prompt": "What kind of ask_user showcase would you like?", "options": [{ "value": "a", "label": "A" }] }] }),
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(2)),
            typed("teeeel meee whyyyyy"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = elaborate(&mut m);
    assert_eq!(
        r.text(),
        "User asked to elaborate on question \"What kind of ask_user showcase would you like?\" after current answer \"teeeel meee whyyyyy\""
    );
    assert_eq!(json(&r)["details"]["elaboration"]["items"], json!([]));
    let mut m = flow(framework());
    assert_eq!(
        elaborate(&mut m).text(),
        "User asked for elaboration based on notes"
    );
}

#[test]
fn continuation_preserves_unrelated_committed_answers_and_marks_states() {
    let p = payload(vec![single("goal"), single("constraints"), single("other")]);
    let mut m = flow(p);
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("why?"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(2)),
        ],
    );
    let r = elaborate(&mut m);
    let v = json(&r)["details"]["continuation"].clone();
    assert_eq!(v["affectedQuestionIds"], json!(["goal"]));
    assert_eq!(
        v["preservedAnswers"],
        json!({ "constraints": { "values": ["b"], "labels": ["B"], "indices": [2] } })
    );
    assert_eq!(
        v["questionStates"],
        json!({ "goal": { "status": "needs_clarification" }, "constraints": { "status": "answered" }, "other": { "status": "unanswered" } })
    );
}

#[test]
fn elaboration_items_include_the_full_question_and_preserve_recommendations() {
    let mut m = flow(
        json!({ "questions": [{ "id": "q", "prompt": "P", "type": "preview", "options": [
        { "value": "a", "label": "A", "description": "d", "preview": "p", "recommended": true },
        { "value": "b", "label": "B", "preview": "p2" }
    ] }] }),
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::OptionNote),
            typed("above?"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let v = json(&elaborate(&mut m));
    let item = &v["details"]["elaboration"]["items"][0];
    assert_eq!(
        item["question"]["options"][0],
        json!({ "value": "a", "label": "A", "description": "d", "preview": "p", "recommended": true })
    );
    assert_eq!(
        item["question"]["options"].as_array().unwrap().len(),
        2,
        "every option, not just the noted one"
    );
    assert_eq!(item["option"]["recommended"], true);
    assert_eq!(item["selected"], false);
}

#[test]
fn option_targeted_items_say_whether_the_option_is_selected() {
    let mut m = flow(payload(vec![multi("m")]));
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::OptionNote),
            typed("keep"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::OptionNote),
            typed("maybe"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let v = json(&elaborate(&mut m));
    let items = v["details"]["elaboration"]["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(items.len(), 2, "notes on unselected options are included");
    assert_eq!(
        (items[0]["selected"].clone(), items[1]["selected"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(items[0]["answered"], true);
}

#[test]
fn elaboration_is_only_present_in_elaborate_mode() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("n"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let v = json(&submit(&mut m));
    assert!(v["details"].get("elaboration").is_none());
    assert!(v["details"].get("continuation").is_none());
}

#[test]
fn single_select_answers_still_use_arrays() {
    let mut m = flow(framework());
    send(&mut m, [Msg::Intent(Intent::Number(1))]);
    let v = json(&submit(&mut m));
    assert!(v["details"]["answers"]["framework"]["values"].is_array());
    assert!(v["details"]["answers"]["framework"]["labels"].is_array());
}

#[test]
fn recommendation_markers_never_change_submitted_labels_or_values() {
    let mut m = flow(
        json!({ "questions": [{ "id": "q", "label": "Size", "prompt": "P", "options": [
        { "value": "small", "label": "Small", "description": "Lowest risk", "recommended": true }
    ] }] }),
    );
    send(&mut m, [Msg::Intent(Intent::Number(1))]);
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["answers"]["q"],
        json!({ "values": ["small"], "labels": ["Small"], "indices": [1] })
    );
    assert_eq!(r.text(), "Size: Small");
}

#[test]
fn present_single_as_multi_keeps_type_adds_presented_type_and_one_compact_note() {
    let p = json!({ "questions": [
        { "id": "scope", "label": "Scope", "prompt": "P", "options": [{ "value": "docs", "label": "Docs" }, { "value": "tests", "label": "Tests" }] },
        { "id": "two", "label": "Two", "prompt": "P", "options": [{ "value": "x", "label": "X" }] },
        { "id": "three", "label": "Three", "prompt": "P", "type": "multi", "options": [{ "value": "y", "label": "Y" }] }
    ] });
    let mut m = flow_with(p, |s| s.behaviour.present_single_as_multi = true);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(2)),
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["questions"][0],
        json!({ "id": "scope", "label": "Scope", "prompt": "P", "type": "single", "presentedType": "multi" })
    );
    assert!(
        json(&r)["details"]["questions"][2]
            .get("presentedType")
            .is_none()
    );
    assert_eq!(
        r.text(),
        "Scope: Docs, Tests\nTwo: X\nThree: Y\nNote: Some questions were presented as multi-select by user preference."
    );
    assert!(
        render_transcript(&r.details).ends_with(
            "\n  Note: Some questions were presented as multi-select by user preference."
        )
    );
}

#[test]
fn presentation_note_names_the_type_actually_presented_after_a_live_change() {
    let mut m = flow(payload(vec![multi("m")]));
    send(
        &mut m,
        [
            Msg::Intent(Intent::ChangeQuestionType),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["questions"][0]["presentedType"],
        "single"
    );
    assert_eq!(
        r.text(),
        "M: A\nNote: Some questions were presented as single-select by user preference."
    );
    // Without an answer entry no note is added.
    let mut m = flow(payload(vec![multi("m")]));
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(submit(&mut m).text(), "M: (no answer)");
}

#[test]
fn indices_are_one_based_rendered_positions() {
    let mut m = flow(payload(vec![multi("m")]));
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(3)),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    assert_eq!(
        json(&submit(&mut m))["details"]["answers"]["m"]["indices"],
        json!([3, 1])
    );
}

#[test]
fn custom_text_stores_the_free_form_answer_and_renders_as_wrote() {
    let mut m = flow(
        json!({ "questions": [{ "id": "notes", "label": "Notes", "prompt": "P", "options": [{ "value": "a", "label": "A" }] }] }),
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(2)),
            typed("Please include examples"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["answers"]["notes"],
        json!({ "values": ["Please include examples"], "labels": ["Please include examples"], "indices": [], "customText": "Please include examples" })
    );
    assert_eq!(r.text(), "Notes: Please include examples");
    assert_eq!(
        render_transcript(&r.details),
        "✓ Notes: (wrote) Please include examples"
    );
}

#[test]
fn saving_free_form_text_on_single_clears_selected_options() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::Toggle),
            Msg::Intent(Intent::Number(3)),
            typed("Svelte"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert_eq!(
        json(&submit(&mut m))["details"]["answers"]["framework"]["indices"],
        json!([])
    );
}

#[test]
fn multi_select_values_include_selected_options_then_custom_text_last() {
    let p = json!({ "questions": [{ "id": "fw", "label": "Frameworks", "prompt": "P", "type": "multi", "options": [
        { "value": "react", "label": "React" }, { "value": "vue", "label": "Vue" }
    ] }] });
    let mut m = flow(p);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(3)),
            typed("SolidStart"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["answers"]["fw"],
        json!({ "values": ["react", "SolidStart"], "labels": ["React", "SolidStart"], "indices": [1], "customText": "SolidStart" })
    );
    assert_eq!(r.text(), "Frameworks: React, SolidStart");
    assert_eq!(
        render_transcript(&r.details),
        "✓ Frameworks: React, SolidStart"
    );
}

#[test]
fn note_stores_a_question_level_note_and_option_notes_only_selected_ones() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("Need SSR support"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::OptionNote),
            typed("Legacy codebase"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::OptionNote),
            typed("Team has prior experience"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Toggle),
        ],
    );
    let r = submit(&mut m);
    assert_eq!(
        json(&r)["details"]["answers"]["framework"],
        json!({ "values": ["vue"], "labels": ["Vue"], "indices": [2], "note": "Need SSR support", "optionNotes": { "vue": "Team has prior experience" } })
    );
    assert_eq!(
        r.text(),
        "Framework: Vue\nFramework note: Need SSR support\nFramework / Vue note: Team has prior experience"
    );
    assert_eq!(
        render_transcript(&r.details),
        "✓ Framework: Vue\n  note: Need SSR support\n  Vue note: Team has prior experience"
    );
}

#[test]
fn deselected_option_keeps_its_note_in_state_but_not_in_the_result() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Toggle),
            Msg::Intent(Intent::OptionNote),
            typed("migration risk"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Toggle),
        ],
    );
    assert_eq!(
        m.answer(0).option_notes.get("vue").map(String::as_str),
        Some("migration risk")
    );
    let mut copy = m.clone();
    assert!(submit(&mut copy).details.answers.is_empty());
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    assert_eq!(
        json(&submit(&mut m))["details"]["answers"]["framework"],
        json!({ "values": ["vue"], "labels": ["Vue"], "indices": [2], "optionNotes": { "vue": "migration risk" } })
    );
}

#[test]
fn notes_and_custom_text_are_emitted_raw_and_quoted_as_json_in_elaborate_text() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("line one\n\"quoted\""),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let r = elaborate(&mut m);
    assert_eq!(
        r.text(),
        "User asked to elaborate on question \"Pick a framework\" with note \"line one\\n\\\"quoted\\\"\""
    );
    assert_eq!(
        r.details.elaboration.unwrap().items[0].note,
        "line one\n\"quoted\""
    );
}

#[test]
fn title_is_normalized_into_details() {
    let mut m = flow(json!({ "title": "  Planning  ", "questions": [single("a")] }));
    assert_eq!(json(&submit(&mut m))["details"]["title"], "Planning");
}

#[test]
fn needs_input_fallback_lists_pending_questions_and_options() {
    let f = form(
        json!({ "questions": [{ "id": "goal", "label": "Goal", "prompt": "What should I optimize for?", "options": [
        { "value": "speed", "label": "Speed" }
    ] }] }),
    );
    let r = needs_input_result(&f);
    assert_eq!(
        r.text(),
        "Needs user input: ask_user requires interactive TUI mode.\nRun same tool call in interactive TUI mode, or ask user these questions manually:\n1. Goal: What should I optimize for?\n   - Speed [speed]\n   - Type your own [custom]\ndetails.questions contains normalized pending questions. details.answers stays empty until user responds."
    );
    assert_eq!(
        json(&r)["details"],
        json!({ "cancelled": true, "mode": "submit", "questions": [{ "id": "goal", "label": "Goal", "prompt": "What should I optimize for?", "type": "single" }], "answers": {} })
    );
}

#[test]
fn results_round_trip_through_json() {
    let mut m = flow(framework());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("n"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::OptionNote),
            typed("o"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    let r = elaborate(&mut m);
    let text = serde_json::to_string(&r).unwrap();
    let back: pi_ask::result::AskResult = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}
