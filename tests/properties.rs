//! Properties: no sequence of messages panics or leaves a cursor out of range, and every
//! finished result re-serializes to the same JSON.

mod common;

use common::*;
use pi_ask::model::{
    Cmd, External, FilterAction, Intent, Model, Msg, PopupAction, Report, SettingsIntent,
    ViewMeasures, update, update_in_view,
};
use pi_ask::result::AskResult;
use pi_ask::settings::{Setting, Settings};
use pi_ask::stores::queue::AskQueue;
use pi_ask_components::EditOp;
use proptest::prelude::*;

/// What a frame may have measured (any page size and preview range, or never drawn).
fn any_measures() -> impl Strategy<Value = ViewMeasures> {
    prop_oneof![
        Just(ViewMeasures::default()),
        (0usize..40, 0u16..50, 0u16..30)
            .prop_map(|(rows, max, page)| ViewMeasures::new(rows, max, page)),
    ]
}

fn any_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        Just(Msg::Report(Report::Opened)),
        Just(Msg::Intent(Intent::NextTab)),
        Just(Msg::Intent(Intent::PreviousTab)),
        Just(Msg::Intent(Intent::NextOption)),
        Just(Msg::Intent(Intent::PreviousOption)),
        Just(Msg::Intent(Intent::FirstOption)),
        Just(Msg::Intent(Intent::LastOption)),
        Just(Msg::Intent(Intent::PageDown)),
        Just(Msg::Intent(Intent::PageUp)),
        Just(Msg::Intent(Intent::PreviewDown)),
        Just(Msg::Intent(Intent::PreviewUp)),
        Just(Msg::Intent(Intent::PreviewPageDown)),
        Just(Msg::Intent(Intent::PreviewPageUp)),
        Just(Msg::Intent(Intent::Confirm)),
        Just(Msg::Intent(Intent::Cancel)),
        Just(Msg::Intent(Intent::Toggle)),
        (0u8..=10).prop_map(|n| Msg::Intent(Intent::Number(n))),
        Just(Msg::Intent(Intent::OpenFilter)),
        Just(Msg::Intent(Intent::ToggleHidden)),
        Just(Msg::Intent(Intent::ExternalEditor)),
        prop_oneof![
            Just(FilterAction::Next),
            Just(FilterAction::Previous),
            Just(FilterAction::Accept),
            Just(FilterAction::Toggle),
            Just(FilterAction::Close),
            (0u8..=10).prop_map(FilterAction::Pick),
        ]
        .prop_map(Msg::Filter),
        Just(Msg::Intent(Intent::OptionNote)),
        Just(Msg::Intent(Intent::QuestionNote)),
        Just(Msg::Intent(Intent::ChangeQuestionType)),
        "[a-z \n]{0,6}".prop_map(|t| Msg::Edit(EditOp::ReplaceAll(t))),
        Just(Msg::Intent(Intent::EditorSubmit)),
        Just(Msg::Intent(Intent::EditorClose)),
        Just(Msg::Intent(Intent::Dismiss)),
        Just(Msg::Settings(SettingsIntent::Open)),
        Just(Msg::Settings(SettingsIntent::Close)),
        Just(Msg::Settings(SettingsIntent::Next)),
        Just(Msg::Settings(SettingsIntent::Previous)),
        Just(Msg::Settings(SettingsIntent::Toggle)),
        Just(Msg::Report(Report::ResetWindowExpired)),
        // A malformed remote answer (wrong question count) is ignored; a cancel ends the flow.
        Just(Msg::External(External::RemoteAnswer {
            answers: Vec::new(),
            elaborate: false
        })),
        Just(Msg::External(External::RemoteCancel)),
        any_edit().prop_map(Msg::Edit),
        prop_oneof![
            Just(PopupAction::Next),
            Just(PopupAction::Previous),
            Just(PopupAction::Accept),
            Just(PopupAction::Complete),
            Just(PopupAction::Close),
        ]
        .prop_map(Msg::Popup),
        (
            0u64..12,
            proptest::collection::vec(("[a-z/ é]{0,8}", any::<bool>()), 0..4),
            0usize..30,
            any::<bool>()
        )
            .prop_map(|(generation, items, total, truncated)| Msg::Report(
                Report::Suggestions {
                    generation,
                    matches: pi_ask::files::Matches {
                        items: items
                            .into_iter()
                            .map(|(path, is_dir)| pi_ask::files::Suggestion { path, is_dir })
                            .collect(),
                        total,
                    },
                    truncated,
                }
            )),
    ]
}

