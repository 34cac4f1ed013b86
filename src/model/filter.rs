//! Type-to-filter over a question's options (`main.filter`, `/`): the query, the options it
//! matches (fuzzy, on the label and the description, best first), and which match is highlighted.
//! The model's cursor follows the highlighted match, so the preview pane and the result speak of
//! original option positions whatever the filter shows.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32String};
use pi_ask_components::{Subset, TextEdit};

use crate::form::Question;

/// An open filter on one list: a question's options in a form, the waiting asks in the inbox.
/// The one filter state machine both use.
#[derive(Debug, Clone)]
pub struct Filter {
    /// The question whose options are filtered (0 for the inbox's list).
    pub question: usize,
    /// The query typed.
    pub query: TextEdit,
    /// The options shown (their indices in the question, 0-based; results say `option + 1`),
    /// best match first, with the label characters matched; all of them, in order, while the
    /// query is empty.
    pub matches: Subset,
    /// The highlighted match (an index into `matches`).
    pub selected: usize,
    /// Counts the times `matches` changed, so a view can keep what it built from them.
    pub revision: u64,
    /// The options' texts as the matcher reads them, converted once when the filter opens.
    haystacks: Haystacks,
    /// The query `matches` were ranked for: a query that only narrows it is matched among
    /// `matches` alone ([`narrows`]).
    ranked_for: String,
}

/// Texts to filter, converted once to what nucleo matches on: each item's label and the text
/// matched besides it (a description, who asked), if any.
#[derive(Debug, Clone, Default)]
pub struct Haystacks(Vec<Haystack>);

/// One item's label, and the text matched besides it.
type Haystack = (Utf32String, Option<Utf32String>);

impl Haystacks {
    /// The texts to match: each option's label and description.
    pub fn new<'a>(items: impl Iterator<Item = (&'a str, Option<&'a str>)>) -> Haystacks {
        Haystacks(
            items
                .map(|(label, more)| (Utf32String::from(label), more.map(Utf32String::from)))
                .collect(),
        )
    }

    /// The haystacks of a question's options: labels and descriptions.
    pub fn of(question: &Question) -> Haystacks {
        Haystacks::new(
            question
                .options
                .iter()
                .map(|o| (o.label.as_str(), o.description.as_deref())),
        )
    }

    /// Options in all.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Filter {
    /// A filter on `question` with an empty query, the highlight on the option the cursor is on.
    pub fn new(index: usize, question: &Question, cursor: usize) -> Filter {
        Filter::over(index, Haystacks::of(question), cursor)
    }

    /// A filter on list `index` of these texts, with an empty query, the highlight on the item
    /// the cursor is on.
    pub fn over(index: usize, haystacks: Haystacks, cursor: usize) -> Filter {
        let matches = rank_texts("", &haystacks);
        let selected = matches
            .rows()
            .iter()
            .position(|&option| option == cursor)
            .unwrap_or(0);
        Filter {
            question: index,
            query: TextEdit::new("").single_line(),
            matches,
            selected,
            revision: 0,
            haystacks,
            ranked_for: String::new(),
        }
    }

    /// The highlighted option (its index in the question), if anything matches.
    pub fn highlighted(&self) -> Option<usize> {
        self.matches.rows().get(self.selected).copied()
    }

    /// Matches the query again (after an edit): the best match is highlighted.
    ///
    /// A query that only narrows the last one (typed at its end) is matched among the last
    /// matches alone: what the last query did not match, the new one cannot, so a keystroke costs
    /// the matches left, not every option (a storm of typed bytes on 100,000 options, or fast
    /// typing, stays within a frame).
    pub fn refresh(&mut self) {
        let query = self.query.text();
        self.matches = if narrows(&self.ranked_for, query) {
            let mut among: Vec<usize> = self.matches.rows().to_vec();
            among.sort_unstable();
            rank_among(query, &self.haystacks, Some(&among))
        } else {
            rank_texts(query, &self.haystacks)
        };
        self.ranked_for = query.to_owned();
        self.selected = 0;
        self.revision = self.revision.wrapping_add(1);
    }

    /// The list's texts changed (asks came or went): matches the query again, the highlight
    /// staying on item `keep` when it still matches, else on the best match.
    pub fn set_haystacks(&mut self, haystacks: Haystacks, keep: Option<usize>) {
        self.haystacks = haystacks;
        self.matches = rank_texts(self.query.text(), &self.haystacks);
        self.ranked_for = self.query.text().to_owned();
        self.selected = keep
            .and_then(|item| self.matches.rows().iter().position(|&i| i == item))
            .unwrap_or(0);
        self.revision = self.revision.wrapping_add(1);
    }

    /// Moves the highlight by `delta` matches, stopping at either end.
    pub fn step(&mut self, delta: isize) {
        let last = self.matches.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }
}

