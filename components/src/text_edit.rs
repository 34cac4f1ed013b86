//! [`TextEdit`]: the text and caret of an inline editor, every editing operation on them
//! ([`EditOp`]), and their soft-wrapped rows at a width, cached so a key in a long text costs what
//! the rows around the caret cost, not what the whole text does.
//!
//! The caret is a byte offset, so typing at it moves only the bytes after it (none at the end);
//! lines are found by scanning from the caret to the nearest line break. Word motions follow
//! readline: Alt+B/F and Ctrl+Left/Right stop at letters and digits, Ctrl+W deletes the
//! whitespace-delimited word before the caret.

use std::cell::RefCell;

use unicode_width::UnicodeWidthChar;

/// Columns a tab advances to (the next multiple of this).
pub const TAB_WIDTH: usize = 4;

/// One editing operation. A host's binding table produces these; [`TextEdit::apply`] performs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditOp {
    /// Typed text, inserted at the caret (line breaks become spaces in a one-line editor).
    Insert(String),
    /// Pasted text: line endings normalized, control characters other than tabs and line breaks
    /// dropped, line breaks become spaces in a one-line editor.
    Paste(String),
    /// A line break at the caret (nothing in a one-line editor).
    NewLine,
    /// Deletes the character before the caret.
    DeleteCharBackward,
    /// Deletes the character after the caret.
    DeleteCharForward,
    /// The whitespace-delimited word before the caret (Ctrl+W).
    DeleteWordBackward,
    /// To the end of this or the next word (Alt+D).
    DeleteWordForward,
    /// From the start of the line to the caret; at the start, joins with the line above.
    DeleteToLineStart,
    /// From the caret to the end of the line; at the end, joins with the line below.
    DeleteToLineEnd,
    /// Moves the caret one character left.
    CursorLeft,
    /// Moves the caret one character right.
    CursorRight,
    /// Moves the caret to the start of the word before it.
    CursorWordLeft,
    /// Moves the caret past the end of the word after it.
    CursorWordRight,
    /// Moves the caret to the start of its line.
    CursorLineStart,
    /// Moves the caret to the end of its line.
    CursorLineEnd,
    /// The line above at the same column, or the start of the line on the first line (a one-line
    /// editor always goes to its start), as pi's editor does.
    CursorUp,
    /// The line below, or the end of the line on the last one.
    CursorDown,
    /// The whole text becomes this, the caret at its end (a line-by-line driver sets an answer
    /// at once; line breaks become spaces in a one-line editor).
    ReplaceAll(String),
}

impl EditOp {
    /// Whether the operation only moves the caret.
    pub fn is_motion(&self) -> bool {
        matches!(
            self,
            EditOp::CursorLeft
                | EditOp::CursorRight
                | EditOp::CursorWordLeft
                | EditOp::CursorWordRight
                | EditOp::CursorLineStart
                | EditOp::CursorLineEnd
                | EditOp::CursorUp
                | EditOp::CursorDown
        )
    }
}

/// An editor's text and caret.
#[derive(Debug, Clone, Default)]
pub struct TextEdit {
    text: String,
    /// Byte offset of the caret, always on a char boundary.
    cursor: usize,
    single_line: bool,
    rows: RefCell<RowCache>,
}

impl PartialEq for TextEdit {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
            && self.cursor == other.cursor
            && self.single_line == other.single_line
    }
}

impl Eq for TextEdit {}

impl TextEdit {
    /// An editor holding `text` with the caret at its end.
    pub fn new(text: &str) -> TextEdit {
        TextEdit {
            text: text.to_owned(),
            cursor: text.len(),
            ..TextEdit::default()
        }
    }

    /// A one-line editor (free-form answers): no line breaks, Up/Down go to the start/end.
    pub fn single_line(mut self) -> TextEdit {
        self.single_line = true;
        if self.text.contains('\n') {
            self.text = self.text.replace('\n', " ");
            self.rows.get_mut().invalidate(0);
        }
        self
    }

