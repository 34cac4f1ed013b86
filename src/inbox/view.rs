//! Drawing the inbox's list: a heading, two lines per waiting ask (its first prompt; who asked,
//! from where, how long ago), and the footer's key hints. Every text from an ask goes through
//! the same cell writer as the form's, so nothing from a payload or a peer reaches the terminal
//! raw. Draws into any area, 1x1 included.

use pi_ask_components::Theme;
use pi_ask_components::text::{fill, put, truncate};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::InboxList;

/// How long ago, in the words the list uses (`12 s ago`, `3 min ago`, `2 h ago`).
pub fn age(created_at: u64, now_ms: u64) -> String {
    let secs = now_ms.saturating_sub(created_at) / 1000;
    match secs {
        0..60 => format!("{secs} s ago"),
        60..3600 => format!("{} min ago", secs / 60),
        _ => format!("{} h ago", secs / 3600),
    }
}

/// The rows the list wants: heading, rule, the filter line while it is open, two per ask
/// shown, rule, footer.
pub fn natural_height(list: &InboxList) -> u16 {
    let filter = usize::from(list.filter().is_some());
    u16::try_from(list.shown().len() * 2 + 4 + filter).unwrap_or(u16::MAX)
}

/// Draws the list into `area` of `buf` at time `now_ms` with this footer.
pub fn draw(
    list: &InboxList,
    now_ms: u64,
    footer: &str,
    theme: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let cols = area.width as usize;
    let bottom = area.y + area.height;
    let n = list.entries().len();
    let mut heading = match n {
        1 => "pi-ask inbox · 1 ask waiting".to_owned(),
        n => format!("pi-ask inbox · {n} asks waiting"),
    };
    match list.gone_elsewhere() {
        0 => {}
        1 => heading.push_str(" · 1 answered elsewhere or withdrawn"),
        gone => heading.push_str(&format!(" · {gone} answered elsewhere or withdrawn")),
    }
    put(buf, area.x, area.y, heading, cols, theme.bold_accent());
    // The footer and its rule take the last two rows when there is room for anything else.
    let list_bottom = if area.height >= 4 { bottom - 2 } else { bottom };
    if area.height >= 4 {
        fill(buf, area.x, bottom - 2, cols, "─", theme.dim());
        put(buf, area.x, bottom - 1, footer, cols, theme.dim());
    }
    if area.height >= 3 {
        fill(buf, area.x, area.y + 1, cols, "─", theme.dim());
    }
    let mut top = area.y + if area.height >= 3 { 2 } else { 1 };
    if let Some(filter) = list.filter()
        && top < list_bottom
    {
        let count = crate::strings::filter_count(filter.matches.len(), n);
        let x = put(buf, area.x, top, "/ ", cols, theme.accent()).0;
        let room = (area.x as usize + cols).saturating_sub(x as usize);
        let field = room.saturating_sub(count.len() + 2).min(40) as u16;
        pi_ask_components::editor::draw(
            &filter.query,
            crate::strings::FILTER_PLACEHOLDER,
            theme,
            Rect::new(x, top, field, 1),
            buf,
        );
        let cx = x.saturating_add(field).saturating_add(1);
        put(
            buf,
            cx,
            top,
            count,
            (area.x as usize + cols).saturating_sub(cx as usize),
            theme.dim(),
        );
        top += 1;
    }
    let rows = list_bottom.saturating_sub(top) as usize / 2;
    let shown = list.shown();
    // Keep the highlighted ask on screen.
    let at = shown.iter().position(|&i| i == list.cursor()).unwrap_or(0);
    let first = at.saturating_sub(rows.saturating_sub(1));
    for (row, (i, entry)) in shown
        .iter()
        .map(|&i| (i, &list.entries()[i]))
        .skip(first)
        .take(rows.max(1))
        .enumerate()
    {
        let y = top + (row * 2) as u16;
        if y >= list_bottom {
            break;
        }
        let highlighted = i == list.cursor();
        let (marker, style) = if highlighted {
            ("› ", theme.selected())
        } else {
            ("  ", theme.text())
        };
        let later = if list.is_later(&entry.id) {
            "  (later)"
        } else {
            ""
        };
        let x = put(buf, area.x, y, marker, cols, theme.accent()).0;
        let room = cols.saturating_sub(2);
        let prompt = truncate(&entry.first_prompt, room.saturating_sub(later.len()));
        let x = put(buf, x, y, prompt, room, style).0;
        put(
            buf,
            x,
            y,
            later,
            (area.x as usize + cols).saturating_sub(x as usize),
            theme.muted(),
        );
        if y + 1 < list_bottom {
            let mut about = format!(
                "{} · {} · {}",
                entry.client,
                entry.cwd,
                age(entry.created_at, now_ms)
            );
            if !entry.asker_alive {
                about.push_str(" · its asker has gone (an answer is only kept in the history)");
            }
            let about_style = if entry.asker_alive {
                theme.muted()
            } else {
                theme.warning()
            };
            put(
                buf,
                area.x + 4.min(area.width),
                y + 1,
                about,
                cols.saturating_sub(4),
                about_style,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::WaitingAsk;
    use pi_ask_components::text::buffer_rows;

    fn list() -> InboxList {
        let mut list = InboxList::default();
        list.refresh(vec![
            WaitingAsk {
                id: "a".into(),
                client: "claude-code 1.0".into(),
                cwd: "/home/u/proj".into(),
                created_at: 0,
                first_prompt: "Where should it deploy?".into(),
                asker_alive: true,
                queue: 0,
            },
            WaitingAsk {
                id: "b".into(),
                client: "evil\u{1b}]2;PWNED\u{7}".into(),
                cwd: "/tmp".into(),
                created_at: 50_000,
                first_prompt: "Which \u{202e}database?".into(),
                asker_alive: false,
                queue: 0,
            },
        ]);
        list
    }

    fn render(list: &InboxList, w: u16, h: u16) -> Vec<String> {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        draw(
            list,
            125_000,
            "↑/↓ select · Enter open · l later · d decline · Esc / Ctrl+C quit",
            &Theme::default(),
            area,
            &mut buf,
        );
        buffer_rows(&buf)
    }

    #[test]
    fn each_ask_shows_its_prompt_asker_folder_and_age_and_peer_text_is_made_printable() {
        let rows = render(&list(), 90, 8);
        assert_eq!(rows[0].trim_end(), "pi-ask inbox · 2 asks waiting");
        assert_eq!(rows[2].trim_end(), "› Where should it deploy?");
        assert_eq!(
            rows[3].trim_end(),
            "    claude-code 1.0 · /home/u/proj · 2 min ago"
        );
        assert_eq!(rows[4].trim_end(), "  Which ?database?");
        assert!(
            rows[5].starts_with("    evil?]2;PWNED? · /tmp · 1 min ago · its asker has gone"),
            "{}",
            rows[5]
        );
        assert!(
            rows[7].starts_with("↑/↓ select · Enter open"),
            "{}",
            rows[7]
        );
        let text = rows.concat();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
    }

    #[test]
    fn any_size_draws_without_panic_and_keeps_the_highlight_visible() {
        let mut list = list();
        list.update(crate::model::InboxAction::Next);
        for w in 0..30 {
            for h in 0..10 {
                render(&list, w, h);
            }
        }
        let rows = render(&list, 40, 5);
        assert!(rows.iter().any(|r| r.starts_with("› Which")), "{rows:?}");
    }

    #[test]
    fn the_filter_line_narrows_the_asks_and_enter_opens_the_highlighted_match() {
        use crate::inbox::InboxCmd;
        use crate::model::{EditOp, FilterAction, Intent, Msg};
        let mut list = list();
        assert_eq!(list.update_msg(Msg::Intent(Intent::OpenFilter)), None);
        for c in "dtb".chars() {
            list.update_msg(Msg::Edit(EditOp::Insert(c.to_string())));
        }
        let rows = render(&list, 60, 9);
        assert!(
            rows[2].starts_with("/ ") && rows[2].trim_end().ends_with("1 of 2"),
            "{rows:?}"
        );
        assert_eq!(rows[3].trim_end(), "› Which ?database?");
        assert!(!rows.concat().contains("deploy"), "{rows:?}");
        // Esc shows every ask again, the highlight kept on the match.
        list.update_msg(Msg::Filter(FilterAction::Close));
        assert_eq!(list.cursor(), 1);
        assert_eq!(list.shown(), [0, 1]);
        // Matched on who asked too; Enter opens it.
        list.update_msg(Msg::Intent(Intent::OpenFilter));
        for c in "claude".chars() {
            list.update_msg(Msg::Edit(EditOp::Insert(c.to_string())));
        }
        assert_eq!(
            list.update_msg(Msg::Filter(FilterAction::Accept)),
            Some(InboxCmd::Open("a".into()))
        );
        // Nothing matched: Enter does nothing; digits open the n-th match shown.
        list.update_msg(Msg::Intent(Intent::OpenFilter));
        list.update_msg(Msg::Edit(EditOp::Insert("zzzz".into())));
        assert_eq!(list.update_msg(Msg::Filter(FilterAction::Accept)), None);
        list.update_msg(Msg::Edit(EditOp::DeleteToLineStart));
        assert_eq!(
            list.update_msg(Msg::Filter(FilterAction::Pick(2))),
            Some(InboxCmd::Open("b".into()))
        );
        for w in 0..30 {
            for h in 0..10 {
                render(&list, w, h);
            }
        }
    }
}
