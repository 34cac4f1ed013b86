//! SettingsModal: the settings list in a rounded box — live toggles, defaults for future asks, a
//! guarded reset action, the focused setting's description and the config file path.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, BorderType, Borders, Clear, Widget};
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, moved, payload, payload_ref, realm_component};
use crate::text::{put_segments, truncate, width, wrap};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute, PropPayload};

/// One row of the settings list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsItem {
    /// A section heading (not focusable).
    Section(String),
    /// An on/off setting.
    Toggle {
        /// What it turns on.
        label: String,
        /// Whether it is on (`[on]`, else `[off]`).
        on: bool,
        /// Shown under the list while the toggle has focus.
        description: String,
    },
    /// The reset action.
    Reset {
        /// Pressed once: a second press within the window resets (drawn as a warning).
        armed: bool,
        /// Shown under the list while the action has focus.
        description: String,
    },
    /// A setting of a few values, each press the next: `Theme  [auto]`.
    Choice {
        /// What it chooses.
        label: String,
        /// The value now (drawn in brackets, as a toggle's).
        value: String,
        /// Shown under the list while the row has focus.
        description: String,
    },
    /// A fact shown beside its label (not focusable).
    Info {
        /// What the fact is.
        label: String,
        /// Its value.
        value: String,
    },
}

impl SettingsItem {
    /// A toggle's or a choice's label and the value drawn in brackets after it.
    fn bracketed(&self) -> Option<(&str, &str)> {
        match self {
            SettingsItem::Toggle { label, on, .. } => Some((label, if *on { "on" } else { "off" })),
            SettingsItem::Choice { label, value, .. } => Some((label, value)),
            _ => None,
        }
    }

    fn focusable(&self) -> bool {
        matches!(
            self,
            SettingsItem::Toggle { .. } | SettingsItem::Choice { .. } | SettingsItem::Reset { .. }
        )
    }
}

/// A message shown under the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsNotice {
    /// Something went wrong (a save failed): drawn in the error colour.
    Error(String),
    /// Information (a setting saved, a reset armed).
    Info(String),
}

/// The settings modal: a rounded box with the title, the config path, sections of toggles, a
/// reset action and facts, the focused setting's description, a notice and key hints.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Title` | `String` | the box's title |
/// | `Text` | `String` | the config file's path |
/// | `Content` | [`payload`] of `Vec<SettingsItem>` | the rows |
/// | `Value` | `Length` | the focused row, among the focusable ones (toggles and reset) |
/// | `Custom(`[`attr::NOTICE`]`)` | [`SettingsNotice`] payload, or `Payload(None)` | the message under the list |
/// | `Custom(`[`attr::FOOTER`]`)` | `String` | the key hints under the box |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// Setting the rows keeps the focus (clamped). The modal does not flip a toggle itself: the
/// settings belong to the host, which sets the rows again.
///
/// **State:** `Single(Usize(focused row))`.
///
/// **Perform:** `Move(Up/Down)` (wrapping), `GoTo(Begin/End)` → `Changed(state)`, or
/// `NoChange`; `Toggle` or `Submit` → `Submit(state)`: the row to toggle (or reset), `NoChange`
/// with no focusable row; anything else → `Invalid`.
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
/// use pi_ask_components::{SettingsItem, SettingsModal};
///
/// let keys = [Key::Down, Key::Enter];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Down, .. }) => Some(Cmd::Move(Direction::Down)),
///     Event::Keyboard(KeyEvent { code: Key::Enter, .. }) => Some(Cmd::Toggle),
///     _ => None,
/// };
/// app.mount("settings", Box::new(Mounted::new(SettingsModal::default(), bindings)), vec![]).unwrap();
/// app.active(&"settings").unwrap();
/// let toggle = |label: &str, on| SettingsItem::Toggle {
///     label: label.into(),
///     on,
///     description: String::new(),
/// };
/// let items = vec![
///     SettingsItem::Section("This ask".into()),
///     toggle("Show numbers", true),
///     toggle("Wrap descriptions", false),
/// ];
/// app.attr(&"settings", Attribute::Content, payload(items)).unwrap();
/// let mut results = Vec::new();
/// for _ in 0..2 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let at = |n| State::Single(StateValue::Usize(n));
/// assert_eq!(results, vec![CmdResult::Changed(at(1)), CmdResult::Submit(at(1))]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SettingsModal {
    /// The box's title.
    pub title: String,
    /// The config file's path, shortened in the middle to fit.
    pub path: String,
    /// The rows, in order.
    pub items: Vec<SettingsItem>,
    /// Index among the focusable items (toggles and reset).
    pub focus: usize,
    /// A message under the list, if any.
    pub notice: Option<SettingsNotice>,
    /// The key hints under the box.
    pub footer: String,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

