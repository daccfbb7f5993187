//! `src/regex.rs` against the `regex` crate: both must agree on whether a pattern matches
//! somewhere in a text, JSON Schema's `pattern` (an unanchored search).
//!
//! The input's bytes drive a generator of a pattern tree in the syntax the two engines share: literals (raw, or written as ECMAScript's `\t \n \v \f \r`, `\cX`, `\xHH`, `\uHHHH`,
//! `\u{...}` or a surrogate pair of `\u` escapes), `.`, classes with ranges, negation and
//! class escapes, `\d \w \s \D \W \S`, `^ $ \b \B`, capturing, named and `(?:)` groups,
//! alternation (empty branches too), `* + ?`, `{n}`, `{n,}`, `{n,m}` and their lazy forms. The
//! first byte says how many bytes at the end make the text: either one character each, from a
//! small alphabet chosen for the edges (ASCII word characters, every ECMAScript white space and
//! line terminator and some that are not, U+0085, U+180E, U+200B; `ſ` and the Kelvin sign; a
//! character outside the BMP; the pattern's own syntax characters), or the choices of a text
//! sampled from the pattern's tree, which the pattern often matches. That text is tried, and
//! the empty one.
//!
//! The tree is written twice: as ECMA-262 (`u` flag) for this crate, and in the `regex`
//! crate's syntax with the same meaning, where the two differ:
//!
//! - `\d`, `\w` are ASCII in ECMAScript (`[0-9]`, `[0-9A-Za-z_]`); `\s` is ECMAScript's
//!   WhiteSpace and LineTerminator, written `[\t\n\x0B\x0C\r\x{FEFF}\x{2028}\x{2029}\p{Zs}]`
//!   from the standard's definition (not from the engine's table); the negated ones are the
//!   negated classes, nested inside a class (`[a[^0-9]]`);
//! - `.` excludes only the four line terminators: `[^\n\r\x{2028}\x{2029}]`;
//! - `^` and `$` are the text's edges (no `m` flag): `\A` and `\z`; `\b` and `\B` use ASCII
//!   word characters: `(?-u:\b)` and `(?-u:\B)`;
//! - `[]` matches nothing and `[^]` anything: `[^\x{0}-\x{10FFFF}]` and `[\x{0}-\x{10FFFF}]`;
//! - every literal is written `\x{...}` on the `regex` side, so nothing needs escaping there;
//! - group names are renamed (`regex` takes no `$` or non-ASCII in a name); captures and
//!   laziness do not change whether a match exists.
//!
//! Known differences, which the target allows: this crate refuses a pattern that compiles to
//! more than `regex::MAX_PROGRAM` instructions (counted repetitions are copied out, so
//! `((a{9}){9}){9}` is refused, by name, as the docs say), and `regex` refuses one over its
//! compiled-size limit. Any other refusal by either side fails the run: the generator writes
//! only what both read. A pattern past [`HEAVY`] (counted repetitions copied out, classes
//! weighing more than characters) is not compared, only run through this crate: compiling it
//! in the `regex` crate takes milliseconds, and the first run of this target spent most of
//! its time there.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::fmt::Write as _;
use tool_schema::regex::Regex;

/// The characters of literals, class bounds and texts.
const ALPHABET: &[char] = &[
    'a',
    'b',
    'c',
    'x',
    'A',
    'Z',
    '0',
    '9',
    '_',
    '-',
    ' ',
    '.',
    '\t',
    '\n',
    '\r',
    '\u{b}',
    '\u{c}',
    '\0',
    '\u{8}',
    '\u{1f}',
    '\u{a0}',
    '\u{85}',
    '\u{1680}',
    '\u{180e}',
    '\u{2007}',
    '\u{200b}',
    '\u{2028}',
    '\u{2029}',
    '\u{202f}',
    '\u{3000}',
    '\u{feff}',
    'é',
    'ſ',
    '\u{212a}',
    '😀',
    '\u{10ffff}',
    ']',
    '[',
    '\\',
    '^',
    '$',
    '{',
    '}',
    '(',
    ')',
    '|',
    '*',
    '+',
    '?',
    '/',
];

/// ECMAScript's SyntaxCharacter and `/`: escaped to stand for themselves.
const SYNTAX: &str = "^$\\.*+?()[]{}|/";

