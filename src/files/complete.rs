//! Where a completion applies in the editor text, and what it inserts: the `@` reference token
//! before the cursor, pi's insertion format, and Tab completion of a path word from the folder.

use std::path::Path;

use super::search::Suggestion;

/// Characters that start a token (besides the start of the line).
fn is_boundary(c: char) -> bool {
    c.is_whitespace() || c == '"' || c == '\'' || c == '='
}

/// An `@` reference being typed before the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtToken {
    /// Characters from the `@` to the cursor (what an accepted suggestion replaces).
    pub len_chars: usize,
    /// The query: the text after `@` (or after `@"`).
    pub query: String,
    /// Written as `@"…` (may contain spaces).
    pub quoted: bool,
}

/// The `@` token that ends at the cursor, if any: `@` at a word start, then no whitespace
/// (or `@"` with no closing quote yet).
pub fn at_token(before_cursor: &str) -> Option<AtToken> {
    let chars: Vec<char> = before_cursor.chars().collect();
    for at in (0..chars.len()).rev() {
        if chars[at] != '@' {
            continue;
        }
        if at > 0 && !is_boundary(chars[at - 1]) {
            continue;
        }
        let after: String = chars[at + 1..].iter().collect();
        if let Some(quoted) = after.strip_prefix('"') {
            if quoted.contains('"') {
                return None;
            }
            return Some(AtToken {
                len_chars: chars.len() - at,
                query: quoted.to_owned(),
                quoted: true,
            });
        }
        if after.chars().any(char::is_whitespace) {
            return None;
        }
        return Some(AtToken {
            len_chars: chars.len() - at,
            query: after,
            quoted: false,
        });
    }
    None
}

/// The text that replaces an `@` token: `@path` (quoted as `@"path"` when it has spaces or the
/// token was quoted), a space after files, nothing after folders so completion can go on.
pub fn insertion(suggestion: &Suggestion, quoted: bool) -> String {
    let quote = quoted || suggestion.path.contains(' ');
    match (quote, suggestion.is_dir) {
        (false, false) => format!("@{} ", suggestion.path),
        (false, true) => format!("@{}", suggestion.path),
        (true, false) => format!("@\"{}\" ", suggestion.path),
        // An open quote keeps the token alive for the folder's contents.
        (true, true) => format!("@\"{}", suggestion.path),
    }
}

/// The path word before the cursor for Tab completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathWord {
    /// Characters it takes before the cursor (with its `@` and opening quote).
    pub len_chars: usize,
    /// The path typed so far, without `@` or quote.
    pub word: String,
    /// Written as an `@` reference.
    pub had_at: bool,
    /// Inside a quote that is still open (`"docs/my`), so spaces belong to the path.
    pub quoted: bool,
}

/// The path word before the cursor: inside an open quote, everything after it; otherwise the
/// text after the last space, quote or `=`.
pub fn path_word(before_cursor: &str) -> PathWord {
    let chars: Vec<char> = before_cursor.chars().collect();
    let quotes = chars.iter().filter(|c| **c == '"').count();
    if quotes % 2 == 1 {
        let q = chars
            .iter()
            .rposition(|c| *c == '"')
            .expect("an odd count is not zero");
        let had_at = q > 0 && chars[q - 1] == '@';
        return PathWord {
            len_chars: chars.len() - q + usize::from(had_at),
            word: chars[q + 1..].iter().collect(),
            had_at,
            quoted: true,
        };
    }
    let word: String = chars
        .iter()
        .rev()
        .take_while(|c| !is_boundary(**c))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let len_chars = word.chars().count();
    let bare = word.trim_start_matches('@');
    PathWord {
        len_chars,
        had_at: bare.len() < word.len(),
        word: bare.to_owned(),
        quoted: false,
    }
}

