//! The host's own form (MCP elicitation) beside the queue. The ask stays in the queue while the
//! host's form shows it, so a watching inbox and the web page still list it, and the first answer
//! wins: the host's reply claims the ask and is delivered through the queue like an inbox's
//! answer (so it and the call's deadline settle exactly one outcome); when an inbox has the ask
//! open but has not answered, the reply takes the ask back from it (the inbox closes it, saying
//! it was answered in the host's form); an inbox's answer closes the host's form.
//!
//! Two ways to ask, by the client's protocol: before 2026-07-28 the server sends
//! `elicitation/create` while the call waits ([`AskServer::elicit`]); from 2026-07-28 the call
//! returns `input_required` with the form, and the client calls again with the form's reply and
//! the ask's id as `requestState` ([`AskServer::wait_or_suspend`], [`AskServer::resume`]).
//!
//! A form the host declines or closes within [`HOST_DECLINED_AT_ONCE`] was declined without a
//! person reading it (headless hosts decline every form): the ask goes on waiting for an inbox,
//! and that client is sent no more forms.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{ElicitRequest, ElicitRequestParams, ElicitResult, InputRequiredResult};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, model::CallToolResponse};
use serde_json::Value;

use super::client::{Client, Dialect};
use super::elicit::{ElicitReply, Elicitation, elicitation};
use super::{AskServer, ElicitMode, closed_forms};
use crate::form::Form;
use crate::stores::queue::Waited;
use crate::stores::queue::listing::Whereabouts;

/// A host that declines or closes its form this soon after it was sent did so without a person
/// reading it.
pub const HOST_DECLINED_AT_ONCE: Duration = Duration::from_secs(1);

/// How long a suspended ask settled without its client (deadline, client gone) is kept for the
/// client's late call.
const SETTLED_KEPT: Duration = Duration::from_secs(600);

/// The name of the form among a round trip's input requests.
const FORM_INPUT: &str = "form";

/// An ask whose form a 2026-07-28 client is showing: the call returned `input_required`, and
/// the client will call again with the reply.
#[derive(Debug)]
pub struct Suspended {
    form: Form,
    asked: Elicitation,
    sent: Instant,
    /// The call's deadline (the server's timeout from when it was made).
    deadline: Option<Instant>,
    /// Settled while suspended (its deadline passed, or the client went): the answer that won
    /// the withdrawal, if any.
    settled: Option<Option<Value>>,
}

/// A client's suspended asks, by ask id (the `requestState` it echoes, trusted only when it
/// names one of these).
pub type Suspensions = Arc<Mutex<HashMap<String, Suspended>>>;

