//! The web page's side of the one engine: the waiting asks (read from the queues as every inbox
//! reads them), and for each ask a person works on in a browser an [`Engine`] over the same
//! session the terminal form runs (config, keymaps, settings, drafts in the history). A posted
//! form becomes [`Msg`]s, stepped through that engine; the page is drawn from
//! its model. Nothing here is behaviour of the page's own.
//!
//! An ask is claimed only when its form ends with a result, and answered at once: the claim is
//! the one arbiter between this page and every terminal inbox, so the first answer wins, exactly
//! once. A terminal inbox claims an ask when it opens it, so while it is open there, this page
//! says so (and the answer entered here, if any, is kept in the history, never sent twice).
//!
//! The desk is owned by one thread (the server sends it [`Request`]s); it is not shared.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::time::Instant;

use serde_json::Value;

use super::action;
use super::page::{self, Asker, Listed, Outcome, Viewer};
use crate::drivers::run::RunOptions;
use crate::engine::{Engine, Input, Viewport};
use crate::inbox::{InboxList, WaitingAsk};
use crate::model::{External, InboxAction, Msg};
use crate::stores::history::{JournalHandle, Origin, PendingAsk, Source};
use crate::stores::queue::listing::{self, Whereabouts};
use crate::stores::queue::{Delivery, QueuedAsk, SharedQueue};

/// How many ended asks' outcomes are remembered (for a page that asks again).
const OUTCOMES: usize = 64;

/// Makes the history journal of an ask opened here (none when the history is off).
pub type JournalMaker = Box<dyn Fn(PendingAsk) -> Option<JournalHandle>>;

/// Told once of each ask that arrives (the notification channels).
pub type ArrivalHook = Box<dyn FnMut(&WaitingAsk)>;

/// What a page asks of the desk.
#[derive(Debug, Clone)]
pub enum Request {
    /// The list of waiting asks.
    List,
    /// An ask's page (opening its form on the first look).
    Ask(String),
    /// A posted form on an ask's page (its body).
    Act(String, Vec<u8>),
    /// Leave the ask for later.
    Later(String),
    /// Decline the ask: its asker gets a cancelled result.
    Decline(String),
    /// The options of question `tab` of an open ask that a filter's `query` matches (the page's
    /// filter box sends what the person typed and the question it shows; the engine decides, as
    /// in the terminal).
    Filter {
        /// The ask.
        id: String,
        /// The question the page shows (another window may have moved the form since).
        tab: usize,
        /// What the person typed.
        query: String,
    },
}

/// The longest filter query the desk ranks (a person types a few words; anything longer is not
/// a filter and is refused rather than matched against every option).
pub const MAX_FILTER_QUERY: usize = 200;

/// What the desk answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A page: its title and its `<main>`.
    Page {
        /// The page's title.
        title: String,
        /// Its main content.
        main: String,
        /// How many asks wait (the title counts them).
        waiting: usize,
        /// The page is the press's own word (what became of the ask it ended or came too late
        /// for, a refused submit): a page without its script is shown it at once, not sent back
        /// to a look at the ask, which cannot tell whose press it was.
        own_word: bool,
    },
    /// The options a filter's query matches, best first, by their position in the question
    /// (every option in order for a blank query).
    Matches(Vec<usize>),
    /// The request is not understood (the words say why).
    BadRequest(String),
}

/// What the pages following the desk need to know to refresh themselves: a counter for the
/// list, one for each ask that changed while a page may show it, and what waits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Bumped when the list of waiting asks changes.
    pub list: u64,
    /// Bumped for an ask when what its page shows changed (another window acted, it ended).
    pub asks: BTreeMap<String, u64>,
    /// How many asks wait.
    pub waiting: usize,
    /// The newest waiting ask's first prompt (a notification's text).
    pub newest: Option<String>,
}

struct OpenAsk {
    engine: Engine,
    ask: QueuedAsk,
    queue: usize,
    journal: Option<JournalHandle>,
}

/// The desk (see the module's doc).
pub struct Desk {
    queues: Vec<SharedQueue>,
    options: RunOptions,
    journal: JournalMaker,
    list: InboxList,
    open: HashMap<String, OpenAsk>,
    outcomes: VecDeque<(String, Outcome)>,
    changes: Changes,
    arrived: Option<ArrivalHook>,
    /// The asks told of (those still waiting).
    told: std::collections::HashSet<String>,
    /// The page's keys from the person's keymap ([`page::keys_json`]).
    keys: String,
}

