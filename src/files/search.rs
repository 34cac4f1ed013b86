//! Ranking index entries for an `@` query with nucleo's fuzzy matcher (smart case, path-aware
//! scoring). Basename and prefix matches come first, shorter paths win ties, a query ending in `/`
//! lists that folder, and typing more characters refines the previous matches instead of
//! rescanning the whole index.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::index::{EntryRef, FileIndex, Snapshot, char_bag, fold};

/// One suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The path as inserted and shown (folders end with `/`).
    pub path: String,
    /// Whether it is a folder.
    pub is_dir: bool,
}

impl Suggestion {
    fn from_entry(e: EntryRef<'_>) -> Suggestion {
        let mut path = e.path();
        if e.is_dir {
            path.push('/');
        }
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
    /// The best matches, best first.
    pub items: Vec<Suggestion>,
    /// How many matched in all.
    pub total: usize,
}

/// What the last search looked at, to refine it when the query grows.
#[derive(Debug, Clone)]
struct Last {
    query: String,
    /// Index chunks examined so far (entries only ever come in new chunks).
    scanned: usize,
    matched: Vec<u32>,
}

/// Searches a [`FileIndex`]; keeps state between keystrokes.
pub struct Searcher {
    matcher: Matcher,
    last: Option<Last>,
    buf: Vec<char>,
    /// The path being looked at (entries store folder and name apart).
    path: String,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher {
            matcher: Matcher::new(Config::DEFAULT.match_paths()),
            last: None,
            buf: Vec::new(),
            path: String::new(),
        }
    }
}

/// Most candidates per tier that nucleo scores (the shortest paths of the tier).
const SHORTLIST: usize = 256;

/// How well a candidate's basename matches, best first: equal, prefix, contains, fuzzy only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    Fuzzy,
    Contains,
    Prefix,
    Equal,
}

impl Searcher {
    /// The best `limit` suggestions for `query` (the text after `@`).
    ///
    /// Every candidate is checked cheaply (a character-bag prefilter, a basename tier, a
    /// subsequence test) and counted; nucleo scores only the best tiers needed to fill `limit`,
    /// which is what keeps a keystroke fast at 100k files.
    pub fn search(&mut self, index: &FileIndex, query: &str, limit: usize) -> Matches {
        self.search_snapshot(&index.snapshot(), query, limit)
    }

    /// [`Searcher::search`] over a snapshot taken already.
    pub fn search_snapshot(&mut self, entries: &Snapshot, query: &str, limit: usize) -> Matches {
        let path = &mut self.path;
        let (dir, rest) = match query.rfind('/') {
            Some(i) => (&query[..=i], &query[i + 1..]),
            None => ("", query),
        };
        // The prefilter, tiers and subsequence test compare accent-folded text (`cafe` finds
        // `café.md`); only non-ASCII paths pay for folding.
        let folded_dir = fold(dir);
        let folded_rest = fold(rest);
        let smart_lower = !query.chars().any(char::is_uppercase);
        let dir_key = folded_dir.as_bytes();
        let in_dir_key = |key: &str| -> bool {
            if dir_key.is_empty() {
                return true;
            }
            let p = key.as_bytes();
            p.len() > dir_key.len()
                && if smart_lower {
                    p[..dir_key.len()].eq_ignore_ascii_case(dir_key)
                } else {
                    &p[..dir_key.len()] == dir_key
                }
        };
        if rest.is_empty() {
            // A folder listing: direct children, folders first, then by name.
            self.last = None;
            let mut children: Vec<EntryRef<'_>> = entries
                .iter()
                .map(|(_, e)| e)
                .filter(|e| {
                    e.write_path(path);
                    in_dir_key(&fold(path)) && !path[dir.len().min(path.len())..].contains('/')
                })
                .collect();
            let total = children.len();
            children.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| cmp_paths(a, b)));
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
        let refine = self.last.as_ref().filter(|last| {
            query.starts_with(&last.query) && query.rfind('/') == last.query.rfind('/')
        });
        let query_bag = char_bag(&folded_rest);
        let candidates: Box<dyn Iterator<Item = (u32, EntryRef<'_>)>> = match refine {
            Some(last) => Box::new(
                last.matched
                    .clone()
                    .into_iter()
                    .map(|i| (i, entries.get(i)))
                    .chain(entries.iter_with_bag(last.scanned, query_bag)),
            ),
            None => Box::new(entries.iter_with_bag(0, query_bag)),
        };
        let needle: Vec<u8> = if smart_lower {
            folded_rest.to_ascii_lowercase().into_bytes()
        } else {
            folded_rest.as_bytes().to_vec()
        };
        let mut tiers: [Vec<u32>; 4] = Default::default();
        let mut matched = Vec::new();
        for (i, e) in candidates {
            if e.bag & query_bag != query_bag {
                continue;
            }
            let tier = if e.ascii {
                // ASCII folds to itself: compare the stored parts without building the path.
                if !dir_key.is_empty() && !starts_with(&e, dir_key, smart_lower) {
                    continue;
                }
                let tier = tier(e.name.as_bytes(), &needle, smart_lower);
                if tier == Tier::Fuzzy
                    && !is_subsequence_in(&needle, &skip(parts(&e), dir_key.len()), smart_lower)
                {
                    continue;
                }
                tier
            } else {
                e.write_path(path);
                let key = fold(path);
                if !in_dir_key(&key) {
                    continue;
                }
                let relative = &key.as_bytes()[dir_key.len()..];
                let name = &key[key.rfind('/').map_or(0, |i| i + 1)..];
                let tier = tier(name.as_bytes(), &needle, smart_lower);
                if tier == Tier::Fuzzy && !is_subsequence_in(&needle, &[relative], smart_lower) {
                    continue;
                }
                tier
            };
            matched.push(i);
            tiers[tier as usize].push(i);
        }
        let total = matched.len();
        self.last = Some(Last {
            query: query.to_owned(),
            scanned: entries.chunk_count(),
            matched,
        });

