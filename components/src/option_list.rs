//! OptionList: numbered option rows with the cursor marker, `[ ]`/`[x]` on multi questions,
//! dimmed descriptions, the warning-coloured `(recommended)` marker, notes and saved free-form text
//! under their rows, and an editor slot. Each row's wrapped text is laid out once per width and
//! cached; a frame then draws only the visible rows, and measuring the whole list sums cached
//! heights (a few nanoseconds a row), so a key on a long list costs about what it costs on a
//! short one.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, moved, payload, payload_ref, realm_component};
use crate::text::{Labelled, put, width, wrap, wrap_labelled};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute, PropPayload, PropValue};

/// The fixed content of one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionRow {
    /// The option's label (drawn after its number; wraps, never cut).
    pub label: String,
    /// Its description under the label, Markdown rendered; `None` for none.
    pub description: Option<String>,
    /// Marked `(recommended)` before the description.
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
    /// The free-form row: it shows no checkbox until it has saved text, as in the original.
    pub custom_row: Option<usize>,
    /// A freeform question (extracted from prose): its one row is a label with no number and no
    /// caret, a blank line, then the editor or the saved text, indented one column.
    pub freeform: bool,
}

/// A filtered view of a list's rows: which rows show, in what order, and which characters of
/// each label matched (to highlight). While a subset is set, every row index the list takes or
/// reports (the cursor, chosen rows, notes, numbers drawn) is a position in the subset.
///
/// The matched characters of every row sit in one buffer, so a subset of ten thousand rows is
/// three allocations, built and copied at the cost of a few `memcpy`s.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subset {
    rows: Vec<usize>,
    /// The matched label characters (char indices, ascending) of every row, one after another.
    hits: Vec<u32>,
    /// Where each row's characters end in `hits`.
    ends: Vec<u32>,
}

impl Subset {
    /// Every one of `count` rows, in order, nothing highlighted.
    pub fn all(count: usize) -> Subset {
        Subset {
            rows: (0..count).collect(),
            hits: Vec::new(),
            ends: vec![0; count],
        }
    }

    /// Shows `row` next, with these label characters (char indices, ascending) highlighted.
    pub fn push(&mut self, row: usize, hits: &[u32]) {
        self.rows.push(row);
        self.hits.extend_from_slice(hits);
        self.ends
            .push(u32::try_from(self.hits.len()).unwrap_or(u32::MAX));
    }

    /// The rows shown, in order, as indices into the list's rows.
    pub fn rows(&self) -> &[usize] {
        &self.rows
    }

    /// Rows of the subset.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the subset has no row.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The highlighted label characters of the row shown at `position`.
    pub fn hits(&self, position: usize) -> &[u32] {
        let Some(&end) = self.ends.get(position) else {
            return &[];
        };
        let start = position
            .checked_sub(1)
            .and_then(|p| self.ends.get(p))
            .copied()
            .unwrap_or(0);
        self.hits
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }
}

/// The wrapped text of a row at one width (without state-dependent extras).
#[derive(Debug, Clone)]
struct RowLayout {
    /// The label's lines (the first follows `N. ` and the checkbox).
    label: Vec<String>,
    /// The description lines (its Markdown rendered), or the `(recommended) | description` lines.
    subtitle: Vec<ratatui::text::Line<'static>>,
}

/// Wrapped rows for one `(columns, checkboxes)` combination, filled in as rows are drawn.
#[derive(Debug, Clone, Default)]
struct LayoutCache {
    /// Columns, checkboxes, rows.
    key: (usize, bool, usize),
    /// The theme the cached lines are styled with.
    theme: Option<Theme>,
    rows: Vec<Option<RowLayout>>,
    /// The label and subtitle lines of every row together, once all are laid out.
    base_total: Option<usize>,
}

