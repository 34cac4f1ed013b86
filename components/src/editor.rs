//! Editor: the inline answer and note editor. It draws a [`TextEdit`] on the selected-row
//! background with a muted placeholder when empty, wraps long lines, and places the caret.
//!
//! [`Editor`] is the component, holding a [`TextEdit`]. A host that keeps the text in its own
//! model (pi-ask keeps it in `Model`) hands it over each frame with [`Editor::show`], which copies
//! it only when it changed, and draws through `Component::view` like any tui-realm application;
//! [`draw`] and [`height`] are the stateless functions underneath.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use tuirealm::command::{Cmd, CmdResult, Direction, Position as CmdPosition};
use tuirealm::props::{AttrValue, Attribute};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, realm_component};
use crate::text_edit::{EditOp, TextEdit, display_width};
use crate::theme::Theme;

/// The attribute naming the text shown while the editor is empty.
pub use crate::realm::attr::PLACEHOLDER;

/// Most lines an editor grows to before it scrolls.
pub const MAX_EDITOR_LINES: u16 = 6;

/// Lines `edit` wants when drawn into an area `width` columns wide (at least one, at most
/// [`MAX_EDITOR_LINES`]), wrapped exactly as [`draw`] wraps it.
pub fn height(edit: &TextEdit, width: u16) -> u16 {
    let inner = width.saturating_sub(2).max(1);
    edit.row_count(inner, MAX_EDITOR_LINES as usize)
        .clamp(1, MAX_EDITOR_LINES as usize) as u16
}

/// Draws `edit` into `area` (a column of margin each side) and returns where the caret is.
/// Only the rows shown are laid out.
pub fn draw(
    edit: &TextEdit,
    placeholder: &str,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) -> Option<Position> {
    let area = area.intersection(buf.area);
    if area.width < 3 || area.height == 0 {
        return None;
    }
    buf.set_style(area, theme.selected());
    let inner = Rect::new(area.x + 1, area.y, area.width - 2, area.height);
    if edit.is_empty() {
        // The caret sits before the placeholder, as a block.
        buf.set_style(Rect::new(inner.x, inner.y, 1, 1), theme.caret());
        if inner.width > 1 {
            buf.set_stringn(
                inner.x + 1,
                inner.y,
                placeholder,
                (inner.width - 1) as usize,
                theme.on_selected(theme.muted()),
            );
        }
        return Some(Position::new(inner.x, inner.y));
    }
    let rows = edit.visible_rows(inner.width, inner.height as usize);
    for (n, &(start, end)) in rows.ranges.iter().enumerate() {
        draw_row(
            &edit.text()[start..end],
            inner.x,
            inner.y + n as u16,
            inner.width,
            theme,
            buf,
        );
    }
    let (row, column) = rows.caret;
    let x = inner.x + (column as u16).min(inner.width - 1);
    let y = inner.y + row as u16;
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_style(theme.caret());
    }
    Some(Position::new(x, y))
}

/// One row of text: tabs drawn as spaces to the next stop, cut at the edge.
fn draw_row(row: &str, x: u16, y: u16, width: u16, theme: &Theme, buf: &mut Buffer) {
    if !row.contains('\t') {
        let row = crate::text::printable(row);
        buf.set_stringn(x, y, row, width as usize, theme.selected());
        return;
    }
    let mut expanded = String::with_capacity(row.len() + 8);
    for c in row.chars() {
        if c == '\t' {
            let column = display_width(&expanded);
            expanded.extend(std::iter::repeat_n(
                ' ',
                crate::text_edit::TAB_WIDTH - column % crate::text_edit::TAB_WIDTH,
            ));
        } else {
            expanded.push(c);
        }
    }
    buf.set_stringn(
        x,
        y,
        crate::text::printable(&expanded),
        width as usize,
        theme.selected(),
    );
}

