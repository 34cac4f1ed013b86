//! [`Direct`] messages: what a driver that presses no keys says the person meant, done with the
//! same steps the keys take (so a line-mode command or a dialog reply and the keys that would
//! do it leave the same model), in one message.

use super::{
    Cmd, EditOp, Model, Tab, close_editor, confirm, edit, move_option, move_tab, open_option_note,
    open_question_note, toggle,
};
use crate::model::Direct;

pub(super) fn update(model: &mut Model, direct: Direct) -> Vec<Cmd> {
    match (direct, model.tab()) {
        (Direct::GoTo(tab), _) => go_to(model, tab),
        (Direct::Review, Tab::Review) => Vec::new(),
        (Direct::Review, Tab::Question(q)) => move_tab(model, (model.questions.len() - q) as isize),
        // The other meanings are a question's: on the review they mean nothing.
        (_, Tab::Review) => Vec::new(),
        (Direct::Choose(options), Tab::Question(q)) => choose(model, q, &options),
        (Direct::Own(text), Tab::Question(q)) => own(model, q, &text),
        (Direct::Note { option, text }, Tab::Question(q)) => note(model, q, option, &text),
        (Direct::Toggle(row), Tab::Question(q)) => toggle_at(model, q, row),
    }
}

fn go_to(model: &mut Model, tab: usize) -> Vec<Cmd> {
    if tab >= model.tab_count() || tab == model.tab_index() {
        return Vec::new();
    }
    move_tab(model, tab as isize - model.tab_index() as isize)
}

fn toggle_at(model: &mut Model, q: usize, row: usize) -> Vec<Cmd> {
    if row >= model.questions[q].row_count() {
        return Vec::new();
    }
    cursor_to(model, q, row);
    toggle(model)
}

/// Puts question `q`'s cursor on `row` as the arrow keys would move it there (an open editor is
/// saved first, the `Type your own` row opens its editor when empty).
fn cursor_to(model: &mut Model, q: usize, row: usize) {
    let delta = row as isize - model.cursors[q] as isize;
    if delta != 0 {
        move_option(model, delta);
    }
}

fn choose(model: &mut Model, q: usize, options: &[usize]) -> Vec<Cmd> {
    let question = &model.questions[q];
    let count = question.options.len();
    if options.iter().any(|&o| o >= count) {
        return Vec::new();
    }
    if !question.presented_type.is_multi() {
        let Some(&option) = options.first() else {
            return Vec::new();
        };
        cursor_to(model, q, option);
        return confirm(model);
    }
    for option in 0..count {
        if model.answers[q].is_selected(option) != options.contains(&option) {
            cursor_to(model, q, option);
            toggle(model);
        }
    }
    move_tab(model, 1)
}

fn own(model: &mut Model, q: usize, text: &str) -> Vec<Cmd> {
    cursor_to(model, q, model.questions[q].custom_row());
    let mut cmds = Vec::new();
    if model.editor.is_none() {
        cmds.extend(confirm(model));
    }
    cmds.extend(edit(model, EditOp::ReplaceAll(text.to_owned())));
    cmds.extend(close_editor(model, true));
    // A multi question, or a blank answer, stays where it was: the answer is given, so on.
    if model.tab() == Tab::Question(q) && !model.finished {
        cmds.extend(move_tab(model, 1));
    }
    cmds
}

fn note(model: &mut Model, q: usize, option: Option<usize>, text: &str) -> Vec<Cmd> {
    let mut cmds = Vec::new();
    match option {
        Some(option) if option < model.questions[q].options.len() => {
            cursor_to(model, q, option);
            cmds.extend(open_option_note(model));
        }
        Some(_) => return cmds,
        None => cmds.extend(open_question_note(model)),
    }
    cmds.extend(edit(model, EditOp::ReplaceAll(text.to_owned())));
    cmds.extend(close_editor(model, true));
    cmds
}
