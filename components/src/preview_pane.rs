//! PreviewPane: a bordered box showing the highlighted option's label, description and preview
//! text, scrollable when the preview is taller than the box.

use std::sync::Arc;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use tuirealm::command::{Cmd, CmdResult, Direction, Position};
use tuirealm::state::{State, StateValue};

use crate::realm::{Props, attr, moved, realm_component};
use crate::text::{wrap, wrap_preformatted_at_most};
use crate::theme::Theme;
use tuirealm::props::{AttrValue, Attribute, PropPayload};

/// Shown when an option has no preview text.
pub use crate::strings::NO_PREVIEW_TEXT;
/// Shown after the last line of a preview cut at [`MAX_PREVIEW_LINES`].
pub use crate::strings::PREVIEW_CUT_TEXT;

/// The most preview lines the pane lays out. A person pages through a preview a screen at a time,
/// so nobody reads this far; past it the rest of a preview of any size costs nothing per frame.
pub const MAX_PREVIEW_LINES: usize = 5_000;

/// Which of the pane's texts a rendering is of (they render differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The option's description: prose, wrapped.
    Description,
    /// The preview: preformatted, its spacing kept.
    Preview,
    /// The preview as written (raw, or with no Markdown in it): wrapped, its spacing kept.
    PreviewAsWritten,
}

/// The most renderings kept for the frames that follow: the pane is built anew for every frame,
/// while its texts, width and theme only change on a key that changes them, and moving between a
/// few options comes back to the same ones.
const RENDERINGS_KEPT: usize = 8;

/// Texts shorter than this are rendered afresh: that costs less than finding them.
const KEPT_FROM_BYTES: usize = 1024;

/// A description's or preview's lines at an inner width, and whether the text went on past
/// [`MAX_PREVIEW_LINES`].
fn render_part(part: Part, text: &str, inner: usize, theme: &Theme) -> (Vec<Line<'static>>, bool) {
    let markdown = |lines: Vec<Line<'static>>| {
        let cut = lines.len() >= MAX_PREVIEW_LINES;
        (lines, cut)
    };
    match part {
        Part::Description => markdown(crate::markdown::render(
            text,
            inner,
            MAX_PREVIEW_LINES,
            theme.muted(),
            theme,
        )),
        Part::Preview => markdown(crate::markdown::render_preformatted(
            text,
            inner,
            MAX_PREVIEW_LINES,
            theme.text(),
            theme,
        )),
        Part::PreviewAsWritten => {
            let (wrapped, cut) = wrap_preformatted_at_most(text, inner, MAX_PREVIEW_LINES);
            let style = theme.text();
            let lines = wrapped
                .into_iter()
                .map(|l| Line::from(Span::styled(l, style)))
                .collect();
            (lines, cut)
        }
    }
}

/// A description's or preview's rendered Markdown, kept for the next frames (the last
/// [`RENDERINGS_KEPT`], the most recent first). The text is compared whole: a person approving a
/// preview must never see another one's rendering. With the lines, whether the text went on past
/// [`MAX_PREVIEW_LINES`].
fn rendered(
    part: Part,
    text: &str,
    inner: usize,
    theme: &Theme,
) -> (Arc<Vec<Line<'static>>>, bool) {
    struct Rendered {
        part: Part,
        text: String,
        inner: usize,
        theme: Theme,
        lines: Arc<Vec<Line<'static>>>,
        cut: bool,
    }
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<Rendered>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if text.len() < KEPT_FROM_BYTES {
        let (lines, cut) = render_part(part, text, inner, theme);
        return (Arc::new(lines), cut);
    }
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let hit = kept.iter().position(|r| {
            r.part == part && r.inner == inner && r.theme == *theme && r.text == text
        });
        if let Some(at) = hit {
            let r = kept.remove(at);
            let found = (Arc::clone(&r.lines), r.cut);
            kept.insert(0, r);
            return found;
        }
        let (lines, cut) = render_part(part, text, inner, theme);
        let lines = Arc::new(lines);
        kept.insert(
            0,
            Rendered {
                part,
                text: text.to_owned(),
                inner,
                theme: *theme,
                lines: Arc::clone(&lines),
                cut,
            },
        );
        kept.truncate(RENDERINGS_KEPT);
        (lines, cut)
    })
}

