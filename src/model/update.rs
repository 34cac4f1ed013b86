//! `update`: the one place the flow's state changes.

use super::{
    Cmd, EditOp, EditorTarget, External, Intent, Model, Msg, Notification, OpenEditor, PopupAction,
    Report, ReviewAction, SettingsIntent, Tab, ViewMeasures, popup,
};
use crate::form::QuestionType;
use crate::result::{self, Outcome};

mod direct;

/// Applies one message to the flow and returns the effects to carry out, as a form nobody draws
/// (line mode, a test): pages and the preview's scroll have their default sizes. Never does I/O.
pub fn update(model: &mut Model, msg: Msg) -> Vec<Cmd> {
    update_in_view(model, msg, &ViewMeasures::default())
}

/// [`update`] in a view that measured `view` (the last frame's page size and preview range,
/// which the view keeps): what a page move or a preview scroll means there.
pub fn update_in_view(model: &mut Model, msg: Msg, view: &ViewMeasures) -> Vec<Cmd> {
    if changes_entries(&msg) {
        model.revision = model.revision.wrapping_add(1);
    }
    let editing = model.editor.as_ref().map(|e| e.target);
    let cmds = match model.filter.is_some() && !model.finished {
        true => match filter_update(model, msg, view) {
            Ok(cmds) => cmds,
            Err(msg) => update_flow(model, msg, view),
        },
        false => update_flow(model, msg, view),
    };
    // The popup belongs to one editor: it closes with it.
    if model.editor.as_ref().map(|e| e.target) != editing {
        model.completion.close();
    }
    // A filter belongs to its question's tab, with nothing over it.
    if let Some(filter) = &model.filter
        && (model.tab() != Tab::Question(filter.question)
            || model.editor.is_some()
            || model.settings_modal.is_some()
            || model.finished)
    {
        model.filter = None;
    }
    cmds
}

/// A message while the filter line is open: its keys and typing are the filter's; anything else
/// goes on to the flow (given back as `Err`).
fn filter_update(model: &mut Model, msg: Msg, view: &ViewMeasures) -> Result<Vec<Cmd>, Msg> {
    use super::FilterAction as F;
    let Some(filter) = model.filter.as_mut() else {
        return Err(msg);
    };
    let q = filter.question;
    let multi = model.questions[q].presented_type.is_multi();
    match msg {
        Msg::Edit(op) => {
            if filter.query.apply(op) {
                filter.refresh();
                follow_filter(model);
            }
            Ok(Vec::new())
        }
        Msg::Filter(F::Next) => {
            filter.step(1);
            follow_filter(model);
            Ok(Vec::new())
        }
        Msg::Filter(F::Previous) => {
            filter.step(-1);
            follow_filter(model);
            Ok(Vec::new())
        }
        Msg::Filter(F::Close) => {
            model.filter = None;
            Ok(Vec::new())
        }
        // The list's own moves and choices, from any driver, act on the filtered list.
        Msg::Intent(Intent::NextOption) => filter_update(model, Msg::Filter(F::Next), view),
        Msg::Intent(Intent::PreviousOption) => filter_update(model, Msg::Filter(F::Previous), view),
        Msg::Intent(Intent::FirstOption)
        | Msg::Intent(Intent::LastOption)
        | Msg::Intent(Intent::PageDown)
        | Msg::Intent(Intent::PageUp) => {
            let page = view.page_rows.max(1) as isize;
            let delta = match msg {
                Msg::Intent(Intent::FirstOption) => isize::MIN,
                Msg::Intent(Intent::LastOption) => isize::MAX,
                Msg::Intent(Intent::PageDown) => page,
                _ => -page,
            };
            filter.step(delta);
            follow_filter(model);
            Ok(Vec::new())
        }
        Msg::Intent(Intent::Toggle) if multi => filter_update(model, Msg::Filter(F::Toggle), view),
        Msg::Intent(Intent::Number(n)) => filter_update(model, Msg::Filter(F::Pick(n)), view),
        Msg::Intent(Intent::Confirm) => filter_update(model, Msg::Filter(F::Accept), view),
        // Space is a character of the query on a question that cannot toggle.
        Msg::Filter(F::Toggle) if !multi => filter_update(
            model,
            Msg::Edit(pi_ask_components::EditOp::Insert(" ".into())),
            view,
        ),
        Msg::Filter(F::Toggle) => {
            if let Some(option) = filter.highlighted() {
                model.answers[q].toggle(option);
            }
            Ok(Vec::new())
        }
        Msg::Filter(F::Pick(n)) => {
            let Some(index) = usize::from(n).checked_sub(1) else {
                return Ok(Vec::new());
            };
            if index >= filter.matches.len() {
                return Ok(Vec::new());
            }
            filter.selected = index;
            follow_filter(model);
            match multi {
                true => filter_update(model, Msg::Filter(F::Toggle), view),
                false => filter_update(model, Msg::Filter(F::Accept), view),
            }
        }
        Msg::Filter(F::Accept) => {
            let Some(option) = filter.highlighted() else {
                return Ok(Vec::new());
            };
            model.filter = None;
            model.cursors[q] = option;
            if multi {
                if !model.answers[q].is_selected(option) {
                    model.answers[q].toggle(option);
                }
                return Ok(Vec::new());
            }
            select_only(model, q, option);
            Ok(advance(model))
        }
        other => Err(other),
    }
}

