//! The inbox's list of waiting asks as a model: the entries (refreshed from the queues), the
//! highlighted one, the asks left for later, and `update`, which turns an [`InboxAction`] into
//! what the inbox must do. Pure: no I/O, no clock (the view is given the time).

pub mod view;

use crate::model::{Filter, FilterAction, Haystacks, InboxAction, Intent, Msg};

/// One waiting ask as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingAsk {
    /// The ask's id.
    pub id: String,
    /// Who asked (the MCP client's name and version).
    pub client: String,
    /// The asker's folder.
    pub cwd: String,
    /// Unix milliseconds.
    pub created_at: u64,
    /// The first question's prompt, on one line.
    pub first_prompt: String,
    /// Whether the process waiting for the answer still runs.
    pub asker_alive: bool,
    /// Which of the watched queues it is in (their index).
    pub queue: usize,
}

/// What the inbox does after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InboxCmd {
    /// Claim and show this ask.
    Open(String),
    /// Answer this ask with a cancelled result.
    Decline(String),
    /// Quit; every ask stays queued.
    Quit,
}

/// How the list ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListEnding {
    /// The person chose: open, decline or quit.
    Chose(InboxCmd),
    /// Every ask went away (answered elsewhere, withdrawn): back to waiting.
    Empty,
    /// A signal or a closed terminal.
    Interrupted,
}

/// The list: entries oldest first, those left for later at the end.
#[derive(Debug, Clone, Default)]
pub struct InboxList {
    entries: Vec<WaitingAsk>,
    cursor: usize,
    /// The asks left for later, in the order they were left (the last one goes last).
    later: Vec<String>,
    /// The type-to-filter line (`inbox.filter`, `/`), while it is open.
    filter: Option<Filter>,
    /// How many asks left the list while it was shown: answered in another inbox or on the web
    /// page, or withdrawn by their askers (this list's own choices end it first).
    gone_elsewhere: usize,
}

impl InboxList {
    /// The entries in the order shown.
    pub fn entries(&self) -> &[WaitingAsk] {
        &self.entries
    }

    /// The highlighted row.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The open filter, if any.
    pub fn filter(&self) -> Option<&Filter> {
        self.filter.as_ref()
    }

    /// The rows shown, in order: the filter's matches, or every entry.
    pub fn shown(&self) -> Vec<usize> {
        match &self.filter {
            Some(f) => f.matches.rows().to_vec(),
            None => (0..self.entries.len()).collect(),
        }
    }

    /// The texts the filter matches: each entry's first prompt, and who asked from where.
    fn haystacks(&self) -> Haystacks {
        let about: Vec<String> = self
            .entries
            .iter()
            .map(|e| format!("{} {}", e.client, e.cwd))
            .collect();
        Haystacks::new(
            self.entries
                .iter()
                .zip(&about)
                .map(|(e, about)| (e.first_prompt.as_str(), Some(about.as_str()))),
        )
    }

    /// The entries changed: the filter matches them again, the highlight staying on the same
    /// ask when it still matches (else the best match).
    fn refilter(&mut self) {
        let haystacks = self.haystacks();
        let cursor = self.cursor;
        let Some(filter) = self.filter.as_mut() else {
            return;
        };
        filter.set_haystacks(haystacks, Some(cursor));
        self.follow_filter();
    }

    /// The highlight follows the filter's highlighted match.
    fn follow_filter(&mut self) {
        if let Some(row) = self.filter.as_ref().and_then(Filter::highlighted) {
            self.cursor = row;
        }
    }

