//! The Elm-style model of one ask flow: [`Model`], [`Msg`], [`update`] and the [`Cmd`]s it returns.
//!
//! The model is pure data. `update` never reads a clock, a file or the terminal; every effect
//! (finishing, notifying, saving a setting, starting a timer) comes back as a [`Cmd`].

mod draft;
mod filter;
mod msg;
mod popup;
mod settings_modal;
mod update;

pub use crate::answer_state::AnswerState;
pub use draft::{Draft, DraftAnswer, DraftEditor, MAX_DRAFT_EDITOR_BYTES};
pub use filter::{Filter, Haystacks, rank_texts};
pub use msg::{
    Cmd, Direct, External, FilterAction, InboxAction, Intent, Msg, Notification, PopupAction,
    Report, ReviewAction, SettingsIntent,
};
/// The editing operations `Msg::Edit` carries (from the components crate, here so a model-only
/// test needs only `pi_ask`).
pub use pi_ask_components::EditOp;
pub use popup::{Popup, PopupKind};
pub(crate) use settings_modal::update_settings;
pub use settings_modal::{ModalMessage, SettingsModalState, SettingsRow};
#[cfg(feature = "cli")]
pub(crate) use update::waiting_message;
pub use update::{update, update_in_view};

use pi_ask_components::TextEdit;

use crate::form::{Form, Question, QuestionType};
use crate::settings::Settings;

pub use crate::strings::DISMISS_NOTICE;

/// Which tab is showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// A question's tab (its index in the form).
    Question(usize),
    /// The review tab.
    Review,
}

/// What an open editor edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorTarget {
    /// The free-form answer of a question (the `Type your own` row).
    Answer {
        /// The question (an index into the form).
        question: usize,
    },
    /// The question-level note.
    QuestionNote {
        /// The question (an index into the form).
        question: usize,
    },
    /// The note of one real option.
    OptionNote {
        /// The question (an index into the form).
        question: usize,
        /// The option (an index into its options).
        option: usize,
    },
}

impl EditorTarget {
    /// The question the editor belongs to.
    pub fn question(self) -> usize {
        match self {
            EditorTarget::Answer { question }
            | EditorTarget::QuestionNote { question }
            | EditorTarget::OptionNote { question, .. } => question,
        }
    }

    /// Whether this is one of the note editors (binding context `noteEditor`).
    pub fn is_note(self) -> bool {
        !matches!(self, EditorTarget::Answer { .. })
    }

    /// Placeholder shown while the editor is empty.
    pub fn placeholder(self) -> &'static str {
        if self.is_note() {
            crate::strings::NOTE_PLACEHOLDER
        } else {
            crate::strings::ANSWER_PLACEHOLDER
        }
    }
}

/// An open inline editor: what it edits, and its unsaved text and caret (the only copy of them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenEditor {
    /// What it edits.
    pub target: EditorTarget,
    /// Its text and caret.
    pub edit: TextEdit,
    /// Opened by the cursor landing on an empty `Type your own` row, not by a key that asked for
    /// it (Enter, Space, a digit). While such an editor is empty, the keys of `main.nextOption`
    /// and `main.previousOption` still move (docs/keymaps.md: a remapped `j`/`k` passes through
    /// the row instead of being typed).
    pub landed: bool,
}

impl OpenEditor {
    /// An editor on `target` holding `text`, the caret at its end. Answers and notes alike take
    /// new lines (as the original's, pi's editor).
    pub fn new(target: EditorTarget, text: &str) -> OpenEditor {
        OpenEditor {
            target,
            edit: TextEdit::new(text),
            landed: false,
        }
    }

    /// The text being edited.
    pub fn text(&self) -> &str {
        self.edit.text()
    }
}

/// The page size before the view has measured one.
const DEFAULT_PAGE_ROWS: usize = 10;

/// The state of one ask flow.
#[derive(Debug, Clone)]
pub struct Model {
    title: Option<String>,
    questions: Vec<Question>,
    answers: Vec<AnswerState>,
    tab: usize,
    cursors: Vec<usize>,
    review_cursor: ReviewAction,
    editor: Option<OpenEditor>,
    /// After Esc closes the free-form editor, it does not reopen by itself until the cursor moves.
    suppress_auto_open: bool,
    settings: Settings,
    dismiss_pending: bool,
    pending_type_change: Option<usize>,
    pending_review_shortcut: Option<ReviewAction>,
    /// A type change that happened or waits for its confirming press.
    type_notice: Option<String>,
    config_notice: Option<String>,
    /// A fact from outside the form that stays said while it is open (its asker has gone).
    standing_notice: Option<String>,
    settings_modal: Option<SettingsModalState>,
    /// The `@` popup under the open editor, and the search it waits for.
    completion: popup::Completion,
    /// The type-to-filter line over the current question's options, while it is open.
    filter: Option<Filter>,
    notified: bool,
    finished: bool,
    /// Drawn as one line, the rest of the screen left to what is above it; only the hide key and
    /// dismiss act meanwhile.
    hidden: bool,
    /// First preview line shown, per (question, option) that was scrolled: moving to another
    /// option and back finds the text where it was left.
    preview_scrolls: std::collections::HashMap<(usize, usize), u16>,
    /// Previews show their text as written, Markdown not rendered (`main.togglePreviewRaw`).
    preview_raw: bool,
    /// Counts messages that may have changed what was entered: a driver records a draft when it
    /// moved, without comparing drafts.
    revision: u64,
}

