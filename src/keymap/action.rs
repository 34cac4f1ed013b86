//! The binding contexts and their actions, with the default keys of each.

use std::fmt;

/// Where a key is pressed. Each context has its own actions and bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    Global,
    Main,
    Editor,
    NoteEditor,
    SettingsModal,
    /// The `@` file suggestion popup inside an editor.
    Autocomplete,
}

impl Context {
    pub const ALL: [Context; 6] = [
        Context::Global,
        Context::Main,
        Context::Editor,
        Context::NoteEditor,
        Context::SettingsModal,
        Context::Autocomplete,
    ];

    /// The contexts of the original pi-ask's keymaps (its JSON config spells each out).
    pub const ORIGINAL: [Context; 5] = [
        Context::Global,
        Context::Main,
        Context::Editor,
        Context::NoteEditor,
        Context::SettingsModal,
    ];

    /// The config name: `global`, `main`, `editor`, `noteEditor`, `settingsModal`, `autocomplete`.
    pub fn name(self) -> &'static str {
        match self {
            Context::Global => "global",
            Context::Main => "main",
            Context::Editor => "editor",
            Context::NoteEditor => "noteEditor",
            Context::SettingsModal => "settingsModal",
            Context::Autocomplete => "autocomplete",
        }
    }

    pub fn from_name(name: &str) -> Option<Context> {
        Context::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The actions of this context, in config order.
    pub fn actions(self) -> impl Iterator<Item = Action> {
        Action::ALL
            .iter()
            .copied()
            .filter(move |a| a.context() == self)
    }
}

macro_rules! actions {
    ($( $variant:ident => ($ctx:ident, $name:literal, [$($key:literal),*]) ),* $(,)?) => {
        /// A bindable action. Its config id is `<context>.<name>`, e.g. `main.nextTab`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action { $($variant),* }

        impl Action {
            pub const ALL: &'static [Action] = &[$(Action::$variant),*];

            pub fn context(self) -> Context {
                match self { $(Action::$variant => Context::$ctx),* }
            }

            /// The name within its context (`nextTab`).
            pub fn name(self) -> &'static str {
                match self { $(Action::$variant => $name),* }
            }

            /// The default key ids.
            pub fn default_keys(self) -> &'static [&'static str] {
                match self { $(Action::$variant => &[$($key),*]),* }
            }
        }
    };
}

actions! {
    GlobalDismiss => (Global, "dismiss", ["ctrl+c"]),
    GlobalSettings => (Global, "settings", ["?"]),
    MainConfirm => (Main, "confirm", ["enter"]),
    MainCancel => (Main, "cancel", ["esc"]),
    MainChangeQuestionType => (Main, "changeQuestionType", ["t"]),
    MainToggle => (Main, "toggle", ["space"]),
    MainNextTab => (Main, "nextTab", ["tab", "right"]),
    MainPreviousTab => (Main, "previousTab", ["shift+tab", "left"]),
    MainNextOption => (Main, "nextOption", ["down"]),
    MainPreviousOption => (Main, "previousOption", ["up"]),
    MainFirstOption => (Main, "firstOption", ["home"]),
    MainLastOption => (Main, "lastOption", ["end"]),
    MainPageDown => (Main, "pageDown", ["pageDown"]),
    MainPageUp => (Main, "pageUp", ["pageUp"]),
    MainPreviewDown => (Main, "previewDown", ["shift+down"]),
    MainPreviewUp => (Main, "previewUp", ["shift+up"]),
    MainOptionNote => (Main, "optionNote", ["n"]),
    MainQuestionNote => (Main, "questionNote", ["shift+n"]),
    EditorSubmit => (Editor, "submit", ["enter"]),
    EditorClose => (Editor, "close", ["esc"]),
    EditorNextTabWhenEmpty => (Editor, "nextTabWhenEmpty", ["tab", "right"]),
    EditorPreviousTabWhenEmpty => (Editor, "previousTabWhenEmpty", ["shift+tab", "left"]),
    EditorNextOptionWhenEmpty => (Editor, "nextOptionWhenEmpty", ["down"]),
    EditorPreviousOptionWhenEmpty => (Editor, "previousOptionWhenEmpty", ["up"]),
    NoteEditorSave => (NoteEditor, "save", ["enter"]),
    NoteEditorClose => (NoteEditor, "close", ["esc"]),
    NoteEditorNextTabWhenEmpty => (NoteEditor, "nextTabWhenEmpty", ["tab", "right"]),
    NoteEditorPreviousTabWhenEmpty => (NoteEditor, "previousTabWhenEmpty", ["shift+tab", "left"]),
    NoteEditorNextOptionWhenEmpty => (NoteEditor, "nextOptionWhenEmpty", ["down"]),
    NoteEditorPreviousOptionWhenEmpty => (NoteEditor, "previousOptionWhenEmpty", ["up"]),
    SettingsModalClose => (SettingsModal, "close", ["esc", "ctrl+c", "?"]),
    SettingsModalNextOption => (SettingsModal, "nextOption", ["down"]),
    SettingsModalPreviousOption => (SettingsModal, "previousOption", ["up"]),
    SettingsModalToggle => (SettingsModal, "toggle", ["enter", "space"]),
    AutocompleteNext => (Autocomplete, "next", ["down"]),
    AutocompletePrevious => (Autocomplete, "previous", ["up"]),
    AutocompleteAccept => (Autocomplete, "accept", ["enter"]),
    AutocompleteComplete => (Autocomplete, "complete", ["tab"]),
    AutocompleteClose => (Autocomplete, "close", ["esc"]),
}

impl Action {
    pub fn from_name(context: Context, name: &str) -> Option<Action> {
        context.actions().find(|a| a.name() == name)
    }

    /// Whether the original pi-ask has this action (its JSON config must list exactly those).
    pub fn in_original(self) -> bool {
        !matches!(
            self,
            Action::MainFirstOption
                | Action::MainLastOption
                | Action::MainPageDown
                | Action::MainPageUp
                | Action::MainPreviewDown
                | Action::MainPreviewUp
        )
    }

    /// `<context>.<name>`.
    pub fn id(self) -> String {
        format!("{}.{}", self.context().name(), self.name())
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.context().name(), self.name())
    }
}
