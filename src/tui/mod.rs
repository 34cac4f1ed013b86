//! The screens and how they look: the flow's view and key handling ([`App`]), the settings alone
//! ([`SettingsApp`]), the inbox's list ([`InboxScreen`]), their hints and themes. The effects of
//! their commands are the engine's ([`crate::engine::Session`]).

mod app;
pub mod appearance;
pub mod bytes;
mod hints;
pub(crate) mod inbox_screen;
#[cfg(feature = "cli")]
pub mod notify;
mod settings_app;
pub mod view;

pub use crate::model::{Popup, PopupKind};
pub use app::App;
pub use appearance::{Appearance, ChosenTheme, ColorMode, Look, ThemeSource};
pub use hints::{flow_hints, settings_footer};
pub use inbox_screen::InboxScreen;
pub use settings_app::SettingsApp;

/// The built-in showcase form of `pi-ask demo`.
pub const DEMO_PAYLOAD: &str = include_str!("../../fixtures/payloads/showcase.json");
