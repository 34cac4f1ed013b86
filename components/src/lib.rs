//! Reusable terminal components of pi-ask, for ratatui and tui-realm programs.
//!
//! Each component is a plain struct: set its fields (its props), call `render(area, buf)` to draw
//! it into a ratatui [`Buffer`](ratatui::buffer::Buffer), and, in a tui-realm application, mount it
//! as a [`tuirealm::component::Component`]: `perform` takes tui-realm commands and answers each
//! with a [`CmdResult`](tuirealm::command::CmdResult) (what changed, or `Invalid` for a command it
//! does not take), and [`realm::Mounted`] makes one an application component whose messages are
//! those results. No component knows a key: turning keys into commands is the host's binding
//! table's job (`Mounted::new(component, keys)`).
//!
//! - [`TabBar`]: question tabs with answered markers and the review tab, scrolling when they overflow.
//! - [`OptionList`]: numbered options, cursor, checkboxes, descriptions, `(recommended)`, notes, an editor slot.
//! - [`PreviewPane`]: a bordered, scrollable preview box.
//! - [`Editor`]: the inline answer/note editor, drawing a [`TextEdit`] (text, caret, editing operations, cached wrapping).
//! - [`ReviewTab`]: answers and notes per question with Submit / Elaborate / Cancel.
//! - [`SettingsModal`]: the settings list with the config path and a guarded reset.
//! - [`Footer`]: a notice, key hints and the bottom rule.

#![warn(missing_docs)]

pub mod editor;
pub mod footer;
pub mod markdown;
pub mod option_list;
pub mod preview_pane;
pub mod realm;
pub mod review_tab;
pub mod settings_modal;
pub mod strings;
pub mod styled;
pub mod tab_bar;
pub mod text;
pub mod text_edit;
pub mod theme;

pub use editor::Editor;
pub use footer::Footer;
pub use option_list::{OptionList, OptionListState, OptionRow, Subset};
pub use preview_pane::PreviewPane;
pub use realm::{Mounted, Props, ScriptedInput};
pub use review_tab::{ReviewEntry, ReviewLine, ReviewTab};
pub use settings_modal::{SettingsItem, SettingsModal, SettingsNotice};
pub use tab_bar::{TabBar, TabItem};
pub use text_edit::{EditOp, TextEdit};
pub use theme::Theme;