/// The option list. Rows are shared (`Arc`) so a frame never copies them, and their wrapped
/// text is cached per width, so a frame only lays out what changed.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Content` | [`payload`] of `Vec<OptionRow>` or `Arc<Vec<OptionRow>>` | the rows: labels, descriptions (Markdown rendered), `(recommended)` |
/// | `Content` | `Payload(Vec(Str…))` | rows from plain labels |
/// | `Custom(`[`attr::STATE`]`)` | [`payload`] of [`OptionListState`] | checkboxes, chosen rows, saved texts, notes, the editor slot, the cursor |
/// | `Custom(`[`attr::SUBSET`]`)` | [`payload`] of [`Subset`], or `Payload(None)` | a filtered view (row numbers are then positions in it) |
/// | `Value` | `Length` | the cursor |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// Setting rows keeps the cursor, chosen rows and notes (clamped to the new rows).
///
/// **State:** `Single(Usize(cursor))`, a position among the rows drawn.
///
/// **Perform:** `Move(Up/Down)`, `Scroll(Up/Down)` (a page: the rows drawn last),
/// `GoTo(Begin/End)` → `Changed(state)`, or `NoChange` at the edge; `Submit` →
/// `Submit(state)` (the highlighted row is picked); `Toggle` with checkboxes → `Custom(`[`TOGGLED`]`,
/// Vec(chosen rows))`, without → `NoChange`; anything else → `Invalid`.
///
/// ```
/// use std::time::Duration;
/// use pi_ask_components::realm::{attr, payload, Mounted, ScriptedInput};
/// use pi_ask_components::option_list::TOGGLED;
/// use pi_ask_components::{OptionList, OptionListState, OptionRow};
/// use tuirealm::application::{Application, PollStrategy};
/// use tuirealm::command::{Cmd, CmdResult, Direction};
/// use tuirealm::event::{Event, Key, KeyEvent, NoUserEvent};
/// use tuirealm::listener::EventListenerCfg;
/// use tuirealm::props::Attribute;
/// use tuirealm::state::{State, StateValue};
///
/// let keys = [Key::Down, Key::Char(' '), Key::Down, Key::Down];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// // The host's bindings: Down moves, Space toggles.
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Down, .. }) => Some(Cmd::Move(Direction::Down)),
///     Event::Keyboard(KeyEvent { code: Key::Char(' '), .. }) => Some(Cmd::Toggle),
///     _ => None,
/// };
/// let list = Mounted::new(OptionList::new(Default::default()), bindings);
/// app.mount("options", Box::new(list), vec![]).unwrap();
/// app.active(&"options").unwrap();
///
/// let row = |label: &str, description: Option<&str>| OptionRow {
///     label: label.into(),
///     description: description.map(str::to_owned),
///     recommended: label == "Rust",
/// };
/// let rows = vec![row("TypeScript", None), row("Rust", Some("*Fast*")), row("Go", None)];
/// app.attr(&"options", Attribute::Content, payload(rows)).unwrap();
/// let state = OptionListState { checkboxes: true, ..OptionListState::default() };
/// app.attr(&"options", Attribute::Custom(attr::STATE), payload(state)).unwrap();
///
/// let mut results = Vec::new();
/// for _ in 0..4 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let at = |row| State::Single(StateValue::Usize(row));
/// assert_eq!(results, vec![
///     CmdResult::Changed(at(1)),
///     CmdResult::Custom(TOGGLED, State::Vec(vec![StateValue::Usize(1)])),
///     CmdResult::Changed(at(2)),
///     CmdResult::NoChange, // already on the last row
/// ]);
/// assert_eq!(app.state(&"options").unwrap(), at(2));
/// ```
#[derive(Debug, Clone)]
pub struct OptionList {
    rows: Arc<Vec<OptionRow>>,
    /// What changes from key to key: cursor, checkboxes, chosen rows, saved texts, notes, editor slot.
    pub state: OptionListState,
    /// First visible row (kept so the cursor stays visible with minimal scrolling).
    offset: usize,
    cache: LayoutCache,
    /// The filtered view drawn instead of every row, if any.
    subset: Option<Subset>,
    /// Rows drawn whole in the last render (a page for PageUp/PageDown), and lines used.
    visible: usize,
    used: u16,
    /// Where the last render put the editor slot, if it was visible.
    slot: Option<Rect>,
    /// The widest `N. label` of the rows, measured once (rows never change).
    widest: std::cell::OnceCell<usize>,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
}

/// Indent of descriptions, notes and editors under a one-digit row (`❯ 1. `); rows with longer
/// numbers indent further, so details always start under their label.
pub const DETAIL_INDENT: u16 = 5;

/// The indent of details under row `index`: the width of `❯ N. `.
pub fn detail_indent(index: usize) -> u16 {
    // `❯ ` + the row number's digits + `. `, counted without formatting (this runs per row).
    let digits = (index + 1).checked_ilog10().map_or(1, |d| d as u16 + 1);
    2 + digits + 2
}

