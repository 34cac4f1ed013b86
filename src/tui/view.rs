//! Drawing a flow: the frame (rule, title, tabs, body, footer) and the settings modal on top.

use pi_ask_components::editor;
use pi_ask_components::preview_pane::MAX_PREVIEW_LINES;
use pi_ask_components::text::{fill, put, start_within, width, wrap};

/// The most prompt lines any frame draws (no terminal is this tall; the prompt takes at most half
/// the body), so a prompt of any size is wrapped only this far.
const MAX_PROMPT_LINES: usize = 1024;
use pi_ask_components::{
    Footer, PreviewPane, ReviewEntry, ReviewLine, ReviewTab, SettingsItem, SettingsModal,
    SettingsNotice, TabBar, TabItem, Theme,
};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use super::app::{App, FilteredList};
use super::appearance::Look;
use super::hints::{flow_hints, settings_footer};
use crate::form::QuestionType;
use crate::model::Popup;
use crate::model::{
    EditorTarget, ModalMessage, Model, ReviewAction, SettingsModalState, SettingsRow, Tab,
};
use crate::settings::{RESET_DESCRIPTION, Setting, Settings};
use crate::strings;

/// Narrowest the form is drawn at; below it a one-line notice asks for a bigger terminal.
pub const MIN_WIDTH: u16 = 20;

/// Columns the preview layout needs to put the pane beside the list.
pub const PREVIEW_WIDE_MIN: u16 = 90;

/// Body lines a question gets before the footer and title are added back on a short terminal.
const COMFORT_LIST_LINES: u16 = 9;

/// Most suggestion rows shown at once in the popup.
const POPUP_ROWS: u16 = 8;

/// How tall the body of the current tab wants to be: the least that still shows its point (a
/// prompt line and the cursor row, or the review actions), a comfortable height, and everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BodyHeights {
    min: u16,
    comfort: u16,
    natural: u16,
}

/// Which parts of the frame fit a height, and the body's share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Plan {
    rule: bool,
    title: bool,
    title_gap: bool,
    tabs: bool,
    tabs_gap: bool,
    footer: bool,
    body: u16,
}

/// Fits the frame into `height` rows, or `None` when not even the body's minimum fits. On a short
/// terminal the title goes first, then the footer, then the blank lines; the body keeps at least
/// its minimum.
fn plan(height: u16, title: bool, footer: u16, body: BodyHeights) -> Option<Plan> {
    fn take(left: &mut u16, h: u16) -> bool {
        let fits = h <= *left;
        if fits {
            *left -= h;
        }
        fits
    }
    let mut left = height.checked_sub(body.min)?;
    let mut p = Plan {
        body: body.min,
        ..Plan::default()
    };
    p.tabs = take(&mut left, 1);
    p.rule = take(&mut left, 1);
    let comfort = body.comfort.saturating_sub(body.min);
    p.body += if take(&mut left, comfort) {
        comfort
    } else {
        std::mem::take(&mut left)
    };
    p.tabs_gap = take(&mut left, 1);
    p.footer = take(&mut left, footer);
    p.title = title && take(&mut left, 1);
    p.title_gap = p.title && take(&mut left, 1);
    // The rest goes to the body: up to its natural height, and beyond it on a taller screen
    // (full-screen mode) so the footer stays at the bottom.
    p.body += left;
    Some(p)
}

/// The height the flow wants at a width in its current state (tight to its content), for sizing
/// the inline area.
pub fn natural_height(app: &mut App, cols: u16) -> u16 {
    let cols = cols.max(1);
    let body = BodyLayout::new(app, cols).heights(cols);
    let footer = flow_footer(app).lines(cols).len() as u16 + 1;
    let title = if app.model.title().is_some() { 2 } else { 0 };
    let form = (1u16 + title + 2)
        .saturating_add(body.natural)
        .saturating_add(footer);
    // An open settings modal is drawn over the form: the area grows to show it whole.
    let modal =
        flow_settings_view(app).map_or(0, |view| view.area(Rect::new(0, 0, cols, u16::MAX)).height);
    form.max(modal)
}