/// Entries of the word's folder whose names start with its last part (case-insensitive),
/// folders first, then by name. Hidden entries only when the part starts with `.`.
pub fn complete_word(root: &Path, word: &str) -> Vec<Suggestion> {
    let (dir, part) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let folder = if let Some(home_rel) = dir.strip_prefix("~/") {
        std::env::var_os("HOME")
            .map(|h| Path::new(&h).join(home_rel))
            .unwrap_or_default()
    } else if Path::new(dir).is_absolute() {
        Path::new(dir).to_path_buf()
    } else {
        root.join(dir)
    };
    let Ok(read) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let part_lower = part.to_lowercase();
    let mut out: Vec<Suggestion> = read
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && !part.starts_with('.') {
                return None;
            }
            if !name.to_lowercase().starts_with(&part_lower) {
                return None;
            }
            // Symlinks to folders count as folders.
            let is_dir = std::fs::metadata(e.path())
                .map(|m| m.is_dir())
                .unwrap_or(false);
            Some(Suggestion {
                path: format!("{dir}{name}{}", if is_dir { "/" } else { "" }),
                is_dir,
            })
        })
        .collect();
    out.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.path.cmp(&b.path)));
    out
}

/// The text that replaces a Tab-completed word: the path, a space after files.
pub fn word_insertion(suggestion: &Suggestion, had_at: bool, quoted: bool) -> String {
    let at = if had_at { "@" } else { "" };
    let path = &suggestion.path;
    match (quoted || path.contains(' '), suggestion.is_dir) {
        (false, true) => format!("{at}{path}"),
        (false, false) => format!("{at}{path} "),
        // An open quote keeps completing inside the folder.
        (true, true) => format!("{at}\"{path}"),
        (true, false) => format!("{at}\"{path}\" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_at_tokens_only_at_word_starts() {
        assert_eq!(
            at_token("see @src/ma"),
            Some(AtToken {
                len_chars: 7,
                query: "src/ma".into(),
                quoted: false
            })
        );
        assert_eq!(
            at_token("@"),
            Some(AtToken {
                len_chars: 1,
                query: String::new(),
                quoted: false
            })
        );
        assert_eq!(at_token("mail me@host"), None);
        assert_eq!(at_token("@src done"), None);
        assert_eq!(
            at_token("x=@a"),
            Some(AtToken {
                len_chars: 2,
                query: "a".into(),
                quoted: false
            })
        );
        assert_eq!(
            at_token(r#"open @"my fi"#),
            Some(AtToken {
                len_chars: 7,
                query: "my fi".into(),
                quoted: true
            })
        );
        assert_eq!(at_token(r#"@"done" "#), None);
    }

    #[test]
    fn inserts_references_as_pi_does() {
        let file = Suggestion {
            path: "src/main.rs".into(),
            is_dir: false,
        };
        let dir = Suggestion {
            path: "src/".into(),
            is_dir: true,
        };
        let spaced = Suggestion {
            path: "docs/my file.md".into(),
            is_dir: false,
        };
        assert_eq!(insertion(&file, false), "@src/main.rs ");
        assert_eq!(insertion(&dir, false), "@src/");
        assert_eq!(insertion(&spaced, false), "@\"docs/my file.md\" ");
        assert_eq!(
            insertion(
                &Suggestion {
                    path: "my dir/".into(),
                    is_dir: true
                },
                false
            ),
            "@\"my dir/"
        );
    }

    #[test]
    fn path_words_stop_at_boundaries() {
        let word = |text: &str| {
            let w = path_word(text);
            (w.len_chars, w.word, w.had_at, w.quoted)
        };
        assert_eq!(word("see sr"), (2, "sr".into(), false, false));
        assert_eq!(word("see @src/ma"), (7, "src/ma".into(), true, false));
        assert_eq!(word("x=\"fo"), (3, "fo".into(), false, true));
        assert_eq!(
            word("read @\"docs/my no"),
            (12, "docs/my no".into(), true, true)
        );
        assert_eq!(word("\"done\" sr"), (2, "sr".into(), false, false));
    }
}
