//! `Msg::Direct`: what line mode and pi's dialogs send for what the person meant leaves the same
//! model as the keys that would do it (the replay line mode used before), from any state.

mod common;

use common::*;
use pi_ask::model::{Direct, EditOp, Intent, Model, Msg, Tab};
use proptest::prelude::*;

/// One step of a random session: a key both models take alike, or a meaning.
#[derive(Debug, Clone)]
enum Step {
    Key(Intent),
    Choose(Vec<usize>),
    Own(String),
    Note(Option<usize>, String),
    Review,
    GoTo(usize),
    Toggle(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let keys = prop_oneof![
        Just(Intent::NextTab),
        Just(Intent::PreviousTab),
        Just(Intent::NextOption),
        Just(Intent::PreviousOption),
        Just(Intent::Toggle),
        Just(Intent::Confirm),
        Just(Intent::ChangeQuestionType),
        Just(Intent::EditorClose),
    ];
    let text = prop_oneof![
        Just(String::new()),
        Just("  mine  ".to_owned()),
        "[a-z ]{0,6}"
    ];
    prop_oneof![
        keys.prop_map(Step::Key),
        proptest::collection::vec(0usize..4, 0..4).prop_map(Step::Choose),
        text.clone().prop_map(Step::Own),
        (proptest::option::of(0usize..4), text).prop_map(|(o, t)| Step::Note(o, t)),
        Just(Step::Review),
        (0usize..6).prop_map(Step::GoTo),
        (0usize..6).prop_map(Step::Toggle),
    ]
}

/// The keys that do what `step` means, one at a time (line mode's former replay).
fn by_keys(m: &mut Model, step: &Step) {
    if let Step::GoTo(tab) = step {
        if *tab < m.tab_count() {
            let (key, n) = if *tab > m.tab_index() {
                (Intent::NextTab, tab - m.tab_index())
            } else {
                (Intent::PreviousTab, m.tab_index() - tab)
            };
            // One editor save, as one move would: the first Tab saves it, the rest find none.
            for _ in 0..n {
                send(m, [Msg::Intent(key)]);
            }
        }
        return;
    }
    let Tab::Question(q) = m.tab() else {
        if let Step::Key(intent) = step {
            send(m, [Msg::Intent(*intent)]);
        }
        return;
    };
    let options = m.questions()[q].options.len();
    let move_to = |m: &mut Model, row: usize| {
        let from = m.cursor(q);
        let key = if row > from {
            Intent::NextOption
        } else {
            Intent::PreviousOption
        };
        for _ in 0..row.abs_diff(from) {
            send(m, [Msg::Intent(key)]);
        }
    };
    let edit = |m: &mut Model, text: &str| {
        send(
            m,
            [
                Msg::Edit(EditOp::ReplaceAll(text.to_owned())),
                Msg::Intent(Intent::EditorSubmit),
            ],
        );
    };
    match step {
        Step::Key(intent) => {
            send(m, [Msg::Intent(*intent)]);
        }
        Step::Choose(chosen) if chosen.iter().any(|&o| o >= options) => {}
        Step::Choose(chosen) if m.questions()[q].presented_type.is_multi() => {
            for i in 0..options {
                if m.answer(q).is_selected(i) != chosen.contains(&i) {
                    move_to(m, i);
                    send(m, [Msg::Intent(Intent::Toggle)]);
                }
            }
            send(m, [Msg::Intent(Intent::NextTab)]);
        }
        Step::Choose(chosen) => {
            if let Some(&first) = chosen.first() {
                move_to(m, first);
                send(m, [Msg::Intent(Intent::Confirm)]);
            }
        }
        Step::Own(text) => {
            move_to(m, m.questions()[q].custom_row());
            if m.editor().is_none() {
                send(m, [Msg::Intent(Intent::Confirm)]);
            }
            edit(m, text);
            if m.tab() == Tab::Question(q) && !m.is_finished() {
                send(m, [Msg::Intent(Intent::NextTab)]);
            }
        }
        Step::Note(Some(option), _) if *option >= options => {}
        Step::Note(option, text) => {
            match option {
                Some(i) => {
                    move_to(m, *i);
                    send(m, [Msg::Intent(Intent::OptionNote)]);
                }
                None => {
                    send(m, [Msg::Intent(Intent::QuestionNote)]);
                }
            }
            edit(m, text);
        }
        Step::Toggle(row) if *row > options => {}
        Step::Toggle(row) => {
            move_to(m, *row);
            send(m, [Msg::Intent(Intent::Toggle)]);
        }
        Step::GoTo(_) => unreachable!("handled above"),
        Step::Review => {
            for _ in 0..m.tab_count() {
                if m.tab() == Tab::Review {
                    break;
                }
                send(m, [Msg::Intent(Intent::NextTab)]);
            }
        }
    }
}

fn meant(m: &mut Model, step: &Step) {
    let msg = match step {
        Step::Key(intent) => Msg::Intent(*intent),
        Step::Choose(options) => Msg::Direct(Direct::Choose(options.clone())),
        Step::Own(text) => Msg::Direct(Direct::Own(text.clone())),
        Step::Note(option, text) => Msg::Direct(Direct::Note {
            option: *option,
            text: text.clone(),
        }),
        Step::Review => Msg::Direct(Direct::Review),
        Step::GoTo(tab) => Msg::Direct(Direct::GoTo(*tab)),
        Step::Toggle(row) => Msg::Direct(Direct::Toggle(*row)),
    };
    send(m, [msg]);
}

/// What the person can tell apart: answers, where they are, what is open, whether it ended.
fn seen(m: &Model) -> String {
    let cursor = match m.tab() {
        Tab::Question(q) => Some(m.cursor(q)),
        Tab::Review => None,
    };
    format!(
        "{:?} tab {:?} cursor {cursor:?} editor {:?} finished {}",
        m.answers(),
        m.tab(),
        m.editor().map(|e| (e.target, e.edit.text().to_owned())),
        m.is_finished()
    )
}

fn form() -> serde_json::Value {
    let mut preview = single("look");
    preview["type"] = "preview".into();
    for (i, option) in ["one line", "two\nlines", "three"].into_iter().enumerate() {
        preview["options"][i]["preview"] = option.into();
    }
    payload(vec![single("one"), multi("two"), preview])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_meaning_leaves_the_model_the_keys_would(steps in proptest::collection::vec(step(), 1..12)) {
        let (mut keys, mut direct) = (flow(form()), flow(form()));
        for step in &steps {
            by_keys(&mut keys, step);
            meant(&mut direct, step);
            prop_assert_eq!(seen(&keys), seen(&direct), "after {:?}", step);
            check_invariants(&direct);
        }
    }
}

#[test]
fn choosing_several_on_a_multi_question_sets_exactly_them_and_goes_on() {
    let mut m = flow(form());
    send(&mut m, [Msg::Intent(Intent::NextTab)]);
    send(&mut m, [Msg::Direct(Direct::Choose(vec![2, 0]))]);
    assert_eq!(m.answer(1).selected, vec![0, 2]);
    assert_eq!(m.tab(), Tab::Question(2));
    // Out of range: nothing happens (a driver checks first; the model never panics).
    send(&mut m, [Msg::Direct(Direct::Choose(vec![9]))]);
    assert_eq!(m.tab(), Tab::Question(2));
    assert!(m.answer(2).selected.is_empty());
}
