//! Markdown as the form draws it: prompts, descriptions, notes and previews written by agents,
//! laid out to a width with the theme's `md*` colours.
//!
//! - A text with no Markdown syntax is not rendered at all ([`is_plain`]): it is drawn exactly as
//!   before, by [`wrap`](crate::text::wrap), with its line breaks and indentation.
//! - Otherwise it is parsed by `pulldown-cmark` (CommonMark with tables and strikethrough) and laid
//!   out here: headings, emphasis, inline code, fenced and indented code in a box (monospace, never
//!   re-wrapped, clipped at the box; unified diffs coloured with the diff tokens), lists with
//!   hanging indents, quotes behind `│`, links as their text then the address, tables fitted to
//!   the width, rules. A line break in a paragraph stays a line break (agents mean them), and a
//!   blank line between blocks is drawn only where the source has one, so a text's shape is kept.
//! - Every character still goes through [`printable`]: nothing in a payload reaches the terminal
//!   raw, inside code blocks included. Tabs in code become spaces.
//! - Work is bounded by a line limit ([`render`]'s `limit`) and the depth drawn for nested quotes
//!   and lists ([`MAX_DEPTH`]), so hostile Markdown (huge tables, deep nesting, megabyte code
//!   blocks) costs what a screenful costs.

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::text::{is_unsafe_char, printable, width};
use crate::theme::{Theme, Token};

/// Nested quotes and lists deeper than this draw at this depth (their markers stop adding up).
pub const MAX_DEPTH: usize = 8;

/// Most columns a table cell is given before the table is fitted to the width.
const MAX_CELL: usize = 60;

/// The parser's options: CommonMark plus tables and strikethrough.
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

/// Whether `text` has no Markdown in it worth rendering: no emphasis, code, fence, heading, list,
/// quote, link, table, rule or HTML, only paragraphs of text. Such a text is drawn exactly as it
/// always was (its line breaks, indentation, escapes and entities as written): indentation alone
/// never makes a text Markdown, because agents lay out plain previews with it.
pub fn is_plain(text: &str) -> bool {
    // Nothing a Markdown construct starts with: the common case, decided without parsing.
    let marks = |b: u8| {
        matches!(
            b,
            b'*' | b'_'
                | b'`'
                | b'#'
                | b'>'
                | b'-'
                | b'+'
                | b'='
                | b'['
                | b'!'
                | b'<'
                | b'|'
                | b'~'
                | b'0'..=b'9'
        )
    };
    if !text.bytes().any(marks) {
        return true;
    }
    Parser::new_ext(text, options()).all(|event| {
        matches!(
            event,
            Event::Start(Tag::Paragraph | Tag::CodeBlock(CodeBlockKind::Indented))
                | Event::End(TagEnd::Paragraph | TagEnd::CodeBlock)
                | Event::Text(_)
                | Event::SoftBreak
                | Event::HardBreak
        )
    })
}

/// `text` without its Markdown: what a screen reader or a host that shows plain text should get.
/// Plain text comes back unchanged; otherwise the rendered lines' text, without colours (code
/// blocks keep their lines, without the box).
pub fn to_plain(text: &str) -> String {
    if too_deep(text) || is_plain(text) {
        return text.to_owned();
    }
    Renderer::new(text, usize::MAX / 4, usize::MAX, MdStyle::plain())
        .run()
        .iter()
        .map(|line| {
            line.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_owned()
}

/// `text` laid out to `width` columns, at most `limit` lines, over `base` (the style plain text
/// gets: `text` for prompts, `muted` for descriptions and notes). A plain text ([`is_plain`]) is
/// wrapped as it always was, by [`wrap`](crate::text::wrap); with `theme.render_markdown` off
/// every text is.
pub fn render(
    text: &str,
    width: usize,
    limit: usize,
    base: Style,
    theme: &Theme,
) -> Vec<Line<'static>> {
    render_as(text, width, limit, base, theme, |text, width, limit| {
        crate::text::wrap_at_most(text, width, limit)
    })
}

/// [`render`] for preformatted text (previews): a plain text keeps its spacing, wrapped by
/// [`wrap_preformatted_at_most`](crate::text::wrap_preformatted_at_most).
pub fn render_preformatted(
    text: &str,
    width: usize,
    limit: usize,
    base: Style,
    theme: &Theme,
) -> Vec<Line<'static>> {
    render_as(text, width, limit, base, theme, |text, width, limit| {
        crate::text::wrap_preformatted_at_most(text, width, limit).0
    })
}

