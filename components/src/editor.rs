//! Editor: the inline answer and note editor, on ratatui-textarea. It draws on the selected-row
//! background with a muted placeholder when empty, wraps long lines, takes bracketed pastes, and
//! leaves a slot below itself for a suggestion popup.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::widgets::Widget;
use ratatui_textarea::{CursorMove, TextArea, WrapMode};
use tuirealm::command::{Cmd, Direction, Position as CmdPosition};
use tuirealm::state::{State, StateValue};

use crate::realm::realm_component;
use crate::theme::Theme;

/// Most lines an editor grows to before it scrolls.
pub const MAX_EDITOR_LINES: u16 = 6;

/// What the editor reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditorMsg {
    /// The text changed; here is all of it.
    Changed(String),
    /// `Submit` was performed with this text.
    Submitted(String),
}

/// An inline text editor.
#[derive(Debug, Clone)]
pub struct Editor {
    area: TextArea<'static>,
    theme: Theme,
    /// Where the hardware cursor belongs after the last render (for IME placement).
    cursor: Option<Position>,
    /// A one-line editor (free-form answers): no newlines, Up/Down go to the start/end.
    single_line: bool,
}

/// Readline's forward-word (Alt+F): to the end of this or the next word (letters and digits).
fn word_forward(area: &mut TextArea<'static>) {
    let ratatui_textarea::DataCursor(row, col) = area.cursor();
    let line: Vec<char> = area.lines()[row].chars().collect();
    let mut to = col.min(line.len());
    while to < line.len() && !line[to].is_alphanumeric() {
        to += 1;
    }
    while to < line.len() && line[to].is_alphanumeric() {
        to += 1;
    }
    area.move_cursor(CursorMove::Jump(row as u16, to as u16));
}

/// Readline's backward-word (Alt+B): to the start of this or the previous word.
fn word_back(area: &mut TextArea<'static>) {
    let ratatui_textarea::DataCursor(row, col) = area.cursor();
    let line: Vec<char> = area.lines()[row].chars().collect();
    let mut to = col.min(line.len());
    while to > 0 && !line[to - 1].is_alphanumeric() {
        to -= 1;
    }
    while to > 0 && line[to - 1].is_alphanumeric() {
        to -= 1;
    }
    area.move_cursor(CursorMove::Jump(row as u16, to as u16));
}

/// Readline's Ctrl+W: deletes the whitespace-delimited word before the cursor.
fn delete_word_before(area: &mut TextArea<'static>) {
    let ratatui_textarea::DataCursor(row, col) = area.cursor();
    let line: Vec<char> = area.lines()[row].chars().collect();
    let mut start = col.min(line.len());
    while start > 0 && line[start - 1].is_whitespace() {
        start -= 1;
    }
    while start > 0 && !line[start - 1].is_whitespace() {
        start -= 1;
    }
    if start < col {
        for _ in start..col {
            area.delete_char();
        }
    }
}

impl Editor {
    /// An editor holding `text` with the cursor at its end.
    pub fn new(text: &str, placeholder: &str) -> Editor {
        let lines: Vec<String> = if text.is_empty() {
            vec![String::new()]
        } else {
            text.split('\n').map(str::to_owned).collect()
        };
        let mut area = TextArea::new(lines);
        area.move_cursor(CursorMove::Bottom);
        area.move_cursor(CursorMove::End);
        area.set_wrap_mode(WrapMode::WordOrGlyph);
        area.set_placeholder_text(placeholder);
        area.remove_line_number();
        area.set_cursor_line_style(Style::default());
        let mut editor = Editor {
            area,
            theme: Theme::default(),
            cursor: None,
            single_line: false,
        };
        editor.set_theme(Theme::default());
        editor
    }

    /// Draws with `theme` from now on.
    pub fn set_theme(&mut self, theme: Theme) {
        self.theme = theme;
        self.area.set_style(theme.selected());
        self.area
            .set_placeholder_style(theme.on_selected(theme.muted()));
        self.area.set_cursor_style(theme.caret());
    }

