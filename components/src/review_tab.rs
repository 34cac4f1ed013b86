//! ReviewTab: every question with its answer and notes, and the Submit / Elaborate / Cancel
//! actions with their numbers, side by side on wide screens and stacked on narrow ones.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tuirealm::command::{Cmd, Direction};
use tuirealm::state::{State, StateValue};

use crate::realm::realm_component;
use crate::text::{pad, put_segments, wrap};
use crate::theme::Theme;

/// One line under a question in the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewLine {
    Unanswered,
    /// A chosen label (or free-form text when `custom`).
    Answer {
        text: String,
        custom: bool,
    },
    Note(String),
    /// A note on an option that is not part of the answer (shown while Elaborate is highlighted).
    OptionNote {
        option: String,
        note: String,
    },
}

/// One question in the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewEntry {
    pub label: String,
    pub lines: Vec<ReviewLine>,
}

/// What the review tab reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewTabMsg {
    Highlighted(usize),
    Chosen(usize),
}

/// The review tab.
#[derive(Debug, Clone)]
pub struct ReviewTab {
    pub entries: Vec<ReviewEntry>,
    pub actions: [&'static str; 3],
    pub selected: usize,
    pub hint: Option<String>,
    pub theme: Theme,
}

impl Default for ReviewTab {
    fn default() -> Self {
        ReviewTab {
            entries: Vec::new(),
            actions: ["Submit", "Elaborate", "Cancel"],
            selected: 0,
            hint: None,
            theme: Theme::default(),
        }
    }
}

const ACTION_COLUMN: usize = 14;
const WIDE_MIN: usize = 64;
const REVIEW_MIN: usize = 24;

impl ReviewTab {
    fn review_lines(&self, cols: usize) -> Vec<(String, Style)> {
        let t = &self.theme;
        let mut out = vec![
            (" Review answers".to_owned(), t.accent()),
            (String::new(), t.text()),
        ];
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push((String::new(), t.text()));
            }
            for l in wrap(&format!(" {}", entry.label), cols) {
                out.push((l, t.text()));
            }
            for line in &entry.lines {
                let (first, rest, text, style) = match line {
                    ReviewLine::Unanswered => ("   → ", "     ", "unanswered".to_owned(), t.dim()),
                    ReviewLine::Answer { text, custom } => (
                        "   → ",
                        "     ",
                        text.clone(),
                        if *custom { t.text() } else { t.success() },
                    ),
                    ReviewLine::Note(note) => {
                        ("     ", "     ", format!("Note: {note}"), t.muted())
                    }
                    ReviewLine::OptionNote { option, note } => (
                        "     ",
                        "     ",
                        format!("{option} Note: {note}"),
                        t.muted(),
                    ),
                };
                for (n, part) in wrap(&text, cols.saturating_sub(5).max(1))
                    .into_iter()
                    .enumerate()
                {
                    out.push((
                        format!("{}{part}", if n == 0 { first } else { rest }),
                        style,
                    ));
                }
            }
        }
        out
    }

    fn action_lines(&self) -> Vec<(String, Style)> {
        self.actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let pointer = if i == self.selected { "❯" } else { " " };
                let style = if i == self.selected {
                    self.theme.accent()
                } else {
                    self.theme.text()
                };
                (format!("{pointer} {}. {a}", i + 1), style)
            })
            .collect()
    }

    /// Every line of the tab at a width, before clipping.
    pub fn lines(&self, cols: usize) -> Vec<Vec<(String, Style)>> {
        let actions = self.action_lines();
        let mut out: Vec<Vec<(String, Style)>> = Vec::new();
        if cols >= WIDE_MIN && cols - (ACTION_COLUMN + 2) >= REVIEW_MIN {
            let review = self.review_lines(cols - (ACTION_COLUMN + 2));
            for i in 0..review.len().max(actions.len()) {
                let (a, a_style) = actions.get(i).cloned().unwrap_or_default();
                let mut row = vec![(pad(&a, ACTION_COLUMN + 2), a_style)];
                if let Some(r) = review.get(i) {
                    row.push(r.clone());
                }
                out.push(row);
            }
        } else {
            out.extend(self.review_lines(cols).into_iter().map(|l| vec![l]));
            out.push(vec![]);
            out.extend(actions.into_iter().map(|a| vec![a]));
        }
        if let Some(hint) = &self.hint {
            out.push(vec![]);
            out.extend(
                wrap(&format!(" {hint}"), cols)
                    .into_iter()
                    .map(|l| vec![(l, self.theme.dim())]),
            );
        }
        out
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let cols = area.width as usize;
        let right = area.x + area.width;
        for (i, row) in self
            .lines(cols)
            .into_iter()
            .take(area.height as usize)
            .enumerate()
        {
            put_segments(buf, area.x, area.y + i as u16, right, row);
        }
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.selected))
    }

    /// `Move(Up/Down)` highlights an action; `Submit` chooses the highlighted one.
    pub fn handle(&mut self, cmd: Cmd) -> Option<ReviewTabMsg> {
        match cmd {
            Cmd::Move(Direction::Down) => self.selected = (self.selected + 1).min(2),
            Cmd::Move(Direction::Up) => self.selected = self.selected.saturating_sub(1),
            Cmd::Submit => return Some(ReviewTabMsg::Chosen(self.selected)),
            _ => return None,
        }
        Some(ReviewTabMsg::Highlighted(self.selected))
    }
}

realm_component!(ReviewTab);