/// A pane's content lines: its head (label, description, a blank line), the preview's lines as
/// kept (shared), and the line saying the preview goes on.
#[derive(Debug, Clone, Default)]
struct Laid {
    head: Vec<Line<'static>>,
    preview: Arc<Vec<Line<'static>>>,
    tail: Option<Line<'static>>,
}

impl Laid {
    fn len(&self) -> usize {
        self.head.len() + self.preview.len() + usize::from(self.tail.is_some())
    }

    fn iter(&self) -> impl Iterator<Item = &Line<'static>> {
        self.head
            .iter()
            .chain(self.preview.iter())
            .chain(&self.tail)
    }
}

/// What a pane's measured lines were laid out from (see `PreviewPane::laid_out`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct LaidOutFor {
    inner: usize,
    title: Option<(usize, usize)>,
    description: Option<(usize, usize)>,
    preview: Option<(usize, usize)>,
    raw: bool,
    goes_on: bool,
    theme: Theme,
}

/// The preview box: the option's label in its top border, its description (only when the box
/// has room for it beside the preview: a compact box of five lines or fewer leaves it out), then
/// the preview text (Markdown rendered unless raw), scrollable, with `↑ N more` / `↓ N more`
/// markers on the borders.
///
/// # tui-realm contract
///
/// | attribute | value | meaning |
/// |---|---|---|
/// | `Title` or `Custom(`[`attr::LABEL`]`)` | `String` | the option's label |
/// | `Custom(`[`attr::DESCRIPTION`]`)` | `String`, or `Payload(None)` | its description |
/// | `Text` | `String`, or `Payload(None)` | the preview (none: "No preview available") |
/// | `Custom(`[`attr::RAW`]`)` | `Flag` | show the text as written, Markdown not rendered |
/// | `Scroll` | `Length` | the first line shown (clamped when drawn) |
/// | `Focus`, `Custom(`[`attr::THEME`]`)` | `Flag`, [`Theme`] payload | as for every component |
///
/// Setting the text keeps the scroll (clamped to the new text when drawn).
///
/// **State:** `Single(U16(scroll))`.
///
/// **Perform:** `Scroll(Up/Down)` or `Move(Up/Down)` (a line), `Custom(`[`PAGE_UP`]`/`[`PAGE_DOWN`]`)`
/// (the lines shown last), `GoTo(Begin/End)` → `Changed(state)`, or `NoChange` at either end.
/// The end is known once the pane is drawn: before its first frame it cannot scroll down.
/// Anything else → `Invalid`.
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
/// use pi_ask_components::PreviewPane;
/// use tuirealm::ratatui::{Terminal, backend::TestBackend};
///
/// let keys = [Key::Down, Key::Down, Key::End, Key::Down];
/// let script = ScriptedInput::new(keys.map(|k| Event::Keyboard(KeyEvent::from(k))));
/// let mut app: Application<&str, CmdResult, NoUserEvent> = Application::init(
///     EventListenerCfg::default().add_port(Box::new(script), Duration::ZERO, 1),
/// );
/// let bindings = |event: &Event<NoUserEvent>| match event {
///     Event::Keyboard(KeyEvent { code: Key::Down, .. }) => Some(Cmd::Scroll(Direction::Down)),
///     Event::Keyboard(KeyEvent { code: Key::End, .. }) => Some(Cmd::GoTo(Position::End)),
///     _ => None,
/// };
/// app.mount("preview", Box::new(Mounted::new(PreviewPane::default(), bindings)), vec![]).unwrap();
/// app.active(&"preview").unwrap();
/// app.attr(&"preview", Attribute::Title, AttrValue::String("Rust".into())).unwrap();
/// let text = (1..=20).map(|n| format!("line {n}")).collect::<Vec<_>>().join("\n");
/// app.attr(&"preview", Attribute::Text, AttrValue::String(text)).unwrap();
/// // Drawn once, 8 rows high: 6 lines show, so it scrolls up to 14 lines.
/// let mut terminal = Terminal::new(TestBackend::new(30, 8)).unwrap();
/// terminal.draw(|f| app.view(&"preview", f, f.area())).unwrap();
/// let mut results = Vec::new();
/// for _ in 0..4 {
///     results.extend(app.tick(PollStrategy::BlockCollectUpTo(1)).unwrap());
/// }
/// let at = |n| State::Single(StateValue::U16(n));
/// assert_eq!(results, vec![
///     CmdResult::Changed(at(1)),
///     CmdResult::Changed(at(2)),
///     CmdResult::Changed(at(14)),
///     CmdResult::NoChange,
/// ]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct PreviewPane {
    /// The option's label, in the top border.
    pub title: String,
    /// The option's description, under the label when the box has room.
    pub description: Option<String>,
    /// The preview text; `None` shows "No preview available".
    pub preview: Option<String>,
    /// `preview` is only the start of a longer text (a host hands over no more than
    /// [`text::start_within`](crate::text::start_within) can show): its end says the rest is not shown.
    pub preview_goes_on: bool,
    /// Show the preview's text as written, its Markdown not rendered (`main.togglePreviewRaw`).
    pub raw: bool,
    /// First content line shown.
    pub scroll: u16,
    /// How far the content could scroll in the last render.
    max_scroll: u16,
    /// How many content lines the last render showed.
    page: u16,
    /// The colours it draws with.
    pub theme: Theme,
    /// The tui-realm attributes it was given (focus, and any other for `query`).
    pub props: Props,
    /// The content lines [`PreviewPane::content_height`] laid out, for the
    /// [`render`](PreviewPane::render) that follows it in the same frame at the same width (a
    /// frame measures the pane, then draws it: laid out once for both). Taken by that render, and
    /// only for the content measured (the texts' addresses and lengths, the flags and theme).
    laid_out: std::cell::RefCell<Option<(LaidOutFor, Laid)>>,
}