impl Desk {
    /// Tells `hook` of each ask that arrives from now on, once (those waiting already too).
    pub fn with_arrivals(mut self, hook: ArrivalHook) -> Desk {
        self.arrived = Some(hook);
        self.tell_arrivals();
        self
    }

    fn tell_arrivals(&mut self) {
        let Some(hook) = self.arrived.as_mut() else {
            return;
        };
        for ask in self.list.entries() {
            if self.told.insert(ask.id.clone()) {
                hook(ask);
            }
        }
        let list = &self.list;
        self.told.retain(|id| list.entry(id).is_some());
    }

    /// A desk over `queues` (the first is where asks go now), opening forms with `options`; the
    /// page's keys follow `table` (the person's keymap).
    pub fn new(
        queues: Vec<SharedQueue>,
        options: RunOptions,
        journal: JournalMaker,
        table: &crate::keymap::BindingTable,
    ) -> Desk {
        let mut list = InboxList::default();
        let mut marks: Vec<(std::time::SystemTime, String)> =
            queues.iter().flat_map(|q| q.later_marks()).collect();
        marks.sort();
        list.set_later(marks.into_iter().map(|(_, id)| id).collect());
        let mut desk = Desk {
            queues,
            options,
            journal,
            list,
            open: HashMap::new(),
            outcomes: VecDeque::new(),
            changes: Changes::default(),
            arrived: None,
            told: std::collections::HashSet::new(),
            keys: page::keys_json(table),
        };
        desk.tick(Instant::now());
        desk
    }

    /// What the pages following the desk need to know now.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Serves a request.
    pub fn handle(&mut self, request: Request, now: Instant) -> Reply {
        match request {
            Request::List => {
                // What the page shows is what waits now, not at the last look.
                self.tick(now);
                self.list_page(None)
            }
            Request::Ask(id) => self.ask_page(&id, now),
            Request::Act(id, body) => match action::parse(&body) {
                Ok(posted) => self.act(&id, posted, now),
                Err(why) => Reply::BadRequest(why.to_string()),
            },
            Request::Later(id) => {
                if let Some(row) = self.list.entries().iter().position(|e| e.id == id) {
                    for action in [InboxAction::Highlight(row), InboxAction::Later] {
                        self.list.update_msg(Msg::Inbox(action));
                    }
                    self.keep_later_marks();
                    self.changes.list += 1;
                }
                self.list_page(None)
            }
            Request::Decline(id) => {
                let notice = self.decline(&id);
                self.list_page(notice.as_deref())
            }
            Request::Filter { id, tab, query } => self.matches(&id, tab, &query),
        }
    }

    /// The options of question `tab` of open ask `id` that `query` matches, ranked by the form's
    /// own filter (label and description, fuzzily, label matches first), so the page shows what
    /// the terminal's filter would.
    fn matches(&self, id: &str, tab: usize, query: &str) -> Reply {
        if query.chars().count() > MAX_FILTER_QUERY {
            return Reply::BadRequest(format!("a filter is at most {MAX_FILTER_QUERY} characters"));
        }
        let Some(app) = self
            .open
            .get(id)
            .and_then(|open| open.engine.session().app())
        else {
            return Reply::BadRequest("this ask is not open on the page".to_owned());
        };
        let Some(question) = app.model().questions().get(tab) else {
            return Reply::BadRequest("the review has no options to filter".to_owned());
        };
        let haystacks = crate::model::Haystacks::of(question);
        Reply::Matches(crate::model::rank_texts(query, &haystacks).rows().to_vec())
    }

    /// Looks at the queues and the open forms: new and gone asks, withdrawals, answers given
    /// elsewhere, the engines' timers (draft records).
    pub fn tick(&mut self, now: Instant) {
        let before: Vec<String> = self.list.entries().iter().map(|e| e.id.clone()).collect();
        self.list.refresh(listing::entries(&self.queues));
        let ids: Vec<String> = self.list.entries().iter().map(|e| e.id.clone()).collect();
        if ids != before {
            self.changes.list += 1;
            self.tell_arrivals();
        }
        let gone: Vec<String> = self
            .open
            .keys()
            .filter(|id| !ids.contains(id))
            .cloned()
            .collect();
        for id in gone {
            self.left_elsewhere(&id, now);
        }
        for open in self.open.values_mut() {
            open.engine.tick(now);
        }
        self.changes.waiting = self.list.entries().len();
        self.changes.newest = self
            .list
            .entries()
            .iter()
            .max_by_key(|e| e.created_at)
            .map(|e| e.first_prompt.clone());
    }