/// Every editing operation, with text that includes `@` tokens, quotes, line breaks and
/// multi-byte characters.
fn any_edit() -> impl Strategy<Value = EditOp> {
    prop_oneof![
        "[a-z@\"/ é日\n]{0,4}".prop_map(EditOp::Insert),
        "[a-z@\"/ é\r\n\t\u{7}]{0,6}".prop_map(EditOp::Paste),
        Just(EditOp::NewLine),
        Just(EditOp::DeleteCharBackward),
        Just(EditOp::DeleteCharForward),
        Just(EditOp::DeleteWordBackward),
        Just(EditOp::DeleteWordForward),
        Just(EditOp::DeleteToLineStart),
        Just(EditOp::DeleteToLineEnd),
        Just(EditOp::CursorLeft),
        Just(EditOp::CursorRight),
        Just(EditOp::CursorWordLeft),
        Just(EditOp::CursorWordRight),
        Just(EditOp::CursorLineStart),
        Just(EditOp::CursorLineEnd),
        Just(EditOp::CursorUp),
        Just(EditOp::CursorDown),
    ]
}

fn any_settings() -> impl Strategy<Value = Settings> {
    // Every setting of the settings table, each on or off.
    (any::<[bool; Setting::ALL.len()]>()).prop_map(|b| {
        let mut s = Settings::defaults();
        for (setting, on) in Setting::ALL.into_iter().zip(b) {
            s.set(setting, on);
        }
        s
    })
}

fn fixture_form(index: usize) -> pi_ask::form::Form {
    let p = match index {
        0 => payload(vec![single("a"), multi("b")]),
        1 => serde_json::from_str(include_str!("../fixtures/payloads/showcase.json")).unwrap(),
        _ => serde_json::from_str(include_str!("../fixtures/payloads/planning.json")).unwrap(),
    };
    form(p)
}

fn round_trips(result: &AskResult) {
    let text = serde_json::to_string(result).unwrap();
    let back: AskResult = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, result);
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn no_message_sequence_panics_or_breaks_invariants(
        which in 0usize..3,
        settings in any_settings(),
        files in any::<bool>(),
        msgs in proptest::collection::vec((any_msg(), any_measures()), 0..80),
    ) {
        let m = Model::new(fixture_form(which), settings);
        let mut m = if files { m.with_file_suggestions() } else { m };
        check_invariants(&m);
        let mut finishes = 0;
        for (msg, view) in msgs {
            for cmd in update_in_view(&mut m, msg, &view) {
                if let Cmd::Finish(result) = cmd {
                    finishes += 1;
                    round_trips(&result);
                }
            }
            check_invariants(&m);
        }
        prop_assert!(finishes <= 1, "a flow finishes at most once");
        prop_assert_eq!(finishes == 1, m.is_finished());
    }

    /// The terminal runtime sizes its inline area (`natural_height`) before drawing, and the
    /// frame laid out for that is drawn as it was laid out: after any messages, sized or not, and
    /// with a message between sizing and drawing, the frame is the one a fresh layout draws.
    #[test]
    fn a_frame_laid_out_for_sizing_draws_what_a_fresh_layout_draws(
        which in 0usize..3,
        width in 1u16..=160,
        height in 1u16..=50,
        steps in proptest::collection::vec((any_msg(), 0u8..3), 0..40),
    ) {
        let area = ratatui::layout::Rect::new(0, 0, width, height);
        let app = |form| pi_ask::tui::App::new(
            form,
            Settings::defaults(),
            pi_ask::keymap::BindingTable::default(),
            String::new(),
            None,
        );
        let mut sized = app(fixture_form(which));
        let mut fresh = app(fixture_form(which));
        let mut sized_buf = ratatui::buffer::Buffer::empty(area);
        let mut fresh_buf = ratatui::buffer::Buffer::empty(area);
        for (msg, when) in steps {
            // 0: sized, then the message, then drawn; 1: the message, sized, drawn; 2: not sized.
            if when == 0 {
                sized.natural_height(width);
            }
            sized.update(msg.clone());
            fresh.update(msg);
            if when == 1 {
                sized.natural_height(width);
            }
            sized_buf.reset();
            fresh_buf.reset();
            let sized_drawn = sized.draw(area, &mut sized_buf);
            let fresh_drawn = fresh.draw(area, &mut fresh_buf);
            prop_assert_eq!(sized_drawn, fresh_drawn);
            prop_assert_eq!(&sized_buf, &fresh_buf);
        }
    }

    #[test]
    fn submitting_any_reachable_state_gives_a_round_tripping_result(
        msgs in proptest::collection::vec(any_msg(), 0..60),
        elaborate_it in any::<bool>(),
    ) {
        let mut m = Model::new(fixture_form(1), Settings::defaults());
        for msg in msgs {
            update(&mut m, msg);
        }
        if !m.is_finished() {
            // A hidden form takes no action but showing it (and dismiss).
            if m.is_hidden() {
                update(&mut m, Msg::Intent(Intent::ToggleHidden));
            }
            let action = if elaborate_it { pi_ask::model::ReviewAction::Elaborate } else { pi_ask::model::ReviewAction::Submit };
            let cmds = update(&mut m, Msg::Settings(SettingsIntent::Close)).into_iter().chain(update(&mut m, Msg::Intent(Intent::Review(action)))).collect::<Vec<_>>();
            let result = finished(&cmds).expect("a review action always finishes");
            round_trips(&result);
            // Every question is accounted for in the text.
            if !elaborate_it {
                prop_assert_eq!(result.text().lines().filter(|l| !l.contains(" note: ") && !l.starts_with("Note:")).count() >= m.questions().len(), true);
            }
        }
    }
}

