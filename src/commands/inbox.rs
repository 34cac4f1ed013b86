//! `pi-ask inbox`: answers the queued asks of `pi-ask mcp` (or any program using the queue) in
//! this terminal: a list of the waiting asks, oldest first (those left for later last), from
//! which each opens in the normal form.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use serde_json::Value;

use super::arrivals::Arrivals;
use super::{CommandError, Ended, HistoryChoice, Opening, recorded};
use crate::drivers::run::RunOptions;
use crate::inbox::{InboxCmd, InboxList, ListEnding, WaitingAsk};
use crate::input;
use crate::model::{External, Msg};
use crate::report::{CommandOutcome, report};
use crate::result;
use crate::stores::history::{Origin, Source, process_is_alive};
use crate::stores::queue::{AskQueue, Claim, Queue, SharedQueue};
use crate::tui::InboxScreen;

/// How often the queue is looked at while waiting (an ask shows within this time).
const POLL: Duration = Duration::from_millis(40);

/// How often an open ask's asker is looked for (its process alive).
const ASKER_CHECK: Duration = Duration::from_millis(250);

/// The footer's notice on a form whose asker has gone while it was open.
pub const ASKER_GONE_NOTICE: &str = "The agent that asked this has gone (its MCP server ended): an answer now is only kept in the history.";

/// Watches an open ask from outside the form: closes the form when its asker withdraws it
/// (cancelled the call, timed out), and says on the form at once when its asker has gone (the
/// answer then reaches nobody).
struct AskerWatch {
    queue: SharedQueue,
    id: String,
    asker: crate::liveness::ProcessId,
    withdrawn: bool,
    gone: bool,
    next_check: std::time::Instant,
}

impl crate::engine::Outside for AskerWatch {
    fn poll(&mut self, _: &[crate::form::Question]) -> Vec<Msg> {
        if !self.withdrawn && self.queue.is_withdrawn(&self.id) {
            self.withdrawn = true;
            return vec![Msg::External(External::RemoteCancel)];
        }
        let now = std::time::Instant::now();
        if self.gone || now < self.next_check {
            return Vec::new();
        }
        self.next_check = now + ASKER_CHECK;
        if process_is_alive(&self.asker) {
            return Vec::new();
        }
        self.gone = true;
        vec![Msg::Report(crate::model::Report::StandingNotice(
            ASKER_GONE_NOTICE.to_owned(),
        ))]
    }
}

/// What happened to one claimed ask.
enum Shown {
    Answered,
    Withdrawn,
    /// The inbox was stopped (a signal, a terminal error): the claim was released.
    Stopped,
    /// The answer could not be written (a full disk): the inbox stops rather than show the
    /// ask it put back again at once.
    NotDelivered,
}

/// What the person is told when their answer could not be delivered.
fn not_delivered(failed: &crate::stores::queue::NotDelivered) -> String {
    let after = if failed.released {
        "the ask is back in the queue, so its asker still waits: free some room and answer it again (`pi-ask inbox`)"
    } else {
        "the ask could not be put back either; its asker is told nobody answered when its time runs out"
    };
    format!(
        "cannot deliver the answer: {}; {after}. What you chose is kept in the history.",
        failed.why
    )
}

