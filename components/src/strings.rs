//! The components' default texts, in one place (a host sets its own through each component's
//! fields or attributes).

/// The review tab's actions.
pub const REVIEW_ACTIONS: [&str; 3] = ["Submit", "Elaborate", "Cancel"];
/// The review tab's heading.
pub const REVIEW_HEADING: &str = "Review answers";
/// The tab bar's last tab.
pub const REVIEW_TAB: &str = "Review";
/// A preview pane for an option without a preview.
pub const NO_PREVIEW_TEXT: &str = "No preview available";
/// After the last line a preview pane shows of a very long preview.
pub const PREVIEW_CUT_TEXT: &str = "… the preview goes on; the rest is not shown";
/// Before a note (styled apart from it).
pub const NOTE_LABEL: &str = "Note:";
/// After a recommended option's label.
pub const RECOMMENDED: &str = "(recommended)";