/// Whether `text` would be rendered as Markdown (rendering is on and it is not plain), looking
/// only at what `limit` lines of `width` columns can show.
pub fn renders(text: &str, width: usize, limit: usize, theme: &Theme) -> bool {
    theme.render_markdown && has_markdown(decided_on(source_within(text, limit, width.max(1))))
}

/// The start of a text that decides whether it is Markdown: a text whose first Markdown comes
/// after 64 KiB of plain text (a log, a listing) is drawn as written, and deciding costs the same
/// for a preview of any size.
fn decided_on(text: &str) -> &str {
    crate::text::prefix(text, 64 << 10)
}

/// Whether a text (at most [`decided_on`]'s 64 KiB) has Markdown to render (not [`is_plain`],
/// not [`too_deep`]), remembered for the last few texts asked about: the view asks about the same
/// preview at every frame, and parsing 64 KiB each time would cost more than the frame. A text is
/// found again by comparing it whole, so two texts can never share an answer.
fn has_markdown(text: &str) -> bool {
    const KEPT: usize = 8;
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<(String, bool)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    // Short texts are decided faster than they are looked up.
    if text.len() < 4096 {
        return !too_deep(text) && !is_plain(text);
    }
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if let Some((_, answer)) = seen.iter().find(|(t, _)| t == text) {
            return *answer;
        }
        let answer = !too_deep(text) && !is_plain(text);
        if seen.len() >= KEPT {
            seen.remove(0);
        }
        seen.push((text.to_owned(), answer));
        answer
    })
}

/// Nested quotes or indentation deeper than any document needs: the text is drawn as written
/// instead (the parser's work grows with the depth on every line, so a hostile text could make a
/// frame cost seconds).
fn too_deep(text: &str) -> bool {
    const MOST: usize = 4 * MAX_DEPTH;
    text.lines().any(|line| {
        line.bytes()
            .take_while(|b| matches!(b, b'>' | b' ' | b'\t'))
            .filter(|b| *b == b'>')
            .count()
            > MOST
            || line.len() - line.trim_start().len() > 4 * MOST
    })
}

fn render_as(
    text: &str,
    width: usize,
    limit: usize,
    base: Style,
    theme: &Theme,
    plain: impl FnOnce(&str, usize, usize) -> Vec<String>,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    // Only what can show is looked at: a megabyte of Markdown costs what a screenful costs.
    let shown = source_within(text, limit, width);
    if !theme.render_markdown || !has_markdown(decided_on(shown)) {
        return plain(text, width, limit)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, base)))
            .collect();
    }
    Renderer::new(shown, width, limit, MdStyle::new(theme, base)).run()
}