/// A path shortened in the middle to `max` columns, keeping its file name: `/home/u/…/pi-ask.toml`.
pub fn elide_middle(path: &str, max: usize) -> String {
    if width(path) <= max {
        return path.to_owned();
    }
    let (dir, name) = match path.rfind('/') {
        Some(i) => (&path[..i + 1], &path[i + 1..]),
        None => ("", path),
    };
    let name_width = width(name);
    if name_width + 2 > max {
        // Not even the name fits: its end, which carries the extension.
        let tail: String = name
            .chars()
            .rev()
            .scan(0, |w, c| {
                *w += width(&c.to_string());
                (*w < max).then_some(c)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return format!("…{tail}");
    }
    let keep = max - name_width - 2; // `…/`
    let start = truncate_plain(dir, keep);
    format!("{start}…/{name}")
}

/// The longest prefix of `text` within `cols` columns.
fn truncate_plain(text: &str, cols: usize) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if width(&out) + width(&c.to_string()) > cols {
            break;
        }
        out.push(c);
    }
    out
}

/// Widest the modal gets.
pub const MODAL_WIDTH: u16 = 72;

impl SettingsModal {
    fn focusable(&self) -> usize {
        self.items.iter().filter(|i| i.focusable()).count()
    }

    fn focused_description(&self) -> Option<&str> {
        self.items
            .iter()
            .filter(|i| i.focusable())
            .nth(self.focus)
            .map(|i| match i {
                SettingsItem::Toggle { description, .. }
                | SettingsItem::Choice { description, .. }
                | SettingsItem::Reset { description, .. } => description.as_str(),
                SettingsItem::Section(_) | SettingsItem::Info { .. } => "",
            })
    }

    /// The content lines at an inner width.
    pub fn lines(&self, inner: usize) -> Vec<Vec<(String, Style)>> {
        self.build(inner).0
    }

