//! The interactive flow: the model, the binding table, and the view components that persist
//! between frames (scroll offsets, the text editor). Terminal-free, so tests drive it directly.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use pi_ask_components::{Editor, OptionList, OptionRow};

use super::appearance::{ChosenTheme, Look};

use crate::files::{self, FileIndex, Searcher, Suggestion};
use crate::form::{CUSTOM_ROW_LABEL, FREEFORM_ROW_LABEL, Form};
use crate::keymap::{BindingTable, EditorKind, Focus, PopupAction, Resolution};
use crate::keys::KeyId;
use crate::model::{Cmd, EditorTarget, Model, Msg, update};
use crate::settings::Settings;

/// What an open suggestion popup completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupKind {
    /// An `@` reference (`quoted` when typed as `@"…`).
    At { quoted: bool },
    /// A path word completed with Tab (`had_at` keeps its `@`, `quoted` its open quote).
    Word { had_at: bool, quoted: bool },
}

/// The suggestion popup under an editor.
#[derive(Debug, Clone)]
pub struct Popup {
    pub items: Vec<Suggestion>,
    /// How many matched in all (`items` are the best of them).
    pub total: usize,
    pub selected: usize,
    /// Characters before the cursor that an accepted suggestion replaces.
    pub replace_chars: usize,
    pub kind: PopupKind,
}

/// A running ask flow with its view state.
pub struct App {
    pub(crate) model: Model,
    pub(crate) table: BindingTable,
    pub(crate) editor: Option<(EditorTarget, Editor)>,
    pub(crate) lists: Vec<OptionList>,
    pub(crate) config_path: String,
    files: Option<FileIndex>,
    searcher: Searcher,
    pub(crate) popup: Option<Popup>,
    /// What the last frame measured (page size, preview scroll), reported to the model.
    pub(crate) measured: super::view::Measured,
    /// The text before the cursor when the popup was closed with Esc; it stays closed until that changes.
    popup_dismissed: Option<String>,
    /// Index size at the last search, to refresh while the walk streams in.
    searched_len: usize,
    /// The colours everything is drawn with, and how the settings modal describes them.
    pub(crate) look: Look,
}

impl App {
    /// A flow for a validated form. `config_notice` is shown until the first tab change.
    pub fn new(
        form: Form,
        settings: Settings,
        table: BindingTable,
        config_path: String,
        config_notice: Option<String>,
    ) -> App {
        let model = Model::new(form, settings);
        let lists = model
            .questions()
            .iter()
            .map(|q| {
                let mut rows: Vec<OptionRow> = q
                    .options
                    .iter()
                    .map(|o| OptionRow {
                        label: o.label.clone(),
                        description: o.description.clone(),
                        recommended: o.is_recommended(),
                    })
                    .collect();
                rows.push(OptionRow {
                    label: if q.freeform {
                        FREEFORM_ROW_LABEL
                    } else {
                        CUSTOM_ROW_LABEL
                    }
                    .to_owned(),
                    description: None,
                    recommended: false,
                });
                OptionList::new(Arc::new(rows))
            })
            .collect();
        let mut app = App {
            model,
            table,
            editor: None,
            lists,
            config_path,
            files: None,
            searcher: Searcher::default(),
            popup: None,
            measured: super::view::Measured::default(),
            popup_dismissed: None,
            searched_len: 0,
            look: Look::default(),
        };
        if let Some(notice) = config_notice {
            app.update(Msg::ConfigNotice(notice));
        }
        app.sync_editor();
        app
    }

    /// Draws with this theme from now on.
    pub fn set_theme(&mut self, chosen: &ChosenTheme) {
        self.look = Look::from(chosen);
        if let Some((_, editor)) = &mut self.editor {
            editor.set_theme(chosen.theme);
        }
    }

    /// Offers `@` file suggestions from this index in every editor of the flow.
    pub fn with_files(mut self, index: FileIndex) -> App {
        self.files = Some(index);
        self
    }

    /// The open suggestion popup.
    pub fn popup(&self) -> Option<&Popup> {
        self.popup.as_ref()
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn table(&self) -> &BindingTable {
        &self.table
    }

    /// Applies new keymaps at once (a saved or reloaded config).
    pub fn set_table(&mut self, table: BindingTable) {
        self.table = table;
    }

    /// What has keyboard focus.
    pub fn focus(&self) -> Focus {
        if self.model.settings_modal().is_some() {
            return Focus::SettingsModal;
        }
        match &self.editor {
            Some((target, editor)) => Focus::Editor {
                kind: if target.is_note() {
                    EditorKind::Note
                } else {
                    EditorKind::Answer
                },
                empty: editor.is_empty(),
                popup: self.popup.is_some(),
            },
            None => Focus::Main,
        }
    }

    /// Sends a message to the model and keeps the text editor in step with it.
    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        let cmds = update(&mut self.model, msg);
        self.sync_editor();
        cmds
    }

    /// A key press: the binding table decides what it means.
    pub fn handle_key(&mut self, event: KeyEvent) -> Vec<Cmd> {
        let Some(key) = KeyId::from_event(&event) else {
            return Vec::new();
        };
        let focus = self.focus();
        let resolution = match self.table.resolve(focus, &key) {
            // A popup with no suggestions (`no matching files`) only takes its close key; every
            // other key does what it does with the popup closed.
            Resolution::Popup(action)
                if action != PopupAction::Close
                    && self.popup.as_ref().is_some_and(|p| p.items.is_empty()) =>
            {
                self.table.resolve(focus.without_popup(), &key)
            }
            other => other,
        };
        match resolution {
            Resolution::Msg(msg) => self.update(msg),
            Resolution::EditorInput => {
                let changed = self.editor.as_mut().and_then(|(_, e)| e.input(event));
                let cmds = match changed {
                    Some(text) => self.update(Msg::EditorChanged(text)),
                    None => Vec::new(),
                };
                // Cursor moves matter too: the popup follows the token under the cursor.
                self.refresh_popup();
                cmds
            }
            Resolution::Popup(action) => self.popup_action(action),
            Resolution::Ignored => Vec::new(),
        }
    }

