//! The interactive terminal UI: the flow's view and event handling ([`App`]), the effects of its
//! commands ([`Session`]), and the runtime that owns the terminal.

mod app;
pub mod appearance;
pub mod bytes;
mod hints;
pub(crate) mod inbox_screen;
#[cfg(feature = "cli")]
pub mod notify;
mod session;
mod settings_app;
pub mod view;

pub use crate::model::{Popup, PopupKind};
pub use app::App;
pub use appearance::{Appearance, ChosenTheme, ColorMode, Look, ThemeSource};
pub use hints::{flow_hints, settings_footer};
pub use inbox_screen::InboxScreen;
pub use session::{FlowJournal, Notifier, Outside, Screen, Session};
pub use settings_app::SettingsApp;

/// The built-in showcase form of `pi-ask demo`.
pub const DEMO_PAYLOAD: &str = include_str!("../../fixtures/payloads/showcase.json");