/// The options of `question` that `query` matches (see [`rank_texts`]).
#[cfg(test)]
fn rank(question: &Question, query: &str) -> Subset {
    rank_texts(query, &Haystacks::of(question))
}

/// The items whose `(label, more)` texts `query` matches, with the label's matched characters;
/// every item, in order, for a blank query. Each word of the query (nucleo's pattern syntax:
/// `'exact`, `^prefix`, `suffix$`, `!not`) must match the label or `more` (a description, who
/// asked). Items whose every word matched the label come first, then those that needed `more`;
/// within each, best score first, ties in the items' order.
///
/// The label is matched with nucleo's optimal algorithm (it is short, and its matched characters
/// are highlighted); `more` only decides whether an item shows and where, so it is matched with
/// nucleo's linear greedy algorithm: a keystroke on ten thousand described options stays within
/// a frame (benches/filter.rs).
pub fn rank_texts(query: &str, items: &Haystacks) -> Subset {
    rank_among(query, items, None)
}

/// Whether every item `new` matches is sure to be one `old` matches: `new` is `old` with more
/// typed at its end, and nothing in nucleo's pattern syntax turns the longer query into a wider
/// one. A word that must not match (`!x`) widens as it grows (a new one narrows), and a `$` or
/// `\` at the end of `old` changes meaning when followed, so those are matched afresh.
fn narrows(old: &str, new: &str) -> bool {
    let Some(added) = new.strip_prefix(old) else {
        return false;
    };
    if old.trim().is_empty() || added.is_empty() {
        return false;
    }
    if old.ends_with('$') || old.ends_with('\\') {
        return false;
    }
    // Only the last word of `old` can grow; a new word narrows whatever it is (even `!x`).
    let grows_last_word = !added.starts_with(char::is_whitespace);
    let last_word = old.rsplit(char::is_whitespace).next().unwrap_or("");
    // An escaped space (`\ `) joins words: then which word grows is not worth working out.
    let joined = old.contains("\\ ") || old.contains("\\\t");
    !(grows_last_word && (last_word.starts_with('!') || (joined && old.contains('!'))))
}