    /// The content lines, the line of the focused row, and how many lines at the end (the
    /// message and the key hint) must stay visible whatever the height.
    fn build(&self, inner: usize) -> (Vec<Vec<(String, Style)>>, usize, usize) {
        let mut focus_line = 0;
        let t = &self.theme;
        let centre = |s: &str| {
            let s = truncate(s, inner);
            let left = (inner.saturating_sub(width(&s))) / 2;
            format!("{}{s}", " ".repeat(left))
        };
        let mut out: Vec<Vec<(String, Style)>> =
            vec![vec![(centre(&self.title), t.accent())], vec![]];
        for l in wrap(
            " Edit this config file to customize keymaps, notifications, and extraction settings:",
            inner,
        ) {
            out.push(vec![(l, t.muted())]);
        }
        out.push(vec![(centre(&elide_middle(&self.path, inner)), t.accent())]);
        out.push(vec![]);
        let mut focus_index = 0;
        for item in &self.items {
            match item {
                SettingsItem::Section(name) => {
                    if out.last().is_some_and(|l| !l.is_empty()) && focus_index > 0 {
                        out.push(vec![]);
                    }
                    out.push(vec![(format!(" {name}"), t.text())]);
                }
                SettingsItem::Toggle { .. } | SettingsItem::Choice { .. } => {
                    let Some((label, value)) = item.bracketed() else {
                        continue;
                    };
                    let focused = focus_index == self.focus;
                    let pointer = if focused { "❯ " } else { "  " };
                    let value_cols = width(value) + 2;
                    let label_room = inner.saturating_sub(value_cols + 3).max(1);
                    let parts = wrap(label, label_room);
                    let n_parts = parts.len();
                    if focused {
                        focus_line = out.len();
                    }
                    for (n, part) in parts.into_iter().enumerate() {
                        let lead = if n == 0 { pointer } else { "  " };
                        let label_style = if focused { t.accent() } else { t.text() };
                        let mut row = vec![(format!("{lead}{part}"), label_style)];
                        if n + 1 == n_parts {
                            let used = 2 + width(&row[0].0) - 2;
                            let gap = inner.saturating_sub(used + value_cols);
                            let value_style = if focused {
                                t.on_selected(t.accent())
                            } else {
                                t.text()
                            };
                            row.push((" ".repeat(gap), t.text()));
                            row.push(("[".into(), t.dim()));
                            row.push((value.into(), value_style));
                            row.push(("]".into(), t.dim()));
                        }
                        out.push(row);
                    }
                    focus_index += 1;
                }
                SettingsItem::Info { label, value } => {
                    // The label, then the value right-aligned (on the next line when both do
                    // not fit side by side).
                    let label = format!("  {label}");
                    let value = truncate(value, inner.saturating_sub(2));
                    let gap = inner.saturating_sub(width(&label) + width(&value) + 1);
                    if gap >= 1 {
                        out.push(vec![
                            (label, t.text()),
                            (" ".repeat(gap), t.text()),
                            (value, t.muted()),
                        ]);
                    } else {
                        out.push(vec![(truncate(&label, inner), t.text())]);
                        let left = inner.saturating_sub(width(&value) + 1);
                        out.push(vec![(" ".repeat(left), t.text()), (value, t.muted())]);
                    }
                }
                SettingsItem::Reset { armed, .. } => {
                    let focused = focus_index == self.focus;
                    let text = if *armed {
                        "[confirm reset]"
                    } else {
                        "[reset all]"
                    };
                    let style = if focused {
                        t.on_selected(t.accent())
                    } else {
                        t.text()
                    };
                    let left = inner.saturating_sub(width(text)) / 2;
                    if focused {
                        focus_line = out.len();
                    }
                    out.push(vec![(" ".repeat(left), t.text()), (text.into(), style)]);
                    focus_index += 1;
                }
            }
        }
        out.push(vec![]);
        let mut description = self
            .focused_description()
            .map(|d| wrap(&format!(" {d}"), inner))
            .unwrap_or_default();
        description.resize(3, String::new());
        out.extend(
            description
                .into_iter()
                .take(3)
                .map(|l| vec![(l, t.muted())]),
        );
        let tail_start = out.len();
        match &self.notice {
            Some(SettingsNotice::Error(e)) => out.extend(
                wrap(&format!(" {e}"), inner)
                    .into_iter()
                    .map(|l| vec![(l, t.error())]),
            ),
            Some(SettingsNotice::Info(i)) => out.extend(
                wrap(&format!(" {i}"), inner)
                    .into_iter()
                    .map(|l| vec![(l, t.warning())]),
            ),
            None => {}
        }
        out.push(vec![]);
        out.extend(
            wrap(&format!(" {}", self.footer), inner)
                .into_iter()
                .map(|l| vec![(l, t.dim())]),
        );
        let tail = out.len() - tail_start;
        (out, focus_line, tail)
    }

    /// The rectangle the modal takes inside `screen` (centred, at most [`MODAL_WIDTH`] wide).
    pub fn area(&self, screen: Rect) -> Rect {
        let w = screen.width.min(MODAL_WIDTH).max(screen.width.min(26));
        let inner = w.saturating_sub(2).max(1) as usize;
        let h = (self.lines(inner).len() as u16 + 2).min(screen.height);
        Rect::new(
            screen.x + (screen.width - w) / 2,
            screen.y + (screen.height - h) / 2,
            w,
            h,
        )
    }

