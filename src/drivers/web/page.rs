//! The web page's HTML, drawn from the model as the terminal's view is: the list of waiting asks,
//! a question or the review of an open ask, and what became of an ask. Pure functions of what they
//! are given.
//!
//! Every text from a payload, an asker or a config is escaped, and Markdown (prompts,
//! descriptions, previews, notes) is rendered to HTML and then cleaned by ammonia: no element,
//! attribute or URL scheme outside its allow-list reaches the page, and no image at all (the
//! Content-Security-Policy also forbids every script, style and image but the server's own).

use std::fmt::Write as _;

use pi_ask_components::{ReviewLine, strings as texts};

use crate::form::Question;
use crate::inbox::WaitingAsk;
use crate::model::{Model, Tab};
use crate::printable::printable;

/// `text` with every control character but line breaks and tabs shown as `?` (as on the
/// terminal: bidi overrides and the like included), carriage returns dropped.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        for (m, cell) in line.split('\t').enumerate() {
            if m > 0 {
                out.push('\t');
            }
            out.extend(printable(cell).chars().filter(|c| !hidden(*c)));
        }
    }
    out
}

/// Characters that draw nothing and can hide or fake text (a terminal cell never shows them):
/// zero-width space and word joiners, the byte-order mark, Hangul fillers, the Mongolian vowel
/// separator, tag characters. Joiners that shape scripts and emoji (U+200C, U+200D) stay.
fn hidden(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{3164}'
            | '\u{FFA0}'
            | '\u{180E}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Text escaped for HTML (control characters shown first: none reaches the page).
pub fn esc(text: &str) -> String {
    let text = shown(text);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Markdown as safe HTML.
pub fn markdown(text: &str) -> String {
    let text = shown(text);
    let parser = pulldown_cmark::Parser::new_ext(&text, pulldown_cmark::Options::ENABLE_TABLES);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    clean(&html)
}

fn clean(html: &str) -> String {
    use std::sync::OnceLock;
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER
        .get_or_init(|| {
            let mut builder = ammonia::Builder::default();
            // No relative link either: on this page it would point into pi-ask's own server.
            builder
                .rm_tags(["img"])
                .url_schemes(["http", "https", "mailto"].into())
                .url_relative(ammonia::UrlRelative::Deny)
                .link_rel(Some("noopener noreferrer nofollow"));
            builder
        })
        .clean(html)
        .to_string()
}

/// A whole page: `main` inside the frame every page shares.
pub fn document(title: &str, main: &str, waiting: usize) -> String {
    let count = if waiting > 0 {
        format!("({waiting}) ")
    } else {
        String::new()
    };
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"color-scheme\" content=\"light dark\">\
<title>{count}{} · pi-ask</title><link rel=\"stylesheet\" href=\"/app.css\">\
<script src=\"/app.js\" defer></script></head><body>\
<header><a href=\"/\" class=\"home\">pi-ask</a><span id=\"status\" role=\"status\" aria-live=\"polite\"></span></header>\
<main id=\"main\">{main}</main></body></html>\n",
        esc(title)
    )
}

/// One waiting ask in the list.
#[derive(Debug, Clone)]
pub struct Listed<'a> {
    /// The ask.
    pub ask: &'a WaitingAsk,
    /// Whether it was left for later.
    pub later: bool,
    /// Whether it is open on this page's server.
    pub open_here: bool,
}

/// The list of waiting asks.
pub fn list_main(asks: &[Listed<'_>], now_ms: u64, notice: Option<&str>) -> String {
    let mut out = String::from("<div data-page=\"list\"><h1>Waiting asks</h1>");
    if let Some(notice) = notice {
        let _ = write!(
            out,
            "<p class=\"notice\" role=\"alert\">{}</p>",
            esc(notice)
        );
    }
    if asks.is_empty() {
        out.push_str(
            "<p class=\"empty\">No ask is waiting. New asks appear here as they come.</p></div>",
        );
        return out;
    }
    out.push_str("<ul class=\"asks\">");
    for listed in asks {
        let ask = listed.ask;
        let id = esc(&ask.id);
        let mut about = format!(
            "from {} in {}, {}",
            esc(&ask.client),
            esc(&ask.cwd),
            crate::inbox::view::age(ask.created_at, now_ms)
        );
        if listed.later {
            about.push_str(", left for later");
        }
        if listed.open_here {
            about.push_str(", started here");
        }
        if !ask.asker_alive {
            about.push_str(", its asker has gone: an answer is only kept in the history");
        }
        let _ = write!(
            out,
            "<li><a class=\"ask\" href=\"/ask/{id}\">{}</a><p class=\"about\">{about}</p>\
<form method=\"post\" action=\"/ask/{id}/later\" class=\"row\">\
<button type=\"submit\">Later</button>\
<button type=\"submit\" formaction=\"/ask/{id}/decline\" class=\"quiet\">Decline</button></form></li>",
            esc(&ask.first_prompt)
        );
    }
    out.push_str("</ul></div>");
    out
}

/// Who asked an open ask, and from where.
#[derive(Debug, Clone)]
pub struct Asker<'a> {
    /// The ask's id.
    pub id: &'a str,
    /// The asking client.
    pub client: &'a str,
    /// Its folder.
    pub cwd: &'a str,
}