/// [`rank_texts`] among the items `among` only (ascending), or all of them.
fn rank_among(query: &str, items: &Haystacks, among: Option<&[usize]>) -> Subset {
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    if pattern.atoms.is_empty() {
        return Subset::all(items.len());
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut hits = Vec::new();
    // Every match's label characters, one after another, before they are put in order.
    let mut all_hits: Vec<u32> = Vec::new();
    // (needed `more`, score, item, where its characters are in `all_hits`)
    let mut scored: Vec<(bool, u32, usize, std::ops::Range<usize>)> = Vec::new();
    let candidates: Box<dyn Iterator<Item = (usize, &Haystack)>> = match among {
        Some(among) => Box::new(among.iter().filter_map(|&i| Some((i, items.0.get(i)?)))),
        None => Box::new(items.0.iter().enumerate()),
    };
    'items: for (option, (label, more)) in candidates {
        let label32 = label.slice(..);
        let mut score = 0u32;
        let mut needed_more = false;
        hits.clear();
        for atom in &pattern.atoms {
            let kept = hits.len();
            if let Some(s) = atom.indices(label32, &mut matcher, &mut hits) {
                score += u32::from(s);
                continue;
            }
            hits.truncate(kept);
            let Some(more) = more else {
                continue 'items;
            };
            let more32 = more.slice(..);
            // `indices` set the matcher's case and normalization for this word.
            let found = match (atom.negative, atom.kind) {
                // A word that must not match: its failing on the label is a match there.
                (true, _) => continue 'items,
                (false, AtomKind::Fuzzy) => matcher.fuzzy_match_greedy(more32, atom.needle_text()),
                (false, _) => atom.score(more32, &mut matcher),
            };
            match found {
                Some(s) => {
                    score += u32::from(s);
                    needed_more = true;
                }
                None => continue 'items,
            }
        }
        // A word that must not match may not match `more` either.
        if let Some(more) = more
            && pattern.atoms.iter().any(|a| a.negative)
        {
            let more32 = more.slice(..);
            if pattern
                .atoms
                .iter()
                .any(|a| a.negative && a.score(more32, &mut matcher).is_none())
            {
                continue;
            }
        }
        hits.sort_unstable();
        hits.dedup();
        let start = all_hits.len();
        all_hits.extend_from_slice(&hits);
        scored.push((needed_more, score, option, start..all_hits.len()));
    }
    // Stable: equal keys keep the items' order.
    scored.sort_by_key(|(needed_more, score, ..)| (*needed_more, std::cmp::Reverse(*score)));
    let mut matches = Subset::default();
    for (_, _, option, at) in scored {
        matches.push(option, &all_hits[at]);
    }
    matches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_payload;

    fn question(labels: &[(&str, Option<&str>)]) -> Question {
        let options: Vec<serde_json::Value> = labels
            .iter()
            .enumerate()
            .map(|(i, (label, description))| {
                let mut o = serde_json::json!({"value": format!("v{i}"), "label": label});
                if let Some(d) = description {
                    o["description"] = serde_json::json!(d);
                }
                o
            })
            .collect();
        let payload =
            serde_json::json!({"questions": [{"id": "q", "prompt": "?", "options": options}]});
        parse_payload(&payload.to_string())
            .unwrap()
            .questions
            .remove(0)
    }

    #[test]
    fn a_blank_query_keeps_every_option_in_order() {
        let q = question(&[("Alpha", None), ("Beta", None)]);
        assert_eq!(rank(&q, "  ").rows(), [0, 1]);
    }

    #[test]
    fn matches_come_best_first_with_the_labels_matched_characters() {
        let q = question(&[
            ("Postgres", None),
            ("SQLite", Some("an embedded database")),
            ("Redis", None),
        ]);
        let found = rank(&q, "sqlt");
        assert_eq!(found.rows()[0], 1);
        assert_eq!(found.hits(0), [0, 1, 2, 4]);
        // The description matches too, without highlighting the label.
        let by_description = rank(&q, "embedded");
        assert_eq!(by_description.rows(), [1]);
        assert!(by_description.hits(0).is_empty());
        assert!(rank(&q, "zzz").is_empty());
    }

    #[test]
    fn label_matches_come_before_description_matches_and_every_word_must_match_somewhere() {
        let q = question(&[
            ("Cache layer", Some("keeps redis warm")),
            ("Redis", Some("the store")),
            ("Postgres", Some("a relational store")),
        ]);
        // `redis` is in the label of the second and the description of the first.
        assert_eq!(rank(&q, "redis").rows(), [1, 0]);
        // One word in the label, one in the description.
        let mixed = rank(&q, "post relational");
        assert_eq!(mixed.rows(), [2]);
        assert_eq!(mixed.hits(0), [0, 1, 2, 3]);
        // A word that must not match excludes labels and descriptions alike.
        assert_eq!(rank(&q, "store !relational").rows(), [1]);
        assert_eq!(rank(&q, "!redis").rows(), [2]);
    }

    #[test]
    fn the_highlight_moves_within_the_matches_and_starts_on_the_cursor() {
        let q = question(&[("One", None), ("Two", None), ("Three", None)]);
        let mut f = Filter::new(0, &q, 2);
        assert_eq!(f.highlighted(), Some(2));
        f.step(5);
        assert_eq!(f.highlighted(), Some(2));
        f.step(-9);
        assert_eq!(f.highlighted(), Some(0));
        f.query = TextEdit::new("tw").single_line();
        f.refresh();
        assert_eq!(f.highlighted(), Some(1));
    }

    proptest::proptest! {
        /// Typing at the end, erasing and pasting in any order: the matches ranked among the
        /// last ones are the matches ranked over every option (pattern syntax included).
        #[test]
        fn matching_among_the_last_matches_agrees_with_matching_all(
            labels in proptest::collection::vec(("[abAB '^$!\\\\é]{0,6}", proptest::option::of("[ab $]{0,4}")), 1..12),
            edits in proptest::collection::vec(proptest::option::of("[abAB '^$!\\\\é]{1,2}"), 1..16),
        ) {
            let labels: Vec<(&str, Option<&str>)> =
                labels.iter().map(|(l, d)| (l.as_str(), d.as_deref())).collect();
            let q = question(&labels);
            let mut f = Filter::new(0, &q, 0);
            let mut typed = String::new();
            for edit in &edits {
                match edit {
                    Some(more) => typed.push_str(more),
                    None => { typed.pop(); }
                }
                f.query = TextEdit::new(&typed).single_line();
                f.refresh();
                proptest::prop_assert_eq!(&f.matches, &rank(&q, &typed), "query {:?}", typed);
            }
        }
    }
}
