//! Type-to-filter (`main.filter`, `/`): the pure model, its properties (indices are always the
//! original positions, Esc keeps the cursor, nothing is picked that was not shown), and the
//! screen through the harness.

mod common;

use common::*;
use pi_ask::model::{EditOp, FilterAction, Intent, Model, Msg, SettingsIntent, Tab, update};
use pi_ask::testing::Harness;
use proptest::prelude::*;
use serde_json::{Value, json};

const FRUITS: [&str; 12] = [
    "Apple",
    "Apricot",
    "Banana",
    "Blackberry",
    "Blueberry",
    "Cherry",
    "Coconut",
    "Date",
    "Elderberry",
    "Fig",
    "Grape",
    "Guava",
];

fn question(kind: &str, labels: &[&str]) -> Value {
    json!({
        "id": "fruit",
        "type": kind,
        "prompt": "Which fruit?",
        "options": labels.iter().enumerate().map(|(i, l)| json!({
            "value": format!("v{}", i + 1),
            "label": l,
            "description": format!("Fruit number {}", i + 1),
        })).collect::<Vec<_>>(),
    })
}

fn type_query(model: &mut Model, text: &str) {
    for c in text.chars() {
        update(model, Msg::Edit(EditOp::Insert(c.to_string())));
    }
}

#[test]
fn enter_picks_the_best_match_by_its_original_position_and_goes_on() {
    let mut m = flow(payload(vec![question("single", &FRUITS), single("next")]));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    type_query(&mut m, "gua");
    let filter = m.filter().expect("open");
    assert_eq!(filter.matches.rows()[0], 11, "Guava first");
    assert_eq!(filter.matches.hits(0), [0, 1, 2]);
    assert_eq!(m.cursor(0), 11, "the cursor follows the highlight");
    update(&mut m, Msg::Filter(FilterAction::Accept));
    assert!(m.filter().is_none());
    assert_eq!(m.tab(), Tab::Question(1), "a single question goes on");
    update(&mut m, Msg::Intent(Intent::NextTab));
    let result = json(&submit(&mut m));
    let answer = &result["details"]["answers"]["fruit"];
    assert_eq!(answer["values"], json!(["v12"]));
    assert_eq!(
        answer["indices"],
        json!([12]),
        "the original 1-based position"
    );
}

#[test]
fn esc_shows_every_option_again_with_the_cursor_on_the_highlighted_one() {
    let mut m = flow(payload(vec![question("single", &FRUITS)]));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    type_query(&mut m, "berry");
    let shown: Vec<usize> = m.filter().unwrap().matches.rows().to_vec();
    assert_eq!(shown.len(), 3, "{shown:?}");
    update(&mut m, Msg::Filter(FilterAction::Next));
    let highlighted = shown[1];
    update(&mut m, Msg::Filter(FilterAction::Close));
    assert!(m.filter().is_none());
    assert_eq!(m.cursor(0), highlighted);
    assert!(m.answer(0).selected.is_empty(), "Esc picks nothing");
}

#[test]
fn on_a_multi_question_space_toggles_matches_and_enter_keeps_the_highlighted_one_chosen() {
    let mut m = flow(payload(vec![question("multi", &FRUITS)]));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    type_query(&mut m, "ap");
    let first = m.filter().unwrap().matches.rows()[0];
    update(&mut m, Msg::Filter(FilterAction::Toggle));
    assert_eq!(m.answer(0).selected, [first]);
    assert_eq!(m.filter().unwrap().query.text(), "ap", "space is not typed");
    update(&mut m, Msg::Filter(FilterAction::Toggle));
    assert!(
        m.answer(0).selected.is_empty(),
        "a second space unchecks it"
    );
    update(&mut m, Msg::Filter(FilterAction::Next));
    let second = m.filter().unwrap().matches.rows()[1];
    update(&mut m, Msg::Filter(FilterAction::Accept));
    assert!(m.filter().is_none(), "Enter closes the filter");
    assert_eq!(m.answer(0).selected, [second]);
    assert_eq!(
        m.tab(),
        Tab::Question(0),
        "a multi question stays for more choices"
    );
}

