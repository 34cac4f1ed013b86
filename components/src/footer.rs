//! Footer: an optional notice, key hints wrapped at ` · ` boundaries, and the bottom rule.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tuirealm::command::Cmd;
use tuirealm::state::State;

use crate::realm::realm_component;
use crate::text::{fill, put, width, wrap};
use crate::theme::Theme;

/// Separator between hints.
pub const HINT_SEPARATOR: &str = " · ";

/// The footer never reacts to commands; its message type is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FooterMsg {}

/// The bottom of the form.
#[derive(Debug, Clone, Default)]
pub struct Footer {
    pub notice: Option<String>,
    /// Hints such as `Enter confirm`; hidden entirely when empty.
    pub hints: Vec<String>,
    pub theme: Theme,
}

impl Footer {
    /// Hint lines: chunks joined with ` · ` while they fit, the first line with a leading space.
    pub fn hint_lines(&self, cols: usize) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for (i, hint) in self.hints.iter().enumerate() {
            let chunk = if i == 0 {
                format!(" {hint}")
            } else {
                hint.clone()
            };
            if line.is_empty() {
                line = chunk;
            } else if width(&line) + width(HINT_SEPARATOR) + width(&chunk) <= cols {
                line = format!("{line}{HINT_SEPARATOR}{chunk}");
            } else {
                lines.push(std::mem::take(&mut line));
                line = chunk;
            }
            if width(&line) > cols {
                let mut parts = wrap(&line, cols);
                line = parts.pop().unwrap_or_default();
                lines.extend(parts);
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    fn notice_lines(&self, cols: usize) -> Vec<String> {
        self.notice
            .as_deref()
            .map(|n| wrap(&format!(" {n}"), cols))
            .unwrap_or_default()
    }

    /// Lines the footer needs at a width.
    pub fn height(&self, cols: u16) -> u16 {
        let body = self.notice_lines(cols as usize).len() + self.hint_lines(cols as usize).len();
        (if body > 0 { body + 2 } else { 1 }) as u16
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let cols = area.width as usize;
        let t = self.theme;
        let mut lines: Vec<(String, ratatui::style::Style)> = Vec::new();
        let notice = self.notice_lines(cols);
        let hints = self.hint_lines(cols);
        if !notice.is_empty() || !hints.is_empty() {
            lines.push((String::new(), t.text()));
        }
        lines.extend(notice.into_iter().map(|l| (l, t.warning())));
        lines.extend(hints.into_iter().map(|l| (l, t.dim())));
        // Keep the rule at the bottom; drop leading lines if space is short.
        let room = area.height as usize - 1;
        let skip = lines.len().saturating_sub(room);
        let first = area.y + area.height - 1 - (lines.len() - skip) as u16;
        for (y, (text, style)) in (first..).zip(lines.into_iter().skip(skip)) {
            put(buf, area.x, y, text, cols, style);
        }
        fill(buf, area.x, area.y + area.height - 1, cols, "─", t.accent());
    }

    fn state_value(&self) -> State {
        State::None
    }

    pub fn handle(&mut self, _cmd: Cmd) -> Option<FooterMsg> {
        None
    }
}

realm_component!(Footer);
