//! What a queue of asks is, whatever keeps it: the [`AskQueue`] trait every driver talks to (the
//! MCP server, the host hooks, the web desk, the inbox, the one waiter). The per-user folder
//! ([`super::Queue`]) is its first backend; another store (a shared desk) is one more
//! implementation and no driver changes.
//!
//! The promises every backend keeps, which the drivers rely on and `tests/queue_contract.rs`
//! checks on the folder and on a second backend written from this trait alone:
//! - **exactly one outcome per ask**: of an answer and a withdrawal that cross, exactly one
//!   happens, and both sides learn which ([`Delivery::TooLate`], [`Withdrawal::AlreadyAnswered`]);
//! - **one claimer**: two inboxes claiming one ask, one gets it;
//! - **nothing lost**: a claim whose holder is gone goes back to the queue; an answer that cannot
//!   be stored releases its claim ([`NotDelivered::released`]);
//! - **an answer is taken once** ([`AskQueue::take_result`] removes it).

use std::io;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::listing::Whereabouts;
use super::{Claim, Delivery, NotDelivered, QueuedAsk, Withdrawal, WithdrawnBecause};

/// A queue as the drivers share it (the waiter's task holds one too).
pub type SharedQueue = Arc<dyn AskQueue>;

/// Where asks wait for a person, and answers for their askers (see the module's doc).
pub trait AskQueue: Send + Sync + std::fmt::Debug {
    /// Where the queue is, as a person reads it in a message (a folder, a desk's address).
    fn location(&self) -> String;

    /// The most bytes an ask may have (an answer may have four times as many).
    fn max_bytes(&self) -> u64;

    /// Queues an ask: an inbox sees all of it or none of it.
    fn submit(&self, ask: &QueuedAsk) -> io::Result<()>;

    /// Every waiting ask, oldest first, its asker alive or not (claims whose holder is gone are
    /// released first).
    fn waiting(&self) -> Vec<QueuedAsk>;

    /// The waiting asks whose asker still waits, oldest first.
    fn pending(&self) -> Vec<QueuedAsk>;

    /// Claims an ask for this process; `None` when another inbox was faster, or it was withdrawn.
    fn claim(&self, id: &str) -> io::Result<Option<Claim>>;

    /// Delivers the answer and ends the claim; [`Delivery::TooLate`] when the asker withdrew first.
    fn answer(&self, claim: Claim, result: &Value) -> Result<Delivery, NotDelivered>;

    /// Puts a claimed ask back for another inbox (this one stops without an answer).
    fn release(&self, claim: Claim) -> io::Result<()>;

    /// Ends a claim without an answer (the asker withdrew).
    fn drop_claim(&self, claim: Claim) -> io::Result<()>;

    /// The asker gives up, saying why; [`Withdrawal::AlreadyAnswered`] when an answer was settled
    /// first (the asker takes it).
    fn withdraw_because(&self, id: &str, why: WithdrawnBecause) -> io::Result<Withdrawal>;

    /// The asker gives up because its call ended.
    fn withdraw(&self, id: &str) -> io::Result<Withdrawal> {
        self.withdraw_because(id, WithdrawnBecause::CallEnded)
    }

    /// Why the asker took ask `id` back, when it did.
    fn withdrawn_because(&self, id: &str) -> Option<WithdrawnBecause>;

    /// Whether the asker took ask `id` back.
    fn is_withdrawn(&self, id: &str) -> bool {
        self.withdrawn_because(id).is_some()
    }

    /// Waiting ask `id`, read alone: `None` when it is not waiting (claimed, withdrawn, answered)
    /// or is not a good ask.
    fn read_waiting(&self, id: &str) -> Option<QueuedAsk>;

    /// Where ask `id` is now, for an inbox that no longer sees it waiting.
    fn whereabouts(&self, id: &str) -> Whereabouts;

    /// The answer to ask `id`, once there is one: taken (nobody gets it twice).
    fn take_result(&self, id: &str) -> Option<Value>;

    /// The asks whose answer waits to be taken (the waiter looks once for all its calls).
    fn answered(&self) -> Vec<String>;

    /// Removes ask `id` whose outcome was settled as answered but whose answer never came (the
    /// inbox that settled it died first): nobody will answer it.
    fn forget_unanswered(&self, id: &str);

    /// Whether an inbox (a terminal's, a web page) watches the queue now.
    fn is_watched(&self) -> bool;

    /// What to add when telling a person nobody watches: where an inbox watches instead (empty
    /// when nothing is known).
    fn unwatched_hint(&self) -> String {
        String::new()
    }

    /// How many asks an inbox holds claimed now.
    fn being_answered(&self) -> usize;

    /// The asks a person left for later, each with when.
    fn later_marks(&self) -> Vec<(SystemTime, String)>;

    /// Keeps the left-for-later marks for exactly `ids`.
    fn keep_later_marks(&self, ids: &[&str]);

    /// Housekeeping: removes what is older than `age` and nobody will take.
    fn sweep(&self, age: Duration);
}