impl Model {
    /// Creates a flow for a validated form. `presentSingleAsMulti` is applied here, once.
    pub fn new(form: Form, settings: Settings) -> Model {
        let form = if settings.behaviour.present_single_as_multi {
            form.with_single_presented_as_multi()
        } else {
            form
        };
        let n = form.questions.len();
        let mut model = Model {
            title: form.title,
            questions: form.questions,
            answers: vec![AnswerState::default(); n],
            tab: 0,
            cursors: vec![0; n],
            review_cursor: ReviewAction::Submit,
            editor: None,
            suppress_auto_open: false,
            settings,
            dismiss_pending: false,
            pending_type_change: None,
            pending_review_shortcut: None,
            type_notice: None,
            config_notice: None,
            standing_notice: None,
            settings_modal: None,
            completion: popup::Completion::default(),
            filter: None,
            notified: false,
            finished: false,
            hidden: false,
            preview_scrolls: std::collections::HashMap::new(),
            preview_raw: false,
            revision: 0,
        };
        model.sync_editor_to_cursor();
        model
    }

    /// Offers `@` file suggestions in the flow's editors (the runtime can search files).
    pub fn with_file_suggestions(mut self) -> Model {
        self.completion.enabled = true;
        self
    }

    /// The open suggestion popup.
    pub fn popup(&self) -> Option<&Popup> {
        self.completion.popup.as_ref()
    }

    /// The form's title, if any.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The questions, in the form's order.
    pub fn questions(&self) -> &[Question] {
        &self.questions
    }

    /// What was entered for each question, in the form's order.
    pub fn answers(&self) -> &[AnswerState] {
        &self.answers
    }

    /// What was entered for question `question` (an index into [`Model::questions`]).
    pub fn answer(&self, question: usize) -> &AnswerState {
        &self.answers[question]
    }

    /// The tab showing.
    pub fn tab(&self) -> Tab {
        if self.tab < self.questions.len() {
            Tab::Question(self.tab)
        } else {
            Tab::Review
        }
    }

    /// Index of the current tab among all tabs (questions then review).
    pub fn tab_index(&self) -> usize {
        self.tab
    }

    /// Tabs: one per question, and the review when there is more than one question.
    pub fn tab_count(&self) -> usize {
        self.questions.len() + 1
    }

    /// Changes whenever something entered may have changed (see [`Model::draft`]).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// First line shown of the highlighted option's preview (kept per option).
    pub fn preview_scroll(&self) -> u16 {
        self.preview_key()
            .and_then(|key| self.preview_scrolls.get(&key).copied())
            .unwrap_or(0)
    }

    /// Whether previews show their raw text (their Markdown not rendered).
    pub fn preview_raw(&self) -> bool {
        self.preview_raw
    }

    /// The preview text shown now: a preview question's highlighted option's, if it has one.
    pub fn current_preview(&self) -> Option<&str> {
        let (q, o) = self.preview_key()?;
        self.questions[q].options[o].preview.as_deref()
    }

    /// Whether a preview shows now (a preview question's highlighted option), whose scroll keys
    /// the footer names when [`ViewMeasures::preview_overflows`].
    pub fn shows_preview(&self) -> bool {
        self.preview_key().is_some()
    }

    /// The (question, option) whose preview shows now: a preview question's highlighted option.
    fn preview_key(&self) -> Option<(usize, usize)> {
        let Tab::Question(q) = self.tab() else {
            return None;
        };
        let question = &self.questions[q];
        (question.presented_type == QuestionType::Preview
            && self.cursors[q] < question.options.len())
        .then(|| (q, self.cursors[q]))
    }

    /// Scrolls the shown preview by `delta` lines, within what the view measured (a scroll left
    /// beyond a range that shrank since, by a smaller terminal, starts from the range's end).
    fn scroll_preview_by(&mut self, delta: i32, view: &ViewMeasures) {
        let Some(key) = self.preview_key() else {
            return;
        };
        let max = i32::from(view.preview_max_scroll);
        let now = i32::from(self.preview_scroll()).min(max);
        let next = (now + delta).clamp(0, max) as u16;
        if next == 0 {
            self.preview_scrolls.remove(&key);
        } else {
            self.preview_scrolls.insert(key, next);
        }
    }