use crate::strings::{NOTE_LABEL, RECOMMENDED};

/// Most lines a description is laid out to (no screen shows more under one option).
const MAX_DESCRIPTION_LINES: usize = 128;

/// The indent of a freeform question's label, editor and text.
pub const FREEFORM_INDENT: u16 = 1;

impl OptionList {
    /// A list over `rows` (shared, never copied), cursor on the first row.
    pub fn new(rows: Arc<Vec<OptionRow>>) -> OptionList {
        OptionList {
            rows,
            state: OptionListState::default(),
            offset: 0,
            cache: LayoutCache::default(),
            subset: None,
            visible: 0,
            used: 0,
            slot: None,
            widest: std::cell::OnceCell::new(),
            theme: Theme::default(),
            props: Props::default(),
        }
    }

    /// Every row, whatever the filtered view.
    pub fn rows(&self) -> &[OptionRow] {
        &self.rows
    }

    /// Shows only `subset`'s rows (in its order, numbered from 1), or every row again with
    /// `None`. The scroll offset starts over and the layout cache is rebuilt for the new rows.
    pub fn set_subset(&mut self, subset: Option<Subset>) {
        if self.subset != subset {
            self.subset = subset;
            self.offset = 0;
            self.cache = LayoutCache::default();
        }
    }

    /// The filtered view shown, if any.
    pub fn subset(&self) -> Option<&Subset> {
        self.subset.as_ref()
    }

    /// Rows drawn: the subset's, or all of them.
    pub fn len(&self) -> usize {
        self.subset
            .as_ref()
            .map_or(self.rows.len(), |s| s.rows.len())
    }

    /// Whether no row is drawn.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The row drawn at position `index`.
    fn row(&self, index: usize) -> &OptionRow {
        match &self.subset {
            Some(s) => &self.rows[s.rows[index]],
            None => &self.rows[index],
        }
    }

    /// The label characters to highlight on row `index` (none without a subset).
    fn hits(&self, index: usize) -> &[u32] {
        self.subset.as_ref().map_or(&[], |s| s.hits(index))
    }

    /// The shared rows, for another list over the same options (no copy).
    pub fn shared_rows(&self) -> Arc<Vec<OptionRow>> {
        Arc::clone(&self.rows)
    }

