//! `pi-ask serve` in a real browser: Debian's Chromium, driven through chromedriver by the
//! fantoccini WebDriver client. An MCP ask (`pi-ask mcp`) is answered by clicking labels and
//! buttons; a new ask appears without a reload; a phone-sized window never scrolls sideways; the
//! filter hides what does not match. With `PI_ASK_BLESS=1` the screenshots under docs/web/ are
//! taken again. Without Chromium the tests are reported as ignored (failed under `CI=true`,
//! where `.ci/run` installs it).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::mcp::Mcp;
use common::queued_ask;
use common::web::Served;
use fantoccini::{Client, ClientBuilder, Locator};
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// What is missing for these tests, if anything.
fn missing() -> Option<String> {
    [CHROMIUM, CHROMEDRIVER]
        .iter()
        .find(|p| !Path::new(p).exists())
        .map(|p| format!("{p} is not installed (apt-get install chromium chromium-driver)"))
}

/// A chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    url: String,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A chromedriver on a free port. Tests run side by side: a port another test's driver took
/// between the finding and the binding makes this one's driver exit, and another port is tried.
fn driver() -> Driver {
    for _ in 0..10 {
        let port = free_port();
        let mut child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        let listening = loop {
            if let Ok(Some(_)) = child.try_wait() {
                break false;
            }
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                // Ours, not another test's: it is still running after the port answered.
                std::thread::sleep(Duration::from_millis(50));
                break child.try_wait().is_ok_and(|s| s.is_none());
            }
            assert!(Instant::now() < deadline, "chromedriver never listened");
            std::thread::sleep(Duration::from_millis(50));
        };
        if listening {
            return Driver {
                child,
                url: format!("http://127.0.0.1:{port}"),
                _profile: tempfile::tempdir().unwrap(),
            };
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("no chromedriver could take a port");
}

/// A headless Chromium of `width` x `height` CSS pixels, light or dark; a width under 500 is a
/// phone's (Chromium's windows are never narrower: its mobile emulation makes the viewport).
async fn browser(driver: &Driver, width: u32, height: u32, dark: bool) -> Client {
    browser_with(driver, width, height, dark, &[]).await
}

/// [`browser`] with more command-line switches (`--blink-settings=scriptEnabled=false`).
async fn browser_with(
    driver: &Driver,
    width: u32,
    height: u32,
    dark: bool,
    extra: &[&str],
) -> Client {
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".to_owned(),
        "--disable-gpu".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--disable-quic".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        "--hide-scrollbars".to_owned(),
        format!("--window-size={width},{height}"),
        format!("--user-data-dir={}", driver._profile.path().display()),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    if dark {
        args.push("--force-dark-mode".to_owned());
        args.push("--blink-settings=preferredColorScheme=0".to_owned());
    }
    let mut options = json!({"binary": CHROMIUM, "args": args});
    if width < 500 {
        options["mobileEmulation"] = json!({"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 2.0, "touch": true}});
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_owned(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}

async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} never appeared: {e}"))
}

/// Clicks what `css` finds, finding it again when the page put new content in its place between
/// the finding and the click (a press's answer, another window's change).
async fn click(client: &Client, css: &str) {
    for _ in 0..5 {
        match wait_for(client, css).await.click().await {
            Ok(()) => return,
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("clicking {css}: {e}"),
        }
    }
    panic!("{css} kept going stale");
}

/// The text of what `css` finds, found again when the page replaced it meanwhile.
async fn text_of(client: &Client, css: &str) -> String {
    for _ in 0..5 {
        match wait_for(client, css).await.text().await {
            Ok(text) => return text,
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("reading {css}: {e}"),
        }
    }
    panic!("{css} kept going stale");
}

/// Saves a screenshot as docs/web/NAME.png when `PI_ASK_BLESS=1`.
async fn keep_screenshot(client: &Client, name: &str) {
    if std::env::var("PI_ASK_BLESS").is_ok_and(|v| v == "1") {
        let png = client.screenshot().await.unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/web");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

fn setting() -> (tempfile::TempDir, Queue) {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    (home, queue)
}

fn sign_in_link(served: &Served) -> String {
    format!("{}{}", served.origin(), served.sign_in_path())
}

fn every_kind_of_question_is_answered_by_clicking_labels_and_buttons() {
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    // The asker works in a project folder of its own (the page and its screenshots show it).
    let asker_home = tempfile::tempdir().unwrap();
    let project = asker_home.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_pi-ask"));
    command
        .args(["mcp", "--queue", queue.dir().to_str().unwrap()])
        .current_dir(&project)
        .env("HOME", asker_home.path())
        .stderr(Stdio::null());
    let mut mcp = Mcp::spawn(command, queue.clone(), Some(asker_home), json!({}));
    mcp.call(3, common::web::form_payload());
    mcp.queued(1);
    let driver = driver();
    run(async {
        let client = browser(&driver, 1280, 900, false).await;
        client.goto(&sign_in_link(&served)).await.unwrap();
        keep_screenshot(&client, "list-desktop").await;
        click(&client, "a.ask").await;
        wait_for(&client, "[data-page=form][data-tab='0']").await;
        keep_screenshot(&client, "single-desktop").await;
        // A note on the question, then a choice by its label (a single choice goes on).
        click(&client, ".question > form > details.note > summary").await;
        wait_for(&client, "textarea[name=qnote]")
            .await
            .send_keys("keep it small")
            .await
            .unwrap();
        click(&client, "button[value=qnote]").await;
        wait_for(&client, ".saved-note").await;
        click(&client, "label[for=o1]").await;
        wait_for(&client, "[data-page=form][data-tab='1']").await;
        // Several choices, a note on one, and an own answer with Enter.
        click(&client, "label[for=o0]").await;
        wait_for(&client, "#o0:checked").await;
        click(&client, "label[for=o2]").await;
        wait_for(&client, "#o2:checked").await;
        click(&client, "[data-option='2'] summary").await;
        wait_for(&client, "textarea[name=note2]")
            .await
            .send_keys("only titles")
            .await
            .unwrap();
        click(&client, "button[value='note:2']").await;
        wait_for(&client, "[data-option='2'] .saved-note").await;
        let enter: char = fantoccini::key::Key::Enter.into();
        wait_for(&client, "#own-text")
            .await
            .send_keys(&format!("exports{enter}"))
            .await
            .unwrap();
        wait_for(&client, "[data-page=form][data-tab='2']").await;
        keep_screenshot(&client, "preview-desktop").await;
        click(&client, "label[for=o1]").await;
        wait_for(&client, "[data-page=form][data-tab='3']").await;
        keep_screenshot(&client, "review-desktop").await;
        let title = client.title().await.unwrap();
        assert!(
            title.contains("Review"),
            "the title follows the tab: {title}"
        );
        let review = text_of(&client, ".review").await;
        for word in common::web::REVIEW_WORDS {
            assert!(review.contains(word), "{word} on the review: {review}");
        }
        click(&client, "button[value=submit]").await;
        let said = text_of(&client, "[data-page=outcome]").await;
        assert!(said.contains("The agent has your answer"), "{said}");
        client.close().await.unwrap();
    });
    common::web::assert_same_as_terminal(&mcp.response(3)["result"]);
}

fn a_new_ask_appears_without_reloading() {
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let driver = driver();
    run(async {
        let client = browser(&driver, 1024, 768, false).await;
        client.goto(&sign_in_link(&served)).await.unwrap();
        wait_for(&client, "[data-page=list] .empty").await;
        // Let the page's event stream connect before the ask comes.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let asked = Instant::now();
        queue
            .submit(&queued_ask("fresh", "A fresh question?", 1))
            .unwrap();
        wait_for(&client, "a.ask[href='/ask/fresh']").await;
        eprintln!(
            "the ask appeared {} ms after it was queued",
            asked.elapsed().as_millis()
        );
        let title = client.title().await.unwrap();
        assert!(title.starts_with("(1) "), "the title counts it: {title}");
        let status = text_of(&client, "#status").await;
        assert!(
            status.contains("A fresh question?"),
            "the live region says it: {status}"
        );
        client.close().await.unwrap();
    });
}

fn a_phone_sees_the_whole_form_without_sideways_scrolling() {
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let mut ask = queued_ask("phone", "Which layout?", 1);
    ask.payload = common::web::form_payload();
    ask.payload["questions"][2]["options"][0]["label"] =
        "A label with a very long unbroken word: Donaudampfschifffahrtsgesellschaftskapitänskajüte"
            .into();
    queue.submit(&ask).unwrap();
    for dark in [false, true] {
        let driver = driver();
        run(async {
            let client = browser(&driver, 390, 844, dark).await;
            client.goto(&sign_in_link(&served)).await.unwrap();
            let shade = if dark { "dark" } else { "light" };
            wait_for(&client, "a.ask").await;
            keep_screenshot(&client, &format!("list-phone-{shade}")).await;
            client
                .goto(&format!("{}/ask/phone", served.origin()))
                .await
                .unwrap();
            // The form is the server's: a second browser finds it where the first left it.
            click(&client, "button[value='goto:0']").await;
            wait_for(&client, "[data-page=form][data-tab='0']").await;
            let width: Value = client
                .execute("return window.innerWidth", vec![])
                .await
                .unwrap();
            assert_eq!(width, json!(390), "a phone's viewport");
            for tab in 0..4 {
                let form = wait_for(&client, "[data-page=form]").await;
                let shown = form.attr("data-tab").await.unwrap();
                assert_eq!(shown.as_deref(), Some(tab.to_string().as_str()));
                let fits: Value = client
                    .execute(
                        "return document.documentElement.scrollWidth <= window.innerWidth",
                        vec![],
                    )
                    .await
                    .unwrap();
                assert_eq!(fits, json!(true), "tab {tab} scrolls sideways at 390 px");
                if tab == 2 || tab == 3 {
                    keep_screenshot(&client, &format!("form-{tab}-phone-{shade}")).await;
                }
                if tab < 3 {
                    click(&client, "button[value=next]").await;
                    wait_for(
                        &client,
                        &format!("[data-page=form][data-tab='{}']", tab + 1),
                    )
                    .await;
                }
            }
            let dark_now: Value = client
                .execute(
                    "return matchMedia('(prefers-color-scheme: dark)').matches",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(dark_now, json!(dark), "the page follows the colour scheme");
            // Every choice has its label, for a screen reader.
            let labelled: Value = client
                .execute(
                    "return [...document.querySelectorAll('input')].every(i => i.type === 'hidden' || i.labels.length > 0)",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(labelled, json!(true));
            client.close().await.unwrap();
        });
    }
}

fn the_filter_hides_the_options_that_do_not_match() {
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let mut ask = queued_ask("long", "Which region?", 1);
    let regions = [
        "Frankfurt",
        "Dublin",
        "Paris",
        "Stockholm",
        "Milan",
        "London",
        "Zurich",
        "Madrid",
        "Warsaw",
        "Oslo",
    ];
    let mut options: Vec<Value> = regions
        .iter()
        .map(|r| json!({"value": r.to_lowercase(), "label": r}))
        .collect();
    // Matched by its description only, as the terminal's filter matches it.
    options[8]["description"] = json!("Poland, the nearest to Kyiv");
    ask.payload = json!({"questions":[{"id":"region","prompt":"Which region?","options":options}]});
    queue.submit(&ask).unwrap();
    let driver = driver();
    run(async {
        let client = browser(&driver, 1024, 768, false).await;
        client.goto(&sign_in_link(&served)).await.unwrap();
        client
            .goto(&format!("{}/ask/long", served.origin()))
            .await
            .unwrap();
        let shown = async |query: &str| -> Value {
            let input = wait_for(&client, ".filter-input").await;
            input.clear().await.unwrap();
            input.send_keys(query).await.unwrap();
            wait_for(
                &client,
                &format!("[data-page=form][data-filtered='{query}']"),
            )
            .await;
            client
                .execute(
                    "return [...document.querySelectorAll('.option[data-option]')].filter(o => !o.hidden).map(o => o.querySelector('.label').textContent)",
                    vec![],
                )
                .await
                .unwrap()
        };
        // The engine ranks: fuzzily ("frnk"), on the description too, labels before
        // descriptions; the page only shows what it says.
        assert_eq!(shown("frnk").await, json!(["Frankfurt"]));
        assert_eq!(shown("kyiv").await, json!(["Warsaw"]));
        assert_eq!(shown("lon").await, json!(["London"]));
        click(&client, "label[for=o5]").await;
        wait_for(&client, "[data-page=form][data-tab='1']").await;
        click(&client, "button[value=submit]").await;
        wait_for(&client, "[data-page=outcome]").await;
        client.close().await.unwrap();
    });
    let answer = common::wait_answer(&queue, "long");
    assert_eq!(
        answer["details"]["answers"]["region"]["values"],
        json!(["london"])
    );
}

fn the_keys_of_the_persons_keymap_work_on_the_page() {
    let (home, queue) = setting();
    // The person's keymap: `l` for the next tab, `m` for an option's note.
    let config = home.path().join(".pi/agent/extensions");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("pi-ask.toml"),
        "schemaVersion = 1\n\n[keymaps.main]\nnextTab = [\"l\", \"tab\", \"right\"]\noptionNote = [\"m\"]\n",
    )
    .unwrap();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let mut ask = queued_ask("keys", "Which database?", 1);
    ask.payload = common::web::form_payload();
    queue.submit(&ask).unwrap();
    let driver = driver();
    run(async {
        // In the dark, for its screenshot of a preview question on a desktop.
        let client = browser(&driver, 1280, 800, true).await;
        client.goto(&sign_in_link(&served)).await.unwrap();
        client
            .goto(&format!("{}/ask/keys", served.origin()))
            .await
            .unwrap();
        let first = wait_for(&client, "#o0").await;
        let down: char = fantoccini::key::Key::Down.into();
        let enter: char = fantoccini::key::Key::Enter.into();
        // Down moves the focus and chooses nothing; Enter chooses the one in focus and goes on.
        first.send_keys(&down.to_string()).await.unwrap();
        let focused: Value = client
            .execute("return [document.activeElement.id, document.querySelectorAll('.option input:checked').length]", vec![])
            .await
            .unwrap();
        assert_eq!(focused, json!(["o1", 0]));
        client
            .active_element()
            .await
            .unwrap()
            .send_keys(&enter.to_string())
            .await
            .unwrap();
        wait_for(&client, "[data-page=form][data-tab='1']").await;
        // `m`, the person's key for a note, opens the note of the option in focus; `n` does not.
        let checkbox = wait_for(&client, "#o1").await;
        checkbox.send_keys("n").await.unwrap();
        let open: Value = client
            .execute(
                "return document.querySelectorAll('details.note[open]').length",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(open, json!(0), "n is not bound any more");
        checkbox.send_keys("m").await.unwrap();
        let note: Value = client
            .execute("return document.activeElement.name", vec![])
            .await
            .unwrap();
        assert_eq!(note, json!("note1"));
        // `l`, the person's key for the next tab.
        let checkbox = wait_for(&client, "#o0").await;
        checkbox.send_keys("l").await.unwrap();
        wait_for(&client, "[data-page=form][data-tab='2']").await;
        keep_screenshot(&client, "preview-desktop-dark").await;
        // A digit chooses that option (a preview question's, which goes on to the review).
        client
            .active_element()
            .await
            .unwrap()
            .send_keys("2")
            .await
            .unwrap();
        wait_for(&client, "[data-page=form][data-tab='3']").await;
        client.close().await.unwrap();
    });
}

/// The "done when": the person leaves the terminal and answers from a phone's browser
/// through an SSH-forwarded port (docs/remote.md's `ssh -L`), and the agent (`pi-ask mcp`) gets
/// the result.
fn a_phone_through_an_ssh_forwarded_port_answers_an_mcp_ask() {
    if let Some(why) = common::ssh::missing() {
        return common::not_run(&why);
    }
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    let port: u16 = served.address.rsplit(':').next().unwrap().parse().unwrap();
    let tunnel = common::ssh::Tunnel::start(common::ssh::Forward::Local, port);
    let mut mcp = Mcp::start_on(tempfile::tempdir().unwrap(), queue.clone(), &[], json!({}));
    mcp.call(5, common::web::form_payload());
    mcp.queued(1);
    let driver = driver();
    run(async {
        let client = browser(&driver, 390, 844, false).await;
        let link = format!("http://127.0.0.1:{}{}", tunnel.port, served.sign_in_path());
        client.goto(&link).await.unwrap();
        click(&client, "a.ask").await;
        click(&client, "label[for=o0]").await;
        wait_for(&client, "[data-page=form][data-tab='1']").await;
        click(&client, "label[for=o1]").await;
        wait_for(&client, "#o1:checked").await;
        click(&client, "button[value=next]").await;
        wait_for(&client, "[data-page=form][data-tab='2']").await;
        click(&client, "label[for=o0]").await;
        wait_for(&client, "[data-page=form][data-tab='3']").await;
        click(&client, "button[value=submit]").await;
        wait_for(&client, "[data-page=outcome]").await;
        client.close().await.unwrap();
    });
    let result = mcp.response(5)["result"].clone();
    assert_eq!(
        result["content"][0]["text"], "Q1: PostgreSQL\nQ2: Billing\nQ3: Cards",
        "{result}"
    );
    drop(tunnel);
}

/// A page without its script (Chromium with scripting off, so nothing refreshes it) shows
/// Staging on the review; another window picks Production; the page's Submit is refused with the
/// answers as they are now and sends nothing, and its next Submit sends what it then showed.
fn a_submit_from_a_page_another_window_changed_is_refused_in_the_browser() {
    let (home, queue) = setting();
    let served = Served::start(home.path(), queue.dir(), &[]);
    queue.submit(&queued_ask("both", "Deploy?", 1)).unwrap();
    let other = served.sign_in();
    let driver = driver();
    run(async {
        let client = browser_with(
            &driver,
            1024,
            768,
            false,
            &["--blink-settings=scriptEnabled=false"],
        )
        .await;
        // The other window signed in first: the link in the file now is a fresh one.
        client.goto(&sign_in_link(&served)).await.unwrap();
        client
            .goto(&format!("{}/ask/both", served.origin()))
            .await
            .unwrap();
        click(&client, "label[for=o0]").await;
        click(&client, "button[value=choose]").await;
        let review = text_of(&client, ".review").await;
        assert!(review.contains("Staging"), "{review}");
        let changed = served.press(&other, "both", "tab=0&act=pick:1");
        assert!(changed.body.contains("Production"), "{}", changed.body);
        click(&client, "button[value=submit]").await;
        let notice = text_of(&client, ".notice").await;
        assert!(notice.contains("Nothing was sent"), "{notice}");
        let review = text_of(&client, ".review").await;
        assert!(review.contains("Production"), "the answers now: {review}");
        assert!(queue.take_result("both").is_none(), "nothing was sent");
        click(&client, "button[value=submit]").await;
        let said = text_of(&client, "[data-page=outcome]").await;
        assert!(said.contains("The agent has your answer"), "{said}");
        client.close().await.unwrap();
    });
    assert_eq!(
        common::wait_answer(&queue, "both")["details"]["answers"]["env"]["values"][0],
        "prod"
    );
}

fn main() -> std::process::ExitCode {
    use libtest_mimic::{Arguments, Failed, Trial};
    let args = Arguments::from_args();
    let tests: &[(&str, fn())] = &[
        (
            "every_kind_of_question_is_answered_by_clicking_labels_and_buttons",
            every_kind_of_question_is_answered_by_clicking_labels_and_buttons,
        ),
        (
            "a_new_ask_appears_without_reloading",
            a_new_ask_appears_without_reloading,
        ),
        (
            "a_phone_sees_the_whole_form_without_sideways_scrolling",
            a_phone_sees_the_whole_form_without_sideways_scrolling,
        ),
        (
            "the_filter_hides_the_options_that_do_not_match",
            the_filter_hides_the_options_that_do_not_match,
        ),
        (
            "the_keys_of_the_persons_keymap_work_on_the_page",
            the_keys_of_the_persons_keymap_work_on_the_page,
        ),
        (
            "a_phone_through_an_ssh_forwarded_port_answers_an_mcp_ask",
            a_phone_through_an_ssh_forwarded_port_answers_an_mcp_ask,
        ),
        (
            "a_submit_from_a_page_another_window_changed_is_refused_in_the_browser",
            a_submit_from_a_page_another_window_changed_is_refused_in_the_browser,
        ),
    ];
    let missing = missing();
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let trials = tests
        .iter()
        .map(|(name, test)| {
            let test = *test;
            let refusal = missing.clone().filter(|_| in_ci);
            Trial::test(*name, move || match refusal {
                Some(why) => Err(Failed::from(format!(
                    "Chromium is required under CI=true: {why}"
                ))),
                None => {
                    test();
                    Ok(())
                }
            })
            .with_ignored_flag(missing.is_some() && !in_ci)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