impl PreviewPane {
    /// A pane for an option's label, description and preview, scrolled to the top.
    pub fn new(
        title: impl Into<String>,
        description: Option<String>,
        preview: Option<String>,
    ) -> PreviewPane {
        PreviewPane {
            title: title.into(),
            description,
            preview,
            preview_goes_on: false,
            raw: false,
            scroll: 0,
            max_scroll: 0,
            page: 0,
            theme: Theme::default(),
            props: Props::default(),
            laid_out: std::cell::RefCell::default(),
        }
    }

    /// What the content lines at an inner width are laid out from.
    fn laid_out_for(&self, inner: usize) -> LaidOutFor {
        let text = |t: Option<&str>| t.map(|t| (t.as_ptr() as usize, t.len()));
        LaidOutFor {
            inner,
            title: text(Some(&self.title)),
            description: text(self.description.as_deref()),
            preview: text(self.preview.as_deref()),
            raw: self.raw,
            goes_on: self.preview_goes_on,
            theme: self.theme,
        }
    }

    /// The content lines at an inner width: those measured for this frame, else laid out now.
    fn take_lines(&self, inner: usize) -> Laid {
        let now = self.laid_out_for(inner);
        match self.laid_out.take() {
            Some((measured, lines)) if measured == now => lines,
            _ => self.lay_out(inner),
        }
    }

