//! The switches a person can flip while a flow is open: the five behaviour toggles and notifications.

use serde::{Deserialize, Serialize};

/// The `behaviour` section of the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Behaviour {
    /// Submit at once when every question is answered and nothing has a note.
    pub auto_submit_when_answered_without_notes: bool,
    /// Ask before Ctrl+C dismisses a form with answers.
    pub confirm_dismiss_when_dirty: bool,
    /// The review's number shortcuts need a second press.
    pub double_press_review_shortcuts: bool,
    /// Show key hints in the footer.
    pub show_footer_hints: bool,
    /// Show single-choice questions as multi-choice.
    pub present_single_as_multi: bool,
}

impl Default for Behaviour {
    fn default() -> Self {
        let mut settings = Settings {
            behaviour: Behaviour {
                auto_submit_when_answered_without_notes: false,
                confirm_dismiss_when_dirty: false,
                double_press_review_shortcuts: false,
                show_footer_hints: false,
                present_single_as_multi: false,
            },
            notifications_enabled: false,
        };
        for setting in Setting::ALL {
            settings.set(setting, setting.spec().default);
        }
        settings.behaviour
    }
}

/// The settings a flow reads and the settings modal toggles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Settings {
    /// The `[behaviour]` toggles.
    pub behaviour: Behaviour,
    /// Send the "question waiting" notification.
    pub notifications_enabled: bool,
}

impl Settings {
    /// Every setting at its default.
    pub fn defaults() -> Settings {
        let mut settings = Settings::default();
        for setting in Setting::ALL {
            settings.set(setting, setting.spec().default);
        }
        settings
    }

    /// The value of `setting`.
    pub fn get(&self, setting: Setting) -> bool {
        let mut copy = *self;
        *(setting.spec().field)(&mut copy)
    }

    /// Sets `setting` to `value`.
    pub fn set(&mut self, setting: Setting, value: bool) {
        *(setting.spec().field)(self) = value;
    }
}

/// Everything the table says about one setting.
pub struct SettingSpec {
    /// Where the value lives in the config file.
    pub section: &'static str,
    /// Its key in that section.
    pub key: &'static str,
    /// Its value when the config says nothing.
    pub default: bool,
    /// The settings modal's label and description.
    pub label: &'static str,
    /// What it does, under the list when focused.
    pub description: &'static str,
    /// The comment above the key in the commented default config.
    pub comment: &'static str,
    /// What it does, for the settings table of docs/configuration.md.
    pub docs: &'static str,
    /// The value in [`Settings`].
    pub field: fn(&mut Settings) -> &mut bool,
}

macro_rules! settings {
    ($( $variant:ident => {
        $section:literal, $key:literal, $default:literal, |$s:ident| $field:expr,
        label $label:literal, $description:literal, comment $comment:literal, docs $docs:literal
    } ),* $(,)?) => {
        /// One on/off setting of the settings modal.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Setting { $(#[doc = $description] $variant),* }

        impl Setting {
            /// Every setting, in modal order (live ones first, then defaults for future asks).
            pub const ALL: [Setting; [$(Setting::$variant),*].len()] = [$(Setting::$variant),*];

            /// The setting's row of the table.
            pub fn spec(self) -> &'static SettingSpec {
                match self {
                    $(Setting::$variant => {
                        static SPEC: SettingSpec = SettingSpec {
                            section: $section,
                            key: $key,
                            default: $default,
                            label: $label,
                            description: $description,
                            comment: $comment,
                            docs: $docs,
                            field: |$s: &mut Settings| $field,
                        };
                        &SPEC
                    }),*
                }
            }
        }
    };
}

settings! {
    AutoSubmit => { "behaviour", "autoSubmitWhenAnsweredWithoutNotes", false,
        |s| &mut s.behaviour.auto_submit_when_answered_without_notes,
        label "Auto-submit when answered without notes",
        "Auto-submit completed ask flows when no question or option notes were added.",
        comment "Finish the form as soon as the review tab is reached with every question answered and no notes.",
        docs "finish with Submit as soon as the review tab is reached, by any route, with every question answered and no notes; turning it on while that is already the case finishes at once" },
    ConfirmDismissWhenDirty => { "behaviour", "confirmDismissWhenDirty", true,
        |s| &mut s.behaviour.confirm_dismiss_when_dirty,
        label "Confirm dismiss when dirty",
        "Require a second cancel or dismiss action before discarding answered or drafted ask content.",
        comment "Ask for a second cancel/dismiss before discarding entered answers or drafts.",
        docs "when something is entered or drafted, the first cancel/dismiss only warns; a second discards" },
    DoublePressReviewShortcuts => { "behaviour", "doublePressReviewShortcuts", true,
        |s| &mut s.behaviour.double_press_review_shortcuts,
        label "Double-press review shortcuts",
        "Require pressing 1, 2, or 3 twice on the review tab before triggering Submit, Elaborate, or Cancel.",
        comment "Review-tab shortcuts 1, 2 and 3 need the same key twice.",
        docs "review-tab `1`, `2`, `3` need the same key twice (no timeout); a hint shows what is pending" },
    Notifications => { "notifications", "enabled", true,
        |s| &mut s.notifications_enabled,
        label "Notifications",
        "Emit one external notification when the ask flow opens and waits for input.",
        comment "One notification when a form opens and waits for input.",
        docs "one notification when a form opens and waits for input" },
    ShowFooterHints => { "behaviour", "showFooterHints", true,
        |s| &mut s.behaviour.show_footer_hints,
        label "Show footer hints",
        "Show footer keymap hints at the bottom of the ask flow.",
        comment "Show key hints at the bottom of the form.",
        docs "key hints at the bottom of the form, generated from your keymaps" },
    PresentSingleAsMulti => { "behaviour", "presentSingleAsMulti", false,
        |s| &mut s.behaviour.present_single_as_multi,
        label "Present single-select as multi-select",
        "Default new and replayed ask flows to render single-select questions as multi-select. This is not hot-applied to the current flow; use the type hotkey there.",
        comment "New forms show single-select questions as multi-select (the result keeps the requested type).",
        docs "new forms show single-select questions as multi-select; the result keeps `type: \"single\"` and adds `presentedType: \"multi\"`; an open form is not changed (use the type key there)" },
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

    /// The settings modal's label.
    pub fn label(self) -> &'static str {
        self.spec().label
    }

    /// What the setting does.
    pub fn description(self) -> &'static str {
        self.spec().description
    }

    /// Where the value lives in the config file: `(section, key)`.
    pub fn config_key(self) -> (&'static str, &'static str) {
        (self.spec().section, self.spec().key)
    }

    /// The settings kept in one config section, in table order.
    pub fn in_section(section: &str) -> impl Iterator<Item = Setting> + '_ {
        Setting::ALL
            .into_iter()
            .filter(move |s| s.spec().section == section)
    }

    /// The settings table of docs/configuration.md (a test checks the committed copy).
    pub fn docs_table() -> String {
        let mut out = String::from("| setting | default | effect |\n|---|---|---|\n");
        for setting in Setting::ALL {
            let spec = setting.spec();
            out.push_str(&format!(
                "| `{}.{}` | `{}` | {} |\n",
                spec.section, spec.key, spec.default, spec.docs
            ));
        }
        out
    }
}

/// Description of the reset row in the settings modal.
pub use crate::strings::RESET_DESCRIPTION;
/// How long the reset action stays armed after its first press.
pub const RESET_CONFIRM_WINDOW_MS: u64 = 2000;
