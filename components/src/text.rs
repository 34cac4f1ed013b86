//! Display-width aware text helpers: wrapping and truncation by terminal columns, so CJK,
//! emoji and combining characters line up.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Whether a terminal would act on `c` instead of showing it: control characters (C0, DEL, C1,
/// where escape sequences start), bidi overrides and isolates (which reorder what follows), and
/// the line and paragraph separators.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// `s` with every [`is_unsafe_char`] shown as `?` (borrowed when there is none, the usual case).
pub fn printable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(is_unsafe_char) {
        s.chars()
            .map(|c| if is_unsafe_char(c) { '?' } else { c })
            .collect::<String>()
            .into()
    } else {
        s.into()
    }
}

/// Columns a string takes on screen.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Wraps text to `max` columns: paragraphs split on `\n`, each keeps its leading whitespace as a
/// prefix on every wrapped line, words are joined greedily, and a word wider than the line is broken.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    wrap_at_most(text, max, usize::MAX)
}

/// A wrapped line that may show part of a label (`Note:`) before its text, so the label can be
/// styled apart from what follows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Labelled {
    /// The part of the label this line shows (empty on lines past it).
    pub label: String,
    /// The rest of the line.
    pub text: String,
}

impl Labelled {
    /// A line with no label.
    pub fn plain(text: String) -> Labelled {
        Labelled {
            label: String::new(),
            text,
        }
    }
}

/// `label text` wrapped to `max` columns like [`wrap_at_most`] (at most `limit` lines, so only the
/// start of a long text is copied and wrapped), each line split into the part of the label it
/// shows and the rest: the label is known, never searched for again in the wrapped text, and a
/// width too narrow for it breaks it across lines with each piece still marked. `label` has no
/// whitespace.
pub fn wrap_labelled(label: &str, text: &str, max: usize, limit: usize) -> Vec<Labelled> {
    let mut left = label;
    let text = start_within(text, limit, max.max(1));
    wrap_at_most(&format!("{label} {text}"), max, limit)
        .into_iter()
        .map(|line| {
            // The label's pieces start the first lines in order (a word is broken, never cut).
            let shown = line
                .char_indices()
                .zip(left.chars())
                .take_while(|((_, a), b)| a == b)
                .last()
                .map_or(0, |((at, c), _)| at + c.len_utf8());
            left = &left[shown..];
            let (label, text) = line.split_at(shown);
            Labelled {
                label: label.to_owned(),
                text: text.to_owned(),
            }
        })
        .collect()
}

/// [`wrap`], stopping after `limit` lines: the work is proportional to what is kept, not to the
/// text (a 50 MB prompt costs no more than the screenful that can show).
pub fn wrap_at_most(text: &str, max: usize, limit: usize) -> Vec<String> {
    let max = max.max(1);
    let text = start_within(text, limit, max);
    let mut out = Vec::new();
    for paragraph in text.split('\n') {
        if out.len() >= limit {
            break;
        }
        let trimmed = paragraph.trim_start();
        let indent = &paragraph[..paragraph.len() - trimmed.len()];
        let indent = if width(indent) >= max { "" } else { indent };
        let room = max - width(indent);
        let mut line = String::new();
        let mut line_width = 0;
        let mut pushed = false;
        for word in trimmed.split_whitespace() {
            if out.len() >= limit {
                break;
            }
            let w = width(word);
            if line_width > 0 && line_width + 1 + w <= room {
                line.push(' ');
                line.push_str(word);
                line_width += 1 + w;
                continue;
            }
            if line_width > 0 {
                out.push(format!("{indent}{line}"));
                pushed = true;
                line.clear();
                line_width = 0;
            }
            if w <= room {
                line.push_str(word);
                line_width = w;
            } else {
                for piece in break_word(word, room, limit.saturating_sub(out.len())) {
                    if !line.is_empty() {
                        out.push(format!("{indent}{line}"));
                        pushed = true;
                    }
                    line_width = width(&piece);
                    line = piece;
                }
            }
        }
        if (!line.is_empty() || !pushed) && out.len() < limit {
            out.push(format!("{indent}{line}"));
        }
    }
    out
}

/// The start of `text` that can fill `lines` lines of `cols` columns: every byte that could be
/// wrapped into them, and none past (4 bytes a column and a line break a line; zero-width
/// characters aside). Wrapping or copying only this much bounds the work by the screen.
pub fn start_within(text: &str, lines: usize, cols: usize) -> &str {
    prefix(text, lines.saturating_mul(cols + 1).saturating_mul(4))
}

