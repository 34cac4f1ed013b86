//! The components' tui-realm side: what every component shares (focus, the theme), the names of
//! the custom attributes they read, typed payloads, and two helpers for hosts: [`Mounted`], which
//! mounts any component in an [`Application`](tuirealm::application::Application) with the host's
//! own keys, and [`ScriptedInput`], a port that feeds an application a fixed list of events (for
//! tests and demos).
//!
//! # The contract every component keeps
//!
//! - **Attributes** set content and never reset what the person did: setting a component's rows,
//!   entries or text keeps its cursor, scroll and highlight (clamped to the new content).
//!   Every component reads [`Attribute::Focus`] (a [`AttrValue::Flag`]) and
//!   `Attribute::Custom(`[`attr::THEME`]`)` (a [`Theme`](crate::Theme) as a [`payload`]); each component's own
//!   documentation lists the rest. Every attribute set is answered back by `query`.
//! - **`state()`** is what a parent needs to act on, listed per component.
//! - **`perform`** says what happened: [`CmdResult::Changed`] with the new state when the state
//!   moved, [`CmdResult::Visual`] when only the drawing did (an editor's caret),
//!   [`CmdResult::Submit`] when the person chose something, [`CmdResult::NoChange`] when the
//!   command had nothing to do (Down on the last row), and [`CmdResult::Invalid`] for a command
//!   the component does not take.
//!
//! No component knows a key: turning keys into commands is the host's binding table's job
//! ([`Mounted`] takes it as a function).

use std::collections::VecDeque;

use tuirealm::command::{Cmd, CmdResult};
use tuirealm::component::{AppComponent, Component};
use tuirealm::event::Event;
use tuirealm::listener::{Poll, PortResult};
use tuirealm::props::{AttrValue, Attribute, PropBound, PropPayload, QueryResult};
use tuirealm::ratatui::Frame;
use tuirealm::ratatui::layout::Rect;
use tuirealm::state::State;

/// Names of the components' custom attributes (`Attribute::Custom(name)`).
pub mod attr {
    /// The [`Theme`](crate::Theme) a component draws with, as a [`payload`](super::payload). Every
    /// component reads it.
    pub const THEME: &str = "theme";
    /// The option list's [`OptionListState`](crate::OptionListState) (checkboxes, chosen rows,
    /// saved texts, notes, the editor slot), as a [`payload`](super::payload).
    pub const STATE: &str = "state";
    /// The option list's filtered view, a [`Subset`](crate::Subset) as a
    /// [`payload`](super::payload), or [`PropPayload::None`](tuirealm::props::PropPayload::None)
    /// for every row.
    pub const SUBSET: &str = "subset";
    /// The editor's placeholder: the text shown while it is empty (a string).
    pub const PLACEHOLDER: &str = "placeholder";
    /// The editor's caret, a byte offset into its text (`AttrValue::Length`; clamped to the
    /// text and to a character's start).
    pub const CARET: &str = "caret";
    /// The name of the option a preview pane shows (a string; `Attribute::Title` also sets it).
    pub const LABEL: &str = "label";
    /// The previewed option's description (a string).
    pub const DESCRIPTION: &str = "description";
    /// Whether a preview pane shows its text as written, Markdown not rendered (a flag).
    pub const RAW: &str = "raw";
    /// The review tab's three action labels (a `Vec` of three strings: submit, elaborate, cancel).
    pub const ACTIONS: &str = "actions";
    /// The tab bar's label for the review tab (a string).
    pub const REVIEW_LABEL: &str = "reviewLabel";
    /// The settings modal's message under the list, a
    /// [`SettingsNotice`](crate::SettingsNotice) as a [`payload`](super::payload), or
    /// [`PropPayload::None`](tuirealm::props::PropPayload::None) for none.
    pub const NOTICE: &str = "notice";
    /// The settings modal's key hints under the box (a string).
    pub const FOOTER: &str = "footer";
}

/// A typed value as an attribute: `AttrValue::Payload(PropPayload::Any(..))`. The components
/// read their rich content this way (rows with descriptions, review entries, the theme).
pub fn payload<T: PropBound>(value: T) -> AttrValue {
    AttrValue::Payload(PropPayload::Any(value.to_any_prop()))
}

/// The typed value inside an attribute set with [`payload`], if it holds a `T`.
pub fn payload_ref<T: 'static>(value: &AttrValue) -> Option<&T> {
    match value {
        AttrValue::Payload(PropPayload::Any(any)) => any.as_any().downcast_ref::<T>(),
        _ => None,
    }
}