proptest! {
    #[test]
    fn path_words_and_terminal_bytes_never_panic(text in "\\PC{0,40}", bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let word = pi_ask::files::path_word(&text);
        prop_assert!(word.len_chars <= text.chars().count());
        let _ = pi_ask::tui::bytes::decode(&bytes);
    }
}

/// Any JSON value, a few levels deep (for config sections).
fn any_json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::String),
        "#[0-9a-fA-F]{6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        let key = prop_oneof![
            Just("name".to_owned()),
            Just("colors".to_owned()),
            Just("accent".to_owned()),
            Just("selectedBg".to_owned()),
            "[a-zA-Z]{1,8}",
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map(key, inner, 0..5)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn colour_values_parse_or_are_refused_never_panic_and_hex_round_trips(
        text in "\\PC{0,16}",
        (r, g, b) in (any::<u8>(), any::<u8>(), any::<u8>()),
    ) {
        use pi_ask_components::theme::{ColorDepth, parse_color};
        use ratatui::style::Color;
        if let Ok(color) = parse_color(&text) {
            for depth in [ColorDepth::TrueColor, ColorDepth::Ansi256, ColorDepth::Ansi16, ColorDepth::None] {
                let _ = depth.reduce(color);
            }
        }
        let hex = format!("#{r:02x}{g:02X}{b:02x}");
        prop_assert_eq!(parse_color(&hex), Ok(Color::Rgb(r, g, b)));
        // 256 colours never pick the first 16 (they differ between terminals).
        prop_assert!(matches!(ColorDepth::Ansi256.reduce(Color::Rgb(r, g, b)), Color::Indexed(i) if i >= 16));
        prop_assert_eq!(ColorDepth::None.reduce(Color::Rgb(r, g, b)), Color::Reset);
    }

    #[test]
    fn any_theme_section_loads_with_notices_and_never_rejects_the_config(theme in any_json()) {
        use pi_ask::stores::config::config_from_tree;
        use pi_ask::keymap::KeymapSource;
        let tree = serde_json::json!({"schemaVersion": 5, "theme": theme});
        let (config, _) = config_from_tree(tree, KeymapSource::Toml)
            .expect("a bad [theme] is a notice, not an invalid config");
        prop_assert!(config.theme.colors.len() <= 11 * 5);
        let chosen = pi_ask::tui::Appearance::default().choose(&config.theme);
        prop_assert!(!chosen.label().is_empty());
    }

    #[test]
    fn any_config_tree_is_read_or_refused_without_panicking(tree in any_json()) {
        use pi_ask::stores::config::config_from_tree;
        use pi_ask::keymap::KeymapSource;
        let mut tree = tree;
        if let Some(root) = tree.as_object_mut() {
            root.insert("schemaVersion".into(), serde_json::json!(5));
        }
        let is_table = tree.is_object();
        let keys: Vec<String> = tree
            .as_object()
            .map(|root| root.keys().cloned().collect())
            .unwrap_or_default();
        match config_from_tree(tree, KeymapSource::Toml) {
            // A versioned table is always read: a bad value costs only itself, and each problem
            // is at a key the tree has (so it can be placed at its line).
            Ok((_, problems)) => {
                for problem in &problems {
                    let top = problem.key.first();
                    prop_assert!(top.is_some_and(|k| keys.contains(k)), "{:?}", problem);
                }
            }
            Err(refused) => prop_assert!(!is_table, "a table was refused whole: {}", refused),
        }
    }
}