/// Why a form cannot be sent to the host (rmcp refuses its schema).
#[derive(Debug, thiserror::Error)]
#[error("the form cannot be described to the host: {0}")]
struct Undescribable(#[source] serde_json::Error);

/// The form's schema and the elicitation request for `form` in `dialect`.
fn form_request(
    form: &Form,
    dialect: Dialect,
) -> Result<(Elicitation, ElicitRequestParams), Undescribable> {
    let asked = elicitation(form, dialect);
    serde_json::from_value::<ElicitRequestParams>(serde_json::json!({
        "mode": "form", "message": asked.message, "requestedSchema": asked.schema}))
    .map(|params| (asked, params))
    .map_err(Undescribable)
}

impl AskServer {
    /// Whether this call may be answered in the host's own form: the mode allows it, the client
    /// shows forms, and it has not declined one at once.
    pub(super) fn can_elicit(&self, client: &Client) -> bool {
        self.elicit != ElicitMode::Never
            && client.shows_forms
            && !self.forms_declined.load(Ordering::Relaxed)
    }

    /// When the host's form is sent: after the grace period in `fallback`, at once in `always`.
    fn form_after(&self) -> Duration {
        if self.elicit == ElicitMode::Fallback {
            self.elicit_after
        } else {
            Duration::ZERO
        }
    }

    /// Whether the host's form is still to be sent for ask `id`: none declined at once, and the
    /// ask waits unclaimed (an inbox that has it open keeps it).
    fn form_still_wanted(&self, id: &str) -> bool {
        !self.forms_declined.load(Ordering::Relaxed)
            && self.queue.whereabouts(id) == Whereabouts::Waiting
    }

    /// Notes that ask `id` is (or no longer is) open in the host's form.
    fn in_host_form(&self, id: &str, open: bool) {
        let mut forms = self.form_open.lock().unwrap_or_else(|e| e.into_inner());
        if open {
            forms.insert(id.to_owned());
        } else {
            forms.remove(id);
        }
    }

    /// The calls waiting for an answer: those waiting on the queue, and those whose ask a
    /// 2026-07-28 client's form shows (not yet settled). Their number is limited
    /// (`maxWaitingCalls`), and a signal lets them take their asks back before the process ends.
    pub(super) fn calls_in_flight(&self) -> usize {
        let suspended = self
            .suspended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|s| s.settled.is_none())
            .count();
        self.watcher.count() + suspended
    }

    /// Whether ask `id` is open in the host's form (progress says it can be answered there).
    pub(super) fn is_in_host_form(&self, id: &str) -> bool {
        self.form_open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    /// Before 2026-07-28: asks through the host's form (`elicitation/create`) once the grace
    /// period is over, while the call waits. `None` (the ask goes on waiting) when an inbox has
    /// or took the ask, the host failed or declined at once, or the deadline won.
    pub(super) async fn elicit(
        &self,
        id: &str,
        form: &Form,
        client: &Client,
        context: &RequestContext<RoleServer>,
    ) -> Option<Value> {
        tokio::time::sleep(self.form_after()).await;
        if !self.form_still_wanted(id) {
            return None;
        }
        let sent = Instant::now();
        self.in_host_form(id, true);
        let reply = match form_request(form, client.dialect()) {
            Ok((asked, params)) => PendingForm::ask(&context.peer, id, params, &self.closed_forms)
                .await
                .map(|reply| (asked, reply))
                .map_err(FormFailed::from),
            Err(e) => Err(FormFailed::Other(e.to_string())),
        };
        self.in_host_form(id, false);
        match reply {
            Ok((asked, reply)) => self.take_form_reply(id, form, &asked, &reply, sent),
            Err(FormFailed::Unreadable(why)) => self.take_unreadable_reply(id, form, &why),
            Err(FormFailed::Other(e)) => {
                crate::report::report(&format!(
                    "ask {id}: the host's form failed ({e}); it waits for pi-ask inbox"
                ));
                None
            }
        }
    }

    /// From 2026-07-28: waits for an inbox through the grace period; then, when the host's form
    /// is still wanted, the call's `input_required` result with the form (the ask stays queued,
    /// suspended until the client calls again). Otherwise it waits on as any call.
    pub(super) async fn wait_or_suspend(
        &self,
        id: &str,
        form: &Form,
        client: &Client,
        context: &RequestContext<RoleServer>,
    ) -> Result<Waited, InputRequiredResult> {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        let mut waiting = self.watcher.wait_for(&self.queue, id, self.timeout);
        let grace_over = Instant::now() + self.form_after();
        if let Some(waited) = self
            .wait_on(&mut waiting, id, context, Some(grace_over))
            .await
        {
            return Ok(waited);
        }
        let request = match form_request(form, client.dialect()) {
            Ok(request) if self.form_still_wanted(id) => request,
            Ok(_) => return Ok(self.wait_rest(&mut waiting, id, context).await),
            Err(e) => {
                crate::report::report(&format!("ask {id}: {e}; it waits for pi-ask inbox"));
                return Ok(self.wait_rest(&mut waiting, id, context).await);
            }
        };
        // The ask stays queued while the host shows its form; an answer handed over at this
        // very moment is the call's.
        if let Some(answer) = waiting.pause() {
            return Ok(Waited::Answered(answer));
        }
        let (asked, params) = request;
        self.suspend(id, form.clone(), asked, deadline);
        let inputs = [(
            FORM_INPUT.to_owned(),
            rmcp::model::InputRequest::Elicitation(ElicitRequest::new(params)),
        )]
        .into_iter()
        .collect();
        Err(InputRequiredResult::new(Some(inputs), Some(id.to_owned())))
    }

    async fn wait_rest(
        &self,
        waiting: &mut crate::stores::queue::waiter::Waiting,
        id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Waited {
        self.wait_on(waiting, id, context, None)
            .await
            .unwrap_or(Waited::TimedOut)
    }

    /// Keeps ask `id` suspended until the client calls again; at its deadline or when the client
    /// goes, it is withdrawn (an answer that wins the withdrawal is kept for the call).
    fn suspend(&self, id: &str, form: Form, asked: Elicitation, deadline: Option<Instant>) {
        self.in_host_form(id, true);
        self.suspended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                id.to_owned(),
                Suspended {
                    form,
                    asked,
                    sent: Instant::now(),
                    deadline,
                    settled: None,
                },
            );
        let server = self.clone();
        let id = id.to_owned();
        tokio::spawn(async move {
            let expiry = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = expiry => {}
                () = server.until_gone() => {}
            }
            let still = server
                .suspended
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains_key(&id);
            if !still {
                return;
            }
            let answer =
                crate::stores::queue::waiter::withdraw_or_take(server.queue.as_ref(), &id).await;
            server.in_host_form(&id, false);
            if let Some(entry) = server
                .suspended
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(&id)
            {
                entry.settled = Some(answer);
            }
            // Kept a while for the client's late call, then forgotten: a client that never calls
            // again does not make the record grow.
            tokio::time::sleep(SETTLED_KEPT).await;
            server
                .suspended
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
        });
    }

    /// The client calls again with the host's form's reply: an answer given meanwhile (an inbox,
    /// the web page) wins; else the reply is taken as [`AskServer::elicit`] takes it; else the
    /// call waits on for an inbox with the time it has left.
    pub(super) async fn resume(
        &self,
        state: &str,
        responses: Option<&rmcp::model::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(entry) = self
            .suspended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(state)
        else {
            return Err(McpError::invalid_params(
                "requestState names no ask this server is waiting on",
                None,
            ));
        };
        let id = state;
        self.in_host_form(id, false);
        let finish = |outcome| self.finish(id, &entry.form, outcome).map(Into::into);
        if let Some(settled) = entry.settled {
            return finish(settled.map_or(Waited::TimedOut, Waited::Answered));
        }
        let read = responses
            .and_then(|r| r.get(FORM_INPUT))
            .map(|v| serde_json::from_value::<ElicitResult>(v.clone()));
        if let Some(answer) = self.queue.take_result(id) {
            if read.is_some() {
                crate::report::report(&format!(
                    "ask {id}: answered in pi-ask inbox while the host's form showed it; the form's reply was not used"
                ));
            }
            return finish(Waited::Answered(answer));
        }
        let taken = match &read {
            Some(Ok(reply)) => {
                self.take_form_reply(id, &entry.form, &entry.asked, reply, entry.sent)
            }
            // A reply that is no form's reply ends the ask as one that cannot be read.
            Some(Err(unread)) => self.take_unreadable_reply(
                id,
                &entry.form,
                &format!("it is not a form's reply: {unread}"),
            ),
            None => {
                crate::report::report(&format!(
                    "ask {id}: the host called again without its form's reply; it waits for pi-ask inbox"
                ));
                None
            }
        };
        if let Some(answer) = taken {
            // Delivered through the queue, where no waiter takes it: taken here.
            let _ = self.queue.take_result(id);
            return finish(Waited::Answered(answer));
        }
        let left = entry
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let mut waiting = self.watcher.wait_for(&self.queue, id, left);
        let outcome = self.wait_rest(&mut waiting, id, context).await;
        finish(outcome)
    }

    /// The host's form answered ask `id` while an inbox has it open: the first answer wins, so
    /// the ask is taken back from the inbox (which closes it, saying it was answered in the
    /// host's form) and `value` is the call's. `None` when the inbox answered first after all
    /// (its answer is on its way through the queue), or the ask is no longer there.
    fn answered_first_in_form(&self, id: &str, value: Value) -> Option<Value> {
        if self.queue.whereabouts(id) != Whereabouts::OpenElsewhere {
            return None;
        }
        match self.queue.withdraw_because(
            id,
            crate::stores::queue::WithdrawnBecause::AnsweredInHostForm,
        ) {
            Ok(crate::stores::queue::Withdrawal::Withdrawn) => {
                crate::report::report(&format!(
                    "ask {id} answered in the host's form first; the inbox that had it open closes it"
                ));
                Some(value)
            }
            _ => {
                crate::report::report(&format!(
                    "ask {id}: the host's form answered, but pi-ask inbox answered first; the inbox's answer is the one used"
                ));
                None
            }
        }
    }

    /// The host's form's `reply` to ask `id`, sent at `sent`: declined at once, it leaves the ask
    /// waiting (and this client is sent no more forms); otherwise the ask is claimed and answered
    /// with it through the queue. `None` when the ask goes on waiting (an inbox had it, or the
    /// deadline won).
    fn take_form_reply(
        &self,
        id: &str,
        form: &Form,
        asked: &Elicitation,
        reply: &ElicitResult,
        sent: Instant,
    ) -> Option<Value> {
        let kind = match reply.action {
            rmcp::model::ElicitationAction::Accept => ElicitReply::Accept,
            rmcp::model::ElicitationAction::Decline => ElicitReply::Decline,
            _ => ElicitReply::Cancel,
        };
        if kind != ElicitReply::Accept && sent.elapsed() < HOST_DECLINED_AT_ONCE {
            self.forms_declined.store(true, Ordering::Relaxed);
            crate::report::report(&format!(
                "ask {id}: the host declined its form at once (nobody there to answer it); the ask waits in pi-ask inbox, and this host is not sent forms again"
            ));
            return None;
        }
        if let Some(content) = reply
            .content
            .as_ref()
            .filter(|c| kind == ElicitReply::Accept && !c.is_object())
        {
            let why = format!(
                "its content is {}, not the form's fields",
                super::elicit::kind_of(content)
            );
            return self.take_unreadable_reply(id, form, &why);
        }
        let read = asked.result(form, kind, reply.content.as_ref());
        for field in &read.ignored {
            crate::report::report(&format!(
                "ask {id}: the host's form gave {field}, which its form does not ask for; left out"
            ));
        }
        for stray in &read.unmatched {
            crate::report::report(&format!(
                "ask {id}: the host's form gave {stray}, no option's value or label; kept as the person's own words"
            ));
        }
        self.deliver_form_result(id, &read.result)
    }

    /// The host's form replied to ask `id` with what could not be read (`why`): the ask ends
    /// cancelled, saying so, as when the person closes the form (waiting on would leave the
    /// person, who may believe they answered, and the agent waiting for nothing).
    fn take_unreadable_reply(&self, id: &str, form: &Form, why: &str) -> Option<Value> {
        crate::report::report(&format!(
            "ask {id}: pi-ask could not read the host's form reply ({why}); the ask ends cancelled"
        ));
        self.deliver_form_result(id, &super::elicit::unreadable_reply_result(form, why))
    }

    /// Claims ask `id` and answers it with the host's form's `result` through the queue (the
    /// first answer wins). `None` when an inbox answered first or the ask is gone.
    fn deliver_form_result(&self, id: &str, result: &crate::result::AskResult) -> Option<Value> {
        let value = serde_json::to_value(result).ok()?;
        let Some(claim) = self.queue.claim(id).ok().flatten() else {
            return self.answered_first_in_form(id, value);
        };
        match self.queue.answer(claim, &value) {
            Ok(crate::stores::queue::Delivery::Delivered) => {
                crate::report::report(&format!("ask {id} answered in the host's form"));
                Some(value)
            }
            Ok(crate::stores::queue::Delivery::TooLate) => None,
            // This server is the asker: the answer in hand is the agent's, queue or not.
            Err(failed) => {
                crate::report::report(&format!(
                    "ask {id} answered in the host's form; the queue could not record it ({}), so it is given to the agent directly",
                    failed.why
                ));
                let _ = self.queue.withdraw(id);
                Some(value)
            }
        }
    }
}