/// The attributes a component was given. Focus is kept apart because drawing reads it every
/// frame; everything else is stored as tui-realm stores it and answered back by `query`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Props {
    /// Whether the component has focus (draws its caret, for example).
    pub focus: bool,
    store: tuirealm::props::Props,
}

impl Props {
    /// Props of a focused component (a component drawn alone has focus).
    pub fn focused() -> Props {
        Props {
            focus: true,
            store: tuirealm::props::Props::default(),
        }
    }

    /// Keeps an attribute (focus is also read into [`Props::focus`]).
    pub fn set(&mut self, attr: Attribute, value: AttrValue) {
        if let (Attribute::Focus, AttrValue::Flag(focus)) = (attr, &value) {
            self.focus = *focus;
        }
        self.store.set(attr, value);
    }

    /// An attribute as it was set (focus as its current value).
    pub fn get(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Focus => Some(AttrValue::Flag(self.focus)),
            other => self.store.get(other).cloned(),
        }
    }
}

/// The result of a command that moved a component's state from `before`: `Changed` with the new
/// state, or `NoChange` when it did not move.
pub(crate) fn moved(before: State, after: State) -> CmdResult {
    if before == after {
        CmdResult::NoChange
    } else {
        CmdResult::Changed(after)
    }
}

/// Implements `tuirealm::component::Component` for a component with `render(&mut self, Rect,
/// &mut Buffer)`, `caret() -> Option<Position>`, `state_value() -> State`,
/// `perform_cmd(Cmd) -> CmdResult`, `set_attr(Attribute, AttrValue)` and
/// `get_attr(Attribute) -> Option<AttrValue>` methods and a `theme: Theme` field (the theme
/// attribute is handled here, alike for all).
macro_rules! realm_component {
    ($ty:ty) => {
        impl tuirealm::component::Component for $ty {
            fn view(&mut self, frame: &mut ratatui::Frame, area: ratatui::layout::Rect) {
                self.render(area, frame.buffer_mut());
                if let Some(caret) = self.caret() {
                    frame.set_cursor_position(caret);
                }
            }

            fn query<'a>(
                &'a self,
                attr: tuirealm::props::Attribute,
            ) -> Option<tuirealm::props::QueryResult<'a>> {
                match attr {
                    tuirealm::props::Attribute::Custom($crate::realm::attr::THEME) => Some(
                        tuirealm::props::QueryResult::Owned($crate::realm::payload(self.theme)),
                    ),
                    other => self
                        .get_attr(other)
                        .map(tuirealm::props::QueryResult::Owned),
                }
            }

            fn attr(
                &mut self,
                attr: tuirealm::props::Attribute,
                value: tuirealm::props::AttrValue,
            ) {
                match attr {
                    tuirealm::props::Attribute::Custom($crate::realm::attr::THEME) => {
                        if let Some(theme) = $crate::realm::payload_ref::<$crate::Theme>(&value) {
                            self.theme = *theme;
                        }
                    }
                    other => self.set_attr(other, value),
                }
            }

            fn state(&self) -> tuirealm::state::State {
                self.state_value()
            }

            fn perform(&mut self, cmd: tuirealm::command::Cmd) -> tuirealm::command::CmdResult {
                self.perform_cmd(cmd)
            }
        }
    };
}

pub(crate) use realm_component;

/// Draws `component` into `buf` through tui-realm's [`Component::view`], the call an
/// [`Application`](tuirealm::application::Application) makes for a mounted component, so a
/// program that draws into a plain buffer (a test, a protocol that sends frames, pi-ask itself)
/// runs exactly what a tui-realm host runs. `view` draws into a ratatui [`Frame`], which only a
/// `Terminal` makes: a one-cell terminal with no screen lends its frame over `buf` (the buffer is
/// swapped in and back, not copied; the caret `view` places on that frame is dropped, the caller
/// places its own).
///
/// ```
/// use pi_ask_components::realm::view_in;
/// use pi_ask_components::{TabBar, TabItem};
/// use ratatui::buffer::Buffer;
/// use ratatui::layout::Rect;
///
/// let item = |label: &str| TabItem { label: label.into(), answered: false, required: false };
/// let mut tabs = TabBar::new(vec![item("Database"), item("Cache")], 0);
/// let area = Rect::new(0, 0, 40, 1);
/// let mut buf = Buffer::empty(area);
/// view_in(&mut tabs, area, &mut buf);
/// let row: String = (0..40).map(|x| buf[(x, 0)].symbol()).collect();
/// assert!(row.contains("Database"), "{row}");
/// ```
pub fn view_in<C: Component + ?Sized>(
    component: &mut C,
    area: Rect,
    buf: &mut ratatui::buffer::Buffer,
) {
    use tuirealm::ratatui::backend::TestBackend;
    use tuirealm::ratatui::{Terminal, TerminalOptions, Viewport};
    let Ok(mut terminal) = Terminal::with_options(
        TestBackend::new(1, 1),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, 1, 1)),
        },
    );
    std::mem::swap(terminal.current_buffer_mut(), buf);
    component.view(&mut terminal.get_frame(), area);
    std::mem::swap(terminal.current_buffer_mut(), buf);
}

