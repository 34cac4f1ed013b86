//! A drawn buffer as ANSI-styled text lines, for hosts that compose their own screen (pi's TUI
//! takes a component's lines as strings). Each line is at most the buffer's width in columns
//! (`unicode-width`), ends with its style reset, and carries no trailing unstyled blanks.

use ratatui::buffer::Buffer;
use ratatui::layout::Position;
use ratatui::style::{Color, Modifier, Style};

use pi_ask_components::text::width;
use pi_ask_components::theme::{is_default, sgr_colour};

/// The rows of `buf` as styled lines; `marker` goes right before the cell at `cursor`.
pub fn lines(buf: &Buffer, cursor: Option<Position>, marker: Option<&str>) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            let at = cursor
                .filter(|c| c.y == y)
                .and_then(|c| marker.map(|m| (c.x, m)));
            line(buf, y, at)
        })
        .collect()
}

/// One row. Cells covered by a wide character before them are skipped, as a terminal shows them.
fn line(buf: &Buffer, y: u16, marker: Option<(u16, &str)>) -> String {
    let area = buf.area;
    // The row's last cell that shows something: blank default-styled cells after it are dropped.
    let end = (area.left()..area.right())
        .rev()
        .find(|&x| {
            let cell = &buf[(x, y)];
            cell.symbol() != " " || has_colour(cell.style())
        })
        .map_or(area.left(), |x| x + 1);
    let mut out = String::new();
    let mut current = PLAIN;
    let mut columns = 0usize;
    let mut skip = 0usize;
    for x in area.left()..end {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if let Some((mx, m)) = marker
            && mx == x
        {
            out.push_str(m);
        }
        let cell = &buf[(x, y)];
        let symbol = match cell.symbol() {
            "" => " ",
            s => s,
        };
        let w = width(symbol).max(1);
        if columns + w > area.width as usize {
            break;
        }
        let mut style = normal(cell.style());
        // A blank looks the same in any foreground: it continues the run it is in, so a line of
        // muted words is one run, not one per word.
        if symbol == " " && !has_colour(style) && !has_colour(current) {
            style = current;
        }
        if style != current {
            out.push_str(&if style == PLAIN {
                "\x1b[0m".to_owned()
            } else {
                sgr(style)
            });
            current = style;
        }
        out.push_str(symbol);
        columns += w;
        skip = w - 1;
    }
    if current != PLAIN {
        out.push_str("\x1b[0m");
    }
    // A caret after the row's text (an editor's empty end) still gets its marker.
    if let Some((mx, m)) = marker
        && mx >= end
        && mx < area.right()
    {
        out.push_str(&" ".repeat(usize::from(mx - end)));
        out.push_str(m);
    }
    out
}

/// A cell with nothing set: what a line starts and ends with.
const PLAIN: Style = Style::new();

/// The style as it shows: a reset colour is no colour, and removed modifiers say nothing.
fn normal(style: Style) -> Style {
    let colour = |c: Option<Color>| c.filter(|c| !is_default(*c));
    Style {
        fg: colour(style.fg),
        bg: colour(style.bg),
        underline_color: None,
        add_modifier: style.add_modifier,
        sub_modifier: Modifier::empty(),
    }
}

/// Whether a style shows on a blank cell (a background, reversed video, a line through it).
fn has_colour(style: Style) -> bool {
    style.bg.is_some_and(|c| !is_default(c))
        || style
            .add_modifier
            .intersects(Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT)
}

/// The escape sequence that sets `style` from nothing (a reset first, so no attribute leaks).
fn sgr(style: Style) -> String {
    let mut codes: Vec<String> = vec!["0".into()];
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if style.add_modifier.contains(flag) {
            codes.push(code.into());
        }
    }
    if let Some(fg) = style.fg.and_then(|c| sgr_colour(c, false)) {
        codes.push(fg);
    }
    if let Some(bg) = style.bg.and_then(|c| sgr_colour(c, true)) {
        codes.push(bg);
    }
    format!("\x1b[{}m", codes.join(";"))
}

/// A line's width in columns once its escape sequences are removed (for tests and checks).
pub fn visible_width(line: &str) -> usize {
    let mut plain = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            plain.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters up to a final byte.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            // APC/OSC: up to BEL or ST.
            Some('_') | Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    width(&plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    #[test]
    fn styles_are_set_once_per_run_and_reset_at_the_end() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
        buf.set_string(0, 0, "ab", Style::new().fg(Color::Rgb(1, 2, 3)).bold());
        buf.set_string(2, 0, "c", Style::reset());
        assert_eq!(lines(&buf, None, None), ["\x1b[0;1;38;2;1;2;3mab\x1b[0mc"]);
    }

    #[test]
    fn wide_characters_count_twice_and_the_marker_sits_at_the_cursor() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 5, 1));
        buf.set_string(0, 0, "日本x", Style::reset());
        let out = lines(&buf, Some(Position::new(4, 0)), Some("<C>"));
        assert_eq!(out, ["日本<C>x"]);
        assert_eq!(visible_width("日本\x1b_pi:c\x07x"), 5);
    }

    #[test]
    fn blanks_between_words_of_one_style_do_not_split_the_run() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        let muted = Style::new().fg(Color::Indexed(8));
        buf.set_string(0, 0, "a", muted);
        buf.set_string(2, 0, "b", muted);
        buf.set_string(4, 0, "c", Style::new().bg(Color::Indexed(1)));
        buf.set_string(5, 0, " ", Style::new().bg(Color::Indexed(1)));
        assert_eq!(
            lines(&buf, None, None),
            ["\x1b[0;38;5;8ma b \x1b[0;48;5;1mc \x1b[0m"]
        );
    }

    #[test]
    fn a_marker_past_the_text_is_still_placed() {
        let buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        assert_eq!(lines(&buf, Some(Position::new(2, 0)), Some("|")), ["  |"]);
    }
}
