//! `pi-ask serve`: the asks waiting in the queue as a web page (see [`crate::web`]). This command
//! opens the queues as the inbox does, binds the address, says the sign-in link (on the terminal
//! with a QR code of it, and in `--url-file`), announces the page in the queue so askers and
//! `inbox --status` know it watches, and serves until a signal.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use super::{CommandError, Ended, HistoryChoice};
use crate::drivers::run::RunOptions;
use crate::drivers::web;
use crate::report::{CommandOutcome, report};
use crate::stores::queue::{AskQueue, SharedQueue};

/// What `pi-ask serve` was given.
#[derive(Debug, Clone)]
pub struct ServeArgs {
    /// `--listen`: the address (default 127.0.0.1 and [`web::DEFAULT_PORT`]).
    pub listen: Option<SocketAddr>,
    /// `--url-file`: where the sign-in link is written (mode 0600).
    pub url_file: Option<PathBuf>,
    /// `--allow-host`: other names the page may be reached by.
    pub allow_hosts: Vec<String>,
    /// `--queue`.
    pub queue: Option<PathBuf>,
    /// `--public-url`: the address the person's devices reach the page at (a forwarded port, a
    /// tunnel), for the links in notifications; default: the listen address.
    pub public_url: Option<String>,
}

/// The warning for an address other machines can reach.
const NOT_LOOPBACK: &str = "listening on an address other machines can reach: anyone on that network who gets the sign-in link can answer your asks, and the page is plain HTTP. Safer: keep the default 127.0.0.1 and reach it through SSH port forwarding (ssh -L 7439:127.0.0.1:7439 this-machine; see docs/remote.md)";

/// `pi-ask serve`.
pub fn run(args: ServeArgs, options: &RunOptions, history: HistoryChoice) -> Ended {
    // Read once: the queue's limit, the notification channels, the keymap the page follows.
    let config = crate::stores::config::peek(&crate::stores::config::ConfigPaths::from_env(
        options.config.as_deref(),
    ));
    let max_bytes = config.mcp.max_ask_bytes;
    let explicit = args.queue.is_some() || std::env::var_os("PI_ASK_QUEUE").is_some();
    let primary = super::queues::open_queue(args.queue.clone())?.with_max_bytes(max_bytes);
    let mut queues = vec![primary];
    if !explicit {
        queues.extend(super::queues::earlier_queues(queues[0].dir(), max_bytes));
    }
    let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !on_terminal && args.url_file.is_none() {
        return super::nothing(
            "standard error is not a terminal, so the sign-in link would go to a log: give --url-file FILE to get it there",
        );
    }
    let address = args
        .listen
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], web::DEFAULT_PORT)));
    let listener = web::bind(address).map_err(CommandError::Serve)?;
    let address = listener
        .local_addr()
        .map_err(|source| CommandError::Serve(web::ServeError::Listen { address, source }))?;
    if !address.ip().is_loopback() {
        report(NOT_LOOPBACK);
    }
    if address.ip().is_unspecified() {
        report(
            "listening on every address: the link names 0.0.0.0; open it with this machine's address or name instead, and name that with --allow-host NAME (requests naming any other host are refused)",
        );
    }
    let stop =
        crate::drivers::runtime::signal_flag().map_err(crate::drivers::run::RunError::Signals)?;
    let origin = format!("http://{address}");
    let _presence: Vec<_> = queues
        .iter()
        .filter_map(|q| q.announce_web(&origin).ok())
        .collect();
    for queue in &queues {
        queue.sweep(std::time::Duration::from_secs(24 * 3600));
    }
    report(&format!(
        "serving the asks of {} at {origin} (Ctrl+C to stop)",
        crate::paths::display(queues[0].dir())
    ));
    let url_file = args.url_file.clone();
    let first = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let announce: web::server::LinkAnnouncer = Arc::new(move |link: &str| {
        let first = first.swap(false, std::sync::atomic::Ordering::Relaxed);
        if let Some(file) = &url_file
            && let Err(e) = crate::atomic::write(
                file,
                format!("{link}\n").as_bytes(),
                crate::atomic::Permissions::Private,
            )
        {
            report(&format!(
                "cannot write the sign-in link to {}: {e}",
                crate::paths::display(file)
            ));
        }
        if on_terminal {
            say_link(link, first);
        }
    });
    let desk_queues: Vec<SharedQueue> = queues
        .iter()
        .map(|q| Arc::new(q.clone()) as SharedQueue)
        .collect();
    let desk_options = options.clone();
    let notifications = config.notifications;
    let table = crate::keymap::BindingTable::new(config.keymaps);
    let public = args
        .public_url
        .as_deref()
        .map_or_else(|| origin.clone(), |u| u.trim_end_matches('/').to_owned());
    let setup = web::Setup {
        listener,
        allow_hosts: args.allow_hosts,
        desk: Box::new(move || {
            web::desk::Desk::new(
                desk_queues,
                desk_options,
                Box::new(move |ask| history.journal(ask)),
                &table,
            )
            .with_arrivals(arrival_notice(notifications, public, on_terminal))
        }),
        announce,
        stop,
    };
    web::serve(setup).map_err(CommandError::Serve)?;
    report("stopped; every unanswered ask stays in the queue");
    Ok(CommandOutcome::Done)
}

/// Tells each ask that arrives through the configured channels: the terminal's (bell, OSC) on this
/// terminal when there is one, and commands with `ASK_NOTIFY_URL` set to the ask's page (a phone
/// notification: docs/web.md's ntfy recipe).
fn arrival_notice(
    notifications: crate::stores::config::Notifications,
    public: String,
    on_terminal: bool,
) -> web::desk::ArrivalHook {
    let mut tty: Box<dyn std::io::Write> = match crate::drivers::tty::open_tty() {
        Ok(tty) if on_terminal => Box::new(tty),
        _ => Box::new(std::io::sink()),
    };
    Box::new(move |ask| {
        if !notifications.enabled {
            return;
        }
        let n = crate::model::Notification {
            event: "question-waiting".into(),
            title: "pi-ask".into(),
            message: crate::printable::printable(&format!(
                "Question waiting from {}: {}",
                ask.client, ask.first_prompt
            )),
        };
        let url = format!("{public}/ask/{}", ask.id);
        crate::tui::notify::send_with(
            &n,
            &notifications.channels,
            &mut tty,
            &[("ASK_NOTIFY_URL", url)],
        );
    })
}

/// Says a sign-in link on the terminal: the first with a QR code (a phone's camera opens it), the
/// next ones (each link works once) on a line.
fn say_link(link: &str, first: bool) {
    if !first {
        report(&format!(
            "sign-in link for the next browser (works once): {link}"
        ));
        return;
    }
    report(&format!("sign in (the link works once): {link}"));
    if let Ok(code) = qrcode::QrCode::new(link.as_bytes()) {
        let drawn = code
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build();
        eprintln!("{drawn}");
    }
}