/// The page's keys from the person's keymap, as JSON for the page's script: for each thing the
/// page does on a key (filter, a note on the option in focus, the question's note, the next and
/// previous tab), the keys bound to the same action in the terminal form. Tab and Shift+Tab stay
/// the browser's (moving the focus), as do the arrows inside a group of choices.
pub fn keys_json(table: &crate::keymap::BindingTable) -> String {
    use crate::keymap::Action;
    let browsers = ["tab", "shift+tab"];
    let keys = |action: Action| -> Vec<String> {
        table
            .keys(action)
            .iter()
            .map(ToString::to_string)
            .filter(|k| !browsers.contains(&k.as_str()))
            .collect()
    };
    serde_json::json!({
        "filter": keys(Action::MainFilter),
        "optionNote": keys(Action::MainOptionNote),
        "questionNote": keys(Action::MainQuestionNote),
        "nextTab": keys(Action::MainNextTab),
        "previousTab": keys(Action::MainPreviousTab),
    })
    .to_string()
}

/// An open ask: its tab bar, then the question or the review the model is on. `keys` is
/// [`keys_json`]'s; `version` counts the ask's changes (the page's script fetches the page again
/// only when the server's events name a newer one).
/// `notice` is the desk's word on the press just made (a refused submit), shown above the form's.
pub fn form_main(
    asker: &Asker<'_>,
    model: &Model,
    keys: &str,
    version: u64,
    notice: Option<&str>,
) -> String {
    let id = esc(asker.id);
    let tab = model.tab_index();
    let mut out = format!(
        "<div data-page=\"form\" data-ask=\"{id}\" data-tab=\"{tab}\" data-version=\"{version}\" data-keys=\"{}\">",
        esc(keys)
    );
    if let Some(title) = model.title() {
        let _ = write!(out, "<h1>{}</h1>", esc(title));
    }
    let _ = write!(
        out,
        "<p class=\"about\">Asked by {} in {}</p>",
        esc(asker.client),
        esc(asker.cwd)
    );
    out.push_str(&tab_bar(&id, model, version));
    for notice in notice.into_iter().chain(model.notice()) {
        let _ = write!(
            out,
            "<p class=\"notice\" role=\"alert\">{}</p>",
            esc(notice)
        );
    }
    match model.tab() {
        Tab::Question(q) => out.push_str(&question(&id, model, q, version)),
        Tab::Review => out.push_str(&review(&id, model, version)),
    }
    out.push_str("</div>");
    out
}

/// A form of an open ask's page: it says the tab the page showed and the version of the ask it
/// drew (`seen`), so a submit from a page another window has since changed is refused rather
/// than sending what this person never saw.
fn form_open(id: &str, tab: usize, class: &str, version: u64) -> String {
    format!(
        "<form method=\"post\" action=\"/ask/{id}\" class=\"{class}\"><input type=\"hidden\" name=\"tab\" value=\"{tab}\"><input type=\"hidden\" name=\"seen\" value=\"{version}\">"
    )
}

fn tab_bar(id: &str, model: &Model, version: u64) -> String {
    let mut out = String::from("<nav aria-label=\"Questions\">");
    out.push_str(&form_open(id, model.tab_index(), "tabs", version));
    let names = model
        .questions()
        .iter()
        .zip(model.answers())
        .map(|(q, a)| (esc(&q.label), a.is_committed()))
        .chain(std::iter::once((texts::REVIEW_TAB.to_owned(), false)));
    for (n, (name, answered)) in names.enumerate() {
        let current = if n == model.tab_index() {
            " aria-current=\"step\""
        } else {
            ""
        };
        let mark = if answered {
            "<span class=\"done\" aria-label=\"answered\"> ✓</span>"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<button type=\"submit\" name=\"act\" value=\"goto:{n}\"{current}>{name}{mark}</button>"
        );
    }
    out.push_str("</form></nav>");
    out
}

