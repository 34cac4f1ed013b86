//! A question tab: laid out at a width (prompt, note, filter line, option list, preview pane,
//! editor slot), measured for the plan, then drawn.

use std::sync::Arc;

use pi_ask_components::editor;
use pi_ask_components::preview_pane::MAX_PREVIEW_LINES;
use pi_ask_components::realm::view_in;
use pi_ask_components::strings::NOTE_LABEL;
use pi_ask_components::text::{Labelled, put, start_within, width, wrap_labelled};
use pi_ask_components::{PreviewPane, TextEdit, Theme};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use super::plan::{BodyHeights, COMFORT_LIST_LINES};
use super::popup::{draw_popup, popup_height};
use super::{Chrome, FilteredList, Measured, PREVIEW_WIDE_MIN, ViewState};
use crate::form::QuestionType;
use crate::model::{EditorTarget, Model};
use crate::strings;

/// The most prompt (or question note) lines any frame draws (no terminal is this tall; the prompt
/// takes at most half the body), so a prompt or note of any size is wrapped only this far.
const MAX_PROMPT_LINES: usize = 1024;

/// A question tab laid out at one width: what it draws and how tall each part is.
pub(super) struct QuestionLayout {
    /// The prompt's lines, its Markdown rendered (shared with the view's cache, not copied).
    prompt: Arc<Vec<ratatui::text::Line<'static>>>,
    /// The question note: its open editor's height, or the saved note's lines.
    note_editor: Option<u16>,
    note_lines: Vec<Labelled>,
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
    pub(super) fn new(
        model: &Model,
        chrome: &Chrome,
        state: &mut ViewState,
        q: usize,
        cols: u16,
    ) -> QuestionLayout {
        // No screen shows more prompt lines than this: a huge prompt is laid out only that far.
        let prompt = prompt_lines(model, chrome, state, q, cols);
        let question = &model.questions()[q];
        let answer = model.answer(q);
        let open_editor = model.editor();
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
            (None, Some(note)) => wrap_labelled(
                NOTE_LABEL,
                note,
                cols.saturating_sub(1).max(1) as usize,
                MAX_PROMPT_LINES,
            ),
            _ => Vec::new(),
        };
        let custom_row = question.custom_row();
        let slot_row = match editing {
            Some(EditorTarget::Answer { .. }) => Some(custom_row),
            Some(EditorTarget::OptionNote { option, .. }) => Some(option),
            _ => None,
        };
        let filter = model.filter().filter(|f| f.question == q);
        // With nothing matched, no option is highlighted: the pane would show a stale one.
        let preview = question.presented_type == QuestionType::Preview
            && slot_row != Some(custom_row)
            && filter.is_none_or(|f| !f.matches.is_empty());
        let highlighted = model.cursor(q);
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
            pane.scroll = model.preview_scroll();
            pane.raw = model.preview_raw();
            pane.theme = chrome.look.theme;
            pane
        });
        let list = &state.lists[q];
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
        let popup = model.popup().map_or(0, popup_height);
        // The slot under the row holds the editor and its `@` suggestions: the rows after it move
        // down, as in the original (pi's editor draws its suggestions as lines of its own), and
        // no option is hidden under the popup.
        let editor_lines = slot_row.and_then(|row| {
            let e = open_editor?;
            Some((
                row,
                editor::height(
                    &e.edit,
                    editor_draw_width(list_slot_width(list_width, row, question.freeform)),
                )
                .saturating_add(popup),
            ))
        });
        let list_state = pi_ask_components::OptionListState {
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
        let filter_line = filter.map(|f| FilterLine {
            count: strings::filter_count(f.matches.len(), question.options.len()),
            matches: f.matches.len(),
        });
        let list = match filter {
            Some(filter) => {
                if !state.filtered.as_ref().is_some_and(|l| l.shows(filter)) {
                    state.filtered = Some(FilteredList::new(filter, state.lists[q].shared_rows()));
                }
                let filtered = state.filtered.as_mut().expect("built above");
                let shown = |row: &usize| filtered.position.get(*row).copied().flatten();
                let filtered_state = pi_ask_components::OptionListState {
                    cursor: filter.selected,
                    checkboxes: list_state.checkboxes,
                    selected: list_state.selected.iter().filter_map(shown).collect(),
                    notes: list_state
                        .notes
                        .into_iter()
                        .filter_map(|(row, note)| Some((shown(&row)?, note)))
                        .collect(),
                    ..pi_ask_components::OptionListState::default()
                };
                filtered.list.state = filtered_state;
                &mut filtered.list
            }
            None => {
                state.filtered = None;
                let list = &mut state.lists[q];
                list.state = list_state;
                list
            }
        };
        list.theme = chrome.look.theme;
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
        lines(self.prompt.len())
            .saturating_add(self.note_height())
            .saturating_add(1 + self.filter_height())
    }

    fn filter_height(&self) -> u16 {
        u16::from(self.filter.is_some())
    }

    fn note_height(&self) -> u16 {
        self.note_editor.unwrap_or(lines(self.note_lines.len()))
    }

    fn rows_natural(&self) -> u16 {
        let pane = self.pane_natural;
        match self.pane.as_ref().map(|(_, place)| *place) {
            Some(PanePlace::Beside { .. }) => self.list_natural.max(pane),
            Some(PanePlace::Below) => self.list_natural.saturating_add(1).saturating_add(pane),
            None => self.list_natural,
        }
    }

    pub(super) fn heights(&self) -> BodyHeights {
        let natural = self
            .head()
            .saturating_add(self.rows_natural())
            .saturating_add(self.popup);
        // A prompt line and the cursor row, plus a line of the open editor or the filter.
        let min =
            2 + u16::from(self.slot_in_list || self.note_editor.is_some()) + self.filter_height();
        let comfort = (lines(self.prompt.len().min(3)) + self.filter_height())
            .saturating_add(self.note_height())
            .saturating_add(1 + self.rows_natural().min(COMFORT_LIST_LINES) + self.popup.min(4));
        BodyHeights {
            min,
            comfort: comfort.clamp(min, natural.max(min)),
            natural: natural.max(min),
        }
    }
}