    /// [`Editor::set_theme`] as a builder.
    pub fn with_theme(mut self, theme: Theme) -> Editor {
        self.set_theme(theme);
        self
    }

    /// A one-line editor (free-form answers): pasted line breaks become spaces, Up/Down go to the
    /// start/end of the line, and no key inserts a newline.
    pub fn single_line(mut self) -> Editor {
        self.single_line = true;
        self
    }

    /// The whole text, lines joined with `\n`.
    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    pub fn is_empty(&self) -> bool {
        self.area.is_empty()
    }

    /// Text before the cursor on the cursor's line (for completions).
    pub fn text_before_cursor(&self) -> String {
        let cursor = self.area.cursor();
        let line = &self.area.lines()[cursor.0];
        line.chars().take(cursor.1).collect()
    }

    /// Feeds a terminal key to the text area: typing, deletion and cursor movement with readline's
    /// keys (Ctrl+A/E/B/F, Ctrl+U/K/W/H/D, Alt+B/F/D, Ctrl+Left/Right). Keys readline gives no
    /// editing meaning do nothing, rather than ratatui-textarea's own shortcuts (undo on Ctrl+U...).
    /// Returns the new text when it changed.
    pub fn input(&mut self, event: crossterm::event::KeyEvent) -> Option<String> {
        use crossterm::event::{KeyCode, KeyModifiers};
        let before = self.area.lines().to_vec();
        let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
        let alt = event.modifiers.contains(KeyModifiers::ALT);
        let plain = !ctrl && !alt;
        let area = &mut self.area;
        match event.code {
            KeyCode::Char(c) if plain => area.insert_char(c),
            KeyCode::Char(c) if ctrl && !alt => match c.to_ascii_lowercase() {
                'a' => area.move_cursor(CursorMove::Head),
                'e' => area.move_cursor(CursorMove::End),
                'b' => area.move_cursor(CursorMove::Back),
                'f' => area.move_cursor(CursorMove::Forward),
                'u' => {
                    area.delete_line_by_head();
                }
                'k' => {
                    area.delete_line_by_end();
                }
                'w' => delete_word_before(area),
                'h' => {
                    area.delete_char();
                }
                'd' => {
                    area.delete_next_char();
                }
                'j' if !self.single_line => area.insert_newline(),
                _ => {}
            },
            KeyCode::Char(c) if alt && !ctrl => match c.to_ascii_lowercase() {
                'b' => word_back(area),
                'f' => word_forward(area),
                'd' => {
                    area.delete_next_word();
                }
                _ => {}
            },
            KeyCode::Backspace if alt || ctrl => delete_word_before(area),
            KeyCode::Backspace => {
                area.delete_char();
            }
            KeyCode::Delete if alt || ctrl => {
                area.delete_next_word();
            }
            KeyCode::Delete => {
                area.delete_next_char();
            }
            KeyCode::Left if alt || ctrl => word_back(area),
            KeyCode::Right if alt || ctrl => word_forward(area),
            KeyCode::Left => area.move_cursor(CursorMove::Back),
            KeyCode::Right => area.move_cursor(CursorMove::Forward),
            KeyCode::Home => area.move_cursor(CursorMove::Head),
            KeyCode::End => area.move_cursor(CursorMove::End),
            KeyCode::Up => self.vertical(CursorMove::Up, CursorMove::Head),
            KeyCode::Down => self.vertical(CursorMove::Down, CursorMove::End),
            KeyCode::Enter
                if !self.single_line && (alt || event.modifiers.contains(KeyModifiers::SHIFT)) =>
            {
                area.insert_newline()
            }
            KeyCode::Tab if plain => {
                area.insert_tab();
            }
            _ => {}
        }
        (self.area.lines() != before.as_slice()).then(|| self.text())
    }

    /// Up/Down: between lines where there is one to go to, else to the start/end of the line
    /// (a single-line editor always goes to its start/end), as pi's editor does.
    fn vertical(&mut self, step: CursorMove, edge: CursorMove) {
        if self.single_line {
            self.area.move_cursor(edge);
            return;
        }
        let before = self.area.cursor();
        self.area.move_cursor(step);
        if self.area.cursor() == before {
            self.area.move_cursor(edge);
        }
    }