fn question(id: &str, model: &Model, q: usize, version: u64) -> String {
    let question = &model.questions()[q];
    let answer = model.answer(q);
    let multi = question.presented_type.is_multi();
    let (kind, act) = if multi {
        ("checkbox", "toggle")
    } else {
        ("radio", "pick")
    };
    let preview = question.options.iter().any(|o| o.preview.is_some());
    let mut out = format!(
        "<section class=\"question{}\" aria-labelledby=\"prompt\">",
        if preview { " with-preview" } else { "" }
    );
    let _ = write!(
        out,
        "<div id=\"prompt\" class=\"prompt\" role=\"heading\" aria-level=\"2\">{}</div>",
        markdown(&question.prompt)
    );
    out.push_str(&form_open(id, q, "answer", version));
    if question.options.len() > 7 {
        out.push_str(
            "<p class=\"filter\"><label>Filter <input type=\"search\" class=\"filter-input\" autocomplete=\"off\"></label></p>",
        );
    }
    let legend = if multi { "Choose any" } else { "Choose one" };
    let _ = write!(out, "<fieldset><legend>{legend}</legend>");
    for (i, option) in question.options.iter().enumerate() {
        let checked = if answer.is_selected(i) {
            " checked"
        } else {
            ""
        };
        let recommended = if option.is_recommended() {
            format!(" <span class=\"recommended\">{}</span>", texts::RECOMMENDED)
        } else {
            String::new()
        };
        let description = option
            .description
            .as_deref()
            .map(|d| format!("<span class=\"description\">{}</span>", markdown(d)))
            .unwrap_or_default();
        let note = answer.option_notes.get(&option.value).map(String::as_str);
        let _ = write!(
            out,
            "<div class=\"option\" data-option=\"{i}\"><input type=\"{kind}\" id=\"o{i}\" name=\"opt\" value=\"{i}\" data-act=\"{act}:{i}\"{checked}>\
<label for=\"o{i}\"><span class=\"label\">{}</span>{recommended}{description}</label>{}</div>",
            esc(&option.label),
            note_editor(&format!("note{i}"), &format!("note:{i}"), "Note", note)
        );
    }
    let own = answer.custom_text.as_deref().unwrap_or("");
    let own_checked = if answer.custom_selected {
        " checked"
    } else {
        ""
    };
    let custom_row = question.custom_row();
    let own_act = if multi {
        format!("toggle:{custom_row}")
    } else {
        "own".to_owned()
    };
    let _ = write!(
        out,
        "<div class=\"option own\"><input type=\"{kind}\" id=\"own-choice\" name=\"opt\" value=\"own\" data-act=\"{own_act}\"{own_checked}{}>\
<label for=\"own-text\">Type your own</label>\
<textarea id=\"own-text\" name=\"own\" rows=\"2\">{}</textarea>\
<button type=\"submit\" name=\"act\" value=\"own\">Use this answer</button></div></fieldset>",
        if answer.custom_text.is_none() && multi {
            " disabled"
        } else {
            ""
        },
        esc_text(own)
    );
    out.push_str(&note_editor(
        "qnote",
        "qnote",
        "Note on this question",
        answer.note.as_deref(),
    ));
    out.push_str("<div class=\"actions\">");
    if q > 0 {
        out.push_str("<button type=\"submit\" name=\"act\" value=\"back\">Back</button>");
    }
    let _ = write!(
        out,
        "<noscript><button type=\"submit\" name=\"act\" value=\"choose\">Choose</button></noscript>\
<button type=\"submit\" name=\"act\" value=\"next\" class=\"primary\">{}</button></div></form>",
        if q + 1 == model.questions().len() {
            "Next: review"
        } else {
            "Next"
        }
    );
    if preview {
        out.push_str(&previews(question, model.cursor(q)));
    }
    out.push_str("</section>");
    out
}

/// A textarea's content: escaped, but line breaks kept (`esc` keeps them: they are printable).
fn esc_text(text: &str) -> String {
    esc(text)
}

