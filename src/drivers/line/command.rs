//! What a typed line means in line mode: the line-command table (each command's words, syntax
//! and help) and the parser that reads a line into a [`Command`] for the question or review at
//! hand, or says in a whole sentence why it cannot.
//!
//! The command words are fixed, not remappable: they are the words docs/accessibility.md teaches
//! and a screen-reader user learns once; the keys of the full-screen form stay remappable.

/// A line command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Options by number (1-based): one on a single-choice question, any set on a multi.
    Choose(Vec<usize>),
    /// A `Type your own` answer.
    Own(String),
    /// A note on option n (1-based); `None` text: the note follows on the next lines.
    OptionNote(usize, Option<String>),
    /// A note on the question; `None` text: the note follows on the next lines.
    QuestionNote(Option<String>),
    /// Print option n's preview in full.
    Preview(usize),
    /// Switch the question between one choice and several.
    ChangeType,
    /// Go to the previous question.
    Back,
    /// Go to the next question.
    Forward,
    /// Go to the review.
    Review,
    /// List the commands.
    Help,
    /// Say the current question (or the review) again.
    Repeat,
    /// Submit the answers (on the review, its Submit action).
    Submit,
    /// Ask the agent to elaborate on the notes.
    Elaborate,
    /// Cancel the form (on the review, its Cancel action).
    Cancel,
}

/// One row of the line-command table.
pub struct CommandSpec {
    /// How it is typed.
    pub syntax: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Every command, in the order `?` lists them (and docs/accessibility.md shows them).
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        syntax: "3",
        help: "choose option 3 (single choice) and go on",
    },
    CommandSpec {
        syntax: "1,3 or 1 3",
        help: "choose exactly these options (several choices) and go on",
    },
    CommandSpec {
        syntax: "o your words",
        help: "answer in your own words (Type your own); the number of Type your own followed by the words does the same",
    },
    CommandSpec {
        syntax: "n 3 text",
        help: "a note on option 3; n 3 alone starts a note of several lines, ended by a line with a single dot",
    },
    CommandSpec {
        syntax: "n text",
        help: "a note on the question; n alone starts a note of several lines, ended by a line with a single dot",
    },
    CommandSpec {
        syntax: "p 3",
        help: "print option 3's preview in full",
    },
    CommandSpec {
        syntax: "t",
        help: "switch the question between one choice and several",
    },
    CommandSpec {
        syntax: "b",
        help: "back to the previous question",
    },
    CommandSpec {
        syntax: "f",
        help: "forward to the next question (after the last one, the review)",
    },
    CommandSpec {
        syntax: "r",
        help: "the review: every answer, then submit, elaborate or cancel",
    },
    CommandSpec {
        syntax: "s",
        help: "submit the answers (on the review)",
    },
    CommandSpec {
        syntax: "e",
        help: "elaborate: ask the agent to explain the options (on the review)",
    },
    CommandSpec {
        syntax: "c",
        help: "cancel the form",
    },
    CommandSpec {
        syntax: "an empty line",
        help: "say the question again",
    },
    CommandSpec {
        syntax: "?",
        help: "this list",
    },
];

/// What the parser needs to know of where the person is.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// The question's options, `Type your own` not counted; `None` on the review.
    pub options: Option<usize>,
    /// The question takes several choices.
    pub multi: bool,
    /// A free-form question: no options, any other text is the answer.
    pub freeform: bool,
}

fn number(word: &str) -> Option<usize> {
    word.parse::<usize>().ok().filter(|n| *n > 0)
}