/// The cursor follows the filter's highlight (so the preview shows the highlighted option).
fn follow_filter(model: &mut Model) {
    if let Some(filter) = &model.filter
        && let Some(option) = filter.highlighted()
    {
        model.cursors[filter.question] = option;
        model.suppress_auto_open = false;
    }
}

fn update_flow(model: &mut Model, msg: Msg, view: &ViewMeasures) -> Vec<Cmd> {
    if model.finished {
        return Vec::new();
    }
    match msg {
        Msg::External(external) => ending(model, external),
        Msg::Report(report) => take_report(model, report),
        Msg::Intent(Intent::ToggleHidden) => {
            model.hidden = !model.hidden;
            Vec::new()
        }
        // Hidden, the form takes nothing but its hide key and dismiss: nothing is answered
        // unseen.
        Msg::Intent(Intent::Dismiss) if model.hidden => intent_update(model, Intent::Dismiss, view),
        _ if model.hidden => Vec::new(),
        msg @ Msg::Settings(_) => settings(model, msg),
        // The modal is modal: the flow's own intents wait until it closes.
        _ if model.settings_modal.is_some() => Vec::new(),
        Msg::Intent(intent) => {
            if intent != Intent::ChangeQuestionType {
                clear_pending_type_change(model);
            }
            intent_update(model, intent, view)
        }
        Msg::Direct(direct) => {
            clear_pending_type_change(model);
            direct::update(model, direct)
        }
        Msg::Edit(op) => edit(model, op),
        // Tab with no path word to complete goes on, as in an empty editor.
        Msg::Popup(PopupAction::Complete) if model.editor.is_some() && !model.tab_completes() => {
            intent_update(model, Intent::NextTab, view)
        }
        Msg::Popup(action) if model.editor.is_some() => popup::action(model, action),
        Msg::Popup(_) => Vec::new(),
        // A filter key with no filter open, an inbox key in a form: a person's action that
        // means nothing here, except that it is not the confirming press of a type change.
        Msg::Filter(_) | Msg::Inbox(_) => {
            clear_pending_type_change(model);
            Vec::new()
        }
    }
}

/// An ending decided outside the person goes through whatever is open.
fn ending(model: &mut Model, external: External) -> Vec<Cmd> {
    match external {
        External::RemoteAnswer { answers, elaborate } => remote_answer(model, answers, elaborate),
        // An explicit remote cancel, or the flow interrupted from outside (a signal, a lost
        // terminal, an inbox's ask put back): cancelled whatever was entered, with no dirty
        // confirmation (nobody is there to confirm).
        External::RemoteCancel | External::Interrupted => {
            model.editor = None;
            model.settings_modal = None;
            finish(model, Outcome::Cancelled)
        }
    }
}

