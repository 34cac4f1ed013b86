//! The binding table: the only way a key becomes a [`Msg`].
//!
//! [`Keymaps`] is the configured data (action → key ids); [`BindingTable`] is it resolved once into
//! a `(context, key) → action` lookup and its reverse, from which every hint is generated.

mod action;
mod validate;

pub use action::{Action, Context};
pub use validate::{KeymapSource, keymaps_from_value};

use std::collections::HashMap;

use indexmap::IndexMap;

use crate::keys::KeyId;
use crate::model::Msg;

/// Every action's keys. Always complete: an action with no keys is unbound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymaps {
    bindings: IndexMap<Action, Vec<KeyId>>,
}

impl Default for Keymaps {
    fn default() -> Self {
        let bindings = Action::ALL
            .iter()
            .map(|&a| {
                (
                    a,
                    a.default_keys()
                        .iter()
                        .map(|k| KeyId::parse(k).expect("default key ids are valid"))
                        .collect(),
                )
            })
            .collect();
        Keymaps { bindings }
    }
}

impl Keymaps {
    pub fn keys(&self, action: Action) -> &[KeyId] {
        self.bindings.get(&action).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Replaces one action's keys (an empty list unbinds it).
    pub fn set(&mut self, action: Action, keys: Vec<KeyId>) {
        self.bindings.insert(action, keys);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Action, &[KeyId])> {
        self.bindings.iter().map(|(a, k)| (*a, k.as_slice()))
    }
}

/// Which kind of editor has focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorKind {
    Answer,
    Note,
}

/// What has keyboard focus, as far as key resolution cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// Option lists and the review tab.
    Main,
    /// An inline editor; `empty` hands navigation keys to the `*WhenEmpty` actions,
    /// `popup` gives the `@` suggestion popup the first look at keys.
    Editor {
        kind: EditorKind,
        empty: bool,
        popup: bool,
    },
    /// The settings modal, which blocks every other context.
    SettingsModal,
}

impl Focus {
    /// The same focus with the suggestion popup closed.
    pub fn without_popup(self) -> Focus {
        match self {
            Focus::Editor { kind, empty, .. } => Focus::Editor {
                kind,
                empty,
                popup: false,
            },
            other => other,
        }
    }
}

/// An action of the `@` suggestion popup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupAction {
    Next,
    Previous,
    Accept,
    /// Tab: accepts the highlighted suggestion, or (popup closed) completes the path word.
    Complete,
    Close,
}

/// What a key press means in the current focus.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// A flow intent.
    Msg(Msg),
    /// A popup intent (handled by the editor component).
    Popup(PopupAction),
    /// Not bound here: the editor gets the key as text or cursor movement.
    EditorInput,
    /// Not bound and nothing to type into.
    Ignored,
}

/// The resolved lookup of a [`Keymaps`].
#[derive(Debug, Clone)]
pub struct BindingTable {
    keymaps: Keymaps,
    lookup: HashMap<(Context, KeyId), Action>,
}

impl Default for BindingTable {
    fn default() -> Self {
        BindingTable::new(Keymaps::default())
    }
}

impl BindingTable {
    pub fn new(keymaps: Keymaps) -> BindingTable {
        let mut lookup = HashMap::new();
        for (action, keys) in keymaps.iter() {
            for key in keys {
                // Validation rejects duplicates; first binding wins if unvalidated keymaps are used.
                lookup.entry((action.context(), *key)).or_insert(action);
            }
        }
        BindingTable { keymaps, lookup }
    }

    pub fn keymaps(&self) -> &Keymaps {
        &self.keymaps
    }

    /// The action bound to a key in a context.
    pub fn action(&self, context: Context, key: &KeyId) -> Option<Action> {
        self.lookup.get(&(context, *key)).copied()
    }

    /// The keys bound to an action.
    pub fn keys(&self, action: Action) -> &[KeyId] {
        self.keymaps.keys(action)
    }

    /// The hint label of an action's keys: `Esc / Ctrl+C / ?`.
    pub fn label(&self, action: Action) -> String {
        self.keys(action)
            .iter()
            .map(KeyId::label)
            .collect::<Vec<_>>()
            .join(" / ")
    }

    /// The label of an action's first key only (`Enter`), for compact hints.
    pub fn first_label(&self, action: Action) -> Option<String> {
        self.keys(action).first().map(KeyId::label)
    }

    fn is(&self, context: Context, key: &KeyId, action: Action) -> bool {
        self.action(context, key) == Some(action)
    }

