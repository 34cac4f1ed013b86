//! Text from a payload, a peer or a file made safe to print on a terminal line: nothing it holds
//! can move the cursor, retitle the window or reorder the line.

/// `text` with every control character (C0, DEL, C1: escape sequences start there), bidi
/// override or isolate and line or paragraph separator shown as `?`.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if is_unsafe(c) { '?' } else { c })
        .collect()
}

fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn escapes_bidi_overrides_and_separators_become_question_marks() {
        assert_eq!(
            printable("a\u{1b}]2;x\u{7}b\u{9b}c\u{202e}d\u{2028}e\tf"),
            "a?]2;x?b?c?d?e?f"
        );
        assert_eq!(printable("café 漢字"), "café 漢字");
    }
}
