//! The built-in offline extractor: finds the questions an assistant message asks and their
//! choices, with no model. It reads the message the way a person skims it:
//!
//! - code blocks are skipped, and a `?` inside quotes ends no question;
//! - a question is a sentence ending in `?` (in a paragraph or a list item); a `why`/`how did`
//!   question answered by the sentences after it is rhetorical and skipped;
//! - its choices come, in this order, from a parenthesis (`(tabs or spaces)`), a colon
//!   (`use: Postgres or SQLite?`), inline letters after it (`(A) … (B) …`, `A) … B) …`, `1) … 2) …`),
//!   the list right below it
//!   (numbered, lettered, `Option A:` or bullets; sub-items for a question that is itself an item),
//!   the list right above it when it points back (`which one`, `which approach`), an `X or Y`
//!   inside it, and else `Yes`/`No` for a question starting with an auxiliary (`Should I…?`) or an
//!   everyday opener (`Want me to…?`, `OK to proceed?`, `Sound good?`);
//! - anything else (or a single choice) is an open question: a `freeform` option;
//! - `(pick all that apply)` and the like make it multi-select; at most 4 options are kept;
//!   generic prompts (`Anything else I can help with?`) are dropped.

use serde_json::{Value, json};

use super::rules::{MAX_OPTIONS, is_generic_prompt};

/// One line of the message, classified.
#[derive(Debug, Clone, PartialEq)]
enum Line {
    Blank,
    Heading,
    Text(String),
    /// A list item: its indentation and its text without the marker.
    Item {
        indent: usize,
        text: String,
    },
}

fn strip_marker(trimmed: &str) -> Option<&str> {
    for bullet in ["- ", "* ", "• ", "+ "] {
        if let Some(rest) = trimmed.strip_prefix(bullet) {
            return Some(rest);
        }
    }
    let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        let rest = &trimmed[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return Some(r);
        }
    }
    let mut chars = trimmed.chars();
    if let (Some(letter), Some(close), Some(' ')) = (chars.next(), chars.next(), chars.next())
        && letter.is_ascii_alphabetic()
        && (close == ')' || close == '.')
        && trimmed.len() > 3
    {
        return Some(&trimmed[3..]);
    }
    if let Some(rest) = trimmed.strip_prefix('(') {
        let mut c = rest.chars();
        if let (Some(letter), Some(')'), Some(' ')) = (c.next(), c.next(), c.next())
            && letter.is_ascii_alphanumeric()
        {
            return Some(&rest[3..]);
        }
    }
    // `Option A: …`, `Option 2 - …`
    if let Some(rest) = trimmed
        .strip_prefix("Option ")
        .or_else(|| trimmed.strip_prefix("**Option "))
    {
        let tag: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if !tag.is_empty() && tag.len() <= 2 {
            let after = rest[tag.len()..].trim_start_matches('*');
            for sep in [": ", " - ", " — ", ") ", ". "] {
                if let Some(r) = after.strip_prefix(sep) {
                    return Some(r.trim_start_matches("** ").trim_start_matches('*'));
                }
            }
        }
    }
    None
}

fn classify(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut in_code = false;
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let line = if trimmed.is_empty() {
            Line::Blank
        } else if trimmed.starts_with('#') {
            Line::Heading
        } else if let Some(rest) = strip_marker(trimmed) {
            Line::Item {
                indent: raw.len() - raw.trim_start().len(),
                text: rest.trim().to_owned(),
            }
        } else {
            Line::Text(trimmed.to_owned())
        };
        lines.push(line);
    }
    lines
}

/// Splits text into sentences, keeping their end marks; `?`, `.` and `!` inside quotes end none.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        current.push(c);
        match c {
            '"' => quoted = !quoted,
            '“' => quoted = true,
            '”' => quoted = false,
            '?' | '.' | '!' if !quoted => {
                let next = chars.get(i + 1);
                if next.is_none_or(|n| n.is_whitespace()) {
                    out.push(current.trim().to_owned());
                    current.clear();
                }
            }
            _ => {}
        }
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_owned());
    }
    out
}

