//! The settings modal: its rows from the settings table, its notice and hints.

use pi_ask_components::{SettingsItem, SettingsModal, SettingsNotice};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::super::appearance::Look;
use super::super::hints::settings_footer;
use crate::model::{ModalMessage, SettingsModalState};
use crate::settings::{RESET_DESCRIPTION, Setting, Settings};
use crate::strings;

/// The settings modal's view from its state.
pub fn settings_view(
    modal: &SettingsModalState,
    settings: &Settings,
    path: &str,
    table: &crate::keymap::BindingTable,
    look: &Look,
) -> SettingsModal {
    let toggle = |s: Setting| SettingsItem::Toggle {
        label: s.label().to_owned(),
        on: settings.get(s),
        description: s.description().to_owned(),
    };
    let mut items = vec![SettingsItem::Section(strings::SECTION_LIVE.into())];
    items.extend(Setting::LIVE.into_iter().map(toggle));
    items.push(SettingsItem::Section(strings::SECTION_DEFAULTS.into()));
    items.push(toggle(Setting::PresentSingleAsMulti));
    items.push(SettingsItem::Section(strings::SECTION_APPEARANCE.into()));
    items.push(SettingsItem::Choice {
        label: strings::THEME_ROW.into(),
        value: look.configured.name().to_owned(),
        description: strings::THEME_DESCRIPTION.into(),
    });
    items.push(SettingsItem::Info {
        label: strings::THEME_IN_USE_ROW.into(),
        value: look.label.clone(),
    });
    items.push(SettingsItem::Section(strings::SECTION_ACTIONS.into()));
    items.push(SettingsItem::Reset {
        armed: modal.reset_armed(),
        description: RESET_DESCRIPTION.to_owned(),
    });
    SettingsModal {
        title: "pi-ask".into(),
        path: path.to_owned(),
        items,
        focus: modal.cursor(),
        notice: modal.message().map(|m| match m {
            ModalMessage::Error(e) => SettingsNotice::Error(e.clone()),
            ModalMessage::Notice(n) => SettingsNotice::Info(n.clone()),
        }),
        footer: settings_footer(table),
        theme: look.theme,
        ..SettingsModal::default()
    }
}

/// Draws the modal centred over `area`.
pub fn draw_modal(mut view: SettingsModal, area: Rect, buf: &mut Buffer) {
    pi_ask_components::realm::view_in(&mut view, area, buf);
}