/// What the runtime reports, taken whether or not the settings modal is open.
fn take_report(model: &mut Model, report: Report) -> Vec<Cmd> {
    match report {
        Report::Opened => notify_once(model),
        Report::Suggestions {
            generation,
            matches,
            truncated,
        } => popup::suggestions(model, generation, matches, truncated),
        Report::StandingNotice(notice) => {
            model.standing_notice = Some(notice);
            Vec::new()
        }
        report @ (Report::SettingsChanged(_)
        | Report::ConfigNotice(_)
        | Report::ResetWindowExpired
        | Report::SettingSaveFailed { .. }
        | Report::ResetFailed { .. }
        | Report::ThemeSaveFailed { .. }) => settings(model, Msg::Report(report)),
    }
}

/// The settings' own messages, by the rule the modal alone follows too
/// ([`super::settings_modal::update_settings`]); then auto-submit, since a toggle, a saved or a
/// reverted setting may be auto-submit's (opening, closing, a notice or the reset window's end
/// change no setting).
fn settings(model: &mut Model, msg: Msg) -> Vec<Cmd> {
    let changes_settings = match &msg {
        Msg::Settings(SettingsIntent::Open | SettingsIntent::Close) => false,
        Msg::Settings(_) => model.settings_modal.is_some(),
        Msg::Report(Report::ConfigNotice(_) | Report::ResetWindowExpired) => false,
        _ => true,
    };
    let footer = Some(&mut model.config_notice);
    let mut cmds = super::settings_modal::update_settings(
        &mut model.settings_modal,
        &mut model.settings,
        footer,
        msg,
    )
    .unwrap_or_default();
    if changes_settings {
        cmds.extend(maybe_auto_submit(model));
    }
    cmds
}

/// A person's intent in the form.
fn intent_update(model: &mut Model, intent: Intent, view: &ViewMeasures) -> Vec<Cmd> {
    match intent {
        Intent::NextTab => move_tab(model, 1),
        Intent::PreviousTab => move_tab(model, -1),
        Intent::NextOption => move_option(model, 1),
        Intent::PreviousOption => move_option(model, -1),
        Intent::FirstOption => move_option(model, isize::MIN),
        Intent::LastOption => move_option(model, isize::MAX),
        Intent::PageDown => move_option(model, view.page_rows.max(1) as isize),
        Intent::PageUp => move_option(model, -(view.page_rows.max(1) as isize)),
        Intent::PreviewDown => scroll_preview(model, 1, view),
        Intent::PreviewUp => scroll_preview(model, -1, view),
        Intent::PreviewPageDown => scroll_preview(model, i32::from(view.preview_page.max(1)), view),
        Intent::PreviewPageUp => scroll_preview(model, -i32::from(view.preview_page.max(1)), view),
        Intent::TogglePreviewRaw => {
            model.preview_raw = !model.preview_raw;
            Vec::new()
        }
        Intent::PreviewTop => scroll_preview(model, i32::MIN / 2, view),
        Intent::PreviewBottom => scroll_preview(model, i32::MAX / 2, view),
        Intent::Confirm => confirm(model),
        Intent::Toggle => toggle(model),
        Intent::ToggleAll => toggle_all(model),
        Intent::Number(n) => number(model, n),
        Intent::OpenFilter => open_filter(model),
        // Taken before the modal and the hidden form's gate (`update_flow`).
        Intent::ToggleHidden => Vec::new(),
        Intent::ExternalEditor => match &model.editor {
            Some(open) => vec![Cmd::EditExternally {
                text: open.edit.text().to_owned(),
            }],
            None => Vec::new(),
        },
        Intent::OptionNote => open_option_note(model),
        Intent::QuestionNote => open_question_note(model),
        Intent::ChangeQuestionType => change_question_type(model),
        Intent::EditorSubmit => close_editor(model, true),
        Intent::EditorClose => close_editor(model, false),
        Intent::Cancel if model.editor.is_some() => close_editor(model, false),
        Intent::Cancel | Intent::Dismiss => request_discard(model),
        Intent::Review(action) => run_review_action(model, action),
    }
}

