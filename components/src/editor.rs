//! Editor: the inline answer and note editor. It draws a [`TextEdit`] on the selected-row
//! background with a muted placeholder when empty, wraps long lines, and places the caret.
//!
//! [`draw`] and [`height`] are stateless, so a host that keeps the text in its own model (pi-ask
//! keeps it in `Model`) draws it without a copy; [`Editor`] holds its own [`TextEdit`] for
//! tui-realm applications.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use tuirealm::command::{Cmd, Direction, Position as CmdPosition};
use tuirealm::props::{AttrValue, Attribute};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, realm_component};
use crate::text_edit::{EditOp, TextEdit, display_width};
use crate::theme::Theme;

/// The attribute naming the text shown while the editor is empty.
pub const PLACEHOLDER: &str = "placeholder";

/// Most lines an editor grows to before it scrolls.
pub const MAX_EDITOR_LINES: u16 = 6;

/// What the editor reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditorMsg {
    /// The text changed; here is all of it.
    Changed(String),
    /// The caret moved.
    Moved,
    /// `Submit` was performed with this text.
    Submitted(String),
}

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
            (Attribute::Text | Attribute::Value, AttrValue::String(text)) => {
                self.edit = if self.edit.is_single_line() {
                    TextEdit::new(text).single_line()
                } else {
                    TextEdit::new(text)
                };
            }
            (Attribute::Custom(PLACEHOLDER), AttrValue::String(text)) => {
                self.placeholder = text.clone()
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Text | Attribute::Value => {
                Some(AttrValue::String(self.edit.text().to_owned()))
            }
            Attribute::Custom(PLACEHOLDER) => Some(AttrValue::String(self.placeholder.clone())),
            other => self.props.get(other),
        }
    }

    /// `Type` inserts, `Delete`/`Cancel` delete before/after the caret, `Move` and `GoTo` move
    /// it, `Submit` reports the text.
    pub fn handle(&mut self, cmd: Cmd) -> Option<EditorMsg> {
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
            Cmd::Submit => return Some(EditorMsg::Submitted(self.edit.text().to_owned())),
            _ => return None,
        };
        let motion = op.is_motion();
        let before = self.edit.cursor();
        if self.edit.apply(op) {
            Some(EditorMsg::Changed(self.edit.text().to_owned()))
        } else if motion && self.edit.cursor() != before {
            Some(EditorMsg::Moved)
        } else {
            None
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
}