/// Why the host's form gave no reply to take.
enum FormFailed {
    /// It replied, with what pi-ask could not read (too deep, too long, not JSON).
    Unreadable(String),
    /// It failed otherwise (an error of the host's own, the transport closed).
    Other(String),
}

impl From<rmcp::service::ServiceError> for FormFailed {
    fn from(error: rmcp::service::ServiceError) -> FormFailed {
        if let rmcp::service::ServiceError::McpError(data) = &error
            && let Some(why) = super::line_check::unreadable_reply_cause(data)
        {
            return FormFailed::Unreadable(why.to_owned());
        }
        FormFailed::Other(error.to_string())
    }
}

/// The host's form while it is open. Dropped before the person answered there (the ask was
/// answered in an inbox, timed out, or the call was cancelled), it closes the form
/// (`notifications/cancelled` for the request), and a reply that comes anyway is said on stderr
/// ([`closed_forms::ClosedForms`]).
struct PendingForm {
    handle: Option<rmcp::service::RequestHandle<RoleServer>>,
    ask: String,
    closed: closed_forms::ClosedForms,
}

impl PendingForm {
    /// Sends the elicitation and waits for the person's reply there.
    async fn ask(
        peer: &rmcp::service::Peer<RoleServer>,
        ask: &str,
        params: rmcp::model::ElicitRequestParams,
        closed: &closed_forms::ClosedForms,
    ) -> Result<rmcp::model::ElicitResult, rmcp::service::ServiceError> {
        let request =
            rmcp::model::ServerRequest::ElicitRequest(rmcp::model::ElicitRequest::new(params));
        let handle = peer
            .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
            .await?;
        let mut pending = PendingForm {
            handle: Some(handle),
            ask: ask.to_owned(),
            closed: closed.clone(),
        };
        let reply = match pending.handle.as_mut() {
            Some(handle) => (&mut handle.rx).await,
            None => return Err(rmcp::service::ServiceError::TransportClosed),
        };
        // Answered (or failed): nothing to cancel.
        pending.handle = None;
        match reply.map_err(|_| rmcp::service::ServiceError::TransportClosed)?? {
            rmcp::model::ClientResult::ElicitResult(result) => Ok(result),
            _ => Err(rmcp::service::ServiceError::UnexpectedResponse),
        }
    }
}

impl Drop for PendingForm {
    fn drop(&mut self) {
        let Some(handle) = self.handle.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if let Ok(id) = serde_json::to_value(&handle.id) {
            self.closed.closed(&id, &self.ask);
        }
        runtime.spawn(async move {
            let reason =
                "the ask was settled elsewhere (answered in pi-ask inbox, timed out, or withdrawn)";
            let cancel = rmcp::model::CancelledNotificationParam::new(
                Some(handle.id.clone()),
                Some(reason.to_owned()),
            );
            let _ = handle.peer.notify_cancelled(cancel).await;
        });
    }
}