/// ECMAScript's `\s`, WhiteSpace and LineTerminator (ECMA-262 12.2, 12.3), as `regex` class
/// items: TAB, VT, FF, ZWNBSP, every Zs, LF, CR, LS, PS.
const SPACE: &str = r"\t\n\x0B\x0C\r\x{FEFF}\p{Zs}\x{2028}\x{2029}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";

/// The fuzzer's bytes, read as choices; zeros once they run out.
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn char(&mut self) -> char {
        ALPHABET[self.below(ALPHABET.len())]
    }
}

/// `\d`, `\w`, `\s` and their negations.
#[derive(Clone, Copy, Debug)]
enum Escape {
    Digit,
    Word,
    Space,
}

#[derive(Debug)]
enum Item {
    /// A character, and how ECMAScript spells it (a choice, read modulo what applies).
    Char(char, u8),
    Range(char, u8, char, u8),
    Escape(Escape, bool),
}

#[derive(Debug)]
enum Node {
    Char(char, u8),
    Dot,
    Class(bool, Vec<Item>),
    Escape(Escape, bool),
    Start,
    End,
    Boundary(bool),
    /// A group: 0 capturing, 1 `(?:`, 2 named.
    Group(u8, Box<Node>),
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        lazy: bool,
    },
}

/// Bounds the tree: at most this many nodes, and groups this deep.
struct Budget {
    nodes: usize,
    depth: usize,
}

fn alternation(c: &mut Choices<'_>, budget: &mut Budget) -> Node {
    let branches = if c.below(4) == 3 { 2 + c.below(2) } else { 1 };
    let mut nodes: Vec<Node> = (0..branches).map(|_| concat(c, budget)).collect();
    if nodes.len() == 1 {
        nodes.pop().unwrap_or(Node::Concat(Vec::new()))
    } else {
        Node::Alternate(nodes)
    }
}

fn concat(c: &mut Choices<'_>, budget: &mut Budget) -> Node {
    let len = c.below(5);
    let mut terms = Vec::new();
    for _ in 0..len {
        if budget.nodes == 0 {
            break;
        }
        budget.nodes -= 1;
        terms.push(term(c, budget));
    }
    Node::Concat(terms)
}

fn term(c: &mut Choices<'_>, budget: &mut Budget) -> Node {
    let atom = match c.below(16) {
        0..=3 => Node::Char(c.char(), c.byte()),
        4 => Node::Dot,
        5 | 6 => class(c),
        7 => Node::Escape(escape(c), c.byte() & 1 == 1),
        8 => {
            return match c.below(4) {
                0 => Node::Start,
                1 => Node::End,
                k => Node::Boundary(k == 2),
            }
        }
        _ if budget.depth == 0 => Node::Char(c.char(), c.byte()),
        _ => {
            let kind = c.below(3) as u8;
            budget.depth -= 1;
            let inside = alternation(c, budget);
            budget.depth += 1;
            Node::Group(kind, Box::new(inside))
        }
    };
    let small = |c: &mut Choices<'_>| {
        if c.below(8) == 7 {
            c.below(13) as u32
        } else {
            c.below(4) as u32
        }
    };
    let (min, max) = match c.below(12) {
        0..=4 => return atom,
        5 => (0, None),
        6 => (1, None),
        7 => (0, Some(1)),
        8 => {
            let n = small(c);
            (n, Some(n))
        }
        9 => (small(c), None),
        _ => {
            let n = small(c);
            (n, Some(n + small(c)))
        }
    };
    Node::Repeat {
        node: Box::new(atom),
        min,
        max,
        lazy: c.byte() & 1 == 1,
    }
}

fn escape(c: &mut Choices<'_>) -> Escape {
    [Escape::Digit, Escape::Word, Escape::Space][c.below(3)]
}

fn class(c: &mut Choices<'_>) -> Node {
    let negated = c.byte() & 1 == 1;
    let items = (0..c.below(5))
        .map(|_| match c.below(4) {
            0 | 1 => Item::Char(c.char(), c.byte()),
            2 => {
                let (a, b) = (c.char(), c.char());
                let (low, high) = if a <= b { (a, b) } else { (b, a) };
                Item::Range(low, c.byte(), high, c.byte())
            }
            _ => Item::Escape(escape(c), c.byte() & 1 == 1),
        })
        .collect();
    Node::Class(negated, items)
}