        // Score the best tiers until there are enough suggestions.
        let pattern = Pattern::new(
            &folded_rest,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        let mut ranked: Vec<(Tier, u32, u32)> = Vec::new();
        for t in [Tier::Equal, Tier::Prefix, Tier::Contains, Tier::Fuzzy] {
            if ranked.len() >= limit {
                break;
            }
            // A large tier is first cut to its shortest paths (shorter paths win ties anyway),
            // so nucleo scores a bounded number of candidates per keystroke.
            let members = &mut tiers[t as usize];
            let shortlist = SHORTLIST.max(limit);
            if members.len() > shortlist {
                let by_length = |a: &u32, b: &u32| {
                    let (ea, eb) = (entries.get(*a), entries.get(*b));
                    ea.path_len()
                        .cmp(&eb.path_len())
                        .then_with(|| cmp_paths(&ea, &eb))
                };
                members.select_nth_unstable_by(shortlist - 1, by_length);
                members.truncate(shortlist);
            }
            for &i in members.iter() {
                // A basename match is scored on the basename; a fuzzy one on the whole relative path
                // (past the folder typed, which folded text measures).
                entries.get(i).write_path(path);
                let key = fold(path);
                let haystack = if t == Tier::Fuzzy {
                    &key[dir_key.len().min(key.len())..]
                } else {
                    &key[key.rfind('/').map_or(0, |i| i + 1)..]
                };
                if let Some(score) =
                    pattern.score(Utf32Str::new(haystack, &mut self.buf), &mut self.matcher)
                {
                    ranked.push((t, score, i));
                }
            }
        }
        let better = |a: &(Tier, u32, u32), b: &(Tier, u32, u32)| {
            let (ea, eb) = (entries.get(a.2), entries.get(b.2));
            b.0.cmp(&a.0)
                .then_with(|| b.1.cmp(&a.1))
                .then_with(|| ea.path_len().cmp(&eb.path_len()))
                .then_with(|| cmp_paths(&ea, &eb))
        };
        if ranked.len() > limit && limit > 0 {
            ranked.select_nth_unstable_by(limit - 1, better);
            ranked.truncate(limit);
        }
        ranked.sort_by(better);
        Matches {
            items: ranked
                .iter()
                .map(|&(_, _, i)| Suggestion::from_entry(entries.get(i)))
                .collect(),
            total,
        }
    }
}