/// The start of `text` that can fill `limit` lines at `width`: what
/// [`start_within`](crate::text::start_within) keeps, and no more than two source lines an output
/// line (almost every source line draws at least one; blank lines and table rules draw none).
/// Parsing only this bounds the work by the screen, whatever the text holds.
fn source_within(text: &str, limit: usize, width: usize) -> &str {
    let text = crate::text::start_within(text, limit, width);
    let most = limit.saturating_mul(2).saturating_add(8);
    match text.match_indices('\n').nth(most) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// The styles a rendering draws with.
#[derive(Debug, Clone, Copy)]
struct MdStyle {
    base: Style,
    heading: Style,
    link: Style,
    link_url: Style,
    code: Style,
    code_block: Style,
    code_border: Style,
    quote: Style,
    quote_border: Style,
    rule: Style,
    bullet: Style,
    added: Style,
    removed: Style,
    context: Style,
    /// Drawn for the form: code blocks in a box, quotes behind `│`, rules as lines. Off for plain
    /// text: bare code lines, `> ` before quotes, `---` for rules.
    boxed_code: bool,
}

impl MdStyle {
    fn new(theme: &Theme, base: Style) -> MdStyle {
        let md = |t: Token| theme.md(t, base);
        MdStyle {
            base,
            heading: md(Token::MdHeading).add_modifier(Modifier::BOLD),
            link: md(Token::MdLink).add_modifier(Modifier::UNDERLINED),
            link_url: md(Token::MdLinkUrl),
            code: md(Token::MdCode),
            code_block: md(Token::MdCodeBlock),
            code_border: md(Token::MdCodeBlockBorder),
            quote: md(Token::MdQuote).add_modifier(Modifier::ITALIC),
            quote_border: md(Token::MdQuoteBorder),
            rule: md(Token::MdHr),
            bullet: md(Token::MdListBullet),
            added: md(Token::ToolDiffAdded),
            removed: md(Token::ToolDiffRemoved),
            context: md(Token::ToolDiffContext),
            boxed_code: true,
        }
    }

    /// No styles, and the plain-text shapes (see `boxed_code`): for [`to_plain`].
    fn plain() -> MdStyle {
        let s = Style::default();
        MdStyle {
            base: s,
            heading: s,
            link: s,
            link_url: s,
            code: s,
            code_block: s,
            code_border: s,
            quote: s,
            quote_border: s,
            rule: s,
            bullet: s,
            added: s,
            removed: s,
            context: s,
            boxed_code: false,
        }
    }
}

/// A piece of a paragraph: styled text, a space between words, or a line break.
#[derive(Debug, Clone)]
enum Piece {
    Text(String, Style),
    Space,
    Break,
}

/// A container the current block sits in: its marker on the first line and its indent after.
#[derive(Debug, Clone)]
enum Container {
    Quote,
    /// A list item: its marker (`- `, `3. `) until its first line is drawn.
    Item {
        marker: Option<String>,
        indent: usize,
    },
}

/// An open list: the next number of an ordered one.
#[derive(Debug, Clone, Copy)]
struct List {
    next: Option<u64>,
}

/// A table being read: its alignments, rows of cells (each a line of styled pieces).
#[derive(Debug, Default)]
struct Table {
    alignments: Vec<Alignment>,
    rows: Vec<Vec<Vec<Piece>>>,
    head_rows: usize,
    /// The cell (or row) being read is not kept: past the limit or the columns that can show.
    skipping: bool,
}

struct Renderer<'a> {
    source: &'a str,
    width: usize,
    limit: usize,
    style: MdStyle,
    out: Vec<Line<'static>>,
    /// Inline styles in force (emphasis, strong, strikethrough, links, headings).
    inline: Vec<Style>,
    pieces: Vec<Piece>,
    containers: Vec<Container>,
    lists: Vec<List>,
    links: Vec<String>,
    code: Option<(String, String)>,
    table: Option<Table>,
    /// The source line a blank line was last drawn before.
    blank_before: Option<usize>,
}

impl<'a> Renderer<'a> {
    fn new(source: &'a str, width: usize, limit: usize, style: MdStyle) -> Renderer<'a> {
        Renderer {
            source,
            width,
            limit,
            style,
            out: Vec::new(),
            inline: Vec::new(),
            pieces: Vec::new(),
            containers: Vec::new(),
            lists: Vec::new(),
            links: Vec::new(),
            code: None,
            table: None,
            blank_before: None,
        }
    }

    fn full(&self) -> bool {
        self.out.len() >= self.limit
    }

    fn current(&self) -> Style {
        self.inline
            .iter()
            .fold(self.style.base, |style, s| style.patch(*s))
    }

    fn run(mut self) -> Vec<Line<'static>> {
        let source = self.source;
        for (event, range) in Parser::new_ext(source, options()).into_offset_iter() {
            if self.full() {
                break;
            }
            self.event(event, range);
        }
        self.flush();
        self.out.truncate(self.limit);
        self.out
    }

    /// A new block starts at `start`: a blank line first when the source has one right before it.
    fn block_start(&mut self, start: usize) {
        if self.out.is_empty() {
            return;
        }
        let before = self.source.get(..start).unwrap_or("");
        // The start of the block's own line, then the line before it.
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let Some(previous) = before.get(..line_start.saturating_sub(1)) else {
            return;
        };
        if line_start == 0 {
            return;
        }
        let previous_line = &previous[previous.rfind('\n').map_or(0, |i| i + 1)..];
        // Blocks opening on one line (a quote and its paragraph) get one blank line, not two.
        if self.blank_before == Some(line_start) {
            return;
        }
        if previous_line
            .trim_matches(|c: char| c == '>' || c.is_whitespace())
            .is_empty()
        {
            self.blank_before = Some(line_start);
            self.push_blank();
        }
    }

