//! The intents a flow understands ([`Msg`]) and the effects it asks the runtime for ([`Cmd`]).

use crate::result::AskResult;
use crate::settings::{Setting, Settings};

/// One of the three review-tab actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReviewAction {
    /// Send the answers (`1. Submit`).
    Submit,
    /// Ask the agent to elaborate on the notes (`2. Elaborate`).
    Elaborate,
    /// Cancel the form (`3. Cancel`).
    Cancel,
}

impl ReviewAction {
    /// The actions in the order the review lists them.
    pub const ALL: [ReviewAction; 3] = [
        ReviewAction::Submit,
        ReviewAction::Elaborate,
        ReviewAction::Cancel,
    ];

    /// The action's label on the review.
    pub fn label(self) -> &'static str {
        match self {
            ReviewAction::Submit => crate::strings::SUBMIT,
            ReviewAction::Elaborate => crate::strings::ELABORATE,
            ReviewAction::Cancel => crate::strings::CANCEL,
        }
    }

    /// The review action at a cursor position (0..3).
    pub fn at(index: usize) -> Option<ReviewAction> {
        ReviewAction::ALL.get(index).copied()
    }

    /// Its place on the review (0, 1 or 2).
    pub fn index(self) -> usize {
        // The variants are declared in the order of `ALL`.
        self as usize
    }
}

/// An action of the `@` suggestion popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupAction {
    /// Highlight the next suggestion.
    Next,
    /// Highlight the previous suggestion.
    Previous,
    /// Enter: insert the highlighted suggestion.
    Accept,
    /// Tab: accepts the highlighted suggestion, or (popup closed) completes the path word.
    Complete,
    /// Esc: close the popup (it stays closed until the `@` word changes).
    Close,
}

/// A key of the type-to-filter line over a question's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterAction {
    /// Highlight the next (or previous) match.
    Next,
    /// Highlight the previous match.
    Previous,
    /// Enter: pick the highlighted match (a single question goes on; a multi question keeps it
    /// chosen) and close the filter.
    Accept,
    /// Space: toggle the highlighted match of a multi question (typed into the query otherwise).
    Toggle,
    /// Esc: close the filter, the cursor kept on the highlighted option.
    Close,
    /// A digit 1..=9: the n-th match shown (picked on a single question, toggled on a multi one).
    Pick(u8),
}

/// An action in the inbox's list of waiting asks (`pi-ask inbox`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InboxAction {
    /// Highlight the next waiting ask.
    Next,
    /// Highlight the previous waiting ask.
    Previous,
    /// Open the highlighted ask's form.
    Open,
    /// Leave the highlighted ask queued for later (moved to the end of the list).
    Later,
    /// Decline the highlighted ask: its asker gets a cancelled result.
    Decline,
    /// Quit the inbox; every ask stays queued.
    Quit,
    /// Highlight this row (0-based; kept within the list): a line driver's number, before
    /// the action it names.
    Highlight(usize),
}

/// Everything a flow is told, in tiers: what a person means ([`Intent`], from keys through the
/// binding table or a host's calls), typing in the open editor or filter line ([`Msg::Edit`]),
/// the keys of the popup, the filter, the settings modal and the inbox, what the runtime reports
/// back ([`Report`]), and endings decided outside the form ([`External`]). Each tier is updated
/// by a function taking its own type.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// What a person means in the form.
    Intent(Intent),
    /// One editing operation in the open editor, or in the filter line while it is open
    /// (typing, deleting, moving the caret, pasting, a whole text set at once).
    Edit(pi_ask_components::EditOp),
    /// A key of the `@` suggestion popup (Tab with the popup closed completes the path word).
    Popup(PopupAction),
    /// A key of the open filter line (its typing comes as [`Msg::Edit`]).
    Filter(FilterAction),
    /// The settings modal: opening, closing and its own keys.
    Settings(SettingsIntent),
    /// A key in the inbox's list (the inbox's own model takes it; a form ignores it).
    Inbox(InboxAction),
    /// What a driver that presses no keys (line mode, pi's dialogs) says the person meant on the
    /// question at hand: one message, never a replay of the keys that would do it.
    Direct(Direct),
    /// What the runtime reports: the form shown, what a frame measured, answers to effects.
    Report(Report),
    /// The flow ended from outside the person: a remote answer or cancel, an interruption.
    External(External),
}

