//! What the web page sends: the fields of a posted form (`application/x-www-form-urlencoded`),
//! read into what the person did on the question the page showed, and that into the [`Msg`]s
//! every driver sends. The page has no behaviour of its own: a click is the message the key or
//! the line-mode command for it sends.
//!
//! Fields: `tab` (the tab the page showed, 0-based; the question count is the review), `act` (what
//! was pressed: `pick:N`, `toggle:N`, `choose`, `own`, `note:N`, `qnote`, `goto:N`, `next`, `back`,
//! `submit`, `elaborate`, `cancel`), `seen` (the version of the ask the page drew: a submit from
//! a page older than the form is refused), `opt` (the checked options, for `choose` without a
//! script), `own` (the `Type your own` text), `noteN` and `qnote` (the notes' texts).

use crate::model::{Direct, Intent, Msg, ReviewAction};

/// The most text one field may carry (a note or an own answer); the server's body limit is above
/// every field together.
pub const MAX_TEXT: usize = 256 * 1024;

/// What was pressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// A single or preview question's option (0-based): chosen, and on to the next tab.
    Pick(usize),
    /// A row of a multi question (its options' count is the `Type your own` row): toggled.
    Toggle(usize),
    /// Exactly these options (a page without its script sends the checked boxes).
    Choose(Vec<usize>),
    /// A `Type your own` answer.
    Own(String),
    /// A note on an option (0-based), or on the question (`None`).
    Note {
        /// The option.
        option: Option<usize>,
        /// Its text (blank removes it).
        text: String,
    },
    /// To tab N.
    GoTo(usize),
    /// The next tab.
    Next,
    /// The previous tab.
    Back,
    /// A review action.
    Review(ReviewAction),
}

/// A posted form, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The tab the page showed.
    pub tab: usize,
    /// What was pressed there.
    pub act: Act,
    /// The version of the ask the page drew (none from a page that does not say).
    pub seen: Option<u64>,
}

/// Why a posted form is not an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAnAction {
    /// A field the action needs is missing.
    #[error("the form sent no {0}")]
    Missing(&'static str),
    /// A field is not what it must be (a number, a known action).
    #[error("the form's {0} is not understood")]
    Malformed(&'static str),
    /// A text over [`MAX_TEXT`].
    #[error("a text of the form is over {MAX_TEXT} bytes")]
    TooLong,
}

/// Reads a posted form's body.
pub fn parse(body: &[u8]) -> Result<Posted, NotAnAction> {
    let fields: Vec<(String, String)> = form_urlencoded::parse(body).into_owned().collect();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let number = |text: &str, what: &'static str| {
        text.trim()
            .parse::<usize>()
            .map_err(|_| NotAnAction::Malformed(what))
    };
    let text = |name: &str| -> Result<String, NotAnAction> {
        let text = field(name).unwrap_or("");
        if text.len() > MAX_TEXT {
            return Err(NotAnAction::TooLong);
        }
        // Browsers send a textarea's line breaks as CRLF; the form keeps LF, as typed on a terminal.
        Ok(text.replace("\r\n", "\n"))
    };
    let tab = number(field("tab").ok_or(NotAnAction::Missing("tab"))?, "tab")?;
    let act = field("act").ok_or(NotAnAction::Missing("act"))?;
    let (verb, arg) = act.split_once(':').unwrap_or((act, ""));
    let act = match verb {
        "pick" => Act::Pick(number(arg, "option")?),
        "toggle" => Act::Toggle(number(arg, "option")?),
        "choose" => Act::Choose(
            fields
                .iter()
                .filter(|(n, _)| n == "opt")
                .map(|(_, v)| number(v, "option"))
                .collect::<Result<_, _>>()?,
        ),
        "own" => Act::Own(text("own")?),
        "note" => {
            let option = number(arg, "option")?;
            Act::Note {
                option: Some(option),
                text: text(&format!("note{option}"))?,
            }
        }
        "qnote" => Act::Note {
            option: None,
            text: text("qnote")?,
        },
        "goto" => Act::GoTo(number(arg, "tab")?),
        "next" => Act::Next,
        "back" => Act::Back,
        "submit" => Act::Review(ReviewAction::Submit),
        "elaborate" => Act::Review(ReviewAction::Elaborate),
        "cancel" => Act::Review(ReviewAction::Cancel),
        _ => return Err(NotAnAction::Malformed("action")),
    };
    let seen = match field("seen") {
        Some(seen) => Some(
            seen.trim()
                .parse::<u64>()
                .map_err(|_| NotAnAction::Malformed("seen"))?,
        ),
        None => None,
    };
    Ok(Posted { tab, act, seen })
}

impl Posted {
    /// Whether the press sends the answers to the agent (a submit, or a submit asking it to
    /// elaborate): the press that must be made on the answers as they are now.
    pub fn confirms(&self) -> bool {
        matches!(
            self.act,
            Act::Review(ReviewAction::Submit | ReviewAction::Elaborate)
        )
    }

