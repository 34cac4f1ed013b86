//! Drawing a flow: the frame (rule, title, tabs, body, footer) and the settings modal on top.

use pi_ask_components::text::{fill, put, width, wrap};
use pi_ask_components::{
    Footer, PreviewPane, ReviewEntry, ReviewLine, ReviewTab, SettingsItem,
    SettingsModal as ModalView, SettingsNotice, TabBar, TabItem, Theme,
};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};

use super::app::{App, Popup};
use super::hints::{flow_hints, settings_footer};
use crate::form::QuestionType;
use crate::model::{
    EditorTarget, ModalMessage, Model, ReviewAction, SettingsModal, SettingsRow, Tab,
};
use crate::settings::{RESET_DESCRIPTION, Setting, Settings};

/// Smallest size the form is drawn at; below it a notice asks for a bigger terminal.
pub const MIN_WIDTH: u16 = 24;
pub const MIN_HEIGHT: u16 = 7;

/// Columns the preview layout needs to put the pane beside the list.
pub const PREVIEW_WIDE_MIN: u16 = 90;

/// Draws the whole flow into the frame and places the hardware cursor in an open editor.
pub fn draw(app: &mut App, frame: &mut Frame) {
    let area = frame.area();
    let cursor = draw_into(app, area, frame.buffer_mut());
    if let Some(position) = cursor {
        frame.set_cursor_position(position);
    }
}

/// Draws into a buffer; returns where the caret of an open editor is.
pub fn draw_into(app: &mut App, area: Rect, buf: &mut Buffer) -> Option<Position> {
    let theme = Theme::default();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        draw_too_small(area, buf, &theme);
        return None;
    }
    let cols = area.width as usize;
    let mut y = area.y;
    let bottom = area.y + area.height;
    fill(buf, area.x, y, cols, "─", theme.accent());
    y += 1;
    if let Some(title) = app.model.title() {
        put(
            buf,
            area.x,
            y,
            format!(" {title}"),
            cols,
            theme.bold_accent(),
        );
        y += 2;
    }
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
    tabs.render(Rect::new(area.x, y, area.width, 1), buf);
    y += 2;

    let footer = Footer {
        notice: app.model.notice().map(str::to_owned),
        hints: if app.model.settings().behaviour.show_footer_hints {
            flow_hints(
                &app.table,
                &app.model,
                app.popup.as_ref().is_some_and(|p| !p.items.is_empty()),
            )
        } else {
            Vec::new()
        },
        theme,
    };
    let footer_lines = footer.lines(area.width);
    let footer_height = (footer_lines.len() as u16 + 1).min(bottom.saturating_sub(y));
    let body = Rect::new(
        area.x,
        y,
        area.width,
        bottom.saturating_sub(y + footer_height),
    );
    let cursor = match app.model.tab() {
        Tab::Question(q) => draw_question(app, q, body, buf),
        Tab::Review => {
            draw_review(&app.model, body, buf);
            None
        }
    };
    footer.render_lines(
        footer_lines,
        Rect::new(area.x, bottom - footer_height, area.width, footer_height),
        buf,
    );

    if let Some(modal) = app.model.settings_modal() {
        let view = settings_view(modal, app.model.settings(), &app.config_path, &app.table);
        draw_modal(view, area, buf);
        return None;
    }
    cursor
}

fn draw_too_small(area: Rect, buf: &mut Buffer, theme: &Theme) {
    let text = format!("Terminal too small: need at least {MIN_WIDTH}x{MIN_HEIGHT}.");
    for (i, line) in wrap(&text, area.width.max(1) as usize)
        .into_iter()
        .take(area.height as usize)
        .enumerate()
    {
        put(
            buf,
            area.x,
            area.y + i as u16,
            line,
            area.width as usize,
            theme.warning(),
        );
    }
}