/// One editing operation in the open editor; typing may open, narrow or close the `@` popup.
/// A whole text set at once (a line-by-line driver's answer) is not typing: no suggestions.
fn edit(model: &mut Model, op: EditOp) -> Vec<Cmd> {
    let Some(editor) = &mut model.editor else {
        return Vec::new();
    };
    if let EditOp::ReplaceAll(_) = op {
        editor.edit.apply(op);
        return Vec::new();
    }
    let before = (editor.edit.cursor(), editor.edit.text().len());
    let paste = matches!(op, EditOp::Paste(_));
    let changed = editor.edit.apply(op);
    let moved = (editor.edit.cursor(), editor.edit.text().len()) != before;
    if changed || moved {
        popup::after_edit(model, paste)
    } else {
        Vec::new()
    }
}

/// Messages that may change what was entered (answers, notes, drafts, tab, cursors): the
/// runtime records a [`super::Draft`] after them. Reports never do.
fn changes_entries(msg: &Msg) -> bool {
    !matches!(msg, Msg::Report(_))
}

fn notify_once(model: &mut Model) -> Vec<Cmd> {
    if model.notified || !model.settings.notifications_enabled {
        return Vec::new();
    }
    model.notified = true;
    let first = &model.questions[0];
    let subject = if first.label.is_empty() {
        &first.prompt
    } else {
        &first.label
    };
    vec![Cmd::Notify(Notification {
        event: "question.waiting".into(),
        title: "pi ask".into(),
        message: waiting_message(subject),
    })]
}

/// `Question waiting: <subject>` with whitespace collapsed, at most 120 characters.
pub(crate) fn waiting_message(subject: &str) -> String {
    let compact = subject.split_whitespace().collect::<Vec<_>>().join(" ");
    let message = format!("Question waiting: {compact}");
    if message.chars().count() > 120 {
        let mut cut: String = message.chars().take(119).collect();
        cut.push('…');
        cut
    } else {
        message
    }
}

fn move_tab(model: &mut Model, delta: isize) -> Vec<Cmd> {
    commit_open_editor(model);
    let count = model.tab_count() as isize;
    let next = (model.tab as isize + delta).rem_euclid(count) as usize;
    go_to_tab(model, next)
}

/// Enters a tab: resets tab-scoped state, reopens the editor on an empty custom row,
/// and auto-submits when the review tab is reached with everything answered.
fn go_to_tab(model: &mut Model, tab: usize) -> Vec<Cmd> {
    model.tab = tab;
    model.review_cursor = ReviewAction::Submit;
    model.pending_review_shortcut = None;
    model.dismiss_pending = false;
    model.type_notice = None;
    model.config_notice = None;
    model.suppress_auto_open = false;
    land_cursor(model);
    model.sync_editor_to_cursor();
    maybe_auto_submit(model)
}

/// Entering a question tab puts the cursor on its committed answer (single and preview questions,
/// so `n` annotates what was chosen), otherwise on the first option; hovering is forgotten.
fn land_cursor(model: &mut Model) {
    let Tab::Question(q) = model.tab() else {
        return;
    };
    let question = &model.questions[q];
    let answer = &model.answers[q];
    model.cursors[q] = if question.presented_type.is_multi() {
        0
    } else if let Some(&chosen) = answer.selected.first() {
        chosen
    } else if answer.custom_answer().is_some() {
        question.custom_row()
    } else {
        0
    };
}

fn advance(model: &mut Model) -> Vec<Cmd> {
    let next = (model.tab + 1).min(model.questions.len());
    go_to_tab(model, next)
}