    /// Closes every open form (the server stops): what was entered is recorded as a draft and
    /// the asks stay in the queue for the next inbox.
    pub fn close_all(&mut self, now: Instant) {
        for (_, mut open) in self.open.drain() {
            open.engine.session_mut().record_draft();
            open.engine
                .step([Input::Msg(Msg::External(External::Interrupted))], now);
            if let (Some(journal), Some(result)) = (&open.journal, open.engine.session().result()) {
                journal.finish(result, true);
            }
        }
    }

    fn waiting(&self) -> usize {
        self.list.entries().len()
    }

    fn list_page(&self, notice: Option<&str>) -> Reply {
        let listed: Vec<Listed<'_>> = self
            .list
            .entries()
            .iter()
            .map(|ask| Listed {
                ask,
                later: self.list.is_later(&ask.id),
                open_here: self.open.contains_key(&ask.id),
            })
            .collect();
        Reply::Page {
            title: "Waiting asks".to_owned(),
            main: page::list_main(&listed, crate::remote::protocol::unix_ms(), notice),
            waiting: self.waiting(),
            own_word: false,
        }
    }

    fn ask_page(&mut self, id: &str, now: Instant) -> Reply {
        match self.ensure_open(id, now) {
            Ok(()) => self.form_page(id, None),
            Err(outcome) => self.outcome_page(id, outcome, Viewer::Looker),
        }
    }

    /// The version of ask `id` pages draw: bumped by every press and by its end.
    fn version(&self, id: &str) -> u64 {
        self.changes.asks.get(id).copied().unwrap_or(0)
    }

    /// Opens ask `id`'s form unless it is open (looking at the queues first when the list does
    /// not know it yet: a page may name an ask that came a moment ago).
    fn ensure_open(&mut self, id: &str, now: Instant) -> Result<(), Outcome> {
        if self.open.contains_key(id) {
            return Ok(());
        }
        if self.list.entry(id).is_none() {
            self.tick(now);
        }
        self.open_form(id, now)
    }

    fn form_page(&self, id: &str, notice: Option<&str>) -> Reply {
        let Some(open) = self.open.get(id) else {
            return self.outcome_page(id, Outcome::Unknown, Viewer::Looker);
        };
        let Some(app) = open.engine.session().app() else {
            return self.outcome_page(id, Outcome::Unknown, Viewer::Looker);
        };
        let asker = Asker {
            id,
            client: &open.ask.client,
            cwd: &open.ask.cwd,
        };
        let model = app.model();
        let title = model
            .questions()
            .get(model.tab_index())
            .map_or_else(|| "Review".to_owned(), |q| q.label.clone());
        Reply::Page {
            title,
            main: page::form_main(&asker, model, &self.keys, self.version(id), notice),
            waiting: self.waiting(),
            own_word: notice.is_some(),
        }
    }

    /// What became of ask `id`, in the words for `viewer` (the one whose press ended it, a
    /// press that came after, or a look).
    fn outcome_page(&self, id: &str, fallback: Outcome, viewer: Viewer) -> Reply {
        let outcome = match self.remembered(id) {
            // Open in another inbox: where it is now says more (answered there by now?).
            Some(Outcome::OpenElsewhere) => self.whereabouts(id),
            Some(known) => known.clone(),
            None => fallback,
        };
        Reply::Page {
            title: "pi-ask".to_owned(),
            main: page::outcome_main(&outcome, viewer),
            waiting: self.waiting(),
            // A look is nobody's press: only a press is told its own outcome at once.
            own_word: viewer != Viewer::Looker
                && (outcome.is_final() || matches!(outcome, Outcome::NotDelivered(_))),
        }
    }