    /// Whether new lines are refused (a one-line field).
    pub fn is_single_line(&self) -> bool {
        self.single_line
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, taken.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The caret's byte offset.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Puts the caret at byte `at`: clamped to the text, and back to the start of the character
    /// it falls inside.
    pub fn set_cursor(&mut self, at: usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        self.cursor = at;
    }

    /// At most `max_bytes` of the text before the caret on its line (a char boundary is kept), for
    /// completions that look at the token being typed without scanning a long line.
    pub fn tail_before_cursor(&self, max_bytes: usize) -> &str {
        // Only the window is scanned for the line break, however long the line.
        let mut from = self.cursor.saturating_sub(max_bytes);
        while !self.text.is_char_boundary(from) {
            from += 1;
        }
        let window = &self.text[from..self.cursor];
        match window.rfind('\n') {
            Some(i) => &window[i + 1..],
            None => window,
        }
    }

    /// Performs `op`. Returns whether the text changed (a motion never changes it).
    pub fn apply(&mut self, op: EditOp) -> bool {
        let before = self.cursor;
        match op {
            EditOp::Insert(text) => {
                let text = if self.single_line {
                    text.replace('\n', " ")
                } else {
                    text
                };
                return self.insert(&text);
            }
            EditOp::Paste(text) => return self.insert(&self.clean_paste(&text)),
            EditOp::ReplaceAll(text) => {
                let text = if self.single_line {
                    text.replace('\n', " ")
                } else {
                    text
                };
                let changed = text != self.text;
                self.cursor = 0;
                self.delete(0, self.text.len());
                self.insert(&text);
                return changed;
            }
            EditOp::NewLine if self.single_line => return false,
            EditOp::NewLine => return self.insert("\n"),
            EditOp::DeleteCharBackward => {
                let from = self.prev_char(self.cursor);
                return self.delete(from, self.cursor);
            }
            EditOp::DeleteCharForward => {
                let to = self.next_char(self.cursor);
                return self.delete(self.cursor, to);
            }
            EditOp::DeleteWordBackward => {
                let start = self.line_start();
                let line = &self.text[start..self.cursor];
                let trimmed = line.trim_end_matches(char::is_whitespace);
                let word_start = trimmed.rfind(char::is_whitespace).map_or(0, |i| {
                    i + trimmed[i..].chars().next().map_or(1, char::len_utf8)
                });
                return self.delete(start + word_start, self.cursor);
            }
            EditOp::DeleteWordForward => {
                let to = self.word_forward();
                let to = if to == self.cursor {
                    self.next_char(self.cursor)
                } else {
                    to
                };
                return self.delete(self.cursor, to);
            }
            EditOp::DeleteToLineStart => {
                let start = self.line_start();
                let from = if start == self.cursor {
                    self.prev_char(start)
                } else {
                    start
                };
                return self.delete(from, self.cursor);
            }
            EditOp::DeleteToLineEnd => {
                let end = self.line_end();
                let to = if end == self.cursor {
                    self.next_char(end)
                } else {
                    end
                };
                return self.delete(self.cursor, to);
            }
            EditOp::CursorLeft => self.cursor = self.prev_char(self.cursor),
            EditOp::CursorRight => self.cursor = self.next_char(self.cursor),
            EditOp::CursorWordLeft => self.cursor = self.word_back(),
            EditOp::CursorWordRight => self.cursor = self.word_forward(),
            EditOp::CursorLineStart => self.cursor = self.line_start(),
            EditOp::CursorLineEnd => self.cursor = self.line_end(),
            EditOp::CursorUp => self.cursor = self.vertical(false),
            EditOp::CursorDown => self.cursor = self.vertical(true),
        }
        debug_assert!(self.text.is_char_boundary(self.cursor), "{before}");
        false
    }

    /// Replaces `chars` characters before the caret (at most to the start of its line) by `text`.
    pub fn replace_before_cursor(&mut self, chars: usize, text: &str) {
        let start = self.line_start();
        let mut from = self.cursor;
        for _ in 0..chars {
            if from <= start {
                break;
            }
            from = self.prev_char(from);
        }
        self.delete(from, self.cursor);
        self.insert(text);
    }

    fn clean_paste(&self, text: &str) -> String {
        let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        normalized
            .chars()
            .filter(|c| *c == '\n' || *c == '\t' || !c.is_control())
            .map(|c| {
                if c == '\n' && self.single_line {
                    ' '
                } else {
                    c
                }
            })
            .collect()
    }

    fn insert(&mut self, text: &str) -> bool {
        if text.is_empty() {
            return false;
        }
        self.text.insert_str(self.cursor, text);
        self.rows.get_mut().invalidate(self.cursor);
        self.cursor += text.len();
        true
    }

    fn delete(&mut self, from: usize, to: usize) -> bool {
        if from >= to {
            return false;
        }
        self.text.replace_range(from..to, "");
        self.cursor = from;
        self.rows.get_mut().invalidate(from);
        true
    }

    fn prev_char(&self, at: usize) -> usize {
        self.text[..at]
            .chars()
            .next_back()
            .map_or(at, |c| at - c.len_utf8())
    }

    fn next_char(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8())
    }

