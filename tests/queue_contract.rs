//! The promises every queue backend keeps (`stores::queue::AskQueue`), checked on the folder and
//! on a second backend written here from the trait alone (asks in memory), and drivers run on
//! that second backend unchanged: the host hooks' ask, the one waiter, the inbox list. A new store
//! (the shared desk) runs [`promises`] too.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

mod common;

use common::queued_ask;
use pi_ask::stores::queue::listing::Whereabouts;
use pi_ask::stores::queue::waiter::wait_blocking;
use pi_ask::stores::queue::{
    AskQueue, Claim, Delivery, NotDelivered, Queue, QueuedAsk, SharedQueue, Waited, Withdrawal,
    WithdrawnBecause,
};
use serde_json::{Value, json};

/// An ask of a live asker (this test).
fn ask(id: &str, at: u64) -> QueuedAsk {
    queued_ask(id, "Ship it?", at)
}

/// One ask's state in [`MemoryQueue`].
#[derive(Debug, Default)]
struct Entry {
    ask: Option<QueuedAsk>,
    claimed: bool,
    /// Exactly one of the answer and the withdrawal settles the ask.
    settled: bool,
    result: Option<Value>,
    withdrawn: Option<WithdrawnBecause>,
}

/// A queue in memory, made from the trait alone: what another store needs to write.
#[derive(Debug, Default)]
struct MemoryQueue {
    asks: Mutex<BTreeMap<String, Entry>>,
    later: Mutex<HashMap<String, SystemTime>>,
    watched: bool,
}