/// What the person meant, said whole by a driver that presses no keys (line mode's commands, pi's
/// dialog replies). Each acts on the question tab at hand (nothing on the review, but
/// [`Direct::Review`]) and does what the keys that would do it do, in one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Direct {
    /// Exactly these options (0-based), then on to the next tab: the first alone on a
    /// single-choice question (chosen as Enter chooses it), the whole set on a multi.
    Choose(Vec<usize>),
    /// A `Type your own` answer (trimmed; blank leaves the question as it was), then on.
    Own(String),
    /// A note on an option (0-based) or, with `None`, on the question.
    Note {
        /// The option it is on.
        option: Option<usize>,
        /// The note (blank removes it).
        text: String,
    },
    /// Straight to the review tab (which submits at once when everything is answered and the
    /// setting says so).
    Review,
    /// To tab `n` (0-based; the question count is the review), as Tab and Shift+Tab would get
    /// there (an open editor is saved first; the review may submit at once, as above). A tab past
    /// the review means nothing. The one [`Direct`] that acts on the review too.
    GoTo(usize),
    /// Space on row `n` of the question at hand (0-based; the options' count is the `Type your
    /// own` row): toggles an option of a multi question, selects or clears one of a single
    /// question, and stays on the tab. A row past the list means nothing.
    Toggle(usize),
}

/// What a person means in a form: the flow's own intents, whatever key or host sends them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Go to the next tab (the review after the last question).
    NextTab,
    /// Go to the previous tab.
    PreviousTab,
    /// Move the cursor to the next row.
    NextOption,
    /// Move the cursor to the previous row.
    PreviousOption,
    /// Home/End: the first or last row of the list (the review tab's first or last action).
    FirstOption,
    /// Move the cursor to the last row.
    LastOption,
    /// PageDown/PageUp: a page of rows (as many as the view last showed) down or up.
    PageDown,
    /// Move the cursor up a page.
    PageUp,
    /// Scroll the preview pane of a preview question one line down or up.
    PreviewDown,
    /// Scroll the preview up a line.
    PreviewUp,
    /// Scroll the preview pane a page (as many lines as it showed) down or up.
    PreviewPageDown,
    /// Scroll the preview up a page.
    PreviewPageUp,
    /// Show previews' raw text, or their rendered Markdown again.
    TogglePreviewRaw,
    /// Scroll the preview pane to its first or last line.
    PreviewTop,
    /// Scroll the preview to its end.
    PreviewBottom,
    /// Enter: choose the highlighted option and advance, or run the highlighted review action.
    Confirm,
    /// Esc outside editors: cancel the flow (with dirty confirmation).
    Cancel,
    /// Space: toggle the highlighted option.
    Toggle,
    /// Every option of a multi question chosen, or none when all already are.
    ToggleAll,
    /// A fixed digit 1..=9: select/toggle that row, or a review action on the review tab.
    Number(u8),
    /// `/`: open the type-to-filter line over the current question's options.
    OpenFilter,
    /// Hide the form to one line (to read what is above it), or show it again.
    ToggleHidden,
    /// Edit the open editor's text in the person's own editor (`$VISUAL`, `$EDITOR`).
    ExternalEditor,
    /// Open the note editor of the highlighted option.
    OptionNote,
    /// Open the note editor of the current question.
    QuestionNote,
    /// Switch the current question between single/preview and multi.
    ChangeQuestionType,
    /// Enter in an editor: submit a free-form answer, or save a note.
    EditorSubmit,
    /// Esc in an editor: save the draft and close.
    EditorClose,
    /// Ctrl+C: dismiss the whole flow (with dirty confirmation).
    Dismiss,
    /// Run a review action directly (for hosts and tests).
    Review(ReviewAction),
}

/// The settings modal's intents (inside a flow, and `pi-ask settings` alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsIntent {
    /// Open the settings modal.
    Open,
    /// Close the settings modal.
    Close,
    /// Focus the next setting.
    Next,
    /// Focus the previous setting.
    Previous,
    /// Toggle the highlighted setting, or arm/confirm the reset action.
    Toggle,
}