    fn line_start(&self) -> usize {
        line_start_at(&self.text, self.cursor)
    }

    fn line_end(&self) -> usize {
        self.text[self.cursor..]
            .find('\n')
            .map_or(self.text.len(), |i| self.cursor + i)
    }

    /// Readline's forward-word: to the end of this or the next word (letters and digits), on the line.
    fn word_forward(&self) -> usize {
        let rest = &self.text[self.cursor..self.line_end()];
        let mut chars = rest
            .char_indices()
            .skip_while(|(_, c)| !c.is_alphanumeric());
        let end = chars
            .find(|(_, c)| !c.is_alphanumeric())
            .map_or(rest.len(), |(i, _)| i);
        self.cursor + end
    }

    /// Readline's backward-word: to the start of this or the previous word, on the line.
    fn word_back(&self) -> usize {
        let start = self.line_start();
        let line = &self.text[start..self.cursor];
        let trimmed = line.trim_end_matches(|c: char| !c.is_alphanumeric());
        let word = trimmed.trim_end_matches(char::is_alphanumeric);
        start + word.len()
    }

    /// The caret one line down (`down`) or up at the same character column; past the last (first)
    /// line, the end (start) of the line.
    fn vertical(&self, down: bool) -> usize {
        let start = self.line_start();
        let end = self.line_end();
        if self.single_line {
            return if down { end } else { start };
        }
        let column = self.text[start..self.cursor].chars().count();
        let (line_start, line_end) = if down {
            if end == self.text.len() {
                return end;
            }
            let next = end + 1;
            let next_end = self.text[next..]
                .find('\n')
                .map_or(self.text.len(), |i| next + i);
            (next, next_end)
        } else {
            if start == 0 {
                return 0;
            }
            (line_start_at(&self.text, start - 1), start - 1)
        };
        let line = &self.text[line_start..line_end];
        line_start
            + line
                .char_indices()
                .nth(column)
                .map_or(line.len(), |(i, _)| i)
    }

    /// Display rows the text wraps to at `width` columns, counted up to `cap` (rows past the cap
    /// are never laid out).
    pub fn row_count(&self, width: u16, cap: usize) -> usize {
        let mut rows = self.rows.borrow_mut();
        rows.prepare(width);
        rows.extend_while(&self.text, |r| r.starts.len() < cap);
        rows.starts.len().min(cap)
    }

