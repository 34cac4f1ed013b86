//! Footer hints, generated from the live binding table so a remap shows everywhere.

use crate::keymap::{Action, BindingTable};
use crate::model::{Model, Tab};

/// An action's keys and its verb from the action table.
fn hint(table: &BindingTable, action: Action) -> Option<String> {
    hint_as(table, action, action.spec().hint)
}

/// An action's keys with a verb of this state (`Enter continue` on a multi question).
fn hint_as(table: &BindingTable, action: Action, verb: &str) -> Option<String> {
    let label = table.label(action);
    (!label.is_empty()).then(|| format!("{label} {verb}"))
}

/// The question-type hint names its keys by their raw ids joined ` / ` (`t question type`,
/// `ctrl+t question type`), the one hint the original builds that way; every other hint writes
/// labels (`N/Shift+N note`).
fn question_type_hint(table: &BindingTable) -> Option<String> {
    let keys = table.keys(Action::MainChangeQuestionType);
    let ids: Vec<String> = keys.iter().map(ToString::to_string).collect();
    (!ids.is_empty()).then(|| {
        format!(
            "{} {}",
            ids.join(" / "),
            Action::MainChangeQuestionType.spec().hint
        )
    })
}

/// A pair of actions shown as one hint: `⇆`/`↑↓` for the default keys (as the original draws
/// them), otherwise both first keys' labels (`Ctrl+N/Ctrl+P select`).
fn pair_hint(
    table: &BindingTable,
    (forward, back): (Action, Action),
    default_glyph: (&str, &str, &str),
    verb: &str,
) -> Option<String> {
    let (f_key, b_key, glyph) = default_glyph;
    let first = |a: Action| table.keys(a).first().cloned();
    let label = match (first(forward), first(back)) {
        (Some(f), Some(b)) if f.to_string() == f_key && b.to_string() == b_key => glyph.to_owned(),
        (Some(f), Some(b)) => format!("{}/{}", f.label(), b.label()),
        (Some(k), None) | (None, Some(k)) => k.label(),
        (None, None) => return None,
    };
    Some(format!("{label} {verb}"))
}

/// What the hints depend on besides the bindings and the model.
#[derive(Debug, Clone, Copy, Default)]
pub struct Around {
    /// The `@` popup is open with suggestions.
    pub popup_open: bool,
    /// Markdown is rendered (the config's `theme.markdown`): the raw toggle is named only for a
    /// preview that has some.
    pub markdown: bool,
    /// The terminal reports Shift+Enter apart from Enter (the kitty keyboard protocol): without
    /// it, a hint never names `shift+enter`, which would save instead.
    pub shift_enter: bool,
    /// Hiding the form shows something worth reading (a host's conversation above the form):
    /// only then is `global.hide` named.
    pub hides: bool,
    /// The shown preview does not fit its pane: its scroll keys are named.
    pub preview_overflows: bool,
}

