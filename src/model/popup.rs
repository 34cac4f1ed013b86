//! The `@` suggestion popup as model state: open or closed, its kind, items and selection, the
//! text it was dismissed at, and the generation of the search it waits for. Searching and folder
//! listing are effects ([`Cmd::Files`]); their answers come back as
//! [`Report::Suggestions`](super::Report::Suggestions) and are dropped when a newer request was made since.

use super::{Cmd, Model, PopupAction};
use crate::files::{self, Matches, Suggestion};

/// Bytes before the caret looked at for the token being completed: a path longer than this is
/// not typed by hand, and a long line costs nothing per key.
const TOKEN_WINDOW: usize = 1024;

/// What an open suggestion popup completes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupKind {
    /// An `@` reference (`quoted` when typed as `@"…`).
    At {
        /// Typed as `@"…`.
        quoted: bool,
    },
    /// A path word completed with Tab (`had_at` keeps its `@`, `quoted` its open quote).
    Word {
        /// The word starts with `@`.
        had_at: bool,
        /// The word has an open quote.
        quoted: bool,
    },
}

/// The suggestion popup under an editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Popup {
    /// The suggestions shown, best first.
    pub items: Vec<Suggestion>,
    /// How many matched in all (`items` are the best of them).
    pub total: usize,
    /// The highlighted suggestion.
    pub selected: usize,
    /// Characters before the caret that an accepted suggestion replaces.
    pub replace_chars: usize,
    /// What it completes.
    pub kind: PopupKind,
    /// The file index stopped at its cap, so matches past it are missing.
    pub truncated: bool,
}

/// The request the next [`Report::Suggestions`](super::Report::Suggestions) answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    generation: u64,
    replace_chars: usize,
    kind: PopupKind,
}

/// Everything about completion in one flow.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// Whether `@` suggestions are offered at all (a file index exists).
    pub(super) enabled: bool,
    pub(super) popup: Option<Popup>,
    /// The text before the caret when the popup was closed; it stays closed until that changes.
    dismissed: Option<String>,
    /// Bumped by every request, and by anything that makes an answer in flight stale.
    generation: u64,
    pending: Option<Pending>,
}

impl Completion {
    /// Closes the popup and forgets any search in flight.
    pub(super) fn close(&mut self) {
        self.popup = None;
        self.pending = None;
        self.generation += 1;
    }

    fn request(&mut self, replace_chars: usize, kind: PopupKind) -> u64 {
        self.generation += 1;
        self.pending = Some(Pending {
            generation: self.generation,
            replace_chars,
            kind,
        });
        // An open popup keeps its items until the answer comes, but replaces what is typed now.
        if let Some(popup) = &mut self.popup {
            popup.replace_chars = replace_chars;
            popup.kind = kind;
        }
        self.generation
    }
}

impl Model {
    /// Whether Tab in the open editor completes something: a popup is open, or file suggestions
    /// are on and a path word (or an `@`, or an open quote) is before the caret. Otherwise Tab goes
    /// to the next tab, as in an empty editor.
    pub fn tab_completes(&self) -> bool {
        if self.completion.popup.is_some() {
            return true;
        }
        let Some(before) = before_caret(self).filter(|_| self.completion.enabled) else {
            return false;
        };
        let word = files::path_word(&before);
        !word.word.is_empty() || word.had_at || word.quoted
    }
}

/// The text before the caret that completion looks at.
fn before_caret(model: &Model) -> Option<String> {
    let editor = model.editor.as_ref()?;
    Some(editor.edit.tail_before_cursor(TOKEN_WINDOW).to_owned())
}

/// Opens, refreshes or closes the `@` popup for the token before the caret.
pub(super) fn refresh(model: &mut Model) -> Vec<Cmd> {
    let Some(before) = before_caret(model).filter(|_| model.completion.enabled) else {
        model.completion.close();
        return Vec::new();
    };
    let completion = &mut model.completion;
    match files::at_token(&before) {
        Some(token) if completion.dismissed.as_deref() != Some(before.as_str()) => {
            completion.dismissed = None;
            let generation = completion.request(
                token.len_chars,
                PopupKind::At {
                    quoted: token.quoted,
                },
            );
            vec![Cmd::Files(files::Request::Search {
                query: token.query,
                generation,
            })]
        }
        _ => {
            completion.close();
            Vec::new()
        }
    }
}

