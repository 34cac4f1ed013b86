//! The settings modal's own state and update: a list of toggles plus a guarded reset action.
//!
//! Used inside a flow (the `?` key) and alone (`pi-ask settings`).

use super::msg::{Cmd, SettingsIntent};
use crate::settings::{Setting, Settings};

/// A row of the settings modal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsRow {
    /// A toggle.
    Toggle(Setting),
    /// The reset action.
    Reset,
}

impl SettingsRow {
    /// Every row in display order.
    pub fn all() -> impl Iterator<Item = SettingsRow> {
        Setting::ALL
            .into_iter()
            .map(SettingsRow::Toggle)
            .chain(std::iter::once(SettingsRow::Reset))
    }

    /// Rows of the modal.
    pub fn count() -> usize {
        Setting::ALL.len() + 1
    }

    /// The row at `index` (clamped).
    pub fn at(index: usize) -> SettingsRow {
        SettingsRow::all().nth(index).unwrap_or(SettingsRow::Reset)
    }
}

/// A message shown under the settings list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModalMessage {
    /// A save or reset failed; the value was reverted.
    Error(String),
    /// A config-load notice (cleared by the next successful save).
    Notice(String),
}

/// State of an open settings modal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsModalState {
    cursor: usize,
    reset_armed: bool,
    message: Option<ModalMessage>,
}

impl SettingsModalState {
    /// A modal on its first row, with no message.
    pub fn new() -> SettingsModalState {
        SettingsModalState::default()
    }

    /// Opens with a load notice already showing.
    pub fn with_notice(notice: Option<String>) -> SettingsModalState {
        SettingsModalState {
            message: notice.map(ModalMessage::Notice),
            ..SettingsModalState::default()
        }
    }

    /// The highlighted row's index.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The highlighted row.
    pub fn highlighted(&self) -> SettingsRow {
        SettingsRow::at(self.cursor)
    }

    /// Whether the reset action waits for its confirming second press.
    pub fn reset_armed(&self) -> bool {
        self.reset_armed
    }

    /// The message under the list, if any.
    pub fn message(&self) -> Option<&ModalMessage> {
        self.message.as_ref()
    }

    /// Applies one of the modal's own keys (next, previous, toggle; opening and closing are its
    /// owner's). Toggles are applied to `settings` at once (optimistically) and saved by the
    /// runtime.
    pub fn update(&mut self, settings: &mut Settings, intent: SettingsIntent) -> Vec<Cmd> {
        let rows = SettingsRow::count();
        match intent {
            SettingsIntent::Next => {
                self.cursor = (self.cursor + 1) % rows;
                self.reset_armed = false;
                vec![]
            }
            SettingsIntent::Previous => {
                self.cursor = (self.cursor + rows - 1) % rows;
                self.reset_armed = false;
                vec![]
            }
            SettingsIntent::Toggle => match self.highlighted() {
                SettingsRow::Toggle(setting) => {
                    let value = !settings.get(setting);
                    settings.set(setting, value);
                    self.message = None;
                    vec![Cmd::SaveSetting { setting, value }]
                }
                SettingsRow::Reset if self.reset_armed => {
                    self.reset_armed = false;
                    vec![Cmd::ResetConfig]
                }
                SettingsRow::Reset => {
                    self.reset_armed = true;
                    vec![Cmd::StartResetWindow]
                }
            },
            SettingsIntent::Open | SettingsIntent::Close => vec![],
        }
    }

    /// The reset confirmation window ran out: the next press arms it again.
    pub fn reset_window_expired(&mut self) {
        self.reset_armed = false;
    }

    /// A notice about the config (one that came after the modal opened) shows under the list.
    pub fn noticed(&mut self, notice: String) {
        self.message = Some(ModalMessage::Notice(notice));
    }

    /// A save or reset failed: the message under the list says why (the toggle's value is its
    /// owner's to revert).
    pub fn failed(&mut self, message: String) {
        self.message = Some(ModalMessage::Error(message));
    }
}
