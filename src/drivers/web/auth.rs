//! Who may use the web page: the one-time sign-in link, the session cookie it is exchanged for,
//! and the `Host` and `Origin` rules that keep other sites (and DNS rebinding) out. Pure: the
//! server asks, this answers.
//!
//! The rules, as the incidents of other tools taught (a loopback binding does not stop a page in
//! the person's own browser from calling it):
//! - the sign-in token (256 random bits) in the printed URL is good once; it is exchanged at once
//!   for a session cookie (`HttpOnly; SameSite=Strict`) and a new link is made for the next device;
//! - every request whose `Host` names neither the listen address, `localhost` (when listening on
//!   loopback) nor a name given with `--allow-host` is refused (DNS rebinding);
//! - every request with an `Origin` header that is not this server's own origin (`http://` and the
//!   request's own `Host`) is refused, whatever its method or path.

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};

/// The name of the session cookie.
pub const COOKIE: &str = "pi_ask_session";

/// How many signed-in browsers are remembered; the oldest is signed out past it.
const SESSIONS: usize = 16;

/// A random secret (256 bits), written as 64 hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never in a log, a panic message or a test's output.
        f.write_str("Secret(..)")
    }
}

impl Secret {
    /// A new secret from the system's random source.
    pub fn new() -> Result<Secret, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(Secret(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// Its text (for the URL or the cookie).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is this secret ([`same_secret`]).
    fn matches(&self, given: &str) -> bool {
        same_secret(&self.0, given)
    }
}

/// Whether `given` is `secret`, in time that does not depend on where they differ (a token or a
/// cookie compared byte by byte would tell a prober how much of its guess was right).
pub fn same_secret(secret: &str, given: &str) -> bool {
    let (a, b) = (secret.as_bytes(), given.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Why a request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The `Host` header names another host (or none).
    #[error(
        "this server answers only to its own address; add --allow-host NAME to reach it by another name"
    )]
    ForeignHost,
    /// The `Origin` header is another site's.
    #[error("a request from another site was refused")]
    ForeignOrigin,
    /// No valid session cookie.
    #[error("not signed in: open the sign-in link `pi-ask serve` printed")]
    NotSignedIn,
    /// The sign-in token is not the current one (used already, or never made).
    #[error(
        "this sign-in link is not valid (each link works once); use the newest link `pi-ask serve` printed"
    )]
    StaleLink,
}

/// The sign-in state of one server.
#[derive(Debug)]
pub struct Gate {
    /// The host names (lowercase, without port) requests may name.
    hosts: Vec<String>,
    /// The unused sign-in token.
    sign_in: Secret,
    /// The signed-in browsers' cookies, oldest first.
    sessions: VecDeque<Secret>,
}

impl Gate {
    /// The gate of a server listening on `listen`, also reachable by the names in `allowed`.
    pub fn new(listen: SocketAddr, allowed: &[String]) -> Result<Gate, getrandom::Error> {
        let mut hosts = vec![host_name_of(listen.ip())];
        if listen.ip().is_loopback() {
            hosts.extend([
                "localhost".to_owned(),
                "127.0.0.1".to_owned(),
                "[::1]".to_owned(),
            ]);
        }
        hosts.extend(allowed.iter().map(|h| h.trim().to_ascii_lowercase()));
        hosts.dedup();
        Ok(Gate {
            hosts,
            sign_in: Secret::new()?,
            sessions: VecDeque::new(),
        })
    }

    /// The current sign-in token (good once).
    pub fn sign_in_token(&self) -> &Secret {
        &self.sign_in
    }

    /// Exchanges the sign-in token for a new session's cookie value; the token is then replaced
    /// by a new one (the next device's link), whatever happens.
    pub fn exchange(&mut self, token: &str) -> Result<Secret, Refused> {
        if !self.sign_in.matches(token) {
            return Err(Refused::StaleLink);
        }
        let session = Secret::new().map_err(|_| Refused::StaleLink)?;
        self.sign_in = Secret::new().map_err(|_| Refused::StaleLink)?;
        if self.sessions.len() == SESSIONS {
            self.sessions.pop_front();
        }
        self.sessions.push_back(session.clone());
        Ok(session)
    }

    /// Whether a `Cookie` header carries a signed-in session.
    pub fn signed_in(&self, cookie_header: Option<&str>) -> Result<(), Refused> {
        let value = cookie_header
            .into_iter()
            .flat_map(|h| h.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(name, _)| *name == COOKIE)
            .map(|(_, value)| value);
        for given in value {
            if self.sessions.iter().any(|s| s.matches(given)) {
                return Ok(());
            }
        }
        Err(Refused::NotSignedIn)
    }

