//! Ranking index entries for an `@` query with nucleo's fuzzy matcher (smart case, path-aware
//! scoring). Basename and prefix matches come first, shorter paths win ties, a query ending in `/`
//! lists that folder, and typing more characters refines the previous matches instead of
//! rescanning the whole index.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::index::{Entry, FileIndex};

/// One suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The path as inserted and shown (folders end with `/`).
    pub path: String,
    pub is_dir: bool,
}

impl Suggestion {
    fn from_entry(e: &Entry) -> Suggestion {
        let path = if e.is_dir {
            format!("{}/", e.path)
        } else {
            e.path.to_string()
        };
        Suggestion {
            path,
            is_dir: e.is_dir,
        }
    }

    /// The last component, with `/` for folders.
    pub fn label(&self) -> &str {
        let trimmed = self.path.trim_end_matches('/');
        let start = trimmed.rfind('/').map_or(0, |i| i + 1);
        &self.path[start..]
    }
}

/// The shown suggestions and how many matched in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Matches {
    pub items: Vec<Suggestion>,
    pub total: usize,
}

/// What the last search looked at, to refine it when the query grows.
#[derive(Debug, Clone)]
struct Last {
    query: String,
    /// Index entries examined so far (entries only ever get appended).
    scanned: usize,
    matched: Vec<u32>,
}

/// Searches a [`FileIndex`]; keeps state between keystrokes.
pub struct Searcher {
    matcher: Matcher,
    last: Option<Last>,
    buf: Vec<char>,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher {
            matcher: Matcher::new(Config::DEFAULT.match_paths()),
            last: None,
            buf: Vec::new(),
        }
    }
}

/// Ranking bonuses on top of nucleo's score.
const NAME_EQUALS: u32 = 400;
const NAME_PREFIX: u32 = 250;
const NAME_CONTAINS: u32 = 120;

impl Searcher {
    /// The best `limit` suggestions for `query` (the text after `@`).
    pub fn search(&mut self, index: &FileIndex, query: &str, limit: usize) -> Matches {
        let entries = index.entries();
        let (dir, rest) = match query.rfind('/') {
            Some(i) => (&query[..=i], &query[i + 1..]),
            None => ("", query),
        };
        let smart_lower = !query.chars().any(char::is_uppercase);
        let in_dir = |e: &Entry| -> bool {
            if dir.is_empty() {
                return true;
            }
            let p: &str = &e.path;
            p.len() > dir.len()
                && if smart_lower {
                    p[..dir.len().min(p.len())].eq_ignore_ascii_case(dir)
                } else {
                    p.starts_with(dir)
                }
        };
        if rest.is_empty() {
            // A folder listing: direct children, folders first, then by name.
            self.last = None;
            let mut children: Vec<&Entry> = entries
                .iter()
                .filter(|e| in_dir(e) && !e.path[dir.len()..].contains('/'))
                .collect();
            let total = children.len();
            children.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.path.cmp(&b.path)));
            return Matches {
                items: children
                    .into_iter()
                    .take(limit)
                    .map(Suggestion::from_entry)
                    .collect(),
                total,
            };
        }

        // Refine the previous matches when the query only grew.
        let candidates: Vec<u32> = match &self.last {
            Some(last)
                if query.starts_with(&last.query) && query.rfind('/') == last.query.rfind('/') =>
            {
                let mut c = last.matched.clone();
                c.extend(last.scanned as u32..entries.len() as u32);
                c
            }
            _ => (0..entries.len() as u32).collect(),
        };
        let pattern = Pattern::new(
            rest,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        let rest_lower = rest.to_lowercase();
        let mut scored: Vec<(u32, u32)> = Vec::new();
        let mut matched = Vec::new();
        for i in candidates {
            let e = &entries[i as usize];
            if !in_dir(e) {
                continue;
            }
            let relative = &e.path[dir.len()..];
            let Some(score) =
                pattern.score(Utf32Str::new(relative, &mut self.buf), &mut self.matcher)
            else {
                continue;
            };
            matched.push(i);
            scored.push((
                score + name_bonus(e.name(), &rest_lower, smart_lower, rest),
                i,
            ));
        }
        self.last = Some(Last {
            query: query.to_owned(),
            scanned: entries.len(),
            matched,
        });
        let total = scored.len();
        let better = |a: &(u32, u32), b: &(u32, u32)| {
            let (ea, eb) = (&entries[a.1 as usize], &entries[b.1 as usize]);
            b.0.cmp(&a.0)
                .then_with(|| ea.path.len().cmp(&eb.path.len()))
                .then_with(|| ea.path.cmp(&eb.path))
        };
        if scored.len() > limit && limit > 0 {
            scored.select_nth_unstable_by(limit - 1, better);
            scored.truncate(limit);
        }
        scored.sort_by(better);
        Matches {
            items: scored
                .iter()
                .take(limit)
                .map(|&(_, i)| Suggestion::from_entry(&entries[i as usize]))
                .collect(),
            total,
        }
    }
}

fn name_bonus(name: &str, rest_lower: &str, smart_lower: bool, rest: &str) -> u32 {
    // Byte-wise, ASCII case-insensitive under smart case: no allocation per candidate.
    let (name, needle) = (
        name.as_bytes(),
        if smart_lower {
            rest_lower.as_bytes()
        } else {
            rest.as_bytes()
        },
    );
    let eq = |a: &[u8], b: &[u8]| {
        if smart_lower {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    if eq(name, needle) {
        NAME_EQUALS
    } else if name.len() >= needle.len() && eq(&name[..needle.len()], needle) {
        NAME_PREFIX
    } else if name.len() > needle.len() && name.windows(needle.len()).any(|w| eq(w, needle)) {
        NAME_CONTAINS
    } else {
        0
    }
}