/// The settings modal open over the flow, if any.
fn flow_settings_view(app: &App) -> Option<SettingsModal> {
    let modal = app.model.settings_modal()?;
    Some(settings_view(
        modal,
        app.model.settings(),
        &app.config_path,
        &app.table,
        &app.look,
    ))
}

fn flow_footer(app: &App) -> Footer {
    Footer {
        notice: app.model.notice().map(str::to_owned),
        hints: if app.model.settings().behaviour.show_footer_hints {
            flow_hints(
                &app.table,
                &app.model,
                app.popup().is_some_and(|p| !p.items.is_empty()),
                app.look.theme.render_markdown,
            )
        } else {
            Vec::new()
        },
        theme: app.look.theme,
        ..Footer::default()
    }
}

/// The current tab's body, laid out at one width: measured for the plan, then drawn.
enum BodyLayout {
    Question(usize, Box<QuestionLayout>),
    Review(Box<ReviewTab>),
}

impl BodyLayout {
    fn new(app: &mut App, cols: u16) -> BodyLayout {
        match app.model.tab() {
            Tab::Question(q) => {
                BodyLayout::Question(q, Box::new(QuestionLayout::new(app, q, cols)))
            }
            Tab::Review => BodyLayout::Review(Box::new(review_view(&app.model))),
        }
    }

    fn heights(&self, cols: u16) -> BodyHeights {
        match self {
            BodyLayout::Question(_, layout) => layout.heights(),
            BodyLayout::Review(review) => {
                let natural = review.lines(cols as usize).len() as u16;
                BodyHeights {
                    min: 3.min(natural),
                    comfort: natural,
                    natural,
                }
            }
        }
    }
}

/// Draws into a buffer; returns where the caret of an open editor is.
pub fn draw_into(app: &mut App, area: Rect, buf: &mut Buffer) -> Option<Position> {
    let theme = app.look.theme;
    let footer = flow_footer(app);
    let footer_lines = footer.lines(area.width);
    let layout = BodyLayout::new(app, area.width.max(1));
    let body = layout.heights(area.width.max(1));
    let plan = (area.width >= MIN_WIDTH)
        .then(|| {
            plan(
                area.height,
                app.model.title().is_some(),
                footer_lines.len() as u16 + 1,
                body,
            )
        })
        .flatten();
    let Some(plan) = plan else {
        draw_too_small(area, buf, &theme, body.min + 1);
        return None;
    };
    let cols = area.width as usize;
    let mut y = area.y;
    if plan.rule {
        fill(buf, area.x, y, cols, "─", theme.accent());
        y += 1;
    }
    if let (true, Some(title)) = (plan.title, app.model.title()) {
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
            app.model
                .questions()
                .iter()
                .zip(app.model.answers())
                .map(|(q, a)| TabItem {
                    label: q.label.clone(),
                    answered: a.is_committed(),
                })
                .collect(),
            app.model.tab_index(),
        );
        tabs.theme = theme;
        tabs.render(Rect::new(area.x, y, area.width, 1), buf);
        y += 1 + u16::from(plan.tabs_gap);
    }
    let body_area = Rect::new(area.x, y, area.width, plan.body);
    let cursor = match layout {
        BodyLayout::Question(q, layout) => draw_question(app, q, *layout, body_area, buf),
        BodyLayout::Review(mut review) => {
            review.theme = theme;
            review.render(body_area, buf);
            None
        }
    };
    if plan.footer {
        let height = footer_lines.len() as u16 + 1;
        footer.render_lines(
            footer_lines,
            Rect::new(area.x, area.y + area.height - height, area.width, height),
            buf,
        );
    }

    if let Some(view) = flow_settings_view(app) {
        draw_modal(view, area, buf);
        return None;
    }
    cursor
}

/// One line asking for a bigger terminal; the flow's state is untouched, so growing the terminal
/// brings the form back as it was.
fn draw_too_small(area: Rect, buf: &mut Buffer, theme: &Theme, min_height: u16) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let text = crate::strings::terminal_too_small(MIN_WIDTH, min_height);
    put(
        buf,
        area.x,
        area.y,
        text,
        area.width as usize,
        theme.warning(),
    );
}