    fn event(&mut self, event: Event<'a>, range: std::ops::Range<usize>) {
        match event {
            Event::Start(tag) => self.start(tag, range),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => match &mut self.code {
                Some((_, code)) => {
                    if code.len() < MAX_CODE_BYTES {
                        code.push_str(&text);
                    }
                }
                None => self.text(&text),
            },
            Event::Code(code) => {
                let style = self.current().patch(self.style.code);
                self.pieces.push(Piece::Text(code.into_string(), style));
            }
            Event::SoftBreak | Event::HardBreak => self.pieces.push(Piece::Break),
            Event::Rule => {
                self.flush();
                self.block_start(range.start);
                let w = self.inner_width();
                let rule = if self.style.boxed_code {
                    "─".repeat(w.min(80))
                } else {
                    "---".to_owned()
                };
                self.emit(vec![Span::styled(rule, self.style.rule)]);
            }
            // Raw HTML and math stay visible as the text they are.
            Event::Html(text) | Event::InlineHtml(text) => self.text(&text),
            Event::InlineMath(text) | Event::DisplayMath(text) => self.text(&text),
            Event::FootnoteReference(name) => self.text(&format!("[^{name}]")),
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
        }
    }

    fn start(&mut self, tag: Tag<'a>, range: std::ops::Range<usize>) {
        match tag {
            Tag::Paragraph => {
                self.block_start(range.start);
            }
            Tag::Heading { level, .. } => {
                self.flush();
                self.block_start(range.start);
                let mut style = self.style.heading;
                if level == HeadingLevel::H1 {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                self.inline.push(style);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.block_start(range.start);
                self.containers.push(Container::Quote);
                self.inline.push(self.style.quote);
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.block_start(range.start);
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => {
                        info.split_whitespace().next().unwrap_or("").to_owned()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(first) => {
                self.flush();
                if self.lists.is_empty() {
                    self.block_start(range.start);
                }
                self.lists.push(List { next: first });
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut().and_then(|l| l.next.as_mut()) {
                    Some(n) => {
                        let m = format!("{n}. ");
                        *n = n.saturating_add(1);
                        m
                    }
                    None => bullet(self.source, range.start),
                };
                let indent = width(&marker);
                self.containers.push(Container::Item {
                    marker: Some(marker),
                    indent,
                });
            }
            Tag::Emphasis => self
                .inline
                .push(Style::new().add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.inline.push(Style::new().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self
                .inline
                .push(Style::new().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.inline.push(self.style.link);
                self.links.push(dest_url.into_string());
            }
            Tag::Table(alignments) => {
                self.flush();
                self.block_start(range.start);
                self.table = Some(Table {
                    alignments,
                    ..Table::default()
                });
            }
            Tag::TableHead | Tag::TableRow => {
                let limit = self.limit;
                if let Some(t) = &mut self.table {
                    // A row draws at least a line: rows past the limit are read but not kept.
                    t.skipping = t.rows.len() >= limit;
                    if !t.skipping {
                        t.rows.push(Vec::new());
                    }
                }
            }
            Tag::TableCell => {
                self.pieces.clear();
                // Columns that could not get a character each are not kept either.
                let most = self.inner_width().saturating_add(3) / 4;
                if let Some(t) = &mut self.table
                    && let Some(row) = t.rows.last()
                    && row.len() >= most.max(1)
                {
                    t.skipping = true;
                }
            }
            Tag::FootnoteDefinition(_)
            | Tag::HtmlBlock
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_)
            | Tag::Superscript
            | Tag::Subscript => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
            }
            TagEnd::Heading(_) => {
                self.flush();
                self.inline.pop();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.containers.pop();
                self.inline.pop();
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.code_block(&lang, &code);
                }
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Item => {
                self.flush();
                self.containers.pop();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.inline.pop();
            }
            TagEnd::Link | TagEnd::Image => {
                self.inline.pop();
                if let Some(url) = self.links.pop() {
                    let shown: String = self
                        .pieces
                        .iter()
                        .rev()
                        .take_while(|p| matches!(p, Piece::Text(..)))
                        .filter_map(|p| match p {
                            Piece::Text(t, _) => Some(t.as_str()),
                            _ => None,
                        })
                        .collect();
                    // The address after the text, unless the text is the address.
                    if !url.is_empty() && shown != url && !url.starts_with('#') {
                        self.pieces.push(Piece::Space);
                        self.pieces
                            .push(Piece::Text(format!("({url})"), self.style.link_url));
                    }
                }
            }
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.pieces);
                if let Some(t) = self.table.as_mut()
                    && !t.skipping
                    && let Some(row) = t.rows.last_mut()
                {
                    row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = &mut self.table {
                    t.head_rows = t.rows.len();
                    t.skipping = false;
                }
            }
            TagEnd::TableRow => {
                if let Some(t) = &mut self.table {
                    t.skipping = false;
                }
            }
            TagEnd::Table => {
                if let Some(table) = self.table.take() {
                    self.draw_table(table);
                }
            }
            _ => {}
        }
    }

    /// Text of a paragraph: words and the spaces between them, in the current style.
    fn text(&mut self, text: &str) {
        if self.table.as_ref().is_some_and(|t| t.skipping) {
            return;
        }
        let style = self.current();
        let mut word = String::new();
        for c in text.chars() {
            if c == '\n' {
                if !word.is_empty() {
                    self.pieces
                        .push(Piece::Text(std::mem::take(&mut word), style));
                }
                self.pieces.push(Piece::Break);
            } else if c.is_whitespace() {
                if !word.is_empty() {
                    self.pieces
                        .push(Piece::Text(std::mem::take(&mut word), style));
                }
                if !matches!(self.pieces.last(), Some(Piece::Space) | None) {
                    self.pieces.push(Piece::Space);
                }
            } else {
                word.push(c);
            }
        }
        if !word.is_empty() {
            self.pieces.push(Piece::Text(word, style));
        }
    }

    /// The prefix of the next line: quote bars and list markers or their indents.
    fn prefix(&mut self) -> Vec<Span<'static>> {
        let mut spans = Vec::new();
        let depth = self.containers.len();
        let style = self.style;
        for (n, container) in self.containers.iter_mut().enumerate() {
            // Deeper than MAX_DEPTH: the deepest levels draw at MAX_DEPTH.
            let drawn = n < MAX_DEPTH || n + 1 == depth;
            match container {
                Container::Quote if drawn => {
                    let bar = if style.boxed_code { "│ " } else { "> " };
                    spans.push(Span::styled(bar, style.quote_border));
                }
                Container::Item { marker, indent } if drawn => match marker.take() {
                    Some(m) => spans.push(Span::styled(m, style.bullet)),
                    None => spans.push(Span::raw(" ".repeat(*indent))),
                },
                // An undrawn item's marker is used up all the same.
                Container::Item { marker, .. } => {
                    marker.take();
                }
                Container::Quote => {}
            }
        }
        spans
    }

    /// Columns left for text inside the containers.
    fn inner_width(&self) -> usize {
        let depth = self.containers.len();
        let used: usize = self
            .containers
            .iter()
            .enumerate()
            .filter(|(n, _)| *n < MAX_DEPTH || n + 1 == depth)
            .map(|(_, c)| match c {
                Container::Quote => 2,
                Container::Item { indent, .. } => *indent,
            })
            .sum();
        self.width.saturating_sub(used).max(1)
    }

    fn emit(&mut self, mut body: Vec<Span<'static>>) {
        if self.full() {
            return;
        }
        let mut spans = self.prefix();
        spans.append(&mut body);
        // A prefix wider than the width (deep nesting at a narrow width) is cut to it.
        self.out.push(fit(spans, self.width));
    }

    fn push_blank(&mut self) {
        if self.full() {
            return;
        }
        // Inside a quote, the blank line keeps its bar.
        let bars: Vec<Span<'static>> = self
            .containers
            .iter()
            .take(MAX_DEPTH)
            .filter(|c| matches!(c, Container::Quote))
            .map(|_| Span::styled("│", self.style.quote_border))
            .collect();
        self.out.push(fit(bars, self.width));
    }

    /// Lays the pending paragraph out: words filled greedily, a word wider than the line broken.
    fn flush(&mut self) {
        if self.pieces.is_empty() {
            return;
        }
        let pieces = std::mem::take(&mut self.pieces);
        for line in fill(&pieces, self.inner_width()) {
            if self.full() {
                return;
            }
            self.emit(line);
        }
    }

    fn code_block(&mut self, lang: &str, code: &str) {
        let diff = is_diff(lang, code);
        let style = self.style;
        let lines: Vec<String> = code
            .trim_end_matches('\n')
            .lines()
            .take(self.limit.saturating_sub(self.out.len()))
            .map(|l| printable(&l.replace('\t', "    ")).into_owned())
            .collect();
        let line_style = |l: &str| match (diff, l.chars().next()) {
            (false, _) => style.code_block,
            (true, Some('+')) if !l.starts_with("+++") => style.added,
            (true, Some('-')) if !l.starts_with("---") => style.removed,
            (true, _) => style.context,
        };
        if !style.boxed_code {
            for l in &lines {
                self.emit(vec![Span::styled(l.clone(), line_style(l))]);
            }
            return;
        }
        let room = self.inner_width();
        if room < 5 {
            // No room for a box: the lines alone, clipped.
            for l in &lines {
                self.emit(vec![Span::styled(clip(l, room), line_style(l))]);
            }
            return;
        }
        let widest = lines.iter().map(|l| width(l)).max().unwrap_or(0);
        let label = printable(lang).into_owned();
        let inner = widest.max(width(&label) + 2).min(room - 4);
        let border = style.code_border;
        let top_label = if label.is_empty() || width(&label) + 3 > inner + 2 {
            String::new()
        } else {
            format!(" {label} ")
        };
        let top_fill = (inner + 2).saturating_sub(width(&top_label) + 1);
        self.emit(vec![Span::styled(
            format!("┌─{top_label}{}┐", "─".repeat(top_fill)),
            border,
        )]);
        for l in &lines {
            if self.full() {
                return;
            }
            let shown = clip(l, inner);
            let pad = inner - width(&shown);
            self.emit(vec![
                Span::styled("│ ", border),
                Span::styled(shown, line_style(l)),
                Span::raw(" ".repeat(pad)),
                Span::styled(" │", border),
            ]);
        }
        self.emit(vec![Span::styled(
            format!("└{}┘", "─".repeat(inner + 2)),
            border,
        )]);
    }

    fn draw_table(&mut self, table: Table) {
        let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let room = self.inner_width();
        let plain = |cell: &[Piece]| -> String {
            cell.iter()
                .map(|p| match p {
                    Piece::Text(t, _) => t.as_str(),
                    Piece::Space | Piece::Break => " ",
                })
                .collect()
        };
        // Natural widths, then shrunk (widest first) until the row fits with ` │ ` between.
        let mut widths = vec![1usize; columns];
        for row in table.rows.iter().take(self.limit) {
            for (c, cell) in row.iter().enumerate() {
                widths[c] = widths[c].max(width(&plain(cell)).min(MAX_CELL));
            }
        }
        // Columns that cannot get one character each beside their separators are left out.
        let columns = columns.min(room.saturating_add(3) / 4).max(1);
        widths.truncate(columns);
        let separators = 3 * (columns - 1);
        // The widest columns give way first, down to a common width that fits.
        let mut total: usize = widths.iter().sum();
        while total + separators > room {
            let widest = widths.iter().copied().max().unwrap_or(1);
            if widest <= 1 {
                break;
            }
            let next = widths
                .iter()
                .copied()
                .filter(|w| *w < widest)
                .max()
                .unwrap_or(1);
            let count = widths.iter().filter(|w| **w == widest).count();
            let excess = total + separators - room;
            // Lower every widest column to `next`, or less far when that already fits.
            let step = (widest - next).min(excess.div_ceil(count));
            for w in widths.iter_mut().filter(|w| **w == widest) {
                *w -= step;
            }
            total = widths.iter().sum();
        }
        let border = self.style.code_border;
        for (r, row) in table.rows.iter().enumerate() {
            if self.full() {
                return;
            }
            let header = r < table.head_rows;
            let cells: Vec<Vec<Vec<Span<'static>>>> = (0..columns)
                .map(|c| {
                    let cell = row.get(c).map_or(&[][..], Vec::as_slice);
                    let mut lines = fill(cell, widths[c]);
                    if header {
                        for line in &mut lines {
                            for span in line {
                                span.style = span.style.add_modifier(Modifier::BOLD);
                            }
                        }
                    }
                    lines
                })
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1).max(1);
            for l in 0..height {
                let mut spans = Vec::new();
                for (c, cell) in cells.iter().enumerate() {
                    if c > 0 {
                        spans.push(Span::styled(" │ ", border));
                    }
                    let line = cell.get(l).cloned().unwrap_or_default();
                    let used: usize = line.iter().map(|s| width(&s.content)).sum();
                    let pad = widths[c].saturating_sub(used);
                    let (left, right) = match table.alignments.get(c) {
                        Some(Alignment::Right) => (pad, 0),
                        Some(Alignment::Center) => (pad / 2, pad - pad / 2),
                        _ => (0, pad),
                    };
                    spans.push(Span::raw(" ".repeat(left)));
                    spans.extend(line);
                    spans.push(Span::raw(" ".repeat(right)));
                }
                self.emit(spans);
            }
            if header && r + 1 == table.head_rows {
                let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
                self.emit(vec![Span::styled(rule.join("─┼─"), border)]);
            }
        }
    }
}

