//! The binding contexts and the action table: every action's id, default keys, the [`Msg`] it
//! produces, when it applies, what it does (one line, for docs and the config template) and its
//! hint verb. Resolution, hints, the commented config and docs/keymaps.md all read this table.

use std::fmt;

use pi_ask_components::EditOp;

use crate::model::{FilterAction, InboxAction, Intent, Msg, PopupAction, SettingsIntent};

/// Where a key is pressed. Each context has its own actions and bindings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    /// Keys that work everywhere in a form (dismiss, settings).
    Global,
    /// The option list of a question, and the review.
    Main,
    /// The answer editor (`Type your own`).
    Editor,
    /// A note editor.
    NoteEditor,
    /// The settings modal.
    SettingsModal,
    /// The `@` file suggestion popup inside an editor.
    Autocomplete,
    /// `pi-ask inbox`'s list of waiting asks.
    Inbox,
    /// The type-to-filter line over a question's options (`main.filter`).
    Filter,
}

impl Context {
    /// Every context, in the order docs and configs list them.
    pub const ALL: [Context; 8] = [
        Context::Global,
        Context::Main,
        Context::Editor,
        Context::NoteEditor,
        Context::SettingsModal,
        Context::Autocomplete,
        Context::Inbox,
        Context::Filter,
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
            Context::Inbox => "inbox",
            Context::Filter => "filter",
        }
    }

    /// What the context covers, for the docs table.
    pub fn describe(self) -> &'static str {
        match self {
            Context::Global => "everywhere but the settings modal",
            Context::Main => "option lists and the review tab",
            Context::Editor => {
                "the free-form answer editor; its editing actions work in every editor"
            }
            Context::NoteEditor => "the note editors",
            Context::SettingsModal => "the settings modal",
            Context::Autocomplete => "the `@` suggestion popup",
            Context::Inbox => "`pi-ask inbox`'s list of waiting asks",
            Context::Filter => {
                "the type-to-filter line over a question's options; its typing takes the editing actions"
            }
        }
    }

    /// The context a config calls `name` (`main`, `editor`, …), if any.
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

/// When an action applies (besides its context being consulted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Whenever its context is consulted.
    Always,
    /// No editor is open, or the open one is empty (the `*WhenEmpty` actions, `global.settings`).
    EditorEmpty,
    /// The open editor holds text (caret motions and deletions, which do nothing on no text).
    EditorHasText,
}

impl When {
    /// Whether both can hold at once (two such actions may not share a key in one context).
    pub fn overlaps(self, other: When) -> bool {
        !matches!(
            (self, other),
            (When::EditorEmpty, When::EditorHasText) | (When::EditorHasText, When::EditorEmpty)
        )
    }
}

/// Which part of a context an action belongs to, so precedence can take part of a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Moving through the form and ending it.
    Flow,
    /// `main`'s jumps (first, last, a page), which an empty editor hands to the list.
    Jump,
    /// Editing text in an editor.
    Editing,
    /// Scrolling a preview question's pane, which the filter line hands on (the pane follows
    /// its highlighted match).
    Preview,
}

/// Everything the table says about one action.
#[derive(Debug)]
pub struct ActionSpec {
    /// Where it is bound.
    pub context: Context,
    /// The name within its context (`nextTab`).
    pub name: &'static str,
    /// Its keys unless remapped.
    pub default_keys: &'static [&'static str],
    /// The message it produces.
    pub msg: Msg,
    /// When it applies.
    pub when: When,
    /// The group it belongs to (flow, editing, preview…).
    pub group: Group,
    /// The footer hint's verb (`select`, `close list`); empty for actions without a hint.
    pub hint: &'static str,
    /// What it does, in one line.
    pub description: &'static str,
    /// Whether the original pi-ask has it (its JSON config must list exactly those).
    pub original: bool,
}

