//! What is wrong in a config file, one problem per value: a bad value costs only itself (the
//! default is used, and the problem says which), each problem is placed at its line of a TOML
//! file, and the form's notice shows the first few while `pi-ask doctor` lists them all.

use std::path::Path;

use serde_json::Value;

/// One value of a config that did not apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The key path of the value (`["behaviour", "doublePressReviewShortcuts"]`); empty for the
    /// file as a whole.
    pub key: Vec<String>,
    /// What is wrong and what is used instead, a sentence.
    pub text: String,
}

impl Problem {
    /// A problem at `key`.
    pub fn at(key: &[&str], text: impl Into<String>) -> Problem {
        Problem {
            key: key.iter().map(|k| (*k).to_owned()).collect(),
            text: text.into(),
        }
    }
}

/// Problems shown in the form's notice at most; the rest are counted and `pi-ask doctor` lists
/// them (the notice shares the footer with the hints, so a long list must not fill the screen).
const SHOWN_IN_NOTICE: usize = 3;

/// Each problem with its place: `pi-ask.toml:7: …` in a TOML file (the line of its key, or of the
/// nearest table holding it), in the file's order; problems of a file without lines (the
/// original's JSON) keep the order they were found in.
pub fn located(path: &Path, toml_text: Option<&str>, problems: Vec<Problem>) -> Vec<String> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let document = toml_text.and_then(|text| Some((text, toml::de::DeTable::parse(text).ok()?)));
    let mut placed: Vec<(usize, String)> = problems
        .into_iter()
        .map(|problem| {
            let line = document
                .as_ref()
                .and_then(|(text, table)| line_of(text, table.get_ref(), &problem.key));
            match line {
                Some(line) => (line, format!("{name}:{line}: {}", problem.text)),
                None => (0, problem.text),
            }
        })
        .collect();
    placed.sort_by_key(|(line, _)| *line);
    placed.into_iter().map(|(_, text)| text).collect()
}

/// The line (from 1) of the deepest key of `key` that the document has.
fn line_of(text: &str, table: &toml::de::DeTable<'_>, key: &[String]) -> Option<usize> {
    let mut table = table;
    let mut start = None;
    for part in key {
        let Some((found, value)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == part) else {
            break;
        };
        start = Some(found.span().start);
        match value.get_ref() {
            toml::de::DeValue::Table(inner) => table = inner,
            _ => break,
        }
    }
    let start = start?.min(text.len());
    Some(
        text.as_bytes()[..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1,
    )
}

/// The form's one notice for a file's problems: the first few, how many more, and where every
/// one is listed. `None` when there are none.
pub fn notice(located: &[String]) -> Option<String> {
    if located.is_empty() {
        return None;
    }
    let mut shown: Vec<String> = located.iter().take(SHOWN_IN_NOTICE).cloned().collect();
    let more = located.len().saturating_sub(SHOWN_IN_NOTICE);
    if more > 0 {
        shown.push(format!(
            "… and {more} more config problems (`pi-ask doctor` lists every one)."
        ));
    }
    Some(format!(
        "{} The rest of the config applies. Edit the config to fix these.",
        shown.join(" · ")
    ))
}

/// How a value that is there is shown in a problem (`"no"`, `3`, `[1]`), at most 40 characters.
pub fn shown_value(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        return text;
    }
    let cut: String = text.chars().take(39).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_placed_at_their_key_in_the_files_order() {
        let text = "schemaVersion = 1\n\n[keymaps.main]\ndown = 5\n\n[behaviour]\nshowFooterHints = \"no\"\n";
        let problems = vec![
            Problem::at(&["behaviour", "showFooterHints"], "bad toggle"),
            Problem::at(&["keymaps", "main", "down"], "bad key"),
            Problem::at(&["files", "exclude"], "not in the file"),
            Problem::at(&["behaviour", "missing"], "its table's line"),
        ];
        assert_eq!(
            located(Path::new("/x/pi-ask.toml"), Some(text), problems),
            vec![
                "not in the file",
                "pi-ask.toml:4: bad key",
                "pi-ask.toml:6: its table's line",
                "pi-ask.toml:7: bad toggle",
            ]
        );
    }

    #[test]
    fn the_notice_shows_three_and_says_where_the_rest_are() {
        assert_eq!(notice(&[]), None);
        let five: Vec<String> = (1..=5).map(|i| format!("P{i}.")).collect();
        assert_eq!(
            notice(&five).unwrap(),
            "P1. · P2. · P3. · … and 2 more config problems (`pi-ask doctor` lists every one). The rest of the config applies. Edit the config to fix these."
        );
    }
}
