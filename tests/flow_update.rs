//! Pure `update` tests: the contract's Supported TUI UX, Keyboard behavior and Dirty dismiss,
//! driven with `Msg`s and no terminal.

mod common;

use common::*;
use pi_ask::form::QuestionType;
use pi_ask::model::{
    Cmd, DISMISS_NOTICE, EditorTarget, External, Intent, Msg, Report, ReviewAction, SettingsIntent,
    Tab,
};
use serde_json::json;

fn tabs3() -> serde_json::Value {
    payload(vec![single("one"), multi("two"), single("three")])
}

#[test]
fn tabs_wrap_across_questions_and_the_review_tab() {
    let mut m = flow(tabs3());
    assert_eq!(m.tab(), Tab::Question(0));
    send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
    assert_eq!(m.tab(), Tab::Review);
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    assert_eq!(m.tab(), Tab::Question(0));
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::NextTab),
        ],
    );
    assert_eq!(m.tab(), Tab::Review);
}

#[test]
fn single_question_flow_has_two_tabs() {
    let mut m = flow(payload(vec![single("q")]));
    assert_eq!(m.tab_count(), 2);
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    assert_eq!(m.tab(), Tab::Review);
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    assert_eq!(m.tab(), Tab::Question(0));
}

#[test]
fn option_cursor_clamps_and_entering_a_tab_forgets_a_hovered_row() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::PreviousOption)]);
    assert_eq!(m.cursor(0), 0);
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
        ],
    );
    assert_eq!(m.cursor(0), 2);
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::PreviousTab),
        ],
    );
    assert_eq!(m.cursor(0), 0, "only hovered: back on the first option");
    send(&mut m, [Msg::Intent(Intent::LastOption)]);
    assert_eq!(m.cursor(0), m.questions()[0].row_count() - 1);
    send(&mut m, [Msg::Intent(Intent::FirstOption)]);
    assert_eq!(m.cursor(0), 0);
}

#[test]
fn entering_a_single_question_lands_on_its_committed_answer() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Confirm),
        ],
    ); // choose the second option, advance
    send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
    assert_eq!(m.cursor(0), 1);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(4)),
            typed("mine"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::PreviousTab),
        ],
    );
    assert_eq!(
        m.cursor(0),
        m.questions()[0].custom_row(),
        "a free-form answer: its row"
    );
    assert!(
        m.editor().is_none(),
        "saved text does not reopen the editor"
    );
}

#[test]
fn single_select_enter_selects_and_advances() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Confirm),
        ],
    );
    assert_eq!(m.answer(0).selected, vec![1]);
    assert_eq!(m.tab(), Tab::Question(1));
}

#[test]
fn single_select_number_shortcut_stores_answer_and_advances() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::Number(2))]);
    assert_eq!(m.answer(0).selected, vec![1]);
    assert_eq!(m.cursor(0), 1);
    assert_eq!(m.tab(), Tab::Question(1));
}

#[test]
fn last_question_advances_to_review() {
    let mut m = flow(payload(vec![single("q")]));
    send(&mut m, [Msg::Intent(Intent::Number(1))]);
    assert_eq!(m.tab(), Tab::Review);
}

#[test]
fn single_select_space_selects_without_advancing_and_clears_on_second_press() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    assert_eq!(
        (m.answer(0).selected.clone(), m.tab()),
        (vec![0], Tab::Question(0))
    );
    send(
        &mut m,
        [Msg::Intent(Intent::NextOption), Msg::Intent(Intent::Toggle)],
    );
    assert_eq!(
        m.answer(0).selected,
        vec![1],
        "a single question keeps one choice"
    );
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    assert!(m.answer(0).selected.is_empty());
}

#[test]
fn multi_select_space_and_digits_toggle_in_selection_order_and_enter_advances() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(3)),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    assert_eq!(m.answer(1).selected, vec![2, 0]);
    assert_eq!(m.tab(), Tab::Question(1), "digits do not advance on multi");
    send(
        &mut m,
        [
            Msg::Intent(Intent::PreviousOption),
            Msg::Intent(Intent::Toggle),
        ],
    );
    assert_eq!(m.answer(1).selected, vec![2]);
    send(&mut m, [Msg::Intent(Intent::Confirm)]);
    assert_eq!(m.tab(), Tab::Question(2));
    assert_eq!(
        m.answer(1).selected,
        vec![2],
        "Enter does not change a multi selection"
    );
}