/// An inline text editor with its own text, for tui-realm applications.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Text` or `Value` | `String` | the text (the caret goes to its end; the same text again changes nothing) |
/// | `Custom(`[`attr::CARET`]`)` | `Length` | the caret, a byte offset (clamped to the text and to a character's start) |
/// | `Custom(`[`attr::PLACEHOLDER`]`)` | `String` | shown dimmed while the text is empty |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | focus places the terminal cursor at the caret |
///
/// **State:** `Single(String(text))`.
///
/// **Perform:** `Type(c)` → `Changed(state)`; `Delete` / `Cancel` (the character before / after
/// the caret) → `Changed(state)`, or `NoChange` when there was none; `Move(Left/Right/Up/Down)`
/// and `GoTo(Begin/End)` (of the line) → `Visual` when the caret moved, else `NoChange`;
/// `Submit` → `Submit(state)`; anything else → `Invalid`.
///
/// ```
/// use std::time::Duration;
/// use pi_ask_components::realm::{attr, payload, Mounted, ScriptedInput};
/// use tuirealm::application::{Application, PollStrategy};
/// use tuirealm::command::{Cmd, CmdResult, Direction, Position};
/// use tuirealm::event::{Event, Key, KeyEvent, NoUserEvent};
/// use tuirealm::listener::EventListenerCfg;
/// use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue};
/// use tuirealm::state::{State, StateValue};
/// # #[allow(unused_imports)] use tuirealm::props::*;
///
/// use pi_ask_components::Editor;
///
/// let keys = [Key::Char('o'), Key::Char('k'), Key::Left, Key::Backspace, Key::Enter];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Char(c), .. }) => Some(Cmd::Type(*c)),
///     Event::Keyboard(KeyEvent { code: Key::Left, .. }) => Some(Cmd::Move(Direction::Left)),
///     Event::Keyboard(KeyEvent { code: Key::Backspace, .. }) => Some(Cmd::Delete),
///     Event::Keyboard(KeyEvent { code: Key::Enter, .. }) => Some(Cmd::Submit),
///     _ => None,
/// };
/// app.mount("note", Box::new(Mounted::new(Editor::new("", ""), bindings)), vec![]).unwrap();
/// app.active(&"note").unwrap();
/// app.attr(&"note", Attribute::Custom(attr::PLACEHOLDER), AttrValue::String("Add a note".into()))
///     .unwrap();
/// let mut results = Vec::new();
/// for _ in 0..5 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let text = |t: &str| State::Single(StateValue::String(t.into()));
/// assert_eq!(results, vec![
///     CmdResult::Changed(text("o")),
///     CmdResult::Changed(text("ok")),
///     CmdResult::Visual,           // the caret moved, the text did not
///     CmdResult::Changed(text("k")),
///     CmdResult::Submit(text("k")),
/// ]);
/// assert_eq!(app.state(&"note").unwrap(), text("k"));
/// ```
#[derive(Debug, Clone)]
pub struct Editor {
    edit: TextEdit,
    placeholder: String,
    theme: Theme,
    props: Props,
    /// Where the hardware cursor belongs after the last render (for IME placement).
    cursor: Option<Position>,
}

impl Editor {
    /// An editor holding `text` with the caret at its end.
    pub fn new(text: &str, placeholder: &str) -> Editor {
        Editor {
            edit: TextEdit::new(text),
            placeholder: placeholder.to_owned(),
            theme: Theme::default(),
            props: Props::focused(),
            cursor: None,
        }
    }