    /// Columns of the widest `N. label` or subtitle (`(recommended) | description`), each as one
    /// unwrapped line, for sizing a list beside a pane (the original's rule: a list of long
    /// descriptions gets up to 34 columns instead of wrapping them over several lines).
    pub fn widest_label(&self) -> usize {
        *self.widest.get_or_init(|| {
            self.rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let label = detail_indent(i) as usize - 2 + width(&r.label);
                    let description = r.description.as_deref().map_or(0, |d| {
                        // Its longest line (a Markdown description keeps its own lines).
                        d.lines().map(width).max().unwrap_or(0)
                    });
                    let subtitle = match (r.recommended, description) {
                        (true, 0) => width(RECOMMENDED),
                        (true, d) => width(RECOMMENDED) + 3 + d,
                        (false, d) => d,
                    };
                    label.max(subtitle)
                })
                .max()
                .unwrap_or(0)
        })
    }

    /// The first row drawn (the list scrolls to keep the cursor's row whole).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Rows drawn in the last render.
    pub fn visible_rows(&self) -> usize {
        self.visible
    }

    /// Where a row's subtitle, notes and editor start.
    fn indent(&self, index: usize) -> u16 {
        if self.state.freeform {
            FREEFORM_INDENT
        } else {
            detail_indent(index)
        }
    }

    fn is_selected(&self, row: usize) -> bool {
        self.state.selected.contains(&row)
    }

    /// `N. ` plus the checkbox, as drawn before the label.
    fn head(&self, index: usize) -> String {
        if self.state.freeform {
            return String::new();
        }
        let bare_custom = self.state.custom_row == Some(index)
            && !self.state.texts.iter().any(|(row, _)| *row == index);
        let checkbox = match (
            self.state.checkboxes && !bare_custom,
            self.is_selected(index),
        ) {
            (false, _) => "",
            (true, true) => "[x] ",
            (true, false) => "[ ] ",
        };
        format!("{}. {checkbox}", index + 1)
    }

    /// The cached layout of a row at `cols` columns.
    fn layout(&mut self, index: usize, cols: usize) -> &RowLayout {
        let key = (cols, self.state.checkboxes, self.len());
        if self.cache.key != key || self.cache.theme != Some(self.theme) {
            self.cache = LayoutCache {
                key,
                theme: Some(self.theme),
                rows: Vec::new(),
                base_total: None,
            };
        }
        // Grown as rows are laid out: a filtered view re-made at each keystroke touches only the
        // rows it measures and draws.
        if index >= self.cache.rows.len() {
            self.cache.rows.resize(index + 1, None);
        }
        if self.cache.rows[index].is_none() {
            let row = self.row(index);
            let hang = if self.state.freeform {
                FREEFORM_INDENT as usize
            } else {
                detail_indent(index) as usize + if self.state.checkboxes { 4 } else { 0 }
            };
            let inner = cols.saturating_sub(self.indent(index) as usize).max(1);
            let t = self.theme;
            let muted = |l: String| ratatui::text::Line::from(Span::styled(l, t.muted()));
            // `(recommended)` in the warning colour, then the rest of its line muted.
            let recommended = |l: String| match l.strip_prefix(RECOMMENDED) {
                Some(rest) => ratatui::text::Line::from(vec![
                    Span::styled(RECOMMENDED, t.warning()),
                    Span::styled(rest.to_owned(), t.muted()),
                ]),
                None => muted(l),
            };
            let markdown = |d: &str| crate::markdown::renders(d, inner, MAX_DESCRIPTION_LINES, &t);
            let subtitle = match (&row.description, row.recommended) {
                // A Markdown description keeps its own lines under the marker.
                (Some(d), true) if markdown(d) => std::iter::once(recommended(RECOMMENDED.into()))
                    .chain(crate::markdown::render(
                        d,
                        inner,
                        MAX_DESCRIPTION_LINES,
                        t.muted(),
                        &t,
                    ))
                    .collect(),
                (Some(d), true) => wrap(&format!("{RECOMMENDED} | {d}"), inner)
                    .into_iter()
                    .enumerate()
                    .map(|(n, l)| if n == 0 { recommended(l) } else { muted(l) })
                    .collect(),
                (None, true) => vec![recommended(RECOMMENDED.to_owned())],
                (Some(d), false) => {
                    crate::markdown::render(d, inner, MAX_DESCRIPTION_LINES, t.muted(), &t)
                }
                (None, false) => Vec::new(),
            };
            self.cache.rows[index] = Some(RowLayout {
                label: wrap(&row.label, cols.saturating_sub(hang).max(1)),
                subtitle,
            });
        }
        self.cache.rows[index].as_ref().expect("filled above")
    }

    /// State-dependent lines under a row: saved text, its note (`Note: …`), or the editor slot.
    fn extras(&self, index: usize, cols: usize) -> (Vec<Labelled>, u16) {
        if let Some((r, h)) = self.state.editor
            && r == index
        {
            return (Vec::new(), h);
        }
        // Most rows have neither saved text nor a note: nothing to wrap.
        if !self.state.texts.iter().any(|(r, _)| *r == index)
            && !self.state.notes.iter().any(|(r, _)| *r == index)
        {
            return (Vec::new(), 0);
        }
        let inner = cols.saturating_sub(self.indent(index) as usize).max(1);
        let mut lines = Vec::new();
        if let Some((_, text)) = self.state.texts.iter().find(|(r, _)| *r == index) {
            lines.extend(wrap(text, inner).into_iter().map(Labelled::plain));
        }
        if let Some((_, note)) = self.state.notes.iter().find(|(r, _)| *r == index) {
            lines.extend(wrap_labelled(NOTE_LABEL, note, inner, usize::MAX));
        }
        (lines, 0)
    }

    fn row_height(&mut self, index: usize, cols: usize) -> usize {
        let layout = self.layout(index, cols);
        let base = layout.label.len() + layout.subtitle.len() + usize::from(self.state.freeform);
        let (extra, slot) = self.extras(index, cols);
        base + extra.len() + slot as usize
    }

    /// Total height of every row (used for layouts that size the list to its content).
    /// The rows' own lines are summed once per width; a frame adds only the few rows with saved
    /// text, a note or the editor slot, so this does not grow with the number of rows.
    pub fn content_height(&mut self, cols: u16) -> u16 {
        self.content_height_up_to(cols, usize::MAX)
    }

    /// [`content_height`](Self::content_height), measured no further than about `cap` lines: a
    /// filtered view, laid out anew at each keystroke, then costs what a screenful costs however
    /// many rows it holds. The result is exact when it is below `cap`.
    pub fn content_height_up_to(&mut self, cols: u16, cap: usize) -> u16 {
        let cols = cols as usize;
        if self.is_empty() {
            return 0;
        }
        self.layout(0, cols);
        let base = match self.cache.base_total {
            Some(total) => total,
            None => {
                let mut total = 0;
                let mut whole = true;
                for i in 0..self.len() {
                    if total >= cap {
                        whole = false;
                        break;
                    }
                    let l = self.layout(i, cols);
                    total += l.label.len() + l.subtitle.len();
                }
                if whole {
                    self.cache.base_total = Some(total);
                }
                total
            }
        };
        let mut special: Vec<usize> = self
            .state
            .texts
            .iter()
            .chain(&self.state.notes)
            .map(|(row, _)| *row)
            .chain(self.state.editor.map(|(row, _)| row))
            .filter(|row| *row < self.len())
            .collect();
        special.sort_unstable();
        special.dedup();
        let extras: usize = special
            .into_iter()
            .map(|row| {
                let (lines, slot) = self.extras(row, cols);
                lines.len() + slot as usize
            })
            .sum();
        let freeform = if self.state.freeform { self.len() } else { 0 };
        (base + extras + freeform).min(u16::MAX as usize) as u16
    }

    /// Moves `offset` so the cursor row is fully visible in `height` lines, scrolling as little as possible.
    fn scroll_to_cursor(&mut self, cols: usize, height: usize) {
        let cursor = self.state.cursor.min(self.len().saturating_sub(1));
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

    /// Draws one row from line `skip` of it, at `y`, no lower than `bottom`.
    /// Returns the next free line and where its editor slot starts, if it has one.
    fn draw_row(
        &mut self,
        index: usize,
        area: Rect,
        mut y: u16,
        bottom: u16,
        buf: &mut Buffer,
    ) -> (u16, Option<Rect>) {
        let cols = area.width as usize;
        let t = self.theme;
        let active = index == self.state.cursor;
        let style = if self.is_selected(index) {
            t.success()
        } else if active {
            t.accent()
        } else {
            t.text()
        };
        let head = self.head(index);
        let caret = match (self.state.freeform, active) {
            (true, _) => " ",
            (false, true) => "❯ ",
            (false, false) => "  ",
        };
        let hang = width(caret) + width(&head);
        let (extras, slot_height) = self.extras(index, cols);
        self.layout(index, cols);
        // Borrow the cached layout out of the cache while drawing (no copy), then put it back.
        let layout = self.cache.rows[index].take().expect("filled by layout()");
        let x = area.x;
        let right = area.x + area.width;
        let put = |buf: &mut Buffer, x: u16, y: u16, text: &str, style| {
            if x < right {
                put(buf, x, y, text, (right - x) as usize, style).0
            } else {
                x
            }
        };
        // With an editor slot under the row, its first line is kept free whatever else is cut, so
        // the text being typed stays visible on a short screen.
        let reserve = u16::from(slot_height > 0);
        let mut hits = HitCursor::new(&self.row(index).label, self.hits(index));
        let hit_style = style.patch(t.matched());
        for (n, part) in layout.label.iter().enumerate() {
            if y >= bottom || (n > 0 && y + reserve >= bottom) {
                break;
            }
            let start = if n == 0 {
                let nx = put(buf, x, y, caret, if active { t.accent() } else { style });
                put(buf, nx, y, &head, style)
            } else {
                x + hang as u16
            };
            if hits.is_empty() {
                put(buf, start, y, part, style);
            } else {
                let mut nx = start;
                for (run, hit) in hits.runs(part) {
                    nx = put(buf, nx, y, run, if hit { hit_style } else { style });
                }
            }
            y += 1;
        }
        if self.state.freeform && y + reserve < bottom {
            // The blank line between the label and what is typed.
            y += 1;
        }
        let indent = x + self.indent(index);
        for line in &layout.subtitle {
            if y + reserve >= bottom {
                break;
            }
            let mut nx = indent;
            for span in &line.spans {
                nx = put(buf, nx, y, &span.content, span.style);
            }
            y += 1;
        }
        for line in &extras {
            if y + reserve >= bottom {
                break;
            }
            let nx = put(buf, indent, y, &line.label, t.warning());
            put(buf, nx, y, &line.text, t.muted());
            y += 1;
        }
        self.cache.rows[index] = Some(layout);
        if slot_height > 0 && y < bottom {
            let h = slot_height.min(bottom - y);
            return (
                y + h,
                Some(Rect::new(
                    indent,
                    y,
                    area.width.saturating_sub(self.indent(index)),
                    h,
                )),
            );
        }
        (y, None)
    }

    /// Draws the visible rows, with `↑ N more` / `↓ N more` markers when rows are hidden.
    /// Returns where the editor slot landed, if it is visible (also [`OptionList::editor_slot`]).
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) -> Option<Rect> {
        self.slot = self.draw_rows(area, buf);
        self.slot
    }

    /// Where the last render put the editor slot (the rows an open editor is drawn in), if it was
    /// visible.
    pub fn editor_slot(&self) -> Option<Rect> {
        self.slot
    }

    fn draw_rows(&mut self, area: Rect, buf: &mut Buffer) -> Option<Rect> {
        if area.height == 0 || area.width == 0 || self.is_empty() {
            self.visible = 0;
            self.used = 0;
            return None;
        }
        let cols = area.width as usize;
        let height = area.height as usize;
        let last = self.len() - 1;
        let below_marker = usize::from(self.state.cursor < last && height > 2);
        self.scroll_to_cursor(cols, height - below_marker);
        let above_marker = usize::from(self.offset > 0 && height > 2);
        if above_marker == 1 {
            self.scroll_to_cursor(cols, height - below_marker - 1);
        }
        let mut y = area.y;
        let bottom = area.y + area.height;
        if above_marker == 1 {
            put(
                buf,
                area.x,
                y,
                format!("  ↑ {} more", self.offset),
                cols,
                self.theme.dim(),
            );
            y += 1;
        }
        let mut slot = None;
        self.visible = 0;
        for index in self.offset..self.len() {
            let room = (bottom - y) as usize;
            let needs_marker = usize::from(index < last);
            if index > self.state.cursor && self.row_height(index, cols) + needs_marker > room {
                if room > 0 {
                    let hidden = self.len() - index;
                    put(
                        buf,
                        area.x,
                        y,
                        format!("  ↓ {hidden} more"),
                        cols,
                        self.theme.dim(),
                    );
                    y += 1;
                }
                break;
            }
            let (next, row_slot) = self.draw_row(index, area, y, bottom, buf);
            slot = slot.or(row_slot);
            y = next;
            self.visible += 1;
            if y >= bottom {
                break;
            }
        }
        self.used = y - area.y;
        slot
    }

    /// Lines the last render used (rows and markers), for placing what follows the list.
    pub fn used_height(&self) -> u16 {
        self.used
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::Usize(self.state.cursor))
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let before = self.state_value();
        let last = self.len().saturating_sub(1);
        let page = self.visible.max(1);
        let cursor = self.state.cursor;
        self.state.cursor = match cmd {
            Cmd::Move(Direction::Down) => (cursor + 1).min(last),
            Cmd::Move(Direction::Up) => cursor.saturating_sub(1),
            Cmd::Scroll(Direction::Down) => (cursor + page).min(last),
            Cmd::Scroll(Direction::Up) => cursor.saturating_sub(page),
            Cmd::GoTo(Position::Begin) => 0,
            Cmd::GoTo(Position::End) => last,
            Cmd::Submit if !self.is_empty() => {
                return CmdResult::Submit(before);
            }
            Cmd::Toggle if self.state.checkboxes && !self.is_empty() => {
                let chosen = &mut self.state.selected;
                match chosen.iter().position(|&row| row == cursor) {
                    Some(at) => {
                        chosen.remove(at);
                    }
                    None => {
                        chosen.push(cursor);
                        chosen.sort_unstable();
                    }
                }
                return CmdResult::Custom(
                    TOGGLED,
                    State::Vec(chosen.iter().map(|&row| StateValue::Usize(row)).collect()),
                );
            }
            Cmd::Submit | Cmd::Toggle => return CmdResult::NoChange,
            other => return CmdResult::Invalid(other),
        };
        moved(before, self.state_value())
    }
}