/// The hints for the current state of a flow, in display order and in groups (each group starts
/// on a line of its own: an editor's editing keys go under its other keys). Every key is written
/// the same way (its label, from the live table); `? settings` shows only where `?` opens the
/// settings.
pub fn flow_hints(table: &BindingTable, model: &Model, around: &Around) -> Vec<Vec<String>> {
    use Action::*;
    let Around {
        popup_open,
        markdown,
        shift_enter,
        hides,
        preview_overflows,
    } = *around;
    if popup_open {
        return vec![
            [
                pair_hint(
                    table,
                    (AutocompleteNext, AutocompletePrevious),
                    ("down", "up", "↑↓"),
                    "select",
                ),
                hint(table, AutocompleteAccept),
                hint(table, AutocompleteComplete),
                hint(table, AutocompleteClose),
            ]
            .into_iter()
            .flatten()
            .collect(),
        ];
    }
    if let Some(filter) = model.filter() {
        let multi = model.questions()[filter.question].presented_type.is_multi();
        let mut hints = vec![
            pair_hint(
                table,
                (FilterNext, FilterPrevious),
                ("down", "up", "↑↓"),
                "select",
            ),
            hint(table, FilterAccept),
        ];
        if multi {
            hints.push(hint(table, FilterToggle));
        }
        hints.push(hint(table, FilterClose));
        return vec![hints.into_iter().flatten().collect()];
    }
    let tabs = pair_hint(
        table,
        (MainNextTab, MainPreviousTab),
        ("tab", "shift+tab", "⇆"),
        "tab",
    );
    let select = pair_hint(
        table,
        (MainNextOption, MainPreviousOption),
        ("down", "up", "↑↓"),
        "select",
    );
    let editor_has_text = model.editor().is_some_and(|e| !e.edit.is_empty());
    let settings = (!editor_has_text)
        .then(|| hint(table, GlobalSettings))
        .flatten();
    let mut hints: Vec<Option<String>> = match (model.editor(), model.tab()) {
        (Some(editor), _) if editor.target.is_note() => {
            vec![hint(table, NoteEditorSave), hint(table, NoteEditorClose)]
        }
        (Some(editor), _) => {
            let q = editor.target.question();
            // In a multi question Enter saves and stays, or goes on when it confirms the saved
            // answer unchanged (`update`'s rule).
            let verb = if !model.questions()[q].presented_type.is_multi() {
                EditorSubmit.spec().hint
            } else if model.answer(q).custom_text.as_deref() == Some(editor.text().trim()) {
                "continue"
            } else {
                "save"
            };
            vec![hint_as(table, EditorSubmit, verb), hint(table, EditorClose)]
        }
        (None, Tab::Review) => vec![
            tabs,
            select,
            Some(crate::strings::REVIEW_DIGITS_HINT.to_owned()),
            hint_as(table, MainConfirm, "confirm"),
            hint_as(table, MainCancel, "cancel"),
        ],
        (None, Tab::Question(q)) => {
            let multi = model.questions()[q].presented_type.is_multi();
            let notes = match (
                table.first_label(MainOptionNote),
                table.first_label(MainQuestionNote),
            ) {
                (Some(o), Some(q)) => Some(format!("{o}/{q} note")),
                (Some(o), None) => Some(format!("{o} note")),
                (None, Some(q)) => Some(format!("{q} note")),
                (None, None) => None,
            };
            let mut hints = vec![tabs, select];
            // A preview taller than its pane: how to read the rest.
            if preview_overflows {
                hints.push(pair_hint(
                    table,
                    (MainPreviewDown, MainPreviewUp),
                    ("shift+down", "shift+up", "Shift+↓↑"),
                    MainPreviewDown.spec().hint,
                ));
                hints.push(pair_hint(
                    table,
                    (MainPreviewPageDown, MainPreviewPageUp),
                    ("shift+pageDown", "shift+pageUp", "Shift+pageDown/pageUp"),
                    MainPreviewPageDown.spec().hint,
                ));
            }
            // A preview written in Markdown: how to see it as written (or rendered again).
            let has_markdown = model.current_preview().is_some_and(|p| {
                pi_ask_components::markdown::renders(
                    p,
                    200,
                    pi_ask_components::preview_pane::MAX_PREVIEW_LINES,
                    &pi_ask_components::Theme::default(),
                )
            });
            if markdown && has_markdown {
                let verb = if model.preview_raw() {
                    "rendered"
                } else {
                    "raw"
                };
                hints.push(hint_as(table, MainTogglePreviewRaw, verb));
            }
            if multi {
                hints.push(hint(table, MainToggle));
                hints.push(hint(table, MainToggleAll));
            }
            // Past nine options the digits stop reaching them: typing a few letters does.
            if model.questions()[q].options.len() > 9 {
                hints.push(hint(table, MainFilter));
            }
            hints.push(question_type_hint(table));
            // On a saved `Type your own` answer, Enter opens it for editing.
            let on_saved_answer = model.cursor(q) == model.questions()[q].custom_row()
                && model.answer(q).custom_text.is_some();
            hints.push(hint_as(
                table,
                MainConfirm,
                match (on_saved_answer, multi) {
                    (true, _) => "edit",
                    (false, true) => "continue",
                    (false, false) => "confirm",
                },
            ));
            hints.push(notes);
            hints.push(hint(table, MainCancel));
            hints
        }
    };
    hints.push(settings);
    if hides {
        hints.push(hint(table, GlobalHide));
    }
    let mut groups = vec![hints.into_iter().flatten().collect::<Vec<String>>()];
    // Once an editor holds text, its editing keys get a line of their own.
    if model.editor().is_some_and(|e| !e.edit.is_empty()) {
        let mut editing = editing_hints(table, shift_enter);
        let tab = if model.tab_completes() {
            AutocompleteComplete.spec().hint
        } else {
            "next tab"
        };
        editing.extend(hint_as(table, AutocompleteComplete, tab));
        if !editing.is_empty() {
            groups.push(editing);
        }
    }
    groups
}