    /// The messages it sends: first to the tab the page showed (another window may have moved
    /// the form since; the click means what the person saw), then what was pressed.
    pub fn msgs(self) -> Vec<Msg> {
        let tab = self.tab;
        let meant = match self.act {
            Act::GoTo(n) => return vec![Msg::Direct(Direct::GoTo(n))],
            Act::Next => Msg::Direct(Direct::GoTo(tab.saturating_add(1))),
            Act::Back => Msg::Direct(Direct::GoTo(tab.saturating_sub(1))),
            Act::Pick(option) => Msg::Direct(Direct::Choose(vec![option])),
            Act::Choose(options) => Msg::Direct(Direct::Choose(options)),
            Act::Toggle(row) => Msg::Direct(Direct::Toggle(row)),
            Act::Own(text) => Msg::Direct(Direct::Own(text)),
            Act::Note { option, text } => Msg::Direct(Direct::Note { option, text }),
            Act::Review(action) => Msg::Intent(Intent::Review(action)),
        };
        vec![Msg::Direct(Direct::GoTo(tab)), meant]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posted(body: &str) -> Result<Posted, NotAnAction> {
        parse(body.as_bytes())
    }

    #[test]
    fn each_press_is_read() {
        let cases = [
            ("tab=0&act=pick%3A2", Act::Pick(2)),
            ("tab=1&act=toggle:3", Act::Toggle(3)),
            ("tab=1&act=choose&opt=0&opt=2", Act::Choose(vec![0, 2])),
            ("tab=0&act=choose", Act::Choose(vec![])),
            ("tab=0&act=own&own=mine+too", Act::Own("mine too".into())),
            (
                "tab=0&act=note:1&note1=a%0D%0Ab&note0=x",
                Act::Note {
                    option: Some(1),
                    text: "a\nb".into(),
                },
            ),
            (
                "tab=0&act=qnote&qnote=why",
                Act::Note {
                    option: None,
                    text: "why".into(),
                },
            ),
            ("tab=0&act=goto:3", Act::GoTo(3)),
            ("tab=2&act=next", Act::Next),
            ("tab=2&act=back", Act::Back),
            ("tab=3&act=submit", Act::Review(ReviewAction::Submit)),
            ("tab=3&act=elaborate", Act::Review(ReviewAction::Elaborate)),
            ("tab=3&act=cancel", Act::Review(ReviewAction::Cancel)),
        ];
        for (body, act) in cases {
            assert_eq!(posted(body).map(|p| p.act), Ok(act), "{body}");
        }
    }

    #[test]
    fn the_version_the_page_drew_is_read_and_only_sending_presses_confirm() {
        let submit = posted("tab=3&act=submit&seen=7").unwrap();
        assert_eq!(submit.seen, Some(7));
        assert!(submit.confirms());
        assert!(posted("tab=3&act=elaborate").unwrap().confirms());
        assert_eq!(posted("tab=3&act=elaborate").unwrap().seen, None);
        for body in ["tab=3&act=cancel&seen=1", "tab=0&act=pick:1&seen=1"] {
            assert!(!posted(body).unwrap().confirms(), "{body}");
        }
    }

    #[test]
    fn what_is_not_an_action_is_named() {
        assert_eq!(posted("act=next"), Err(NotAnAction::Missing("tab")));
        assert_eq!(posted("tab=0"), Err(NotAnAction::Missing("act")));
        assert_eq!(posted("tab=x&act=next"), Err(NotAnAction::Malformed("tab")));
        assert_eq!(
            posted("tab=0&act=pick:-1"),
            Err(NotAnAction::Malformed("option"))
        );
        assert_eq!(
            posted("tab=0&act=rm"),
            Err(NotAnAction::Malformed("action"))
        );
        assert_eq!(
            posted("tab=1&act=submit&seen=x"),
            Err(NotAnAction::Malformed("seen"))
        );
        let long = format!("tab=0&act=own&own={}", "a".repeat(MAX_TEXT + 1));
        assert_eq!(posted(&long), Err(NotAnAction::TooLong));
    }

    #[test]
    fn a_press_first_goes_to_the_tab_the_page_showed() {
        let msgs = posted("tab=1&act=toggle:0").unwrap().msgs();
        assert_eq!(
            msgs,
            vec![Msg::Direct(Direct::GoTo(1)), Msg::Direct(Direct::Toggle(0))]
        );
        let msgs = posted("tab=2&act=next").unwrap().msgs();
        assert_eq!(msgs.last(), Some(&Msg::Direct(Direct::GoTo(3))));
        let msgs = posted("tab=0&act=back").unwrap().msgs();
        assert_eq!(msgs.last(), Some(&Msg::Direct(Direct::GoTo(0))));
    }
}