#[test]
fn digits_beyond_the_rows_are_ignored() {
    let mut m = flow(tabs3());
    let cmds = send(
        &mut m,
        [
            Msg::Intent(Intent::Number(9)),
            Msg::Intent(Intent::Number(0)),
        ],
    );
    assert!(cmds.is_empty());
    assert_eq!((m.tab(), m.cursor(0)), (Tab::Question(0), 0));
    assert!(!m.answer(0).is_dirty());
}

#[test]
fn moving_onto_an_empty_custom_row_opens_the_answer_editor() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
        ],
    );
    assert_eq!(m.cursor(0), 3);
    assert_eq!(
        m.editor().map(|e| e.target),
        Some(EditorTarget::Answer { question: 0 })
    );
}

#[test]
fn free_form_text_on_single_clears_selected_options_and_advances() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(4)),
            typed("my own"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let a = m.answer(0);
    assert!(a.selected.is_empty());
    assert_eq!(a.custom_answer(), Some("my own"));
    assert_eq!(m.tab(), Tab::Question(1));
    assert!(m.editor().is_none());
}

#[test]
fn a_submitted_answer_advances_to_the_next_question_on_its_first_option() {
    let p = payload(vec![
        json!({"id":"a","prompt":"A","options":[{"value":"x","label":"X"}]}),
        json!({"id":"b","prompt":"B","options":[{"value":"y","label":"Y"}]}),
    ]);
    let mut m = flow(p);
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::PreviousTab),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(2)),
            typed("first"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert_eq!(m.tab(), Tab::Question(1));
    assert_eq!(m.cursor(1), 0, "the hovered custom row is forgotten");
    assert_eq!(m.editor(), None);
}

#[test]
fn escape_in_the_answer_editor_saves_without_advancing_and_does_not_reopen() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(4)),
            typed("draft"),
            Msg::Intent(Intent::EditorClose),
        ],
    );
    assert_eq!(m.tab(), Tab::Question(0));
    assert!(m.editor().is_none());
    assert_eq!(m.answer(0).custom_answer(), Some("draft"));
    // An empty editor closed with Esc stays closed until the cursor moves.
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(4)),
            Msg::Intent(Intent::EditorClose),
        ],
    );
    assert!(m.editor().is_none());
    send(
        &mut m,
        [
            Msg::Intent(Intent::PreviousOption),
            Msg::Intent(Intent::NextOption),
        ],
    );
    assert!(m.editor().is_some());
}