    /// The `height` display rows to draw at `width` (the caret's row the last of them when the
    /// text is taller), as byte ranges without their line breaks, and the caret's row in them and
    /// its display column.
    pub fn visible_rows(&self, width: u16, height: usize) -> VisibleRows {
        let mut rows = self.rows.borrow_mut();
        rows.prepare(width);
        let cursor = self.cursor;
        rows.extend_while(&self.text, |r| {
            r.starts.last().is_some_and(|&s| s <= cursor) && !r.done
        });
        let caret_row = rows
            .starts
            .partition_point(|&s| s <= cursor)
            .saturating_sub(1);
        let top = (caret_row + 1).saturating_sub(height.max(1));
        let wanted = top + height;
        rows.extend_while(&self.text, |r| r.starts.len() < wanted);
        let ranges = (top..wanted.min(rows.starts.len()))
            .map(|i| rows.range(&self.text, i))
            .collect();
        let (row_start, _) = rows.range(&self.text, caret_row);
        let caret_column = display_width(&self.text[row_start..cursor]);
        VisibleRows {
            ranges,
            caret: (caret_row - top, caret_column),
        }
    }
}

/// What [`TextEdit::visible_rows`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisibleRows {
    /// Byte ranges of the rows shown, top first.
    pub ranges: Vec<(usize, usize)>,
    /// The caret's row among them and its column.
    pub caret: (usize, usize),
}