/// Lines of history or session files: real fragments, JSON-ish noise and arbitrary text.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#"{"type":"session","version":3,"id":"s"}"#.to_owned()),
        Just(r#"{"type":"session","id":"s"}"#.to_owned()),
        Just(r#"{"type":"message","id":"a","parentId":"a","message":{"role":"assistant","stopReason":"stop","content":[{"type":"toolCall","id":"c","name":"ask_user","arguments":{"questions":[{"id":"q","prompt":"P","options":[{"value":"v","label":"L"}]}]}}]}}"#.to_owned()),
        Just(r#"{"type":"custom","id":"p","parentId":"a","customType":"ask:payload","data":{"version":1,"source":"tool","params":{},"sourceEntryId":"c"}}"#.to_owned()),
        Just(r#"{"type":"custom","id":"d","parentId":"p","customType":"ask:pending-dismissed","data":{"toolCallId":"c"}}"#.to_owned()),
        Just(r#"{"event":"open","id":"x","source":"ask:resume","at":"t","cwd":"/","payload":{},"process":{"pid":1},"origin":{"reopens":"x"}}"#.to_owned()),
        Just(r#"{"event":"end","id":"x","at":"t","status":"cancelled","result":{}}"#.to_owned()),
        Just(r#"{"event":"dismiss","at":"t","id":"x"}"#.to_owned()),
        "\\PC{0,60}",
        any_json().prop_map(|v| v.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// History and session readers take any bytes: torn, cyclic, or garbage lines never panic,
    /// and lookups on whatever they read never panic either.
    #[test]
    fn history_and_session_readers_never_panic(lines in proptest::collection::vec(any_line(), 0..12), tail in "\\PC{0,20}") {
        let text = format!("{}\n{tail}", lines.join("\n"));
        let history = pi_ask::stores::history::parse_history(text.as_bytes());
        let _ = history.resumable(&|_| false);
        let _ = history.latest(&[pi_ask::stores::history::Source::Tool]);
        if let Ok(file) = pi_ask::stores::pi_session::parse_session(&text, std::path::Path::new("s.jsonl")) {
            let branch = file.branch();
            prop_assert!(branch.len() <= file.entries.len());
            let _ = pi_ask::stores::pi_session::pending_call(&branch, &|_| false);
            let _ = pi_ask::stores::pi_session::latest_tool_form(&branch);
            let _ = pi_ask::stores::pi_session::latest_assistant_turn(&branch);
        }
    }

    /// Whatever a model prints is read without panicking, and the built-in extractor turns any
    /// prose into a form that validates (or into no questions).
    #[test]
    fn extraction_never_panics_and_builtin_forms_always_validate(text in "(\\PC|\n|\\?|: | or | vs |/| — |`|Also, |And |Should I |1\\. |- |\\(a\\) |```){0,80}") {
        let _ = pi_ask::extract::candidate_from_output(&text);
        let payload = pi_ask::extract::builtin::extract(&text);
        let checked = pi_ask::extract::check_candidate(&payload);
        prop_assert!(checked.is_ok(), "{payload}: {:?}", checked.err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any submit built from a form's ids and values (and junk) is validated without panicking;
    /// an accepted one, applied after any UI messages, finishes with a round-tripping result.
    #[test]
    fn remote_submits_are_validated_and_applied_without_breaking_the_flow(
        index in 0usize..3,
        before in proptest::collection::vec(any_msg(), 0..12),
        picks in proptest::collection::vec((0usize..8, proptest::collection::vec(0usize..8, 0..4), any::<bool>(), any::<u8>()), 0..5),
        junk in any_json(),
    ) {
        let form = fixture_form(index);
        let mut answers = serde_json::Map::new();
        for (q, values, text, kind) in &picks {
            let Some(question) = form.questions.get(*q % form.questions.len()) else { continue };
            let values: Vec<serde_json::Value> = values
                .iter()
                .map(|v| question.options.get(*v).map_or("nope".into(), |o| o.value.clone().into()))
                .collect();
            let mut answer = serde_json::json!({"values": values});
            if *text { answer["customText"] = "typed".into(); }
            if kind % 7 == 0 { answer = junk.clone(); }
            answers.insert(question.id.clone(), answer);
        }
        let submit = serde_json::json!({"version": 1, "requestId": "r", "flowId": "f",
            "response": {"kind": "answer", "answers": answers}});
        let mut model = Model::new(form.clone(), Settings::defaults());
        for msg in before { let _ = update(&mut model, msg); }
        let _ = pi_ask::remote::validate_submit(&junk, "f", &form.questions);
        if let Ok(accepted) = pi_ask::remote::validate_submit(&submit, "f", &form.questions) {
            let pi_ask::remote::RemoteResponse::Answer { answers, .. } = accepted.response else {
                panic!("an answer submit")
            };
            let cmds = update(&mut model, Msg::External(External::RemoteAnswer { answers, elaborate: false }));
            for cmd in cmds {
                if let Cmd::Finish(result) = cmd { round_trips(&result); }
            }
            check_invariants(&model);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A queue folder with any files in it (garbage, half-named claims, foreign JSON) never makes
    /// the inbox's scan panic, and a well-formed ask among them is still found.
    #[test]
    fn the_queue_scan_survives_any_files(files in proptest::collection::vec(("(\\PC{0,12})(\\.ask\\.json|\\.claim\\.[0-9]{0,6}\\.[0-9]{0,4}\\.json|\\.result\\.json|\\.withdrawn|)", "\\PC{0,40}"), 0..8)) {
        let dir = tempfile::tempdir().unwrap();
        let queue = pi_ask::stores::queue::Queue::open(dir.path().join("q")).unwrap();
        for (name, content) in &files {
            if name.contains('/') || name.starts_with("good") || name.is_empty() || name == "." || name == ".." {
                continue;
            }
            let _ = std::fs::write(queue.dir().join(name), content);
        }
        let good = pi_ask::stores::queue::QueuedAsk {
            id: "goodask".into(),
            created_at: 1,
            client: "c".into(),
            cwd: "/".into(),
            asker: pi_ask::stores::history::ProcessId::current(),
            payload: serde_json::json!({}),
        };
        queue.submit(&good).unwrap();
        let pending = queue.pending();
        prop_assert!(pending.iter().any(|a| a.id == "goodask"));
    }
}

/// Payload-shaped JSON with any values where the fields go.
fn any_payload() -> impl Strategy<Value = serde_json::Value> {
    let option = (
        any_json(),
        any_json(),
        proptest::option::of(any_json()),
        proptest::option::of(any_json()),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(value, label, description, preview, recommended)| {
            let mut o = serde_json::json!({"value": value, "label": label});
            if let Some(d) = description {
                o["description"] = d;
            }
            if let Some(p) = preview {
                o["preview"] = p;
            }
            if let Some(r) = recommended {
                o["recommended"] = r.into();
            }
            o
        });
    let question = (
        prop_oneof![Just(serde_json::json!("q")), Just(serde_json::json!("r")), any_json()],
        any_json(),
        prop_oneof![Just(serde_json::json!("single")), Just(serde_json::json!("multi")), Just(serde_json::json!("preview")), any_json()],
        proptest::collection::vec(option, 0..4),
    )
        .prop_map(|(id, prompt, kind, options)| serde_json::json!({"id": id, "prompt": prompt, "type": kind, "options": options}));
    (
        proptest::option::of(any_json()),
        proptest::collection::vec(question, 0..4),
    )
        .prop_map(|(title, questions)| {
            let mut p = serde_json::json!({"questions": questions});
            if let Some(t) = title {
                p["title"] = t;
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Structured arbitrary payloads: validated or refused with issues, never a panic; a valid
    /// one runs a flow to a round-tripping result.
    #[test]
    fn structured_arbitrary_payloads_validate_or_list_their_issues(p in any_payload()) {
        match pi_ask::input::validate_payload(&p) {
            Ok(form) => {
                let mut model = Model::new(form, Settings::defaults());
                let _ = update(&mut model, Msg::Intent(Intent::Number(1)));
                let cmds = update(&mut model, Msg::Intent(Intent::Review(pi_ask::model::ReviewAction::Submit)));
                for cmd in cmds {
                    if let Cmd::Finish(result) = cmd { round_trips(&result); }
                }
            }
            Err(invalid) => prop_assert!(!invalid.issues.is_empty()),
        }
        let _ = pi_ask::input::validate_extracted_payload(&p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The compact index gives back exactly the entries it was given, across chunk boundaries,
    /// shared and new folders, and any characters.
    #[test]
    fn the_compact_index_stores_entries_exactly(
        entries in proptest::collection::vec(("[a-zé日/._ -]{1,24}", any::<bool>()), 0..2500),
    ) {
        let entries: Vec<pi_ask::files::FileEntry> = entries
            .into_iter()
            .map(|(p, d)| pi_ask::files::FileEntry::new(p.trim_matches('/').to_owned() + "x", d))
            .collect();
        let index = pi_ask::files::FileIndex::from_entries(std::path::Path::new("."), entries.clone());
        prop_assert_eq!(index.entries(), entries);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The editing fuzz target's checks on arbitrary bytes: caret, line breaks, shown rows and
    /// the row cache against a fresh layout.
    #[test]
    fn editing_keeps_the_caret_the_rows_and_their_cache_right(
        data in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        pi_ask::fuzzing::editing(&data);
    }
}
