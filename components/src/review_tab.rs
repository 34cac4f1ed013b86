//! ReviewTab: every question with its answer and notes, and the Submit / Elaborate / Cancel
//! actions with their numbers: beside the review on a wide area, below it on a narrow one, as the
//! original lays them out.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, moved, payload, payload_ref, realm_component};
use crate::strings::NOTE_LABEL;
use crate::text::{Labelled, put_segments, wrap, wrap_labelled};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue};

/// Most lines a note written in Markdown is laid out to.
const MAX_NOTE_LINES: usize = 128;

/// Width of the action column beside the review (`❯ 2. Elaborate`).
const ACTION_COLUMN: usize = 14;
/// Columns the action column and its gap take from the review beside it.
const BESIDE_REVIEW: usize = ACTION_COLUMN + 2;
/// Narrowest area the actions go beside the review in.
const SIDE_BY_SIDE_MIN: usize = 64;
/// Narrowest review column beside the actions.
const MIN_REVIEW_WIDTH: usize = 24;

/// One line under a question in the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewLine {
    /// `→ unanswered`: the question has no answer yet.
    Unanswered,
    /// `→ unanswered · required`: a question marked required has no answer yet (advisory: the
    /// form still submits), in the warning colour.
    UnansweredRequired,
    /// A chosen label (or free-form text when `custom`).
    Answer {
        /// The label or the person's own words.
        text: String,
        /// Whether `text` is the person's own words (drawn as such).
        custom: bool,
    },
    /// A note on the answer (its Markdown rendered).
    Note(String),
    /// A note on an option that is not part of the answer (shown while Elaborate is highlighted).
    OptionNote {
        /// The option's label.
        option: String,
        /// The note.
        note: String,
    },
}

/// One question in the review.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewEntry {
    /// The question's short label (`Q1`, or its own).
    pub label: String,
    /// Its answers and notes, in order.
    pub lines: Vec<ReviewLine>,
}