fn eq_bytes(a: &[u8], b: &[u8], fold: bool) -> bool {
    if fold {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// The basename tier, byte-wise and without allocating (ASCII case folded under smart case).
fn tier(name: &[u8], needle: &[u8], fold: bool) -> Tier {
    if eq_bytes(name, needle, fold) {
        Tier::Equal
    } else if name.len() >= needle.len() && eq_bytes(&name[..needle.len()], needle, fold) {
        Tier::Prefix
    } else if name.len() > needle.len()
        && name
            .windows(needle.len())
            .any(|w| eq_bytes(w, needle, fold))
    {
        Tier::Contains
    } else {
        Tier::Fuzzy
    }
}

/// An entry's path as the byte slices it is stored in: folder, separator, name.
fn parts<'a>(e: &EntryRef<'a>) -> [&'a [u8]; 3] {
    if e.folder.is_empty() {
        [b"", b"", e.name.as_bytes()]
    } else {
        [e.folder.as_bytes(), b"/", e.name.as_bytes()]
    }
}

/// Two entries' paths in byte order, compared slice by slice (no path is built).
fn cmp_paths(a: &EntryRef<'_>, b: &EntryRef<'_>) -> std::cmp::Ordering {
    let (pa, pb) = (parts(a), parts(b));
    let (mut ia, mut ib) = (
        pa.iter().copied().filter(|p| !p.is_empty()),
        pb.iter().copied().filter(|p| !p.is_empty()),
    );
    let (mut xa, mut xb): (&[u8], &[u8]) =
        (ia.next().unwrap_or_default(), ib.next().unwrap_or_default());
    loop {
        if xa.is_empty() {
            xa = match ia.next() {
                Some(p) => p,
                None => {
                    return if xb.is_empty() && ib.next().is_none() {
                        std::cmp::Ordering::Equal
                    } else {
                        std::cmp::Ordering::Less
                    };
                }
            };
        }
        if xb.is_empty() {
            xb = match ib.next() {
                Some(p) => p,
                None => return std::cmp::Ordering::Greater,
            };
        }
        let n = xa.len().min(xb.len());
        match xa[..n].cmp(&xb[..n]) {
            std::cmp::Ordering::Equal => {
                xa = &xa[n..];
                xb = &xb[n..];
            }
            other => return other,
        }
    }
}

/// The parts with their first `n` bytes left out.
fn skip(mut parts: [&[u8]; 3], mut n: usize) -> [&[u8]; 3] {
    for part in &mut parts {
        let cut = n.min(part.len());
        *part = &part[cut..];
        n -= cut;
    }
    parts
}

/// Whether `needle` occurs in the parts, read one after another, in order (not necessarily
/// together).
fn is_subsequence_in(needle: &[u8], haystack: &[&[u8]], fold: bool) -> bool {
    let mut needle = needle;
    for part in haystack {
        let mut rest = *part;
        while let Some((&n, tail)) = needle.split_first() {
            let found = if fold {
                rest.iter().position(|&h| h.to_ascii_lowercase() == n)
            } else {
                rest.iter().position(|&h| h == n)
            };
            match found {
                Some(p) => {
                    rest = &rest[p + 1..];
                    needle = tail;
                }
                None => break,
            }
        }
        if needle.is_empty() {
            return true;
        }
    }
    needle.is_empty()
}

/// Whether an entry's path is longer than `prefix` and starts with it (ASCII case folded under
/// smart case), without building the path.
fn starts_with(e: &EntryRef<'_>, prefix: &[u8], fold: bool) -> bool {
    if e.path_len() <= prefix.len() {
        return false;
    }
    let mut prefix = prefix;
    for part in parts(e) {
        let n = part.len().min(prefix.len());
        if !eq_bytes(&part[..n], &prefix[..n], fold) {
            return false;
        }
        prefix = &prefix[n..];
    }
    true
}

#[cfg(test)]
mod order_tests {
    use super::*;
    use crate::files::{FileEntry, FileIndex};

    #[test]
    fn paths_compare_as_their_text_does() {
        let paths = [
            "a", "a/b", "a-b", "a/b/c", "ab", "a/bc", "b", "a/a", "aa/a", "a/", "z/y/x", "z/yx",
        ];
        let index = FileIndex::from_entries(
            std::path::Path::new("."),
            paths
                .iter()
                .filter(|p| !p.ends_with('/'))
                .map(|p| FileEntry::new(*p, false))
                .collect(),
        );
        let snapshot = index.snapshot();
        let all: Vec<_> = snapshot.iter().map(|(_, e)| e).collect();
        for a in &all {
            for b in &all {
                assert_eq!(cmp_paths(a, b), a.path().cmp(&b.path()), "{a:?} {b:?}");
            }
        }
    }
}