/// Auto-submit on a complete review tab, also while the settings modal is open (turning the
/// toggle on there finishes at once, after the toggle's save, as in the original).
fn maybe_auto_submit(model: &mut Model) -> Vec<Cmd> {
    let auto = model
        .settings
        .behaviour
        .auto_submit_when_answered_without_notes;
    if auto
        && model.tab() == Tab::Review
        && model.editor.is_none()
        && model.is_complete_without_notes()
    {
        finish(model, Outcome::Submit)
    } else {
        Vec::new()
    }
}

/// Moves the cursor by `delta` rows, clamped to the list (`isize::MIN`/`MAX` reach its ends).
fn move_option(model: &mut Model, delta: isize) -> Vec<Cmd> {
    commit_open_editor(model);
    let step = |from: usize, last: usize| from.saturating_add_signed(delta).min(last);
    match model.tab() {
        Tab::Question(q) => {
            let last = model.questions[q].row_count() - 1;
            let next = step(model.cursors[q], last);
            if next != model.cursors[q] {
                model.cursors[q] = next;
                model.suppress_auto_open = false;
            }
            model.sync_editor_to_cursor();
        }
        Tab::Review => {
            let at = step(model.review_cursor.index(), ReviewAction::ALL.len() - 1);
            model.review_cursor = ReviewAction::at(at).unwrap_or(model.review_cursor);
            model.pending_review_shortcut = None;
        }
    }
    Vec::new()
}

/// Scrolls the preview pane of a preview question (the view bounds it to the text).
fn scroll_preview(model: &mut Model, delta: i32, view: &ViewMeasures) -> Vec<Cmd> {
    model.scroll_preview_by(delta, view);
    Vec::new()
}

fn confirm(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    match model.tab() {
        Tab::Review => run_review_action(model, model.review_cursor()),
        Tab::Question(q) => {
            let row = model.cursors[q];
            if row == model.questions[q].custom_row() {
                open_answer_editor(model, q);
                return Vec::new();
            }
            if !model.questions[q].presented_type.is_multi() {
                select_only(model, q, row);
            }
            advance(model)
        }
    }
}

/// `/` on a question tab with no editor open: the filter line over its options.
fn open_filter(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    // A freeform question has no options to filter, only its text.
    if let Tab::Question(q) = model.tab()
        && !model.questions[q].freeform
        && !model.questions[q].options.is_empty()
    {
        model.filter = Some(super::Filter::new(q, &model.questions[q], model.cursors[q]));
        // From the free-form row (never a match) the highlight starts on the first option.
        follow_filter(model);
    }
    Vec::new()
}

fn toggle(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    if let Tab::Question(q) = model.tab() {
        let row = model.cursors[q];
        toggle_row(model, q, row);
    }
    Vec::new()
}

/// Every option of the current multi question chosen (those not yet chosen added in the options'
/// order), or none when all already are; the own answer keeps its state. Nothing elsewhere.
fn toggle_all(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    let Tab::Question(q) = model.tab() else {
        return Vec::new();
    };
    if !model.questions[q].presented_type.is_multi() {
        return Vec::new();
    }
    let options = model.questions[q].options.len();
    let answer = &mut model.answers[q];
    if (0..options).all(|i| answer.is_selected(i)) {
        answer.selected.clear();
    } else {
        for i in 0..options {
            if !answer.is_selected(i) {
                answer.selected.push(i);
            }
        }
    }
    Vec::new()
}

/// Space on a row: toggles on multi questions; selects or clears on single/preview ones.
/// The custom row opens the editor unless a multi question already has saved text to toggle.
fn toggle_row(model: &mut Model, q: usize, row: usize) {
    let multi = model.questions[q].presented_type.is_multi();
    let answer = &mut model.answers[q];
    if row == model.questions[q].custom_row() {
        if multi && answer.custom_text.is_some() {
            answer.custom_selected = !answer.custom_selected;
        } else {
            open_answer_editor(model, q);
        }
    } else if multi {
        answer.toggle(row);
    } else if answer.is_selected(row) {
        answer.selected.clear();
    } else {
        select_only(model, q, row);
    }
}