fn show(claim: Claim, queue: &SharedQueue, options: &RunOptions, history: &HistoryChoice) -> Shown {
    let ask = claim.ask.clone();
    report(&format!(
        "ask from {} in {}, {}",
        crate::printable::one_line(&ask.client),
        crate::printable::one_line(&ask.cwd),
        crate::inbox::view::age(ask.created_at, crate::remote::protocol::unix_ms())
    ));
    if !process_is_alive(&ask.asker) {
        report("its asker has gone: an answer will only be kept in the history");
    }
    let form = match input::validate_payload(&ask.payload) {
        Ok(form) => form,
        Err(invalid) => {
            // The asker validated it; a payload that is not valid here is answered as such.
            let result = result::invalid_input_result(&invalid);
            let _ = queue.answer(claim, &serde_json::to_value(&result).unwrap_or(Value::Null));
            return Shown::Answered;
        }
    };
    let opening = Opening {
        form,
        payload: &ask.payload,
        source: Source::Tool,
        origin: Origin {
            queue_id: Some(ask.id.clone()),
            ..Origin::default()
        },
        restore: None,
    };
    let watch: Box<dyn crate::engine::Outside> = Box::new(AskerWatch {
        queue: std::sync::Arc::clone(queue),
        id: ask.id.clone(),
        asker: ask.asker.clone(),
        withdrawn: false,
        gone: false,
        next_check: std::time::Instant::now(),
    });
    // `@` lists the asker's folder: the files the agent's question is about.
    let asker_folder = std::path::PathBuf::from(&ask.cwd);
    let cwd = if asker_folder.is_dir() {
        Some(asker_folder)
    } else {
        report(&format!(
            "the asker's folder {} is not here; `@` lists this folder instead",
            crate::printable::printable(&ask.cwd)
        ));
        options.cwd.clone()
    };
    let done = recorded(history, &opening, ask.cwd.clone(), |form, journal| {
        let options = RunOptions {
            journal,
            cwd,
            dismiss_puts_back: true,
            ..options.clone()
        };
        crate::drivers::run::ask_result_with(form, &options, vec![watch])
    });
    match done {
        _ if queue.is_withdrawn(&ask.id) => {
            let _ = queue.drop_claim(claim);
            report(match queue.withdrawn_because(&ask.id) {
                Some(crate::stores::queue::WithdrawnBecause::AnsweredInHostForm) => {
                    "the ask was answered in the agent host's own form first; it was closed here"
                }
                _ => "the asker withdrew the ask; it was closed unanswered",
            });
            Shown::Withdrawn
        }
        Ok(done) if !done.interrupted => {
            let value = serde_json::to_value(&done.result).unwrap_or(Value::Null);
            match queue.answer(claim, &value) {
                Err(failed) => {
                    report(&not_delivered(&failed));
                    return Shown::NotDelivered;
                }
                Ok(crate::stores::queue::Delivery::TooLate) => report(
                    "the answer came too late: the asker had stopped waiting (its time limit passed, or it was cancelled); it is kept in the history",
                ),
                Ok(crate::stores::queue::Delivery::Delivered) => {}
            }
            if !process_is_alive(&ask.asker) {
                report(&format!(
                    "the asker ({}, process {}) has gone; the answer is kept in the history",
                    ask.client, ask.asker.pid
                ));
            }
            Shown::Answered
        }
        ended => {
            // The form ran without a result (a bad --cwd, the terminal gone): said here, as the
            // inbox goes on to put the ask back rather than fail with it.
            if let Err(failed) = ended {
                report(&failed.to_string());
            }
            match queue.release(claim) {
                Ok(()) => report("the ask is back in the queue for the next inbox"),
                Err(e) => report(&format!("cannot put the ask back in the queue: {e}")),
            }
            Shown::Stopped
        }
    }
}

/// `pi-ask inbox [--queue DIR] [--once] [--status]`: every watched queue (`--queue` or the
/// default, plus the folders earlier versions used unless a queue was named), its status, or the
/// inbox itself.
pub fn run(
    queue: Option<std::path::PathBuf>,
    once: bool,
    status_only: bool,
    options: &RunOptions,
    history: &HistoryChoice,
) -> Ended {
    let max_bytes = crate::stores::config::peek(&crate::stores::config::ConfigPaths::from_env(
        options.config.as_deref(),
    ))
    .mcp
    .max_ask_bytes;
    let explicit = queue.is_some() || std::env::var_os("PI_ASK_QUEUE").is_some();
    let primary = super::queues::open_queue(queue)?.with_max_bytes(max_bytes);
    let mut queues = vec![primary];
    if !explicit {
        queues.extend(super::queues::earlier_queues(queues[0].dir(), max_bytes));
    }
    if status_only {
        return Ok(status(&queues));
    }
    inbox(&queues, options, history, once)
}