/// A question tab laid out at one width: what it draws and how tall each part is.
struct QuestionLayout {
    /// The prompt's lines, its Markdown rendered.
    prompt: Vec<ratatui::text::Line<'static>>,
    /// The question note: its open editor's height, or the saved note's lines.
    note_editor: Option<u16>,
    note_lines: Vec<String>,
    /// The list's width, and the pane beside it (wide preview layout) or below it.
    list_width: u16,
    pane: Option<(PreviewPane, PanePlace)>,
    list_natural: u16,
    /// The pane's full height at its width (wrapping a long preview is the costly part).
    pane_natural: u16,
    /// The option list's editor slot is open (the free-form answer or an option note).
    slot_in_list: bool,
    popup: u16,
    /// The filter line's count (`12 of 200`) while the filter is open; the list drawn is then
    /// the filtered one.
    filter: Option<FilterLine>,
}

/// What the filter line shows besides its query.
struct FilterLine {
    count: String,
    matches: usize,
}

/// Lines a filtered list is measured to at most: it is laid out anew at each keystroke, and no
/// terminal shows more, so filtering ten thousand options costs what a screenful costs.
const FILTER_MEASURE_LINES: usize = 300;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PanePlace {
    /// Beside the list: the pane's x offset and width.
    Beside {
        x: u16,
        width: u16,
    },
    Below,
}

impl QuestionLayout {
    /// Lays question `q` out at `cols` columns and puts its state into its option list.
    fn new(app: &mut App, q: usize, cols: u16) -> QuestionLayout {
        // No screen shows more prompt lines than this: a huge prompt is laid out only that far.
        let prompt = prompt_lines(app, q, cols);
        let question = &app.model.questions()[q];
        let answer = app.model.answer(q);
        let open_editor = app.model.editor();
        let editing = open_editor.map(|e| e.target);
        let note_editor = match open_editor {
            Some(
                e @ crate::model::OpenEditor {
                    target: EditorTarget::QuestionNote { .. },
                    ..
                },
            ) => Some(editor::height(
                &e.edit,
                editor_draw_width(note_editor_width(cols)),
            )),
            _ => None,
        };
        let note_lines = match (&note_editor, &answer.note) {
            (None, Some(note)) => wrap(
                &format!("Note: {note}"),
                cols.saturating_sub(1).max(1) as usize,
            ),
            _ => Vec::new(),
        };
        let custom_row = question.custom_row();
        let slot_row = match editing {
            Some(EditorTarget::Answer { .. }) => Some(custom_row),
            Some(EditorTarget::OptionNote { option, .. }) => Some(option),
            _ => None,
        };
        let filter = app.model.filter().filter(|f| f.question == q);
        // With nothing matched, no option is highlighted: the pane would show a stale one.
        let preview = question.presented_type == QuestionType::Preview
            && slot_row != Some(custom_row)
            && filter.is_none_or(|f| !f.matches.is_empty());
        let highlighted = app.model.cursor(q);
        let pane = preview.then(|| {
            let option = question.options.get(highlighted);
            // Only the start the pane can lay out at this width is copied into it: a preview of
            // tens of megabytes costs a frame no more than a screenful does.
            let whole = option.and_then(|o| o.preview.as_deref());
            let shown = whole.map(|p| start_within(p, MAX_PREVIEW_LINES, cols as usize));
            let mut pane = PreviewPane::new(
                option.map_or(String::new(), |o| o.label.clone()),
                option.and_then(|o| o.description.clone()),
                shown.map(str::to_owned),
            );
            pane.preview_goes_on = whole.map(str::len) != shown.map(str::len);
            pane.scroll = app.model.preview_scroll();
            pane.raw = app.model.preview_raw();
            pane.theme = app.look.theme;
            pane
        });
        let list = &app.lists[q];
        let (list_width, pane) = match pane {
            Some(pane) if cols >= PREVIEW_WIDE_MIN => {
                let widest = list.widest_label();
                let max_left = 22.max(34.min((cols as f32 * 0.34) as u16));
                let left = ((widest + 4) as u16).clamp(22, max_left);
                let right = cols.saturating_sub(left + 2);
                (
                    left,
                    Some((
                        pane,
                        PanePlace::Beside {
                            x: left + 2,
                            width: right,
                        },
                    )),
                )
            }
            Some(pane) => (cols, Some((pane, PanePlace::Below))),
            None => (cols, None),
        };
        let mut selected = answer.selected.clone();
        if answer.custom_answer().is_some() {
            selected.push(custom_row);
        }
        let editor_lines = slot_row.and_then(|row| {
            let e = open_editor?;
            Some((
                row,
                editor::height(
                    &e.edit,
                    editor_draw_width(list_slot_width(list_width, row, question.freeform)),
                ),
            ))
        });
        let state = pi_ask_components::OptionListState {
            cursor: highlighted,
            checkboxes: question.presented_type.is_multi(),
            selected,
            texts: answer
                .custom_text
                .clone()
                .map(|t| vec![(custom_row, t)])
                .unwrap_or_default(),
            notes: answer
                .option_notes
                .iter()
                .filter_map(|(value, note)| question.option_index(value).map(|i| (i, note.clone())))
                .collect(),
            editor: editor_lines,
            custom_row: Some(custom_row),
            freeform: question.freeform,
        };
        let popup = app.popup().map_or(0, popup_height);
        let filter_line = filter.map(|f| FilterLine {
            count: strings::filter_count(f.matches.len(), question.options.len()),
            matches: f.matches.len(),
        });
        let list = match filter {
            Some(filter) => {
                if !app.filtered.as_ref().is_some_and(|l| l.shows(filter)) {
                    app.filtered = Some(FilteredList::new(filter, app.lists[q].shared_rows()));
                }
                let filtered = app.filtered.as_mut().expect("built above");
                let shown = |row: &usize| filtered.position.get(*row).copied().flatten();
                let state = pi_ask_components::OptionListState {
                    cursor: filter.selected,
                    checkboxes: state.checkboxes,
                    selected: state.selected.iter().filter_map(shown).collect(),
                    notes: state
                        .notes
                        .into_iter()
                        .filter_map(|(row, note)| Some((shown(&row)?, note)))
                        .collect(),
                    ..pi_ask_components::OptionListState::default()
                };
                filtered.list.state = state;
                &mut filtered.list
            }
            None => {
                app.filtered = None;
                let list = &mut app.lists[q];
                list.state = state;
                list
            }
        };
        list.theme = app.look.theme;
        let list_natural = match filter {
            Some(_) => list.content_height_up_to(list_width, FILTER_MEASURE_LINES),
            None => list.content_height(list_width),
        };
        let pane_natural = pane.as_ref().map_or(0, |(pane, place)| match place {
            PanePlace::Beside { width, .. } => pane.content_height(*width),
            PanePlace::Below => pane.content_height(list_width),
        });
        QuestionLayout {
            prompt,
            note_editor,
            note_lines,
            list_width,
            pane,
            list_natural,
            pane_natural,
            slot_in_list: slot_row.is_some(),
            popup,
            filter: filter_line,
        }
    }