    /// A message of the inbox's keys: its own actions, and while the filter is open, the
    /// filter's keys and the typing of its query (`global.dismiss` quits, as `inbox.quit`).
    pub fn update_msg(&mut self, msg: Msg) -> Option<InboxCmd> {
        match (msg, self.filter.is_some()) {
            (Msg::Inbox(action), false) => self.update(action),
            (Msg::Intent(Intent::OpenFilter), false) => {
                self.filter = Some(Filter::over(0, self.haystacks(), self.cursor));
                self.follow_filter();
                None
            }
            (Msg::Intent(Intent::Dismiss), _) => Some(InboxCmd::Quit),
            (Msg::Edit(op), true) => {
                let filter = self.filter.as_mut().expect("open");
                if filter.query.apply(op) {
                    filter.refresh();
                    self.follow_filter();
                }
                None
            }
            (Msg::Filter(action), true) => self.filter_key(action),
            _ => None,
        }
    }

    fn filter_key(&mut self, action: FilterAction) -> Option<InboxCmd> {
        let filter = self.filter.as_mut()?;
        match action {
            FilterAction::Next => filter.step(1),
            FilterAction::Previous => filter.step(-1),
            FilterAction::Close => {
                self.filter = None;
                return None;
            }
            // Nothing to toggle in the inbox: a space is part of the query.
            FilterAction::Toggle => {
                return self.update_msg(Msg::Edit(pi_ask_components::EditOp::Insert(" ".into())));
            }
            FilterAction::Accept => {
                let row = filter.highlighted()?;
                self.filter = None;
                self.cursor = row;
                return self.update(InboxAction::Open);
            }
            FilterAction::Pick(n) => {
                let index = usize::from(n).checked_sub(1)?;
                if index >= filter.matches.len() {
                    return None;
                }
                filter.selected = index;
                return self.filter_key(FilterAction::Accept);
            }
        }
        self.follow_filter();
        None
    }

    /// How many asks left the list while it was shown (answered elsewhere, withdrawn): the list
    /// says so, so that no ask disappears silently.
    pub fn gone_elsewhere(&self) -> usize {
        self.gone_elsewhere
    }

    /// This list's own inbox took ask `id` (to show or decline it): it leaves the list now and
    /// is not counted as gone elsewhere.
    pub fn taken_here(&mut self, id: &str) {
        self.entries.retain(|e| e.id != id);
        self.cursor = self.cursor.min(self.entries.len().saturating_sub(1));
    }

    /// The asks left for later, in the order they were left.
    pub fn later(&self) -> &[String] {
        &self.later
    }

    /// Leaves these asks for later, in this order (the marks an earlier inbox left, read back
    /// when it starts); those not listed by the next [`InboxList::refresh`] are dropped.
    pub fn set_later(&mut self, ids: Vec<String>) {
        self.later = ids;
    }

    /// Whether this ask was left for later.
    pub fn is_later(&self, id: &str) -> bool {
        self.later.iter().any(|l| l == id)
    }

    /// Replaces the entries with what the queues hold now, keeping the highlight on the same ask
    /// (or the same row when it went away).
    /// Returns whether the list changed (what it shows, or its order).
    pub fn refresh(&mut self, mut entries: Vec<WaitingAsk>) -> bool {
        let highlighted = self.entries.get(self.cursor).map(|e| e.id.clone());
        self.gone_elsewhere += self
            .entries
            .iter()
            .filter(|old| !entries.iter().any(|e| e.id == old.id))
            .count();
        let later_at = |id: &str| self.later.iter().position(|l| l == id);
        entries.sort_by_key(|e| (later_at(&e.id), e.created_at));
        self.later.retain(|id| entries.iter().any(|e| &e.id == id));
        let changed = entries != self.entries;
        self.entries = entries;
        self.cursor = highlighted
            .and_then(|id| self.entries.iter().position(|e| e.id == id))
            .unwrap_or(self.cursor)
            .min(self.entries.len().saturating_sub(1));
        if changed {
            self.refilter();
        }
        changed
    }

    /// Highlights row `row` (kept within the list).
    pub fn highlight(&mut self, row: usize) {
        self.cursor = row.min(self.entries.len().saturating_sub(1));
    }