/// `pi-ask inbox [--once]`: serves the asks of `queues`, the first being where asks go now and
/// the others where earlier versions put them (see [`crate::stores::queue::earlier_queue_dirs`]). The
/// waiting asks are a list of their own; an ask opens from it, can be left for later or
/// declined, and quitting leaves every ask queued.
pub fn inbox(queues: &[Queue], options: &RunOptions, history: &HistoryChoice, once: bool) -> Ended {
    super::require_terminal("inbox")?;
    let stop =
        crate::drivers::runtime::signal_flag().map_err(crate::drivers::run::RunError::Signals)?;
    for queue in queues {
        queue.sweep(Duration::from_secs(24 * 3600));
    }
    // Said in each queue while this inbox runs, so `--status` (and the servers) know someone
    // watches; removed when it ends, and recognised as gone when it is killed.
    let mut _presence: Vec<_> = queues
        .iter()
        .filter_map(|q| q.announce_inbox().ok())
        .collect();
    // Watching another folder than the home's default (PI_ASK_QUEUE set in this shell): a note
    // there tells a server started without PI_ASK_QUEUE (hosts strip the environment) where
    // this inbox is, so it names both folders instead of saying no inbox runs.
    _presence.extend(elsewhere_note(queues));
    // From here on the inbox only talks to the queues as queues, whatever keeps them.
    let queues: Vec<SharedQueue> = queues
        .iter()
        .map(|q| std::sync::Arc::new(q.clone()) as SharedQueue)
        .collect();
    let queues = queues.as_slice();
    let config = crate::stores::config::peek(&crate::stores::config::ConfigPaths::from_env(
        options.config.as_deref(),
    ));
    let theme = options.appearance.choose(&config.theme).theme;
    let line_mode = crate::drivers::run::line_mode(options, &config);
    if let Some(reason) = line_mode {
        report(&crate::drivers::line::intro(reason));
    }
    let table = crate::keymap::BindingTable::new(config.keymaps);
    let arrivals = Rc::new(RefCell::new(Arrivals::new(
        config.notifications.clone(),
        line_mode.is_some(),
    )));
    let look = {
        let arrivals = Rc::clone(&arrivals);
        move |queues: &[SharedQueue]| {
            let waiting = crate::stores::queue::listing::entries(queues);
            arrivals.borrow_mut().see(&waiting);
            waiting
        }
    };
    let mut list = InboxList::default();
    // What an earlier inbox left for later stays so, in the order it was left.
    let mut marks: Vec<(std::time::SystemTime, String)> =
        queues.iter().flat_map(|q| q.later_marks()).collect();
    marks.sort();
    list.set_later(marks.into_iter().map(|(_, id)| id).collect());
    let mut said_waiting = false;
    loop {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(CommandOutcome::Done);
        }
        list.refresh(look(queues));
        if list.entries().is_empty() {
            if !said_waiting {
                report(&waiting_line(queues));
                said_waiting = true;
            }
            std::thread::sleep(POLL);
            continue;
        }
        said_waiting = false;
        list.highlight_fresh();
        let ending = match line_mode {
            Some(_) => line_list(&mut list, queues, &stop, look.clone()),
            None => terminal_list(&mut list, queues, &table, &theme, look.clone()),
        };
        keep_later_marks(&list, queues);
        let chosen = match ending {
            Ok(ListEnding::Chose(InboxCmd::Quit)) | Ok(ListEnding::Interrupted) => {
                return Ok(CommandOutcome::Done);
            }
            Ok(ListEnding::Empty) => {
                report(
                    "the asks listed were answered elsewhere (another inbox, the web page) or withdrawn",
                );
                continue;
            }
            Ok(ListEnding::Chose(chosen)) => chosen,
            Err(e) => return Err(CommandError::InboxTerminal(e)),
        };
        let (id, declined) = match chosen {
            InboxCmd::Open(id) => (id, false),
            InboxCmd::Decline(id) => (id, true),
            InboxCmd::Quit => return Ok(CommandOutcome::Done),
        };
        let Some(queue) = list.entry(&id).map(|e| &queues[e.queue]) else {
            continue;
        };
        // Another inbox may have been faster: then look again.
        let Some(claim) = queue.claim(&id).map_err(CommandError::Claim)? else {
            continue;
        };
        // Taken here: when it leaves the queue, the list does not count it as gone elsewhere.
        list.taken_here(&id);
        let shown = if declined {
            decline(claim, queue.as_ref())
        } else {
            show(claim, queue, options, history)
        };
        match shown {
            Shown::Stopped | Shown::NotDelivered => return Ok(CommandOutcome::Done),
            Shown::Answered | Shown::Withdrawn if once => return Ok(CommandOutcome::Done),
            Shown::Answered | Shown::Withdrawn => {}
        }
    }
}

