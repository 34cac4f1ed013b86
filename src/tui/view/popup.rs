//! The `@` suggestion popup under an editor.

use pi_ask_components::Theme;
use pi_ask_components::text::{put, width};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::model::Popup;

/// Most suggestion rows shown at once in the popup.
const POPUP_ROWS: u16 = 8;

/// Lines the popup wants: its suggestion rows and the count line (one line when empty).
pub(super) fn popup_height(popup: &Popup) -> u16 {
    if popup.items.is_empty() {
        1
    } else {
        (popup.items.len() as u16).min(POPUP_ROWS) + 1
    }
}

/// The suggestion popup, always right below the editor line it completes so the typed text stays
/// visible; with little room it shows fewer suggestions. Names and paths in two columns, and a
/// count of the rows in view (`1-8 of 14`).
pub(super) fn draw_popup(popup: &Popup, editor: Rect, body: Rect, theme: &Theme, buf: &mut Buffer) {
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