    /// Draws with `theme` from now on.
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
    }

    /// Shows `edit` (text, caret, one line or many) from now on: a copy. A host whose own model
    /// owns the text can instead draw it with [`draw`] each frame, as pi-ask's form does.
    pub fn show(&mut self, edit: &TextEdit) {
        self.edit.clone_from(edit);
    }

    /// Shows `placeholder` while the text is empty (kept, not copied again, when unchanged).
    pub fn set_placeholder(&mut self, placeholder: &str) {
        if self.placeholder != placeholder {
            placeholder.clone_into(&mut self.placeholder);
        }
    }

    /// [`Editor::set_theme`] as a builder.
    pub fn with_theme(mut self, theme: Theme) -> Editor {
        self.set_theme(theme);
        self
    }

    /// A one-line editor (free-form answers): pasted line breaks become spaces, Up/Down go to the
    /// start/end of the line, and nothing inserts a newline.
    pub fn single_line(mut self) -> Editor {
        self.edit = self.edit.single_line();
        self
    }

    /// The whole text, lines joined with `\n`.
    pub fn text(&self) -> &str {
        self.edit.text()
    }

    /// Whether the text is empty (the placeholder shows).
    pub fn is_empty(&self) -> bool {
        self.edit.is_empty()
    }

    /// The text and caret.
    pub fn edit(&self) -> &TextEdit {
        &self.edit
    }

    /// Performs one editing operation; returns whether the text changed.
    pub fn apply(&mut self, op: EditOp) -> bool {
        self.edit.apply(op)
    }

    /// Lines the editor wants when drawn `width` columns wide.
    pub fn height(&self, width: u16) -> u16 {
        height(&self.edit, width)
    }

    /// Where the caret is on screen after the last render (`None` when not focused).
    pub fn cursor_position(&self) -> Option<Position> {
        self.cursor
    }

    /// Draws the editor into `area` and, when focused, keeps where the caret landed.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let caret = draw(&self.edit, &self.placeholder, &self.theme, area, buf);
        self.cursor = caret.filter(|_| self.props.focus);
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::String(self.edit.text().to_owned()))
    }

    fn caret(&self) -> Option<Position> {
        self.cursor
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Text | Attribute::Value, AttrValue::String(text))
                if text != self.edit.text() =>
            {
                self.edit = if self.edit.is_single_line() {
                    TextEdit::new(text).single_line()
                } else {
                    TextEdit::new(text)
                };
            }
            (Attribute::Custom(attr::PLACEHOLDER), AttrValue::String(text)) => {
                self.set_placeholder(text)
            }
            (Attribute::Custom(attr::CARET), AttrValue::Length(at)) => self.edit.set_cursor(*at),
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Text | Attribute::Value => {
                Some(AttrValue::String(self.edit.text().to_owned()))
            }
            Attribute::Custom(attr::PLACEHOLDER) => {
                Some(AttrValue::String(self.placeholder.clone()))
            }
            Attribute::Custom(attr::CARET) => Some(AttrValue::Length(self.edit.cursor())),
            other => self.props.get(other),
        }
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let op = match cmd {
            Cmd::Type(c) => EditOp::Insert(c.to_string()),
            Cmd::Delete => EditOp::DeleteCharBackward,
            Cmd::Cancel => EditOp::DeleteCharForward,
            Cmd::Move(Direction::Left) => EditOp::CursorLeft,
            Cmd::Move(Direction::Right) => EditOp::CursorRight,
            Cmd::Move(Direction::Up) => EditOp::CursorUp,
            Cmd::Move(Direction::Down) => EditOp::CursorDown,
            Cmd::GoTo(CmdPosition::Begin) => EditOp::CursorLineStart,
            Cmd::GoTo(CmdPosition::End) => EditOp::CursorLineEnd,
            Cmd::Submit => return CmdResult::Submit(self.state_value()),
            other => return CmdResult::Invalid(other),
        };
        let before = self.edit.cursor();
        if self.edit.apply(op) {
            CmdResult::Changed(self.state_value())
        } else if self.edit.cursor() != before {
            CmdResult::Visual
        } else {
            CmdResult::NoChange
        }
    }
}

realm_component!(Editor);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_counts_wrapped_lines_as_drawn() {
        let e = Editor::new("a note that is long enough to wrap past the edge", "");
        assert_eq!(e.height(22), 3);
        assert_eq!(e.height(100), 1);
        let mut e = e;
        let area = Rect::new(0, 0, 22, 1);
        e.render(area, &mut Buffer::empty(area));
        assert_eq!(e.height(22), 3);
    }

    #[test]
    fn shown_text_keeps_its_caret_and_draws_as_the_stateless_draw() {
        let mut model_text = TextEdit::new("héllo world");
        model_text.apply(EditOp::CursorLineStart);
        model_text.apply(EditOp::CursorRight);
        model_text.apply(EditOp::CursorRight);
        let mut e = Editor::new("", "");
        e.show(&model_text);
        assert_eq!(e.edit(), &model_text, "text and caret as the host has them");
        let area = Rect::new(0, 0, 20, 2);
        let mut through_component = Buffer::empty(area);
        e.render(area, &mut through_component);
        let mut stateless = Buffer::empty(area);
        let caret = draw(&model_text, "", &Theme::default(), area, &mut stateless);
        assert_eq!(through_component, stateless);
        assert_eq!(e.cursor_position(), caret);
    }

    #[test]
    fn the_caret_attribute_lands_on_a_characters_start() {
        let mut e = Editor::new("héllo", "");
        e.set_attr(Attribute::Custom(attr::CARET), AttrValue::Length(2));
        // Byte 2 is inside `é` (bytes 1..3): the caret goes back to its start.
        assert_eq!(e.edit().cursor(), 1);
        e.set_attr(Attribute::Custom(attr::CARET), AttrValue::Length(99));
        assert_eq!(
            e.get_attr(Attribute::Custom(attr::CARET)),
            Some(AttrValue::Length("héllo".len()))
        );
    }
}