/// Why a typed line is not a command at its place: each says what to type instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// `s` away from the review.
    #[error("Submit works on the review; type r to see the review first.")]
    SubmitOffReview,
    /// `e` away from the review.
    #[error("Elaborate works on the review; type r to see the review first.")]
    ElaborateOffReview,
    /// Something else on the review (the line, made printable).
    #[error(
        "\"{0}\" is not a command on the review: type s to submit, e to elaborate, c to cancel, b to go back, or ? for every command."
    )]
    NotAReviewCommand(String),
    /// `o` alone.
    #[error("Type your words after o, for example: o use the staging database.")]
    NoOwnWords,
    /// `n N` for an option that does not exist.
    #[error(
        "There is no option {n} to note; the options are 1 to {options}. For a note on the question, type n and the note."
    )]
    NoOptionToNote {
        /// The number typed.
        n: usize,
        /// How many options there are.
        options: usize,
    },
    /// `p` on a question without options.
    #[error("This question has no options to preview.")]
    NothingToPreview,
    /// `p` without a valid option number.
    #[error("Type p and an option's number, 1 to {options}, to hear its preview.")]
    PreviewWhich {
        /// How many options there are.
        options: usize,
    },
    /// The number of `Type your own` alone.
    #[error(
        "Type your words after {own_number}, for example: {own_number} use the staging database."
    )]
    NoWordsAfterOwn {
        /// The number of `Type your own`.
        own_number: usize,
    },
    /// The number of `Type your own` in a list of numbers.
    #[error("Type your words after {own_number} for your own answer.")]
    OwnInAList {
        /// The number of `Type your own`.
        own_number: usize,
    },
    /// A number past the options.
    #[error("There is no option {bad}; choose 1 to {options}, or {own_number} and your own words.")]
    NoSuchOption {
        /// The number typed.
        bad: usize,
        /// How many options there are.
        options: usize,
        /// The number of `Type your own`.
        own_number: usize,
    },
    /// Several numbers for a one-choice question.
    #[error("This question takes one choice: type one number, or t to allow several.")]
    OneChoiceOnly,
    /// Words after an option's number.
    #[error(
        "Words after a number are your own answer only after {own_number} (Type your own); for a note on option {word}, type n {word} and the note."
    )]
    WordsAfterNumber {
        /// The number of `Type your own`.
        own_number: usize,
        /// The number typed, as typed.
        word: String,
    },
    /// Anything else (the line, made printable).
    #[error(
        "\"{0}\" is not a command: type a number to choose, o and your own words, or ? for every command."
    )]
    NotACommand(String),
}