/// The note in the home's default queue that this inbox watches another folder, when it does.
fn elsewhere_note(queues: &[Queue]) -> Option<crate::stores::queue::InboxPresence> {
    let home = crate::stores::queue::home_queue_dir(|k| std::env::var(k).ok())?;
    let primary = queues.first()?.dir();
    if crate::paths::absolute(primary) == home || queues.iter().any(|q| q.dir() == home) {
        return None;
    }
    let queue = Queue::open(&home).ok()?;
    queue.announce_inbox_elsewhere(primary).ok()
}

/// Keeps each queue's later marks to what the list leaves for later, so a restarted inbox lists
/// them last again.
fn keep_later_marks(list: &InboxList, queues: &[SharedQueue]) {
    for (n, queue) in queues.iter().enumerate() {
        let ids: Vec<&str> = list
            .later()
            .iter()
            .filter(|id| list.entry(id).is_some_and(|e| e.queue == n))
            .map(String::as_str)
            .collect();
        queue.keep_later_marks(&ids);
    }
}

/// The list in line mode, on the terminal.
fn line_list(
    list: &mut InboxList,
    queues: &[SharedQueue],
    stop: &std::sync::atomic::AtomicBool,
    look: impl Fn(&[SharedQueue]) -> Vec<WaitingAsk> + 'static,
) -> std::io::Result<ListEnding> {
    let mut out = crate::drivers::tty::open_tty()?;
    let lines = crate::drivers::line::tty_lines()?;
    let lines = lines.lock().unwrap_or_else(|e| e.into_inner());
    crate::drivers::line::discard_typed_ahead(&lines);
    let watched = queues.to_vec();
    crate::drivers::line::inbox::run(list, move || look(&watched), &lines, &mut out, stop)
}

/// The list on the terminal: a screen of the one engine, drawn inline (as tall as the list) by the
/// terminal runtime's loop as a form is. The list comes back with what was left for later.
fn terminal_list(
    list: &mut InboxList,
    queues: &[SharedQueue],
    table: &crate::keymap::BindingTable,
    theme: &pi_ask_components::Theme,
    look: impl Fn(&[SharedQueue]) -> Vec<WaitingAsk> + 'static,
) -> std::io::Result<ListEnding> {
    let watched = queues.to_vec();
    let screen = InboxScreen::new(
        std::mem::take(list),
        Box::new(move || look(&watched)),
        table.clone(),
        *theme,
    );
    let session = crate::engine::Session::new(
        crate::engine::Screen::Inbox(Box::new(screen)),
        None,
        Box::new(|_, _| {}),
    );
    let mut engine = crate::engine::Engine::new(session, crate::engine::Viewport::Headless);
    let ran = crate::drivers::runtime::run(&mut engine, false);
    let screen = engine.session().inbox().expect("the inbox's screen");
    *list = screen.list().clone();
    Ok(match ran? {
        crate::drivers::runtime::Ending::Done => {
            screen.ending().cloned().unwrap_or(ListEnding::Interrupted)
        }
        crate::drivers::runtime::Ending::Interrupted(_) => ListEnding::Interrupted,
    })
}

