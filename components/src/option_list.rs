//! OptionList: numbered option rows with the cursor marker, `[ ]`/`[x]` on multi questions,
//! dimmed descriptions, the warning-coloured `(recommended)` marker, notes and saved free-form text
//! under their rows, and an editor slot. Only the rows that are visible are laid out, so a long
//! list costs the same per frame as a short one.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tuirealm::command::{Cmd, Direction};
use tuirealm::state::{State, StateValue};

use crate::realm::realm_component;
use crate::text::{width, wrap};
use crate::theme::Theme;

/// The fixed content of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionRow {
    pub label: String,
    pub description: Option<String>,
    pub recommended: bool,
}

/// What changes from key to key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OptionListState {
    /// The highlighted row.
    pub cursor: usize,
    /// Show `[ ]`/`[x]` checkboxes (multi questions).
    pub checkboxes: bool,
    /// Rows shown as chosen (success colour, `[x]`).
    pub selected: Vec<usize>,
    /// Saved text shown dimmed under a row (free-form answers).
    pub texts: Vec<(usize, String)>,
    /// Saved notes shown as `Note: …` under a row.
    pub notes: Vec<(usize, String)>,
    /// An editor slot of this many lines under a row.
    pub editor: Option<(usize, u16)>,
}

/// What the option list reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionListMsg {
    CursorMoved(usize),
}

/// The option list. Rows are shared (`Arc`) so a frame never copies them.
#[derive(Debug, Clone)]
pub struct OptionList {
    rows: Arc<Vec<OptionRow>>,
    pub state: OptionListState,
    /// First visible row (kept so the cursor stays visible with minimal scrolling).
    offset: usize,
    pub theme: Theme,
}

/// Indent of descriptions, notes and editors under a row.
pub const DETAIL_INDENT: u16 = 5;

impl OptionList {
    pub fn new(rows: Arc<Vec<OptionRow>>) -> OptionList {
        OptionList {
            rows,
            state: OptionListState::default(),
            offset: 0,
            theme: Theme::default(),
        }
    }

    pub fn rows(&self) -> &[OptionRow] {
        &self.rows
    }

    pub fn offset(&self) -> usize {
        self.offset
    }

    fn is_selected(&self, row: usize) -> bool {
        self.state.selected.contains(&row)
    }

