//! Keys a config file has that pi-ask does not read: named in one notice, with the nearest known
//! key when one is close (`behavior` → `behaviour`), so a typo is not silently ignored. The rest
//! of the file still applies and the file is never rewritten.

use serde_json::{Map, Value};

/// The sections pi-ask reads and their keys besides the settings table's (`behaviour.*`,
/// `notifications.enabled`). `None`: the section's keys are checked by keymap validation.
/// (`theme.colors` keys are tokens, checked by the theme reader as it reads them.)
const KNOWN: &[(&str, Option<&[&str]>)] = &[
    ("schemaVersion", Some(&[])),
    ("behaviour", Some(&[])),
    ("notifications", Some(&["channels"])),
    ("files", Some(&["exclude", "maxEntries"])),
    (
        "answer",
        Some(&[
            "extractor",
            "extractionModels",
            "extractionRetries",
            "extractionTimeoutMs",
        ]),
    ),
    ("keymaps", None),
    ("theme", Some(&["name", "colors", "markdown"])),
    ("history", Some(&["enabled"])),
    ("accessibility", Some(&["lineMode"])),
    (
        "mcp",
        Some(&[
            "timeoutSeconds",
            "maxAskBytes",
            "maxWaitingCalls",
            "elicit",
            "elicitAfterSeconds",
        ]),
    ),
];

use crate::did_you_mean::nearest;

fn describe(path: String, suggestion: Option<String>) -> String {
    match suggestion {
        Some(s) => format!("{path} (did you mean {s}?)"),
        None => path,
    }
}

/// The unknown keys of a migrated config, each with a suggestion when one is close.
pub fn unknown_keys(root: &Map<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    for (key, value) in root {
        let Some((section, keys)) = KNOWN.iter().find(|(k, _)| k == key) else {
            let guess = nearest(key, KNOWN.iter().map(|(k, _)| *k));
            found.push(describe(key.clone(), guess.map(str::to_owned)));
            continue;
        };
        let (Some(keys), Some(table)) = (keys, value.as_object()) else {
            continue;
        };
        let mut keys: Vec<&str> = keys.to_vec();
        keys.extend(crate::settings::Setting::in_section(section).map(|s| s.spec().key));
        for inner in table.keys().filter(|k| !keys.contains(&k.as_str())) {
            let guess = nearest(inner, keys.iter().copied()).map(|g| format!("{section}.{g}"));
            found.push(describe(format!("{section}.{inner}"), guess));
        }
    }
    found
}

/// One notice naming every unknown key, or none.
pub fn unknown_keys_notice(root: &Map<String, Value>) -> Option<String> {
    let found = unknown_keys(root);
    match found.len() {
        0 => None,
        1 => Some(format!(
            "Unknown key {} in the config was ignored.",
            found[0]
        )),
        _ => Some(format!(
            "Unknown keys in the config were ignored: {}.",
            found.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notice(tree: Value) -> Option<String> {
        unknown_keys_notice(tree.as_object().unwrap())
    }

    #[test]
    fn a_known_file_has_no_notice() {
        assert_eq!(
            notice(json!({
                "schemaVersion": 5,
                "behaviour": {"showFooterHints": true},
                "notifications": {"enabled": true, "channels": []},
                "files": {"exclude": []},
                "answer": {"extractionRetries": 1},
                "keymaps": {"main": {"anything": []}},
                "theme": {"name": "dark", "colors": {"accent": "red"}},
            })),
            None
        );
    }

    #[test]
    fn typos_are_named_with_the_nearest_key_and_strangers_without_one() {
        assert_eq!(
            notice(json!({"schemaVersion": 5, "behavior": {}})).as_deref(),
            Some("Unknown key behavior (did you mean behaviour?) in the config was ignored.")
        );
        assert_eq!(
            notice(json!({
                "schemaVersion": 5,
                "behaviour": {"showFooterHint": false},
                "files": {"exlude": ["*.log"]},
                "colours": {},
                "theme": {"nmae": "light", "extra": 1},
            }))
            .as_deref(),
            Some(
                "Unknown keys in the config were ignored: behaviour.showFooterHint (did you mean behaviour.showFooterHints?), files.exlude (did you mean files.exclude?), colours, theme.nmae (did you mean theme.name?), theme.extra."
            )
        );
    }
}
