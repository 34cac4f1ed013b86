//! What the engine's batching tests share (tests/engine.rs, tests/engine_pty.rs): a form whose
//! keys depend on what a frame measured, and the keys a person uses on it with the bytes a legacy
//! terminal sends for each.

use serde_json::{Value, json};

/// A preview question whose first option's preview is one line and whose second's is 200, a
/// 40-option single-select list (paging), and a multi question with a note to type.
pub fn payload() -> Value {
    let tall: String = (1..=200).map(|n| format!("line {n}\n")).collect();
    let regions: Vec<Value> = (0..40)
        .map(|n| json!({"value": format!("r{n}"), "label": format!("Region {n:02}")}))
        .collect();
    json!({"title": "Batches", "questions": [
        {"id": "layout", "type": "preview", "prompt": "Which layout?", "options": [
            {"value": "short", "label": "Short", "preview": "one line"},
            {"value": "tall", "label": "Tall", "preview": tall}]},
        {"id": "region", "prompt": "Which region?", "options": regions},
        {"id": "checks", "type": "multi", "prompt": "Which checks?", "options": [
            {"value": "lint", "label": "Lint"}, {"value": "test", "label": "Tests"}]}]})
}

/// Key ids (as the harness names them) and their bytes.
pub const KEYS: &[(&str, &str)] = &[
    ("down", "\x1b[B"),
    ("up", "\x1b[A"),
    ("pageDown", "\x1b[6~"),
    ("pageUp", "\x1b[5~"),
    ("home", "\x1b[H"),
    ("end", "\x1b[F"),
    ("shift+end", "\x1b[1;2F"),
    ("shift+home", "\x1b[1;2H"),
    ("shift+down", "\x1b[1;2B"),
    ("shift+up", "\x1b[1;2A"),
    ("shift+pageDown", "\x1b[6;2~"),
    ("shift+pageUp", "\x1b[5;2~"),
    ("tab", "\t"),
    ("shift+tab", "\x1b[Z"),
    ("space", " "),
    ("n", "n"),
    ("x", "x"),
    ("/", "/"),
    ("r", "r"),
    ("backspace", "\x7f"),
    ("enter", "\r"),
    ("right", "\x1b[C"),
    ("left", "\x1b[D"),
];

/// The index in [`KEYS`] of a key id.
pub fn key(id: &str) -> usize {
    KEYS.iter()
        .position(|(k, _)| *k == id)
        .unwrap_or_else(|| panic!("{id} is not in KEYS"))
}

/// Key `k` for a driver whose file suggestions arrive on their own time: Tab (path completion in
/// an editor, answered by the file worker whenever it is done) is sent as Right, its twin
/// outside an editor, so no key races a listing.
pub fn race_free(k: usize) -> (&'static str, &'static str) {
    match KEYS[k].0 {
        "tab" => KEYS[key("right")],
        _ => KEYS[k],
    }
}