fn note_editor(field: &str, act: &str, summary: &str, note: Option<&str>) -> String {
    let open = if note.is_some() { " open" } else { "" };
    let shown = note
        .map(|n| format!("<div class=\"saved-note\">{}</div>", markdown(n)))
        .unwrap_or_default();
    format!(
        "<details class=\"note\"{open}><summary>{summary}</summary>{shown}\
<textarea name=\"{field}\" rows=\"2\" aria-label=\"{summary}\">{}</textarea>\
<button type=\"submit\" name=\"act\" value=\"{act}\">Save note</button></details>",
        esc_text(note.unwrap_or(""))
    )
}

/// Every option's preview, the highlighted one shown (the page's script shows the one under the
/// pointer or focus; without it, the highlighted one stays).
fn previews(question: &Question, cursor: usize) -> String {
    let mut out = String::from("<aside class=\"previews\" aria-label=\"Preview\">");
    for (i, option) in question.options.iter().enumerate() {
        let body = match &option.preview {
            Some(preview) => markdown(preview),
            None => format!("<p class=\"quiet\">{}</p>", texts::NO_PREVIEW_TEXT),
        };
        let hidden = if i == cursor.min(question.options.len().saturating_sub(1)) {
            ""
        } else {
            " hidden"
        };
        let _ = write!(
            out,
            "<div class=\"preview\" data-preview=\"{i}\"{hidden}>{body}</div>"
        );
    }
    out.push_str("</aside>");
    out
}

fn review(id: &str, model: &Model, version: u64) -> String {
    let mut out = format!(
        "<section class=\"review\" aria-labelledby=\"review\"><h2 id=\"review\">{}</h2><dl>",
        texts::REVIEW_HEADING
    );
    for entry in crate::tui::view::review_entries(model) {
        let _ = write!(out, "<dt>{}</dt>", esc(&entry.label));
        for line in entry.lines {
            let dd = match line {
                ReviewLine::Unanswered => "<dd class=\"quiet\">unanswered</dd>".to_owned(),
                ReviewLine::UnansweredRequired => {
                    "<dd class=\"warning\">unanswered · required</dd>".to_owned()
                }
                ReviewLine::Answer { text, custom } => format!(
                    "<dd class=\"answer{}\">{}</dd>",
                    if custom { " own" } else { "" },
                    esc(&text)
                ),
                ReviewLine::Note(note) => format!(
                    "<dd class=\"note\"><span class=\"quiet\">{}</span> {}</dd>",
                    texts::NOTE_LABEL,
                    markdown(&note)
                ),
                ReviewLine::OptionNote { option, note } => format!(
                    "<dd class=\"note\"><span class=\"quiet\">{} {}:</span> {}</dd>",
                    texts::NOTE_LABEL,
                    esc(&option),
                    markdown(&note)
                ),
            };
            out.push_str(&dd);
        }
    }
    out.push_str("</dl>");
    out.push_str(&form_open(id, model.tab_index(), "actions", version));
    let _ = write!(
        out,
        "<button type=\"submit\" name=\"act\" value=\"submit\" class=\"primary\">{}</button>\
<button type=\"submit\" name=\"act\" value=\"elaborate\">{}</button>\
<button type=\"submit\" name=\"act\" value=\"cancel\" class=\"quiet\">{}</button></form></section>",
        crate::strings::SUBMIT,
        crate::strings::ELABORATE,
        crate::strings::CANCEL
    );
    out
}

/// What a submit from a page older than the form is told (its answers are shown as they are).
pub const STALE_SUBMIT: &str = "Nothing was sent: the answers changed in another window after this page showed them. Check them below and submit again.";

/// Whom the page of an ended ask speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The press that ended it.
    Ender,
    /// A press that came after it ended (another window's, or a second submit): it sent nothing.
    Presser,
    /// Someone looking (a reload, a link): neither won nor lost.
    Looker,
}

/// What became of an ask a page asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Answered here; the agent has it.
    Answered,
    /// Cancelled here (or declined); the agent was told.
    Cancelled,
    /// Answered here, but the asker had stopped waiting: kept in the history only.
    TooLate,
    /// Answered here, but the answer could not be written (the words say why and what now).
    NotDelivered(String),
    /// Open in another inbox (a terminal's) now: answer it there.
    OpenElsewhere,
    /// Answered in another inbox (or this one's other page) first.
    AnsweredElsewhere,
    /// Its asker took it back.
    Withdrawn,
    /// No such ask waits (a mistyped or very old link).
    Unknown,
}

impl Outcome {
    /// Whether the ask is over for good (not back in the queue, not open elsewhere).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Outcome::Answered
                | Outcome::Cancelled
                | Outcome::TooLate
                | Outcome::AnsweredElsewhere
                | Outcome::Withdrawn
        )
    }
}

