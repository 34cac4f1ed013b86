//! Drawing a flow: a function of the model and the chrome, keeping only its own caches
//! ([`ViewState`]). [`draw`] fits the frame (rule, title, tabs, body, footer; `plan.rs`) into
//! any height, draws the current tab (`question.rs` or `review.rs`) and the settings modal on top
//! (`settings.rs`); an open editor's `@` suggestions are drawn under it (`popup.rs`).

mod plan;
mod popup;
mod question;
mod review;
mod settings;

use std::sync::Arc;

use pi_ask_components::realm::view_in;
use pi_ask_components::text::{fill, put};
use pi_ask_components::{
    Footer, OptionList, OptionRow, ReviewTab, SettingsModal, TabBar, TabItem, Theme,
};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use super::appearance::Look;
use super::hints::{essential_hints, flow_hints};
use crate::keymap::BindingTable;
use crate::model::{Model, Tab};
use plan::{BodyHeights, FooterHeights, FooterShown, plan};
use question::{QuestionLayout, draw_question};
pub use review::review_entries;
use review::review_view;
pub use settings::{draw_modal, settings_view};

/// What a flow is drawn with besides its model: its colours, the keys its hints name, and the
/// config file the settings modal names. Borrowed for one frame.
pub struct Chrome<'a> {
    /// The colours, and how the settings describe them.
    pub look: &'a Look,
    /// The bindings the footer's hints name.
    pub table: &'a BindingTable,
    /// The config file's path, as the settings modal shows it.
    pub config_path: &'a str,
    /// The terminal reports Shift+Enter apart from Enter (the hints may name it).
    pub shift_enter: bool,
    /// Hiding the form shows a host's conversation (the hints name the hide key).
    pub hides: bool,
    /// The shown preview does not fit its pane (the hints name its scroll keys).
    pub preview_overflows: bool,
}

/// What the view keeps from frame to frame, and nothing else: each question's option list (its
/// scroll offset and wrapped rows, cached per width), the list of the open filter, each prompt as
/// last laid out. The model is the only owner of cursors and text: an open editor and the
/// filter's query are drawn straight from the model's `TextEdit`.
pub struct ViewState {
    pub(crate) lists: Vec<OptionList>,
    /// The option list of the open filter, built from its matches (see [`FilteredList`]).
    pub(crate) filtered: Option<FilteredList>,
    /// Each question's prompt as last laid out: the width, the theme, the lines.
    pub(crate) prompts: Vec<Option<PromptLayout>>,
}

impl ViewState {
    /// The state for a form whose questions have these option lists.
    pub fn new(lists: Vec<OptionList>) -> ViewState {
        ViewState {
            prompts: vec![None; lists.len()],
            lists,
            filtered: None,
        }
    }
}

/// What drawing a frame gives back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Drawn {
    /// Where the hardware cursor goes: an open editor's caret.
    pub cursor: Option<Position>,
    /// What a question frame measured (page size, preview scroll range), for the model.
    pub measured: Option<Measured>,
}

/// The list the open filter shows: the question's rows (shared, not copied) narrowed to the
/// matches, rebuilt only when the matches change.
pub(crate) struct FilteredList {
    pub question: usize,
    pub revision: u64,
    pub list: OptionList,
    /// Each option's position among the matches, if it is one.
    pub position: Vec<Option<usize>>,
}

impl FilteredList {
    /// The list for `filter`'s matches over `rows`.
    pub fn new(filter: &crate::model::Filter, rows: Arc<Vec<OptionRow>>) -> FilteredList {
        let mut position = vec![None; rows.len()];
        for (n, &option) in filter.matches.rows().iter().enumerate() {
            if let Some(p) = position.get_mut(option) {
                *p = Some(n);
            }
        }
        let mut list = OptionList::new(rows);
        list.set_subset(Some(filter.matches.clone()));
        FilteredList {
            question: filter.question,
            revision: filter.revision,
            list,
            position,
        }
    }

    /// Whether this list was built from `filter` as it is now.
    pub fn shows(&self, filter: &crate::model::Filter) -> bool {
        self.question == filter.question && self.revision == filter.revision
    }
}

