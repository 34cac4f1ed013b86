//! Themes and colour depths as drawn: style-aware snapshots of the demo's first question in each
//! look, the `[theme]` config applied (and reapplied when the file changes), and the rule that
//! colours are named only in the theme module.

use pi_ask::testing::Harness;
use pi_ask::tui::{Appearance, ColorMode};
use pi_ask_components::styled::MODIFIER_WORDS;
use pi_ask_components::theme::{ColorDepth, ThemeName};
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Style};

/// A colour as written in a config: `#rrggbb`, `@index` for the 256 palette, an ANSI name.
fn colour_name(color: Color) -> String {
    match color {
        Color::Reset => String::new(),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => format!("@{i}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// `(foreground, background and modifiers)` of a style, as words.
fn describe(style: Style) -> (String, String) {
    let fg = style.fg.map(colour_name).unwrap_or_default();
    let mut rest = Vec::new();
    if let Some(bg) = style.bg.map(colour_name).filter(|n| !n.is_empty()) {
        rest.push(format!("on {bg}"));
    }
    for (m, name) in MODIFIER_WORDS {
        if style.add_modifier.contains(m) {
            rest.push(format!("+{name}"));
        }
    }
    (fg, rest.join(" "))
}

/// Each row with `«style»` where the style changes.
fn styled(buf: &Buffer) -> String {
    pi_ask_components::styled::styled(buf, describe)
}

fn demo(appearance: Appearance) -> Harness {
    let mut h = Harness::new(pi_ask::tui::DEMO_PAYLOAD, 100, 20).unwrap();
    h.appearance(appearance);
    h
}

#[test]
fn the_demo_in_every_look() {
    let looks = [
        (
            "dark",
            Appearance::fixed(Some(ThemeName::Dark), ColorDepth::TrueColor),
        ),
        (
            "light",
            Appearance::fixed(Some(ThemeName::Light), ColorDepth::TrueColor),
        ),
        (
            "dark_256",
            Appearance::fixed(Some(ThemeName::Dark), ColorDepth::Ansi256),
        ),
        (
            "light_16",
            Appearance::fixed(Some(ThemeName::Light), ColorDepth::Ansi16),
        ),
        ("no_color", Appearance::fixed(None, ColorDepth::None)),
    ];
    for (name, look) in looks {
        let mut h = demo(look);
        insta::assert_snapshot!(format!("demo_{name}"), styled(&h.buffer()));
    }
}

#[test]
fn no_color_shows_cursor_selection_and_focus_through_modifiers_only() {
    let mut h = demo(Appearance::with_env(None, ColorMode::Auto, |k| {
        (k == "NO_COLOR").then(|| "1".to_owned())
    }));
    // A chosen option (underlined) under a cursor (bold), then the answer editor (reversed).
    h.press("space");
    let buf = h.buffer();
    for cell in buf.content() {
        assert!(
            matches!(cell.fg, Color::Reset) && matches!(cell.bg, Color::Reset),
            "a colour was drawn: {cell:?}"
        );
    }
    let text = styled(&buf);
    assert!(
        text.contains("«+bold»❯ «+underlined»1. Move fast"),
        "{text}"
    );
    assert!(text.contains("«+reversed» ☒ Single"), "{text}");
    h.press("down");
    assert!(h.screen_text().contains("❯ 2. Higher quality"));
    assert!(styled(&h.buffer()).contains("«+bold»❯ 2. Higher quality"));
}

/// A config file with `text` in a fresh temp dir.
fn config_file(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("pi-ask.toml");
    std::fs::write(&config, format!("schemaVersion = 5\n{text}")).unwrap();
    (dir, config)
}

#[test]
fn the_config_chooses_the_theme_and_user_colours_and_names_bad_values() {
    let (_dir, config) = config_file(
        "[theme]\nname = \"light\"\n[theme.colors]\naccent = \"#ff0000\"\nmuted = \"teal\"\n",
    );
    let mut h = Harness::with_config(pi_ask::tui::DEMO_PAYLOAD, &config, 100, 40).unwrap();
    let screen = h.screen_text();
    assert!(
        screen.contains("theme.colors.muted: \"teal\" is not a colour;"),
        "{screen}"
    );
    // The rule in the user's accent, the selected tab on the light theme's background.
    assert_eq!(h.cell(0, 0).fg, Color::Rgb(0xff, 0, 0));
    let tab_row = h
        .screen()
        .iter()
        .position(|r| r.contains("☐ Single"))
        .unwrap() as u16;
    assert_eq!(h.cell(4, tab_row).bg, Color::Rgb(0xd0, 0xd0, 0xe0));
    h.press("?");
    assert!(
        h.screen_text()
            .contains("│  In use             light (config) · 24-bit colour · 1 custom colour │"),
        "{}",
        h.screen_text()
    );
}

#[test]
fn a_theme_edited_in_the_config_while_the_form_is_open_applies_at_once() {
    let (_dir, config) = config_file("[theme]\nname = \"dark\"\n");
    let mut h = Harness::with_config(pi_ask::tui::DEMO_PAYLOAD, &config, 100, 24).unwrap();
    assert_eq!(h.cell(0, 0).fg, Color::Rgb(0x8a, 0xbe, 0xb7));
    // A different length, so the change is seen whatever the file system's clock resolution.
    std::fs::write(&config, "schemaVersion = 5\n[theme]\nname = \"light\"   \n").unwrap();
    h.advance(50);
    assert_eq!(h.cell(0, 0).fg, Color::Rgb(0x5a, 0x80, 0x80));
}

#[test]
fn the_command_line_and_environment_come_before_the_config() {
    let (_dir, config) = config_file("[theme]\nname = \"dark\"\n");
    let mut h = Harness::with_config(pi_ask::tui::DEMO_PAYLOAD, &config, 100, 24).unwrap();
    h.appearance(Appearance::with_env(None, ColorMode::Auto, |k| match k {
        "PI_ASK_THEME" => Some("light".to_owned()),
        "COLORTERM" => Some("truecolor".to_owned()),
        _ => None,
    }));
    assert_eq!(h.cell(0, 0).fg, Color::Rgb(0x5a, 0x80, 0x80));
    h.appearance(Appearance::with_env(
        Some(pi_ask::stores::config::ThemeSetting::Dark),
        ColorMode::Auto,
        |k| match k {
            "PI_ASK_THEME" => Some("light".to_owned()),
            "COLORTERM" => Some("truecolor".to_owned()),
            _ => None,
        },
    ));
    assert_eq!(h.cell(0, 0).fg, Color::Rgb(0x8a, 0xbe, 0xb7));
}

/// Source without its `#[cfg(test)]` module.
fn non_test_code(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn colours_are_named_only_in_the_theme_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("components").join("src"), &mut files);
    assert!(files.len() > 20, "found the sources: {files:?}");
    let theme = root.join("components").join("src").join("theme.rs");
    let mut offenders = Vec::new();
    for file in files.iter().filter(|f| **f != theme) {
        let code = non_test_code(file);
        for (n, line) in code.lines().enumerate() {
            let literal = [
                "Color::", "Rgb(", "Indexed(", "\\x1b[3", "\\x1b[4", "\\x1b[9",
            ]
            .iter()
            .any(|p| line.contains(p));
            if literal {
                offenders.push(format!(
                    "{}:{}: {}",
                    file.strip_prefix(root).unwrap().display(),
                    n + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "colour literals outside the theme:\n{}",
        offenders.join("\n")
    );
    // The check can fail: the theme module itself is full of them.
    assert!(non_test_code(&theme).contains("Color::Rgb"));
}

/// The tokens table of docs/configuration.md, from the theme itself.
fn tokens_table() -> String {
    use pi_ask_components::Theme;
    use pi_ask_components::theme::Token;
    let dark = Theme::new(ThemeName::Dark, &[], ColorDepth::TrueColor);
    let light = Theme::new(ThemeName::Light, &[], ColorDepth::TrueColor);
    let value = |c: Color| match c {
        Color::Reset => "`\"\"` (terminal default)".to_owned(),
        other => format!("`{}`", colour_name(other)),
    };
    Token::ALL
        .iter()
        .map(|t| {
            format!(
                "| `{}` | {} | {} | {} |\n",
                t.name(),
                value(dark.color(*t)),
                value(light.color(*t)),
                t.used_for()
            )
        })
        .collect()
}

#[test]
fn the_docs_list_every_token_with_the_themes_values() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/configuration.md"),
    )
    .unwrap();
    let table = tokens_table();
    assert!(
        docs.contains(&table),
        "docs/configuration.md should carry this tokens table:\n{table}"
    );
}