#[test]
fn digits_pick_from_the_filtered_list_and_space_is_typed_on_a_single_question() {
    let mut m = flow(payload(vec![question("single", &FRUITS), single("next")]));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    update(&mut m, Msg::Filter(FilterAction::Toggle));
    assert_eq!(m.filter().unwrap().query.text(), " ");
    update(&mut m, Msg::Edit(EditOp::DeleteCharBackward));
    type_query(&mut m, "co");
    let second = m.filter().unwrap().matches.rows()[1];
    update(&mut m, Msg::Filter(FilterAction::Pick(9)));
    assert!(
        m.filter().is_some(),
        "a digit past the matches does nothing"
    );
    update(&mut m, Msg::Filter(FilterAction::Pick(2)));
    assert_eq!(m.answer(0).selected, [second]);
    assert_eq!(m.tab(), Tab::Question(1));
}

#[test]
fn the_filter_belongs_to_its_tab_and_never_opens_over_an_editor_or_a_freeform_question() {
    let mut m = flow(payload(vec![question("single", &FRUITS), single("b")]));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    update(&mut m, Msg::Intent(Intent::NextTab));
    assert!(m.filter().is_none(), "a tab change closes it");
    update(&mut m, Msg::Settings(SettingsIntent::Open));
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    assert!(m.filter().is_none(), "not over the settings");
    update(&mut m, Msg::Settings(SettingsIntent::Close));
    update(&mut m, Msg::Intent(Intent::LastOption));
    update(&mut m, Msg::Intent(Intent::Confirm));
    assert!(m.editor().is_some(), "the free-form row opened its editor");
    update(&mut m, Msg::Intent(Intent::OpenFilter));
    assert!(m.filter().is_none(), "not over an editor");
    let extracted = pi_ask::input::validate_extracted_payload(&json!({"questions": [{"id": "f",
        "prompt": "Say it", "options": [{"value": "freeform", "label": "Type answer", "freeform": true}]}]}))
    .unwrap();
    let mut free = Model::new(extracted, pi_ask::settings::Settings::defaults());
    update(&mut free, Msg::Intent(Intent::OpenFilter));
    assert!(
        free.filter().is_none(),
        "a freeform question has nothing to filter"
    );
}

/// An action in the filter, or a query edit.
#[derive(Debug, Clone)]
enum Step {
    Type(String),
    Backspace,
    Key(FilterAction),
}

fn any_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => "[a-gr ]{1,2}".prop_map(Step::Type),
        1 => Just(Step::Backspace),
        2 => prop_oneof![
            Just(FilterAction::Next),
            Just(FilterAction::Previous),
            Just(FilterAction::Toggle),
            Just(FilterAction::Accept),
            Just(FilterAction::Close),
            (0u8..=10).prop_map(FilterAction::Pick),
        ]
        .prop_map(Step::Key),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Whatever is typed and pressed: what gets chosen was shown at that moment, the result's
    /// indices are the options' original positions, and Esc leaves the cursor on the option that
    /// was highlighted.
    #[test]
    fn picks_are_shown_options_and_esc_keeps_the_cursor(
        multi in any::<bool>(),
        count in 1usize..=FRUITS.len(),
        steps in proptest::collection::vec(any_step(), 1..30),
    ) {
        let kind = if multi { "multi" } else { "single" };
        let mut m = flow(payload(vec![question(kind, &FRUITS[..count]), single("next")]));
        update(&mut m, Msg::Intent(Intent::OpenFilter));
        for step in steps {
            if m.filter().is_none() {
                if m.tab() != Tab::Question(0) {
                    break;
                }
                update(&mut m, Msg::Intent(Intent::OpenFilter));
            }
            let shown: Vec<usize> = m.filter().unwrap().matches.rows().to_vec();
            let highlighted = m.filter().unwrap().highlighted();
            let before = m.answer(0).selected.clone();
            let cursor_before = m.cursor(0);
            let closing = matches!(step, Step::Key(FilterAction::Close));
            match step {
                Step::Type(text) => type_query(&mut m, &text),
                Step::Backspace => { update(&mut m, Msg::Edit(EditOp::DeleteCharBackward)); }
                Step::Key(action) => { update(&mut m, Msg::Filter(action)); }
            }
            check_invariants(&m);
            for option in &m.answer(0).selected {
                prop_assert!(before.contains(option) || shown.contains(option),
                    "option {} was chosen without being shown ({:?})", option, shown);
            }
            if closing {
                // On the highlighted option, or where it was when nothing matched.
                prop_assert_eq!(m.cursor(0), highlighted.unwrap_or(cursor_before));
            }
        }
        update(&mut m, Msg::Filter(FilterAction::Close));
        let chosen = m.answer(0).selected.clone();
        while m.tab() != Tab::Review {
            update(&mut m, Msg::Intent(Intent::NextTab));
        }
        let result = json(&submit(&mut m));
        let answer = &result["details"]["answers"]["fruit"];
        let mut expected: Vec<usize> = chosen.iter().map(|o| o + 1).collect();
        expected.sort_unstable();
        let mut indices: Vec<usize> = answer["indices"].as_array().map_or(Vec::new(), |a| {
            a.iter().map(|i| i.as_u64().unwrap() as usize).collect()
        });
        indices.sort_unstable();
        prop_assert_eq!(&indices, &expected);
        for i in indices {
            let value = json!(format!("v{}", i));
            prop_assert!(answer["values"].as_array().unwrap().contains(&value), "{:?}", answer);
        }
    }
}