/// The hints a frame short of rows keeps, on one line where it can: in an option list or the
/// review, moving, toggling (multi), choosing, cancelling and the settings; elsewhere (an editor,
/// the filter, the `@` popup) the state's own first line of hints, which are already the
/// essential ones. What is left out is in docs/keymaps.md and the settings (`?`).
pub fn essential_hints(table: &BindingTable, model: &Model, around: &Around) -> Vec<String> {
    use Action::*;
    let all = flow_hints(table, model, around);
    let in_list = !around.popup_open && model.filter().is_none() && model.editor().is_none();
    if !in_list {
        return all.into_iter().next().unwrap_or_default();
    }
    let select = pair_hint(
        table,
        (MainNextOption, MainPreviousOption),
        ("down", "up", "↑↓"),
        "select",
    );
    let (toggle, confirm, cancel) = match model.tab() {
        Tab::Question(q) => {
            let multi = model.questions()[q].presented_type.is_multi();
            let on_saved_answer = model.cursor(q) == model.questions()[q].custom_row()
                && model.answer(q).custom_text.is_some();
            let verb = match (on_saved_answer, multi) {
                (true, _) => "edit",
                (false, true) => "continue",
                (false, false) => "confirm",
            };
            (
                multi.then(|| hint(table, MainToggle)).flatten(),
                hint_as(table, MainConfirm, verb),
                hint(table, MainCancel),
            )
        }
        Tab::Review => (
            None,
            hint_as(table, MainConfirm, "confirm"),
            hint_as(table, MainCancel, "cancel"),
        ),
    };
    [select, toggle, confirm, cancel, hint(table, GlobalSettings)]
        .into_iter()
        .flatten()
        .collect()
}

/// The editing actions with a hint verb, from the table: word motions as one pair, deleting a
/// word, and a new line by the first of its keys the terminal delivers.
fn editing_hints(table: &BindingTable, shift_enter: bool) -> Vec<String> {
    use Action::*;
    let word = match (
        table.first_label(EditorCursorWordLeft),
        table.first_label(EditorCursorWordRight),
    ) {
        (Some(l), Some(r)) => Some(format!("{l}/{r} {}", EditorCursorWordLeft.spec().hint)),
        (Some(k), None) | (None, Some(k)) => {
            Some(format!("{k} {}", EditorCursorWordLeft.spec().hint))
        }
        (None, None) => None,
    };
    let first = |action: Action| {
        table
            .first_label(action)
            .map(|k| format!("{k} {}", action.spec().hint))
    };
    let new_line = table
        .keys(EditorNewLine)
        .iter()
        .find(|key| shift_enter || key.to_string() != "shift+enter")
        .map(|key| format!("{} {}", key.label(), EditorNewLine.spec().hint));
    [word, first(EditorDeleteWordBackward), new_line]
        .into_iter()
        .flatten()
        .collect()
}

/// The settings modal's footer line.
pub fn settings_footer(table: &BindingTable) -> String {
    [
        hint(table, Action::SettingsModalToggle),
        hint(table, Action::SettingsModalClose),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ")
}

/// The inbox list's footer: moving (both directions in one hint, as the form's `↑↓ select`),
/// then open, later, decline and quit, each with its live keys.
pub fn inbox_footer(table: &BindingTable) -> String {
    let moves = [Action::InboxPrevious, Action::InboxNext]
        .into_iter()
        .filter_map(|a| table.first_label(a))
        .collect::<Vec<_>>()
        .join("/");
    let moves = (!moves.is_empty()).then(|| format!("{moves} select"));
    std::iter::once(moves)
        .chain(
            [
                Action::InboxOpen,
                Action::InboxFilter,
                Action::InboxLater,
                Action::InboxDecline,
                Action::InboxQuit,
            ]
            .map(|a| hint(table, a)),
        )
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The inbox's footer while its filter line is open.
pub fn inbox_filter_footer(table: &BindingTable) -> String {
    [
        pair_hint(
            table,
            (Action::FilterNext, Action::FilterPrevious),
            ("down", "up", "↑↓"),
            "select",
        ),
        hint_as(table, Action::FilterAccept, "open"),
        hint(table, Action::FilterClose),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ")
}