    /// Lines above the list: the prompt, the note (or its editor), a blank line, and the filter
    /// line while it is open.
    fn head(&self) -> u16 {
        self.prompt.len() as u16 + self.note_height() + 1 + self.filter_height()
    }

    fn filter_height(&self) -> u16 {
        u16::from(self.filter.is_some())
    }

    fn note_height(&self) -> u16 {
        self.note_editor.unwrap_or(self.note_lines.len() as u16)
    }

    fn rows_natural(&self) -> u16 {
        let pane = self.pane_natural;
        match self.pane.as_ref().map(|(_, place)| *place) {
            Some(PanePlace::Beside { .. }) => self.list_natural.max(pane),
            Some(PanePlace::Below) => self.list_natural + 1 + pane,
            None => self.list_natural,
        }
    }

    fn heights(&self) -> BodyHeights {
        let natural = self.head() + self.rows_natural() + self.popup;
        // A prompt line and the cursor row, plus a line of the open editor or the filter.
        let min =
            2 + u16::from(self.slot_in_list || self.note_editor.is_some()) + self.filter_height();
        let comfort = self.prompt.len().min(3) as u16
            + self.filter_height()
            + self.note_height()
            + 1
            + self.rows_natural().min(COMFORT_LIST_LINES)
            + self.popup.min(4);
        BodyHeights {
            min,
            comfort: comfort.clamp(min, natural.max(min)),
            natural: natural.max(min),
        }
    }
}