fn two_hundred() -> String {
    let names = ["north", "south", "east", "west", "centre"];
    let options: Vec<Value> = (1..=200)
        .map(|i| {
            json!({
                "value": format!("site-{i}"),
                "label": format!("Site {} {}", names[i % 5], i),
                "description": format!("Region {}", i % 7),
            })
        })
        .collect();
    json!({"questions": [{"id": "site", "prompt": "Which site?", "options": options}]}).to_string()
}

#[test]
fn the_filter_line_shows_the_query_the_count_and_only_the_matches() {
    let mut h = Harness::new(&two_hundred(), 80, 24).unwrap();
    assert!(h.screen_text().contains("/ filter"), "{}", h.screen_text());
    h.press("/");
    let screen = h.screen();
    let line = screen
        .iter()
        .find(|l| l.starts_with(" / "))
        .expect("the filter line");
    assert!(
        line.contains("type to filter") && line.trim_end().ends_with("200 of 200"),
        "{line}"
    );
    assert!(
        h.screen_text().contains("Esc all options"),
        "{}",
        h.screen_text()
    );
    h.type_text("centre");
    let screen = h.screen();
    let line = screen.iter().find(|l| l.starts_with(" / ")).unwrap();
    assert!(
        line.contains("centre") && line.trim_end().ends_with("40 of 200"),
        "{line}"
    );
    let text = screen.join("\n");
    assert!(text.contains("❯ 1. Site centre 4"), "{text}");
    assert!(text.contains("  2. Site centre 9"), "{text}");
    assert!(!text.contains("Site north"), "{text}");
    // Alt and a digit pick from the filtered list: the second match is option 9.
    h.press("alt+2");
    let result = serde_json::to_value(h.press("enter").result().expect("submitted")).unwrap();
    assert_eq!(result["details"]["answers"]["site"]["indices"], json!([9]));
}