    /// Inserts pasted text (line endings normalized, other control characters dropped).
    pub fn paste(&mut self, text: &str) -> String {
        let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        let normalized = if self.single_line {
            normalized.replace('\n', " ")
        } else {
            normalized
        };
        let clean: String = normalized
            .chars()
            .filter(|c| *c == '\n' || *c == '\t' || !c.is_control())
            .collect();
        self.area.insert_str(clean);
        self.text()
    }

    /// Replaces the text before the cursor on its line by `replacement` (minus `remove` characters).
    pub fn replace_before_cursor(&mut self, remove: usize, replacement: &str) -> String {
        for _ in 0..remove {
            self.area.delete_char();
        }
        self.area.insert_str(replacement);
        self.text()
    }

    /// Lines the editor wants when drawn into an area `width` columns wide (at least one, at most
    /// [`MAX_EDITOR_LINES`]). Measured with ratatui-textarea's own wrapping, on a copy drawn off
    /// screen, so the height always matches what [`Editor::render`] shows.
    pub fn height(&self, width: u16) -> u16 {
        let inner = width.saturating_sub(2).max(1);
        let mut probe = self.area.clone();
        probe.move_cursor(CursorMove::Bottom);
        probe.move_cursor(CursorMove::End);
        let tall = Rect::new(0, 0, inner, 256);
        (&probe).render(tall, &mut Buffer::empty(tall));
        let lines = probe.screen_cursor().row as u16 + 1;
        lines.clamp(1, MAX_EDITOR_LINES)
    }

    /// Where the caret is on screen after the last render.
    pub fn cursor_position(&self) -> Option<Position> {
        self.cursor
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        if area.width < 3 || area.height == 0 {
            self.cursor = None;
            return;
        }
        buf.set_style(area, self.theme.selected());
        let inner = Rect::new(area.x + 1, area.y, area.width - 2, area.height);
        (&self.area).render(inner, buf);
        // The screen cursor counts display lines from the top of the text; the viewport may have
        // scrolled past the first ones.
        let screen = self.area.screen_cursor();
        let (top, left) = self.area.scroll_offset();
        let row = (screen.row as u16).saturating_sub(top);
        let col = (screen.col as u16).saturating_sub(left);
        self.cursor = (row < inner.height && col <= inner.width)
            .then(|| Position::new(inner.x + col.min(inner.width - 1), inner.y + row));
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::String(self.text()))
    }

    /// `Type`, `Delete`, `Move`, `GoTo` edit the text; `Submit` reports it.
    pub fn handle(&mut self, cmd: Cmd) -> Option<EditorMsg> {
        match cmd {
            Cmd::Type(c) => self.area.insert_char(c),
            Cmd::Delete => {
                self.area.delete_char();
            }
            Cmd::Move(Direction::Left) => self.area.move_cursor(CursorMove::Back),
            Cmd::Move(Direction::Right) => self.area.move_cursor(CursorMove::Forward),
            Cmd::Move(Direction::Up) => self.area.move_cursor(CursorMove::Up),
            Cmd::Move(Direction::Down) => self.area.move_cursor(CursorMove::Down),
            Cmd::GoTo(CmdPosition::Begin) => self.area.move_cursor(CursorMove::Head),
            Cmd::GoTo(CmdPosition::End) => self.area.move_cursor(CursorMove::End),
            Cmd::Submit => return Some(EditorMsg::Submitted(self.text())),
            _ => return None,
        }
        Some(EditorMsg::Changed(self.text()))
    }
}

realm_component!(Editor);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_counts_wrapped_lines_as_drawn() {
        let mut e = Editor::new("", "");
        for c in "a note that is long enough to wrap past the edge".chars() {
            e.area.insert_char(c);
        }
        assert_eq!(e.height(22), 3);
        assert_eq!(e.height(100), 1);
        // After being drawn one line high (the viewport scrolled), the measure is the same.
        let area = Rect::new(0, 0, 22, 1);
        e.render(area, &mut Buffer::empty(area));
        assert_eq!(e.height(22), 3);
    }
}