    /// Draws the modal centred on `screen` (clearing what is under it).
    pub fn render(&mut self, screen: Rect, buf: &mut Buffer) {
        let area = self.area(screen);
        if area.width < 4 || area.height < 3 {
            return;
        }
        Clear.render(area, buf);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Rounded)
            .border_style(self.theme.border_muted());
        let inner = block.inner(area);
        block.render(area, buf);
        let (lines, focus_line, tail) = self.build(inner.width as usize);
        let height = inner.height as usize;
        let right = inner.x + inner.width;
        // Too tall: the message and key hint stay at the bottom (whole, when they fit), and the
        // rest scrolls to keep the focused row in view.
        let (head, tail_rows) = if lines.len() <= height {
            (lines, Vec::new())
        } else {
            let tail = tail.min(height.saturating_sub(1));
            let split = lines.len() - tail;
            let mut head = lines;
            let tail_rows = head.split_off(split);
            let room = height - tail_rows.len();
            let skip = (focus_line + 1)
                .saturating_sub(room)
                .min(head.len().saturating_sub(room));
            (head.into_iter().skip(skip).take(room).collect(), tail_rows)
        };
        let tail_y = inner.y + inner.height - tail_rows.len() as u16;
        for (i, row) in head.into_iter().take(height).enumerate() {
            put_segments(buf, inner.x, inner.y + i as u16, right, row);
        }
        for (i, row) in tail_rows.into_iter().enumerate() {
            put_segments(buf, inner.x, tail_y + i as u16, right, row);
        }
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.focus))
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let before = self.state_value();
        let n = self.focusable().max(1);
        self.focus = match cmd {
            Cmd::Move(Direction::Down) => (self.focus + 1) % n,
            Cmd::Move(Direction::Up) => (self.focus + n - 1) % n,
            Cmd::GoTo(Position::Begin) => 0,
            Cmd::GoTo(Position::End) => n - 1,
            Cmd::Toggle | Cmd::Submit if self.focusable() > 0 => {
                return CmdResult::Submit(before);
            }
            Cmd::Toggle | Cmd::Submit => return CmdResult::NoChange,
            other => return CmdResult::Invalid(other),
        };
        moved(before, self.state_value())
    }
}

impl SettingsModal {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Title, AttrValue::String(s)) => self.title = s.clone(),
            (Attribute::Text, AttrValue::String(s)) => self.path = s.clone(),
            (Attribute::Value, AttrValue::Length(n)) => {
                self.focus = (*n).min(self.focusable().saturating_sub(1))
            }
            (Attribute::Content, value) => {
                if let Some(items) = payload_ref::<Vec<SettingsItem>>(value) {
                    self.items = items.clone();
                    self.focus = self.focus.min(self.focusable().saturating_sub(1));
                }
            }
            (Attribute::Custom(attr::NOTICE), AttrValue::Payload(PropPayload::None)) => {
                self.notice = None
            }
            (Attribute::Custom(attr::NOTICE), value) => {
                if let Some(notice) = payload_ref::<SettingsNotice>(value) {
                    self.notice = Some(notice.clone());
                }
            }
            (Attribute::Custom(attr::FOOTER), AttrValue::String(s)) => self.footer = s.clone(),
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Title => Some(AttrValue::String(self.title.clone())),
            Attribute::Text => Some(AttrValue::String(self.path.clone())),
            Attribute::Value => Some(AttrValue::Length(self.focus)),
            Attribute::Content => Some(payload(self.items.clone())),
            Attribute::Custom(attr::NOTICE) => Some(match &self.notice {
                Some(notice) => payload(notice.clone()),
                None => AttrValue::Payload(PropPayload::None),
            }),
            Attribute::Custom(attr::FOOTER) => Some(AttrValue::String(self.footer.clone())),
            other => self.props.get(other),
        }
    }
}

realm_component!(SettingsModal);