#[test]
fn blank_free_form_text_clears_the_answer_but_keeps_notes() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("context"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(4)),
            typed("x"),
            Msg::Intent(Intent::EditorClose),
        ],
    );
    assert_eq!(m.answer(0).custom_answer(), Some("x"));
    // Enter on blank text submits nothing: the editor stays open (as in the original) …
    send(
        &mut m,
        [
            Msg::Intent(Intent::Confirm),
            typed("   "),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert!(
        m.editor().is_some(),
        "Enter on blank text keeps the editor open"
    );
    assert_eq!(m.answer(0).custom_answer(), Some("x"));
    // … and saving it blank (Esc, the original's save) clears the answer.
    send(&mut m, [Msg::Intent(Intent::EditorClose)]);
    assert_eq!(m.answer(0).custom_text, None);
    assert_eq!(m.answer(0).note.as_deref(), Some("context"));
    assert_eq!(m.tab(), Tab::Question(0));
}

/// `Down Down Enter` on the empty `Type your own` row, then Enter at once, then typing: the words
/// are the answer, none of their letters a command (issue 39: `the new one` recorded `new one`,
/// its `t` having switched the question to multi-select).
#[test]
fn enter_on_an_empty_type_your_own_editor_keeps_it_open_for_what_is_typed_next() {
    let mut m = flow(payload(vec![single("one"), single("two")]));
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Confirm),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert!(m.editor().is_some(), "still typing");
    send(
        &mut m,
        [
            Msg::Edit(pi_ask::model::EditOp::Insert("the new one".into())),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert_eq!(m.answer(0).custom_answer(), Some("the new one"));
    assert_eq!(m.tab(), Tab::Question(1), "a single question goes on");
}

#[test]
fn multi_free_form_stays_on_tab_marks_custom_selected_and_keeps_options() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(4)),
            typed("SolidStart"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert_eq!(m.tab(), Tab::Question(1));
    assert_eq!(m.answer(1).selected, vec![0]);
    assert_eq!(m.answer(1).custom_answer(), Some("SolidStart"));
    // Saving blank text (Esc, the original's save; Enter on it submits nothing) keeps the other
    // options.
    send(
        &mut m,
        [
            Msg::Intent(Intent::Confirm),
            typed(""),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    assert!(
        m.editor().is_some(),
        "Enter on blank text keeps the editor open"
    );
    send(&mut m, [Msg::Intent(Intent::EditorClose)]);
    assert_eq!(m.answer(1).selected, vec![0]);
    assert_eq!(m.answer(1).custom_text, None);
}

#[test]
fn toggling_a_multi_custom_row_with_saved_text_keeps_the_text() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(4)),
            typed("SolidStart"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    let a = m.answer(1);
    assert!(!a.custom_selected);
    assert_eq!(a.custom_text.as_deref(), Some("SolidStart"));
    assert!(
        m.editor().is_none(),
        "toggling saved text does not open the editor"
    );
    send(&mut m, [Msg::Intent(Intent::Number(4))]);
    assert_eq!(m.answer(1).custom_answer(), Some("SolidStart"));
    send(&mut m, [Msg::Intent(Intent::Number(4))]);
    assert_eq!(m.answer(1).custom_answer(), None);
}

#[test]
fn enter_on_the_custom_row_always_opens_the_editor_with_saved_text() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(4)),
            typed("mine"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Confirm),
        ],
    );
    assert_eq!(m.editor().map(|e| e.text()), Some("mine"));
}

#[test]
fn question_notes_exist_without_an_answer() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::QuestionNote)]);
    assert_eq!(
        m.editor().map(|e| e.target),
        Some(EditorTarget::QuestionNote { question: 0 })
    );
    send(
        &mut m,
        [typed("needs examples"), Msg::Intent(Intent::EditorSubmit)],
    );
    assert!(m.editor().is_none());
    assert_eq!(m.tab(), Tab::Question(0), "saving a note does not advance");
    assert_eq!(m.answer(0).note.as_deref(), Some("needs examples"));
    assert!(!m.answer(0).is_committed());
}

#[test]
fn option_notes_open_on_real_options_only_and_blank_deletes() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::OptionNote),
            typed("why B?"),
            Msg::Intent(Intent::EditorClose),
        ],
    );
    assert_eq!(
        m.answer(0).option_notes.get("b").map(String::as_str),
        Some("why B?")
    );
    send(&mut m, [Msg::Intent(Intent::OptionNote)]);
    assert_eq!(
        m.editor().map(|e| e.text()),
        Some("why B?"),
        "the editor opens with the saved note"
    );
    send(&mut m, [typed(" "), Msg::Intent(Intent::EditorSubmit)]);
    assert!(m.answer(0).option_notes.is_empty());
    // On the custom row `n` does nothing.
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::EditorClose),
            Msg::Intent(Intent::OptionNote),
        ],
    );
    assert!(m.editor().is_none());
}

#[test]
fn question_type_hotkey_toggles_single_and_multi() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(m.questions()[0].presented_type, QuestionType::Multi);
    assert_eq!(m.questions()[0].requested_type, QuestionType::Single);
    assert_eq!(
        m.notice(),
        Some("Question type changed from single-select to multi-select.")
    );
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(m.questions()[0].presented_type, QuestionType::Single);
    assert_eq!(m.questions()[0].presented_type_if_different(), None);
}