    /// The lines of one row at a width (the editor slot as blank lines).
    fn row_lines(&self, index: usize, cols: usize) -> Vec<Line<'static>> {
        let t = &self.theme;
        let row = &self.rows[index];
        let active = index == self.state.cursor;
        let style = if self.is_selected(index) {
            t.success()
        } else if active {
            t.accent()
        } else {
            t.text()
        };
        let prefix = if self.state.checkboxes {
            if self.is_selected(index) {
                "[x] "
            } else {
                "[ ] "
            }
        } else {
            ""
        };
        let head = format!("{}. {prefix}", index + 1);
        let pointer = if active { "❯ " } else { "  " };
        let hang = 2 + width(&head);
        let mut lines = Vec::new();
        for (n, part) in wrap(&row.label, cols.saturating_sub(hang).max(1))
            .into_iter()
            .enumerate()
        {
            let lead = if n == 0 {
                format!("{pointer}{head}")
            } else {
                " ".repeat(hang)
            };
            let pointer_style = if active { t.accent() } else { style };
            if n == 0 {
                lines.push(Line::from(vec![
                    Span::styled(pointer.to_owned(), pointer_style),
                    Span::styled(head.clone(), style),
                    Span::styled(part, style),
                ]));
            } else {
                lines.push(Line::from(vec![Span::raw(lead), Span::styled(part, style)]));
            }
        }
        let indent = " ".repeat(DETAIL_INDENT as usize);
        let inner = cols.saturating_sub(DETAIL_INDENT as usize).max(1);
        if row.recommended {
            let text = match &row.description {
                Some(d) => format!("(recommended) | {d}"),
                None => "(recommended)".to_owned(),
            };
            for (n, part) in wrap(&text, inner).into_iter().enumerate() {
                let mut spans = vec![Span::raw(indent.clone())];
                if n == 0 && part.starts_with("(recommended)") {
                    let rest = part["(recommended)".len()..].to_owned();
                    spans.push(Span::styled("(recommended)", t.warning()));
                    spans.push(Span::styled(rest, t.muted()));
                } else {
                    spans.push(Span::styled(part, t.muted()));
                }
                lines.push(Line::from(spans));
            }
        } else if let Some(description) = &row.description {
            for part in wrap(description, inner) {
                lines.push(Line::from(vec![
                    Span::raw(indent.clone()),
                    Span::styled(part, t.muted()),
                ]));
            }
        }
        let editing_here = matches!(self.state.editor, Some((r, _)) if r == index);
        if let Some((_, text)) = self.state.texts.iter().find(|(r, _)| *r == index)
            && !editing_here
        {
            {
                for part in wrap(text, inner) {
                    lines.push(Line::from(vec![
                        Span::raw(indent.clone()),
                        Span::styled(part, t.muted()),
                    ]));
                }
            }
        }
        if let Some((_, note)) = self.state.notes.iter().find(|(r, _)| *r == index)
            && !editing_here
        {
            {
                for (n, part) in wrap(&format!("Note: {note}"), inner)
                    .into_iter()
                    .enumerate()
                {
                    if n == 0 {
                        lines.push(Line::from(vec![
                            Span::raw(indent.clone()),
                            Span::styled("Note:", t.accent()),
                            Span::styled(part["Note:".len()..].to_owned(), t.muted()),
                        ]));
                    } else {
                        lines.push(Line::from(vec![
                            Span::raw(indent.clone()),
                            Span::styled(part, t.muted()),
                        ]));
                    }
                }
            }
        }
        if let Some((r, h)) = self.state.editor
            && r == index
        {
            lines.extend((0..h).map(|_| Line::raw("")));
        }
        lines
    }

    fn row_height(&self, index: usize, cols: usize) -> usize {
        self.row_lines(index, cols).len()
    }

    /// Total height of every row (used for layouts that size the list to its content).
    pub fn content_height(&self, cols: u16) -> u16 {
        (0..self.rows.len())
            .map(|i| self.row_height(i, cols as usize))
            .sum::<usize>()
            .min(u16::MAX as usize) as u16
    }

    /// Moves `offset` so the cursor row is fully visible in `height` lines, scrolling as little as possible.
    fn scroll_to_cursor(&mut self, cols: usize, height: usize) {
        let cursor = self.state.cursor.min(self.rows.len().saturating_sub(1));
        if cursor < self.offset {
            self.offset = cursor;
            return;
        }
        let mut used: usize = (self.offset..=cursor)
            .map(|i| self.row_height(i, cols))
            .sum();
        while used > height && self.offset < cursor {
            used -= self.row_height(self.offset, cols);
            self.offset += 1;
        }
    }

    /// Draws the visible rows, with `↑ N more` / `↓ N more` markers when rows are hidden.
    /// Returns where the editor slot landed, if it is visible.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Rect> {
        if area.height == 0 || area.width == 0 || self.rows.is_empty() {
            return None;
        }
        let cols = area.width as usize;
        let height = area.height as usize;
        let last = self.rows.len() - 1;
        let below_marker = usize::from(self.state.cursor < last && height > 2);
        self.scroll_to_cursor(cols, height - below_marker);
        let above_marker = usize::from(self.offset > 0 && height > 2);
        if above_marker == 1 {
            self.scroll_to_cursor(cols, height - below_marker - 1);
        }
        let mut y = area.y;
        let bottom = area.y + area.height;
        if above_marker == 1 {
            buf.set_stringn(
                area.x,
                y,
                format!("  ↑ {} more", self.offset),
                cols,
                self.theme.dim(),
            );
            y += 1;
        }
        let mut slot = None;
        for index in self.offset..self.rows.len() {
            let lines = self.row_lines(index, cols);
            let room = (bottom - y) as usize;
            let needs_marker = usize::from(index < last);
            if index > self.state.cursor && lines.len() + needs_marker > room {
                if room > 0 {
                    let hidden = self.rows.len() - index;
                    buf.set_stringn(
                        area.x,
                        y,
                        format!("  ↓ {hidden} more"),
                        cols,
                        self.theme.dim(),
                    );
                }
                break;
            }
            let editor_lines = self
                .state
                .editor
                .filter(|(r, _)| *r == index)
                .map_or(0, |(_, h)| h as usize);
            let label_lines = lines.len() - editor_lines;
            for (n, line) in lines.iter().enumerate() {
                if y >= bottom {
                    break;
                }
                if n == label_lines && editor_lines > 0 {
                    let h = editor_lines.min((bottom - y) as usize) as u16;
                    slot = Some(Rect::new(
                        area.x + DETAIL_INDENT,
                        y,
                        area.width.saturating_sub(DETAIL_INDENT),
                        h,
                    ));
                }
                buf.set_line(area.x, y, line, area.width);
                y += 1;
            }
        }
        slot
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.state.cursor))
    }

    /// `Move(Up/Down)` moves the cursor (clamped).
    pub fn handle(&mut self, cmd: Cmd) -> Option<OptionListMsg> {
        let last = self.rows.len().saturating_sub(1);
        let next = match cmd {
            Cmd::Move(Direction::Down) => (self.state.cursor + 1).min(last),
            Cmd::Move(Direction::Up) => self.state.cursor.saturating_sub(1),
            _ => return None,
        };
        self.state.cursor = next;
        Some(OptionListMsg::CursorMoved(next))
    }
}

realm_component!(OptionList);
