//! Waiting for a queued ask's answer: the one waiter there is. `pi-ask mcp` runs it for every
//! call, and callers without an async runtime of their own (the tests, any blocking caller) run
//! the same code through [`wait_blocking`], so the exactly-once race tests test what the server
//! runs.
//!
//! One [`Watcher`] task looks for the answers of every waiting call with one folder listing per
//! tick (a poll per call cost 17% of a core with a thousand calls waiting) and hands each to its
//! call; a [`Waiting`] call ends with the answer, at its deadline, or when its caller gives up,
//! and at the deadline or on giving up, the withdrawal and an answer that crossed it settle
//! exactly one outcome that both sides agree on.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{Notify, oneshot};

use super::{AskQueue, SETTLED_ANSWER_GRACE, SharedQueue, Waited, Withdrawal};

/// How often the watcher looks for answers, and a settled answer's file is looked for.
pub const POLL: Duration = Duration::from_millis(20);

/// How long a wait with neither a deadline nor anything else to wake for sleeps at a time.
const LONG_SLEEP: Duration = Duration::from_secs(3600);

/// Hands the answers of all waiting calls to their calls. Sleeps while no call waits.
#[derive(Debug, Default)]
pub struct Watcher {
    waiting: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    wake: Notify,
    started: AtomicBool,
}

impl Watcher {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, oneshot::Sender<Value>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many calls wait.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// Starts waiting for the answer to ask `id` of `queue`, for `timeout` (`None`: for good).
    /// The watcher task starts with the first call (inside a tokio runtime).
    pub fn wait_for(
        self: &Arc<Self>,
        queue: &SharedQueue,
        id: &str,
        timeout: Option<Duration>,
    ) -> Waiting {
        let (tx, rx) = oneshot::channel();
        self.lock().insert(id.to_owned(), tx);
        if !self.started.swap(true, Ordering::Relaxed) {
            let watcher = Arc::clone(self);
            let queue = Arc::clone(queue);
            tokio::spawn(async move { watcher.run(queue).await });
        }
        self.wake.notify_one();
        Waiting {
            watcher: Arc::clone(self),
            queue: Arc::clone(queue),
            id: id.to_owned(),
            answer: rx,
            deadline: timeout.map(|t| Instant::now() + t),
        }
    }

    /// The call stops waiting (answered elsewhere, deadline, cancellation): the watcher no longer
    /// hands it anything.
    pub fn unregister(&self, id: &str) {
        self.lock().remove(id);
    }

    async fn run(&self, queue: SharedQueue) {
        loop {
            if self.lock().is_empty() {
                self.wake.notified().await;
                continue;
            }
            tokio::time::sleep(POLL).await;
            for id in queue.answered() {
                // Taken only under the lock, for a call still registered: a call that stops
                // waiting unregisters first, so an answer is never taken for nobody.
                let mut waiting = self.lock();
                if !waiting.contains_key(&id) {
                    continue;
                }
                if let Some(result) = queue.take_result(&id)
                    && let Some(call) = waiting.remove(&id)
                {
                    let _ = call.send(result);
                }
            }
        }
    }
}

/// One call waiting for its answer.
#[derive(Debug)]
pub struct Waiting {
    watcher: Arc<Watcher>,
    queue: SharedQueue,
    id: String,
    answer: oneshot::Receiver<Value>,
    deadline: Option<Instant>,
}