#[test]
fn question_type_hotkey_toggles_preview_with_multi_only() {
    let mut m = flow(
        json!({"questions":[{"id":"p","prompt":"P","type":"preview","options":[{"value":"a","label":"A","preview":"x"}]}]}),
    );
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(m.questions()[0].presented_type, QuestionType::Multi);
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(m.questions()[0].presented_type, QuestionType::Preview);
}

#[test]
fn multi_to_single_with_several_answers_needs_a_second_press() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(2)),
            Msg::Intent(Intent::QuestionNote),
            typed("n"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(
        m.questions()[1].presented_type,
        QuestionType::Multi,
        "nothing changes on the first press"
    );
    assert_eq!(m.pending_type_change(), Some(1));
    assert!(
        m.notice()
            .unwrap()
            .starts_with("Switching to single-select will clear selected options")
    );
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(m.questions()[1].presented_type, QuestionType::Single);
    assert!(m.answer(1).selected.is_empty());
    assert_eq!(m.answer(1).note.as_deref(), Some("n"), "notes survive");
}

#[test]
fn confirmed_multi_to_single_keeps_custom_text_selected() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(4)),
            typed("Custom"),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    send(
        &mut m,
        [
            Msg::Intent(Intent::ChangeQuestionType),
            Msg::Intent(Intent::ChangeQuestionType),
        ],
    );
    assert!(m.answer(1).selected.is_empty());
    assert_eq!(m.answer(1).custom_answer(), Some("Custom"));
}

#[test]
fn pending_type_change_clears_on_any_other_action() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(2)),
            Msg::Intent(Intent::ChangeQuestionType),
        ],
    );
    assert_eq!(m.pending_type_change(), Some(1));
    send(&mut m, [Msg::Intent(Intent::NextOption)]);
    assert_eq!(m.pending_type_change(), None);
    assert_eq!(m.notice(), None);
    send(&mut m, [Msg::Intent(Intent::ChangeQuestionType)]);
    assert_eq!(
        m.questions()[1].presented_type,
        QuestionType::Multi,
        "the first press after clearing asks again"
    );
}

#[test]
fn multi_to_single_with_one_answer_keeps_it_without_confirmation() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::NextTab),
            Msg::Intent(Intent::Number(2)),
            Msg::Intent(Intent::ChangeQuestionType),
        ],
    );
    assert_eq!(m.questions()[1].presented_type, QuestionType::Single);
    assert_eq!(m.answer(1).selected, vec![1]);
}

#[test]
fn review_enter_runs_the_highlighted_action() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::PreviousTab),
            Msg::Intent(Intent::NextOption),
        ],
    );
    assert_eq!(m.review_cursor(), ReviewAction::Elaborate);
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Confirm)])).unwrap();
    assert_eq!(json(&r)["details"]["mode"], "elaborate");
    assert!(m.is_finished());
    assert!(
        send(&mut m, [Msg::Intent(Intent::Confirm)]).is_empty(),
        "a finished flow ignores further input"
    );
}

#[test]
fn review_digits_trigger_submit_elaborate_and_cancel() {
    for (digit, mode, cancelled) in [
        (1, "submit", false),
        (2, "elaborate", false),
        (3, "submit", true),
    ] {
        let mut m = flow_with(tabs3(), |s| {
            s.behaviour.double_press_review_shortcuts = false
        });
        send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
        let r = finished(&send(&mut m, [Msg::Intent(Intent::Number(digit))])).expect("finishes");
        assert_eq!(json(&r)["details"]["mode"], mode);
        assert_eq!(r.details.cancelled, cancelled);
    }
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
    assert!(send(&mut m, [Msg::Intent(Intent::Number(4))]).is_empty());
}

