//! Footer hints, generated from the live binding table so a remap shows everywhere.

use crate::keymap::{Action, BindingTable};
use crate::keys::KeyId;
use crate::model::{Model, Tab};

fn hint(table: &BindingTable, action: Action, verb: &str) -> Option<String> {
    let label = table.label(action);
    (!label.is_empty()).then(|| format!("{label} {verb}"))
}

/// The hints for the current state of a flow, in display order.
pub fn flow_hints(table: &BindingTable, model: &Model, popup_open: bool) -> Vec<String> {
    use Action::*;
    if popup_open {
        return [
            hint(table, AutocompleteAccept, "accept"),
            hint(table, AutocompleteComplete, "complete"),
            hint(table, AutocompleteClose, "close list"),
        ]
        .into_iter()
        .flatten()
        .collect();
    }
    let settings = hint(table, GlobalSettings, "settings");
    let mut hints: Vec<Option<String>> = match (model.editor(), model.tab()) {
        (Some(editor), _) if editor.target.is_note() => {
            vec![
                hint(table, NoteEditorSave, "save"),
                hint(table, NoteEditorClose, "close"),
            ]
        }
        (Some(_), _) => vec![
            hint(table, EditorSubmit, "submit"),
            hint(table, EditorClose, "close"),
        ],
        (None, Tab::Review) => vec![
            Some("1/2/3 choose".to_owned()),
            hint(table, MainConfirm, "confirm"),
            hint(table, MainCancel, "cancel"),
        ],
        (None, Tab::Question(q)) => {
            let multi = model.questions()[q].presented_type.is_multi();
            // The type hint shows raw key ids (`t`), as the original does.
            let type_keys: Vec<String> = table
                .keys(MainChangeQuestionType)
                .iter()
                .map(KeyId::to_string)
                .collect();
            let type_hint =
                (!type_keys.is_empty()).then(|| format!("{} question type", type_keys.join(" / ")));
            let notes = match (
                table.first_label(MainOptionNote),
                table.first_label(MainQuestionNote),
            ) {
                (Some(o), Some(q)) => Some(format!("{o}/{q} note")),
                (Some(o), None) => Some(format!("{o} note")),
                (None, Some(q)) => Some(format!("{q} note")),
                (None, None) => None,
            };
            let mut hints = Vec::new();
            if multi {
                hints.push(hint(table, MainToggle, "toggle"));
            }
            hints.push(type_hint);
            hints.push(hint(
                table,
                MainConfirm,
                if multi { "continue" } else { "confirm" },
            ));
            hints.push(notes);
            hints.push(hint(table, MainCancel, "dismiss"));
            hints
        }
    };
    hints.push(settings);
    hints.into_iter().flatten().collect()
}

/// The settings modal's footer line.
pub fn settings_footer(table: &BindingTable) -> String {
    let toggle = table.label(Action::SettingsModalToggle);
    let close = table.label(Action::SettingsModalClose);
    [
        (!toggle.is_empty()).then(|| format!("{toggle} to change")),
        (!close.is_empty()).then(|| format!("{close} to close")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ")
}