/// Reads one typed line at `place`.
pub fn parse(line: &str, place: Place) -> Result<Command, Refusal> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let on_review = place.options.is_none();
    let simple = match (word, rest.is_empty()) {
        ("", _) => Some(Command::Repeat),
        ("?", true) => Some(Command::Help),
        ("b", true) => Some(Command::Back),
        ("f", true) => Some(Command::Forward),
        ("r", true) => Some(Command::Review),
        ("c", true) => Some(Command::Cancel),
        ("t", true) if !on_review => Some(Command::ChangeType),
        ("s", true) => Some(Command::Submit),
        ("e", true) => Some(Command::Elaborate),
        _ => None,
    };
    if let Some(command) = simple {
        if on_review || !matches!(command, Command::Submit | Command::Elaborate) {
            return Ok(command);
        }
        return Err(if command == Command::Submit {
            Refusal::SubmitOffReview
        } else {
            Refusal::ElaborateOffReview
        });
    }
    // What was typed, quoted back made printable (a tab or an escape typed is not echoed raw).
    let shown = crate::printable::printable(line);
    let Some(options) = place.options else {
        return Err(Refusal::NotAReviewCommand(shown));
    };
    let own_number = options + 1;
    match word {
        "o" if !rest.is_empty() => return Ok(Command::Own(rest.to_owned())),
        "o" => {
            return Err(Refusal::NoOwnWords);
        }
        "n" => {
            let (first, text) = match rest.split_once(char::is_whitespace) {
                Some((f, t)) => (f, Some(t.trim().to_owned())),
                None => (rest, None),
            };
            return match number(first) {
                Some(n) if n <= options => Ok(Command::OptionNote(n, text)),
                Some(n) => Err(Refusal::NoOptionToNote { n, options }),
                None => Ok(Command::QuestionNote(
                    (!rest.is_empty()).then(|| rest.to_owned()),
                )),
            };
        }
        "p" => {
            return match number(rest) {
                Some(n) if n <= options => Ok(Command::Preview(n)),
                _ if options == 0 => Err(Refusal::NothingToPreview),
                _ => Err(Refusal::PreviewWhich { options }),
            };
        }
        _ => {}
    }
    // Numbers: "3", "1,3", "1 3"; the number of Type your own may be followed by the words.
    if !place.freeform
        && let Some(first) = number(word.split(',').next().unwrap_or(""))
        && first == own_number
        && !word.contains(',')
    {
        return if rest.is_empty() {
            Err(Refusal::NoWordsAfterOwn { own_number })
        } else {
            Ok(Command::Own(rest.to_owned()))
        };
    }
    let words: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    // No words at all (a line of commas) is no list of numbers.
    let numbers: Option<Vec<usize>> = (!words.is_empty())
        .then(|| words.iter().map(|w| number(w)).collect())
        .flatten();
    match numbers {
        Some(numbers) if !place.freeform => {
            if let Some(bad) = numbers.iter().find(|n| **n > options) {
                return Err(if *bad == own_number {
                    Refusal::OwnInAList { own_number }
                } else {
                    Refusal::NoSuchOption {
                        bad: *bad,
                        options,
                        own_number,
                    }
                });
            }
            if numbers.len() > 1 && !place.multi {
                return Err(Refusal::OneChoiceOnly);
            }
            let mut numbers = numbers;
            numbers.sort_unstable();
            numbers.dedup();
            Ok(Command::Choose(numbers))
        }
        _ if place.freeform => Ok(Command::Own(line.to_owned())),
        _ if number(word).is_some() => Err(Refusal::WordsAfterNumber {
            own_number,
            word: word.to_owned(),
        }),
        _ => Err(Refusal::NotACommand(shown)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SINGLE: Place = Place {
        options: Some(3),
        multi: false,
        freeform: false,
    };
    const MULTI: Place = Place {
        options: Some(3),
        multi: true,
        freeform: false,
    };
    const REVIEW: Place = Place {
        options: None,
        multi: false,
        freeform: false,
    };
    const FREE: Place = Place {
        options: Some(0),
        multi: false,
        freeform: true,
    };

    #[test]
    fn numbers_choose_and_the_own_number_takes_words() {
        assert_eq!(parse("2", SINGLE), Ok(Command::Choose(vec![2])));
        assert_eq!(parse(" 3, 1 3 ", MULTI), Ok(Command::Choose(vec![1, 3])));
        assert_eq!(parse("1 3", MULTI), Ok(Command::Choose(vec![1, 3])));
        assert_eq!(
            parse("4 my own words", SINGLE),
            Ok(Command::Own("my own words".into()))
        );
        assert_eq!(
            parse("o  my own words", MULTI),
            Ok(Command::Own("my own words".into()))
        );
        assert!(
            parse("1,2", SINGLE)
                .unwrap_err()
                .to_string()
                .contains("takes one choice")
        );
        assert!(
            parse("7", SINGLE)
                .unwrap_err()
                .to_string()
                .starts_with("There is no option 7")
        );
        assert!(
            parse("4", SINGLE)
                .unwrap_err()
                .to_string()
                .contains("after 4")
        );
        assert!(
            parse("2 words", SINGLE)
                .unwrap_err()
                .to_string()
                .contains("n 2")
        );
    }

    #[test]
    fn notes_previews_and_moves() {
        assert_eq!(
            parse("n 2 check the logs", SINGLE),
            Ok(Command::OptionNote(2, Some("check the logs".into())))
        );
        assert_eq!(parse("n 2", SINGLE), Ok(Command::OptionNote(2, None)));
        assert_eq!(parse("n", SINGLE), Ok(Command::QuestionNote(None)));
        assert_eq!(
            parse("n why not both", SINGLE),
            Ok(Command::QuestionNote(Some("why not both".into())))
        );
        assert!(parse("n 9 x", SINGLE).is_err());
        assert_eq!(parse("p 3", SINGLE), Ok(Command::Preview(3)));
        assert!(parse("p", SINGLE).is_err());
        for (line, command) in [
            ("b", Command::Back),
            ("f", Command::Forward),
            ("r", Command::Review),
            ("t", Command::ChangeType),
            ("?", Command::Help),
            ("", Command::Repeat),
            ("c", Command::Cancel),
        ] {
            assert_eq!(parse(line, SINGLE), Ok(command), "{line:?}");
        }
    }

    #[test]
    fn the_review_takes_its_actions_and_nothing_else() {
        assert_eq!(parse("s", REVIEW), Ok(Command::Submit));
        assert_eq!(parse("e", REVIEW), Ok(Command::Elaborate));
        assert_eq!(parse("c", REVIEW), Ok(Command::Cancel));
        assert_eq!(parse("b", REVIEW), Ok(Command::Back));
        assert!(
            parse("1", REVIEW)
                .unwrap_err()
                .to_string()
                .contains("not a command on the review")
        );
        assert!(
            parse("s", SINGLE)
                .unwrap_err()
                .to_string()
                .contains("type r")
        );
    }

    #[test]
    fn a_line_of_commas_is_no_choice() {
        assert!(parse(",", MULTI).is_err());
        assert!(parse(" , ,", SINGLE).is_err());
    }

    #[test]
    fn a_freeform_question_takes_any_words_as_the_answer() {
        assert_eq!(
            parse("use redis", FREE),
            Ok(Command::Own("use redis".into()))
        );
        assert_eq!(parse("42", FREE), Ok(Command::Own("42".into())));
        assert_eq!(parse("b", FREE), Ok(Command::Back));
    }
}