fn outcome_text_for(outcome: &Outcome, viewer: Viewer) -> (&'static str, String) {
    match (viewer, outcome) {
        (Viewer::Presser, Outcome::Answered | Outcome::TooLate) => (
            "Answered in another window",
            "This ask was answered in another window first; this press sent nothing.".to_owned(),
        ),
        (Viewer::Presser, Outcome::Cancelled) => (
            "Cancelled in another window",
            "This ask was cancelled in another window first; this press sent nothing.".to_owned(),
        ),
        (Viewer::Looker, Outcome::Answered) => (
            "Answered",
            "This ask has been answered; the agent has the answer.".to_owned(),
        ),
        (Viewer::Looker, Outcome::Cancelled) => (
            "Cancelled",
            "This ask was cancelled; the agent was told.".to_owned(),
        ),
        _ => outcome_text(outcome),
    }
}

fn outcome_text(outcome: &Outcome) -> (&'static str, String) {
    match outcome {
        Outcome::Answered => ("Answered", "The agent has your answer.".to_owned()),
        Outcome::Cancelled => (
            "Cancelled",
            "The agent was told that you cancelled.".to_owned(),
        ),
        Outcome::TooLate => (
            "Answered too late",
            "The asker had stopped waiting (its time limit passed, or it was cancelled). Your answer is kept in the history.".to_owned(),
        ),
        Outcome::NotDelivered(why) => ("Not delivered", why.clone()),
        Outcome::OpenElsewhere => (
            "Open in another inbox",
            "This ask is being answered in another inbox (a terminal's) right now. Answer it there; if it is put back, it appears here again.".to_owned(),
        ),
        Outcome::AnsweredElsewhere => (
            "Answered elsewhere",
            "This ask was answered in another inbox first; nothing you entered here was sent. What you entered is kept in the history.".to_owned(),
        ),
        Outcome::Withdrawn => (
            "Withdrawn",
            "The agent withdrew this ask (it was cancelled, or its time ran out); nothing was sent.".to_owned(),
        ),
        Outcome::Unknown => (
            "No such ask",
            "No ask with this address is waiting.".to_owned(),
        ),
    }
}

/// What became of an ask, in one line (`Withdrawn: the agent withdrew …`).
pub fn outcome_words(outcome: &Outcome) -> String {
    let (heading, words) = outcome_text(outcome);
    format!("{heading}: {words}")
}

/// The page of an ask that is not open, in the words for `viewer`.
pub fn outcome_main(outcome: &Outcome, viewer: Viewer) -> String {
    let (heading, words) = outcome_text_for(outcome, viewer);
    format!(
        "<div data-page=\"outcome\"><h1>{heading}</h1><p role=\"status\">{}</p><p><a href=\"/\">Waiting asks</a></p></div>",
        esc(&words)
    )
}

/// The page of a refused request (the words say why and what to do).
pub fn refused_main(why: &str) -> String {
    format!(
        "<div data-page=\"refused\"><h1>Not allowed</h1><p>{}</p></div>",
        esc(why)
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn invisible_characters_never_reach_the_page() {
        let text = "a\u{200B}b\u{FEFF}c\u{3164}d\u{E0041}\u{E007F}e\u{2060}f\u{200D}g";
        assert_eq!(esc(text), "abcdef\u{200D}g");
    }

    use super::*;

    #[test]
    fn payload_text_never_becomes_markup() {
        let hostile = "<script>alert(1)</script><img src=x onerror=alert(1)>\"'&\x1b]0;x\x07";
        assert_eq!(esc("a\r\nb\tc"), "a\nb\tc", "line breaks and tabs are kept");
        let escaped = esc(hostile);
        assert!(!escaped.contains('<') && !escaped.contains('"') && !escaped.contains('\x1b'));
        let rendered = markdown(&format!(
            "**bold** {hostile}\n\n[link](javascript:alert(1)) <a href=\"https://x.example\" onclick=\"x()\">x</a>"
        ));
        assert!(rendered.contains("<strong>bold</strong>"), "{rendered}");
        for bad in [
            "<script",
            "<img",
            "onerror",
            "javascript:",
            "onclick",
            "\x1b",
        ] {
            assert!(
                !rendered.to_ascii_lowercase().contains(bad),
                "{bad} in {rendered}"
            );
        }
        assert!(
            rendered.contains("rel=\"noopener noreferrer nofollow\""),
            "{rendered}"
        );
    }
}
