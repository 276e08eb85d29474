//! Diagnostic codes as data: which rule a diagnostic is about. The user sees
//! the code in brackets (`[Reshape: C2]`, `[syntax]`, `[interrupted]`); code
//! that reacts to a kind of failure matches the typed value, never the text.

use std::fmt;

/// An op's numbered constraint, or a rule that belongs to no op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The op whose rule it is (`Reshape`), if any.
    pub op: Option<String>,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The op's constraint `C<n>` (spec/ops/<op>.md).
    Constraint(u32),
    /// The text is not a program.
    Syntax,
    /// An unknown or misspelled name.
    Name,
    /// A call with the wrong arguments.
    Arity,
    /// An attribute of the wrong form.
    Attr,
    /// A `then` assertion that does not hold.
    Assert,
    /// Ctrl-C stopped the run.
    Interrupted,
    /// A value or a nesting too large for the limits (spec/language.md §8).
    Size,
    /// The memory budget (`--max-memory`) would be exceeded.
    Memory,
    /// Something the checker should have ruled out: a bug in xlet, reported.
    Internal,
    /// A use of a name whose definition already failed: the checker drops it
    /// (the definition's error says it all), so the user never sees it.
    Poisoned,
    /// Any other rule, by the name the user sees.
    Other(String),
}

impl Code {
    pub fn new(op: Option<&str>, rule: Rule) -> Code {
        Code {
            op: op.map(str::to_string),
            rule,
        }
    }

    /// `op`'s constraint `C<n>`.
    pub fn constraint(op: &str, n: u32) -> Code {
        Code::new(Some(op), Rule::Constraint(n))
    }

    /// Whether this is the rule `rule`, whichever op it belongs to.
    pub fn is(&self, rule: &Rule) -> bool {
        &self.rule == rule
    }

    /// Reads the text a code is shown as: `Op: C3`, `Op: arity`, `syntax`.
    pub fn parse(text: &str) -> Code {
        let (op, rule) = match text.split_once(": ") {
            Some((op, rule)) => (Some(op), rule),
            None => (None, text),
        };
        Code::new(op, Rule::parse(rule))
    }
}

impl Rule {
    /// Reads a rule as shown after the op's name: `C3`, `arity`, `syntax`.
    pub fn parse(text: &str) -> Rule {
        if let Some(n) = text
            .strip_prefix('C')
            .filter(|d| {
                !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && !d.starts_with('0')
            })
            .and_then(|d| d.parse().ok())
        {
            return Rule::Constraint(n);
        }
        match text {
            "syntax" => Rule::Syntax,
            "name" => Rule::Name,
            "arity" => Rule::Arity,
            "attr" => Rule::Attr,
            "assert" => Rule::Assert,
            "interrupted" => Rule::Interrupted,
            "size" => Rule::Size,
            "internal" => Rule::Internal,
            "memory" => Rule::Memory,
            "poisoned" => Rule::Poisoned,
            other => Rule::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Constraint(n) => write!(f, "C{n}"),
            Rule::Syntax => f.write_str("syntax"),
            Rule::Name => f.write_str("name"),
            Rule::Arity => f.write_str("arity"),
            Rule::Attr => f.write_str("attr"),
            Rule::Assert => f.write_str("assert"),
            Rule::Interrupted => f.write_str("interrupted"),
            Rule::Size => f.write_str("size"),
            Rule::Internal => f.write_str("internal"),
            Rule::Memory => f.write_str("memory"),
            Rule::Poisoned => f.write_str("poisoned"),
            Rule::Other(s) => f.write_str(s),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.op {
            Some(op) => write!(f, "{op}: {}", self.rule),
            None => write!(f, "{}", self.rule),
        }
    }
}

impl From<&str> for Code {
    fn from(text: &str) -> Code {
        Code::parse(text)
    }
}

impl From<String> for Code {
    fn from(text: String) -> Code {
        Code::parse(&text)
    }
}

impl From<&String> for Code {
    fn from(text: &String) -> Code {
        Code::parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_as_they_are_shown() {
        for text in [
            "Reshape: C2",
            "syntax",
            "Add: arity",
            "interrupted",
            "LoadNpy: C12",
            "memory",
            "Grad: C5",
        ] {
            assert_eq!(Code::parse(text).to_string(), text);
        }
        assert_eq!(Code::parse("Pad: C3"), Code::constraint("Pad", 3));
        assert!(Code::parse("interrupted").is(&Rule::Interrupted));
        assert_eq!(Code::parse("Op: C03").rule, Rule::Other("C03".into()));
    }
}
