//! The content comes before the hints (issue: at 60x20 a preview question showed one option and
//! three preview lines under a four-line footer; below 50 columns no key was named; at 100
//! columns `? settings` sat alone on a line). The rule, at 40/60/80/100/200 columns: the footer
//! shows its essential hints before the body loses rows, names keys at every width, and never
//! leaves one hint alone on a line.

use pi_ask::testing::Harness;

/// A preview question with descriptions, two more questions (one required).
const PAYLOAD: &str = r#"{"title":"Release","questions":[
{"id":"db","label":"Database","prompt":"Which database?","type":"preview","required":true,"options":[
 {"value":"pg","label":"Postgres","description":"Relational, battle-tested, rich SQL","preview":"Postgres 16\n- JSONB\n- logical replication\n- partitions\n- row security","recommended":true},
 {"value":"sqlite","label":"SQLite","description":"Embedded, one file, zero ops","preview":"SQLite 3.45"},
 {"value":"mongo","label":"MongoDB","description":"Documents, flexible schema","preview":"Mongo 7"}]},
{"id":"tone","label":"Tone","prompt":"Which tone?","required":true,"options":[{"value":"a","label":"Formal"},{"value":"b","label":"Casual"}]},
{"id":"x","label":"Extras","prompt":"Extras?","type":"multi","options":[{"value":"a","label":"Docs"},{"value":"b","label":"Tests"}]}
]}"#;

const WIDTHS: [u16; 5] = [40, 60, 80, 100, 200];

/// The footer's hint lines: those between the last blank line and the bottom rule.
fn hint_lines(screen: &[String]) -> Vec<String> {
    let bottom = screen
        .iter()
        .rposition(|l| l.starts_with('─'))
        .expect("the bottom rule");
    let blank = screen[..bottom]
        .iter()
        .rposition(|l| l.trim().is_empty())
        .expect("a blank line above the footer");
    screen[blank + 1..bottom].to_vec()
}

fn option_rows(screen: &[String]) -> usize {
    screen
        .iter()
        .filter(|l| {
            let l = l.trim_start_matches(['❯', ' ']);
            l.split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .count()
}

#[test]
fn keys_are_named_at_every_width_and_no_hint_sits_alone() {
    for width in WIDTHS {
        for height in [20, 40] {
            let mut form = Harness::new(PAYLOAD, width, height).unwrap();
            let screen = form.screen();
            let hints = hint_lines(&screen);
            let text = hints.join("\n");
            assert!(
                text.contains("Enter confirm") && text.contains("select"),
                "{width}x{height}: no key named\n{}",
                screen.join("\n")
            );
            // From 80 columns, where every line can hold several hints.
            if hints.len() > 1 && width >= 80 {
                for line in &hints {
                    assert!(
                        line.contains(" · "),
                        "{width}x{height}: a hint alone on a line\n{}",
                        screen.join("\n")
                    );
                }
            }
        }
    }
}

#[test]
fn the_body_keeps_its_rows_before_the_footer_shows_every_hint() {
    // 60x20: the three options show (one did, under a four-line footer).
    let mut form = Harness::new(PAYLOAD, 60, 20).unwrap();
    let screen = form.screen();
    assert!(option_rows(&screen) >= 2, "{}", screen.join("\n"));
    let hints = hint_lines(&screen).join(" ");
    assert!(
        !hints.contains("question type"),
        "only the essential hints at 60x20:\n{}",
        screen.join("\n")
    );
    // With room, every hint.
    let mut form = Harness::new(PAYLOAD, 100, 40).unwrap();
    let screen = form.screen();
    let hints = hint_lines(&screen).join(" ");
    assert!(hints.contains("t question type"), "{}", screen.join("\n"));
    assert!(hints.contains("note"), "{}", screen.join("\n"));
}

#[test]
fn required_questions_are_marked_in_the_tabs_and_named_on_the_review() {
    let mut form = Harness::new(PAYLOAD, 100, 30).unwrap();
    let screen = form.screen_text();
    assert!(
        screen.contains("☐ Database*") && screen.contains("☐ Tone*"),
        "{screen}"
    );
    assert!(
        screen.contains("☐ Extras ") && !screen.contains("Extras*"),
        "{screen}"
    );
    form.keys(&["shift+tab"]);
    let review = form.screen_text();
    assert!(review.contains("Review answers"), "{review}");
    assert_eq!(
        review.matches("→ unanswered · required").count(),
        2,
        "{review}"
    );
    assert_eq!(review.matches("→ unanswered\n").count(), 1, "{review}");
    // Advisory: the form still submits with them unanswered.
    form.keys(&["1", "1"]);
    let result = form.result().expect("submitted");
    assert!(!result.details.cancelled);
}

#[test]
fn the_review_goes_beside_its_actions_on_a_wide_screen_as_the_original_draws_it() {
    let mut form = Harness::new(PAYLOAD, 80, 30).unwrap();
    form.keys(&["shift+tab"]);
    let screen = form.screen();
    let at = screen
        .iter()
        .position(|l| l.starts_with("❯ 1. Submit"))
        .unwrap_or_else(|| panic!("{}", screen.join("\n")));
    assert_eq!(screen[at].trim_end(), "❯ 1. Submit      Review answers");
    assert_eq!(screen[at + 1].trim_end(), "  2. Elaborate");
    assert_eq!(screen[at + 2].trim_end(), "  3. Cancel      Database");
    assert_eq!(
        screen[at + 3].trim_end(),
        "                   → unanswered · required"
    );
    // Narrow: stacked, the review first.
    let mut form = Harness::new(PAYLOAD, 50, 40).unwrap();
    form.keys(&["shift+tab"]);
    let screen = form.screen_text();
    let review = screen.find(" Review answers").unwrap();
    let submit = screen.find("❯ 1. Submit").unwrap();
    assert!(review < submit, "{screen}");
}

#[test]
fn beside_a_preview_the_list_is_as_wide_as_its_descriptions_up_to_34_columns() {
    let mut form = Harness::new(PAYLOAD, 100, 30).unwrap();
    let screen = form.screen();
    let row = screen
        .iter()
        .find(|l| l.contains("2. SQLite"))
        .unwrap_or_else(|| panic!("{}", screen.join("\n")));
    // The pane starts after a 34-column list and two spaces.
    let pane = row.chars().position(|c| c == '│').unwrap();
    assert_eq!(pane, 36, "{}", screen.join("\n"));
    // Its description fits on one line.
    assert!(
        screen
            .iter()
            .any(|l| l.starts_with("     Embedded, one file, zero ops ")),
        "{}",
        screen.join("\n")
    );
}