/// The longest prefix of `text` of at most `bytes` bytes that ends on a character boundary.
pub(crate) fn prefix(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A word cut into pieces of at most `room` columns, at most `pieces` of them.
fn break_word(word: &str, room: usize, pieces: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut piece = String::new();
    let mut piece_width = 0;
    for c in word.chars() {
        let w = c.width().unwrap_or(0);
        if piece_width + w > room && !piece.is_empty() {
            out.push(std::mem::take(&mut piece));
            piece_width = 0;
            if out.len() >= pieces {
                return out;
            }
        }
        piece.push(c);
        piece_width += w;
    }
    if !piece.is_empty() {
        out.push(piece);
    }
    out
}

/// Breaks each line that is wider than `max` columns, keeping every space as written (for
/// preformatted text such as previews and ASCII drawings).
pub fn wrap_preformatted(text: &str, max: usize) -> Vec<String> {
    wrap_preformatted_at_most(text, max, usize::MAX).0
}

/// The first `limit` lines of [`wrap_preformatted`], and whether the text had more. The work is
/// bounded by `limit`, not by the text: what lies past the lines kept is never scanned.
pub fn wrap_preformatted_at_most(text: &str, max: usize, limit: usize) -> (Vec<String>, bool) {
    let max = max.max(1);
    let kept = start_within(text, limit, max);
    let mut cut = kept.len() < text.len();
    let mut out = Vec::new();
    for line in kept.split('\n') {
        if out.len() >= limit {
            cut = true;
            break;
        }
        if width(line) <= max {
            out.push(line.trim_end().to_owned());
        } else {
            let room = limit - out.len();
            let pieces = break_word(line, max, room.saturating_add(1));
            cut |= pieces.len() > room;
            out.extend(
                pieces
                    .into_iter()
                    .take(room)
                    .map(|l| l.trim_end().to_owned()),
            );
        }
    }
    (out, cut)
}

/// Cuts a string to `max` columns, ending with `…` when it was cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Pads with spaces to `cols` columns (no cutting).
pub fn pad(s: &str, cols: usize) -> String {
    let w = width(s);
    if w >= cols {
        s.to_owned()
    } else {
        format!("{s}{}", " ".repeat(cols - w))
    }
}

/// Writes `s` at `(x, y)`, at most `max` columns, like `Buffer::set_stringn`, returning the
/// position after the last column written. Plain ASCII (the bulk of a form) takes a fast path that
/// writes cells directly instead of segmenting graphemes; anything else goes through ratatui.
pub fn put(
    buf: &mut ratatui::buffer::Buffer,
    x: u16,
    y: u16,
    s: impl AsRef<str>,
    max: usize,
    style: ratatui::style::Style,
) -> (u16, u16) {
    let s = s.as_ref();
    let area = buf.area;
    if y < area.top() || y >= area.bottom() || x < area.left() || x >= area.right() {
        return (x, y);
    }
    // Printable ASCII is one column a byte: write the row's cells directly. The first other
    // byte hands the rest to ratatui, which segments graphemes and measures widths.
    let room = (area.right() - x) as usize;
    let limit = s.len().min(max).min(room);
    let plain_space = style.bg.is_none() && style.add_modifier.is_empty();
    let start = buf.index_of(x, y);
    let bytes = s.as_bytes();
    let mut written = 0;
    for (cell, &b) in buf.content[start..start + limit].iter_mut().zip(bytes) {
        if !(0x20..0x7f).contains(&b) {
            break;
        }
        written += 1;
        // A space without background or modifiers on an untouched cell changes nothing visible.
        if b == b' ' && plain_space && *cell == ratatui::buffer::Cell::EMPTY {
            continue;
        }
        cell.set_char(b as char);
        cell.set_style(style);
    }
    let x = x + written as u16;
    if written < bytes.len() && written < max && x < area.right() {
        // Past the ASCII fast path: nothing a terminal would act on gets into a cell.
        return buf.set_stringn(x, y, printable(&s[written..]), max - written, style);
    }
    (x, y)
}

/// Fills `n` cells from `(x, y)` with one single-width symbol (rules, padding).
pub fn fill(
    buf: &mut ratatui::buffer::Buffer,
    x: u16,
    y: u16,
    n: usize,
    symbol: &str,
    style: ratatui::style::Style,
) {
    let area = buf.area;
    if y < area.top() || y >= area.bottom() {
        return;
    }
    let x = x.max(area.left());
    let end = (x as usize + n).min(area.right() as usize) as u16;
    if end <= x {
        return;
    }
    let mut template = ratatui::buffer::Cell::EMPTY;
    template.set_symbol(symbol).set_style(style);
    let start = buf.index_of(x, y);
    for cell in &mut buf.content[start..start + (end - x) as usize] {
        cell.clone_from(&template);
    }
}

/// Writes styled segments one after another from `(x, y)`, stopping at column `right`.
pub fn put_segments<S: AsRef<str>>(
    buf: &mut ratatui::buffer::Buffer,
    x: u16,
    y: u16,
    right: u16,
    segments: impl IntoIterator<Item = (S, ratatui::style::Style)>,
) {
    let mut x = x;
    for (text, style) in segments {
        if x >= right {
            break;
        }
        x = put(buf, x, y, text, (right - x) as usize, style).0;
    }
}

/// A buffer's rows as text: wide characters once, trailing spaces trimmed (for tests and captures).
pub fn buffer_rows(buf: &ratatui::buffer::Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            let mut line = String::new();
            let mut skip = 0;
            for x in area.left()..area.right() {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let symbol = buf[(x, y)].symbol();
                line.push_str(symbol);
                skip = width(symbol).saturating_sub(1);
            }
            line.trim_end().to_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_labelled_wrap_marks_the_label_on_every_line_it_reaches() {
        use super::{Labelled, wrap_labelled};
        let lines = wrap_labelled("Note:", "keep it short", 40, usize::MAX);
        assert_eq!(
            lines,
            [Labelled {
                label: "Note:".into(),
                text: " keep it short".into()
            }]
        );
        // Narrower than the label: its pieces are still the label, what follows is text.
        let narrow = wrap_labelled("Note:", "ok", 3, usize::MAX);
        let labels: Vec<&str> = narrow.iter().map(|l| l.label.as_str()).collect();
        let texts: Vec<&str> = narrow.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(labels, ["Not", "e:", ""]);
        assert_eq!(texts, ["", "", "ok"]);
        // A note that itself begins like the label is text, not more label.
        // A limit stops the wrap there, however long the text.
        let long = wrap_labelled("Note:", &"word ".repeat(100_000), 12, 3);
        assert_eq!(long.len(), 3);
        assert_eq!(long[0].label, "Note:");
        let echo = wrap_labelled("Note:", "Note: twice", 6, usize::MAX);
        assert_eq!(echo[0].label, "Note:");
        assert!(echo[1..].iter().all(|l| l.label.is_empty()), "{echo:?}");
    }

    use super::*;

    #[test]
    fn wraps_prose() {
        assert_eq!(
            wrap("hello world from pi", 8),
            ["hello", "world", "from pi"]
        );
    }

    #[test]
    fn keeps_blank_lines_and_indentation() {
        assert_eq!(
            wrap("Title\n\n  indented text", 12),
            ["Title", "", "  indented", "  text"]
        );
    }

    #[test]
    fn breaks_long_words() {
        assert_eq!(
            wrap("supercalifragilistic", 5),
            ["super", "calif", "ragil", "istic"]
        );
    }

    #[test]
    fn preformatted_text_keeps_its_spaces() {
        assert_eq!(
            wrap_preformatted("  Theme      dark\nabcdefgh", 6),
            ["  Them", "e", " dark", "abcdef", "gh"]
        );
        assert_eq!(wrap_preformatted("a  b", 10), ["a  b"]);
    }

    #[test]
    fn counts_wide_characters_as_two_columns() {
        assert_eq!(wrap("日本語の文章", 4), ["日本", "語の", "文章"]);
        assert_eq!(width("🎉 x"), 4);
        assert_eq!(truncate("日本語", 5), "日本…");
        assert_eq!(wrap("", 3), [""]);
    }
}

#[cfg(test)]
mod wrap_at_most_tests {
    use super::{wrap, wrap_at_most};

    /// Stopping early changes nothing about the lines kept: they are the first lines of the
    /// whole wrap, for prose, long words, indents, wide characters and blank paragraphs.
    #[test]
    fn the_lines_kept_are_the_first_lines_of_the_whole_wrap() {
        let texts = [
            "lorem ipsum dolor sit amet ".repeat(400),
            format!("{}\n\n  indented {}", "x".repeat(3000), "word ".repeat(300)),
            "漢字かな ".repeat(500),
            "a\nb\n\nc\n".repeat(200),
        ];
        for text in &texts {
            for max in [1, 7, 40, 199] {
                let whole = wrap(text, max);
                for limit in [0, 1, 3, 50, 1024] {
                    let kept = wrap_at_most(text, max, limit);
                    let n = limit.min(whole.len());
                    assert_eq!(kept, whole[..n], "max {max}, limit {limit}");
                }
            }
        }
    }
}

#[cfg(test)]
mod wrap_preformatted_at_most_tests {
    use super::{wrap_preformatted, wrap_preformatted_at_most};

    /// The lines kept are the first lines of the whole wrap, and `cut` says exactly whether
    /// any were left out.
    #[test]
    fn the_lines_kept_are_the_first_lines_and_cut_says_whether_more_exist() {
        let texts = [
            "fn main() {\n    println!(\"hi\");\n}\n".repeat(300),
            format!("{}\n  indented\n\n", "x".repeat(5000)),
            "漢字かな表示\n".repeat(400),
            String::new(),
        ];
        for text in &texts {
            for max in [1, 9, 80] {
                let whole = wrap_preformatted(text, max);
                for limit in [0, 1, 2, 77, 1200, 100_000] {
                    let (kept, cut) = wrap_preformatted_at_most(text, max, limit);
                    let n = limit.min(whole.len());
                    assert_eq!(kept, whole[..n], "max {max}, limit {limit}");
                    assert_eq!(cut, whole.len() > limit, "max {max}, limit {limit}");
                }
            }
        }
    }
}