/// Question `q`'s prompt laid out at `cols` (its Markdown rendered), kept until the width or the
/// theme changes: a prompt is laid out once, not at every key.
fn prompt_lines(app: &mut App, q: usize, cols: u16) -> Vec<ratatui::text::Line<'static>> {
    let theme = app.look.theme;
    if let Some(Some((c, t, lines))) = app.prompts.get(q)
        && *c == cols
        && *t == theme
    {
        return lines.clone();
    }
    let lines = pi_ask_components::markdown::render(
        &app.model.questions()[q].prompt,
        cols.saturating_sub(1).max(1) as usize,
        MAX_PROMPT_LINES,
        theme.text(),
        &theme,
    );
    if let Some(slot) = app.prompts.get_mut(q) {
        *slot = Some((cols, theme, lines.clone()));
    }
    lines
}

/// Width of the area the question note's editor is drawn into.
fn note_editor_width(cols: u16) -> u16 {
    cols.saturating_sub(2)
}

/// Width of the editor slot under option row `row`.
fn list_slot_width(list_width: u16, row: usize, freeform: bool) -> u16 {
    let indent = if freeform {
        pi_ask_components::option_list::FREEFORM_INDENT
    } else {
        pi_ask_components::option_list::detail_indent(row)
    };
    list_width.saturating_sub(indent)
}

/// Width an editor is drawn at in a slot (a margin is kept on the right). Measuring and drawing
/// both go through here, so an editor is always as tall as its wrapped text.
fn editor_draw_width(slot_width: u16) -> u16 {
    slot_width.saturating_sub(2)
}