    /// Resolves a key press in the given focus, in the original's order: global dismiss, global
    /// settings (only outside non-empty editors), then the focused context.
    pub fn resolve(&self, focus: Focus, key: &KeyId) -> Resolution {
        use Action::*;
        if focus == Focus::SettingsModal {
            return match self.action(Context::SettingsModal, key) {
                Some(SettingsModalClose) => Resolution::Msg(Msg::CloseSettings),
                Some(SettingsModalNextOption) => Resolution::Msg(Msg::SettingsNext),
                Some(SettingsModalPreviousOption) => Resolution::Msg(Msg::SettingsPrevious),
                Some(SettingsModalToggle) => Resolution::Msg(Msg::SettingsToggle),
                _ => Resolution::Ignored,
            };
        }
        if let Focus::Editor { popup: true, .. } = focus {
            match self.action(Context::Autocomplete, key) {
                Some(AutocompleteNext) => return Resolution::Popup(PopupAction::Next),
                Some(AutocompletePrevious) => return Resolution::Popup(PopupAction::Previous),
                Some(AutocompleteAccept) => return Resolution::Popup(PopupAction::Accept),
                Some(AutocompleteComplete) => return Resolution::Popup(PopupAction::Complete),
                Some(AutocompleteClose) => return Resolution::Popup(PopupAction::Close),
                _ => {}
            }
        }
        if self.is(Context::Global, key, GlobalDismiss) {
            return Resolution::Msg(Msg::Dismiss);
        }
        let editor_empty = match focus {
            Focus::Editor { empty, .. } => empty,
            _ => true,
        };
        if editor_empty && self.is(Context::Global, key, GlobalSettings) {
            return Resolution::Msg(Msg::OpenSettings);
        }
        match focus {
            Focus::Editor { kind, empty, .. } => {
                let context = if kind == EditorKind::Note {
                    Context::NoteEditor
                } else {
                    Context::Editor
                };
                let msg = match self.action(context, key) {
                    Some(EditorSubmit | NoteEditorSave) => Some(Msg::EditorSubmit),
                    Some(EditorClose | NoteEditorClose) => Some(Msg::EditorClose),
                    Some(EditorNextTabWhenEmpty | NoteEditorNextTabWhenEmpty) if empty => {
                        Some(Msg::NextTab)
                    }
                    Some(EditorPreviousTabWhenEmpty | NoteEditorPreviousTabWhenEmpty) if empty => {
                        Some(Msg::PreviousTab)
                    }
                    Some(EditorNextOptionWhenEmpty | NoteEditorNextOptionWhenEmpty) if empty => {
                        Some(Msg::NextOption)
                    }
                    Some(EditorPreviousOptionWhenEmpty | NoteEditorPreviousOptionWhenEmpty)
                        if empty =>
                    {
                        Some(Msg::PreviousOption)
                    }
                    _ => None,
                };
                // An empty editor has nothing to jump through: the list's jump keys still move.
                let msg = match (msg, empty) {
                    (None, true) => match self.action(Context::Main, key) {
                        Some(MainFirstOption) => Some(Msg::FirstOption),
                        Some(MainLastOption) => Some(Msg::LastOption),
                        Some(MainPageDown) => Some(Msg::PageDown),
                        Some(MainPageUp) => Some(Msg::PageUp),
                        _ => None,
                    },
                    (msg, _) => msg,
                };
                match msg {
                    Some(msg) => Resolution::Msg(msg),
                    // A non-empty editor completes the path word under the cursor.
                    None if !empty && self.is(Context::Autocomplete, key, AutocompleteComplete) => {
                        Resolution::Popup(PopupAction::Complete)
                    }
                    None => Resolution::EditorInput,
                }
            }
            Focus::Main => {
                let msg = match self.action(Context::Main, key) {
                    Some(MainNextTab) => Msg::NextTab,
                    Some(MainPreviousTab) => Msg::PreviousTab,
                    Some(MainPreviousOption) => Msg::PreviousOption,
                    Some(MainNextOption) => Msg::NextOption,
                    Some(MainFirstOption) => Msg::FirstOption,
                    Some(MainLastOption) => Msg::LastOption,
                    Some(MainPageDown) => Msg::PageDown,
                    Some(MainPageUp) => Msg::PageUp,
                    Some(MainPreviewDown) => Msg::PreviewDown,
                    Some(MainPreviewUp) => Msg::PreviewUp,
                    Some(MainToggle) => Msg::Toggle,
                    Some(MainChangeQuestionType) => Msg::ChangeQuestionType,
                    Some(MainConfirm) => Msg::Confirm,
                    Some(MainCancel) => Msg::Cancel,
                    Some(MainQuestionNote) => Msg::QuestionNote,
                    Some(MainOptionNote) => Msg::OptionNote,
                    _ => match key.digit() {
                        Some(d) => Msg::Number(d),
                        None => return Resolution::Ignored,
                    },
                };
                Resolution::Msg(msg)
            }
            Focus::SettingsModal => Resolution::Ignored,
        }
    }
}
