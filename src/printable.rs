//! Text from a payload, a peer or a file made safe to print on a terminal line: nothing it holds
//! can move the cursor, retitle the window or reorder the line. The same rule as the form's cells
//! (`pi_ask_components::text::printable`), for what is printed outside the form.

/// `text` with every control character (C0, DEL, C1: escape sequences start there), bidi
/// override or isolate and line or paragraph separator shown as `?`.
pub fn printable(text: &str) -> String {
    pi_ask_components::text::printable(text).into_owned()
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