/// Labels hold numbers (versions, ports, years, regions): everything printable typed while the
/// filter is open goes into the query, digits included, as in fzf; nothing is picked or answered
/// until Enter (or Alt and a digit).
#[test]
fn digits_typed_in_the_filter_go_into_the_query() {
    let options: Vec<Value> = (0..200)
        .map(|i| json!({"value": format!("r{i:03}"), "label": format!("Region {i:03}")}))
        .collect();
    let payload = json!({"questions": [
        {"id": "region", "prompt": "Which region?", "options": options},
        {"id": "other", "prompt": "And?", "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]}
    ]})
    .to_string();
    let mut h = Harness::new(&payload, 80, 24).unwrap();
    h.press("/").type_text("region 13");
    let screen = h.screen_text();
    let line = screen
        .lines()
        .find(|l| l.starts_with(" / "))
        .unwrap_or_default();
    assert!(line.contains("region 13"), "{screen}");
    assert!(
        screen.contains("Which region?"),
        "still on the question: {screen}"
    );
    assert!(screen.contains("Region 130"), "{screen}");
    assert!(!screen.contains("Region 200"), "{screen}");
    h.press("enter");
    let screen = h.screen_text();
    assert!(
        screen.contains("And?"),
        "Enter picked the highlighted match: {screen}"
    );
    h.press("shift+tab")
        .press("/")
        .type_text("19")
        .press("alt+1");
    assert!(
        h.screen_text().contains("And?"),
        "Alt+1 picked the first match"
    );
    h.press("shift+tab");
    let answers = h.model().expect("a form").answer(0).selected.clone();
    assert_eq!(answers.len(), 1, "one choice");
    assert!(
        format!("{:03}", answers[0]).contains("19"),
        "a match of 19: {answers:?}"
    );
}

#[test]
fn a_filter_that_matches_nothing_says_so() {
    let mut h = Harness::new(&two_hundred(), 80, 24).unwrap();
    h.press("/").type_text("centre");
    // Nothing matches: the list says so.
    h.type_text("zzz");
    assert!(
        h.screen_text().contains("no matching options"),
        "{}",
        h.screen_text()
    );
    assert!(h.screen_text().contains(" 0 of 200"), "{}", h.screen_text());
}

#[test]
fn option_173_of_200_takes_a_slash_three_letters_and_enter() {
    let mut labels: Vec<String> = (1..=200).map(|i| format!("Option {i}")).collect();
    labels[172] = "Quokka".into();
    let label_refs: Vec<&str> = labels.iter().map(String::as_str).collect();
    let p = payload(vec![question("single", &label_refs)]).to_string();
    let mut h = Harness::new(&p, 80, 24).unwrap();
    h.press("/").type_text("qkk").press("enter");
    // The single question went on to the review; submit it.
    h.press("enter");
    let result = serde_json::to_value(h.result().expect("submitted")).unwrap();
    assert_eq!(
        result["details"]["answers"]["fruit"]["indices"],
        json!([173])
    );
    assert_eq!(
        result["details"]["answers"]["fruit"]["values"],
        json!(["v173"])
    );
}

#[test]
fn the_preview_follows_the_highlighted_match() {
    let p = json!({"questions": [{"id": "l", "type": "preview", "prompt": "Layout?", "options": [
        {"value": "a", "label": "Stacked", "preview": "STACKED PREVIEW"},
        {"value": "b", "label": "Sidebar", "preview": "SIDEBAR PREVIEW"},
        {"value": "c", "label": "Grid", "preview": "GRID PREVIEW"}]}]})
    .to_string();
    let mut h = Harness::new(&p, 100, 24).unwrap();
    h.press("/").type_text("grd");
    let text = h.screen_text();
    assert!(
        text.contains("GRID PREVIEW") && !text.contains("STACKED PREVIEW"),
        "{text}"
    );
    h.type_text("qqq");
    let text = h.screen_text();
    assert!(
        !text.contains("PREVIEW"),
        "no match, no stale preview: {text}"
    );
}

#[test]
fn remapped_filter_keys_work_and_show_in_the_footer() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("pi-ask.toml");
    std::fs::write(
        &config,
        "schemaVersion = 5\n[keymaps.main]\nfilter = [\"ctrl+f\"]\n[keymaps.filter]\nclose = [\"ctrl+g\"]\n",
    )
    .unwrap();
    let mut h = Harness::with_config(&two_hundred(), &config, 80, 24).unwrap();
    assert!(
        h.screen_text().contains("Ctrl+F filter"),
        "{}",
        h.screen_text()
    );
    h.press("ctrl+f").type_text("west");
    assert!(
        h.screen_text().contains("Ctrl+G all options"),
        "{}",
        h.screen_text()
    );
    h.press("ctrl+g");
    assert!(h.model().unwrap().filter().is_none());
}