    /// Moves the highlight to the first ask not left for later, when it is on one that was (the
    /// list shown again for a new ask starts on that ask).
    pub fn highlight_fresh(&mut self) {
        let on_later = self
            .entries
            .get(self.cursor)
            .is_some_and(|e| self.is_later(&e.id));
        if on_later && let Some(first) = self.entries.iter().position(|e| !self.is_later(&e.id)) {
            self.cursor = first;
        }
    }

    /// The listed ask with this id.
    pub fn entry(&self, id: &str) -> Option<&WaitingAsk> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// What a key means.
    pub fn update(&mut self, action: InboxAction) -> Option<InboxCmd> {
        let highlighted = self.entries.get(self.cursor).map(|e| e.id.clone());
        match action {
            InboxAction::Next => {
                self.cursor = (self.cursor + 1).min(self.entries.len().saturating_sub(1));
                None
            }
            InboxAction::Previous => {
                self.cursor = self.cursor.saturating_sub(1);
                None
            }
            InboxAction::Highlight(row) => {
                self.highlight(row);
                None
            }
            InboxAction::Open => highlighted.map(InboxCmd::Open),
            InboxAction::Decline => highlighted.map(InboxCmd::Decline),
            InboxAction::Quit => Some(InboxCmd::Quit),
            InboxAction::Later => {
                if let Some(id) = highlighted {
                    self.later.retain(|l| *l != id);
                    self.later.push(id);
                    let entries = std::mem::take(&mut self.entries);
                    self.refresh(entries);
                    // The highlight stays on the row, now the next ask.
                }
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone_ask(id: &str) -> WaitingAsk {
        WaitingAsk {
            id: id.into(),
            client: "c".into(),
            cwd: "/".into(),
            created_at: 1,
            first_prompt: id.into(),
            asker_alive: true,
            queue: 0,
        }
    }

    #[test]
    fn only_an_ask_taken_elsewhere_counts_as_gone_elsewhere() {
        let mut list = InboxList::default();
        list.refresh(vec![gone_ask("a"), gone_ask("b"), gone_ask("c")]);
        list.taken_here("a");
        list.refresh(vec![gone_ask("b"), gone_ask("c")]);
        assert_eq!(list.gone_elsewhere(), 0, "taken here");
        list.refresh(vec![gone_ask("c")]);
        assert_eq!(list.gone_elsewhere(), 1, "b went elsewhere");
    }

    fn entry(id: &str, at: u64) -> WaitingAsk {
        WaitingAsk {
            id: id.into(),
            client: "c".into(),
            cwd: "/".into(),
            created_at: at,
            first_prompt: format!("prompt {id}"),
            asker_alive: true,
            queue: 0,
        }
    }

    fn ids(list: &InboxList) -> Vec<&str> {
        list.entries().iter().map(|e| e.id.as_str()).collect()
    }

    #[test]
    fn entries_are_oldest_first_and_the_highlight_follows_its_ask() {
        let mut list = InboxList::default();
        list.refresh(vec![entry("b", 2), entry("a", 1)]);
        assert_eq!(ids(&list), ["a", "b"]);
        list.update(InboxAction::Next);
        list.refresh(vec![entry("c", 0), entry("a", 1), entry("b", 2)]);
        assert_eq!(
            list.update(InboxAction::Open),
            Some(InboxCmd::Open("b".into()))
        );
        list.refresh(vec![entry("a", 1)]);
        assert_eq!(list.cursor(), 0, "the highlight stays within the list");
    }

    #[test]
    fn later_moves_an_ask_to_the_end_and_a_new_one_comes_before_it() {
        let mut list = InboxList::default();
        list.refresh(vec![entry("a", 1), entry("b", 2)]);
        assert_eq!(list.update(InboxAction::Later), None);
        assert_eq!(ids(&list), ["b", "a"]);
        assert!(list.is_later("a") && !list.is_later("b"));
        list.update(InboxAction::Later);
        assert!(list.is_later("a") && list.is_later("b"));
        // A new ask is fresh, and comes before those left for later (in the order they were left).
        list.refresh(vec![entry("a", 1), entry("b", 2), entry("c", 3)]);
        assert_eq!(ids(&list), ["c", "a", "b"]);
        assert_ne!(list.cursor(), 0, "the highlight followed its ask");
        list.highlight_fresh();
        assert_eq!(
            list.cursor(),
            0,
            "shown again, the list starts on the new ask"
        );
    }

    #[test]
    fn keys_on_an_empty_list_do_nothing_but_quit() {
        let mut list = InboxList::default();
        for action in [
            InboxAction::Next,
            InboxAction::Previous,
            InboxAction::Open,
            InboxAction::Later,
            InboxAction::Decline,
        ] {
            assert_eq!(list.update(action), None);
        }
        assert_eq!(list.update(InboxAction::Quit), Some(InboxCmd::Quit));
        list.refresh(vec![entry("a", 1)]);
        assert_eq!(
            list.update(InboxAction::Decline),
            Some(InboxCmd::Decline("a".into()))
        );
    }

    proptest::proptest! {
        /// Any keys and refreshes: the highlight stays on a row, every ask shows once, fresh
        /// asks come before those left for later, and open/decline name the highlighted ask.
        #[test]
        fn any_keys_and_refreshes_keep_the_list_sound(
            steps in proptest::collection::vec((0u8..16, proptest::collection::vec(0u8..6, 0..6)), 0..40)
        ) {
            let mut list = InboxList::default();
            for (step, present) in steps {
                if (8..16).contains(&step) {
                    // The filter's keys and typing: the highlight stays on a match, and what
                    // Enter or a digit opens is a match shown.
                    let msg = match step {
                        8 => Msg::Intent(Intent::OpenFilter),
                        9 => Msg::Edit(pi_ask_components::EditOp::Insert(
                            present.first().map_or("z".into(), |i| i.to_string()),
                        )),
                        10 => Msg::Edit(pi_ask_components::EditOp::DeleteCharBackward),
                        11 => Msg::Filter(FilterAction::Next),
                        12 => Msg::Filter(FilterAction::Previous),
                        13 => Msg::Filter(FilterAction::Accept),
                        14 => Msg::Filter(FilterAction::Pick(present.len() as u8)),
                        _ => Msg::Filter(FilterAction::Close),
                    };
                    let shown: Vec<String> =
                        list.shown().iter().map(|&i| list.entries()[i].id.clone()).collect();
                    if let Some(InboxCmd::Open(id)) = list.update_msg(msg) {
                        proptest::prop_assert!(shown.contains(&id));
                    }
                    if let Some(f) = list.filter()
                        && let Some(row) = f.highlighted()
                    {
                        proptest::prop_assert_eq!(row, list.cursor());
                    }
                } else if step >= 6 {
                    let mut ids: Vec<u8> = present.clone();
                    ids.sort_unstable();
                    ids.dedup();
                    list.refresh(ids.iter().map(|i| entry(&i.to_string(), u64::from(*i))).collect());
                } else {
                    let action = [InboxAction::Next, InboxAction::Previous, InboxAction::Open,
                        InboxAction::Later, InboxAction::Decline, InboxAction::Quit][step as usize];
                    let highlighted = list.entries().get(list.cursor()).map(|e| e.id.clone());
                    match list.update_msg(Msg::Inbox(action)) {
                        Some(InboxCmd::Open(id)) | Some(InboxCmd::Decline(id)) => {
                            proptest::prop_assert_eq!(Some(id), highlighted)
                        }
                        _ => {}
                    }
                }
                let n = list.entries().len();
                proptest::prop_assert!(n == 0 || list.cursor() < n);
                let later: Vec<bool> = list.entries().iter().map(|e| list.is_later(&e.id)).collect();
                proptest::prop_assert!(later.windows(2).all(|w| w[0] <= w[1]), "fresh first");
                let mut ids: Vec<&str> = list.entries().iter().map(|e| e.id.as_str()).collect();
                ids.dedup();
                proptest::prop_assert_eq!(ids.len(), n);
            }
        }
    }
}