/// What the runtime reports back to the flow: nothing a person did, so nothing entered changes
/// and no pending confirmation is cleared.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// The UI is drawn and waits for input (triggers the one notification of the flow).
    Opened,
    /// The answer to the [`Cmd::Files`] request number `generation` (dropped when a
    /// newer request was made since); `truncated` when the file index stopped at its cap.
    Suggestions {
        /// The request this answers.
        generation: u64,
        /// The suggestions, best first.
        matches: crate::files::Matches,
        /// The file index stopped at its cap: there may be more files than it knows.
        truncated: bool,
    },
    /// The reset confirmation window ran out.
    ResetWindowExpired,
    /// The runtime could not save `setting = value`: revert it and show `message`.
    SettingSaveFailed {
        /// The setting that was toggled.
        setting: Setting,
        /// The value that could not be saved (the model goes back to the other).
        value: bool,
        /// Why, for the modal's notice.
        message: String,
    },
    /// The runtime could not reset the config file.
    ResetFailed {
        /// Why, for the modal's notice.
        message: String,
    },
    /// The runtime could not save the theme's next name (the theme stays as it was).
    ThemeSaveFailed {
        /// Why, for the modal's notice.
        message: String,
    },
    /// The configuration changed (saved, reset or reloaded): apply it to the open flow.
    SettingsChanged(Settings),
    /// A configuration problem to show in the footer until the next config change or tab change.
    ConfigNotice(String),
    /// A fact from outside the form that the footer says for as long as the form is open (an
    /// inbox's form whose asker has gone).
    StandingNotice(String),
}

/// An ending decided outside the person: it goes through whatever is open (an editor, the
/// settings modal) and finishes the flow.
#[derive(Debug, Clone, PartialEq)]
pub enum External {
    /// A validated answer from another program (remote events): replaces every answer and
    /// completes with Submit, or Elaborate.
    RemoteAnswer {
        /// Every question's answer, in the form's order.
        answers: Vec<super::AnswerState>,
        /// Complete with Elaborate instead of Submit.
        elaborate: bool,
    },
    /// An explicit remote cancel: the flow is cancelled, whatever was entered.
    RemoteCancel,
    /// The flow was interrupted from outside the person (a signal, a lost terminal, an ask put
    /// back): it ends cancelled, whatever was entered. (The runtime marks the result's text as
    /// interrupted.)
    Interrupted,
}

impl From<Intent> for Msg {
    fn from(intent: Intent) -> Msg {
        Msg::Intent(intent)
    }
}

impl From<SettingsIntent> for Msg {
    fn from(intent: SettingsIntent) -> Msg {
        Msg::Settings(intent)
    }
}

impl From<Report> for Msg {
    fn from(report: Report) -> Msg {
        Msg::Report(report)
    }
}

impl From<External> for Msg {
    fn from(external: External) -> Msg {
        Msg::External(external)
    }
}

/// An external notification to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// What happened (`question-waiting`).
    pub event: String,
    /// The notification's title (the form's title, or `pi-ask`).
    pub title: String,
    /// Its text (`Question waiting: …`).
    pub message: String,
}

/// An effect for the runtime to carry out. `update` itself never does I/O.
#[derive(Debug, Clone, PartialEq)]
pub enum Cmd {
    /// The flow is over; deliver this result.
    Finish(Box<AskResult>),
    /// Send the flow's "question waiting" notification through the configured channels.
    Notify(Notification),
    /// Persist one toggled setting; report failure with [`Report::SettingSaveFailed`].
    SaveSetting {
        /// The setting.
        setting: Setting,
        /// Its new value.
        value: bool,
    },
    /// Save the config's theme as the next of auto, dark, light and wear it; report failure with
    /// [`Report::ThemeSaveFailed`].
    CycleTheme,
    /// Reset the config file to defaults; report failure with [`Report::ResetFailed`],
    /// success with [`Report::SettingsChanged`].
    ResetConfig,
    /// Send [`Report::ResetWindowExpired`] after [`crate::settings::RESET_CONFIRM_WINDOW_MS`].
    StartResetWindow,
    /// Find files for the open editor off the UI thread (an `@` query, or the folder of a path
    /// word for Tab completion); answer with [`Report::Suggestions`].
    Files(crate::files::Request),
    /// Open `text` (the open editor's) in the person's own editor; the driver that can (it owns a
    /// terminal, or its host does) answers with the edited text as
    /// [`pi_ask_components::EditOp::ReplaceAll`], or with nothing when the editor failed or was
    /// quit without saving.
    EditExternally {
        /// The text to start from.
        text: String,
    },
}

#[cfg(test)]
mod tests {
    use super::ReviewAction;

    #[test]
    fn a_review_actions_index_is_its_place_on_the_review() {
        for (place, action) in ReviewAction::ALL.into_iter().enumerate() {
            assert_eq!(action.index(), place);
            assert_eq!(ReviewAction::at(place), Some(action));
        }
        assert_eq!(ReviewAction::at(ReviewAction::ALL.len()), None);
    }
}