    /// The content lines at an inner width.
    pub fn lines(&self, inner: usize) -> Vec<Line<'static>> {
        self.lay_out(inner).iter().cloned().collect()
    }

    /// The content at an inner width: the label and description, then the preview's lines as
    /// kept (shared, not copied: a preview may have thousands).
    fn lay_out(&self, inner: usize) -> Laid {
        #[cfg(test)]
        tests::LAID_OUT.with(|n| n.set(n.get() + 1));
        let t = &self.theme;
        let mut head: Vec<Line<'static>> = wrap(&self.title, inner)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, t.accent())))
            .collect();
        if let Some(d) = &self.description {
            head.extend(rendered(Part::Description, d, inner, t).0.iter().cloned());
        }
        head.push(Line::raw(""));
        match &self.preview {
            Some(p) => {
                let mut laid = self.preview_lines(p, inner);
                laid.head = head;
                laid
            }
            None => {
                head.push(Line::from(Span::styled(NO_PREVIEW_TEXT, t.dim())));
                Laid {
                    head,
                    ..Laid::default()
                }
            }
        }
    }

    /// The preview text's lines at an inner width: at most [`MAX_PREVIEW_LINES`], then a note
    /// that the rest is not shown.
    fn preview_lines(&self, preview: &str, inner: usize) -> Laid {
        let markdown =
            !self.raw && crate::markdown::renders(preview, inner, MAX_PREVIEW_LINES, &self.theme);
        let part = match markdown {
            true => Part::Preview,
            false => Part::PreviewAsWritten,
        };
        let (preview, cut) = rendered(part, preview, inner, &self.theme);
        let tail = (cut || self.preview_goes_on)
            .then(|| Line::from(Span::styled(PREVIEW_CUT_TEXT, self.theme.dim())));
        Laid {
            head: Vec::new(),
            preview,
            tail,
        }
    }

    /// Whether the preview is drawn as rendered Markdown (not raw, rendering on, and it has some).
    pub fn renders_markdown(&self, inner: usize) -> bool {
        !self.raw
            && self
                .preview
                .as_deref()
                .is_some_and(|p| crate::markdown::renders(p, inner, MAX_PREVIEW_LINES, &self.theme))
    }

    /// Height the box needs to show everything at a width (border and padding included).
    pub fn content_height(&self, cols: u16) -> u16 {
        let inner = cols.saturating_sub(4).max(4) as usize;
        let lines = self.take_lines(inner);
        let height = (lines.len() + 2) as u16;
        *self.laid_out.borrow_mut() = Some((self.laid_out_for(inner), lines));
        height
    }

    /// The inner text area of the box at `area` (inside the border, one column of padding).
    fn inner(area: Rect) -> Rect {
        Rect::new(
            area.x + 2,
            area.y + 1,
            area.width.saturating_sub(4),
            area.height.saturating_sub(2),
        )
    }

    /// How far the content could scroll in the last render.
    pub fn max_scroll(&self) -> u16 {
        self.max_scroll
    }

    /// How many content lines the last render showed (a page, for paging keys).
    pub fn page_height(&self) -> u16 {
        self.page
    }

    /// Draws the box; hidden lines are counted on its borders (`↑ N more`, `↓ N more`).
    pub fn render(&mut self, area: Rect, buf: &mut Buffer) {
        if area.width < 5 || area.height < 3 {
            return;
        }
        let inner = Self::inner(area);
        // Wrapped once per frame (measured and drawn): a preview may be a megabyte.
        let width = inner.width.max(1) as usize;
        let full = self.take_lines(width);
        // Too short for everything: the label moves into the top border and the description is
        // dropped, so the preview text itself gets the room.
        let compact = full.len() > inner.height as usize && self.preview.is_some();
        let preview_only;
        let lines = if compact {
            preview_only = Laid {
                head: Vec::new(),
                ..full
            };
            &preview_only
        } else {
            &full
        };
        // The border, drawn row by row (a `Block` looks every cell up again).
        let style = self.theme.accent();
        let (left, right, bottom) = (area.x, area.x + area.width - 1, area.y + area.height - 1);
        let span = (area.width - 2) as usize;
        crate::text::fill(buf, left, area.y, 1, "┌", style);
        crate::text::fill(buf, left + 1, area.y, span, "─", style);
        crate::text::fill(buf, right, area.y, 1, "┐", style);
        for y in area.y + 1..bottom {
            crate::text::fill(buf, left, y, 1, "│", style);
            crate::text::fill(buf, right, y, 1, "│", style);
        }
        crate::text::fill(buf, left, bottom, 1, "└", style);
        crate::text::fill(buf, left + 1, bottom, span, "─", style);
        crate::text::fill(buf, right, bottom, 1, "┘", style);
        if compact {
            crate::text::put(
                buf,
                left + 1,
                area.y,
                format!(" {} ", self.title),
                span,
                style,
            );
        }
        let max_scroll = lines.len().saturating_sub(inner.height as usize) as u16;
        self.max_scroll = max_scroll;
        self.page = inner.height;
        self.scroll = self.scroll.min(max_scroll);
        for (i, line) in lines
            .iter()
            .skip(self.scroll as usize)
            .take(inner.height as usize)
            .enumerate()
        {
            // Each line is one span; `put` writes ASCII cells directly (a preview is mostly code).
            let mut x = inner.x;
            for span in &line.spans {
                let room = (inner.x + inner.width).saturating_sub(x) as usize;
                x = crate::text::put(buf, x, inner.y + i as u16, &span.content, room, span.style).0;
            }
        }
        let below = max_scroll - self.scroll;
        let marker = |text: String, y: u16, buf: &mut Buffer| {
            let w = crate::text::width(&text) as u16;
            if w + 4 <= area.width {
                buf.set_string(area.x + area.width - w - 2, y, text, self.theme.dim());
            }
        };
        if self.scroll > 0 {
            marker(format!(" ↑ {} more ", self.scroll), area.y, buf);
        }
        if below > 0 {
            marker(format!(" ↓ {below} more "), area.y + area.height - 1, buf);
        }
    }

    fn state_value(&self) -> State {
        State::Single(StateValue::U16(self.scroll))
    }

    fn perform_cmd(&mut self, cmd: Cmd) -> CmdResult {
        let before = self.state_value();
        // The range is known once drawn; before that, scrolling down waits for a frame.
        let page = self.page.max(1);
        self.scroll = match cmd {
            Cmd::Scroll(Direction::Down) | Cmd::Move(Direction::Down) => {
                self.scroll.saturating_add(1).min(self.max_scroll)
            }
            Cmd::Scroll(Direction::Up) | Cmd::Move(Direction::Up) => self.scroll.saturating_sub(1),
            Cmd::GoTo(Position::Begin) => 0,
            Cmd::GoTo(Position::End) => self.max_scroll,
            Cmd::Custom(PAGE_DOWN) => self.scroll.saturating_add(page).min(self.max_scroll),
            Cmd::Custom(PAGE_UP) => self.scroll.saturating_sub(page),
            other => return CmdResult::Invalid(other),
        };
        moved(before, self.state_value())
    }
}

