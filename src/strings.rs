//! Texts the form shows that are not a key hint's verb (those live in the action table,
//! `src/keymap/action.rs`), kept in one place so wording is reviewed and changed together. The
//! components' own default texts (`Review`, `No preview available`) are in
//! `pi_ask_components::strings`.

use crate::form::QuestionType;

/// The notice shown while a dirty flow waits for a second cancel/dismiss.
pub const DISMISS_NOTICE: &str =
    "Unsaved ask answers or drafts. Press cancel/dismiss again to discard.";

/// Placeholders of an empty editor.
pub const NOTE_PLACEHOLDER: &str = "Add a note...";
/// The hidden form's one line when the form has no title (`ask_user form (hidden) · Ctrl+] show`).
pub const HIDDEN_FORM: &str = "ask_user form";
/// The answer editor's placeholder.
pub const ANSWER_PLACEHOLDER: &str = "Type answer...";

/// The review tab's actions.
pub const SUBMIT: &str = "Submit";
/// The review's Elaborate action.
pub const ELABORATE: &str = "Elaborate";
/// The review's Cancel action.
pub const CANCEL: &str = "Cancel";

/// Under the review actions when double-press shortcuts are on.
pub const REVIEW_SHORTCUT_HINT: &str = "Press 1, 2, or 3 twice to confirm a review action.";

/// Under the review actions while one waits for its second press.
pub fn review_shortcut_pending(number: usize, action: &str) -> String {
    format!("Press {number} again to {action}.")
}

/// The review tab's fixed digit keys, in the footer.
pub const REVIEW_DIGITS_HINT: &str = "1/2/3 choose";

/// A type change that would drop choices, waiting for its confirming press.
pub fn type_change_pending(to: QuestionType) -> String {
    format!(
        "Switching to {} will clear selected options for this question. Press the type key again to confirm.",
        to.display_name()
    )
}

/// A type change done.
pub fn type_changed(from: QuestionType, to: QuestionType) -> String {
    format!(
        "Question type changed from {} to {}.",
        from.display_name(),
        to.display_name()
    )
}

/// The settings modal's sections and rows that are not settings.
pub const SECTION_LIVE: &str = "Live settings";
/// The settings section of toggles saved as defaults.
pub const SECTION_DEFAULTS: &str = "Defaults for future asks";
/// The settings section of the theme.
pub const SECTION_APPEARANCE: &str = "Appearance";
/// The settings section of actions (reset).
pub const SECTION_ACTIONS: &str = "Actions";
/// The settings row naming the theme in use.
pub const THEME_ROW: &str = "Theme";

/// The settings' line under the Theme row: the theme worn and where it came from.
pub const THEME_IN_USE_ROW: &str = "In use";

/// What the settings' Theme row does (the theme in use follows it).
pub const THEME_DESCRIPTION: &str =
    "The config's theme: auto (from the terminal), dark or light; each press saves the next.";

/// The reset row's description.
pub const RESET_DESCRIPTION: &str = "Reset behaviour, keymaps, notifications, and extraction settings to defaults. Press twice quickly to confirm.";

/// What a frame too small for the form shows.
pub fn terminal_too_small(min_width: u16, min_height: u16) -> String {
    format!("terminal too small (need {min_width} x {min_height})")
}

/// The notice in fewer columns, longest first: each still says that the terminal is too small,
/// so a narrow screen never shows a cut word ("terminal too").
pub fn terminal_too_small_shorter(min_width: u16, min_height: u16) -> [String; 4] {
    [
        format!("too small (need {min_width}x{min_height})"),
        format!("too small: {min_width}x{min_height}"),
        "too small".to_owned(),
        "small".to_owned(),
    ]
}

/// The `@` popup with nothing to offer.
pub const NO_MATCHING_FILES: &str = "no matching files";

/// After the popup's count (or `no matching files`) when the file index stopped at its cap.
pub const INDEX_TRUNCATED: &str = " (index truncated)";

/// The filter line's placeholder while its query is empty.
pub const FILTER_PLACEHOLDER: &str = "type to filter";

/// The filter line's count of what it shows: `12 of 200`.
pub fn filter_count(shown: usize, total: usize) -> String {
    format!("{shown} of {total}")
}

/// The option list while the filter's query matches nothing.
pub const NO_MATCHING_OPTIONS: &str = "no matching options";

/// `N question(s)`, as the original's notices count them.
#[cfg(feature = "cli")]
pub fn question_count(form: &crate::form::Form) -> String {
    format!("{} question(s)", form.questions.len())
}

/// The notices of reopening a form from a pi session's branch (`pi-ask replay --session`,
/// `pi-ask answer --again --session`, and the same lookups a host asks `pi-ask embed` for), in
/// the original's words.
#[cfg(feature = "cli")]
pub mod reopening {
    /// The stored form no longer validates.
    pub const INCOMPATIBLE: &str =
        "Previous form exists on this branch but is no longer compatible.";
    /// `replay` found no form on the branch.
    pub const NO_ASK_FORM: &str = "No previous ask_user form found on this branch.";
    /// `answer --again` found no extracted form on the branch.
    pub const NO_ANSWER_FORM: &str =
        "No previous /answer form found on this branch; use /answer first.";
    /// `answer` found no questions in the assistant's message.
    pub const NO_QUESTIONS: &str = "No questions found in the latest assistant message.";
    /// The reopened form was cancelled.
    pub const CANCELLED: &str = "Ask form cancelled.";

    /// `Replaying previous ask_user form on this branch: 2 question(s).`
    pub fn replaying(count: &str) -> String {
        format!("Replaying previous ask_user form on this branch: {count}.")
    }

    /// `Reopening previous /answer form on this branch: 2 question(s).`
    pub fn reopening_answer(count: &str) -> String {
        format!("Reopening previous /answer form on this branch: {count}.")
    }

    /// `Reopening unanswered ask_user form: 2 question(s).`
    pub fn reopening_unanswered(count: &str) -> String {
        format!("Reopening unanswered ask_user form: {count}.")
    }

    /// What a dismissed recovered form says; `replay` names the command that reopens it.
    pub fn unanswered_dismissed(replay: &str) -> String {
        format!("Unanswered ask_user form dismissed; use {replay} to reopen it.")
    }
}