fn line_start_at(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The width a character takes at `column` of a row (tabs advance to the next stop).
fn char_width(c: char, column: usize) -> usize {
    if c == '\t' {
        TAB_WIDTH - column % TAB_WIDTH
    } else {
        c.width().unwrap_or(0)
    }
}

/// Display width of a row's text.
pub fn display_width(row: &str) -> usize {
    row.chars()
        .fold(0, |column, c| column + char_width(c, column))
}

/// The soft-wrapped rows of a text at one width: the start offset of every row laid out so far.
/// Rows are laid out from the top only as far as asked; an edit drops the rows it may change.
#[derive(Debug, Clone, Default)]
struct RowCache {
    width: u16,
    /// Byte offset of each laid-out row's first character; the first is always 0.
    starts: Vec<usize>,
    /// For each row whose successor is in `starts`, where the scan that found that successor
    /// stopped (the end of the last character it looked at): an edit at or past it cannot move
    /// the successor.
    scanned: Vec<usize>,
    /// Every row of the text is in `starts`.
    done: bool,
}

impl RowCache {
    fn prepare(&mut self, width: u16) {
        if self.width != width || self.starts.is_empty() {
            self.width = width;
            self.starts.clear();
            self.starts.push(0);
            self.scanned.clear();
            self.done = false;
        }
    }

    /// Drops the rows an edit at byte `at` may have changed: a row's successor depends only on
    /// the characters its scan looked at, so the rows whose scans stopped at or before `at`
    /// stay, and the rest are laid out again. (Dropping from the edited word on, as before,
    /// laid out a whole unbroken paragraph again at every key: a storm of typed bytes with no
    /// space in a note took seconds.)
    fn invalidate(&mut self, at: usize) {
        if self.starts.is_empty() {
            return;
        }
        // Scans stop further on row by row (each row's scan reads past the next row's start), so
        // `scanned` is ascending.
        let kept_rows = self.scanned.partition_point(|&end| end <= at);
        self.scanned.truncate(kept_rows);
        self.starts.truncate(kept_rows + 1);
        self.done = false;
    }

    fn extend_while(&mut self, text: &str, mut more: impl FnMut(&RowCache) -> bool) {
        while !self.done && more(self) {
            let start = *self
                .starts
                .last()
                .expect("a prepared cache has a first row");
            match next_row(text, start, self.width.max(1) as usize) {
                (Some(next), scanned) => {
                    self.starts.push(next);
                    self.scanned.push(scanned);
                }
                (None, _) => self.done = true,
            }
        }
    }

    /// Row `i`'s byte range without its line break.
    fn range(&self, text: &str, i: usize) -> (usize, usize) {
        let start = self.starts[i];
        let next = match self.starts.get(i + 1) {
            Some(&next) => Some(next),
            None => next_row_start(text, start, self.width.max(1) as usize),
        };
        let end = match next {
            Some(next) if text[..next].ends_with('\n') => next - 1,
            Some(next) => next,
            None => text.len(),
        };
        (start, end.max(start))
    }
}

/// Where the row after the one starting at `start` begins, or `None` when that row is the last.
/// A row ends at a line break, or before the character that would overflow `width`: after the last
/// whitespace of the row when it has one, else at that character (a word wider than the row is
/// broken).
fn next_row_start(text: &str, start: usize, width: usize) -> Option<usize> {
    next_row(text, start, width).0
}

/// [`next_row_start`], and where its scan stopped (the end of the last character it read).
fn next_row(text: &str, start: usize, width: usize) -> (Option<usize>, usize) {
    let mut column = 0;
    let mut last_break = None;
    for (i, c) in text[start..].char_indices() {
        let at = start + i;
        let read = at + c.len_utf8();
        if c == '\n' {
            return (Some(read), read);
        }
        let w = char_width(c, column);
        if column + w > width && at > start {
            return (Some(last_break.filter(|&b| b > start).unwrap_or(at)), read);
        }
        column += w;
        if c.is_whitespace() {
            last_break = Some(read);
        }
    }
    (None, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(text: &str, cursor: usize) -> TextEdit {
        let mut e = TextEdit::new(text);
        e.cursor = cursor;
        e
    }

    fn rows(text: &str, width: u16) -> Vec<&str> {
        let e = TextEdit::new(text);
        let v = e.visible_rows(width, 100);
        v.ranges.iter().map(|&(s, t)| &text[s..t]).collect()
    }

    #[test]
    fn words_wrap_and_long_words_break() {
        assert_eq!(
            rows("a note that is long enough", 10),
            ["a note ", "that is ", "long ", "enough"]
        );
        assert_eq!(rows("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(rows("one\n\ntwo\n", 10), ["one", "", "two", ""]);
        assert_eq!(rows("", 10), [""]);
        // A wide character that does not fit moves to the next row.
        assert_eq!(rows("abc日本", 4), ["abc", "日本"]);
    }

    #[test]
    fn edits_relayout_only_what_they_change() {
        let mut e = TextEdit::new(&"word ".repeat(1000));
        // Two words a row.
        assert_eq!(e.row_count(12, usize::MAX), 500);
        e.cursor = 2500;
        e.apply(EditOp::Insert("xxxxxxxxxxxxxxx ".into()));
        e.apply(EditOp::DeleteWordBackward);
        e.apply(EditOp::Insert("abc".into()));
        let fresh = TextEdit::new(e.text());
        assert_eq!(e.row_count(12, usize::MAX), fresh.row_count(12, usize::MAX));
        assert_eq!(e.visible_rows(12, 3), {
            let mut f = fresh.clone();
            f.cursor = e.cursor;
            f.visible_rows(12, 3)
        });
    }

    proptest::proptest! {
        /// Any edits at any caret, the rows laid out between them or not: the rows are those of
        /// the same text laid out afresh (tabs, wide characters, zero-width ones, long words).
        #[test]
        fn rows_after_edits_are_the_rows_of_the_text_laid_out_afresh(
            start in "[a b\t日\u{301}\n]{0,40}",
            edits in proptest::collection::vec((0usize..60, 0u8..5, "[ab \t日\u{301}\n]{0,8}", proptest::bool::ANY), 1..20),
            width in 1u16..9,
        ) {
            let mut e = TextEdit::new(&start);
            for (caret, kind, text, look) in edits {
                e.cursor = e.text().char_indices().map(|(i, _)| i).chain([e.text().len()]).nth(caret % (e.text().chars().count() + 1)).unwrap_or(0);
                e.apply(match kind {
                    0 | 1 => EditOp::Insert(text),
                    2 => EditOp::DeleteCharBackward,
                    3 => EditOp::DeleteWordBackward,
                    _ => EditOp::DeleteCharForward,
                });
                if look {
                    e.row_count(width, usize::MAX);
                }
                let fresh = TextEdit::new(e.text());
                proptest::prop_assert_eq!(e.row_count(width, usize::MAX), fresh.row_count(width, usize::MAX));
                let mut f = fresh.clone();
                f.cursor = e.cursor;
                proptest::prop_assert_eq!(e.visible_rows(width, 4), f.visible_rows(width, 4));
            }
        }
    }

    #[test]
    fn motions_and_deletions_follow_readline() {
        let mut e = edit("foo bar.baz  qux", 16);
        e.apply(EditOp::CursorWordLeft);
        assert_eq!(e.cursor(), 13);
        e.apply(EditOp::CursorWordLeft);
        assert_eq!(e.cursor(), 8);
        e.apply(EditOp::CursorWordRight);
        assert_eq!(e.cursor(), 11);
        let mut e = edit("foo bar.baz  ", 13);
        e.apply(EditOp::DeleteWordBackward);
        assert_eq!(e.text(), "foo ");
        let mut e = edit("one\ntwo", 4);
        e.apply(EditOp::DeleteToLineStart);
        assert_eq!(e.text(), "onetwo");
        e.apply(EditOp::DeleteToLineEnd);
        assert_eq!(e.text(), "one");
        let mut e = edit("héllo wörld", 0);
        e.apply(EditOp::DeleteWordForward);
        assert_eq!(e.text(), " wörld");
        e.apply(EditOp::DeleteCharForward);
        e.apply(EditOp::CursorRight);
        e.apply(EditOp::DeleteCharBackward);
        assert_eq!(e.text(), "örld");
    }

    #[test]
    fn vertical_moves_keep_the_column_and_stop_at_the_edges() {
        let mut e = edit("abcdef\nxy\nlonger line", 4);
        e.apply(EditOp::CursorDown);
        assert_eq!(e.cursor(), 9, "clamped to the end of `xy`");
        e.apply(EditOp::CursorDown);
        assert_eq!(e.cursor(), 12);
        e.apply(EditOp::CursorDown);
        assert_eq!(e.cursor(), e.text().len());
        let mut e = edit("abc\ndef", 5);
        e.apply(EditOp::CursorUp);
        assert_eq!(e.cursor(), 1);
        e.apply(EditOp::CursorUp);
        assert_eq!(e.cursor(), 0);
    }

    #[test]
    fn the_tail_before_the_caret_stops_at_the_line_and_the_window() {
        let e = edit("first\nsecond line é", 20);
        assert_eq!(e.tail_before_cursor(100), "second line é");
        assert_eq!(e.tail_before_cursor(3), " é");
        assert_eq!(e.tail_before_cursor(1), "", "a char boundary is kept");
        assert_eq!(edit("a\n", 2).tail_before_cursor(10), "");
    }

    #[test]
    fn one_line_editors_take_no_line_breaks() {
        let mut e = TextEdit::new("a").single_line();
        assert!(!e.apply(EditOp::NewLine));
        e.apply(EditOp::Paste("b\r\nc\u{7}\td".into()));
        assert_eq!(e.text(), "ab c\td");
        e.apply(EditOp::CursorUp);
        assert_eq!(e.cursor(), 0);
    }

    #[test]
    fn the_caret_row_is_shown_last_when_the_text_is_taller() {
        let e = TextEdit::new("1\n2\n3\n4\n5");
        let v = e.visible_rows(10, 2);
        assert_eq!(v.ranges.len(), 2);
        assert_eq!(&e.text()[v.ranges[1].0..v.ranges[1].1], "5");
        assert_eq!(v.caret, (1, 1));
    }
}