    /// Checks a request's `Host` and `Origin` headers (see the module's doc).
    pub fn check_headers(&self, host: Option<&str>, origin: Option<&str>) -> Result<(), Refused> {
        let host = host.map(str::trim).ok_or(Refused::ForeignHost)?;
        let name = strip_port(host).ok_or(Refused::ForeignHost)?;
        if !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(name)) {
            return Err(Refused::ForeignHost);
        }
        match origin {
            None => Ok(()),
            Some(origin)
                if origin
                    .trim()
                    .eq_ignore_ascii_case(&format!("http://{host}")) =>
            {
                Ok(())
            }
            Some(_) => Err(Refused::ForeignOrigin),
        }
    }
}

/// How an address is written in a `Host` header (IPv6 in brackets).
fn host_name_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// The host name of a `Host` header's value: `name`, `name:port`, `[v6]` or `[v6]:port`; `None`
/// when it is none of these.
fn strip_port(host: &str) -> Option<&str> {
    if host.is_empty()
        || host
            .chars()
            .any(|c| c.is_whitespace() || c == '/' || c == '@')
    {
        return None;
    }
    if host.starts_with('[') {
        let end = host.find(']')?;
        let rest = &host[end + 1..];
        return (rest.is_empty() || is_port(rest.strip_prefix(':')?)).then_some(&host[..=end]);
    }
    match host.split_once(':') {
        Some((name, port)) if is_port(port) && !name.is_empty() => Some(name),
        Some(_) => None,
        None => Some(host),
    }
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Gate {
        Gate::new(
            "127.0.0.1:7439".parse().unwrap(),
            &["laptop.local".to_owned()],
        )
        .unwrap()
    }

    #[test]
    fn a_sign_in_link_works_once_and_makes_the_next() {
        let mut gate = gate();
        let token = gate.sign_in_token().clone();
        let session = gate.exchange(token.as_str()).expect("the first use");
        assert_eq!(gate.exchange(token.as_str()), Err(Refused::StaleLink));
        assert_ne!(
            gate.sign_in_token(),
            &token,
            "a new link for the next device"
        );
        let cookie = format!("other=1; {COOKIE}={}", session.as_str());
        assert_eq!(gate.signed_in(Some(&cookie)), Ok(()));
        assert_eq!(
            gate.signed_in(Some("pi_ask_session=00")),
            Err(Refused::NotSignedIn)
        );
        assert_eq!(gate.signed_in(None), Err(Refused::NotSignedIn));
        assert_eq!(gate.exchange(""), Err(Refused::StaleLink));
    }

    #[test]
    fn the_oldest_browser_is_signed_out_past_the_limit() {
        let mut gate = gate();
        let first = gate
            .exchange(gate.sign_in_token().clone().as_str())
            .unwrap();
        for _ in 0..SESSIONS {
            gate.exchange(gate.sign_in_token().clone().as_str())
                .unwrap();
        }
        let cookie = format!("{COOKIE}={}", first.as_str());
        assert_eq!(gate.signed_in(Some(&cookie)), Err(Refused::NotSignedIn));
    }

    #[test]
    fn only_its_own_hosts_and_origin_pass() {
        let gate = gate();
        for host in [
            "127.0.0.1:7439",
            "localhost:9000",
            "LAPTOP.local",
            "[::1]:7439",
        ] {
            assert_eq!(gate.check_headers(Some(host), None), Ok(()), "{host}");
        }
        for host in [
            "evil.example:7439",
            "127.0.0.1:x",
            "",
            "a b",
            "user@127.0.0.1",
            "[::1",
        ] {
            assert_eq!(
                gate.check_headers(Some(host), None),
                Err(Refused::ForeignHost),
                "{host}"
            );
        }
        assert_eq!(gate.check_headers(None, None), Err(Refused::ForeignHost));
        let own = Some("http://localhost:9000");
        assert_eq!(gate.check_headers(Some("localhost:9000"), own), Ok(()));
        for origin in [
            "http://evil.example",
            "null",
            "https://localhost:9000",
            "http://localhost:9001",
        ] {
            assert_eq!(
                gate.check_headers(Some("localhost:9000"), Some(origin)),
                Err(Refused::ForeignOrigin),
                "{origin}"
            );
        }
    }

    #[test]
    fn a_secret_is_never_printed() {
        let secret = Secret::new().unwrap();
        assert!(!format!("{secret:?}").contains(secret.as_str()));
        assert_eq!(secret.as_str().len(), 64);
    }
}