/// The question tab. Returns the editor caret position.
fn draw_question(
    app: &mut App,
    q: usize,
    layout: QuestionLayout,
    body: Rect,
    buf: &mut Buffer,
) -> Option<Position> {
    let theme = app.look.theme;
    if body.height == 0 || body.width == 0 {
        return None;
    }
    let bottom = body.y + body.height;
    let mut y = body.y;

    // The list keeps at least the cursor row (and an open editor's first line, or the filter
    // line); the prompt takes at most half of the rest so options stay reachable.
    let list_min = 1 + u16::from(layout.slot_in_list) + layout.filter_height();
    let spare = body.height.saturating_sub(list_min);
    let prompt_room = (layout.prompt.len() as u16)
        .min((body.height / 2).max(1))
        .min(spare);
    let right = body.x + body.width;
    for line in layout.prompt.iter().take(prompt_room as usize) {
        let mut x = body.x + 1;
        for span in &line.spans {
            if x >= right {
                break;
            }
            x = put(buf, x, y, &span.content, (right - x) as usize, span.style).0;
        }
        y += 1;
    }

    // The question note: its editor, or the saved note (warning-coloured label, as the original).
    let mut note_slot = None;
    if let Some(h) = layout.note_editor {
        let h = h.min(bottom.saturating_sub(y + 1)).max(1).min(bottom - y);
        note_slot = Some(Rect::new(body.x + 1, y, note_editor_width(body.width), h));
        y += h;
    } else {
        let room = bottom.saturating_sub(y).saturating_sub(list_min) as usize;
        for (n, line) in layout.note_lines.iter().take(room).enumerate() {
            match line.strip_prefix("Note:") {
                Some(rest) if n == 0 => {
                    let (x, _) = put(
                        buf,
                        body.x + 1,
                        y,
                        "Note:",
                        body.width as usize,
                        theme.warning(),
                    );
                    put(
                        buf,
                        x,
                        y,
                        rest,
                        body.width.saturating_sub(x - body.x) as usize,
                        theme.muted(),
                    );
                }
                _ => {
                    put(buf, body.x + 1, y, line, body.width as usize, theme.muted());
                }
            }
            y += 1;
        }
    }
    if bottom.saturating_sub(y) > list_min + 1 {
        y += 1;
    }
    let mut filter_caret = None;
    if let (Some(line), Some(filter)) = (&layout.filter, app.model.filter()) {
        filter_caret = draw_filter_line(line, &filter.query, &theme, body.x, y, body.width, buf);
        y += 1;
        if line.matches == 0 && y < bottom {
            put(
                buf,
                body.x,
                y,
                format!("  {}", strings::NO_MATCHING_OPTIONS),
                body.width as usize,
                theme.muted(),
            );
        }
    }

    // Room for the popup under an editor in the list: the list is drawn above it.
    let rows_bottom = if layout.slot_in_list && layout.popup > 0 {
        bottom
            .saturating_sub(layout.popup)
            .max((y + list_min).min(bottom))
    } else {
        bottom
    };
    let rows_area = Rect::new(body.x, y, body.width, rows_bottom.saturating_sub(y));
    let list = match app.filtered.as_mut() {
        Some(filtered) if layout.filter.is_some() => &mut filtered.list,
        _ => &mut app.lists[q],
    };
    let mut preview_max_scroll = 0;
    let mut preview_page = 0;
    let slot = match layout.pane {
        Some((mut pane, PanePlace::Beside { x, width })) => {
            let slot = list.render(
                Rect::new(
                    rows_area.x,
                    rows_area.y,
                    layout.list_width,
                    rows_area.height,
                ),
                buf,
            );
            let pane_area = Rect::new(
                rows_area.x + x,
                rows_area.y,
                width,
                layout.pane_natural.min(rows_area.height),
            );
            pane.render(pane_area, buf);
            preview_max_scroll = pane.max_scroll();
            preview_page = pane.page_height();
            slot
        }
        Some((mut pane, PanePlace::Below)) => {
            let pane_natural = layout.pane_natural;
            let h = rows_area.height;
            // Both get a share when both cannot show whole: the list keeps the cursor row and a
            // little context, the pane enough for some preview text. An open note editor (and its
            // popup) comes first: the pane takes only what the list leaves.
            let list_height = if layout.list_natural + 1 + pane_natural <= h {
                layout.list_natural
            } else if h < 6 || layout.slot_in_list {
                h
            } else {
                let pane_share = pane_natural.min(h / 2).max(5.min(pane_natural));
                layout
                    .list_natural
                    .min(h.saturating_sub(pane_share + 1))
                    .max(1)
            };
            let slot = list.render(
                Rect::new(rows_area.x, rows_area.y, rows_area.width, list_height),
                buf,
            );
            let pane_y = rows_area.y + list.used_height() + 1;
            if pane_y + 3 <= rows_area.y + h {
                let pane_area = Rect::new(
                    rows_area.x,
                    pane_y,
                    rows_area.width,
                    pane_natural.min(rows_area.y + h - pane_y),
                );
                pane.render(pane_area, buf);
                preview_max_scroll = pane.max_scroll();
                preview_page = pane.page_height();
            }
            slot
        }
        None => list.render(rows_area, buf),
    };
    let page_rows = list.visible_rows().max(1);
    app.measured = Measured {
        page_rows,
        preview_max_scroll,
        preview_page,
    };
    if filter_caret.is_some() {
        return filter_caret;
    }
    let slot = note_slot.or(slot)?;
    let open = app.model.editor()?;
    let editor_area = Rect::new(slot.x, slot.y, editor_draw_width(slot.width), slot.height);
    let cursor = editor::draw(
        &open.edit,
        open.target.placeholder(),
        &theme,
        editor_area,
        buf,
    );
    if let Some(popup) = app.model.popup() {
        draw_popup(popup, editor_area, body, &theme, buf);
    }
    cursor
}