    /// The highlighted row of a question (its last row is `Type your own`).
    pub fn cursor(&self, question: usize) -> usize {
        self.cursors[question]
    }

    /// The highlighted review action.
    pub fn review_cursor(&self) -> ReviewAction {
        self.review_cursor
    }

    /// The open inline editor, if any.
    pub fn editor(&self) -> Option<&OpenEditor> {
        self.editor.as_ref()
    }

    /// The open type-to-filter line, if any.
    pub fn filter(&self) -> Option<&Filter> {
        self.filter.as_ref()
    }

    /// Whether no editor is open or the open one is empty (navigation keys then move, not edit).
    pub fn editor_is_empty(&self) -> bool {
        self.editor.as_ref().is_none_or(|e| e.edit.is_empty())
    }

    /// The settings in effect.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The open settings modal, if any.
    pub fn settings_modal(&self) -> Option<&SettingsModalState> {
        self.settings_modal.as_ref()
    }

    /// The review action waiting for its second press, when double-press is on.
    pub fn pending_review_shortcut(&self) -> Option<ReviewAction> {
        self.pending_review_shortcut
    }

    /// Whether a destructive type change waits for its confirming second press.
    pub fn pending_type_change(&self) -> Option<usize> {
        self.pending_type_change
    }

    /// A first Ctrl+C asked to confirm dismissing a form with answers.
    pub fn dismiss_pending(&self) -> bool {
        self.dismiss_pending
    }

    /// The footer notice to show, most important first.
    pub fn notice(&self) -> Option<&str> {
        if self.dismiss_pending {
            return Some(DISMISS_NOTICE);
        }
        self.type_notice
            .as_deref()
            .or(self.standing_notice.as_deref())
            .or(self.config_notice.as_deref())
    }

    /// The form is hidden to one line (`global.hide`).
    pub fn is_hidden(&self) -> bool {
        self.hidden
    }

    /// The flow is over (its result went out as [`Cmd::Finish`]); every later message is ignored.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Anything a dismiss would throw away: any entered answer or note, or editor text.
    pub fn is_dirty(&self) -> bool {
        self.answers.iter().any(AnswerState::is_dirty) || !self.editor_is_empty()
    }

    /// Every question has a committed answer and no notes exist anywhere.
    pub fn is_complete_without_notes(&self) -> bool {
        self.answers
            .iter()
            .all(|a| a.is_committed() && !a.has_notes())
    }

    /// The hint shown under the review actions when double-press shortcuts are on.
    pub fn review_shortcut_hint(&self) -> Option<String> {
        if !self.settings.behaviour.double_press_review_shortcuts {
            return None;
        }
        Some(match self.pending_review_shortcut {
            Some(action) => {
                crate::strings::review_shortcut_pending(action.index() + 1, action.label())
            }
            None => crate::strings::REVIEW_SHORTCUT_HINT.to_owned(),
        })
    }

    /// Opens the free-form editor when the cursor rests on an empty `Type your own` row.
    fn sync_editor_to_cursor(&mut self) {
        let Tab::Question(q) = self.tab() else { return };
        if self.editor.is_some() || self.suppress_auto_open {
            return;
        }
        let question = &self.questions[q];
        if self.cursors[q] == question.custom_row() && self.answers[q].custom_text.is_none() {
            self.editor = Some(OpenEditor {
                landed: true,
                ..OpenEditor::new(EditorTarget::Answer { question: q }, "")
            });
        }
    }
}

/// What the last frame of the form measured: the view keeps it (as ratatui's `ListState` keeps a
/// list's offset) and hands it to [`update_in_view`] with each message, so a page move and the
/// preview's scroll are resolved against the screen without the model storing anything the view
/// measured. A driver that draws nothing (line mode) uses the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewMeasures {
    /// Option rows a page holds (PageDown/PageUp).
    pub page_rows: usize,
    /// How far the shown preview can scroll (`u16::MAX`: not drawn, so not limited).
    pub preview_max_scroll: u16,
    /// Preview lines a page shows.
    pub preview_page: u16,
}

impl Default for ViewMeasures {
    fn default() -> ViewMeasures {
        ViewMeasures {
            page_rows: DEFAULT_PAGE_ROWS,
            preview_max_scroll: u16::MAX,
            preview_page: 1,
        }
    }
}

impl ViewMeasures {
    /// A frame's measurements; a page is at least a row and a line.
    pub fn new(page_rows: usize, preview_max_scroll: u16, preview_page: u16) -> ViewMeasures {
        ViewMeasures {
            page_rows: page_rows.max(1),
            preview_max_scroll,
            preview_page: preview_page.max(1),
        }
    }

    /// Whether the frame's preview pane could not show all of its text.
    pub fn preview_overflows(&self) -> bool {
        self.preview_max_scroll != u16::MAX && self.preview_max_scroll > 0
    }
}