/// A single choice: this option only; saved free-form text stays but no longer counts.
fn select_only(model: &mut Model, q: usize, option: usize) {
    let answer = &mut model.answers[q];
    answer.selected = vec![option];
    answer.custom_selected = false;
}

fn number(model: &mut Model, n: u8) -> Vec<Cmd> {
    if model.editor.is_some() || !(1..=9).contains(&n) {
        return Vec::new();
    }
    let index = usize::from(n - 1);
    match model.tab() {
        Tab::Review => {
            let Some(action) = ReviewAction::at(index) else {
                return Vec::new();
            };
            if !model.settings.behaviour.double_press_review_shortcuts
                || model.pending_review_shortcut == Some(action)
            {
                return run_review_action(model, action);
            }
            model.pending_review_shortcut = Some(action);
            model.review_cursor = action;
            Vec::new()
        }
        Tab::Question(q) => {
            if index >= model.questions[q].row_count() {
                return Vec::new();
            }
            if model.cursors[q] != index {
                model.cursors[q] = index;
                model.suppress_auto_open = false;
            }
            let custom = index == model.questions[q].custom_row();
            if !custom && !model.questions[q].presented_type.is_multi() {
                select_only(model, q, index);
                return advance(model);
            }
            toggle_row(model, q, index);
            Vec::new()
        }
    }
}

fn open_answer_editor(model: &mut Model, q: usize) {
    let text = model.answers[q].custom_text.clone().unwrap_or_default();
    model.editor = Some(OpenEditor::new(EditorTarget::Answer { question: q }, &text));
}

fn open_option_note(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    if let Tab::Question(q) = model.tab() {
        let option = model.cursors[q];
        if let Some(opt) = model.questions[q].options.get(option) {
            let text = model.answers[q]
                .option_notes
                .get(&opt.value)
                .cloned()
                .unwrap_or_default();
            model.editor = Some(OpenEditor::new(
                EditorTarget::OptionNote {
                    question: q,
                    option,
                },
                &text,
            ));
        }
    }
    Vec::new()
}

fn open_question_note(model: &mut Model) -> Vec<Cmd> {
    if model.editor.is_some() {
        return Vec::new();
    }
    if let Tab::Question(q) = model.tab() {
        let text = model.answers[q].note.clone().unwrap_or_default();
        model.editor = Some(OpenEditor::new(
            EditorTarget::QuestionNote { question: q },
            &text,
        ));
    }
    Vec::new()
}

/// Saves the open editor's draft and closes it (used before navigating away from an editor).
fn commit_open_editor(model: &mut Model) {
    if model.editor.is_some() {
        close_editor(model, false);
        model.suppress_auto_open = false;
    }
}

/// Saves the editor's text to its target and closes it. `submit` is Enter: a non-blank
/// free-form answer on a single/preview question then advances to the next tab.
fn close_editor(model: &mut Model, submit: bool) -> Vec<Cmd> {
    // Enter on a blank `Type your own` answer submits nothing: the editor stays open, so what is
    // typed next is the answer, not commands (the original keeps it open too; Esc closes it).
    if submit
        && let Some(open) = &model.editor
        && matches!(open.target, EditorTarget::Answer { .. })
        && open.edit.text().trim().is_empty()
    {
        return Vec::new();
    }
    let Some(OpenEditor { target, edit, .. }) = model.editor.take() else {
        return Vec::new();
    };
    let text = edit.into_text();
    match target {
        EditorTarget::QuestionNote { question } => model.answers[question].set_note(&text),
        EditorTarget::OptionNote { question, option } => {
            let value = model.questions[question].options[option].value.clone();
            model.answers[question].set_option_note(&value, &text);
        }
        EditorTarget::Answer { question } => {
            let multi = model.questions[question].presented_type.is_multi();
            let answer = &mut model.answers[question];
            let unchanged = answer.custom_text.as_deref() == Some(text.trim());
            // Enter submits the answer trimmed; Esc keeps the draft verbatim (the original 1.3.0
            // keeps `"  spaced  "` as it was typed).
            answer.set_custom_text(if submit { text.trim() } else { &text });
            let saved = answer.custom_text.is_some();
            if saved {
                answer.custom_selected = true;
                if !multi {
                    answer.selected.clear();
                }
            }
            model.suppress_auto_open = true;
            // Enter goes on with a single question's answer. A multi question stays, so other
            // options can be ticked (both as the original), except when Enter confirms the saved
            // answer unchanged: that goes on (in the original Enter on the saved row only ever
            // reopened the editor, and Enter there saved and stayed, with no way on by Enter).
            if submit && saved && (!multi || unchanged) {
                return advance(model);
            }
        }
    }
    Vec::new()
}