/// The host's bindings: the command an event means, if any.
type Bindings<UserEvent> = Box<dyn FnMut(&Event<UserEvent>) -> Option<Cmd>>;

/// What tui-realm asks of an application's own event type (`NoUserEvent` when it has none).
pub trait HostEvent: Eq + PartialEq + Clone + Send + 'static {}

impl<T: Eq + PartialEq + Clone + Send + 'static> HostEvent for T {}

/// Any component mounted in a tui-realm [`Application`](tuirealm::application::Application):
/// keyboard (and any other) events become commands through the host's `keys` function, each
/// command is performed, and its [`CmdResult`] is the application's message. The component is
/// reached through `Application::attr`, `query` and `state` as usual.
///
/// ```
/// use std::time::Duration;
/// use pi_ask_components::realm::{Mounted, ScriptedInput};
/// use pi_ask_components::Footer;
/// use tuirealm::application::{Application, PollStrategy};
/// use tuirealm::command::{Cmd, CmdResult};
/// use tuirealm::event::{Event, Key, KeyEvent, NoUserEvent};
/// use tuirealm::listener::EventListenerCfg;
///
/// let events = vec![Event::Keyboard(KeyEvent::from(Key::Enter))];
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(ScriptedInput::new(events)), Duration::ZERO, 1),
/// );
/// let keys = |_: &Event<NoUserEvent>| Some(Cmd::Submit);
/// app.mount("footer", Box::new(Mounted::new(Footer::default(), keys)), vec![]).unwrap();
/// app.active(&"footer").unwrap();
/// // The footer takes no commands: it says so.
/// let results = app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap();
/// assert_eq!(results, vec![CmdResult::Invalid(Cmd::Submit)]);
/// ```
pub struct Mounted<C, UserEvent = tuirealm::event::NoUserEvent>
where
    UserEvent: HostEvent,
{
    /// The component.
    pub component: C,
    keys: Bindings<UserEvent>,
}

impl<C, UserEvent: HostEvent> Mounted<C, UserEvent> {
    /// `component`, driven by `keys`: the command an event means, or `None` for events it
    /// ignores.
    pub fn new(
        component: C,
        keys: impl FnMut(&Event<UserEvent>) -> Option<Cmd> + 'static,
    ) -> Mounted<C, UserEvent> {
        Mounted {
            component,
            keys: Box::new(keys),
        }
    }
}

impl<C: Component, UserEvent: HostEvent> Component for Mounted<C, UserEvent> {
    fn view(&mut self, frame: &mut Frame, area: Rect) {
        self.component.view(frame, area);
    }

    fn query<'a>(&'a self, attr: Attribute) -> Option<QueryResult<'a>> {
        self.component.query(attr)
    }

    fn attr(&mut self, attr: Attribute, value: AttrValue) {
        self.component.attr(attr, value);
    }

    fn state(&self) -> State {
        self.component.state()
    }

    fn perform(&mut self, cmd: Cmd) -> CmdResult {
        self.component.perform(cmd)
    }
}

impl<C, UserEvent> AppComponent<CmdResult, UserEvent> for Mounted<C, UserEvent>
where
    C: Component + 'static,
    UserEvent: HostEvent,
{
    fn on(&mut self, event: &Event<UserEvent>) -> Option<CmdResult> {
        let cmd = (self.keys)(event)?;
        Some(self.component.perform(cmd))
    }
}

/// A tui-realm input port that hands out a fixed list of events, one per poll, then nothing: a
/// script for tests and demos of an application built from these components.
#[derive(Debug, Clone)]
pub struct ScriptedInput<UserEvent: HostEvent> {
    events: VecDeque<Event<UserEvent>>,
}

impl<UserEvent: HostEvent> ScriptedInput<UserEvent> {
    /// A port that will hand out `events` in order.
    pub fn new(events: impl IntoIterator<Item = Event<UserEvent>>) -> ScriptedInput<UserEvent> {
        ScriptedInput {
            events: events.into_iter().collect(),
        }
    }
}

impl<UserEvent: HostEvent> Poll<UserEvent> for ScriptedInput<UserEvent> {
    fn poll(&mut self) -> PortResult<Option<Event<UserEvent>>> {
        Ok(self.events.pop_front())
    }
}
