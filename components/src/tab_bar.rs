//! TabBar: one tab per question with an answered marker, then the review tab, framed by arrows.
//! When the tabs do not fit, the active one stays visible and neighbours are added while they fit.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, moved, payload, payload_ref, realm_component};
use crate::text::{put, width};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute};

/// One question tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabItem {
    /// The tab's label (`Q1`, or the question's own).
    pub label: String,
    /// Whether the question is answered (☒, else ☐).
    pub answered: bool,
    /// Whether the question is marked required (`*` after its label; still advisory).
    pub required: bool,
}

/// The tab strip: `← ☒ Q1 ☐ Q2* ✓ Submit →` (`*`: required), scrolling to keep the active tab
/// in view. A required tab not yet answered is drawn in the warning colour.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Content` | [`payload`] of `Vec<TabItem>` | the question tabs (label, answered, required) |
/// | `Custom(`[`attr::REVIEW_LABEL`]`)` | `String` | the review tab's label |
/// | `Value` | `Length` | the active tab (the number of question tabs is the review tab) |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// Setting the tabs keeps the active one (clamped).
///
/// **State:** `Single(Usize(active tab))`.
///
/// **Perform:** `Move(Left/Right)` (wrapping), `GoTo(Begin/End)` → `Changed(state)`, or
/// `NoChange` when it stays (a bar with only the review tab); anything else → `Invalid`.
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
/// use pi_ask_components::{TabBar, TabItem};
///
/// let keys = [Key::Right, Key::Right, Key::Right];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Right, .. }) => Some(Cmd::Move(Direction::Right)),
///     _ => None,
/// };
/// app.mount("tabs", Box::new(Mounted::new(TabBar::default(), bindings)), vec![]).unwrap();
/// app.active(&"tabs").unwrap();
/// let tab = |label: &str, answered| TabItem { label: label.into(), answered, required: false };
/// app.attr(&"tabs", Attribute::Content, payload(vec![tab("Q1", true), tab("Q2", false)]))
///     .unwrap();
/// let mut results = Vec::new();
/// for _ in 0..3 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let at = |n| State::Single(StateValue::Usize(n));
/// // Q2, the review tab, then round to Q1.
/// assert_eq!(results, vec![
///     CmdResult::Changed(at(1)),
///     CmdResult::Changed(at(2)),
///     CmdResult::Changed(at(0)),
/// ]);
/// ```
#[derive(Debug, Clone)]
pub struct TabBar {
    /// The question tabs.
    pub tabs: Vec<TabItem>,
    /// The review tab's label.
    pub review_label: String,
    /// Index of the active tab; `tabs.len()` is the review tab.
    pub active: usize,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

impl Default for TabBar {
    /// No question tabs, the review tab active, with its default label.
    fn default() -> TabBar {
        TabBar::new(Vec::new(), 0)
    }
}

impl TabBar {
    /// Tabs for `tabs`, then the review tab; `active` is highlighted.
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
                } else if tab.required {
                    t.warning()
                } else {
                    t.muted()
                };
                let required = if tab.required { "*" } else { "" };
                (format!(" {marker} {}{required} ", tab.label), style)
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

    /// Draws the tabs on the first line of `area`, scrolled to keep the active one in view.
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

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let before = self.state_value();
        let count = self.tabs.len() + 1;
        self.active = match cmd {
            Cmd::Move(Direction::Right) => (self.active + 1) % count,
            Cmd::Move(Direction::Left) => (self.active + count - 1) % count,
            Cmd::GoTo(Position::Begin) => 0,
            Cmd::GoTo(Position::End) => count - 1,
            other => return CmdResult::Invalid(other),
        };
        moved(before, self.state_value())
    }
}

impl TabBar {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Value, AttrValue::Length(n)) => self.active = (*n).min(self.tabs.len()),
            (Attribute::Content, value) => {
                if let Some(tabs) = payload_ref::<Vec<TabItem>>(value) {
                    self.tabs = tabs.clone();
                    self.active = self.active.min(self.tabs.len());
                }
            }
            (Attribute::Custom(attr::REVIEW_LABEL), AttrValue::String(s)) => {
                self.review_label = s.clone()
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Value => Some(AttrValue::Length(self.active)),
            Attribute::Content => Some(payload(self.tabs.clone())),
            Attribute::Custom(attr::REVIEW_LABEL) => {
                Some(AttrValue::String(self.review_label.clone()))
            }
            other => self.props.get(other),
        }
    }
}

realm_component!(TabBar);
