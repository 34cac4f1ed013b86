//! Type-to-filter over a question's options (`main.filter`, `/`): the query, the options it
//! matches (fuzzy, on the label and the description, best first), and which match is highlighted.
//! The model's cursor follows the highlighted match, so the preview pane and the result speak of
//! original option positions whatever the filter shows.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use pi_ask_components::TextEdit;

use crate::form::Question;

/// An option the query matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterMatch {
    /// The option's index in the question (0-based; results say `option + 1`).
    pub option: usize,
    /// Characters of the label the query matched (char indices, ascending), to highlight.
    pub label_hits: Vec<usize>,
}

/// An open filter on one question.
#[derive(Debug, Clone)]
pub struct Filter {
    pub question: usize,
    pub query: TextEdit,
    /// The options shown, best match first (all of them, in order, while the query is empty).
    pub matches: Vec<FilterMatch>,
    /// The highlighted match (an index into `matches`).
    pub selected: usize,
    /// Counts the times `matches` changed, so a view can keep what it built from them.
    pub revision: u64,
}

impl Filter {
    /// A filter on `question` with an empty query, the highlight on the option the cursor is on.
    pub fn new(index: usize, question: &Question, cursor: usize) -> Filter {
        let matches = rank(question, "");
        let selected = matches.iter().position(|m| m.option == cursor).unwrap_or(0);
        Filter {
            question: index,
            query: TextEdit::new("").single_line(),
            matches,
            selected,
            revision: 0,
        }
    }

    /// The highlighted option (its index in the question), if anything matches.
    pub fn highlighted(&self) -> Option<usize> {
        self.matches.get(self.selected).map(|m| m.option)
    }

    /// Matches the query again (after an edit): the best match is highlighted.
    pub fn refresh(&mut self, question: &Question) {
        self.matches = rank(question, self.query.text());
        self.selected = 0;
        self.revision = self.revision.wrapping_add(1);
    }

    /// Moves the highlight by `delta` matches, stopping at either end.
    pub fn step(&mut self, delta: isize) {
        let last = self.matches.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }
}

/// The options of `question` that `query` matches, best first (ties in the question's order);
/// every option, in order, for a blank query. Matched on the label and the description
/// together (smart case, accents folded), as `@` suggestions are.
pub fn rank(question: &Question, query: &str) -> Vec<FilterMatch> {
    rank_texts(
        query,
        question
            .options
            .iter()
            .map(|o| (o.label.as_str(), o.description.as_deref())),
    )
}

/// The items whose `(label, more)` texts `query` matches, best first (ties in their order), with
/// the label's matched characters; every item, in order, for a blank query. `more` is matched
/// too (a description, who asked) but not highlighted.
pub fn rank_texts<'a>(
    query: &str,
    items: impl Iterator<Item = (&'a str, Option<&'a str>)>,
) -> Vec<FilterMatch> {
    if query.trim().is_empty() {
        return items
            .enumerate()
            .map(|(option, _)| FilterMatch {
                option,
                label_hits: Vec::new(),
            })
            .collect();
    }
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut hits = Vec::new();
    let mut haystack = String::new();
    let mut scored: Vec<(u32, FilterMatch)> = Vec::new();
    for (option, (label, more)) in items.enumerate() {
        haystack.clear();
        haystack.push_str(label);
        if let Some(more) = more {
            haystack.push(' ');
            haystack.push_str(more);
        }
        hits.clear();
        let Some(score) =
            pattern.indices(Utf32Str::new(&haystack, &mut buf), &mut matcher, &mut hits)
        else {
            continue;
        };
        let label_len = label.chars().count();
        let mut label_hits: Vec<usize> = hits
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i < label_len)
            .collect();
        label_hits.sort_unstable();
        label_hits.dedup();
        scored.push((score, FilterMatch { option, label_hits }));
    }
    // Stable: equal scores keep the items' order.
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    scored.into_iter().map(|(_, m)| m).collect()
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
        let all: Vec<usize> = rank(&q, "  ").iter().map(|m| m.option).collect();
        assert_eq!(all, [0, 1]);
    }

    #[test]
    fn matches_come_best_first_with_the_labels_matched_characters() {
        let q = question(&[
            ("Postgres", None),
            ("SQLite", Some("an embedded database")),
            ("Redis", None),
        ]);
        let found = rank(&q, "sqlt");
        assert_eq!(found[0].option, 1);
        assert_eq!(found[0].label_hits, [0, 1, 2, 4]);
        // The description matches too, without highlighting the label.
        let by_description = rank(&q, "embedded");
        assert_eq!(by_description.len(), 1);
        assert_eq!(by_description[0].option, 1);
        assert!(by_description[0].label_hits.is_empty());
        assert!(rank(&q, "zzz").is_empty());
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
        f.refresh(&q);
        assert_eq!(f.highlighted(), Some(1));
    }
}
