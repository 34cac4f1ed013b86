//! Rendered Markdown at 40, 80 and 200 columns: every element the form draws (headings, emphasis,
//! inline code, a fenced diff in its box, lists with hanging indents, a quote, a link, a table, a
//! rule), snapshotted as text, with the styles that carry meaning checked apart.

use pi_ask_components::Theme;
use pi_ask_components::markdown::{render, render_preformatted, to_plain};
use pi_ask_components::text::width;
use pi_ask_components::theme::Token;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

const DOCUMENT: &str = "# Rename the loader

The **config loader** becomes `Config::load`, *nothing else* changes ~~yet~~.

## What changes

- the loader, which every command calls at start and which is long enough to wrap
- the watcher
  1. first nested step
  2. second nested step

```diff
@@ -12,7 +12,7 @@ fn main() {
-    let cfg = load_config(path)?;
+    let cfg = Config::load(path)?;
     run(cfg)
 }
```

> Reviewed by the team; see [the RFC](https://example.com/rfc/42).

| step | what it runs | time |
|:--|:--|--:|
| build | cargo build --release, every crate of the workspace | 42 s |
| test | cargo test --workspace | 3 min |

---

Plain closing words.";

fn text(lines: &[Line<'_>]) -> String {
    lines
        .iter()
        .map(|l| {
            l.spans
                .iter()
                .map(|s| s.content.as_ref())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_element_at_40_80_and_200_columns() {
    let theme = Theme::default();
    for w in [40usize, 80, 200] {
        let lines = render(DOCUMENT, w, 1_000, theme.text(), &theme);
        for line in &lines {
            let shown: usize = line.spans.iter().map(|s| width(&s.content)).sum();
            assert!(shown <= w, "{w}: {line:?}");
        }
        insta::assert_snapshot!(format!("markdown_{w}"), text(&lines));
    }
}

#[test]
fn the_styles_carry_the_meaning() {
    let theme = Theme::default();
    let lines = render(DOCUMENT, 80, 1_000, theme.text(), &theme);
    let span = |needle: &str| {
        lines
            .iter()
            .flat_map(|l| &l.spans)
            .find(|s| s.content.contains(needle))
            .unwrap_or_else(|| panic!("{needle} is drawn"))
            .clone()
    };
    let heading = span("Rename");
    assert_eq!(heading.style.fg, Some(theme.color(Token::MdHeading)));
    assert!(heading.style.add_modifier.contains(Modifier::BOLD));
    assert!(span("config").style.add_modifier.contains(Modifier::BOLD));
    assert!(
        span("nothing")
            .style
            .add_modifier
            .contains(Modifier::ITALIC)
    );
    assert!(
        span("yet")
            .style
            .add_modifier
            .contains(Modifier::CROSSED_OUT)
    );
    assert_eq!(
        span("Config::load").style.fg,
        Some(theme.color(Token::MdCode))
    );
    assert_eq!(
        span("-    let").style.fg,
        Some(theme.color(Token::ToolDiffRemoved))
    );
    assert_eq!(
        span("+    let").style.fg,
        Some(theme.color(Token::ToolDiffAdded))
    );
    assert_eq!(
        span("┌─ diff").style.fg,
        Some(theme.color(Token::MdCodeBlockBorder))
    );
    assert_eq!(span("RFC").style.fg, Some(theme.color(Token::MdLink)));
    assert_eq!(
        span("(https://").style.fg,
        Some(theme.color(Token::MdLinkUrl))
    );
    let quote = lines
        .iter()
        .find(|l| l.spans.iter().any(|s| s.content.contains("Reviewed")))
        .expect("the quote");
    assert_eq!(quote.spans[0].content, "│ ");
    assert_eq!(
        quote.spans[0].style.fg,
        Some(theme.color(Token::MdQuoteBorder))
    );
    assert_eq!(span("- ").style.fg, Some(theme.color(Token::MdListBullet)));
    // Without colours the meaning is in modifiers, and no colour is set at all.
    let mono = Theme::new(
        pi_ask_components::theme::ThemeName::Dark,
        &[],
        pi_ask_components::theme::ColorDepth::None,
    );
    for line in render(DOCUMENT, 80, 1_000, mono.text(), &mono) {
        for s in line.spans {
            assert!(s.style.fg.is_none() || s.style.fg == Some(ratatui::style::Color::Reset));
        }
    }
}

#[test]
fn rendering_off_or_plain_text_draws_the_text_as_written() {
    let theme = Theme {
        render_markdown: false,
        ..Theme::default()
    };
    let off = render(DOCUMENT, 80, 1_000, Style::default(), &theme);
    assert_eq!(
        text(&off),
        pi_ask_components::text::wrap(DOCUMENT, 80).join("\n")
    );
    let preview = "Appearance\n  Theme      dark\n\n          [Back]  [Next]";
    let on = Theme::default();
    assert_eq!(
        text(&render_preformatted(
            preview,
            60,
            100,
            Style::default(),
            &on
        )),
        pi_ask_components::text::wrap_preformatted(preview, 60).join("\n")
    );
}

#[test]
fn plain_text_of_markdown_keeps_the_words_and_drops_the_syntax() {
    insta::assert_snapshot!("markdown_plain", to_plain(DOCUMENT));
}

#[test]
fn each_preview_shows_its_own_rendering_frame_after_frame() {
    use pi_ask_components::PreviewPane;
    use ratatui::{buffer::Buffer, layout::Rect};
    let draw = |preview: &str| {
        let mut pane = PreviewPane::new("Option", None, Some(preview.to_owned()));
        let area = Rect::new(0, 0, 40, 8);
        let mut buf = Buffer::empty(area);
        pane.render(area, &mut buf);
        pi_ask_components::text::buffer_rows(&buf).join("\n")
    };
    // Same length, same shape, one word apart: the cache must not hand one the other's lines.
    let a = "# Plan\n\n- **ship** the loader";
    let b = "# Plan\n\n- **skip** the loader";
    for _ in 0..2 {
        let (shown_a, shown_b) = (draw(a), draw(b));
        assert!(
            shown_a.contains("ship the loader") && !shown_a.contains("skip"),
            "{shown_a}"
        );
        assert!(
            shown_b.contains("skip the loader") && !shown_b.contains("ship"),
            "{shown_b}"
        );
    }
}
