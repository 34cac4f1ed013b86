//! Ordered in-memory migrations of a config tree to the current schema version.
//!
//! The TOML file and the original's JSON file share one version line (1..=5), so one chain serves
//! both. Migrations keep every user value and add defaults only where a value is absent. They never
//! write the file.

use serde_json::{Map, Value, json};

use crate::keymap::{Action, Context};

/// The schema version this build reads and writes.
pub const CURRENT_SCHEMA_VERSION: i64 = 5;

/// Why a config tree cannot be used at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MigrationError(pub String);

/// Checks the version and migrates the tree in place. Returns whether anything was migrated.
pub fn migrate(tree: &mut Value) -> Result<bool, MigrationError> {
    let Some(root) = tree.as_object_mut() else {
        return Err(MigrationError("Ask config must be an object".into()));
    };
    let version = match root.get("schemaVersion") {
        Some(Value::Number(n)) if n.is_i64() => n.as_i64().unwrap_or(0),
        _ => {
            return Err(MigrationError(
                "Ask config must include an integer schemaVersion".into(),
            ));
        }
    };
    if version > CURRENT_SCHEMA_VERSION {
        return Err(MigrationError(format!(
            "schemaVersion {version} is newer than this pi-ask supports ({CURRENT_SCHEMA_VERSION})"
        )));
    }
    if version < 1 {
        return Err(MigrationError(format!(
            "schemaVersion {version} is not supported"
        )));
    }
    let start = version;
    for from in version..CURRENT_SCHEMA_VERSION {
        match from {
            1 => {}
            2 => add_default_notifications(root),
            3 => flat_keymaps_to_contexts(root),
            4 => add_v5_defaults(root),
            _ => {}
        }
    }
    root.insert("schemaVersion".into(), json!(CURRENT_SCHEMA_VERSION));
    Ok(start != CURRENT_SCHEMA_VERSION)
}

/// 2 → 3: notifications arrive, on, through the bell.
fn add_default_notifications(root: &mut Map<String, Value>) {
    root.entry("notifications")
        .or_insert_with(|| json!({ "channels": ["bell"], "enabled": true }));
}

/// 3 → 4: one flat keymap object becomes per-context keymaps.
fn flat_keymaps_to_contexts(root: &mut Map<String, Value>) {
    let Some(Value::Object(flat)) = root.get("keymaps") else {
        return;
    };
    if flat.contains_key("main") || flat.contains_key("global") {
        return;
    }
    let flat = flat.clone();
    let pick = |name: &str, action: Action| -> Value {
        match flat.get(name) {
            Some(Value::String(s)) => json!([s]),
            _ => json!(action.default_keys()),
        }
    };
    let mut contexts = Map::new();
    for context in Context::ORIGINAL {
        // The original's actions only: the ones pi-ask added keep their defaults.
        let actions: Map<String, Value> = context
            .actions()
            .filter(|a| a.in_original())
            .map(|a| (a.name().to_owned(), json!(a.default_keys())))
            .collect();
        contexts.insert(context.name().to_owned(), Value::Object(actions));
    }
    let mut set = |action: Action, value: Value| {
        if let Some(Value::Object(actions)) = contexts.get_mut(action.context().name()) {
            actions.insert(action.name().to_owned(), value);
        }
    };
    set(Action::MainConfirm, pick("confirm", Action::MainConfirm));
    set(Action::EditorSubmit, pick("confirm", Action::EditorSubmit));
    set(
        Action::NoteEditorSave,
        pick("confirm", Action::NoteEditorSave),
    );
    set(Action::MainCancel, pick("cancel", Action::MainCancel));
    set(Action::EditorClose, pick("cancel", Action::EditorClose));
    set(
        Action::NoteEditorClose,
        pick("cancel", Action::NoteEditorClose),
    );
    set(
        Action::GlobalDismiss,
        pick("dismiss", Action::GlobalDismiss),
    );
    set(Action::MainToggle, pick("toggle", Action::MainToggle));
    set(
        Action::MainOptionNote,
        pick("optionNote", Action::MainOptionNote),
    );
    set(
        Action::MainQuestionNote,
        pick("questionNote", Action::MainQuestionNote),
    );
    root.insert("keymaps".into(), Value::Object(contexts));
}

/// 4 → 5: the present-single-as-multi toggle and the question type hotkey.
fn add_v5_defaults(root: &mut Map<String, Value>) {
    if let Some(Value::Object(behaviour)) = root.get_mut("behaviour") {
        behaviour
            .entry("presentSingleAsMulti")
            .or_insert(json!(false));
    }
    if let Some(Value::Object(keymaps)) = root.get_mut("keymaps")
        && let Some(Value::Object(main)) = keymaps.get_mut("main")
    {
        main.entry("changeQuestionType").or_insert(json!(["t"]));
    }
}