/// The name of the [`CmdResult::Custom`] an option list with checkboxes returns for `Toggle`:
/// the chosen rows after the toggle, ascending, as `State::Vec` of `Usize`.
pub const TOGGLED: &str = "toggled";

impl OptionList {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn clamp_cursor(&mut self) {
        self.state.cursor = self.state.cursor.min(self.len().saturating_sub(1));
    }

    /// Replaces the rows, keeping the cursor, the chosen rows and the notes (clamped to the new
    /// rows) and the filtered view if it still fits.
    fn replace_rows(&mut self, rows: Arc<Vec<OptionRow>>) {
        if rows == self.rows {
            return;
        }
        self.rows = rows;
        self.cache = LayoutCache::default();
        self.widest = std::cell::OnceCell::new();
        if self
            .subset
            .as_ref()
            .is_some_and(|s| s.rows.iter().any(|&row| row >= self.rows.len()))
        {
            self.subset = None;
        }
        let count = self.len();
        let state = &mut self.state;
        state.selected.retain(|&row| row < count);
        state.texts.retain(|(row, _)| *row < count);
        state.notes.retain(|(row, _)| *row < count);
        self.offset = self.offset.min(count.saturating_sub(1));
        self.clamp_cursor();
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Value, AttrValue::Length(n)) => {
                self.state.cursor = (*n).min(self.len().saturating_sub(1))
            }
            (Attribute::Content, AttrValue::Payload(PropPayload::Vec(labels))) => {
                let rows = labels
                    .iter()
                    .filter_map(|v| match v {
                        PropValue::Str(label) => Some(OptionRow {
                            label: label.clone(),
                            description: None,
                            recommended: false,
                        }),
                        _ => None,
                    })
                    .collect();
                self.replace_rows(Arc::new(rows));
            }
            (Attribute::Content, value) => {
                if let Some(rows) = payload_ref::<Arc<Vec<OptionRow>>>(value) {
                    self.replace_rows(rows.clone());
                } else if let Some(rows) = payload_ref::<Vec<OptionRow>>(value) {
                    self.replace_rows(Arc::new(rows.clone()));
                }
            }
            (Attribute::Custom(attr::STATE), value) => {
                if let Some(state) = payload_ref::<OptionListState>(value) {
                    self.state = state.clone();
                    self.clamp_cursor();
                }
            }
            (Attribute::Custom(attr::SUBSET), value) => {
                let subset = payload_ref::<Subset>(value)
                    .filter(|s| s.rows.iter().all(|&row| row < self.rows.len()))
                    .cloned();
                self.set_subset(subset);
                self.clamp_cursor();
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Value => Some(AttrValue::Length(self.state.cursor)),
            Attribute::Content => Some(payload(self.rows.clone())),
            Attribute::Custom(attr::STATE) => Some(payload(self.state.clone())),
            Attribute::Custom(attr::SUBSET) => Some(match &self.subset {
                Some(subset) => payload(subset.clone()),
                None => AttrValue::Payload(PropPayload::None),
            }),
            other => self.props.get(other),
        }
    }
}

