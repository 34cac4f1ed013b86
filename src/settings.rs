//! The switches a person can flip while a flow is open: the five behaviour toggles and notifications.

use serde::{Deserialize, Serialize};

/// The `behaviour` section of the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Behaviour {
    pub auto_submit_when_answered_without_notes: bool,
    pub confirm_dismiss_when_dirty: bool,
    pub double_press_review_shortcuts: bool,
    pub show_footer_hints: bool,
    pub present_single_as_multi: bool,
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour {
            auto_submit_when_answered_without_notes: false,
            confirm_dismiss_when_dirty: true,
            double_press_review_shortcuts: true,
            show_footer_hints: true,
            present_single_as_multi: false,
        }
    }
}

/// The settings a flow reads and the settings modal toggles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Settings {
    pub behaviour: Behaviour,
    pub notifications_enabled: bool,
}

impl Settings {
    /// Defaults: notifications on, behaviour as [`Behaviour::default`].
    pub fn defaults() -> Settings {
        Settings {
            behaviour: Behaviour::default(),
            notifications_enabled: true,
        }
    }

    pub fn get(&self, setting: Setting) -> bool {
        let b = &self.behaviour;
        match setting {
            Setting::AutoSubmit => b.auto_submit_when_answered_without_notes,
            Setting::ConfirmDismissWhenDirty => b.confirm_dismiss_when_dirty,
            Setting::DoublePressReviewShortcuts => b.double_press_review_shortcuts,
            Setting::Notifications => self.notifications_enabled,
            Setting::ShowFooterHints => b.show_footer_hints,
            Setting::PresentSingleAsMulti => b.present_single_as_multi,
        }
    }

    pub fn set(&mut self, setting: Setting, value: bool) {
        let b = &mut self.behaviour;
        match setting {
            Setting::AutoSubmit => b.auto_submit_when_answered_without_notes = value,
            Setting::ConfirmDismissWhenDirty => b.confirm_dismiss_when_dirty = value,
            Setting::DoublePressReviewShortcuts => b.double_press_review_shortcuts = value,
            Setting::Notifications => self.notifications_enabled = value,
            Setting::ShowFooterHints => b.show_footer_hints = value,
            Setting::PresentSingleAsMulti => b.present_single_as_multi = value,
        }
    }
}

/// One on/off setting of the settings modal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    AutoSubmit,
    ConfirmDismissWhenDirty,
    DoublePressReviewShortcuts,
    Notifications,
    ShowFooterHints,
    PresentSingleAsMulti,
}

impl Setting {
    /// The settings that apply to an open flow at once, in modal order.
    pub const LIVE: [Setting; 5] = [
        Setting::AutoSubmit,
        Setting::ConfirmDismissWhenDirty,
        Setting::DoublePressReviewShortcuts,
        Setting::Notifications,
        Setting::ShowFooterHints,
    ];
    /// Every setting, in modal order (live ones first, then defaults for future asks).
    pub const ALL: [Setting; 6] = [
        Setting::AutoSubmit,
        Setting::ConfirmDismissWhenDirty,
        Setting::DoublePressReviewShortcuts,
        Setting::Notifications,
        Setting::ShowFooterHints,
        Setting::PresentSingleAsMulti,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Setting::AutoSubmit => "Auto-submit when answered without notes",
            Setting::ConfirmDismissWhenDirty => "Confirm dismiss when dirty",
            Setting::DoublePressReviewShortcuts => "Double-press review shortcuts",
            Setting::Notifications => "Notifications",
            Setting::ShowFooterHints => "Show footer hints",
            Setting::PresentSingleAsMulti => "Present single-select as multi-select",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Setting::AutoSubmit => {
                "Auto-submit completed ask flows when no question or option notes were added."
            }
            Setting::ConfirmDismissWhenDirty => {
                "Require a second cancel or dismiss action before discarding answered or drafted ask content."
            }
            Setting::DoublePressReviewShortcuts => {
                "Require pressing 1, 2, or 3 twice on the review tab before triggering Submit, Elaborate, or Cancel."
            }
            Setting::Notifications => {
                "Emit one external notification when the ask flow opens and waits for input."
            }
            Setting::ShowFooterHints => "Show footer keymap hints at the bottom of the ask flow.",
            Setting::PresentSingleAsMulti => {
                "Default new and replayed ask flows to render single-select questions as multi-select. This is not hot-applied to the current flow; use the type hotkey there."
            }
        }
    }

    /// Where the value lives in the config file: `(section, key)`.
    pub fn config_key(self) -> (&'static str, &'static str) {
        match self {
            Setting::AutoSubmit => ("behaviour", "autoSubmitWhenAnsweredWithoutNotes"),
            Setting::ConfirmDismissWhenDirty => ("behaviour", "confirmDismissWhenDirty"),
            Setting::DoublePressReviewShortcuts => ("behaviour", "doublePressReviewShortcuts"),
            Setting::Notifications => ("notifications", "enabled"),
            Setting::ShowFooterHints => ("behaviour", "showFooterHints"),
            Setting::PresentSingleAsMulti => ("behaviour", "presentSingleAsMulti"),
        }
    }
}

/// Description of the reset row in the settings modal.
pub const RESET_DESCRIPTION: &str = "Reset behaviour, keymaps, notifications, and extraction settings to defaults. Press twice quickly to confirm.";
/// How long the reset action stays armed after its first press.
pub const RESET_CONFIRM_WINDOW_MS: u64 = 2000;