fn change_question_type(model: &mut Model) -> Vec<Cmd> {
    let Tab::Question(q) = model.tab() else {
        return Vec::new();
    };
    if model.editor.is_some() {
        return Vec::new();
    }
    let question = &model.questions[q];
    let from = question.presented_type;
    let to = match from {
        QuestionType::Multi if question.requested_type == QuestionType::Preview => {
            QuestionType::Preview
        }
        QuestionType::Multi => QuestionType::Single,
        QuestionType::Single | QuestionType::Preview => QuestionType::Multi,
    };
    let destructive = !to.is_multi() && model.answers[q].committed_count() > 1;
    if destructive && model.pending_type_change != Some(q) {
        model.pending_type_change = Some(q);
        model.type_notice = Some(crate::strings::type_change_pending(to));
        return Vec::new();
    }
    if destructive {
        model.answers[q].selected.clear();
    }
    model.pending_type_change = None;
    model.questions[q].presented_type = to;
    model.type_notice = Some(crate::strings::type_changed(from, to));
    Vec::new()
}

fn clear_pending_type_change(model: &mut Model) {
    if model.pending_type_change.take().is_some() {
        model.type_notice = None;
    }
}

/// Cancel or dismiss: discards at once, or first asks for a second press when the flow is dirty.
fn request_discard(model: &mut Model) -> Vec<Cmd> {
    let confirm = model.settings.behaviour.confirm_dismiss_when_dirty;
    if confirm && !model.dismiss_pending && model.is_dirty() {
        model.dismiss_pending = true;
        return Vec::new();
    }
    model.editor = None;
    finish(model, Outcome::Cancelled)
}

fn run_review_action(model: &mut Model, action: ReviewAction) -> Vec<Cmd> {
    model.editor = None;
    let outcome = match action {
        ReviewAction::Submit => Outcome::Submit,
        ReviewAction::Elaborate => Outcome::Elaborate,
        ReviewAction::Cancel => Outcome::Cancelled,
    };
    finish(model, outcome)
}

/// A remote answer replaces the answer set; a malformed one (the wrong number of questions, an
/// option out of range) is ignored, as validation happens before it is sent.
fn remote_answer(model: &mut Model, answers: Vec<super::AnswerState>, elaborate: bool) -> Vec<Cmd> {
    let fits = answers.len() == model.questions.len()
        && answers.iter().zip(&model.questions).all(|(a, q)| {
            a.selected.iter().all(|&i| i < q.options.len())
                && (q.presented_type.is_multi() || a.committed_count() <= 1)
        });
    if !fits {
        return Vec::new();
    }
    model.answers = answers;
    model.editor = None;
    model.settings_modal = None;
    model.tab = model.questions.len();
    finish(
        model,
        if elaborate {
            Outcome::Elaborate
        } else {
            Outcome::Submit
        },
    )
}

fn finish(model: &mut Model, outcome: Outcome) -> Vec<Cmd> {
    model.finished = true;
    vec![Cmd::Finish(Box::new(result::build_from_state(
        model.title(),
        model.questions(),
        model.answers(),
        outcome,
    )))]
}