macro_rules! actions {
    ($( $variant:ident => {
        $ctx:ident, $name:literal, [$($key:literal),*], $msg:expr, $when:ident, $group:ident,
        $original:literal, hint $hint:literal, $description:literal
    } ),* $(,)?) => {
        /// A bindable action. Its config id is `<context>.<name>`, e.g. `main.nextTab`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Action { $(#[doc = $description] $variant),* }

        impl Action {
            /// Every action, in the table's order.
            pub const ALL: &'static [Action] = &[$(Action::$variant),*];

            /// The action's row of the table.
            pub fn spec(self) -> &'static ActionSpec {
                match self {
                    $(Action::$variant => {
                        static SPEC: ActionSpec = ActionSpec {
                            context: Context::$ctx,
                            name: $name,
                            default_keys: &[$($key),*],
                            msg: $msg,
                            when: When::$when,
                            group: Group::$group,
                            hint: $hint,
                            description: $description,
                            original: $original,
                        };
                        &SPEC
                    }),*
                }
            }
        }
    };
}

use EditOp as E;

actions! {
    GlobalDismiss => { Global, "dismiss", ["ctrl+c"], Msg::Intent(Intent::Dismiss), Always, Flow, true,
        hint "", "Dismiss the form (a second press confirms when answers would be lost)" },
    GlobalSettings => { Global, "settings", ["?"], Msg::Settings(SettingsIntent::Open), EditorEmpty, Flow, true,
        hint "settings", "Open the settings modal (typed as text in an editor that holds text)" },
    GlobalHide => { Global, "hide", ["ctrl+]"], Msg::Intent(Intent::ToggleHidden), Always, Flow, false,
        hint "hide", "Hide the form to one line to read what is above it (pi's conversation); again to show it" },
    MainConfirm => { Main, "confirm", ["enter"], Msg::Intent(Intent::Confirm), Always, Flow, true,
        hint "confirm", "Choose the highlighted option and go on, or run the highlighted review action" },
    MainCancel => { Main, "cancel", ["esc"], Msg::Intent(Intent::Cancel), Always, Flow, true,
        hint "dismiss", "Cancel the form (a second press confirms when answers would be lost)" },
    MainChangeQuestionType => { Main, "changeQuestionType", ["t"], Msg::Intent(Intent::ChangeQuestionType), Always, Flow, true,
        hint "question type", "Switch the question between one choice and several" },
    MainToggle => { Main, "toggle", ["space"], Msg::Intent(Intent::Toggle), Always, Flow, true,
        hint "toggle", "Toggle the highlighted option of a multi question" },
    MainToggleAll => { Main, "toggleAll", ["a"], Msg::Intent(Intent::ToggleAll), Always, Flow, false,
        hint "all/none", "Choose every option of a multi question, or none when all are chosen" },
    MainNextTab => { Main, "nextTab", ["tab", "right"], Msg::Intent(Intent::NextTab), Always, Flow, true,
        hint "tab", "The next tab" },
    MainPreviousTab => { Main, "previousTab", ["shift+tab", "left"], Msg::Intent(Intent::PreviousTab), Always, Flow, true,
        hint "tab", "The previous tab" },
    MainNextOption => { Main, "nextOption", ["down"], Msg::Intent(Intent::NextOption), Always, Flow, true,
        hint "select", "The next option (or review action)" },
    MainPreviousOption => { Main, "previousOption", ["up"], Msg::Intent(Intent::PreviousOption), Always, Flow, true,
        hint "select", "The previous option (or review action)" },
    MainFirstOption => { Main, "firstOption", ["home"], Msg::Intent(Intent::FirstOption), Always, Jump, false,
        hint "", "The first option" },
    MainLastOption => { Main, "lastOption", ["end"], Msg::Intent(Intent::LastOption), Always, Jump, false,
        hint "", "The last option" },
    MainPageDown => { Main, "pageDown", ["pageDown"], Msg::Intent(Intent::PageDown), Always, Jump, false,
        hint "", "A page of options down (as many rows as the list shows)" },
    MainPageUp => { Main, "pageUp", ["pageUp"], Msg::Intent(Intent::PageUp), Always, Jump, false,
        hint "", "A page of options up" },
    MainPreviewDown => { Main, "previewDown", ["shift+down"], Msg::Intent(Intent::PreviewDown), Always, Preview, false,
        hint "scroll preview", "Scroll a preview question's pane down a line" },
    MainPreviewUp => { Main, "previewUp", ["shift+up"], Msg::Intent(Intent::PreviewUp), Always, Preview, false,
        hint "scroll preview", "Scroll a preview question's pane up a line" },
    MainPreviewPageDown => { Main, "previewPageDown", ["shift+pageDown"], Msg::Intent(Intent::PreviewPageDown), Always, Preview, false,
        hint "page preview", "Scroll a preview question's pane down a page" },
    MainPreviewPageUp => { Main, "previewPageUp", ["shift+pageUp"], Msg::Intent(Intent::PreviewPageUp), Always, Preview, false,
        hint "page preview", "Scroll a preview question's pane up a page" },
    MainPreviewTop => { Main, "previewTop", ["shift+home"], Msg::Intent(Intent::PreviewTop), Always, Preview, false,
        hint "preview top", "Scroll a preview question's pane to its first line" },
    MainPreviewBottom => { Main, "previewBottom", ["shift+end"], Msg::Intent(Intent::PreviewBottom), Always, Preview, false,
        hint "preview end", "Scroll a preview question's pane to its last line" },
    MainTogglePreviewRaw => { Main, "togglePreviewRaw", ["r"], Msg::Intent(Intent::TogglePreviewRaw), Always, Flow, false,
        hint "raw", "Show a preview's text as written (its Markdown not rendered), or rendered again" },
    MainFilter => { Main, "filter", ["/"], Msg::Intent(Intent::OpenFilter), Always, Flow, false,
        hint "filter", "Filter the options by typing (fuzzy, on labels and descriptions)" },
    MainOptionNote => { Main, "optionNote", ["n"], Msg::Intent(Intent::OptionNote), Always, Flow, true,
        hint "note", "Write a note on the highlighted option" },
    MainQuestionNote => { Main, "questionNote", ["shift+n"], Msg::Intent(Intent::QuestionNote), Always, Flow, true,
        hint "note", "Write a note on the question" },
    EditorSubmit => { Editor, "submit", ["enter"], Msg::Intent(Intent::EditorSubmit), Always, Flow, true,
        hint "submit", "Submit the typed answer" },
    EditorClose => { Editor, "close", ["esc"], Msg::Intent(Intent::EditorClose), Always, Flow, true,
        hint "close", "Close the editor, keeping the draft" },
    EditorNextTabWhenEmpty => { Editor, "nextTabWhenEmpty", ["tab", "right"], Msg::Intent(Intent::NextTab), EditorEmpty, Flow, true,
        hint "", "The next tab, while the editor is empty" },
    EditorPreviousTabWhenEmpty => { Editor, "previousTabWhenEmpty", ["shift+tab", "left"], Msg::Intent(Intent::PreviousTab), EditorEmpty, Flow, true,
        hint "", "The previous tab, while the editor is empty" },
    EditorNextOptionWhenEmpty => { Editor, "nextOptionWhenEmpty", ["down"], Msg::Intent(Intent::NextOption), EditorEmpty, Flow, true,
        hint "", "The next option, while the editor is empty" },
    EditorPreviousOptionWhenEmpty => { Editor, "previousOptionWhenEmpty", ["up"], Msg::Intent(Intent::PreviousOption), EditorEmpty, Flow, true,
        hint "", "The previous option, while the editor is empty" },
    EditorCursorLeft => { Editor, "cursorLeft", ["left", "ctrl+b"], Msg::Edit(E::CursorLeft), EditorHasText, Editing, false,
        hint "", "Caret a character left" },
    EditorCursorRight => { Editor, "cursorRight", ["right", "ctrl+f"], Msg::Edit(E::CursorRight), EditorHasText, Editing, false,
        hint "", "Caret a character right" },
    EditorCursorWordLeft => { Editor, "cursorWordLeft", ["alt+left", "ctrl+left", "alt+b"], Msg::Edit(E::CursorWordLeft), EditorHasText, Editing, false,
        hint "word", "Caret to the start of this or the previous word" },
    EditorCursorWordRight => { Editor, "cursorWordRight", ["alt+right", "ctrl+right", "alt+f"], Msg::Edit(E::CursorWordRight), EditorHasText, Editing, false,
        hint "word", "Caret to the end of this or the next word" },
    EditorCursorLineStart => { Editor, "cursorLineStart", ["home", "ctrl+a"], Msg::Edit(E::CursorLineStart), EditorHasText, Editing, false,
        hint "", "Caret to the start of the line" },
    EditorCursorLineEnd => { Editor, "cursorLineEnd", ["end", "ctrl+e"], Msg::Edit(E::CursorLineEnd), EditorHasText, Editing, false,
        hint "", "Caret to the end of the line" },
    EditorCursorUp => { Editor, "cursorUp", ["up"], Msg::Edit(E::CursorUp), EditorHasText, Editing, false,
        hint "", "Caret a line up (on the first line, to its start)" },
    EditorCursorDown => { Editor, "cursorDown", ["down"], Msg::Edit(E::CursorDown), EditorHasText, Editing, false,
        hint "", "Caret a line down (on the last line, to its end)" },
    EditorDeleteCharBackward => { Editor, "deleteCharBackward", ["backspace", "ctrl+h"], Msg::Edit(E::DeleteCharBackward), EditorHasText, Editing, false,
        hint "", "Delete the character before the caret" },
    EditorDeleteCharForward => { Editor, "deleteCharForward", ["delete", "ctrl+d"], Msg::Edit(E::DeleteCharForward), EditorHasText, Editing, false,
        hint "", "Delete the character after the caret" },
    EditorDeleteWordBackward => { Editor, "deleteWordBackward", ["ctrl+w", "alt+backspace", "ctrl+backspace"], Msg::Edit(E::DeleteWordBackward), EditorHasText, Editing, false,
        hint "delete word", "Delete the whitespace-separated word before the caret" },
    EditorDeleteWordForward => { Editor, "deleteWordForward", ["alt+d", "alt+delete", "ctrl+delete"], Msg::Edit(E::DeleteWordForward), EditorHasText, Editing, false,
        hint "", "Delete to the end of this or the next word" },
    EditorDeleteToLineStart => { Editor, "deleteToLineStart", ["ctrl+u"], Msg::Edit(E::DeleteToLineStart), EditorHasText, Editing, false,
        hint "", "Delete from the start of the line to the caret" },
    EditorDeleteToLineEnd => { Editor, "deleteToLineEnd", ["ctrl+k"], Msg::Edit(E::DeleteToLineEnd), EditorHasText, Editing, false,
        hint "", "Delete from the caret to the end of the line" },
    EditorExternalEditor => { Editor, "externalEditor", ["ctrl+g"], Msg::Intent(Intent::ExternalEditor), Always, Editing, false,
        hint "external editor", "Edit the text in $VISUAL or $EDITOR (the form waits, then takes the saved text)" },
    EditorNewLine => { Editor, "newLine", ["shift+enter", "alt+enter", "ctrl+j"], Msg::Edit(E::NewLine), Always, Editing, false,
        hint "new line", "Start a new line (answers and notes)" },
    NoteEditorSave => { NoteEditor, "save", ["enter"], Msg::Intent(Intent::EditorSubmit), Always, Flow, true,
        hint "save", "Save the note" },
    NoteEditorClose => { NoteEditor, "close", ["esc"], Msg::Intent(Intent::EditorClose), Always, Flow, true,
        hint "close", "Close the note editor, keeping the draft" },
    NoteEditorNextTabWhenEmpty => { NoteEditor, "nextTabWhenEmpty", ["tab", "right"], Msg::Intent(Intent::NextTab), EditorEmpty, Flow, true,
        hint "", "The next tab, while the note is empty" },
    NoteEditorPreviousTabWhenEmpty => { NoteEditor, "previousTabWhenEmpty", ["shift+tab", "left"], Msg::Intent(Intent::PreviousTab), EditorEmpty, Flow, true,
        hint "", "The previous tab, while the note is empty" },
    NoteEditorNextOptionWhenEmpty => { NoteEditor, "nextOptionWhenEmpty", ["down"], Msg::Intent(Intent::NextOption), EditorEmpty, Flow, true,
        hint "", "The next option, while the note is empty" },
    NoteEditorPreviousOptionWhenEmpty => { NoteEditor, "previousOptionWhenEmpty", ["up"], Msg::Intent(Intent::PreviousOption), EditorEmpty, Flow, true,
        hint "", "The previous option, while the note is empty" },
    SettingsModalClose => { SettingsModal, "close", ["esc", "ctrl+c", "?"], Msg::Settings(SettingsIntent::Close), Always, Flow, true,
        hint "to close", "Close the settings modal" },
    SettingsModalNextOption => { SettingsModal, "nextOption", ["down"], Msg::Settings(SettingsIntent::Next), Always, Flow, true,
        hint "", "The next setting" },
    SettingsModalPreviousOption => { SettingsModal, "previousOption", ["up"], Msg::Settings(SettingsIntent::Previous), Always, Flow, true,
        hint "", "The previous setting" },
    SettingsModalToggle => { SettingsModal, "toggle", ["enter", "space"], Msg::Settings(SettingsIntent::Toggle), Always, Flow, true,
        hint "to change", "Toggle the highlighted setting (or arm and confirm the reset)" },
    AutocompleteNext => { Autocomplete, "next", ["down"], Msg::Popup(PopupAction::Next), Always, Flow, false,
        hint "select", "The next suggestion" },
    AutocompletePrevious => { Autocomplete, "previous", ["up"], Msg::Popup(PopupAction::Previous), Always, Flow, false,
        hint "select", "The previous suggestion" },
    AutocompleteAccept => { Autocomplete, "accept", ["enter"], Msg::Popup(PopupAction::Accept), Always, Flow, false,
        hint "accept", "Insert the highlighted suggestion" },
    AutocompleteComplete => { Autocomplete, "complete", ["tab"], Msg::Popup(PopupAction::Complete), Always, Flow, false,
        hint "complete", "Insert the highlighted suggestion; with the popup closed, complete the path word before the caret" },
    AutocompleteClose => { Autocomplete, "close", ["esc"], Msg::Popup(PopupAction::Close), Always, Flow, false,
        hint "close list", "Close the popup until the text before the caret changes" },
    FilterAccept => { Filter, "accept", ["enter"], Msg::Filter(FilterAction::Accept), Always, Flow, false,
        hint "pick", "Pick the highlighted match and close the filter" },
    FilterClose => { Filter, "close", ["esc"], Msg::Filter(FilterAction::Close), Always, Flow, false,
        hint "all options", "Close the filter; the cursor stays on the highlighted option" },
    FilterNext => { Filter, "next", ["down", "ctrl+n"], Msg::Filter(FilterAction::Next), Always, Flow, false,
        hint "select", "Highlight the next match" },
    FilterPrevious => { Filter, "previous", ["up", "ctrl+p"], Msg::Filter(FilterAction::Previous), Always, Flow, false,
        hint "select", "Highlight the previous match" },
    FilterToggle => { Filter, "toggle", ["space"], Msg::Filter(FilterAction::Toggle), Always, Flow, false,
        hint "toggle", "Toggle the highlighted match of a multi question (a space in the query otherwise)" },
    FilterPick1 => { Filter, "pick1", ["alt+1"], Msg::Filter(FilterAction::Pick(1)), Always, Flow, false,
        hint "", "Pick the first match shown (digits typed go into the query)" },
    FilterPick2 => { Filter, "pick2", ["alt+2"], Msg::Filter(FilterAction::Pick(2)), Always, Flow, false,
        hint "", "Pick the second match shown (digits typed go into the query)" },
    FilterPick3 => { Filter, "pick3", ["alt+3"], Msg::Filter(FilterAction::Pick(3)), Always, Flow, false,
        hint "", "Pick the third match shown (digits typed go into the query)" },
    FilterPick4 => { Filter, "pick4", ["alt+4"], Msg::Filter(FilterAction::Pick(4)), Always, Flow, false,
        hint "", "Pick the fourth match shown (digits typed go into the query)" },
    FilterPick5 => { Filter, "pick5", ["alt+5"], Msg::Filter(FilterAction::Pick(5)), Always, Flow, false,
        hint "", "Pick the fifth match shown (digits typed go into the query)" },
    FilterPick6 => { Filter, "pick6", ["alt+6"], Msg::Filter(FilterAction::Pick(6)), Always, Flow, false,
        hint "", "Pick the sixth match shown (digits typed go into the query)" },
    FilterPick7 => { Filter, "pick7", ["alt+7"], Msg::Filter(FilterAction::Pick(7)), Always, Flow, false,
        hint "", "Pick the seventh match shown (digits typed go into the query)" },
    FilterPick8 => { Filter, "pick8", ["alt+8"], Msg::Filter(FilterAction::Pick(8)), Always, Flow, false,
        hint "", "Pick the eighth match shown (digits typed go into the query)" },
    FilterPick9 => { Filter, "pick9", ["alt+9"], Msg::Filter(FilterAction::Pick(9)), Always, Flow, false,
        hint "", "Pick the ninth match shown (digits typed go into the query)" },
    InboxNext => { Inbox, "next", ["down"], Msg::Inbox(InboxAction::Next), Always, Flow, false,
        hint "", "Highlight the next waiting ask" },
    InboxPrevious => { Inbox, "previous", ["up"], Msg::Inbox(InboxAction::Previous), Always, Flow, false,
        hint "select", "Highlight the previous waiting ask" },
    InboxOpen => { Inbox, "open", ["enter"], Msg::Inbox(InboxAction::Open), Always, Flow, false,
        hint "open", "Open the highlighted ask's form" },
    InboxLater => { Inbox, "later", ["l"], Msg::Inbox(InboxAction::Later), Always, Flow, false,
        hint "later", "Leave the highlighted ask queued for later: it moves to the end of the list" },
    InboxDecline => { Inbox, "decline", ["d"], Msg::Inbox(InboxAction::Decline), Always, Flow, false,
        hint "decline", "Decline the highlighted ask: its asker gets a cancelled result" },
    InboxFilter => { Inbox, "filter", ["/"], Msg::Intent(Intent::OpenFilter), Always, Flow, false,
        hint "filter", "Filter the waiting asks by typing (fuzzy, on the prompt, who asked and from where)" },
    InboxQuit => { Inbox, "quit", ["esc", "ctrl+c"], Msg::Inbox(InboxAction::Quit), Always, Flow, false,
        hint "quit", "Quit the inbox; every ask stays queued for the next inbox" },
}

impl Action {
    /// Where the action is bound.
    pub fn context(self) -> Context {
        self.spec().context
    }

    /// The name within its context (`nextTab`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The default key ids.
    pub fn default_keys(self) -> &'static [&'static str] {
        self.spec().default_keys
    }

    /// The message a key bound to this action produces.
    pub fn msg(self) -> Msg {
        self.spec().msg.clone()
    }

    /// When the action applies.
    pub fn when(self) -> When {
        self.spec().when
    }

    /// The group the action belongs to.
    pub fn group(self) -> Group {
        self.spec().group
    }

    /// The action a config calls `<context>.<name>`, if any.
    pub fn from_name(context: Context, name: &str) -> Option<Action> {
        context.actions().find(|a| a.name() == name)
    }

    /// Whether the original pi-ask has this action (its JSON config must list exactly those).
    pub fn in_original(self) -> bool {
        self.spec().original
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.context().name(), self.name())
    }
}
