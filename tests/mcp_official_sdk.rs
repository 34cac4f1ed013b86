//! `pi-ask mcp` driven by a host built on the official MCP TypeScript SDK
//! (`pi-extension/mcp-host/host.mjs`, the SDK pinned in `pi-extension/package-lock.json`) on
//! Node 22: the host's own form answered with labels, declined and closed, cancelled when the ask
//! ends while it is open, and a host that quits while an ask waits.
//!
//! Needs the npm packages (`npm ci --prefix pi-extension`): when they are missing and npm is
//! there, they are installed first; when they cannot be had, the tests fail (a test that did not
//! run never counts as passed).

mod common;

use serde_json::{Value, json};

/// Runs one scenario of the SDK host; returns what it saw.
fn host(scenario: &str) -> Value {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_str().unwrap().to_owned();
    common::npm::run_sdk_host("host.mjs", &[scenario, env!("CARGO_BIN_EXE_pi-ask"), &home])
}

#[test]
fn the_sdks_form_answering_with_labels_is_read_as_options_and_the_rest_kept() {
    let seen = host("labels");
    let answers = &seen["result"]["structuredContent"]["answers"];
    assert_eq!(answers["env"]["values"], json!(["prod"]));
    assert_eq!(answers["checks"]["values"], json!(["lint", "fuzzing"]));
    assert_eq!(answers["checks"]["customText"], "fuzzing");
    assert!(
        seen["stderr"]
            .as_str()
            .unwrap()
            .contains("the host's form gave checks: \"fuzzing\", no option's value or label"),
        "{seen}"
    );
}

#[test]
fn declining_and_closing_the_sdks_form_say_which() {
    let seen = host("decline");
    let texts: Vec<&str> = seen["texts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        texts[0]
            .starts_with("User cancelled the ask flow: they declined the host's form.\n\nNext: "),
        "{seen}"
    );
    assert!(
        texts[1].starts_with(
            "User cancelled the ask flow: they closed the host's form without answering.\n\nNext: "
        ),
        "{seen}"
    );
    // The structured result (all some hosts give the model) says which, too.
    assert_eq!(seen["outcomes"], json!(["declined", "cancelled"]));
}

#[test]
fn a_form_the_sdk_host_declines_at_once_does_not_end_the_ask() {
    let seen = host("declinedAtOnce");
    assert_eq!(
        seen["forms"], 1,
        "no second form for a host that declines: {seen}"
    );
    for result in seen["results"].as_array().unwrap() {
        let details = &result["structuredContent"];
        assert_eq!(details["outcome"], "timed_out", "{seen}");
        assert!(
            details["next"]
                .as_str()
                .unwrap()
                .contains("ask again later")
        );
    }
    assert!(
        seen["stderr"]
            .as_str()
            .unwrap()
            .contains("the host declined its form at once"),
        "{seen}"
    );
}

#[test]
fn the_sdks_form_is_cancelled_when_the_ask_times_out() {
    let seen = host("cancelled");
    assert_eq!(seen["aborted"], true, "{seen}");
    assert_eq!(seen["result"]["structuredContent"]["cancelled"], true);
    assert_eq!(seen["result"]["structuredContent"]["outcome"], "timed_out");
    assert!(
        seen["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("No answer from pi-ask inbox within 1 s")
    );
}

#[test]
fn an_sdk_host_that_quits_takes_its_waiting_ask_back_at_once() {
    let seen = host("quit");
    assert!(seen["id"].is_string(), "{seen}");
    let after = seen["withdrawnAfter"]
        .as_u64()
        .unwrap_or_else(|| panic!("never withdrawn: {seen}"));
    // The SDK sends SIGTERM two seconds after closing stdin; the ask is back well before.
    assert!(after < 1500, "{after} ms");
}