#[test]
fn double_press_review_shortcuts_need_the_same_digit_twice() {
    let mut m = flow_with(tabs3(), |s| {
        s.behaviour.double_press_review_shortcuts = true
    });
    send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
    assert_eq!(
        m.review_shortcut_hint().as_deref(),
        Some("Press 1, 2, or 3 twice to confirm a review action.")
    );
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Number(2))])).is_none());
    assert_eq!(m.pending_review_shortcut(), Some(ReviewAction::Elaborate));
    assert_eq!(m.review_cursor(), ReviewAction::Elaborate);
    assert_eq!(
        m.review_shortcut_hint().as_deref(),
        Some("Press 2 again to Elaborate.")
    );
    assert!(
        finished(&send(&mut m, [Msg::Intent(Intent::Number(3))])).is_none(),
        "a different digit switches the pending action"
    );
    assert_eq!(m.pending_review_shortcut(), Some(ReviewAction::Cancel));
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Number(3))]))
        .expect("the second press finishes");
    assert!(r.details.cancelled);
}

#[test]
fn review_shortcut_finishes_whether_or_not_double_press_is_on() {
    for double in [false, true] {
        let mut m = flow_with(tabs3(), |s| {
            s.behaviour.double_press_review_shortcuts = double
        });
        send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
        let presses = if double { 2 } else { 1 };
        let cmds = send(
            &mut m,
            std::iter::repeat_n(Msg::Intent(Intent::Number(1)), presses),
        );
        assert!(finished(&cmds).is_some(), "double={double}");
    }
}

#[test]
fn submit_is_never_blocked_by_unanswered_questions() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::PreviousTab)]);
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Confirm)])).unwrap();
    assert!(!r.details.cancelled);
    assert!(r.details.answers.is_empty());
}

#[test]
fn auto_submit_fires_however_the_review_tab_is_reached() {
    let auto = |s: &mut pi_ask::settings::Settings| {
        s.behaviour.auto_submit_when_answered_without_notes = true
    };
    // By Enter on the last question.
    let mut m = flow_with(payload(vec![single("a"), single("b")]), auto);
    let cmds = send(
        &mut m,
        [
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::Confirm),
        ],
    );
    assert_eq!(finished(&cmds).unwrap().text(), "A: A\nB: B");
    // By a digit.
    let mut m = flow_with(payload(vec![single("a")]), auto);
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Number(2))])).is_some());
    // By Tab.
    let mut m = flow_with(payload(vec![multi("a")]), auto);
    let cmds = send(
        &mut m,
        [Msg::Intent(Intent::Number(1)), Msg::Intent(Intent::NextTab)],
    );
    assert!(finished(&cmds).is_some());
}

#[test]
fn auto_submit_waits_when_notes_exist_or_answers_are_missing_or_it_is_off() {
    let auto = |s: &mut pi_ask::settings::Settings| {
        s.behaviour.auto_submit_when_answered_without_notes = true
    };
    let mut m = flow_with(payload(vec![single("a")]), auto);
    assert!(
        finished(&send(
            &mut m,
            [
                Msg::Intent(Intent::QuestionNote),
                typed("hm"),
                Msg::Intent(Intent::EditorSubmit),
                Msg::Intent(Intent::Number(1))
            ]
        ))
        .is_none()
    );
    let mut m = flow_with(payload(vec![single("a"), single("b")]), auto);
    assert!(
        finished(&send(
            &mut m,
            [Msg::Intent(Intent::Number(1)), Msg::Intent(Intent::NextTab)]
        ))
        .is_none()
    );
    let mut m = flow(payload(vec![single("a")]));
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Number(1))])).is_none());
    assert_eq!(m.tab(), Tab::Review);
}

#[test]
fn enabling_auto_submit_on_a_complete_review_tab_finishes_at_once() {
    let mut m = flow(payload(vec![single("a")]));
    send(&mut m, [Msg::Intent(Intent::Number(1))]);
    let mut settings = *m.settings();
    settings.behaviour.auto_submit_when_answered_without_notes = true;
    let cmds = send(&mut m, [Msg::Report(Report::SettingsChanged(settings))]);
    assert!(finished(&cmds).is_some());
}

#[test]
fn escape_on_an_untouched_flow_cancels_at_once() {
    let mut m = flow(tabs3());
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Cancel)])).expect("cancels");
    assert!(r.details.cancelled);
    assert_eq!(r.text(), "User cancelled the ask flow");
}