/// An answer to a search or listing.
pub(super) fn suggestions(
    model: &mut Model,
    generation: u64,
    matches: Matches,
    truncated: bool,
) -> Vec<Cmd> {
    let editor_open = model.editor.is_some();
    let completion = &mut model.completion;
    let Some(pending) = completion
        .pending
        .filter(|p| p.generation == generation && editor_open)
    else {
        return Vec::new();
    };
    match pending.kind {
        PopupKind::At { .. } => {
            let selected = completion
                .popup
                .as_ref()
                .map_or(0, |p| p.selected)
                .min(matches.items.len().saturating_sub(1));
            completion.popup = Some(Popup {
                items: matches.items,
                total: matches.total,
                selected,
                replace_chars: pending.replace_chars,
                kind: pending.kind,
                truncated,
            });
            Vec::new()
        }
        PopupKind::Word { had_at, quoted } => {
            completion.pending = None;
            match matches.items.as_slice() {
                [] => Vec::new(),
                [only] => {
                    let text = files::word_insertion(only, had_at, quoted);
                    replace_before_caret(model, pending.replace_chars, &text);
                    refresh(model)
                }
                _ => {
                    completion.popup = Some(Popup {
                        items: matches.items,
                        total: matches.total,
                        selected: 0,
                        replace_chars: pending.replace_chars,
                        kind: pending.kind,
                        truncated: false,
                    });
                    Vec::new()
                }
            }
        }
    }
}

fn replace_before_caret(model: &mut Model, chars: usize, text: &str) {
    if let Some(editor) = &mut model.editor {
        editor.edit.replace_before_cursor(chars, text);
    }
}

/// A popup key.
pub(super) fn action(model: &mut Model, action: PopupAction) -> Vec<Cmd> {
    let before = before_caret(model);
    let completion = &mut model.completion;
    // A popup with nothing to offer (`no matching files`) takes only its close key: Tab does what
    // it does with the popup closed.
    if action != PopupAction::Close
        && completion
            .popup
            .as_ref()
            .is_some_and(|p| p.items.is_empty())
    {
        completion.close();
    }
    match (action, completion.popup.as_mut()) {
        (PopupAction::Next, Some(p)) => {
            p.selected = (p.selected + 1) % p.items.len().max(1);
            Vec::new()
        }
        (PopupAction::Previous, Some(p)) => {
            let n = p.items.len().max(1);
            p.selected = (p.selected + n - 1) % n;
            Vec::new()
        }
        (PopupAction::Close, Some(_)) => {
            completion.close();
            completion.dismissed = before;
            Vec::new()
        }
        (PopupAction::Accept | PopupAction::Complete, Some(p)) => {
            let Some(choice) = p.items.get(p.selected) else {
                return Vec::new();
            };
            let text = match p.kind {
                PopupKind::At { quoted } => files::insertion(choice, quoted),
                PopupKind::Word { had_at, quoted } => files::word_insertion(choice, had_at, quoted),
            };
            let chars = p.replace_chars;
            completion.close();
            replace_before_caret(model, chars, &text);
            refresh(model)
        }
        // Tab with no popup: completes the path word before the caret from its folder.
        (PopupAction::Complete, None) => {
            let Some(before) = before else {
                return Vec::new();
            };
            let files::PathWord {
                len_chars,
                word,
                had_at,
                quoted,
            } = files::path_word(&before);
            let generation = completion.request(len_chars, PopupKind::Word { had_at, quoted });
            vec![Cmd::Files(files::Request::ListDir { word, generation })]
        }
        (_, None) => Vec::new(),
    }
}

/// An editing operation: a paste never opens the popup (as in pi) and ends any token being typed;
/// every other edit or caret move refreshes it.
pub(super) fn after_edit(model: &mut Model, paste: bool) -> Vec<Cmd> {
    if paste {
        model.completion.close();
        return Vec::new();
    }
    refresh(model)
}