/// Code blocks keep at most this much of their text (a screenful is far less).
const MAX_CODE_BYTES: usize = 4 << 20;

/// The bullet of an unordered list item: its own marker character, as the author wrote it.
fn bullet(source: &str, at: usize) -> String {
    match source.get(at..).and_then(|s| s.trim_start().chars().next()) {
        Some(c @ ('*' | '+')) => format!("{c} "),
        _ => "- ".to_owned(),
    }
}

/// Whether a code block is a unified diff: its language says so, or it has a hunk header.
fn is_diff(lang: &str, code: &str) -> bool {
    matches!(lang, "diff" | "patch" | "udiff")
        || (lang.is_empty() && code.lines().any(|l| l.starts_with("@@ ")))
}

/// `s` cut to at most `max` columns.
fn clip(s: &str, max: usize) -> String {
    let mut used = 0;
    let mut out = String::new();
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// Spans cut to `max` columns in all.
fn fit(spans: Vec<Span<'static>>, max: usize) -> Line<'static> {
    let mut left = max;
    let mut out = Vec::with_capacity(spans.len());
    for span in spans {
        if left == 0 {
            break;
        }
        let w = width(&span.content);
        if w <= left {
            left -= w;
            out.push(span);
        } else {
            let cut = clip(&span.content, left);
            left = 0;
            out.push(Span::styled(cut, span.style));
        }
    }
    Line::from(out)
}

/// Pieces laid out in lines of `max` columns: words filled greedily, breaks kept, a word wider
/// than a line broken across lines. Every text is made printable.
fn fill(pieces: &[Piece], max: usize) -> Vec<Vec<Span<'static>>> {
    let max = max.max(1);
    let mut lines: Vec<Vec<Span<'static>>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    let mut space_pending = false;
    // Words are runs of text pieces with no space between them (`**bold**text` is one word).
    let mut i = 0;
    while i < pieces.len() {
        match &pieces[i] {
            Piece::Break => {
                lines.push(std::mem::take(&mut line));
                used = 0;
                space_pending = false;
                i += 1;
            }
            Piece::Space => {
                space_pending = used > 0;
                i += 1;
            }
            Piece::Text(..) => {
                let start = i;
                while i < pieces.len() && matches!(pieces[i], Piece::Text(..)) {
                    i += 1;
                }
                let word: Vec<(String, Style)> = pieces[start..i]
                    .iter()
                    .filter_map(|p| match p {
                        Piece::Text(t, s) => Some((sanitize(t), *s)),
                        _ => None,
                    })
                    .collect();
                let w: usize = word.iter().map(|(t, _)| width(t)).sum();
                let gap = usize::from(space_pending);
                if used > 0 && used + gap + w > max {
                    lines.push(std::mem::take(&mut line));
                    used = 0;
                } else if space_pending && used > 0 {
                    line.push(Span::raw(" "));
                    used += 1;
                }
                space_pending = false;
                if w <= max.saturating_sub(used) {
                    for (t, s) in word {
                        line.push(Span::styled(t, s));
                    }
                    used += w;
                    continue;
                }
                // Wider than a line: broken by characters.
                for (t, s) in word {
                    let mut part = String::new();
                    for c in t.chars() {
                        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                        if used + cw > max && used > 0 {
                            if !part.is_empty() {
                                line.push(Span::styled(std::mem::take(&mut part), s));
                            }
                            lines.push(std::mem::take(&mut line));
                            used = 0;
                        }
                        part.push(c);
                        used += cw;
                    }
                    if !part.is_empty() {
                        line.push(Span::styled(part, s));
                    }
                }
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Text made printable, tabs as spaces.
fn sanitize(text: &str) -> String {
    if text.chars().any(is_unsafe_char) {
        printable(&text.replace('\t', " ")).into_owned()
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn plain_text_is_recognised_and_drawn_as_before() {
        for plain in [
            "Which layout should the settings page use?",
            "Line one\nLine two\n\nA second paragraph, with commas; and colons: here.",
            "snake_case_name and a*b without spaces around",
            "Pick one of 300",
            "  indented",
            "a\\*b",
            "Tom &amp; Jerry",
            "Step 1\n\n          [Back]  [Next]",
        ] {
            assert!(is_plain(plain), "{plain:?}");
            let theme = Theme::default();
            let drawn = text_of(&render(plain, 20, 100, Style::default(), &theme));
            assert_eq!(drawn, crate::text::wrap(plain, 20), "{plain:?}");
            assert_eq!(to_plain(plain), plain);
        }
        for markdown in [
            "**bold**",
            "Use `cargo`",
            "- a\n- b",
            "# Title",
            "> quote",
            "```\ncode\n```",
            "1. first",
            "[link](https://example.com)",
            "| a | b |\n|---|---|\n| 1 | 2 |",
            "---",
        ] {
            assert!(!is_plain(markdown), "{markdown:?}");
        }
    }

    #[test]
    fn inline_markup_loses_its_syntax_and_keeps_its_words() {
        let theme = Theme::default();
        let lines = render(
            "Ship **now** or use `later`, see [docs](https://x.y).",
            80,
            10,
            Style::default(),
            &theme,
        );
        assert_eq!(
            text_of(&lines),
            ["Ship now or use later, see docs (https://x.y)."]
        );
        let bold = lines[0].spans.iter().find(|s| s.content == "now").unwrap();
        assert!(bold.style.add_modifier.contains(Modifier::BOLD));
        let code = lines[0]
            .spans
            .iter()
            .find(|s| s.content == "later")
            .unwrap();
        assert_eq!(code.style.fg, Some(theme.color(Token::MdCode)));
    }

    #[test]
    fn lists_hang_their_wrapped_lines_and_keep_the_authors_spacing() {
        let theme = Theme::default();
        let text = "Pros:\n- Fastest time to market by far\n- Minimal churn\n\nCons:\n1. Coupling";
        let lines = text_of(&render(text, 20, 100, Style::default(), &theme));
        assert_eq!(
            lines,
            [
                "Pros:",
                "- Fastest time to",
                "  market by far",
                "- Minimal churn",
                "",
                "Cons:",
                "1. Coupling"
            ]
        );
    }

    #[test]
    fn code_blocks_are_boxed_clipped_and_diffs_coloured() {
        let theme = Theme::default();
        let text = "```diff\n@@ -1 +1 @@\n-old line\n+new line that is much longer than the box can show\n```";
        let lines = render(text, 30, 100, Style::default(), &theme);
        let shown = text_of(&lines);
        assert_eq!(shown[0], "┌─ diff ─────────────────────┐");
        assert_eq!(shown[1], "│ @@ -1 +1 @@                │");
        assert_eq!(shown[3], "│ +new line that is much lon │");
        assert_eq!(shown[4], "└────────────────────────────┘");
        assert!(shown.iter().all(|l| width(l) == 30), "{shown:?}");
        let removed = &lines[2].spans[1];
        assert_eq!(removed.style.fg, Some(theme.color(Token::ToolDiffRemoved)));
        let added = &lines[3].spans[1];
        assert_eq!(added.style.fg, Some(theme.color(Token::ToolDiffAdded)));
    }

    #[test]
    fn escapes_in_code_are_made_printable_and_tables_fit_the_width() {
        let theme = Theme::default();
        let lines = text_of(&render(
            "```\nbell \u{7} esc \u{1b}[31m\n```",
            40,
            10,
            Style::default(),
            &theme,
        ));
        assert!(
            lines
                .iter()
                .all(|l| !l.contains('\u{1b}') && !l.contains('\u{7}')),
            "{lines:?}"
        );
        let table =
            "| name | what it does |\n|:--|--:|\n| a | a long description of it |\n| bb | short |";
        for w in [12usize, 20, 40, 80] {
            let lines = text_of(&render(table, w, 100, Style::default(), &theme));
            assert!(lines.iter().all(|l| width(l) <= w), "{w}: {lines:?}");
            assert!(lines.iter().any(|l| l.contains('┼')), "{lines:?}");
        }
    }

    #[test]
    fn hostile_markdown_stays_within_the_limit_and_the_width() {
        let theme = Theme::default();
        let deep = ">".repeat(10_000) + " deep";
        let list = (0..2_000)
            .map(|i| format!("{}- item", "  ".repeat(i)))
            .collect::<Vec<_>>()
            .join("\n");
        let table = format!("|{}\n|{}\n", "a|".repeat(500), "-|".repeat(500))
            + &format!("|{}\n", "x|".repeat(500)).repeat(2_000);
        let code = format!("```\n{}\n```", "x".repeat(1 << 20));
        for text in [deep, list, table, code] {
            for w in [1usize, 7, 40, 200] {
                let lines = render(&text, w, 50, Style::default(), &theme);
                assert!(lines.len() <= 50);
                assert!(text_of(&lines).iter().all(|l| width(l) <= w));
            }
        }
    }

    #[test]
    fn to_plain_drops_the_syntax() {
        assert_eq!(to_plain("plain\ntext"), "plain\ntext");
        assert_eq!(
            to_plain("# Title\n\n**Bold** and `code`\n\n- one\n- two\n\n```\nlet x = 1;\n```"),
            "Title\n\nBold and code\n\n- one\n- two\n\nlet x = 1;"
        );
    }
}