/// The question tab. Returns the editor caret position.
fn draw_question(app: &mut App, q: usize, body: Rect, buf: &mut Buffer) -> Option<Position> {
    let theme = Theme::default();
    if body.height == 0 {
        return None;
    }
    let question = &app.model.questions()[q];
    let answer = app.model.answer(q);
    let cols = body.width as usize;
    let bottom = body.y + body.height;
    let mut y = body.y;

    // The prompt takes at most half the body so options stay reachable.
    let prompt = wrap(&question.prompt, cols.saturating_sub(1).max(1));
    let prompt_room = (body.height as usize / 2).max(1);
    for line in prompt.iter().take(prompt_room) {
        put(buf, body.x, y, format!(" {line}"), cols, theme.text());
        y += 1;
    }

    // The question note: its editor, the saved note, or a blank line.
    let mut editor_slot = None;
    let editing_question_note = matches!(app.editor, Some((EditorTarget::QuestionNote { .. }, _)));
    if editing_question_note {
        let h = app
            .editor
            .as_ref()
            .map_or(1, |(_, e)| e.height(body.width.saturating_sub(2)))
            .min(bottom.saturating_sub(y));
        editor_slot = Some(Rect::new(body.x + 1, y, body.width.saturating_sub(2), h));
        y += h;
    } else if let Some(note) = &answer.note {
        for (n, line) in wrap(&format!("Note: {note}"), cols.saturating_sub(1).max(1))
            .into_iter()
            .enumerate()
        {
            if y >= bottom {
                break;
            }
            if n == 0 {
                put(buf, body.x + 1, y, "Note:", cols, theme.accent());
                put(
                    buf,
                    body.x + 6,
                    y,
                    &line["Note:".len()..],
                    cols.saturating_sub(6),
                    theme.muted(),
                );
            } else {
                put(buf, body.x + 1, y, line, cols, theme.muted());
            }
            y += 1;
        }
    }
    y = (y + 1).min(bottom);

    // The option list state from the model.
    let custom_row = question.custom_row();
    let mut selected = answer.selected.clone();
    if answer.custom_answer().is_some() {
        selected.push(custom_row);
    }
    let editor_height = |app: &App| {
        app.editor.as_ref().map_or(1, |(_, e)| {
            e.height(
                body.width
                    .saturating_sub(pi_ask_components::option_list::DETAIL_INDENT + 2),
            )
        })
    };
    let slot_row = match app.editor.as_ref().map(|(t, _)| *t) {
        Some(EditorTarget::Answer { .. }) => Some(custom_row),
        Some(EditorTarget::OptionNote { option, .. }) => Some(option),
        _ => None,
    };
    let state = pi_ask_components::OptionListState {
        cursor: app.model.cursor(q),
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
        editor: slot_row.map(|row| (row, editor_height(app))),
    };
    let preview = question.presented_type == QuestionType::Preview && slot_row != Some(custom_row);
    let highlighted = app.model.cursor(q);
    let preview_pane = preview.then(|| {
        let option = question.options.get(highlighted);
        PreviewPane::new(
            option.map_or(String::new(), |o| o.label.clone()),
            option.and_then(|o| o.description.clone()),
            option.and_then(|o| o.preview.clone()),
        )
    });
    let list = &mut app.lists[q];
    list.state = state;
    let rows_area = Rect::new(body.x, y, body.width, bottom.saturating_sub(y));

    let slot = match preview_pane {
        Some(mut pane) if body.width >= PREVIEW_WIDE_MIN => {
            let widest = list
                .rows()
                .iter()
                .enumerate()
                .map(|(i, r)| width(&format!("{}. {}", i + 1, r.label)))
                .max()
                .unwrap_or(0);
            let max_left = 22.max(34.min((body.width as f32 * 0.34) as u16));
            let left = ((widest + 4) as u16).clamp(22, max_left);
            let slot = list.render(
                Rect::new(rows_area.x, rows_area.y, left, rows_area.height),
                buf,
            );
            let right = body
                .width
                .saturating_sub(left + 2)
                .max(24)
                .min(body.width.saturating_sub(left));
            let pane_height = pane.content_height(right).min(rows_area.height);
            pane.render(
                Rect::new(rows_area.x + left + 2, rows_area.y, right, pane_height),
                buf,
            );
            slot
        }
        Some(mut pane) => {
            let natural = list.content_height(body.width);
            let list_height =
                natural.min(rows_area.height.saturating_sub(6).max(rows_area.height / 2));
            let slot = list.render(
                Rect::new(rows_area.x, rows_area.y, rows_area.width, list_height),
                buf,
            );
            let pane_y = rows_area.y + list_height + 1;
            if pane_y < bottom {
                let pane_height = pane.content_height(body.width).min(bottom - pane_y);
                pane.render(
                    Rect::new(rows_area.x, pane_y, rows_area.width, pane_height),
                    buf,
                );
            }
            slot
        }
        None => list.render(rows_area, buf),
    };
    let slot = editor_slot.or(slot)?;
    let (_, editor) = app.editor.as_mut()?;
    editor.render(
        Rect::new(slot.x, slot.y, slot.width.saturating_sub(2), slot.height),
        buf,
    );
    let cursor = editor.cursor_position();
    if let Some(popup) = &app.popup {
        draw_popup(popup, slot, body, buf);
    }
    cursor
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

fn draw_review(model: &Model, body: Rect, buf: &mut Buffer) {
    let mut review = ReviewTab {
        entries: review_entries(model),
        selected: model.review_cursor().index(),
        hint: model.review_shortcut_hint(),
        ..ReviewTab::default()
    };
    review.render(body, buf);
}

/// The settings modal's view from its state.
pub fn settings_view(
    modal: &SettingsModal,
    settings: &Settings,
    path: &str,
    table: &crate::keymap::BindingTable,
) -> ModalView {
    let toggle = |s: Setting| SettingsItem::Toggle {
        label: s.label().to_owned(),
        on: settings.get(s),
        description: s.description().to_owned(),
    };
    let mut items = vec![SettingsItem::Section("Live settings".into())];
    items.extend(Setting::LIVE.into_iter().map(toggle));
    items.push(SettingsItem::Section("Defaults for future asks".into()));
    items.push(toggle(Setting::PresentSingleAsMulti));
    items.push(SettingsItem::Section("Actions".into()));
    items.push(SettingsItem::Reset {
        armed: modal.reset_armed(),
        description: RESET_DESCRIPTION.to_owned(),
    });
    debug_assert_eq!(SettingsRow::count(), Setting::ALL.len() + 1);
    ModalView {
        title: "pi-ask".into(),
        path: path.to_owned(),
        items,
        focus: modal.cursor(),
        notice: modal.message().map(|m| match m {
            ModalMessage::Error(e) => SettingsNotice::Error(e.clone()),
            ModalMessage::Notice(n) => SettingsNotice::Info(n.clone()),
        }),
        footer: settings_footer(table),
        theme: Theme::default(),
    }
}

/// Draws the modal centred over `area`.
pub fn draw_modal(mut view: ModalView, area: Rect, buf: &mut Buffer) {
    view.render(area, buf);
}

/// Rows of suggestions shown at once in the popup.
const POPUP_ROWS: usize = 8;

/// The suggestion popup: below the editor when there is room, else above it.
fn draw_popup(popup: &Popup, editor: Rect, body: Rect, buf: &mut Buffer) {
    let theme = Theme::default();
    let rows = popup.items.len().clamp(1, POPUP_ROWS) as u16;
    let height = rows + 1;
    let width = editor
        .width
        .max(20)
        .min(body.width.saturating_sub(editor.x.saturating_sub(body.x)));
    let below = editor.y + editor.height;
    let y = if below + height <= body.y + body.height {
        below
    } else if editor.y >= body.y + height {
        editor.y - height
    } else {
        below.min((body.y + body.height).saturating_sub(height))
    };
    let area = Rect::new(editor.x, y, width, height.min(body.height));
    ratatui::widgets::Widget::render(ratatui::widgets::Clear, area, buf);
    let cols = area.width as usize;
    if popup.items.is_empty() {
        put(
            buf,
            area.x,
            area.y,
            " no matching files",
            cols,
            theme.muted(),
        );
        return;
    }
    // Keep the highlighted row in view.
    let first = popup.selected.saturating_sub(POPUP_ROWS - 1);
    for (row, item) in popup.items.iter().enumerate().skip(first).take(POPUP_ROWS) {
        let y = area.y + (row - first) as u16;
        let selected = row == popup.selected;
        let style = if selected {
            theme.accent().bg(theme.selected_bg)
        } else {
            theme.text()
        };
        if selected {
            ratatui::widgets::Widget::render(
                ratatui::widgets::Clear,
                Rect::new(area.x, y, area.width, 1),
                buf,
            );
            buf.set_style(Rect::new(area.x, y, area.width, 1), theme.selected());
        }
        let (x, _) = put(buf, area.x, y, format!(" {}", item.label()), cols, style);
        let dir = item.path.strip_suffix(item.label()).unwrap_or("");
        if !dir.is_empty() {
            let used = (x - area.x) as usize;
            put(
                buf,
                x,
                y,
                format!("  {dir}"),
                cols.saturating_sub(used),
                theme.muted().bg(if selected {
                    theme.selected_bg
                } else {
                    ratatui::style::Color::Reset
                }),
            );
        }
    }
    let count = format!(" ({}/{})", popup.items.len(), popup.total);
    put(
        buf,
        area.x,
        area.y + area.height - 1,
        count,
        cols,
        theme.dim(),
    );
}
