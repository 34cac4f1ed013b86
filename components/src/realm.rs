//! Glue that makes each component a tui-realm [`Component`](tuirealm::component::Component):
//! it renders through its ratatui widget, keeps its attributes (focus first), and turns tui-realm
//! commands into its own messages.

use tuirealm::props::{AttrValue, Attribute};

/// The attributes a component was given. Focus is kept apart because drawing reads it every
/// frame; everything else is stored as tui-realm stores it and answered back by `query`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Props {
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

    pub fn set(&mut self, attr: Attribute, value: AttrValue) {
        if let (Attribute::Focus, AttrValue::Flag(focus)) = (attr, &value) {
            self.focus = *focus;
        }
        self.store.set(attr, value);
    }

    pub fn get(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Focus => Some(AttrValue::Flag(self.focus)),
            other => self.store.get(other).cloned(),
        }
    }
}

/// Implements `tuirealm::component::Component` for a component with `render(&mut self, Rect,
/// &mut Buffer)`, `state_value() -> State`, `handle(Cmd) -> Option<Msg>`, `set_attr(Attribute,
/// AttrValue)` and `get_attr(Attribute) -> Option<AttrValue>` methods.
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
                self.get_attr(attr).map(tuirealm::props::QueryResult::Owned)
            }

            fn attr(
                &mut self,
                attr: tuirealm::props::Attribute,
                value: tuirealm::props::AttrValue,
            ) {
                self.set_attr(attr, value);
            }

            fn state(&self) -> tuirealm::state::State {
                self.state_value()
            }

            fn perform(&mut self, cmd: tuirealm::command::Cmd) -> tuirealm::command::CmdResult {
                match self.handle(cmd) {
                    Some(_) => tuirealm::command::CmdResult::Changed(self.state_value()),
                    None => tuirealm::command::CmdResult::Invalid(cmd),
                }
            }
        }
    };
}

pub(crate) use realm_component;