    /// Bracketed paste: goes into the open editor; otherwise ignored.
    pub fn handle_paste(&mut self, text: &str) -> Vec<Cmd> {
        match self.editor.as_mut() {
            Some((_, editor)) => {
                // A paste never opens the popup (as in pi); it ends any token being typed.
                let text = editor.paste(text);
                self.popup = None;
                self.update(Msg::EditorChanged(text))
            }
            None => Vec::new(),
        }
    }

    /// Follows the index while its walk streams in (called between frames).
    /// Returns whether anything visible changed.
    pub fn tick(&mut self) -> bool {
        let refresh = self
            .popup
            .as_ref()
            .is_some_and(|p| matches!(p.kind, PopupKind::At { .. }))
            && self
                .files
                .as_ref()
                .is_some_and(|f| f.len() != self.searched_len);
        if refresh {
            self.refresh_popup();
        }
        refresh
    }

    /// Opens, refreshes or closes the `@` popup for the text before the cursor.
    fn refresh_popup(&mut self) {
        let Some((_, editor)) = &self.editor else {
            self.popup = None;
            return;
        };
        let before = editor.text_before_cursor();
        let token = files::at_token(&before);
        match (&self.files, token) {
            (Some(index), Some(token))
                if self.popup_dismissed.as_deref() != Some(before.as_str()) =>
            {
                self.popup_dismissed = None;
                self.searched_len = index.len();
                let matches = self.searcher.search(index, &token.query, files::SHOWN);
                let selected = self
                    .popup
                    .as_ref()
                    .map_or(0, |p| p.selected)
                    .min(matches.items.len().saturating_sub(1));
                self.popup = Some(Popup {
                    items: matches.items,
                    total: matches.total,
                    selected,
                    replace_chars: token.len_chars,
                    kind: PopupKind::At {
                        quoted: token.quoted,
                    },
                });
            }
            _ => self.popup = None,
        }
    }

    /// Replaces `chars` characters before the cursor and tells the model.
    fn replace_before_cursor(&mut self, chars: usize, text: &str) -> Vec<Cmd> {
        let Some((_, editor)) = self.editor.as_mut() else {
            return Vec::new();
        };
        let all = editor.replace_before_cursor(chars, text);
        self.update(Msg::EditorChanged(all))
    }

    fn popup_action(&mut self, action: PopupAction) -> Vec<Cmd> {
        match (action, self.popup.take()) {
            (PopupAction::Next, Some(mut p)) => {
                p.selected = (p.selected + 1) % p.items.len().max(1);
                self.popup = Some(p);
                Vec::new()
            }
            (PopupAction::Previous, Some(mut p)) => {
                let n = p.items.len().max(1);
                p.selected = (p.selected + n - 1) % n;
                self.popup = Some(p);
                Vec::new()
            }
            (PopupAction::Close, Some(_)) => {
                self.popup_dismissed = self.editor.as_ref().map(|(_, e)| e.text_before_cursor());
                Vec::new()
            }
            (PopupAction::Accept | PopupAction::Complete, Some(p)) => {
                let Some(choice) = p.items.get(p.selected) else {
                    return Vec::new();
                };
                let text = match p.kind {
                    PopupKind::At { quoted } => files::insertion(choice, quoted),
                    PopupKind::Word { had_at, quoted } => {
                        files::word_insertion(choice, had_at, quoted)
                    }
                };
                let cmds = self.replace_before_cursor(p.replace_chars, &text);
                self.refresh_popup();
                cmds
            }
            (PopupAction::Complete, None) => self.complete_word(),
            (_, None) => Vec::new(),
        }
    }

    /// Tab with no popup: completes the path word before the cursor from its folder.
    fn complete_word(&mut self) -> Vec<Cmd> {
        let Some((_, editor)) = &self.editor else {
            return Vec::new();
        };
        let before = editor.text_before_cursor();
        let files::PathWord {
            len_chars: len,
            word,
            had_at,
            quoted,
        } = files::path_word(&before);
        let root = self
            .files
            .as_ref()
            .map_or_else(|| std::path::PathBuf::from("."), |f| f.root().to_path_buf());
        let mut candidates = files::complete_word(&root, &word);
        match candidates.len() {
            0 => Vec::new(),
            1 => {
                let only = candidates.remove(0);
                let cmds =
                    self.replace_before_cursor(len, &files::word_insertion(&only, had_at, quoted));
                self.refresh_popup();
                cmds
            }
            n => {
                candidates.truncate(files::SHOWN);
                self.popup = Some(Popup {
                    items: candidates,
                    total: n,
                    selected: 0,
                    replace_chars: len,
                    kind: PopupKind::Word { had_at, quoted },
                });
                Vec::new()
            }
        }
    }

    /// Opens, replaces or drops the text editor to match the model's open editor.
    fn sync_editor(&mut self) {
        if self.model.editor().is_none() {
            self.popup = None;
        }
        match self.model.editor() {
            None => self.editor = None,
            Some(e) if self.editor.as_ref().is_some_and(|(t, _)| *t == e.target) => {}
            Some(e) => {
                let editor =
                    Editor::new(&e.text, e.target.placeholder()).with_theme(self.look.theme);
                let editor = match e.target {
                    EditorTarget::Answer { .. } => editor.single_line(),
                    _ => editor,
                };
                self.editor = Some((e.target, editor));
            }
        }
    }
}