    /// Opens the form of waiting ask `id`, or says where it is instead.
    fn open_form(&mut self, id: &str, now: Instant) -> Result<(), Outcome> {
        let entry: &WaitingAsk = self.list.entry(id).ok_or_else(|| self.whereabouts(id))?;
        let queue = entry.queue;
        let ask = self.queues[queue]
            .read_waiting(id)
            .ok_or_else(|| self.whereabouts(id))?;
        let form = match crate::input::validate_payload(&ask.payload) {
            Ok(form) => form,
            Err(invalid) => {
                // The asker validated it; a payload not valid here is answered as such.
                let result = crate::result::invalid_input_result(&invalid);
                let outcome = self.deliver(queue, &ask, &result);
                return Err(outcome);
            }
        };
        let journal = (self.journal)(PendingAsk {
            source: Source::Tool,
            cwd: ask.cwd.clone(),
            title: form.title.clone(),
            payload: ask.payload.clone(),
            origin: Origin {
                queue_id: Some(ask.id.clone()),
                ..Origin::default()
            },
        });
        let asker_folder = std::path::PathBuf::from(&ask.cwd);
        let options = RunOptions {
            journal: journal.clone(),
            cwd: asker_folder.is_dir().then_some(asker_folder),
            ..self.options.clone()
        };
        let (mut session, _) =
            crate::drivers::run::flow_session(form, &options, |_| Box::new(|_, _| {}))
                .map_err(|e| Outcome::NotDelivered(e.to_string()))?;
        session.opened(now);
        let engine = Engine::new(session, Viewport::Headless);
        self.open.insert(
            id.to_owned(),
            OpenAsk {
                engine,
                ask,
                queue,
                journal,
            },
        );
        self.changes.list += 1;
        Ok(())
    }

    fn whereabouts(&self, id: &str) -> Outcome {
        let mut waiting = false;
        for queue in &self.queues {
            match queue.whereabouts(id) {
                Whereabouts::Withdrawn => return Outcome::Withdrawn,
                Whereabouts::OpenElsewhere => return Outcome::OpenElsewhere,
                Whereabouts::Waiting => waiting = true,
                Whereabouts::Gone => {}
            }
        }
        match self.remembered(id) {
            // Put back by the inbox that had it open: not answered there (the next look lists it).
            Some(Outcome::OpenElsewhere) if waiting => Outcome::Unknown,
            // It was open in another inbox and is gone from the queue now: answered there.
            Some(Outcome::OpenElsewhere) => Outcome::AnsweredElsewhere,
            Some(known) => known.clone(),
            None => Outcome::Unknown,
        }
    }

    fn remembered(&self, id: &str) -> Option<&Outcome> {
        self.outcomes
            .iter()
            .rev()
            .find(|(o, _)| o == id)
            .map(|(_, outcome)| outcome)
    }

    /// A press on ask `id`'s page. A press on an ask that ended while the page showed it sends
    /// nothing and says so; a submit from a page that drew an older version of the form than
    /// there is now (another window changed it since) is refused with the answers as they are,
    /// so what is sent is what the person submitting saw.
    fn act(&mut self, id: &str, posted: action::Posted, now: Instant) -> Reply {
        if !self.open.contains_key(id)
            && let Some(outcome) = self.remembered(id).filter(|o| o.is_final())
        {
            return self.outcome_page(id, outcome.clone(), Viewer::Presser);
        }
        if let Err(outcome) = self.ensure_open(id, now) {
            return self.outcome_page(id, outcome, Viewer::Presser);
        }
        let stale = posted.confirms() && posted.seen != Some(self.version(id));
        let open = self.open.get_mut(id).expect("opened above");
        if stale {
            // To the review the person pressed on, as it is now.
            let review = Msg::Direct(crate::model::Direct::GoTo(posted.tab));
            open.engine.step([Input::Msg(review)], now);
            *self.changes.asks.entry(id.to_owned()).or_default() += 1;
            return self.form_page(id, Some(page::STALE_SUBMIT));
        }
        let inputs = posted.msgs().into_iter().map(Input::Msg);
        let step = open.engine.step(inputs, now);
        *self.changes.asks.entry(id.to_owned()).or_default() += 1;
        if step.done {
            self.finish(id);
            return self.outcome_page(id, Outcome::Unknown, Viewer::Ender);
        }
        self.form_page(id, None)
    }

    /// The form of `id` ended with a result: claimed and answered now (the first answer wins).
    fn finish(&mut self, id: &str) {
        let Some(open) = self.open.remove(id) else {
            return;
        };
        let Some(result) = open.engine.session().result().cloned() else {
            return;
        };
        if let Some(journal) = &open.journal {
            journal.finish(&result, false);
        }
        let outcome = self.deliver(open.queue, &open.ask, &result);
        self.ended(id, outcome);
    }