/// Words that open a yes/no question.
const AUXILIARIES: &[&str] = &[
    "should", "shall", "do", "does", "did", "can", "could", "would", "will", "is", "are", "am",
    "was", "were", "have", "has", "may", "might", "must",
];

fn first_word(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// Everyday openers of a yes/no question that start with no auxiliary (`Want me to…?`, `OK to
/// proceed?`, `Sound good?`).
const YES_NO_OPENERS: &[&str] = &[
    "want me to ",
    "want to ",
    "ok to ",
    "okay to ",
    "ok if ",
    "okay if ",
    "ok with ",
    "okay with ",
    "fine to ",
    "fine with ",
    "alright to ",
    "all right to ",
    "ready to ",
    "ready for ",
    "happy to ",
    "happy with ",
    "mind if ",
    "any objection",
    "sound good",
    "sounds good",
    "good to go",
    "go ahead",
];

fn is_yes_no(prompt: &str) -> bool {
    let lower = prompt.trim_start().to_lowercase();
    AUXILIARIES.contains(&first_word(prompt).as_str())
        || YES_NO_OPENERS.iter().any(|o| lower.starts_with(o))
}

/// Phrases that allow several answers.
const MULTI_PHRASES: &[&str] = &[
    "all that apply",
    "select all",
    "choose all",
    "pick all",
    "pick any",
    "choose any",
    "select any",
    "any number of",
    "one or more",
];

fn says_multi(text: &str) -> bool {
    let lower = text.to_lowercase();
    MULTI_PHRASES.iter().any(|p| lower.contains(p))
}

/// Words by which a question points back at the list above it.
const BACK_REFERENCES: &[&str] = &[
    "which one",
    "which approach",
    "which option",
    "which of these",
    "which of those",
    "which way",
    "which would you",
    "which do you",
    "which should",
];

fn points_back(prompt: &str) -> bool {
    let lower = prompt.to_lowercase();
    BACK_REFERENCES.iter().any(|p| lower.contains(p))
}

/// Questions answered by the message itself.
fn is_rhetorical_opening(prompt: &str) -> bool {
    let lower = prompt.to_lowercase();
    [
        "why ",
        "how did ",
        "what happened",
        "what went wrong",
        "what caused",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
}

fn clean(text: &str) -> String {
    let text = text
        .trim()
        .trim_start_matches("**")
        .trim_end_matches("**")
        .trim()
        .trim_end_matches(['.', ',', ';', '!'])
        .trim();
    // Code quoted in a choice (`deploy`, Bump `serde`) reads as the words themselves: a label
    // is shown as written, so the backticks would show. Only paired ones go.
    if text.matches('`').count().is_multiple_of(2) {
        text.replace('`', "")
    } else {
        text.to_owned()
    }
}

/// Words that run alternatives together like `or`: `A vs B`, `A versus B`.
fn or_words(text: &str) -> String {
    text.replace(" vs. ", " or ")
        .replace(" vs ", " or ")
        .replace(" versus ", " or ")
}

/// Openers that carry no meaning before a question: `Also,`, `And`, `Finally,`, `Quick
/// question:`. Bare words (`And`, `Also`, `But`, `So`) count only before a question word or an
/// auxiliary, so `So far so good?` stays whole.
const LEAD_INS: &[&str] = &[
    "quick question:",
    "one more question:",
    "one more thing:",
    "one last thing:",
    "last thing:",
    "question:",
    "oh, and",
    "and also,",
    "also,",
    "and,",
    "finally,",
    "lastly,",
    "last,",
    "next,",
    "then,",
    "so,",
    "ok,",
    "okay,",
    "also",
    "and",
    "but",
    "so",
    "then",
];

/// Words that open a question.
const QUESTION_WORDS: &[&str] = &[
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how",
];

/// The question without its lead-ins, its first letter upper-cased when one was stripped.
fn strip_lead_in(prompt: &str) -> String {
    let mut text = prompt.trim();
    let mut stripped = false;
    'again: loop {
        let lower = text.to_lowercase();
        for lead in LEAD_INS {
            if !lower.starts_with(lead) || !text.is_char_boundary(lead.len()) {
                continue;
            }
            let rest = text[lead.len()..].trim_start();
            let bare = !lead.ends_with([',', ':']) && !lead.contains(' ');
            let after_word = !text[lead.len()..].starts_with(char::is_alphanumeric);
            let opens_question = || {
                let word = first_word(rest);
                QUESTION_WORDS.contains(&word.as_str()) || AUXILIARIES.contains(&word.as_str())
            };
            if after_word && !rest.is_empty() && (!bare || opens_question()) {
                text = rest;
                stripped = true;
                continue 'again;
            }
        }
        break;
    }
    if !stripped {
        return text.to_owned();
    }
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `A/B` or `A/B/C` inside a question (`JSON/TOML`, `dark/light/auto`): words of letters, digits
/// and dashes, two letters at least, never a path, a URL or `and/or`.
fn slash_alternatives(prompt: &str) -> Option<Vec<String>> {
    let found: Vec<Vec<String>> = prompt
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/'))
        .filter(|w| w.contains('/') && !w.starts_with('/') && !w.ends_with('/'))
        .map(|w| w.split('/').map(str::to_owned).collect::<Vec<_>>())
        .filter(|parts: &Vec<String>| {
            (2..=4).contains(&parts.len())
                && parts.iter().all(|p| {
                    p.chars().count() >= 2 && p.chars().all(|c| c.is_alphanumeric() || c == '-')
                })
                && !parts.iter().any(|p| p.eq_ignore_ascii_case("or"))
        })
        .collect();
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// A choice's label and description: `**Label** — description`, `Label: description`.
fn choice(text: &str) -> (String, Option<String>) {
    let text = text.trim();
    if let Some(rest) = text.strip_prefix("**")
        && let Some(end) = rest.find("**")
    {
        let label = rest[..end].trim_end_matches(':').trim().to_owned();
        let desc = rest[end + 2..]
            .trim()
            .trim_start_matches(['—', '–', '-', ':'])
            .trim();
        return (label, (!desc.is_empty()).then(|| clean(desc)));
    }
    for sep in [" — ", " – ", " - ", ": "] {
        if let Some((label, desc)) = text.split_once(sep)
            && label.split_whitespace().count() <= 4
        {
            return (clean(label), Some(clean(desc)).filter(|d| !d.is_empty()));
        }
    }
    (clean(text), None)
}

/// `A, B, or C` / `A or B` split into parts (already without the question's lead-in).
fn split_alternatives(text: &str) -> Vec<String> {
    let text = or_words(text);
    let text = text.trim().trim_end_matches('?').trim();
    let mut parts: Vec<String> = Vec::new();
    for chunk in text.split(", ") {
        for piece in chunk.split(" or ") {
            let piece = piece.trim().trim_start_matches("or ").trim();
            if !piece.is_empty() {
                parts.push(clean(piece));
            }
        }
    }
    parts
}

/// `…X or Y?` inside a question: Y runs to the `?`; X (and any comma-listed ones) are taken from
/// the end of the text before it, as many words as the shortest alternative.
fn inline_or(prompt: &str) -> Option<Vec<String>> {
    let body = or_words(prompt);
    let body = body.trim_end_matches('?');
    if let Some(actions) = inline_actions(body) {
        return Some(actions);
    }
    let at = body.rfind(" or ")?;
    let (left, right) = (&body[..at], body[at + 4..].trim());
    if right.is_empty()
        || right.split_whitespace().count() > 4
        || AUXILIARIES.contains(&first_word(right).as_str())
    {
        return None;
    }
    let items: Vec<&str> = left.trim_end_matches(',').split(", ").collect();
    let (first, middle) = items.split_first()?;
    let mut alternatives: Vec<String> = middle.iter().map(|s| clean(s)).collect();
    alternatives.push(clean(right));
    let shortest = alternatives
        .iter()
        .map(|a| a.split_whitespace().count())
        .min()
        .unwrap_or(1)
        .max(1);
    let words: Vec<&str> = first.split_whitespace().collect();
    if words.len() < shortest {
        return None;
    }
    let lead = clean(&words[words.len() - shortest..].join(" "));
    // A lone `X or Y?` has nothing before X; a longer lead-in must not be swallowed.
    alternatives.insert(0, lead);
    Some(alternatives)
}

/// Openers after which a question offers actions (`Should I pin it or upgrade?`): the
/// alternatives are the verb phrases after them.
const ACTION_OPENERS: &[&str] = &[
    "should i ",
    "should we ",
    "shall i ",
    "shall we ",
    "do you want me to ",
    "would you like me to ",
    "do you want to ",
    "would you rather ",
    "want me to ",
    "ok to ",
    "okay to ",
];

/// `Should I X or Y?`: `X` and `Y` as actions, first letters upper-cased (`Pin the old version`).
fn inline_actions(body: &str) -> Option<Vec<String>> {
    let lower = body.to_lowercase();
    let opener = ACTION_OPENERS.iter().find(|o| lower.starts_with(*o))?;
    let rest = body.get(opener.len()..)?;
    if !rest.contains(" or ") {
        return None;
    }
    let parts = split_alternatives(rest);
    let short = parts
        .iter()
        .all(|p| (1..=6).contains(&p.split_whitespace().count()));
    // `Should I use X or Y` names things, not actions: the shortest-words rule handles those.
    let names_things = parts
        .iter()
        .skip(1)
        .any(|p| !p.contains(' ') && p.chars().next().is_some_and(char::is_uppercase));
    (parts.len() >= 2 && short && !names_things).then(|| {
        parts
            .into_iter()
            .map(|p| {
                let mut c = p.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or_default()
            })
            .collect()
    })
}

/// `(A) x (B) y (C) z`, `A) x B) y` or `1) x 2) y` after a question: markers of one letter or
/// digit in order, each at the start or after a space.
fn inline_letters(rest: &str) -> Option<Vec<String>> {
    let rest = rest.trim();
    // Each marker: where it starts (its `(` when it has one) and where its text starts.
    let mut markers: Vec<(usize, usize)> = Vec::new();
    let bytes = rest.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b')' || i == 0 {
            continue;
        }
        let tag = bytes[i - 1];
        if !tag.is_ascii_alphanumeric() {
            continue;
        }
        let open = i >= 2 && bytes[i - 2] == b'(';
        let start = if open { i - 2 } else { i - 1 };
        let at_word_start = start == 0 || bytes[start - 1] == b' ';
        if at_word_start {
            markers.push((start, i + 1));
        }
    }
    // A list only when it starts the text and its tags follow one another (A B C, 1 2 3).
    if markers.first().is_none_or(|&(start, _)| start != 0) {
        return None;
    }
    let tags: Vec<u8> = markers
        .iter()
        .map(|&(_, text)| bytes[text - 2].to_ascii_lowercase())
        .collect();
    if !tags.windows(2).all(|w| w[1] == w[0] + 1) {
        return None;
    }
    let parts: Vec<String> = markers
        .iter()
        .enumerate()
        .map(|(n, &(_, text))| {
            let end = markers.get(n + 1).map_or(rest.len(), |&(next, _)| next);
            clean(&rest[text..end])
        })
        .collect();
    (parts.len() >= 2 && parts.iter().all(|p| !p.is_empty())).then_some(parts)
}

/// One question found, before it becomes JSON.
#[derive(Debug, Clone, PartialEq)]
struct Found {
    label: Option<String>,
    prompt: String,
    multi: bool,
    /// (label, description); empty: freeform.
    options: Vec<(String, Option<String>)>,
}

/// The list items right below line `at` (after at most one blank line): items deeper than
/// `min_indent`, none of them a question, stopping at anything else.
fn list_below(lines: &[Line], at: usize, min_indent: Option<usize>) -> Vec<String> {
    let mut items = Vec::new();
    let mut i = at + 1;
    if matches!(lines.get(i), Some(Line::Blank)) {
        i += 1;
    }
    while let Some(Line::Item { indent, text }) = lines.get(i) {
        if min_indent.is_some_and(|m| *indent <= m) || text.trim_end().ends_with('?') {
            break;
        }
        items.push(text.clone());
        i += 1;
    }
    items
}

/// The list items right above line `at` (after at most one blank line), none a question.
fn list_above(lines: &[Line], at: usize) -> Vec<String> {
    let mut end = at;
    if end > 0 && matches!(lines[end - 1], Line::Blank) {
        end -= 1;
    }
    let mut start = end;
    while start > 0 {
        match &lines[start - 1] {
            Line::Item { text, .. } if !text.trim_end().ends_with('?') => start -= 1,
            _ => break,
        }
    }
    lines[start..end]
        .iter()
        .filter_map(|l| match l {
            Line::Item { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A bold label before a question (`**Naming:** What…?`), and the rest.
fn split_label(sentence: &str) -> (Option<String>, String) {
    if let Some(rest) = sentence.strip_prefix("**")
        && let Some(end) = rest.find("**")
    {
        let label = rest[..end].trim().trim_end_matches(':').trim();
        let after = rest[end + 2..].trim_start_matches(':').trim();
        if !label.is_empty() && !after.is_empty() {
            return (Some(label.to_owned()), after.to_owned());
        }
    }
    (None, sentence.to_owned())
}

/// A trailing parenthesis inside the question (`use (tabs or spaces)?`), and the prompt without it.
fn trailing_parenthesis(prompt: &str) -> Option<(String, String)> {
    let body = prompt.strip_suffix('?')?.trim_end();
    let inner = body.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let rest = format!("{}?", inner[..open].trim_end());
    Some((rest, inner[open + 1..].trim().to_owned()))
}

fn question_at(lines: &[Line], at: usize, sentence: &str, after: &str) -> Option<Found> {
    let (label, prompt) = split_label(sentence);
    let mut prompt = strip_lead_in(&prompt);
    let mut multi = false;
    let mut options: Vec<(String, Option<String>)> = Vec::new();
    let bare = |items: Vec<String>| items.into_iter().map(|s| (s, None)).collect::<Vec<_>>();

    if let Some((rest, inner)) = trailing_parenthesis(&prompt) {
        if says_multi(&inner) {
            multi = true;
            prompt = rest;
        } else if inner.contains(" or ") {
            options = bare(split_alternatives(&inner));
            prompt = rest;
        }
    }
    // `…: A, B or C?` and `… — A, B or C?`: the alternatives after a colon or a dash.
    if options.is_empty()
        && let Some((lead, tail)) = [": ", " — ", " – ", " - "]
            .iter()
            .find_map(|sep| prompt.rsplit_once(sep))
        && or_words(tail).contains(" or ")
    {
        options = bare(split_alternatives(tail));
        prompt = format!("{}?", lead.trim_end());
    }
    if options.is_empty()
        && let Some(items) = inline_letters(after)
    {
        options = bare(items);
    }
    let own_indent = match &lines[at] {
        Line::Item { indent, .. } => Some(*indent),
        _ => None,
    };
    if options.is_empty() {
        options = list_below(lines, at, own_indent)
            .iter()
            .map(|t| choice(t))
            .collect();
    }
    if options.is_empty() && own_indent.is_none() && points_back(&prompt) {
        options = list_above(lines, at).iter().map(|t| choice(t)).collect();
    }
    if options.is_empty()
        && let Some(items) = inline_or(&prompt)
    {
        options = bare(items);
    }
    if options.is_empty()
        && let Some(items) = slash_alternatives(&prompt)
    {
        options = bare(items);
    }
    if options.is_empty() && is_yes_no(&prompt) {
        options = vec![("Yes".into(), None), ("No".into(), None)];
    }
    multi |= says_multi(sentence) || says_multi(after);
    options.retain(|(l, _)| !l.is_empty());
    // One choice is no choice: the question is open.
    if options.len() < 2 {
        options.clear();
    }
    options.truncate(MAX_OPTIONS);
    let prompt = prompt.trim().to_owned();
    (!is_generic_prompt(&prompt)).then_some(Found {
        label,
        prompt,
        multi,
        options,
    })
}

fn find_questions(text: &str) -> Vec<Found> {
    let lines = classify(text);
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let content = match line {
            Line::Text(t) => t,
            Line::Item { text, .. } => text,
            _ => continue,
        };
        let parts = sentences(content);
        for (n, sentence) in parts.iter().enumerate() {
            if !sentence.ends_with('?') {
                continue;
            }
            let after = parts[n + 1..].join(" ");
            // Answered by the message: the sentence right after it is a statement.
            let answered = parts.get(n + 1).is_some_and(|next| !next.ends_with('?'))
                && inline_letters(&after).is_none();
            if answered && is_rhetorical_opening(sentence) {
                continue;
            }
            // Only the last question of a line gets the choices that follow the line.
            if let Some(q) = question_at(&lines, at, sentence, &after) {
                found.push(q);
            }
        }
    }
    found
}

/// snake_case of a text's words (letters and digits only), at most `words` of them.
fn snake(text: &str, words: usize) -> String {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(words)
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// Words left out of question ids.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "which", "what", "who", "how", "when", "where", "why", "should", "shall",
    "do", "does", "did", "can", "could", "would", "will", "is", "are", "i", "we", "you", "me",
    "us", "it", "to", "of", "for", "in", "on", "be", "or", "and", "your", "my", "our", "this",
    "that", "these", "those", "with", "like", "want", "use", "have", "has", "there", "any", "also",
    "just", "ok", "okay", "please", "now", "then", "still", "really", "if", "one",
];

/// Words that only measure after `how` (`How long should…`, `How many…`): left out of labels.
const HOW_MEASURES: &[&str] = &["long", "many", "much", "often", "far", "big", "soon"];

fn question_id(prompt: &str) -> String {
    let words: Vec<String> = prompt
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .take(3)
        .collect();
    if words.is_empty() {
        "question".into()
    } else {
        words.join("_")
    }
}

/// A short label from a prompt's words, without question words and fillers (`What TTL should
/// entries have?` → `TTL entries`), so the result reads `TTL entries: 1 hour` rather than `Q1: …`.
/// At most three words and 24 characters; `Question` when nothing is left.
fn short_label(prompt: &str) -> String {
    let mut label = String::new();
    let words: Vec<&str> = prompt
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    let kept = words.iter().enumerate().filter(|&(i, w)| {
        let lower = w.to_lowercase();
        let after_how = i > 0 && words[i - 1].eq_ignore_ascii_case("how");
        !STOPWORDS.contains(&lower.as_str())
            && (!after_how || !HOW_MEASURES.contains(&lower.as_str()))
    });
    for (_, word) in kept.take(3) {
        if !label.is_empty() && label.chars().count() + 1 + word.chars().count() > 24 {
            break;
        }
        if !label.is_empty() {
            label.push(' ');
        }
        label.push_str(word);
    }
    let mut chars = label.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Question".to_owned(),
    }
}

fn unique(base: String, taken: &mut Vec<String>) -> String {
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}_{n}");
        n += 1;
    }
    taken.push(id.clone());
    id
}

/// The payload of the questions in `text`; `{"questions": []}` when it asks none.
pub fn extract(text: &str) -> Value {
    let mut ids = Vec::new();
    let questions: Vec<Value> = find_questions(text)
        .into_iter()
        .map(|q| {
            let id = unique(question_id(&q.prompt), &mut ids);
            let options: Vec<Value> = if q.options.is_empty() {
                vec![json!({"value": "freeform", "label": "Type answer", "freeform": true})]
            } else {
                let mut values = Vec::new();
                q.options
                    .iter()
                    .map(|(label, description)| {
                        let base = Some(snake(label, 6))
                            .filter(|s| !s.is_empty())
                            .unwrap_or_else(|| "option".into());
                        let mut o = json!({"value": unique(base, &mut values), "label": label});
                        if let Some(d) = description {
                            o["description"] = d.clone().into();
                        }
                        o
                    })
                    .collect()
            };
            let mut out = json!({
                "id": id,
                "prompt": q.prompt,
                "type": if q.multi && !q.options.is_empty() { "multi" } else { "single" },
                "options": options,
            });
            out["label"] = q.label.unwrap_or_else(|| short_label(&q.prompt)).into();
            out
        })
        .collect();
    json!({ "questions": questions })
}