#[test]
fn dirty_dismiss_needs_a_second_press_and_the_warning_stays_until_the_tab_changes() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Cancel)])).is_none());
    assert_eq!(m.notice(), Some(DISMISS_NOTICE));
    send(&mut m, [Msg::Intent(Intent::NextOption)]);
    assert_eq!(
        m.notice(),
        Some(DISMISS_NOTICE),
        "still visible on the same tab"
    );
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    assert_eq!(m.notice(), None, "cleared by a tab change");
    assert!(
        finished(&send(&mut m, [Msg::Intent(Intent::Dismiss)])).is_none(),
        "and asks again"
    );
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Dismiss)])).expect("second press discards");
    assert!(r.details.cancelled);
}

#[test]
fn dirty_dismiss_confirmation_can_be_turned_off() {
    let mut m = flow_with(tabs3(), |s| s.behaviour.confirm_dismiss_when_dirty = false);
    send(&mut m, [Msg::Intent(Intent::Toggle)]);
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Cancel)])).is_some());
}

#[test]
fn an_editor_draft_makes_the_flow_dirty_and_dismiss_does_not_save_it() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [Msg::Intent(Intent::QuestionNote), typed("draft note")],
    );
    assert!(m.is_dirty());
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Dismiss)])).is_none());
    let r = finished(&send(&mut m, [Msg::Intent(Intent::Dismiss)])).unwrap();
    assert!(r.details.cancelled);
    assert!(r.details.answers.is_empty(), "the draft was not saved");
}

#[test]
fn a_type_change_notice_does_not_count_as_a_dismiss_confirmation() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::Toggle),
            Msg::Intent(Intent::ChangeQuestionType),
        ],
    );
    assert!(m.notice().unwrap().starts_with("Question type changed"));
    assert!(
        finished(&send(&mut m, [Msg::Intent(Intent::Cancel)])).is_none(),
        "first Esc on a dirty flow only warns"
    );
}

#[test]
fn escape_in_an_editor_closes_it_instead_of_cancelling() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Intent(Intent::QuestionNote), typed("x")]);
    assert!(finished(&send(&mut m, [Msg::Intent(Intent::Cancel)])).is_none());
    assert!(m.editor().is_none());
    assert_eq!(m.answer(0).note.as_deref(), Some("x"));
}

#[test]
fn navigating_out_of_an_editor_saves_its_draft() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::OptionNote),
            typed("first"),
            Msg::Intent(Intent::NextTab),
        ],
    );
    assert_eq!(m.tab(), Tab::Question(1));
    assert_eq!(
        m.answer(0).option_notes.get("a").map(String::as_str),
        Some("first")
    );
}

#[test]
fn settings_modal_blocks_flow_intents_and_toggles_settings() {
    let mut m = flow(tabs3());
    send(&mut m, [Msg::Settings(SettingsIntent::Open)]);
    assert!(m.settings_modal().is_some());
    assert!(
        send(
            &mut m,
            [Msg::Intent(Intent::Number(1)), Msg::Intent(Intent::Cancel)]
        )
        .is_empty()
    );
    assert!(!m.answer(0).is_dirty());
    let cmds = send(&mut m, [Msg::Settings(SettingsIntent::Toggle)]);
    assert!(
        m.settings()
            .behaviour
            .auto_submit_when_answered_without_notes
    );
    assert_eq!(
        cmds,
        vec![Cmd::SaveSetting {
            setting: pi_ask::settings::Setting::AutoSubmit,
            value: true
        }]
    );
    send(
        &mut m,
        [
            Msg::Settings(SettingsIntent::Close),
            Msg::Intent(Intent::Number(1)),
        ],
    );
    assert_eq!(m.answer(0).selected, vec![0]);
}

#[test]
fn a_failed_save_reverts_the_toggle_and_shows_the_message() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Settings(SettingsIntent::Open),
            Msg::Settings(SettingsIntent::Next),
            Msg::Settings(SettingsIntent::Toggle),
        ],
    );
    assert!(!m.settings().behaviour.confirm_dismiss_when_dirty);
    send(
        &mut m,
        [Msg::Report(Report::SettingSaveFailed {
            setting: pi_ask::settings::Setting::ConfirmDismissWhenDirty,
            value: false,
            message: "Unable to save".into(),
        })],
    );
    assert!(m.settings().behaviour.confirm_dismiss_when_dirty);
    assert_eq!(
        m.settings_modal().unwrap().message(),
        Some(&pi_ask::model::ModalMessage::Error("Unable to save".into()))
    );
}

