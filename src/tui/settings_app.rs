//! `pi-ask settings`: the settings modal on its own.

use super::appearance::{ChosenTheme, Look};

use crate::keymap::{BindingTable, Focus, Resolution};
use crate::keys::KeyId;
use crate::model::{Cmd, Msg, SettingsModalState, update_settings};
use crate::settings::Settings;

/// The settings modal without a flow behind it.
pub struct SettingsApp {
    pub(crate) modal: SettingsModalState,
    pub(crate) settings: Settings,
    pub(crate) table: BindingTable,
    pub(crate) config_path: String,
    pub(crate) closed: bool,
    pub(crate) look: Look,
}

impl SettingsApp {
    /// The settings alone, on `settings`, with `table`'s keys.
    pub fn new(
        settings: Settings,
        table: BindingTable,
        config_path: String,
        notice: Option<String>,
    ) -> SettingsApp {
        SettingsApp {
            modal: SettingsModalState::with_notice(notice),
            settings,
            table,
            config_path,
            closed: false,
            look: Look::default(),
        }
    }

    /// Draws with this theme from now on.
    pub fn set_theme(&mut self, chosen: &ChosenTheme) {
        self.look = Look::from(chosen);
    }

    /// The person closed it.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Sends a message to the modal: the same rule as the modal over a form
    /// (`model::settings_modal::update_settings`), with no footer (its notices show in the modal).
    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        let mut modal = (!self.closed).then(|| self.modal.clone());
        let cmds = update_settings(&mut modal, &mut self.settings, None, msg).unwrap_or_default();
        match modal {
            Some(modal) => self.modal = modal,
            None => self.closed = true,
        }
        cmds
    }

    /// A key press: the binding table's settings context decides what it means.
    pub fn handle_key(&mut self, key: &KeyId) -> Vec<Cmd> {
        match self.table.resolve(Focus::SettingsModal, key) {
            Resolution::Msg(msg) => self.update(msg),
            _ => Vec::new(),
        }
    }
}
