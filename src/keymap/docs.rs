//! The keymap table of docs/keymaps.md, generated from the action table (a test checks that the
//! committed docs hold exactly this text).

use super::{Action, Context};

/// The marker lines around the generated table in docs/keymaps.md.
pub const BEGIN: &str = "<!-- actions table: generated from src/keymap/action.rs -->";
/// The marker line after the generated table.
pub const END: &str = "<!-- end of actions table -->";

/// The markdown table of every context, action, default keys and what it does.
pub fn actions_table() -> String {
    let mut out =
        String::from("| context | action | default keys | what it does |\n|---|---|---|---|\n");
    for context in Context::ALL {
        for (n, action) in context.actions().enumerate() {
            let context_cell = if n == 0 {
                format!("`{}` ({})", context.name(), context.describe())
            } else {
                String::new()
            };
            out.push_str(&format!(
                "| {} | `{}` | {} | {} |\n",
                context_cell,
                action.name(),
                keys_cell(action),
                action.spec().description
            ));
        }
    }
    out
}

fn keys_cell(action: Action) -> String {
    let keys = action.default_keys();
    if keys.is_empty() {
        return "(none)".to_owned();
    }
    keys.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The generated part of a docs text, between the markers.
pub fn generated_part(doc: &str) -> Option<&str> {
    let start = doc.find(BEGIN)? + BEGIN.len();
    let end = doc[start..].find(END)? + start;
    Some(doc[start..end].trim_matches('\n'))
}