/// Question `q`'s prompt laid out at `cols` (its Markdown rendered), kept until the width or the
/// theme changes: a prompt is laid out once, not at every key.
fn prompt_lines(
    model: &Model,
    chrome: &Chrome,
    state: &mut ViewState,
    q: usize,
    cols: u16,
) -> Arc<Vec<ratatui::text::Line<'static>>> {
    let theme = chrome.look.theme;
    if let Some(Some((c, t, lines))) = state.prompts.get(q)
        && *c == cols
        && *t == theme
    {
        return Arc::clone(lines);
    }
    let lines = Arc::new(pi_ask_components::markdown::render(
        &model.questions()[q].prompt,
        cols.saturating_sub(1).max(1) as usize,
        MAX_PROMPT_LINES,
        theme.text(),
        &theme,
    ));
    if let Some(slot) = state.prompts.get_mut(q) {
        *slot = Some((cols, theme, Arc::clone(&lines)));
    }
    lines
}

/// A count of lines as a height (a text of more lines than a `u16` holds is as tall as the most).
fn lines(count: usize) -> u16 {
    u16::try_from(count).unwrap_or(u16::MAX)
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

/// The question tab. Returns the editor caret position and what the frame measured.
pub(super) fn draw_question(
    model: &Model,
    chrome: &Chrome,
    state: &mut ViewState,
    q: usize,
    layout: QuestionLayout,
    body: Rect,
    buf: &mut Buffer,
) -> (Option<Position>, Measured) {
    let theme = chrome.look.theme;
    if body.height == 0 || body.width == 0 {
        return (None, Measured::default());
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
        // Its `@` suggestions take rows of their own above the list, never the list's rows.
        y += layout
            .popup
            .min(bottom.saturating_sub(y).saturating_sub(list_min));
    } else {
        let room = bottom.saturating_sub(y).saturating_sub(list_min) as usize;
        for line in layout.note_lines.iter().take(room) {
            let (x, _) = put(
                buf,
                body.x + 1,
                y,
                &line.label,
                body.width as usize,
                theme.warning(),
            );
            put(
                buf,
                x,
                y,
                &line.text,
                body.width.saturating_sub(x - body.x) as usize,
                theme.muted(),
            );
            y += 1;
        }
    }
    if bottom.saturating_sub(y) > list_min + 1 {
        y += 1;
    }
    let mut filter_caret = None;
    if let (Some(line), Some(filter)) = (&layout.filter, model.filter()) {
        let field = FilterField {
            line,
            query: &filter.query,
        };
        filter_caret = draw_filter_line(field, &theme, body.x, y, body.width, buf);
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

    let rows_area = Rect::new(body.x, y, body.width, bottom.saturating_sub(y));
    let list = match state.filtered.as_mut() {
        Some(filtered) if layout.filter.is_some() => &mut filtered.list,
        _ => &mut state.lists[q],
    };
    let mut preview_max_scroll = 0;
    let mut preview_page = 0;
    match layout.pane {
        Some((mut pane, PanePlace::Beside { x, width })) => {
            view_in(
                list,
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
            view_in(&mut pane, pane_area, buf);
            preview_max_scroll = pane.max_scroll();
            preview_page = pane.page_height();
        }
        Some((mut pane, PanePlace::Below)) => {
            let pane_natural = layout.pane_natural;
            let h = rows_area.height;
            // Both get a share when both cannot show whole: the list keeps the cursor row and
            // some context, the pane enough for some preview text. An open note editor (and its
            // popup) comes first: the pane takes only what the list leaves.
            let list_height = if layout
                .list_natural
                .saturating_add(1)
                .saturating_add(pane_natural)
                <= h
            {
                layout.list_natural
            } else if h < 6 || layout.slot_in_list {
                h
            } else {
                // The list the larger share (the choice is made there), the pane two fifths.
                let pane_share = pane_natural.min(h * 2 / 5).max(4.min(pane_natural));
                layout
                    .list_natural
                    .min(h.saturating_sub(pane_share + 1))
                    .max(1)
            };
            view_in(
                list,
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
                view_in(&mut pane, pane_area, buf);
                preview_max_scroll = pane.max_scroll();
                preview_page = pane.page_height();
            }
        }
        None => view_in(list, rows_area, buf),
    }
    let slot = list.editor_slot();
    let page_rows = list.visible_rows().max(1);
    let measured = Measured {
        page_rows,
        preview_max_scroll,
        preview_page,
    };
    if filter_caret.is_some() {
        return (filter_caret, measured);
    }
    let (Some(slot), Some(open)) = (note_slot.or(slot), model.editor()) else {
        return (None, measured);
    };
    // A slot in the list also holds the popup's rows, under the editor's own.
    let popup_rows = if note_slot.is_none() { layout.popup } else { 0 };
    let editor_height = slot
        .height
        .saturating_sub(popup_rows)
        .max(1)
        .min(slot.height);
    let editor_area = Rect::new(slot.x, slot.y, editor_draw_width(slot.width), editor_height);
    let cursor = show_editor(
        &open.edit,
        open.target.placeholder(),
        theme,
        editor_area,
        buf,
    );
    if let Some(popup) = model.popup() {
        draw_popup(popup, editor_area, body, &theme, buf);
    }
    (cursor, measured)
}

/// Draws the model's `edit`, the text's one owner, with the editor component's own drawing (the
/// `Editor` tui-realm component draws its text with it too), and returns its caret.
fn show_editor(
    edit: &TextEdit,
    placeholder: &str,
    theme: Theme,
    area: Rect,
    buf: &mut Buffer,
) -> Option<Position> {
    editor::draw(edit, placeholder, &theme, area, buf)
}

/// The filter line's parts: its layout and the model's query.
struct FilterField<'a> {
    line: &'a FilterLine,
    query: &'a TextEdit,
}

/// The filter line: ` / ` and the query in an editor field, then the count (`12 of 200`) when
/// there is room beside a usable field. Returns the caret.
fn draw_filter_line(
    field: FilterField<'_>,
    theme: &Theme,
    x: u16,
    y: u16,
    cols: u16,
    buf: &mut Buffer,
) -> Option<Position> {
    let FilterField { line, query } = field;
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
    let caret = show_editor(
        query,
        strings::FILTER_PLACEHOLDER,
        *theme,
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