impl MemoryQueue {
    fn watched() -> MemoryQueue {
        MemoryQueue {
            watched: true,
            ..MemoryQueue::default()
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.asks.lock().unwrap()
    }
}

impl AskQueue for MemoryQueue {
    fn location(&self) -> String {
        "memory".into()
    }
    fn max_bytes(&self) -> u64 {
        1 << 20
    }
    fn submit(&self, ask: &QueuedAsk) -> std::io::Result<()> {
        let mut asks = self.lock();
        asks.entry(ask.id.clone()).or_default().ask = Some(ask.clone());
        Ok(())
    }
    fn waiting(&self) -> Vec<QueuedAsk> {
        let mut waiting: Vec<QueuedAsk> = self
            .lock()
            .values()
            .filter(|e| !e.claimed && !e.settled)
            .filter_map(|e| e.ask.clone())
            .collect();
        waiting.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        waiting
    }
    fn pending(&self) -> Vec<QueuedAsk> {
        self.waiting()
    }
    fn claim(&self, id: &str) -> std::io::Result<Option<Claim>> {
        let mut asks = self.lock();
        let Some(entry) = asks.get_mut(id) else {
            return Ok(None);
        };
        if entry.claimed || entry.settled {
            return Ok(None);
        }
        entry.claimed = true;
        Ok(entry.ask.clone().map(|ask| Claim::new(ask, id)))
    }
    fn answer(&self, claim: Claim, result: &Value) -> Result<Delivery, NotDelivered> {
        let mut asks = self.lock();
        let entry = asks.entry(claim.held().to_owned()).or_default();
        entry.claimed = false;
        if entry.settled {
            return Ok(Delivery::TooLate);
        }
        entry.settled = true;
        entry.result = Some(result.clone());
        Ok(Delivery::Delivered)
    }
    fn release(&self, claim: Claim) -> std::io::Result<()> {
        if let Some(entry) = self.lock().get_mut(claim.held()) {
            entry.claimed = false;
        }
        Ok(())
    }
    fn drop_claim(&self, claim: Claim) -> std::io::Result<()> {
        self.release(claim)
    }
    fn withdraw_because(&self, id: &str, why: WithdrawnBecause) -> std::io::Result<Withdrawal> {
        let mut asks = self.lock();
        let entry = asks.entry(id.to_owned()).or_default();
        if entry.withdrawn.is_some() {
            return Ok(Withdrawal::Withdrawn);
        }
        if entry.settled {
            return Ok(Withdrawal::AlreadyAnswered);
        }
        entry.settled = true;
        entry.withdrawn = Some(why);
        Ok(Withdrawal::Withdrawn)
    }
    fn withdrawn_because(&self, id: &str) -> Option<WithdrawnBecause> {
        self.lock().get(id).and_then(|e| e.withdrawn)
    }
    fn read_waiting(&self, id: &str) -> Option<QueuedAsk> {
        self.waiting().into_iter().find(|a| a.id == id)
    }
    fn whereabouts(&self, id: &str) -> Whereabouts {
        match self.lock().get(id) {
            Some(e) if e.withdrawn.is_some() => Whereabouts::Withdrawn,
            Some(e) if e.claimed => Whereabouts::OpenElsewhere,
            Some(e) if !e.settled && e.ask.is_some() => Whereabouts::Waiting,
            _ => Whereabouts::Gone,
        }
    }
    fn take_result(&self, id: &str) -> Option<Value> {
        self.lock().get_mut(id).and_then(|e| e.result.take())
    }
    fn answered(&self) -> Vec<String> {
        self.lock()
            .iter()
            .filter(|(_, e)| e.result.is_some())
            .map(|(id, _)| id.clone())
            .collect()
    }
    fn forget_unanswered(&self, id: &str) {
        self.lock().remove(id);
    }
    fn is_watched(&self) -> bool {
        self.watched
    }
    fn being_answered(&self) -> usize {
        self.lock().values().filter(|e| e.claimed).count()
    }
    fn later_marks(&self) -> Vec<(SystemTime, String)> {
        let mut marks: Vec<(SystemTime, String)> = self
            .later
            .lock()
            .unwrap()
            .iter()
            .map(|(id, at)| (*at, id.clone()))
            .collect();
        marks.sort();
        marks
    }
    fn keep_later_marks(&self, ids: &[&str]) {
        let mut later = self.later.lock().unwrap();
        later.retain(|id, _| ids.contains(&id.as_str()));
        for id in ids {
            later
                .entry((*id).to_owned())
                .or_insert_with(SystemTime::now);
        }
    }
    fn sweep(&self, _age: Duration) {}
}

/// The promises, on a fresh queue `queue` (ids in the form `new_id` makes, as every backend's
/// asks have).
fn promises(queue: &dyn AskQueue) {
    let (a, b, c, d) = (
        "aaaaaaaaaaaa0001",
        "bbbbbbbbbbbb0002",
        "cccccccccccc0003",
        "dddddddddddd0004",
    );
    queue.submit(&ask(b, 2)).unwrap();
    queue.submit(&ask(a, 1)).unwrap();
    let ids: Vec<String> = queue.waiting().into_iter().map(|x| x.id).collect();
    assert_eq!(ids, [a, b], "oldest first");
    assert_eq!(queue.whereabouts(a), Whereabouts::Waiting);
    assert_eq!(queue.read_waiting(a).map(|x| x.id), Some(a.to_owned()));

    // One claimer.
    let claim = queue.claim(a).unwrap().expect("the first claim wins");
    assert!(queue.claim(a).unwrap().is_none(), "a second claim loses");
    assert_eq!(queue.being_answered(), 1);
    assert!(
        queue.read_waiting(a).is_none(),
        "a claimed ask is not waiting"
    );

    // Released: back for the next inbox, nothing lost.
    queue.release(claim).unwrap();
    let claim = queue.claim(a).unwrap().expect("released, claimable again");

    // Answered: the asker takes it, once.
    assert_eq!(
        queue.answer(claim, &json!({"ok": 1})).unwrap(),
        Delivery::Delivered
    );
    assert_eq!(queue.answered(), [a]);
    assert_eq!(queue.withdraw(a).unwrap(), Withdrawal::AlreadyAnswered);
    assert_eq!(queue.take_result(a), Some(json!({"ok": 1})));
    assert_eq!(queue.take_result(a), None, "an answer is taken once");

    // Withdrawn first: the answer that comes later is too late, and the inbox can say why.
    let claim = queue.claim(b).unwrap().expect("b");
    assert_eq!(
        queue
            .withdraw_because(b, WithdrawnBecause::AnsweredInHostForm)
            .unwrap(),
        Withdrawal::Withdrawn
    );
    assert!(queue.is_withdrawn(b));
    assert_eq!(
        queue.withdrawn_because(b),
        Some(WithdrawnBecause::AnsweredInHostForm)
    );
    assert_eq!(
        queue.answer(claim, &json!({"late": true})).unwrap(),
        Delivery::TooLate
    );
    assert_eq!(queue.take_result(b), None, "a late answer reaches nobody");
    assert_eq!(queue.whereabouts(b), Whereabouts::Withdrawn);

    // Withdrawn while waiting: no inbox sees it any more.
    queue.submit(&ask(c, 3)).unwrap();
    assert_eq!(queue.withdraw(c).unwrap(), Withdrawal::Withdrawn);
    assert!(queue.waiting().iter().all(|x| x.id != c));
    assert!(
        queue.claim(c).unwrap().is_none(),
        "a withdrawn ask is nobody's"
    );

    // Later marks follow what the list leaves for later.
    queue.submit(&ask(d, 4)).unwrap();
    queue.keep_later_marks(&[d]);
    let later: Vec<String> = queue.later_marks().into_iter().map(|(_, id)| id).collect();
    assert_eq!(later, [d]);
    queue.keep_later_marks(&[]);
    assert!(queue.later_marks().is_empty());
}

/// Answers and withdrawals crossing from many threads settle exactly one outcome per ask.
fn exactly_once_under_races(queue: SharedQueue) {
    let ids: Vec<String> = (0..40).map(|n| format!("{n:016x}")).collect();
    for (n, id) in ids.iter().enumerate() {
        queue.submit(&ask(id, n as u64)).unwrap();
    }
    let answered = Arc::new(Mutex::new(HashSet::new()));
    let withdrawn = Arc::new(Mutex::new(HashSet::new()));
    std::thread::scope(|s| {
        for _ in 0..3 {
            let (queue, answered, ids) = (Arc::clone(&queue), Arc::clone(&answered), &ids);
            s.spawn(move || {
                for id in ids {
                    if let Ok(Some(claim)) = queue.claim(id)
                        && queue.answer(claim, &json!(id)).unwrap() == Delivery::Delivered
                    {
                        assert!(
                            answered.lock().unwrap().insert(id.clone()),
                            "answered twice"
                        );
                    }
                }
            });
        }
        let (queue, withdrawn, ids) = (Arc::clone(&queue), Arc::clone(&withdrawn), &ids);
        s.spawn(move || {
            for id in ids.iter().rev() {
                if queue.withdraw(id).unwrap() == Withdrawal::Withdrawn {
                    withdrawn.lock().unwrap().insert(id.clone());
                }
            }
        });
    });
    let answered = answered.lock().unwrap();
    let withdrawn = withdrawn.lock().unwrap();
    for id in &ids {
        assert!(
            answered.contains(id) != withdrawn.contains(id),
            "{id}: exactly one of answered and withdrawn"
        );
        assert_eq!(queue.take_result(id).is_some(), answered.contains(id));
    }
}

fn folder() -> (tempfile::TempDir, Queue) {
    let dir = tempfile::tempdir().unwrap();
    let queue = Queue::open(dir.path().join("queue")).unwrap();
    (dir, queue)
}

#[test]
fn the_folder_keeps_every_promise() {
    let (_dir, queue) = folder();
    promises(&queue);
}

#[test]
fn a_backend_made_from_the_trait_alone_keeps_every_promise() {
    promises(&MemoryQueue::default());
}

#[test]
fn answers_and_withdrawals_that_cross_settle_once_on_either_backend() {
    let (_dir, queue) = folder();
    exactly_once_under_races(Arc::new(queue));
    exactly_once_under_races(Arc::new(MemoryQueue::default()));
}

/// The one waiter and the host hooks' ask run on the second backend unchanged: an inbox (here a
/// thread claiming from the same queue) answers, and the asker gets that answer.
#[test]
fn drivers_run_unchanged_on_another_backend() {
    let queue: SharedQueue = Arc::new(MemoryQueue::watched());
    let inbox = {
        let queue = Arc::clone(&queue);
        std::thread::spawn(move || {
            for _ in 0..500 {
                if let Some(waiting) = queue.pending().first()
                    && let Ok(Some(claim)) = queue.claim(&waiting.id)
                {
                    let entries = pi_ask::stores::queue::listing::entries(&[Arc::clone(&queue)]);
                    assert!(entries.is_empty(), "a claimed ask leaves the list");
                    queue.answer(claim, &json!({"from": "inbox"})).unwrap();
                    return true;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            false
        })
    };
    let stop = AtomicBool::new(false);
    let payload = ask("0000000000000000", 0).payload;
    let answer = pi_ask::drivers::hooks::ask(
        &queue,
        payload,
        "contract",
        "/proj",
        Duration::from_secs(10),
        &stop,
    )
    .expect("answered through the hook driver");
    assert_eq!(answer, json!({"from": "inbox"}));
    assert!(inbox.join().unwrap(), "the inbox thread answered");

    // The waiter: the answer given before it looks, and a deadline that passes with none.
    queue.submit(&ask("eeeeeeeeeeee0005", 5)).unwrap();
    let claim = queue.claim("eeeeeeeeeeee0005").unwrap().unwrap();
    queue.answer(claim, &json!(5)).unwrap();
    let waited = wait_blocking(
        Arc::clone(&queue),
        "eeeeeeeeeeee0005",
        Some(Duration::from_secs(5)),
        None,
    )
    .unwrap();
    assert_eq!(waited, Waited::Answered(json!(5)));
    queue.submit(&ask("ffffffffffff0006", 6)).unwrap();
    let waited = wait_blocking(
        Arc::clone(&queue),
        "ffffffffffff0006",
        Some(Duration::from_millis(60)),
        None,
    )
    .unwrap();
    assert_eq!(waited, Waited::TimedOut);
    assert!(
        queue.is_withdrawn("ffffffffffff0006"),
        "timing out withdrew it"
    );
}
