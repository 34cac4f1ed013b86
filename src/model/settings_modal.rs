//! The settings modal's own state and update: a list of toggles plus a guarded reset action.
//!
//! Used inside a flow (the `?` key) and alone (`pi-ask settings`).

use super::msg::{Cmd, Msg, Report, SettingsIntent};
use crate::settings::{Setting, Settings};

/// A row of the settings modal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsRow {
    /// A toggle.
    Toggle(Setting),
    /// The theme: each press saves the next of auto, dark and light.
    Theme,
    /// The reset action.
    Reset,
}

impl SettingsRow {
    /// Every row in display order.
    pub fn all() -> impl Iterator<Item = SettingsRow> {
        Setting::ALL
            .into_iter()
            .map(SettingsRow::Toggle)
            .chain([SettingsRow::Theme, SettingsRow::Reset])
    }

    /// Rows of the modal.
    pub fn count() -> usize {
        Setting::ALL.len() + 2
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
                SettingsRow::Theme => {
                    self.message = None;
                    vec![Cmd::CycleTheme]
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

/// The settings' own messages, one rule for the modal over a form and the modal alone
/// (`pi-ask settings`): its keys, opening and closing it, and what the config store reports back
/// (the settings as saved, a save or reset that failed, a notice, the reset window's end).
/// `footer`: where a notice shows while no modal does (a form's footer; the modal alone has
/// none, so its notices go to the modal). `Err` gives back a message that is not the settings'.
pub(crate) fn update_settings(
    modal: &mut Option<SettingsModalState>,
    settings: &mut Settings,
    mut footer: Option<&mut Option<String>>,
    msg: Msg,
) -> Result<Vec<Cmd>, Msg> {
    let cmds = match msg {
        Msg::Settings(SettingsIntent::Open) => {
            if modal.is_none() {
                let notice = footer.as_deref().cloned().flatten();
                *modal = Some(SettingsModalState::with_notice(notice));
            }
            Vec::new()
        }
        Msg::Settings(SettingsIntent::Close) => {
            *modal = None;
            Vec::new()
        }
        Msg::Settings(intent) => match modal.as_mut() {
            Some(modal) => modal.update(settings, intent),
            None => Vec::new(),
        },
        Msg::Report(Report::SettingsChanged(saved)) => {
            // presentSingleAsMulti only shapes new flows; an open flow's types stay as they are.
            *settings = saved;
            if let Some(footer) = footer {
                *footer = None;
            }
            Vec::new()
        }
        Msg::Report(Report::ConfigNotice(notice)) => {
            // Under the list while the modal is open (it covers the footer), else the footer.
            match (footer, modal.as_mut()) {
                (_, Some(modal)) => modal.noticed(notice),
                (Some(footer), None) => *footer = Some(notice),
                (None, None) => {}
            }
            Vec::new()
        }
        Msg::Report(Report::ResetWindowExpired) => {
            if let Some(modal) = modal.as_mut() {
                modal.reset_window_expired();
            }
            Vec::new()
        }
        Msg::Report(Report::SettingSaveFailed {
            setting,
            value,
            message,
        }) => {
            settings.set(setting, !value);
            failed(modal, footer.take(), message);
            Vec::new()
        }
        Msg::Report(Report::ResetFailed { message } | Report::ThemeSaveFailed { message }) => {
            failed(modal, footer.take(), message);
            Vec::new()
        }
        other => return Err(other),
    };
    Ok(cmds)
}

/// A save or reset failed: the modal says why, or the footer does once the modal has closed.
fn failed(
    modal: &mut Option<SettingsModalState>,
    footer: Option<&mut Option<String>>,
    message: String,
) {
    match (modal.as_mut(), footer) {
        (Some(modal), _) => modal.failed(message),
        (None, Some(footer)) => *footer = Some(message),
        (None, None) => {}
    }
}
