//! `pi-ask settings`: the settings modal on its own.

use super::appearance::{ChosenTheme, Look};

use crate::keymap::{BindingTable, Focus, Resolution};
use crate::keys::KeyId;
use crate::model::{Cmd, Msg, SettingsModalState, update_settings};
use crate::settings::Settings;

/// The settings modal without a flow behind it.
pub struct SettingsApp {
    /// The modal; `None` once the person closed it.
    pub(crate) modal: Option<SettingsModalState>,
    pub(crate) settings: Settings,
    pub(crate) table: BindingTable,
    pub(crate) config_path: String,
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
            modal: Some(SettingsModalState::with_notice(notice)),
            settings,
            table,
            config_path,
            look: Look::default(),
        }
    }

    /// Draws with this theme from now on.
    pub fn set_theme(&mut self, chosen: &ChosenTheme) {
        self.look = Look::from(chosen);
    }

    /// The person closed it.
    pub fn is_closed(&self) -> bool {
        self.modal.is_none()
    }

    /// Sends a message to the modal: the same rule as the modal over a form
    /// (`model::settings_modal::update_settings`), with no footer (its notices show in the modal).
    pub fn update(&mut self, msg: Msg) -> Vec<Cmd> {
        if self.modal.is_none() {
            return Vec::new();
        }
        update_settings(&mut self.modal, &mut self.settings, None, msg).unwrap_or_default()
    }

    /// A key press: the binding table's settings context decides what it means.
    pub fn handle_key(&mut self, key: &KeyId) -> Vec<Cmd> {
        match self.table.resolve(Focus::SettingsModal, key) {
            Resolution::Msg(msg) => self.update(msg),
            _ => Vec::new(),
        }
    }

    /// Draws the modal over `area`; closed, it draws nothing (the session is over).
    pub fn render(&self, area: ratatui::layout::Rect, buf: &mut ratatui::buffer::Buffer) {
        if let Some(modal) = &self.modal {
            let v = super::view::settings_view(
                modal,
                &self.settings,
                &self.config_path,
                &self.table,
                &self.look,
            );
            super::view::draw_modal(v, area, buf);
        }
    }
}
