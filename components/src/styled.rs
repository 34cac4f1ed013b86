//! A buffer as text with its styles, for snapshot tests of components and of programs that embed
//! them: each row's text with `«words»` where the look changes, the words chosen by the caller
//! (theme token names, or colour values).

use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};

use crate::text::width;

/// The modifiers a styled dump names, with their words.
pub const MODIFIER_WORDS: [(Modifier, &str); 4] = [
    (Modifier::BOLD, "bold"),
    (Modifier::REVERSED, "reversed"),
    (Modifier::UNDERLINED, "underlined"),
    (Modifier::DIM, "dim"),
];

/// Each row with `«style»` marks where the style changes; trailing blanks and blank trailing rows
/// dropped. `describe` gives a style's words as `(foreground, background and modifiers)`; a
/// blank's foreground cannot be seen, so only the second part counts on blanks.
pub fn styled(buf: &Buffer, describe: impl Fn(Style) -> (String, String)) -> String {
    let area = buf.area;
    let mut rows = Vec::new();
    for y in area.top()..area.bottom() {
        let mut row = String::new();
        let mut current = (String::new(), String::new());
        let mut hidden = 0;
        for x in area.left()..area.right() {
            // The cells a wide character covers are drawn by it.
            if hidden > 0 {
                hidden -= 1;
                continue;
            }
            let cell = &buf[(x, y)];
            hidden = width(cell.symbol()).saturating_sub(1);
            let (mut fg, rest) = describe(cell.style());
            if cell.symbol() == " " {
                fg = current.0.clone();
            }
            if (&fg, &rest) != (&current.0, &current.1) {
                let words: Vec<&str> = [fg.as_str(), rest.as_str()]
                    .into_iter()
                    .filter(|w| !w.is_empty())
                    .collect();
                row.push_str(&format!("«{}»", words.join(" ")));
                current = (fg, rest);
            }
            row.push_str(cell.symbol());
        }
        let mut trimmed = row.trim_end().to_owned();
        while let Some(stripped) = trimmed.strip_suffix("«»") {
            trimmed = stripped.trim_end().to_owned();
        }
        rows.push(trimmed);
    }
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    rows.join("\n")
}