/// `c` as ECMAScript writes it, `style` choosing among the spellings that apply.
fn ecma_char(out: &mut String, c: char, style: u8, in_class: bool) {
    let code = c as u32;
    let mut spellings: Vec<String> = Vec::new();
    if SYNTAX.contains(c) || in_class && c == '-' {
        spellings.push(format!("\\{c}"));
    } else {
        spellings.push(c.to_string());
    }
    match c {
        '\t' => spellings.push("\\t".into()),
        '\n' => spellings.push("\\n".into()),
        '\u{b}' => spellings.push("\\v".into()),
        '\u{c}' => spellings.push("\\f".into()),
        '\r' => spellings.push("\\r".into()),
        '\u{8}' if in_class => spellings.push("\\b".into()),
        _ => {}
    }
    if (1..=26).contains(&code) {
        let letter = char::from(b'A' + code as u8 - 1);
        spellings.push(format!("\\c{letter}"));
        spellings.push(format!("\\c{}", letter.to_ascii_lowercase()));
    }
    if code <= 0xFF {
        spellings.push(format!("\\x{code:02X}"));
    }
    if code <= 0xFFFF {
        spellings.push(format!("\\u{code:04x}"));
    } else {
        let v = code - 0x10000;
        spellings.push(format!(
            "\\u{:04X}\\u{:04X}",
            0xD800 + (v >> 10),
            0xDC00 + (v & 0x3FF)
        ));
    }
    spellings.push(format!("\\u{{{code:x}}}"));
    spellings.push(format!("\\u{{00{code:X}}}"));
    // The plain spelling half the time.
    let pick = if style & 1 == 0 {
        0
    } else {
        usize::from(style >> 1) % spellings.len()
    };
    out.push_str(&spellings[pick]);
}

fn ecma_escape(out: &mut String, escape: Escape, negated: bool) {
    let letter = match escape {
        Escape::Digit => 'd',
        Escape::Word => 'w',
        Escape::Space => 's',
    };
    out.push('\\');
    out.push(if negated {
        letter.to_ascii_uppercase()
    } else {
        letter
    });
}

/// The pattern as ECMA-262 writes it; `names` numbers the named groups.
fn ecma(node: &Node, out: &mut String, names: &mut usize) {
    match node {
        Node::Char(c, style) => ecma_char(out, *c, *style, false),
        Node::Dot => out.push('.'),
        Node::Class(negated, items) => {
            out.push('[');
            if *negated {
                out.push('^');
            }
            for item in items {
                match item {
                    Item::Char(c, style) => ecma_char(out, *c, *style, true),
                    Item::Range(low, s1, high, s2) => {
                        ecma_char(out, *low, *s1, true);
                        out.push('-');
                        ecma_char(out, *high, *s2, true);
                    }
                    Item::Escape(escape, negated) => ecma_escape(out, *escape, *negated),
                }
            }
            out.push(']');
        }
        Node::Escape(escape, negated) => ecma_escape(out, *escape, *negated),
        Node::Start => out.push('^'),
        Node::End => out.push('$'),
        Node::Boundary(true) => out.push_str("\\b"),
        Node::Boundary(false) => out.push_str("\\B"),
        Node::Group(kind, inside) => {
            match kind {
                0 => out.push('('),
                1 => out.push_str("(?:"),
                _ => {
                    *names += 1;
                    let start = ["n", "é", "$", "_", "Ω"][*names % 5];
                    let _ = write!(out, "(?<{start}{names}>");
                }
            }
            ecma(inside, out, names);
            out.push(')');
        }
        Node::Concat(nodes) => nodes.iter().for_each(|n| ecma(n, out, names)),
        Node::Alternate(branches) => {
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                ecma(branch, out, names);
            }
        }
        Node::Repeat {
            node,
            min,
            max,
            lazy,
        } => {
            ecma(node, out, names);
            quantifier(out, *min, *max, *lazy);
        }
    }
}

fn quantifier(out: &mut String, min: u32, max: Option<u32>, lazy: bool) {
    match (min, max) {
        (0, None) => out.push('*'),
        (1, None) => out.push('+'),
        (0, Some(1)) => out.push('?'),
        (n, None) => {
            let _ = write!(out, "{{{n},}}");
        }
        (n, Some(m)) if n == m => {
            let _ = write!(out, "{{{n}}}");
        }
        (n, Some(m)) => {
            let _ = write!(out, "{{{n},{m}}}");
        }
    }
    if lazy {
        out.push('?');
    }
}