impl Waiting {
    /// Waits for the answer until the deadline, until `give_up` completes (the caller cancelled:
    /// the ask is withdrawn), or until `until`: the outcome once there is one, `None` at `until`
    /// (the caller does what it wakes for, progress reports, and waits again).
    pub async fn until(
        &mut self,
        until: Option<Instant>,
        give_up: impl Future<Output = ()>,
    ) -> Option<Waited> {
        let wake = [self.deadline, until]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or_else(|| Instant::now() + LONG_SLEEP);
        tokio::select! {
            result = &mut self.answer => match result {
                Ok(result) => return Some(Waited::Answered(result)),
                // The watcher never drops a registered call's sender; were it to, the wait goes
                // on to the deadline rather than spin.
                Err(_) => tokio::time::sleep_until(wake.into()).await,
            },
            () = give_up => {
                return Some(self.stop().await.map_or(Waited::Withdrawn, Waited::Answered));
            }
            () = tokio::time::sleep_until(wake.into()) => {}
        }
        // The deadline and an answer may cross: exactly one wins, and both sides agree.
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(self.stop().await.map_or(Waited::TimedOut, Waited::Answered));
        }
        None
    }

    /// Stops waiting without withdrawing the ask (it stays queued, as while the host's form shows
    /// it): the answer the watcher already handed over, if any. An answer given later stays in
    /// the queue for the next wait.
    pub fn pause(mut self) -> Option<Value> {
        self.watcher.unregister(&self.id);
        self.answer.try_recv().ok()
    }

    /// Stops waiting: the answer the watcher already handed over, or the withdrawal (or the
    /// answer that won the race against it).
    async fn stop(&mut self) -> Option<Value> {
        self.watcher.unregister(&self.id);
        if let Ok(result) = self.answer.try_recv() {
            return Some(result);
        }
        withdraw_or_take(self.queue.as_ref(), &self.id).await
    }
}

/// Withdraws ask `id`, or takes the answer that was settled first, waiting a moment
/// ([`SETTLED_ANSWER_GRACE`]) for its file without blocking other calls. When it never comes,
/// the inbox that settled it died before writing: nobody will answer, and the ask is removed.
pub async fn withdraw_or_take(queue: &dyn AskQueue, id: &str) -> Option<Value> {
    match queue.withdraw(id) {
        Ok(Withdrawal::AlreadyAnswered) => {}
        _ => return None,
    }
    let start = Instant::now();
    while start.elapsed() < SETTLED_ANSWER_GRACE {
        if let Some(result) = queue.take_result(id) {
            return Some(result);
        }
        tokio::time::sleep(POLL).await;
    }
    queue.forget_unanswered(id);
    None
}

/// [`Waiting`] for a caller without a tokio runtime, on a runtime of its own: the answer to ask
/// `id`, until `timeout` ([`Waited::TimedOut`]) or until the caller gives up after `give_up_after`
/// ([`Waited::Withdrawn`]; both withdraw the ask unless an answer won).
pub fn wait_blocking(
    queue: SharedQueue,
    id: &str,
    timeout: Option<Duration>,
    give_up_after: Option<Duration>,
) -> std::io::Result<Waited> {
    block_on_wait(queue, id, timeout, async {
        match give_up_after {
            Some(after) => tokio::time::sleep(after).await,
            None => std::future::pending().await,
        }
    })
}

/// [`wait_blocking`] that gives up once `stop` is set (a signal: the host gave up on a hook),
/// looked at every [`POLL`].
pub fn wait_blocking_while(
    queue: SharedQueue,
    id: &str,
    timeout: Option<Duration>,
    stop: &AtomicBool,
) -> std::io::Result<Waited> {
    block_on_wait(queue, id, timeout, async {
        while !stop.load(Ordering::Relaxed) {
            tokio::time::sleep(POLL).await;
        }
    })
}

/// Runs one [`Waiting`] call on a runtime of its own until it has an outcome.
fn block_on_wait(
    queue: SharedQueue,
    id: &str,
    timeout: Option<Duration>,
    give_up: impl Future<Output = ()>,
) -> std::io::Result<Waited> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    runtime.block_on(async {
        let watcher = Arc::new(Watcher::default());
        let mut waiting = watcher.wait_for(&queue, id, timeout);
        let mut give_up = std::pin::pin!(give_up);
        loop {
            if let Some(waited) = waiting.until(None, give_up.as_mut()).await {
                return Ok(waited);
            }
        }
    })
}