/// The `Cmd::Custom` that scrolls a preview pane down by the lines it showed last.
pub const PAGE_DOWN: &str = "pageDown";
/// The `Cmd::Custom` that scrolls a preview pane up by the lines it showed last.
pub const PAGE_UP: &str = "pageUp";

impl PreviewPane {
    fn caret(&self) -> Option<ratatui::layout::Position> {
        None
    }

    fn set_attr(&mut self, attr: Attribute, value: AttrValue) {
        match (attr, &value) {
            (Attribute::Title | Attribute::Custom(attr::LABEL), AttrValue::String(s)) => {
                self.title = s.clone()
            }
            (Attribute::Text, AttrValue::String(s)) => self.preview = Some(s.clone()),
            (Attribute::Text, AttrValue::Payload(PropPayload::None)) => self.preview = None,
            (Attribute::Custom(attr::DESCRIPTION), AttrValue::String(s)) => {
                self.description = Some(s.clone())
            }
            (Attribute::Custom(attr::DESCRIPTION), AttrValue::Payload(PropPayload::None)) => {
                self.description = None
            }
            (Attribute::Custom(attr::RAW), AttrValue::Flag(raw)) => self.raw = *raw,
            (Attribute::Scroll, AttrValue::Length(n)) => {
                self.scroll = u16::try_from(*n).unwrap_or(u16::MAX)
            }
            _ => {}
        }
        self.props.set(attr, value);
    }