/// The members of an escape's class, for inside a `regex` class.
fn rust_escape_items(escape: Escape, negated: bool) -> String {
    let set = match escape {
        Escape::Digit => DIGIT,
        Escape::Word => WORD,
        Escape::Space => SPACE,
    };
    if negated {
        format!("[^{set}]")
    } else {
        set.to_string()
    }
}

/// The same pattern in the `regex` crate's syntax, with the same meaning; `names` as above.
fn rust(node: &Node, out: &mut String, names: &mut usize) {
    match node {
        Node::Char(c, _) => {
            let _ = write!(out, "\\x{{{:X}}}", *c as u32);
        }
        Node::Dot => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
        Node::Class(negated, items) if items.is_empty() => out.push_str(if *negated {
            r"[\x{0}-\x{10FFFF}]"
        } else {
            r"[^\x{0}-\x{10FFFF}]"
        }),
        Node::Class(negated, items) => {
            out.push('[');
            if *negated {
                out.push('^');
            }
            for item in items {
                match item {
                    Item::Char(c, _) => {
                        let _ = write!(out, "\\x{{{:X}}}", *c as u32);
                    }
                    Item::Range(low, _, high, _) => {
                        let _ = write!(out, "\\x{{{:X}}}-\\x{{{:X}}}", *low as u32, *high as u32);
                    }
                    Item::Escape(escape, negated) => {
                        out.push_str(&rust_escape_items(*escape, *negated));
                    }
                }
            }
            out.push(']');
        }
        Node::Escape(escape, negated) => {
            let items = rust_escape_items(*escape, *negated);
            if *negated {
                out.push_str(&items);
            } else {
                let _ = write!(out, "[{items}]");
            }
        }
        Node::Start => out.push_str(r"\A"),
        Node::End => out.push_str(r"\z"),
        Node::Boundary(true) => out.push_str(r"(?-u:\b)"),
        Node::Boundary(false) => out.push_str(r"(?-u:\B)"),
        Node::Group(kind, inside) => {
            match kind {
                0 => out.push('('),
                1 => out.push_str("(?:"),
                _ => {
                    *names += 1;
                    let _ = write!(out, "(?<g{names}>");
                }
            }
            rust(inside, out, names);
            out.push(')');
        }
        // Only atoms are quantified, and each is written as one atom here too.
        Node::Concat(nodes) => nodes.iter().for_each(|n| rust(n, out, names)),
        Node::Alternate(branches) => {
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                rust(branch, out, names);
            }
        }
        Node::Repeat {
            node,
            min,
            max,
            lazy,
        } => {
            rust(node, out, names);
            quantifier(out, *min, *max, *lazy);
        }
    }
}

/// A character `escape` matches (or, `negated`, one it does not), chosen by `c`.
fn escape_sample(c: &mut Choices<'_>, escape: Escape, negated: bool) -> char {
    let pool: &[char] = match (escape, negated) {
        (Escape::Digit, false) => &['0', '5', '9'],
        (Escape::Word, false) => &['a', 'Z', '_', '7'],
        (Escape::Space, false) => &[' ', '\t', '\u{a0}', '\u{2028}', '\u{3000}', '\u{feff}'],
        (Escape::Digit, true) => &['a', '-', '\u{661}'],
        (Escape::Word, true) => &['-', ' ', 'é', '\u{212a}'],
        (Escape::Space, true) => &['a', '\u{85}', '\u{180e}', '\u{200b}'],
    };
    pool[c.below(pool.len())]
}

/// Roughly the size of the `regex` crate's program for `node`: a class counts more than a
/// character (its UTF-8 automaton has several states), and a counted repetition copies its
/// atom out, as both engines do.
fn weight(node: &Node) -> u64 {
    match node {
        Node::Char(..) | Node::Start | Node::End | Node::Boundary(_) => 1,
        Node::Dot | Node::Class(..) | Node::Escape(..) => 8,
        Node::Group(_, inside) => weight(inside),
        Node::Concat(nodes) | Node::Alternate(nodes) => nodes.iter().map(weight).sum(),
        Node::Repeat { node, min, max, .. } => {
            weight(node).saturating_mul(u64::from(max.unwrap_or(*min)) + 1)
        }
    }
}