/// Declines a claimed ask: its asker gets a cancelled result, as if the person cancelled the form.
fn decline(claim: Claim, queue: &dyn AskQueue) -> Shown {
    let ask = claim.ask.clone();
    let result =
        crate::stores::queue::listing::declined(&ask.payload, "they declined it in pi-ask inbox");
    let value = serde_json::to_value(&result).unwrap_or(Value::Null);
    match queue.answer(claim, &value) {
        Ok(crate::stores::queue::Delivery::Delivered) => {
            report(&format!("declined the ask from {}", ask.client))
        }
        Ok(crate::stores::queue::Delivery::TooLate) => {
            report("the asker had stopped waiting; nothing was sent")
        }
        Err(failed) => report(&format!(
            "cannot decline the ask: {}{}",
            failed.why,
            if failed.released {
                "; it is back in the queue"
            } else {
                ""
            }
        )),
    }
    Shown::Answered
}

/// What the inbox says while nothing waits: the folders it watches.
fn waiting_line(queues: &[SharedQueue]) -> String {
    let mut line = format!("inbox: waiting for asks in {}", queues[0].location());
    let earlier: Vec<String> = queues[1..].iter().map(|q| q.location()).collect();
    if !earlier.is_empty() {
        line.push_str(&format!(
            " (and where earlier versions put them: {})",
            earlier.join(", ")
        ));
    }
    line.push_str(" (Ctrl+C to quit)");
    line
}

/// Whether inboxes watch a queue, in words: `watching (pid …)`, or that none does and how to
/// start one (`--status` and `pi-ask doctor`).
pub fn watching(
    inboxes: &[crate::stores::history::ProcessId],
    stopped: &[crate::stores::history::ProcessId],
) -> String {
    if inboxes.is_empty() && !stopped.is_empty() {
        let pids: Vec<String> = stopped.iter().map(|p| p.pid.to_string()).collect();
        return format!(
            "none is watching: the inbox (pid {}) is stopped (Ctrl+Z); `fg` it in its terminal",
            pids.join(", ")
        );
    }
    if inboxes.is_empty() {
        return "none is watching; start `pi-ask inbox` in a terminal".to_owned();
    }
    let pids: Vec<String> = inboxes.iter().map(|p| p.pid.to_string()).collect();
    format!("watching (pid {})", pids.join(", "))
}

/// `pi-ask inbox --status`: where asks go, how many wait in each watched queue, and whether an
/// inbox watches (done), or that none does and how to start one (not ready).
pub fn status(queues: &[Queue]) -> CommandOutcome {
    let mut out = String::new();
    for (i, queue) in queues.iter().enumerate() {
        let waiting = queue.waiting().len();
        let live = queue.pending().len();
        let role = if i == 0 {
            "asks go to"
        } else {
            "also watched (earlier versions queued asks here)"
        };
        out.push_str(&format!(
            "{role}: {}\n  {live} waiting, {} being answered, {} whose asker is gone\n",
            crate::paths::display(queue.dir()),
            queue.being_answered(),
            waiting.saturating_sub(live)
        ));
    }
    let inboxes = queues[0].inboxes_watching();
    let watched = !inboxes.is_empty();
    out.push_str(&format!(
        "inbox: {}\n",
        watching(&inboxes, &queues[0].inboxes_stopped())
    ));
    for (process, origin) in queues[0].web_pages() {
        out.push_str(&format!(
            "web page: serving at {origin} (pi-ask serve, pid {})\n",
            process.pid
        ));
    }
    for line in out.lines() {
        crate::report::print_line(&crate::printable::printable(line));
    }
    CommandOutcome::done_if(watched, CommandOutcome::NotReady)
}