/// The review tab: `Review answers`, each question with its answers and notes, then the
/// numbered actions (Submit, Elaborate, Cancel) and an optional hint under them.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Content` | [`payload`] of `Vec<ReviewEntry>` | the questions with their answers and notes |
/// | `Custom(`[`attr::ACTIONS`]`)` | `Payload(Vec(Str, Str, Str))` | the three action labels (translations) |
/// | `Value` | `Length` | the highlighted action (0 submit, 1 elaborate, 2 cancel) |
/// | `Text` | `String`, or `Payload(None)` | the hint under the actions |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// **State:** `Single(Usize(highlighted action))`.
///
/// **Perform:** `Move(Up/Down)`, `GoTo(Begin/End)` → `Changed(state)`, or `NoChange` at the
/// edge; `Submit` → `Submit(state)`: the action chosen; anything else → `Invalid`.
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
/// use pi_ask_components::{ReviewEntry, ReviewLine, ReviewTab};
///
/// let keys = [Key::Down, Key::Down, Key::Down, Key::Enter];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Down, .. }) => Some(Cmd::Move(Direction::Down)),
///     Event::Keyboard(KeyEvent { code: Key::Enter, .. }) => Some(Cmd::Submit),
///     _ => None,
/// };
/// app.mount("review", Box::new(Mounted::new(ReviewTab::default(), bindings)), vec![]).unwrap();
/// app.active(&"review").unwrap();
/// let entries = vec![ReviewEntry {
///     label: "Language".into(),
///     lines: vec![ReviewLine::Answer { text: "Rust".into(), custom: false }],
/// }];
/// app.attr(&"review", Attribute::Content, payload(entries)).unwrap();
/// let labels = ["Absenden", "Ausführen", "Abbrechen"].map(|l| PropValue::Str(l.into()));
/// app.attr(&"review", Attribute::Custom(attr::ACTIONS), AttrValue::Payload(PropPayload::Vec(labels.into())))
///     .unwrap();
/// let mut results = Vec::new();
/// for _ in 0..4 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let at = |n| State::Single(StateValue::Usize(n));
/// assert_eq!(results, vec![
///     CmdResult::Changed(at(1)),
///     CmdResult::Changed(at(2)),
///     CmdResult::NoChange,
///     CmdResult::Submit(at(2)), // Cancel was chosen
/// ]);
/// ```
#[derive(Debug, Clone)]
pub struct ReviewTab {
    /// Every question with its answers and notes.
    pub entries: Vec<ReviewEntry>,
    /// The labels of Submit, Elaborate and Cancel, in that order.
    pub actions: [String; 3],
    /// The highlighted action (0 submit, 1 elaborate, 2 cancel).
    pub selected: usize,
    /// A line under the actions (a pending shortcut's `press 1 again`), if any.
    pub hint: Option<String>,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

impl Default for ReviewTab {
    fn default() -> Self {
        ReviewTab {
            entries: Vec::new(),
            actions: crate::strings::REVIEW_ACTIONS.map(String::from),
            selected: 0,
            hint: None,
            theme: Theme::default(),
            props: Props::default(),
        }
    }
}

/// One drawn line: styled segments.
type Row = Vec<(String, Style)>;

impl ReviewTab {
    /// `Review answers`, then each question with its answers and notes (`Note:` labels in the
    /// warning colour, as the original draws them).
    fn review_lines(&self, cols: usize) -> Vec<Row> {
        let t = &self.theme;
        let mut out: Vec<Row> = vec![
            vec![(format!(" {}", crate::strings::REVIEW_HEADING), t.accent())],
            Vec::new(),
        ];
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push(Vec::new());
            }
            for l in wrap(&format!(" {}", entry.label), cols) {
                out.push(vec![(l, t.text())]);
            }
            for line in &entry.lines {
                // A note written in Markdown: `Note:`, then its rendered lines under it.
                if let ReviewLine::Note(note) = line
                    && crate::markdown::renders(
                        note,
                        cols.saturating_sub(5).max(1),
                        MAX_NOTE_LINES,
                        t,
                    )
                {
                    out.push(vec![
                        ("     ".to_owned(), t.muted()),
                        ("Note:".to_owned(), t.warning()),
                    ]);
                    for rendered in crate::markdown::render(
                        note,
                        cols.saturating_sub(5).max(1),
                        MAX_NOTE_LINES,
                        t.muted(),
                        t,
                    ) {
                        let mut row = vec![("     ".to_owned(), t.muted())];
                        row.extend(
                            rendered
                                .spans
                                .into_iter()
                                .map(|s| (s.content.into_owned(), s.style)),
                        );
                        out.push(row);
                    }
                    continue;
                }
                let room = cols.saturating_sub(5).max(1);
                let plain = |text: &str| -> Vec<Labelled> {
                    wrap(text, room).into_iter().map(Labelled::plain).collect()
                };
                let (first, lines, style) = match line {
                    ReviewLine::Unanswered => ("   → ", plain("unanswered"), t.dim()),
                    ReviewLine::UnansweredRequired => {
                        ("   → ", plain("unanswered · required"), t.warning())
                    }
                    ReviewLine::Answer { text, custom } => (
                        "   → ",
                        plain(text),
                        if *custom { t.text() } else { t.success() },
                    ),
                    ReviewLine::Note(note) => (
                        "     ",
                        wrap_labelled(NOTE_LABEL, note, room, usize::MAX),
                        t.muted(),
                    ),
                    ReviewLine::OptionNote { option, note } => (
                        "     ",
                        plain(&format!("{option} {NOTE_LABEL} {note}")),
                        t.muted(),
                    ),
                };
                for (n, line) in lines.into_iter().enumerate() {
                    let indent = if n == 0 { first } else { "     " };
                    let mut row = vec![(indent.to_owned(), style)];
                    if !line.label.is_empty() {
                        row.push((line.label, t.warning()));
                    }
                    row.push((line.text, style));
                    out.push(row);
                }
            }
        }
        out
    }

    /// The actions, then the pending-shortcut hint.
    fn action_lines(&self, cols: usize) -> Vec<Row> {
        let mut out = self.action_rows();
        out.extend(self.hint_lines(cols));
        out
    }

    /// The pending-shortcut hint under a blank line, if any.
    fn hint_lines(&self, cols: usize) -> Vec<Row> {
        let Some(hint) = &self.hint else {
            return Vec::new();
        };
        std::iter::once(Vec::new())
            .chain(
                wrap(&format!(" {hint}"), cols)
                    .into_iter()
                    .map(|l| vec![(l, self.theme.dim())]),
            )
            .collect()
    }

    /// The actions, one a row.
    fn action_rows(&self) -> Vec<Row> {
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
                vec![(format!("{pointer} {}. {a}", i + 1), style)]
            })
            .collect()
    }

    /// Whether the actions go beside the review at this width (the original's rule: at least 64
    /// columns, and 24 of them left for the review).
    pub fn side_by_side(cols: usize) -> bool {
        cols >= SIDE_BY_SIDE_MIN && cols - BESIDE_REVIEW >= MIN_REVIEW_WIDTH
    }

    /// The actions (each padded to the action column) beside the review's lines, row by row.
    fn merged_rows(&self, cols: usize) -> Vec<Row> {
        let review = self.review_lines(cols - BESIDE_REVIEW);
        let actions = self.action_rows();
        let rows = review.len().max(actions.len());
        let mut review = review.into_iter();
        let mut actions = actions.into_iter();
        (0..rows)
            .map(|_| {
                let mut row: Row = match actions.next() {
                    Some(action) => action
                        .into_iter()
                        .map(|(text, style)| {
                            let pad = ACTION_COLUMN.saturating_sub(crate::text::width(&text));
                            (format!("{text}{}  ", " ".repeat(pad)), style)
                        })
                        .collect(),
                    None => vec![(" ".repeat(BESIDE_REVIEW), self.theme.text())],
                };
                row.extend(review.next().unwrap_or_default());
                row
            })
            .collect()
    }

    /// Every line of the tab at a width: on a wide area the actions beside the review, else
    /// stacked as the original stacks them (the review, then the actions); the hint last.
    pub fn lines(&self, cols: usize) -> Vec<Vec<(String, Style)>> {
        if ReviewTab::side_by_side(cols) {
            let mut out = self.merged_rows(cols);
            out.extend(self.hint_lines(cols));
            return out;
        }
        let mut out = self.review_lines(cols);
        out.push(Vec::new());
        out.extend(self.action_lines(cols));
        out
    }

    /// Draws the tab. When it is taller than the area, the actions stay in view and the review is
    /// cut with a `↓ N more lines` marker.
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        let cols = area.width as usize;
        let right = area.x + area.width;
        let height = area.height as usize;
        let mut lines = self.lines(cols);
        if lines.len() > height && ReviewTab::side_by_side(cols) {
            // The actions are the top rows: the review is cut at the bottom, above the hint.
            let hint = self.hint_lines(cols);
            let keep = height.saturating_sub(hint.len());
            let mut rows = self.merged_rows(cols);
            if keep > self.actions.len() {
                let hidden = rows.len() - (keep - 1);
                rows.truncate(keep - 1);
                rows.push(vec![
                    (" ".repeat(BESIDE_REVIEW), self.theme.text()),
                    (format!("   ↓ {hidden} more lines"), self.theme.dim()),
                ]);
                rows.extend(hint);
                lines = rows;
            }
        }
        if lines.len() > height {
            let actions = self.action_lines(cols);
            let keep = height.saturating_sub(actions.len() + 1);
            let review = self.review_lines(cols);
            let mut head: Vec<Row> = review.into_iter().take(keep).collect();
            if keep > 0 {
                let hidden = lines.len() - actions.len() - 1 - (keep - 1);
                head[keep - 1] = vec![(format!("   ↓ {hidden} more lines"), self.theme.dim())];
                head.push(Vec::new());
            }
            head.extend(actions);
            lines = head;
            // Too short even for the actions: keep the highlighted one.
            if lines.len() > height {
                let skip = (self.selected + 1).saturating_sub(height);
                lines = lines.into_iter().skip(skip).collect();
            }
        }
        for (i, row) in lines.into_iter().take(height).enumerate() {
            put_segments(buf, area.x, area.y + i as u16, right, row);
        }
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.selected))
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let before = self.state_value();
        let last = self.actions.len() - 1;
        self.selected = match cmd {
            Cmd::Move(Direction::Down) => (self.selected + 1).min(last),
            Cmd::Move(Direction::Up) => self.selected.saturating_sub(1),
            Cmd::GoTo(Position::Begin) => 0,
            Cmd::GoTo(Position::End) => last,
            Cmd::Submit => return CmdResult::Submit(before),
            other => return CmdResult::Invalid(other),
        };
        moved(before, self.state_value())
    }
}

impl ReviewTab {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Value, AttrValue::Length(n)) => {
                self.selected = (*n).min(self.actions.len() - 1)
            }
            (Attribute::Text, AttrValue::String(s)) => self.hint = Some(s.clone()),
            (Attribute::Text, AttrValue::Payload(PropPayload::None)) => self.hint = None,
            (Attribute::Content, value) => {
                if let Some(entries) = payload_ref::<Vec<ReviewEntry>>(value) {
                    self.entries = entries.clone();
                }
            }
            (Attribute::Custom(attr::ACTIONS), AttrValue::Payload(PropPayload::Vec(labels))) => {
                for (slot, label) in self.actions.iter_mut().zip(labels) {
                    if let PropValue::Str(label) = label {
                        *slot = label.clone();
                    }
                }
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Value => Some(AttrValue::Length(self.selected)),
            Attribute::Text => self.hint.clone().map(AttrValue::String),
            Attribute::Content => Some(payload(self.entries.clone())),
            Attribute::Custom(attr::ACTIONS) => Some(AttrValue::Payload(PropPayload::Vec(
                self.actions.iter().cloned().map(PropValue::Str).collect(),
            ))),
            other => self.props.get(other),
        }
    }
}

realm_component!(ReviewTab);
