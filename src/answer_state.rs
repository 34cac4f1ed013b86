//! What a person has entered for one question. A leaf: the model keeps these, every driver
//! fills them, and the result is built from them (`result` turns one into an `Answer`).

use indexmap::IndexMap;

/// Everything entered for one question. Kept even when not part of the submitted answer
/// (a deselected option keeps its note; unselected free-form text is kept for the editor).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnswerState {
    /// Selected real options (indices into `question.options`), in selection order.
    pub selected: Vec<usize>,
    /// Saved free-form text (never blank): verbatim when an editor was closed with Esc, as the
    /// original keeps it; trimmed when it was submitted with Enter.
    pub custom_text: Option<String>,
    /// Whether the free-form text is part of the answer.
    pub custom_selected: bool,
    /// Question-level note (never blank).
    pub note: Option<String>,
    /// Option notes by option value, in the order they were first written.
    pub option_notes: IndexMap<String, String>,
}

impl AnswerState {
    /// Whether the free-form text currently counts as (part of) the answer.
    pub fn custom_answer(&self) -> Option<&str> {
        if self.custom_selected {
            self.custom_text.as_deref()
        } else {
            None
        }
    }

    /// A committed answer: a selected option or selected free-form text.
    pub fn is_committed(&self) -> bool {
        !self.selected.is_empty() || self.custom_answer().is_some()
    }

    /// Any question note or option note, selected or not.
    pub fn has_notes(&self) -> bool {
        self.note.is_some() || !self.option_notes.is_empty()
    }

    /// Anything at all a dismiss would discard.
    pub fn is_dirty(&self) -> bool {
        self.is_committed() || self.custom_text.is_some() || self.has_notes()
    }

    /// Number of committed choices (options plus selected free-form text).
    pub fn committed_count(&self) -> usize {
        self.selected.len() + usize::from(self.custom_answer().is_some())
    }

    /// Whether option `option` (an index) is chosen.
    pub fn is_selected(&self, option: usize) -> bool {
        self.selected.contains(&option)
    }

    /// Adds or removes an option, keeping selection order.
    pub fn toggle(&mut self, option: usize) {
        if let Some(pos) = self.selected.iter().position(|&o| o == option) {
            self.selected.remove(pos);
        } else {
            self.selected.push(option);
        }
    }

    /// Saves free-form text as given (the caller trims what Enter submits); whitespace-only text
    /// clears it (and its selection), as in the original.
    pub fn set_custom_text(&mut self, text: &str) {
        if text.trim().is_empty() {
            self.custom_text = None;
            self.custom_selected = false;
        } else {
            self.custom_text = Some(text.to_owned());
        }
    }

    /// Saves or (when blank) deletes the question note.
    pub fn set_note(&mut self, text: &str) {
        self.note = non_blank(text);
    }

    /// Saves or (when blank) deletes an option note, keeping the first-written order.
    pub fn set_option_note(&mut self, value: &str, text: &str) {
        match non_blank(text) {
            Some(note) => {
                self.option_notes.insert(value.to_owned(), note);
            }
            None => {
                self.option_notes.shift_remove(value);
            }
        }
    }
}

/// Saved text is trimmed at both ends (inner line breaks of a note stay); only whitespace is none.
fn non_blank(text: &str) -> Option<String> {
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}
