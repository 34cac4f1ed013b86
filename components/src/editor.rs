//! Editor: the inline answer and note editor, on ratatui-textarea. It draws on the selected-row
//! background with a muted placeholder when empty, wraps long lines, takes bracketed pastes, and
//! leaves a slot below itself for a suggestion popup.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
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
    pub theme: Theme,
    /// Where the hardware cursor belongs after the last render (for IME placement).
    cursor: Option<Position>,
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
        let theme = Theme::default();
        area.set_cursor_line_style(Style::default());
        area.set_style(theme.selected());
        area.set_placeholder_style(theme.muted().bg(theme.selected_bg));
        area.set_cursor_style(Style::default().add_modifier(Modifier::REVERSED));
        Editor {
            area,
            theme,
            cursor: None,
        }
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

    /// Feeds a terminal key to the text area (cursor movement, deletion, typing).
    /// Returns the new text when it changed.
    pub fn input(&mut self, event: crossterm::event::KeyEvent) -> Option<String> {
        let before = self.area.lines().to_vec();
        self.area.input(event);
        (self.area.lines() != before.as_slice()).then(|| self.text())
    }

    /// Inserts pasted text (line endings normalized, other control characters dropped).
    pub fn paste(&mut self, text: &str) -> String {
        let clean: String = text
            .replace("\r\n", "\n")
            .replace('\r', "\n")
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

    /// Lines the editor wants at a width (at least one, at most [`MAX_EDITOR_LINES`]).
    pub fn height(&self, cols: u16) -> u16 {
        let inner = cols.saturating_sub(2).max(4) as usize;
        let wrapped: usize = self
            .area
            .lines()
            .iter()
            .map(|l| crate::text::wrap(l, inner).len().max(1))
            .sum();
        (wrapped.max(1) as u16).min(MAX_EDITOR_LINES)
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
        let screen = self.area.screen_cursor();
        self.cursor = Some(Position::new(
            inner.x + screen.col as u16,
            inner.y + screen.row as u16,
        ));
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