/// Past this [`weight`], compiling the reference costs milliseconds (a pattern such as
/// `(\S{12}){9}` is over a thousand copies of a Unicode class), and the run would spend its
/// time there: such a pattern is only run through this crate, which must not panic.
const HEAVY: u64 = 1500;

/// Appends to `out` a text that `node` probably matches, steered by `c`; a negated class
/// or a choice of the fuzzer's may make it miss, which is as useful. Stops growing past
/// 256 characters.
fn sample(node: &Node, c: &mut Choices<'_>, out: &mut Vec<char>) {
    if out.len() > 256 {
        return;
    }
    match node {
        Node::Char(ch, _) => out.push(*ch),
        Node::Dot | Node::Class(true, _) => out.push(c.char()),
        Node::Class(false, items) if items.is_empty() => out.push(c.char()),
        Node::Class(false, items) => match &items[c.below(items.len())] {
            Item::Char(ch, _) => out.push(*ch),
            Item::Range(low_char, _, high, _) => {
                let (low, high) = (*low_char as u32, *high as u32);
                let pick = low + (u32::from(c.byte()) % (high - low + 1));
                out.push(char::from_u32(pick).unwrap_or(*low_char));
            }
            Item::Escape(escape, negated) => out.push(escape_sample(c, *escape, *negated)),
        },
        Node::Escape(escape, negated) => out.push(escape_sample(c, *escape, *negated)),
        Node::Start | Node::End | Node::Boundary(_) => {}
        Node::Group(_, inside) => sample(inside, c, out),
        Node::Concat(nodes) => nodes.iter().for_each(|n| sample(n, c, out)),
        Node::Alternate(branches) => sample(&branches[c.below(branches.len())], c, out),
        Node::Repeat { node, min, max, .. } => {
            let extra = c.below(3) as u32;
            let count = max.map_or(min + extra, |max| (min + extra).min(max));
            for _ in 0..count {
                sample(node, c, out);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte splits the input: its low 7 bits are how many bytes at the end make the
    // text, and its high bit says whether they are the text's characters, one each, or the
    // choices of a text sampled from the pattern (with a character or two around it), so that
    // matches are common too.
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let split = rest.len() - usize::from(head & 0x7f).min(rest.len());
    let (pattern_bytes, text_bytes) = rest.split_at(split);
    let mut choices = Choices {
        bytes: pattern_bytes,
        at: 0,
    };
    let mut budget = Budget {
        nodes: 24,
        depth: 6,
    };
    let tree = alternation(&mut choices, &mut budget);
    let text: String = if head & 0x80 == 0 {
        text_bytes
            .iter()
            .map(|&b| ALPHABET[usize::from(b) % ALPHABET.len()])
            .collect()
    } else {
        let mut c = Choices {
            bytes: text_bytes,
            at: 0,
        };
        let mut chars: Vec<char> = (0..c.below(3)).map(|_| c.char()).collect();
        sample(&tree, &mut c, &mut chars);
        chars.extend((0..c.below(3)).map(|_| c.char()));
        chars.into_iter().collect()
    };
    let (mut ours, mut theirs) = (String::new(), String::new());
    ecma(&tree, &mut ours, &mut 0);
    rust(&tree, &mut theirs, &mut 0);
    let engine = match Regex::new(&ours) {
        Ok(engine) => engine,
        // The documented limit on a compiled pattern.
        Err(err) if err.what.contains("instructions") => return,
        Err(err) => panic!("this crate refuses {ours:?} ({theirs:?}): {err}"),
    };
    if weight(&tree) > HEAVY {
        let _ = (engine.is_match(&text), engine.is_match(""));
        return;
    }
    let reference = match regex::Regex::new(&theirs) {
        Ok(reference) => reference,
        Err(regex::Error::CompiledTooBig(_)) => return,
        Err(err) => panic!("regex refuses {theirs:?}, written for {ours:?}: {err}"),
    };
    for text in [text.as_str(), ""] {
        assert_eq!(
            engine.is_match(text),
            reference.is_match(text),
            "ECMAScript {ours:?}, regex {theirs:?}, text {text:?}"
        );
    }
});