realm_component!(OptionList);

/// Walks a label's wrapped lines and says which of their characters the filter matched. Wrapping
/// collapses runs of whitespace, so matches are counted among the label's non-whitespace
/// characters, which every wrapped line keeps in order.
struct HitCursor {
    /// Ordinals (among non-whitespace characters) of the matched ones, ascending.
    hits: Vec<usize>,
    next_hit: usize,
    ordinal: usize,
}

impl HitCursor {
    fn new(label: &str, hits: &[u32]) -> HitCursor {
        let mut ordinals = Vec::with_capacity(hits.len());
        if !hits.is_empty() {
            let mut wanted = hits.iter().peekable();
            let mut ordinal = 0;
            for (i, c) in (0u32..).zip(label.chars()) {
                while wanted.next_if(|&&h| h < i).is_some() {}
                if c.is_whitespace() {
                    continue;
                }
                if wanted.next_if(|&&h| h == i).is_some() {
                    ordinals.push(ordinal);
                }
                ordinal += 1;
            }
        }
        HitCursor {
            hits: ordinals,
            next_hit: 0,
            ordinal: 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }

    /// `line` cut into runs of matched and unmatched characters, advancing past it.
    fn runs<'a>(&mut self, line: &'a str) -> Vec<(&'a str, bool)> {
        let mut runs = Vec::new();
        let mut start = 0;
        let mut current = false;
        for (at, c) in line.char_indices() {
            let hit = !c.is_whitespace() && self.hits.get(self.next_hit) == Some(&self.ordinal);
            if !c.is_whitespace() {
                if hit {
                    self.next_hit += 1;
                }
                self.ordinal += 1;
            }
            if hit != current && at > start {
                runs.push((&line[start..at], current));
                start = at;
            }
            current = hit;
        }
        if start < line.len() {
            runs.push((&line[start..], current));
        }
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summed_height_equals_the_rows_heights_in_every_state() {
        let rows: Vec<OptionRow> = (0..40)
            .map(|i| OptionRow {
                label: format!("Option {i} with a label long enough to wrap at narrow widths"),
                description: (i % 3 == 0).then(|| "A description that also wraps here".into()),
                recommended: i % 7 == 0,
            })
            .collect();
        let mut list = OptionList::new(Arc::new(rows));
        let states = [
            OptionListState::default(),
            OptionListState {
                checkboxes: true,
                texts: vec![(39, "saved text that wraps over lines".into())],
                notes: vec![(2, "a note".into()), (39, "and another".into())],
                editor: Some((5, 3)),
                ..OptionListState::default()
            },
            OptionListState {
                freeform: true,
                notes: vec![(99, "out of range".into())],
                ..OptionListState::default()
            },
        ];
        for state in states {
            for cols in [12u16, 30, 80, 200] {
                list.state = state.clone();
                let summed: usize = (0..40).map(|i| list.row_height(i, cols as usize)).sum();
                assert_eq!(
                    list.content_height(cols) as usize,
                    summed,
                    "{cols} columns, {state:?}"
                );
            }
        }
    }

    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol())
            .collect::<String>()
            .trim_end()
            .to_owned()
    }

    #[test]
    fn a_subset_draws_only_its_rows_numbered_from_one_with_the_matches_highlighted() {
        let rows: Vec<OptionRow> = ["Alpha", "Beta gamma", "Delta"]
            .into_iter()
            .map(|label| OptionRow {
                label: label.into(),
                description: None,
                recommended: false,
            })
            .collect();
        let mut list = OptionList::new(Arc::new(rows));
        let mut subset = Subset::default();
        subset.push(2, &[0]);
        subset.push(1, &[0, 5, 6]);
        assert_eq!(subset.hits(1), [0, 5, 6]);
        assert_eq!(subset.hits(7), [] as [u32; 0]);
        list.set_subset(Some(subset));
        assert_eq!(list.len(), 2);
        let area = Rect::new(0, 0, 30, 4);
        let mut buf = Buffer::empty(area);
        list.render(area, &mut buf);
        assert_eq!(row_text(&buf, 0), "❯ 1. Delta");
        assert_eq!(row_text(&buf, 1), "  2. Beta gamma");
        assert_eq!(row_text(&buf, 2), "");
        let matched = |x: u16, y: u16| {
            buf[(x, y)]
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        };
        // `D` of Delta; `B`, `g` and `a` of "Beta gamma" (char 4 is the space).
        assert!(matched(5, 0) && !matched(6, 0));
        assert!(matched(5, 1) && !matched(6, 1) && matched(10, 1) && matched(11, 1));
        assert!(!matched(12, 1));
        // A wrapped label keeps its highlights on the right characters.
        let mut narrow = Buffer::empty(Rect::new(0, 0, 10, 4));
        list.state.cursor = 1;
        list.render(narrow.area, &mut narrow);
        assert_eq!(row_text(&narrow, 1), "❯ 2. Beta");
        assert_eq!(row_text(&narrow, 2), "     gamma");
        let hit = |x: u16, y: u16| {
            narrow[(x, y)]
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        };
        assert!(hit(5, 1) && hit(5, 2) && hit(6, 2) && !hit(7, 2));
        // Back to every row.
        list.set_subset(None);
        assert_eq!(list.len(), 3);
        assert_eq!(list.content_height_up_to(30, 1), 1);
        assert_eq!(list.content_height(30), 3);
    }
}