    /// Claims ask `ask` and answers it with `result`; says what became of it.
    fn deliver(&self, queue: usize, ask: &QueuedAsk, result: &crate::result::AskResult) -> Outcome {
        let queue = &self.queues[queue];
        let value = serde_json::to_value(result).unwrap_or(Value::Null);
        match queue.claim(&ask.id) {
            Ok(Some(claim)) => match queue.answer(claim, &value) {
                Ok(Delivery::Delivered) if result.details.cancelled => Outcome::Cancelled,
                Ok(Delivery::Delivered) => Outcome::Answered,
                Ok(Delivery::TooLate) => Outcome::TooLate,
                Err(failed) => Outcome::NotDelivered(format!(
                    "Cannot deliver the answer: {}. {}",
                    failed.why,
                    if failed.released {
                        "The ask is back in the queue, so its asker still waits: free some room and answer it again. What you chose is kept in the history."
                    } else {
                        "What you chose is kept in the history."
                    }
                )),
            },
            Ok(None) => match queue.whereabouts(&ask.id) {
                Whereabouts::Withdrawn => Outcome::Withdrawn,
                Whereabouts::OpenElsewhere => Outcome::OpenElsewhere,
                Whereabouts::Waiting | Whereabouts::Gone => Outcome::AnsweredElsewhere,
            },
            Err(e) => Outcome::NotDelivered(format!(
                "Cannot claim the ask in the queue: {e}. What you chose is kept in the history."
            )),
        }
    }

    fn ended(&mut self, id: &str, outcome: Outcome) {
        if self.outcomes.len() == OUTCOMES {
            self.outcomes.pop_front();
        }
        self.outcomes.push_back((id.to_owned(), outcome));
        *self.changes.asks.entry(id.to_owned()).or_default() += 1;
        self.changes.list += 1;
        // Counters of asks nobody can look at any more are dropped (the map stays bounded).
        let keep: Vec<&String> = self.outcomes.iter().map(|(o, _)| o).collect();
        let open = &self.open;
        self.changes
            .asks
            .retain(|a, _| open.contains_key(a) || keep.contains(&a));
    }

    /// An open ask left the list: answered in another inbox, open there, or withdrawn.
    fn left_elsewhere(&mut self, id: &str, now: Instant) {
        let Some(mut open) = self.open.remove(id) else {
            return;
        };
        let outcome = match self.queues[open.queue].whereabouts(id) {
            Whereabouts::Withdrawn => Outcome::Withdrawn,
            Whereabouts::OpenElsewhere => Outcome::OpenElsewhere,
            Whereabouts::Waiting | Whereabouts::Gone => Outcome::AnsweredElsewhere,
        };
        // What was entered here is kept. Withdrawn, the form ends as the terminal's does (closed
        // as cancelled); answered or open in another inbox, this record stays open with its
        // draft, and the history marks it answered elsewhere once that inbox answers.
        open.engine.session_mut().record_draft();
        if outcome == Outcome::Withdrawn {
            open.engine
                .step([Input::Msg(Msg::External(External::RemoteCancel))], now);
            if let (Some(journal), Some(result)) = (&open.journal, open.engine.session().result()) {
                journal.finish(result, false);
            }
        } else if let Some(journal) = &open.journal {
            journal.abandon();
        }
        self.ended(id, outcome);
    }

    fn decline(&mut self, id: &str) -> Option<String> {
        let queue = self.list.entry(id)?.queue;
        let ask = self.queues[queue].read_waiting(id)?;
        if let Some(open) = self.open.remove(id)
            && let Some(journal) = &open.journal
        {
            journal.abandon();
        }
        let result = listing::declined(&ask.payload, "they declined it on pi-ask's web page");
        let outcome = self.deliver(queue, &ask, &result);
        let notice = match &outcome {
            Outcome::Cancelled => None,
            Outcome::NotDelivered(why) => Some(why.clone()),
            other => Some(page::outcome_words(other)),
        };
        self.ended(id, outcome);
        self.tick(Instant::now());
        notice
    }

    fn keep_later_marks(&self) {
        for (n, queue) in self.queues.iter().enumerate() {
            let ids: Vec<&str> = self
                .list
                .later()
                .iter()
                .filter(|id| self.list.entry(id).is_some_and(|e| e.queue == n))
                .map(String::as_str)
                .collect();
            queue.keep_later_marks(&ids);
        }
    }
}
