//! Text from a payload, a peer or a file made safe to print on a terminal line: nothing it holds
//! can move the cursor, retitle the window or reorder the line. The same rule as the form's cells
//! (`pi_ask_components::text::printable`), for what is printed outside the form.

/// `text` with every control character (C0, DEL, C1: escape sequences start there), bidi
/// override or isolate and line or paragraph separator shown as `?`.
pub fn printable(text: &str) -> String {
    pi_ask_components::text::printable(text).into_owned()
}

/// A one-line field from a peer (an MCP client's name, an asker's folder) as one printable line:
/// every line break (LF, CR, VT, FF, NEL, U+2028/2029) becomes a space first, so a name can
/// never start a line of its own that looks like pi-ask's.
#[cfg(feature = "cli")]
pub fn one_line(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}' => ' ',
            c => c,
        })
        .collect();
    printable(&flat)
}

// JSON is written to a terminal only by the commands (the `cli` feature).
#[cfg(feature = "cli")]
/// Whether a character that JSON carries raw would still act on a terminal: a C1 control (an
/// escape sequence can start there), a line or paragraph separator, a bidi override or isolate.
/// (serde_json already escapes C0 and DEL is harmless alone.)
fn acts_on_a_terminal(c: char) -> bool {
    matches!(c,
        '\u{80}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(feature = "cli")]
/// JSON text to be written to a terminal with each such character as a `\uXXXX` escape. They can
/// only stand inside JSON strings, so the JSON stays valid and equal in value; what reads it from
/// a pipe or a file gets it as serde wrote it.
pub fn json_for_terminal(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(acts_on_a_terminal) {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if acts_on_a_terminal(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(feature = "cli")]
/// [`json_for_terminal`] when standard output is a terminal, else the JSON as it is.
pub fn json_for_stdout(json: &str) -> std::borrow::Cow<'_, str> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        json_for_terminal(json)
    } else {
        std::borrow::Cow::Borrowed(json)
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    #[cfg(feature = "cli")]
    fn a_one_line_field_never_breaks_a_line() {
        let forged = "evil\nclaude-code 2.0 \u{b7} /home/victim/proj\r\u{2028}x\u{1b}]0;t\u{7}";
        let line = super::one_line(forged);
        assert!(
            !line.contains(['\n', '\r', '\u{2028}', '\u{1b}', '\u{7}']),
            "{line:?}"
        );
        assert!(line.starts_with("evil claude-code 2.0"), "{line:?}");
    }

    #[cfg(feature = "cli")]
    #[test]
    fn json_for_a_terminal_escapes_what_would_act_and_stays_equal_in_value() {
        let value =
            serde_json::json!({"title": "a\u{9d}0;owned\u{9c} \u{202e}x\u{2028}y\u{2066}z café"});
        let raw = serde_json::to_string(&value).unwrap();
        let safe = super::json_for_terminal(&raw);
        assert!(!safe.chars().any(super::acts_on_a_terminal), "{safe}");
        assert!(
            safe.contains("\\u009d") && safe.contains("\\u202e"),
            "{safe}"
        );
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, value);
        assert!(matches!(
            super::json_for_terminal("{\"a\":\"café\"}"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn escapes_bidi_overrides_and_separators_become_question_marks() {
        assert_eq!(
            printable("a\u{1b}]2;x\u{7}b\u{9b}c\u{202e}d\u{2028}e\tf"),
            "a?]2;x?b?c?d?e?f"
        );
        assert_eq!(printable("café 漢字"), "café 漢字");
    }
}