/// A prompt laid out: at this width, with this theme, these lines (shared with each frame's
/// layout, which only reads them).
pub(crate) type PromptLayout = (u16, Theme, Arc<Vec<ratatui::text::Line<'static>>>);

/// Narrowest the form is drawn at; below it a one-line notice asks for a bigger terminal.
pub const MIN_WIDTH: u16 = 20;

/// Columns the preview layout needs to put the pane beside the list.
pub const PREVIEW_WIDE_MIN: u16 = 90;

/// One frame laid out at a width: the footer and how many lines it takes, the current tab's body
/// and its heights, and the settings modal over them. Sizing the inline area and drawing the frame both read it,
/// so a frame is laid out once (see [`crate::tui::App::natural_height`]).
pub struct FrameLayout {
    cols: u16,
    footer: Footer,
    /// The footer's lines above its rule.
    footer_lines: u16,
    /// The footer a frame short of rows shows: the notice and the essential hints.
    essential_footer: Footer,
    /// Its lines above its rule.
    essential_lines: u16,
    body: BodyLayout,
    heights: BodyHeights,
    modal: Option<SettingsModal>,
}

impl FrameLayout {
    /// Lays the flow out at `cols` columns (at least one).
    pub fn new(model: &Model, chrome: &Chrome, state: &mut ViewState, cols: u16) -> FrameLayout {
        let cols = cols.max(1);
        let (footer, essential_footer) = flow_footers(model, chrome);
        let lines_of = |f: &Footer| u16::try_from(f.lines(cols).len()).unwrap_or(u16::MAX);
        let footer_lines = lines_of(&footer);
        let essential_lines = lines_of(&essential_footer);
        let body = BodyLayout::new(model, chrome, state, cols);
        let heights = body.heights(cols);
        FrameLayout {
            cols,
            footer,
            footer_lines,
            essential_footer,
            essential_lines,
            body,
            heights,
            modal: flow_settings_view(model, chrome),
        }
    }

    /// The columns it was laid out at.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// The height the flow wants (tight to its content), for sizing the inline area; an open
    /// settings modal is drawn over the form, so the area grows to show it whole.
    pub fn natural_height(&self, model: &Model) -> u16 {
        let title = if model.title().is_some() { 2 } else { 0 };
        let form = (1u16 + title + 2)
            .saturating_add(self.heights.natural)
            .saturating_add(self.footer_lines.saturating_add(1));
        let modal = self.modal.as_ref().map_or(0, |view| {
            view.area(Rect::new(0, 0, self.cols, u16::MAX)).height
        });
        form.max(modal)
    }
}

/// The settings modal open over the flow, if any.
fn flow_settings_view(model: &Model, chrome: &Chrome) -> Option<SettingsModal> {
    let modal = model.settings_modal()?;
    Some(settings_view(
        modal,
        model.settings(),
        chrome.config_path,
        chrome.table,
        chrome.look,
    ))
}

/// The footer with every hint, and the one with the essential hints only (both with the notice).
fn flow_footers(model: &Model, chrome: &Chrome) -> (Footer, Footer) {
    let footer = |hints: Vec<Vec<String>>| Footer {
        notice: model.notice().map(str::to_owned),
        hints,
        theme: chrome.look.theme,
        ..Footer::default()
    };
    if !model.settings().behaviour.show_footer_hints {
        return (footer(Vec::new()), footer(Vec::new()));
    }
    let around = super::hints::Around {
        popup_open: model.popup().is_some_and(|p| !p.items.is_empty()),
        markdown: chrome.look.theme.render_markdown,
        shift_enter: chrome.shift_enter,
        hides: chrome.hides,
        preview_overflows: chrome.preview_overflows,
    };
    (
        footer(flow_hints(chrome.table, model, &around)),
        footer(vec![essential_hints(chrome.table, model, &around)]),
    )
}

/// The current tab's body, laid out at one width: measured for the plan, then drawn.
enum BodyLayout {
    Question(usize, Box<QuestionLayout>),
    Review(Box<ReviewTab>),
}

impl BodyLayout {
    fn new(model: &Model, chrome: &Chrome, state: &mut ViewState, cols: u16) -> BodyLayout {
        match model.tab() {
            Tab::Question(q) => BodyLayout::Question(
                q,
                Box::new(QuestionLayout::new(model, chrome, state, q, cols)),
            ),
            Tab::Review => BodyLayout::Review(Box::new(review_view(model))),
        }
    }

    fn heights(&self, cols: u16) -> BodyHeights {
        match self {
            BodyLayout::Question(_, layout) => layout.heights(),
            BodyLayout::Review(review) => {
                let natural = u16::try_from(review.lines(cols as usize).len()).unwrap_or(u16::MAX);
                // The review cuts its list with a `↓ N more lines` marker, so on a short screen
                // it gives rows to the footer's essential hints before showing every answer.
                BodyHeights {
                    min: 3.min(natural),
                    comfort: natural.min(plan::COMFORT_REVIEW_LINES),
                    natural,
                }
            }
        }
    }
}

/// Draws the flow into `buf`: what the model shows, in the chrome's colours and keys, with the
/// view's caches. Returns where the caret of an open editor is and what the frame measured.
pub fn draw(
    model: &Model,
    chrome: &Chrome,
    state: &mut ViewState,
    area: Rect,
    buf: &mut Buffer,
) -> Drawn {
    let layout = FrameLayout::new(model, chrome, state, area.width);
    draw_laid_out(layout, model, chrome, state, area, buf)
}

/// The hidden form: one line naming it and the key that shows it again, the rest left to what
/// is above it.
pub fn draw_hidden(
    model: &Model,
    table: &crate::keymap::BindingTable,
    look: &crate::tui::appearance::Look,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let what = model.title().unwrap_or(crate::strings::HIDDEN_FORM);
    let show = table
        .first_label(crate::keymap::Action::GlobalHide)
        .map(|key| format!(" · {key} show"))
        .unwrap_or_default();
    let line = format!(" {what} (hidden){show}");
    put(
        buf,
        area.x,
        area.y,
        crate::printable::printable(&line),
        area.width as usize,
        look.theme.muted(),
    );
}

/// [`draw`] with the frame already laid out at `area`'s width (by [`FrameLayout::new`] on the
/// same model, chrome and state).
pub fn draw_laid_out(
    layout: FrameLayout,
    model: &Model,
    chrome: &Chrome,
    state: &mut ViewState,
    area: Rect,
    buf: &mut Buffer,
) -> Drawn {
    let theme = chrome.look.theme;
    let FrameLayout {
        footer,
        footer_lines,
        essential_footer,
        essential_lines,
        body: layout,
        heights: body,
        modal,
        ..
    } = layout;
    let plan = (area.width >= MIN_WIDTH)
        .then(|| {
            let footer = FooterHeights {
                full: footer_lines.saturating_add(1),
                essential: essential_lines.saturating_add(1),
            };
            plan(area.height, model.title().is_some(), footer, body)
        })
        .flatten();
    let Some(plan) = plan else {
        draw_too_small(area, buf, &theme, body.min + 1);
        return Drawn::default();
    };
    let cols = area.width as usize;
    let mut y = area.y;
    if plan.rule {
        fill(buf, area.x, y, cols, "─", theme.accent());
        y += 1;
    }
    if let (true, Some(title)) = (plan.title, model.title()) {
        put(
            buf,
            area.x,
            y,
            format!(" {title}"),
            cols,
            theme.bold_accent(),
        );
        y += 1 + u16::from(plan.title_gap);
    }
    if plan.tabs {
        let mut tabs = TabBar::new(
            model
                .questions()
                .iter()
                .zip(model.answers())
                .map(|(q, a)| TabItem {
                    label: q.label.clone(),
                    answered: a.is_committed(),
                    required: q.required,
                })
                .collect(),
            model.tab_index(),
        );
        tabs.theme = theme;
        view_in(&mut tabs, Rect::new(area.x, y, area.width, 1), buf);
        y += 1 + u16::from(plan.tabs_gap);
    }
    let body_area = Rect::new(area.x, y, area.width, plan.body);
    let (cursor, measured) = match layout {
        BodyLayout::Question(q, layout) => {
            let (cursor, measured) =
                draw_question(model, chrome, state, q, *layout, body_area, buf);
            (cursor, Some(measured))
        }
        BodyLayout::Review(mut review) => {
            review.theme = theme;
            view_in(review.as_mut(), body_area, buf);
            (None, None)
        }
    };
    let shown = match plan.footer {
        FooterShown::Full => Some((footer, footer_lines)),
        FooterShown::Essential => Some((essential_footer, essential_lines)),
        FooterShown::None => None,
    };
    if let Some((mut footer, lines)) = shown {
        let height = lines.saturating_add(1);
        view_in(
            &mut footer,
            Rect::new(area.x, area.y + area.height - height, area.width, height),
            buf,
        );
    }

    if let Some(view) = modal {
        draw_modal(view, area, buf);
        return Drawn {
            cursor: None,
            measured,
        };
    }
    Drawn { cursor, measured }
}

/// A notice asking for a bigger terminal, in whole words: the full notice wrapped over the rows
/// there are, else the longest shorter one that fits (see
/// [`crate::strings::terminal_too_small_shorter`]), else as much of the last as fits. The flow's
/// state is untouched, so growing the terminal brings the form back as it was.
fn draw_too_small(area: Rect, buf: &mut Buffer, theme: &Theme, min_height: u16) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let cols = area.width as usize;
    let rows = area.height as usize;
    let full = crate::strings::terminal_too_small(MIN_WIDTH, min_height);
    let shorter = crate::strings::terminal_too_small_shorter(MIN_WIDTH, min_height);
    let fits = |text: &str| {
        let lines = pi_ask_components::text::wrap(text, cols);
        let whole = text
            .split_whitespace()
            .all(|word| pi_ask_components::text::width(word) <= cols);
        (whole && lines.len() <= rows).then_some(lines)
    };
    let lines = std::iter::once(full.as_str())
        .chain(shorter.iter().map(String::as_str))
        .find_map(fits)
        .unwrap_or_else(|| vec![shorter[shorter.len() - 1].clone()]);
    for (y, line) in (area.y..).zip(lines.iter().take(rows)) {
        put(buf, area.x, y, line, cols, theme.warning());
    }
}

/// What the view measured in the last frame, reported to the model (page size, preview scroll).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Measured {
    /// Option rows a page holds.
    pub page_rows: usize,
    /// How far the preview can scroll.
    pub preview_max_scroll: u16,
    /// Preview lines a page shows.
    pub preview_page: u16,
}
