//! TabBar: one tab per question with an answered marker, then the review tab, framed by arrows.
//! When the tabs do not fit, the active one stays visible and neighbours are added while they fit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tuirealm::command::{Cmd, Direction};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, realm_component};
use crate::text::{put, width};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute};

/// One question tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabItem {
    pub label: String,
    pub answered: bool,
}

/// What the tab bar reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TabBarMsg {
    /// The active tab changed (index among all tabs; the last is the review tab).
    Selected(usize),
}

/// The tab strip.
#[derive(Debug, Clone, Default)]
pub struct TabBar {
    pub tabs: Vec<TabItem>,
    pub review_label: String,
    /// Index of the active tab; `tabs.len()` is the review tab.
    pub active: usize,
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

impl TabBar {
    pub fn new(tabs: Vec<TabItem>, active: usize) -> TabBar {
        TabBar {
            tabs,
            review_label: crate::strings::REVIEW_TAB.into(),
            active,
            theme: Theme::default(),
            props: Props::default(),
        }
    }

    fn texts(&self) -> Vec<(String, Style)> {
        let t = &self.theme;
        let mut out: Vec<(String, Style)> = self
            .tabs
            .iter()
            .enumerate()
            .map(|(i, tab)| {
                let marker = if tab.answered { '☒' } else { '☐' };
                let style = if i == self.active {
                    t.selected()
                } else if tab.answered {
                    t.success()
                } else {
                    t.muted()
                };
                (format!(" {marker} {} ", tab.label), style)
            })
            .collect();
        let review_style = if self.active == self.tabs.len() {
            t.selected()
        } else {
            t.success()
        };
        out.push((format!(" ≡ {} ", self.review_label), review_style));
        out
    }

    /// The range of tabs shown at this width.
    pub fn visible_range(&self, cols: usize) -> std::ops::Range<usize> {
        let texts = self.texts();
        let widths: Vec<usize> = texts.iter().map(|(s, _)| width(s)).collect();
        let available = cols.saturating_sub(5);
        let total: usize = widths.iter().sum::<usize>() + widths.len().saturating_sub(1);
        if total <= available {
            return 0..widths.len();
        }
        let active = self.active.min(widths.len() - 1);
        let (mut start, mut end) = (active, active + 1);
        let mut used = widths[active];
        let mut prefer_right = active < widths.len() / 2;
        loop {
            let right_fits = end < widths.len() && used + 1 + widths[end] <= available;
            let left_fits = start > 0 && used + 1 + widths[start - 1] <= available;
            match (prefer_right, right_fits, left_fits) {
                (true, true, _) | (false, true, false) => {
                    used += 1 + widths[end];
                    end += 1;
                }
                (false, _, true) | (true, false, true) => {
                    start -= 1;
                    used += 1 + widths[start];
                }
                _ => break,
            }
            prefer_right = !prefer_right;
        }
        start..end
    }

    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        if area.height == 0 || area.width == 0 {
            return;
        }
        let t = self.theme;
        let texts = self.texts();
        let range = self.visible_range(area.width as usize);
        let right_edge = area.x + area.width;
        let mut x = area.x;
        let mut put = |x: &mut u16, s: &str, style: Style| {
            if *x < right_edge {
                let (nx, _) = put(buf, *x, area.y, s, (right_edge - *x) as usize, style);
                *x = nx;
            }
        };
        put(&mut x, " ", Style::default());
        put(&mut x, "← ", t.dim());
        for (n, i) in range.enumerate() {
            if n > 0 {
                put(&mut x, " ", Style::default());
            }
            put(&mut x, &texts[i].0, texts[i].1);
        }
        put(&mut x, " →", t.dim());
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.active))
    }

    /// `Move(Left/Right)` changes the active tab, wrapping.
    pub fn handle(&mut self, cmd: Cmd) -> Option<TabBarMsg> {
        let count = self.tabs.len() + 1;
        self.active = match cmd {
            Cmd::Move(Direction::Right) => (self.active + 1) % count,
            Cmd::Move(Direction::Left) => (self.active + count - 1) % count,
            _ => return None,
        };
        Some(TabBarMsg::Selected(self.active))
    }
}

impl TabBar {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    /// `Value` (a length) picks the active tab; every attribute is kept for `query`.
    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        if let (Attribute::Value, AttrValue::Length(n)) = (attr, &value) {
            self.active = (*n).min(self.tabs.len());
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Value => Some(AttrValue::Length(self.active)),
            other => self.props.get(other),
        }
    }
}

realm_component!(TabBar);