    fn get_attr(&self, attr: Attribute) -> Option<AttrValue> {
        match attr {
            Attribute::Title | Attribute::Custom(attr::LABEL) => {
                Some(AttrValue::String(self.title.clone()))
            }
            Attribute::Text => self.preview.clone().map(AttrValue::String),
            Attribute::Custom(attr::DESCRIPTION) => self.description.clone().map(AttrValue::String),
            Attribute::Custom(attr::RAW) => Some(AttrValue::Flag(self.raw)),
            Attribute::Scroll => Some(AttrValue::Length(self.scroll as usize)),
            other => self.props.get(other),
        }
    }
}

/// The attribute holding the previewed option's description.
pub use crate::realm::attr::DESCRIPTION;
/// The attribute naming the option a pane previews.
pub use crate::realm::attr::LABEL;

realm_component!(PreviewPane);

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// How many times this thread's panes laid out their lines.
        pub(super) static LAID_OUT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    fn pane(preview: &str) -> PreviewPane {
        PreviewPane::new(
            "Label",
            Some("A *description*".into()),
            Some(preview.into()),
        )
    }

    fn drawn(pane: &mut PreviewPane, area: Rect) -> Vec<String> {
        let mut buf = Buffer::empty(area);
        pane.render(area, &mut buf);
        (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    #[test]
    fn a_frame_measures_and_draws_the_pane_with_one_layout() {
        let text: String = (0..300).map(|n| format!("line {n}\n")).collect();
        let mut measured = pane(&text);
        let before = LAID_OUT.with(|n| n.get());
        let height = measured.content_height(40);
        let area = Rect::new(0, 0, 40, height.min(30));
        let lines = drawn(&mut measured, area);
        assert_eq!(LAID_OUT.with(|n| n.get()) - before, 1, "laid out once");
        // And it draws what a pane laid out afresh draws.
        assert_eq!(lines, drawn(&mut pane(&text), area));
    }

    #[test]
    fn lines_measured_for_other_content_are_never_drawn() {
        let mut pane = pane("the first text");
        pane.content_height(40);
        pane.preview = Some("another text".into());
        let area = Rect::new(0, 0, 40, 8);
        let shown = drawn(&mut pane, area).join("\n");
        assert!(shown.contains("another text"), "{shown}");
        assert!(!shown.contains("the first text"), "{shown}");
        // Measured at another width: laid out again for the width drawn.
        pane.content_height(20);
        let shown = drawn(&mut pane, area).join("\n");
        assert!(shown.contains("another text"), "{shown}");
    }

    #[test]
    fn kept_renderings_belong_to_their_own_text() {
        let theme = Theme::default();
        // Long enough to be kept; each differs from the others only at its very end.
        let long = |name: &str| format!("{}\n# {name}", "word ".repeat(KEPT_FROM_BYTES));
        let (a, _) = rendered(Part::Preview, &long("A"), 30, &theme);
        for n in 0..RENDERINGS_KEPT * 2 {
            rendered(Part::Preview, &long(&format!("other {n}")), 30, &theme);
        }
        let (b, _) = rendered(Part::Preview, &long("B"), 30, &theme);
        assert_ne!(a, b);
        let (again, _) = rendered(Part::Preview, &long("A"), 30, &theme);
        assert_eq!(again, a);
        let (kept, _) = rendered(Part::Preview, &long("A"), 30, &theme);
        assert!(
            Arc::ptr_eq(&kept, &again),
            "found again, not rendered again"
        );
        let (described, _) = rendered(Part::Description, &long("A"), 30, &theme);
        assert!(
            !Arc::ptr_eq(&described, &kept),
            "a description is kept apart"
        );
        let (long, cut) = rendered(Part::PreviewAsWritten, &"x\n".repeat(6000), 30, &theme);
        assert!(
            cut && long.len() == MAX_PREVIEW_LINES,
            "a long text says it was cut"
        );
    }
}