#[test]
fn the_theme_row_asks_the_runtime_to_cycle_the_theme_and_a_failure_is_said() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Settings(SettingsIntent::Open),
            Msg::Settings(SettingsIntent::Previous),
            Msg::Settings(SettingsIntent::Previous),
        ],
    );
    assert_eq!(
        m.settings_modal().unwrap().highlighted(),
        pi_ask::model::SettingsRow::Theme
    );
    assert_eq!(
        send(&mut m, [Msg::Settings(SettingsIntent::Toggle)]),
        vec![Cmd::CycleTheme]
    );
    send(
        &mut m,
        [Msg::Report(Report::ThemeSaveFailed {
            message: "Unable to save.".into(),
        })],
    );
    assert_eq!(
        m.settings_modal().unwrap().message(),
        Some(&pi_ask::model::ModalMessage::Error(
            "Unable to save.".into()
        ))
    );
}

#[test]
fn reset_needs_two_presses_within_the_window() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Settings(SettingsIntent::Open),
            Msg::Settings(SettingsIntent::Previous),
        ],
    );
    assert_eq!(
        m.settings_modal().unwrap().highlighted(),
        pi_ask::model::SettingsRow::Reset,
        "focus wraps"
    );
    assert_eq!(
        send(&mut m, [Msg::Settings(SettingsIntent::Toggle)]),
        vec![Cmd::StartResetWindow]
    );
    assert!(m.settings_modal().unwrap().reset_armed());
    send(&mut m, [Msg::Report(Report::ResetWindowExpired)]);
    assert_eq!(
        send(&mut m, [Msg::Settings(SettingsIntent::Toggle)]),
        vec![Cmd::StartResetWindow],
        "expired: arms again"
    );
    assert_eq!(
        send(&mut m, [Msg::Settings(SettingsIntent::Toggle)]),
        vec![Cmd::ResetConfig]
    );
    // Moving focus disarms it.
    send(
        &mut m,
        [
            Msg::Settings(SettingsIntent::Toggle),
            Msg::Settings(SettingsIntent::Next),
            Msg::Settings(SettingsIntent::Previous),
        ],
    );
    assert!(!m.settings_modal().unwrap().reset_armed());
}

#[test]
fn present_single_as_multi_applies_only_to_new_flows() {
    let mut m = flow(tabs3());
    let mut settings = *m.settings();
    settings.behaviour.present_single_as_multi = true;
    send(&mut m, [Msg::Report(Report::SettingsChanged(settings))]);
    assert_eq!(m.questions()[0].presented_type, QuestionType::Single);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::PreviousTab),
            Msg::Intent(Intent::Number(2)),
        ],
    );
    assert_eq!(m.answer(0).selected, vec![1], "still handled as single");
}

#[test]
fn presented_as_multi_single_questions_are_handled_as_multi() {
    let mut m = flow_with(tabs3(), |s| s.behaviour.present_single_as_multi = true);
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(1)),
            Msg::Intent(Intent::Number(2)),
        ],
    );
    assert_eq!(m.answer(0).selected, vec![0, 1]);
    assert_eq!(m.tab(), Tab::Question(0));
}

#[test]
fn opened_sends_one_notification_naming_the_first_question() {
    let mut m = flow(tabs3());
    let cmds = send(
        &mut m,
        [Msg::Report(Report::Opened), Msg::Report(Report::Opened)],
    );
    assert_eq!(cmds.len(), 1);
    let Cmd::Notify(n) = &cmds[0] else {
        panic!("{cmds:?}")
    };
    assert_eq!(
        (n.event.as_str(), n.title.as_str(), n.message.as_str()),
        ("question.waiting", "pi ask", "Question waiting: ONE")
    );
    let mut m = flow_with(tabs3(), |s| s.notifications_enabled = false);
    assert!(send(&mut m, [Msg::Report(Report::Opened)]).is_empty());
}

