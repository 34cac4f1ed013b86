//! Glue that makes each component a tui-realm [`Component`](tuirealm::component::Component):
//! it renders through its ratatui widget and turns tui-realm commands into its own messages.

/// Implements `tuirealm::component::Component` for a component with `render(&mut self, Rect, &mut Buffer)`,
/// `state_value() -> tuirealm::state::State` and `handle(Cmd) -> Option<Msg>` methods.
macro_rules! realm_component {
    ($ty:ty) => {
        impl tuirealm::component::Component for $ty {
            fn view(&mut self, frame: &mut ratatui::Frame, area: ratatui::layout::Rect) {
                self.render(area, frame.buffer_mut());
            }

            fn query<'a>(
                &'a self,
                _attr: tuirealm::props::Attribute,
            ) -> Option<tuirealm::props::QueryResult<'a>> {
                None
            }

            fn attr(
                &mut self,
                _attr: tuirealm::props::Attribute,
                _value: tuirealm::props::AttrValue,
            ) {
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
