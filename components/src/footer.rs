//! Footer: an optional notice, key hints wrapped at ` · ` boundaries, and the bottom rule.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tuirealm::command::{Cmd, CmdResult};
use tuirealm::state::State;

use crate::realm::{Props, realm_component};
use crate::text::{fill, put, width, wrap};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue};

/// Separator between hints.
pub const HINT_SEPARATOR: &str = " · ";

/// The bottom of the form: an optional notice, key hints joined with ` · ` and wrapped, and the
/// bottom rule.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Text` | `String`, or `Payload(None)` | the notice |
/// | `Content` | `Payload(Vec(Str…))`, or a `Vec<Vec<String>>` [payload](crate::realm::payload) | the hints: one group, or groups each starting on a line of its own (answered back as one `Vec(Str…)` while there is one group) |
/// | `Focus`, `Custom(`[`attr::THEME`](crate::realm::attr::THEME)`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// **State:** `None`. **Perform:** it takes no commands: `Invalid` for every one.
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
/// use pi_ask_components::Footer;
///
/// let keys = [Key::Enter];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(_) => Some(Cmd::Submit),
///     _ => None,
/// };
/// app.mount("footer", Box::new(Mounted::new(Footer::default(), bindings)), vec![]).unwrap();
/// app.active(&"footer").unwrap();
/// let hints = ["↑↓ select", "Enter confirm"].map(|h| PropValue::Str(h.into()));
/// app.attr(&"footer", Attribute::Content, AttrValue::Payload(PropPayload::Vec(hints.into())))
///     .unwrap();
/// app.attr(&"footer", Attribute::Text, AttrValue::String("Saved.".into())).unwrap();
/// let mut results = Vec::new();
/// for _ in 0..1 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// assert_eq!(results, vec![CmdResult::Invalid(Cmd::Submit)]);
/// assert_eq!(app.state(&"footer").unwrap(), State::None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Footer {
    /// A notice above the hints (an error, a saved setting), if any.
    pub notice: Option<String>,
    /// Hints such as `Enter confirm`, in groups: each group starts on a line of its own (an
    /// editor's editing keys go under its other keys). Hidden entirely when there are none.
    pub hints: Vec<Vec<String>>,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

impl Footer {
    /// Hint lines: each group's hints joined with ` · ` while they fit, every line indented one
    /// column. A group that takes several lines is balanced over them (as many lines, each as
    /// full as the others) so no line holds a lone hint such as `? settings`.
    pub fn hint_lines(&self, cols: usize) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for group in &self.hints {
            let greedy = group_lines(group, cols);
            // Every hint fits a line after the one-column indent.
            let fits_whole = group.iter().all(|h| width(h) < cols);
            if greedy.len() < 2 || !fits_whole {
                lines.extend(greedy);
                continue;
            }
            // The narrowest width that still takes no more lines (line counts only fall as
            // the width grows).
            let (mut low, mut high) = (1, cols);
            while low < high {
                let mid = (low + high) / 2;
                if group_lines(group, mid).len() <= greedy.len() {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            lines.extend(group_lines(group, low));
        }
        lines
    }
}

/// One group's hints joined with ` · ` while they fit `cols`, a hint wider than a line wrapped.
fn group_lines(group: &[String], cols: usize) -> Vec<String> {
    let separator = width(HINT_SEPARATOR);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // The line's width, kept as it grows (measuring the whole line again per hint is what a
    // frame's footer cost most).
    let mut line_width = 0;
    for hint in group.iter().filter(|h| !h.is_empty()) {
        let hint_width = width(hint);
        if !line.is_empty() && line_width + separator + hint_width <= cols {
            line.push_str(HINT_SEPARATOR);
            line.push_str(hint);
            line_width += separator + hint_width;
        } else {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line.push(' ');
            line.push_str(hint);
            line_width = 1 + hint_width;
        }
        if line_width > cols {
            let mut parts: Vec<String> = wrap(line.trim_start(), cols.saturating_sub(1).max(1))
                .into_iter()
                .map(|part| format!(" {part}"))
                .collect();
            line = parts.pop().unwrap_or_default();
            line_width = width(&line);
            lines.extend(parts);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

impl Footer {
    fn notice_lines(&self, cols: usize) -> Vec<String> {
        self.notice
            .as_deref()
            .map(|n| wrap(&format!(" {n}"), cols))
            .unwrap_or_default()
    }

    /// The lines above the rule at a width: a blank line, the notice, the hints (none when both
    /// are empty). Lay out once per frame and hand the result to [`Footer::render_lines`].
    pub fn lines(&self, cols: u16) -> Vec<(String, Style)> {
        let t = self.theme;
        let notice = self.notice_lines(cols as usize);
        let hints = self.hint_lines(cols as usize);
        if notice.is_empty() && hints.is_empty() {
            return Vec::new();
        }
        let mut lines = vec![(String::new(), t.text())];
        lines.extend(notice.into_iter().map(|l| (l, t.warning())));
        lines.extend(hints.into_iter().map(|l| (l, t.dim())));
        lines
    }

    /// Lines the footer needs at a width (its lines and the rule).
    pub fn height(&self, cols: u16) -> u16 {
        self.lines(cols).len() as u16 + 1
    }

    /// Draws the notice, the hint lines and the rule at the bottom of `area`.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let lines = self.lines(area.width);
        self.render_lines(lines, area, buf);
    }

    /// Draws lines from [`Footer::lines`] with the rule at the bottom of `area`, dropping leading
    /// lines when space is short.
    pub fn render_lines(&self, lines: Vec<(String, Style)>, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let cols = area.width as usize;
        let room = area.height as usize - 1;
        let skip = lines.len().saturating_sub(room);
        let first = area.y + area.height - 1 - (lines.len() - skip) as u16;
        for (y, (text, style)) in (first..).zip(lines.into_iter().skip(skip)) {
            put(buf, area.x, y, text, cols, style);
        }
        fill(
            buf,
            area.x,
            area.y + area.height - 1,
            cols,
            "─",
            self.theme.accent(),
        );
    }

    fn state_value(&self) -> State {
        State::None
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        CmdResult::Invalid(cmd)
    }
}

impl Footer {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Text, AttrValue::String(s)) => self.notice = Some(s.clone()),
            (Attribute::Text, AttrValue::Payload(PropPayload::None)) => self.notice = None,
            (Attribute::Content, AttrValue::Payload(PropPayload::Vec(hints))) => {
                self.hints = vec![
                    hints
                        .iter()
                        .filter_map(|hint| match hint {
                            PropValue::Str(hint) => Some(hint.clone()),
                            _ => None,
                        })
                        .collect(),
                ];
            }
            (Attribute::Content, value) => {
                if let Some(groups) = crate::realm::payload_ref::<Vec<Vec<String>>>(value) {
                    self.hints = groups.clone();
                }
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Text => self.notice.clone().map(AttrValue::String),
            Attribute::Content => Some(match self.hints.as_slice() {
                [] => AttrValue::Payload(PropPayload::Vec(Vec::new())),
                [group] => AttrValue::Payload(PropPayload::Vec(
                    group.iter().cloned().map(PropValue::Str).collect(),
                )),
                _ => crate::realm::payload(self.hints.clone()),
            }),
            other => self.props.get(other),
        }
    }
}

realm_component!(Footer);