#[test]
fn config_notice_shows_until_tab_change_or_config_change() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [Msg::Report(Report::ConfigNotice("bad config".into()))],
    );
    assert_eq!(m.notice(), Some("bad config"));
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    assert_eq!(m.notice(), None);
}

/// The original 1.3.0 keeps a draft closed with Esc exactly as typed (surrounding spaces
/// included) as `customText`, `values` and `labels`; Enter submits it trimmed.
#[test]
fn esc_keeps_a_custom_draft_verbatim_and_enter_trims_it() {
    let mut m = flow(payload(vec![single("one")]));
    let custom = (m.questions()[0].custom_row() + 1) as u8;
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(custom)),
            typed("  spaced  "),
            Msg::Intent(Intent::EditorClose),
        ],
    );
    let answer = &json(&submit(&mut m))["details"]["answers"]["one"];
    assert_eq!(answer["customText"], "  spaced  ");
    assert_eq!(answer["values"], json!(["  spaced  "]));
    assert_eq!(answer["labels"], json!(["  spaced  "]));

    let mut m = flow(payload(vec![single("one")]));
    send(
        &mut m,
        [
            Msg::Intent(Intent::Number(custom)),
            typed("  spaced  "),
            Msg::Intent(Intent::EditorSubmit),
        ],
    );
    let answer = &json(&submit(&mut m))["details"]["answers"]["one"];
    assert_eq!(answer["customText"], "spaced");
    assert_eq!(answer["values"], json!(["spaced"]));
}

/// A draft puts back answers, notes, types, the tab, the cursors and the open editor's text;
/// one that does not fit the form changes nothing.
#[test]
fn a_draft_round_trips_and_a_draft_that_does_not_fit_is_refused() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::QuestionNote),
            typed("why"),
            Msg::Intent(Intent::EditorSubmit),
            Msg::Intent(Intent::Number(2)),
            Msg::Intent(Intent::ChangeQuestionType), // the multi question becomes single
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption),
            Msg::Intent(Intent::NextOption), // its Type your own row: the editor opens
            typed("half"),
        ],
    );
    let draft = m.draft();
    let json = serde_json::to_value(&draft).unwrap();
    let back: pi_ask::model::Draft = serde_json::from_value(json).unwrap();
    assert_eq!(back, draft);

    let mut fresh = flow(tabs3());
    assert!(fresh.restore(&back));
    assert_eq!(fresh.draft(), draft);
    assert_eq!(fresh.tab(), Tab::Question(1));
    assert_eq!(fresh.editor().unwrap().text(), "half");
    assert_eq!(fresh.answer(0).note.as_deref(), Some("why"));
    assert_eq!(fresh.answer(0).selected, [1]);
    assert_eq!(
        fresh.questions()[1].presented_type,
        QuestionType::Single,
        "the type change is kept"
    );

    // Another form: nothing changes.
    let mut other = flow(payload(vec![single("x")]));
    let before = other.draft();
    assert!(!other.restore(&back));
    assert_eq!(other.draft(), before);
    // An option out of range: refused.
    let mut bad = back.clone();
    bad.answers[0].selected = vec![7];
    assert!(!flow(tabs3()).restore(&bad));
}

/// An interruption from outside (a signal, a lost terminal) ends a dirty flow at once, settings
/// modal and editor open or not: nobody is there to confirm, and what was entered is kept in
/// the cancelled result's answers.
#[test]
fn an_interruption_ends_a_dirty_flow_at_once_with_what_was_entered() {
    let mut m = flow(tabs3());
    send(
        &mut m,
        [
            Msg::Intent(Intent::Toggle),
            Msg::Settings(SettingsIntent::Open),
        ],
    );
    let result =
        finished(&send(&mut m, [Msg::External(External::Interrupted)])).expect("ended at once");
    assert!(result.details.cancelled);
    assert!(
        !result.details.answers.is_empty(),
        "what was entered is kept"
    );
    assert!(m.settings_modal().is_none());
}