/// The filter line: ` / ` and the query in an editor field, then the count (`12 of 200`) when
/// there is room beside a usable field. Returns the caret.
fn draw_filter_line(
    line: &FilterLine,
    query: &pi_ask_components::TextEdit,
    theme: &Theme,
    x: u16,
    y: u16,
    cols: u16,
    buf: &mut Buffer,
) -> Option<Position> {
    const PREFIX: &str = " / ";
    let prefix = width(PREFIX) as u16;
    let (x, _) = put(buf, x, y, PREFIX, cols as usize, theme.accent());
    let room = cols.saturating_sub(prefix);
    let count = width(&line.count) as u16;
    // The field keeps at least ten columns; the count goes first when both do not fit.
    let (field, with_count) = match room.checked_sub(count + 2) {
        Some(field) if field >= 10 => (field, true),
        _ => (room, false),
    };
    let field = field.min(32.max(room / 2));
    let caret = editor::draw(
        query,
        strings::FILTER_PLACEHOLDER,
        theme,
        Rect::new(x, y, field, 1),
        buf,
    );
    if with_count {
        put(
            buf,
            x + field + 1,
            y,
            &line.count,
            room.saturating_sub(field + 1) as usize,
            theme.dim(),
        );
    }
    caret
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

/// The review entries for the highlighted action: Submit and Cancel show notes only for answered
/// questions; Elaborate shows every note, including notes on unselected options.
pub fn review_entries(model: &Model) -> Vec<ReviewEntry> {
    let elaborate = model.review_cursor() == ReviewAction::Elaborate;
    model
        .questions()
        .iter()
        .zip(model.answers())
        .map(|(question, answer)| {
            let committed = answer.is_committed();
            let shows_notes = elaborate && answer.has_notes();
            if !committed && !shows_notes {
                return ReviewEntry {
                    label: question.label.clone(),
                    lines: vec![ReviewLine::Unanswered],
                };
            }
            let mut lines = Vec::new();
            if let Some(note) = &answer.note {
                lines.push(ReviewLine::Note(note.clone()));
            }
            let labelled: Vec<(String, Option<&String>)> = answer
                .selected
                .iter()
                .map(|&i| {
                    let o = &question.options[i];
                    (o.label.clone(), answer.option_notes.get(&o.value))
                })
                .collect();
            let custom = answer.custom_answer().map(str::to_owned);
            if labelled.len() + usize::from(custom.is_some()) > 1
                || labelled.iter().any(|(_, n)| n.is_some())
            {
                for (label, note) in &labelled {
                    lines.push(ReviewLine::Answer {
                        text: label.clone(),
                        custom: false,
                    });
                    if let Some(note) = note {
                        lines.push(ReviewLine::Note((*note).clone()));
                    }
                }
                if let Some(text) = &custom {
                    lines.push(ReviewLine::Answer {
                        text: text.clone(),
                        custom: false,
                    });
                }
            } else if let Some((label, _)) = labelled.first() {
                lines.push(ReviewLine::Answer {
                    text: label.clone(),
                    custom: false,
                });
            } else if let Some(text) = custom {
                lines.push(ReviewLine::Answer { text, custom: true });
            }
            if elaborate {
                for (value, note) in &answer.option_notes {
                    let Some(i) = question.option_index(value) else {
                        continue;
                    };
                    if !answer.is_selected(i) {
                        lines.push(ReviewLine::OptionNote {
                            option: question.options[i].label.clone(),
                            note: note.clone(),
                        });
                    }
                }
            }
            ReviewEntry {
                label: question.label.clone(),
                lines,
            }
        })
        .collect()
}

fn review_view(model: &Model) -> ReviewTab {
    ReviewTab {
        entries: review_entries(model),
        selected: model.review_cursor().index(),
        hint: model.review_shortcut_hint(),
        ..ReviewTab::default()
    }
}

/// The settings modal's view from its state.
pub fn settings_view(
    modal: &SettingsModalState,
    settings: &Settings,
    path: &str,
    table: &crate::keymap::BindingTable,
    look: &Look,
) -> SettingsModal {
    let toggle = |s: Setting| SettingsItem::Toggle {
        label: s.label().to_owned(),
        on: settings.get(s),
        description: s.description().to_owned(),
    };
    let mut items = vec![SettingsItem::Section(strings::SECTION_LIVE.into())];
    items.extend(Setting::LIVE.into_iter().map(toggle));
    items.push(SettingsItem::Section(strings::SECTION_DEFAULTS.into()));
    items.push(toggle(Setting::PresentSingleAsMulti));
    items.push(SettingsItem::Section(strings::SECTION_APPEARANCE.into()));
    items.push(SettingsItem::Info {
        label: strings::THEME_ROW.into(),
        value: look.label.clone(),
    });
    items.push(SettingsItem::Section(strings::SECTION_ACTIONS.into()));
    items.push(SettingsItem::Reset {
        armed: modal.reset_armed(),
        description: RESET_DESCRIPTION.to_owned(),
    });
    debug_assert_eq!(SettingsRow::count(), Setting::ALL.len() + 1);
    SettingsModal {
        title: "pi-ask".into(),
        path: path.to_owned(),
        items,
        focus: modal.cursor(),
        notice: modal.message().map(|m| match m {
            ModalMessage::Error(e) => SettingsNotice::Error(e.clone()),
            ModalMessage::Notice(n) => SettingsNotice::Info(n.clone()),
        }),
        footer: settings_footer(table),
        theme: look.theme,
        ..SettingsModal::default()
    }
}

/// Draws the modal centred over `area`.
pub fn draw_modal(mut view: SettingsModal, area: Rect, buf: &mut Buffer) {
    view.render(area, buf);
}

/// Lines the popup wants: its suggestion rows and the count line (one line when empty).
fn popup_height(popup: &Popup) -> u16 {
    if popup.items.is_empty() {
        1
    } else {
        (popup.items.len() as u16).min(POPUP_ROWS) + 1
    }
}

/// The suggestion popup, always right below the editor line it completes so the typed text stays
/// visible; with little room it shows fewer suggestions. Names and paths in two columns, and a
/// count of the rows in view (`1-8 of 14`).
fn draw_popup(popup: &Popup, editor: Rect, body: Rect, theme: &Theme, buf: &mut Buffer) {
    let y = editor.y + editor.height;
    let room = (body.y + body.height).saturating_sub(y);
    if room == 0 {
        return;
    }
    let x = editor.x;
    let popup_width = (body.x + body.width).saturating_sub(x);
    if popup_width == 0 {
        return;
    }
    let cols = popup_width as usize;
    if popup.items.is_empty() {
        let area = Rect::new(x, y, popup_width, 1);
        ratatui::widgets::Widget::render(ratatui::widgets::Clear, area, buf);
        buf.set_style(area, theme.panel(theme.text()));
        put(
            buf,
            x,
            y,
            format!(
                "   {}{}",
                crate::strings::NO_MATCHING_FILES,
                if popup.truncated {
                    crate::strings::INDEX_TRUNCATED
                } else {
                    ""
                }
            ),
            cols,
            theme.panel(theme.muted()),
        );
        return;
    }
    // The count line only when there is room for a suggestion too.
    let rows = (popup.items.len() as u16)
        .min(POPUP_ROWS)
        .min(if room >= 2 { room - 1 } else { 1 });
    let with_count = room > rows;
    let area = Rect::new(x, y, popup_width, rows + u16::from(with_count));
    ratatui::widgets::Widget::render(ratatui::widgets::Clear, area, buf);
    buf.set_style(area, theme.panel(theme.text()));
    let rows = rows as usize;
    let first = popup.selected.saturating_sub(rows - 1);
    let shown = &popup.items[first..(first + rows).min(popup.items.len())];
    let name_width = shown
        .iter()
        .map(|i| width(i.label()))
        .max()
        .unwrap_or(0)
        .min(cols / 2);
    for (n, item) in shown.iter().enumerate() {
        let row_y = y + n as u16;
        let selected = first + n == popup.selected;
        let (marker, name_style, path_style) = if selected {
            (
                "  → ",
                theme.on_selected(theme.accent()),
                theme.on_selected(theme.accent()),
            )
        } else {
            (
                "    ",
                theme.panel(theme.text()),
                theme.panel(theme.muted()),
            )
        };
        let (nx, _) = put(buf, x, row_y, marker, cols, name_style);
        let used = (nx - x) as usize;
        put(
            buf,
            nx,
            row_y,
            pi_ask_components::text::pad(
                &pi_ask_components::text::truncate(item.label(), name_width),
                name_width + 2,
            ),
            cols.saturating_sub(used),
            name_style,
        );
        let px = nx + (name_width + 2) as u16;
        if px < x + popup_width {
            put(
                buf,
                px,
                row_y,
                &item.path,
                (x + popup_width - px) as usize,
                path_style,
            );
        }
    }
    if with_count {
        let last = first + shown.len();
        let count = format!(
            "    {}-{last} of {}{}",
            first + 1,
            popup.total.max(popup.items.len()),
            if popup.truncated {
                crate::strings::INDEX_TRUNCATED
            } else {
                ""
            }
        );
        put(
            buf,
            x,
            y + rows as u16,
            count,
            cols,
            theme.panel(theme.dim()),
        );
    }
}
