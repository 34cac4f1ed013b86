//! Which contexts a key is looked up in, in which order, for each focus: the resolution rules as
//! data. The first layer that has the key bound to an action that applies decides.

use super::action::{Action, Context, Group, When};

/// Which kind of editor has focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorKind {
    /// The answer editor (`Type your own`).
    Answer,
    /// An answer editor the cursor opened by landing on the `Type your own` row: while it is
    /// empty, `main.nextOption`/`main.previousOption` keep moving (a remapped `j`/`k` is not typed).
    LandedAnswer,
    /// A note editor.
    Note,
}

/// The `@` popup under a focused editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PopupFocus {
    /// Not open.
    #[default]
    Closed,
    /// Open on `no matching files`: only its close key is its own.
    NoMatches,
    /// Open with suggestions: its keys come first.
    Suggestions,
}

/// What has keyboard focus, as far as key resolution cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Option lists and the review tab.
    Main,
    /// An inline editor; `empty` hands navigation keys to the `*WhenEmpty` actions.
    Editor {
        /// Which editor.
        kind: EditorKind,
        /// Its text is empty.
        empty: bool,
        /// The `@` popup under it.
        popup: PopupFocus,
    },
    /// The settings modal, which blocks every other context.
    SettingsModal,
    /// `pi-ask inbox`'s list of waiting asks (its own context only).
    Inbox,
    /// The type-to-filter line; `empty` while its query is.
    Filter {
        /// The query is empty.
        empty: bool,
    },
}

impl Focus {
    fn editor_empty(self) -> bool {
        match self {
            Focus::Editor { empty, .. } | Focus::Filter { empty } => empty,
            _ => true,
        }
    }

    fn popup(self) -> PopupFocus {
        match self {
            Focus::Editor { popup, .. } => popup,
            _ => PopupFocus::Closed,
        }
    }
}

/// Which of a context's actions a layer takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    All,
    Group(Group),
    Only(Action),
}

/// When a layer is consulted at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    Always,
    EditorEmpty,
    EditorHasText,
    PopupSuggestions,
    PopupOpen,
    /// An empty answer editor opened by the cursor landing on its row.
    LandedAndEmpty,
}

/// One step of the lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer {
    /// The context consulted.
    pub context: Context,
    /// Which of its actions.
    pub take: Take,
    /// When it is consulted.
    pub gate: Gate,
}

/// What a key bound to nothing does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// Nothing happens.
    Nothing,
    /// `1`-`9` select or toggle that row (or run a review action).
    Digit,
    /// A printable character without Ctrl or Alt is typed (the filter line too: digits are part
    /// of a query, and `filter.pick1`…`pick9`, Alt+1…9, pick a match).
    Type,
}

const fn layer(context: Context, take: Take, gate: Gate) -> Layer {
    Layer {
        context,
        take,
        gate,
    }
}

const MAIN: &[Layer] = &[
    layer(Context::Global, Take::All, Gate::Always),
    layer(Context::Main, Take::All, Gate::Always),
];

const SETTINGS_MODAL: &[Layer] = &[layer(Context::SettingsModal, Take::All, Gate::Always)];

const INBOX: &[Layer] = &[layer(Context::Inbox, Take::All, Gate::Always)];

/// The filter line: its own keys, then the preview's scroll keys (the preview follows the
/// highlighted match), then editing its query.
const FILTER: &[Layer] = &[
    layer(Context::Global, Take::All, Gate::Always),
    layer(Context::Filter, Take::All, Gate::Always),
    layer(Context::Main, Take::Group(Group::Preview), Gate::Always),
    layer(Context::Editor, Take::Group(Group::Editing), Gate::Always),
];

/// An editor's layers with its own context (`editor` or `noteEditor`) fourth.
const fn editor_layers(own: Context) -> [Layer; 9] {
    [
        layer(Context::Autocomplete, Take::All, Gate::PopupSuggestions),
        layer(
            Context::Autocomplete,
            Take::Only(Action::AutocompleteClose),
            Gate::PopupOpen,
        ),
        layer(Context::Global, Take::All, Gate::Always),
        layer(own, Take::Group(Group::Flow), Gate::Always),
        // An empty answer editor the cursor landed in hands the list's row-to-row keys back
        // (after the editor's own keys, so `editor.submit` or a `*WhenEmpty` action on the same
        // key wins; before typing, so a remapped `j`/`k` moves instead of being typed).
        layer(
            Context::Main,
            Take::Only(Action::MainNextOption),
            Gate::LandedAndEmpty,
        ),
        layer(
            Context::Main,
            Take::Only(Action::MainPreviousOption),
            Gate::LandedAndEmpty,
        ),
        // An empty editor has nothing to jump through: the list's jump keys still move.
        layer(Context::Main, Take::Group(Group::Jump), Gate::EditorEmpty),
        // A non-empty editor completes the path word before the caret.
        layer(
            Context::Autocomplete,
            Take::Only(Action::AutocompleteComplete),
            Gate::EditorHasText,
        ),
        layer(Context::Editor, Take::Group(Group::Editing), Gate::Always),
    ]
}

const ANSWER_EDITOR: &[Layer] = &editor_layers(Context::Editor);
const NOTE_EDITOR: &[Layer] = &editor_layers(Context::NoteEditor);

/// The layers and fallback of a focus.
pub fn layers(focus: Focus) -> (&'static [Layer], Fallback) {
    match focus {
        Focus::Main => (MAIN, Fallback::Digit),
        Focus::SettingsModal => (SETTINGS_MODAL, Fallback::Nothing),
        Focus::Inbox => (INBOX, Fallback::Nothing),
        Focus::Filter { .. } => (FILTER, Fallback::Type),
        Focus::Editor {
            kind: EditorKind::Answer | EditorKind::LandedAnswer,
            ..
        } => (ANSWER_EDITOR, Fallback::Type),
        Focus::Editor {
            kind: EditorKind::Note,
            ..
        } => (NOTE_EDITOR, Fallback::Type),
    }
}

impl Layer {
    /// Whether this layer is consulted in `focus`.
    pub fn open(&self, focus: Focus) -> bool {
        match self.gate {
            Gate::Always => true,
            Gate::EditorEmpty => focus.editor_empty(),
            Gate::EditorHasText => !focus.editor_empty(),
            Gate::PopupSuggestions => focus.popup() == PopupFocus::Suggestions,
            Gate::PopupOpen => focus.popup() != PopupFocus::Closed,
            Gate::LandedAndEmpty => matches!(
                focus,
                Focus::Editor {
                    kind: EditorKind::LandedAnswer,
                    empty: true,
                    ..
                }
            ),
        }
    }

    /// Whether this layer takes `action` (of its context).
    pub fn takes(&self, action: Action) -> bool {
        match self.take {
            Take::All => true,
            Take::Group(group) => action.group() == group,
            Take::Only(only) => action == only,
        }
    }
}

/// Whether an action's own condition holds in `focus`.
pub fn applies(when: When, focus: Focus) -> bool {
    match when {
        When::Always => true,
        When::EditorEmpty => focus.editor_empty(),
        When::EditorHasText => !focus.editor_empty(),
    }
}
