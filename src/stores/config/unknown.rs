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

use super::Problem;
use crate::did_you_mean::nearest;

/// ` (did you mean behaviour?)` when a known key is close, else nothing.
fn did_you_mean(suggestion: Option<String>) -> String {
    suggestion.map_or_else(String::new, |s| format!(" (did you mean {s}?)"))
}

fn unknown(key: &[&str], shown: &str, suggestion: Option<String>) -> Problem {
    Problem::at(
        key,
        format!(
            "Unknown key {shown}{} in the config was ignored.",
            did_you_mean(suggestion)
        ),
    )
}

/// The unknown keys of a migrated config, each a problem with a suggestion when one is close.
pub fn unknown_keys(root: &Map<String, Value>) -> Vec<Problem> {
    let mut found = Vec::new();
    for (key, value) in root {
        let Some((section, keys)) = KNOWN.iter().find(|(k, _)| k == key) else {
            let guess = nearest(key, KNOWN.iter().map(|(k, _)| *k));
            found.push(unknown(&[key], key, guess.map(str::to_owned)));
            continue;
        };
        let (Some(keys), Some(table)) = (keys, value.as_object()) else {
            continue;
        };
        let mut keys: Vec<&str> = keys.to_vec();
        keys.extend(crate::settings::Setting::in_section(section).map(|s| s.spec().key));
        for inner in table.keys().filter(|k| !keys.contains(&k.as_str())) {
            let guess = nearest(inner, keys.iter().copied()).map(|g| format!("{section}.{g}"));
            found.push(unknown(
                &[section, inner],
                &format!("{section}.{inner}"),
                guess,
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notice(tree: Value) -> Vec<String> {
        unknown_keys(tree.as_object().unwrap())
            .into_iter()
            .map(|p| p.text)
            .collect()
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
            Vec::<String>::new()
        );
    }

    #[test]
    fn typos_are_named_with_the_nearest_key_and_strangers_without_one() {
        assert_eq!(
            notice(json!({"schemaVersion": 5, "behavior": {}})),
            vec!["Unknown key behavior (did you mean behaviour?) in the config was ignored."]
        );
        let found = unknown_keys(
            json!({
                "schemaVersion": 5,
                "behaviour": {"showFooterHint": false},
                "files": {"exlude": ["*.log"]},
                "colours": {},
                "theme": {"nmae": "light", "extra": 1},
            })
            .as_object()
            .unwrap(),
        );
        let said: Vec<(String, String)> = found
            .into_iter()
            .map(|p| (p.key.join("."), p.text))
            .collect();
        assert_eq!(
            said,
            [
                ("behaviour.showFooterHint", "Unknown key behaviour.showFooterHint (did you mean behaviour.showFooterHints?) in the config was ignored."),
                ("files.exlude", "Unknown key files.exlude (did you mean files.exclude?) in the config was ignored."),
                ("colours", "Unknown key colours in the config was ignored."),
                ("theme.nmae", "Unknown key theme.nmae (did you mean theme.name?) in the config was ignored."),
                ("theme.extra", "Unknown key theme.extra in the config was ignored."),
            ]
            .map(|(k, t)| (k.to_owned(), t.to_owned()))
        );
    }
}
