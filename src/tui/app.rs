//! The interactive flow: the model, the binding table, and the view components that persist
//! between frames (scroll offsets, the text editor). Terminal-free, so tests drive it directly.

use std::sync::Arc;

use crossterm::event::KeyEvent;
use pi_ask_components::{Editor, OptionList, OptionRow};

use crate::form::{CUSTOM_ROW_LABEL, Form};
use crate::keymap::{BindingTable, EditorKind, Focus, Resolution};
use crate::keys::KeyId;
use crate::model::{Cmd, EditorTarget, Model, Msg, update};
use crate::settings::Settings;

/// A running ask flow with its view state.
pub struct App {
    pub(crate) model: Model,
    pub(crate) table: BindingTable,
    pub(crate) editor: Option<(EditorTarget, Editor)>,
    pub(crate) lists: Vec<OptionList>,
    pub(crate) config_path: String,
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
                    label: CUSTOM_ROW_LABEL.to_owned(),
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
        };
        if let Some(notice) = config_notice {
            app.update(Msg::ConfigNotice(notice));
        }
        app.sync_editor();
        app
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
                popup: false,
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
        match self.table.resolve(self.focus(), &key) {
            Resolution::Msg(msg) => self.update(msg),
            Resolution::EditorInput => match self.editor.as_mut().and_then(|(_, e)| e.input(event))
            {
                Some(text) => self.update(Msg::EditorChanged(text)),
                None => Vec::new(),
            },
            Resolution::Popup(_) | Resolution::Ignored => Vec::new(),
        }
    }

    /// Bracketed paste: goes into the open editor; otherwise ignored.
    pub fn handle_paste(&mut self, text: &str) -> Vec<Cmd> {
        match self.editor.as_mut() {
            Some((_, editor)) => {
                let text = editor.paste(text);
                self.update(Msg::EditorChanged(text))
            }
            None => Vec::new(),
        }
    }

    /// Opens, replaces or drops the text editor to match the model's open editor.
    fn sync_editor(&mut self) {
        match self.model.editor() {
            None => self.editor = None,
            Some(e) if self.editor.as_ref().is_some_and(|(t, _)| *t == e.target) => {}
            Some(e) => self.editor = Some((e.target, Editor::new(&e.text, e.target.placeholder()))),
        }
    }
}
