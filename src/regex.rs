//! `pattern`'s regular expressions: the syntax of ECMA-262 (22.2, "RegExp (Regular Expression)
//! Objects"), which JSON Schema 2020-12 names for `pattern` (Validation, 6.3.3), matched in time
//! linear in the text: a Thompson NFA, simulated a character at a time with every live state in
//! step, as in Russ Cox's "Regular Expression Matching Can Be Simple And Fast". No backtracking,
//! so no pattern can be made slow by its input.
//!
//! The pattern is read as code points (ECMA-262's `u` mode). What JSON Schema asks of a match is
//! only whether one exists anywhere in the string, so groups capture nothing and a lazy
//! quantifier matches what its greedy form does. Refused, each by name, at its position:
//! lookahead and lookbehind, backreferences (a linear-time engine cannot match them), Unicode
//! property escapes, and a lone `{`, `}` or `]`.
//!
//! A compiled pattern holds its program; matching allocates nothing, its state is a few fixed
//! arrays on the stack, bounded by [`MAX_PROGRAM`].

use std::fmt;

/// The most instructions a pattern compiles to; a counted repetition is copied out, so
/// `a{1000}` alone is a thousand. A larger pattern is refused when the catalog is read.
pub const MAX_PROGRAM: usize = 2048;

/// The most ranges one class may hold, after its ranges are merged: a `u16` count.
pub const MAX_CLASS: usize = u16::MAX as usize;

/// Room for the states waiting to be added: each added state pushes at most two.
const STACK: usize = 2 * MAX_PROGRAM + 1;

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regex {
    program: Vec<Inst>,
    /// The ranges of every class, each class a slice of them.
    ranges: Vec<(char, char)>,
}

/// Where the ranges of each class compiled so far sit in [`Regex::ranges`], by the class's ranges.
type Classes<'t> = std::collections::HashMap<&'t [(char, char)], (u32, u16)>;

/// Why a pattern was refused: where (a code point's index in the pattern) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError {
    /// Index of the code point where reading stopped.
    pub at: usize,
    /// What was found, and what to write instead where there is something.
    pub what: String,
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at, self.what)
    }
}

impl std::error::Error for RegexError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inst {
    /// One code point in `ranges[start..start + len]` (or not in it, when `negated`).
    /// Program offsets fit in `u16` ([`MAX_PROGRAM`]), and a class's ranges in a `u16` count
    /// ([`MAX_CLASS`]), so that an instruction is 8 bytes: a catalog read at run time keeps
    /// every pattern compiled, and zod's `datetime` and `email` patterns are hundreds of
    /// instructions each.
    Class {
        start: u32,
        len: u16,
        negated: bool,
    },
    /// Go on at both: the first is preferred, which only matters for captures (none here).
    Split(u16, u16),
    Jump(u16),
    Start,
    End,
    WordBoundary(bool),
    Match,
}

// Eight bytes, as [`Inst::Class`] says why.
const _: () = assert!(std::mem::size_of::<Inst>() == 8);

/// The syntax tree, before compiling.
#[derive(Clone, Debug)]
enum Node {
    Empty,
    Class {
        ranges: Vec<(char, char)>,
        negated: bool,
    },
    Start,
    End,
    WordBoundary(bool),
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// ECMA-262's `\d`, `\w` and `\s` (22.2.2.9, CharacterClassEscape; WhiteSpace and
/// LineTerminator, 12.2 and 12.3). `.` is every code point but the line terminators.
const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200a}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202f}', '\u{202f}'),
    ('\u{205f}', '\u{205f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{feff}', '\u{feff}'),
];
const LINE_TERMINATORS: &[(char, char)] = &[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')];

/// The characters that stand for something in a pattern, and so are escaped to stand for
/// themselves (ECMA-262 SyntaxCharacter, and `/`).
const SYNTAX: &str = "^$\\.*+?()[]{}|/";

impl Regex {
    /// Compiles `pattern`, or says why it cannot be.
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut parser = Parser {
            chars: &chars,
            at: 0,
        };
        let tree = parser.disjunction(0)?;
        if parser.at < chars.len() {
            // Only a `)` with no group open stops a disjunction early.
            return Err(parser.error("a ')' closes no group; write \\) for the character"));
        }
        let mut regex = Regex {
            program: Vec::new(),
            ranges: Vec::new(),
        };
        let compiled = regex
            .compile(&tree, &mut Classes::new())
            .and_then(|()| regex.push(Inst::Match));
        compiled.map_err(|what| RegexError { at: 0, what })?;
        // A catalog read at run time keeps every pattern it holds until it is replaced.
        regex.program.shrink_to_fit();
        regex.ranges.shrink_to_fit();
        Ok(regex)
    }

    /// Whether `text` holds a match anywhere, as JSON Schema's `pattern` asks.
    pub fn is_match(&self, text: &str) -> bool {
        let mut current = Set::new();
        let mut next = Set::new();
        let mut stack = [0u16; STACK];
        let mut previous: Option<char> = None;
        let mut chars = text.chars();
        loop {
            let here = chars.clone().next();
            // Unanchored: a match may start at every position.
            if self.add(&mut current, &mut stack, 0, previous, here) {
                return true;
            }
            let Some(c) = here else {
                return false;
            };
            next.clear();
            let mut matched = false;
            for pc in current.members() {
                if let Inst::Class {
                    start,
                    len,
                    negated,
                } = self.program[pc as usize]
                {
                    let ranges = &self.ranges[start as usize..][..usize::from(len)];
                    if in_ranges(ranges, c) != negated {
                        let after = chars.clone().nth(1);
                        matched |= self.add(&mut next, &mut stack, pc + 1, Some(c), after);
                    }
                }
            }
            if matched {
                return true;
            }
            std::mem::swap(&mut current, &mut next);
            chars.next();
            previous = Some(c);
        }
    }

    /// Adds `pc` and every state it reaches without reading a character to `set`, between
    /// `before` and `after`; true when one of them is the match.
    fn add(
        &self,
        set: &mut Set,
        stack: &mut [u16; STACK],
        pc: u32,
        before: Option<char>,
        after: Option<char>,
    ) -> bool {
        let mut len = 0;
        stack[len] = pc as u16;
        len += 1;
        while len > 0 {
            len -= 1;
            let pc = u32::from(stack[len]);
            if !set.insert(pc) {
                continue;
            }
            // Each state enters the set once and then pushes at most two, so the stack holds
            // at most 2 * MAX_PROGRAM + 1.
            let mut follow = |to: u32, len: &mut usize| {
                stack[*len] = to as u16;
                *len += 1;
            };
            match self.program[pc as usize] {
                Inst::Match => return true,
                Inst::Class { .. } => {}
                Inst::Split(a, b) => {
                    follow(u32::from(b), &mut len);
                    follow(u32::from(a), &mut len);
                }
                Inst::Jump(to) => follow(u32::from(to), &mut len),
                Inst::Start if before.is_none() => follow(pc + 1, &mut len),
                Inst::End if after.is_none() => follow(pc + 1, &mut len),
                Inst::WordBoundary(wanted) => {
                    let word = |c: Option<char>| c.is_some_and(|c| in_ranges(WORD, c));
                    if (word(before) != word(after)) == wanted {
                        follow(pc + 1, &mut len);
                    }
                }
                Inst::Start | Inst::End => {}
            }
        }
        false
    }

    /// Appends `inst`; returns where it is, which [`MAX_PROGRAM`] keeps within a `u16`.
    fn push(&mut self, inst: Inst) -> Result<u16, String> {
        if self.program.len() >= MAX_PROGRAM {
            return Err(format!(
                "the pattern compiles to more than {MAX_PROGRAM} instructions"
            ));
        }
        self.program.push(inst);
        Ok(self.program.len() as u16 - 1)
    }

    /// Where the next instruction goes.
    fn next(&self) -> u16 {
        self.program.len() as u16
    }

    /// Compiles `node`. `classes` says where each class's ranges already sit: a class that a
    /// pattern repeats (`[a-z0-9_-]{1,80}` is 80 copies of one) keeps its ranges once.
    fn compile<'t>(&mut self, node: &'t Node, classes: &mut Classes<'t>) -> Result<(), String> {
        match node {
            Node::Empty => {}
            Node::Class { ranges, negated } => {
                if ranges.len() > MAX_CLASS {
                    return Err(format!("a class holds more than {MAX_CLASS} ranges"));
                }
                let (start, len) = *classes.entry(ranges).or_insert_with(|| {
                    let start = self.ranges.len() as u32;
                    self.ranges.extend_from_slice(ranges);
                    (start, ranges.len() as u16)
                });
                self.push(Inst::Class {
                    start,
                    len,
                    negated: *negated,
                })?;
            }
            Node::Start => {
                self.push(Inst::Start)?;
            }
            Node::End => {
                self.push(Inst::End)?;
            }
            Node::WordBoundary(wanted) => {
                self.push(Inst::WordBoundary(*wanted))?;
            }
            Node::Concat(nodes) => {
                for node in nodes {
                    self.compile(node, classes)?;
                }
            }
            Node::Alternate(branches) => {
                // split L1, next; L1: branch; jump end; next: split ... last branch; end:
                let mut jumps = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 < branches.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.compile(branch, classes)?;
                        jumps.push(self.push(Inst::Jump(0))?);
                        let next = self.next();
                        self.program[split as usize] = Inst::Split(split + 1, next);
                    } else {
                        self.compile(branch, classes)?;
                    }
                }
                let end = self.next();
                for jump in jumps {
                    self.program[jump as usize] = Inst::Jump(end);
                }
            }
            Node::Repeat { node, min, max } => {
                for _ in 0..*min {
                    self.compile(node, classes)?;
                }
                match max {
                    None => {
                        // loop: split body, end; body; jump loop
                        let split = self.push(Inst::Split(0, 0))?;
                        self.compile(node, classes)?;
                        self.push(Inst::Jump(split))?;
                        let end = self.next();
                        self.program[split as usize] = Inst::Split(split + 1, end);
                    }
                    Some(max) => {
                        // Each optional copy: split body, end (all splits go to the end).
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.push(Inst::Split(0, 0))?);
                            self.compile(node, classes)?;
                        }
                        let end = self.next();
                        for split in splits {
                            self.program[split as usize] = Inst::Split(split + 1, end);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

fn in_ranges(ranges: &[(char, char)], c: char) -> bool {
    ranges.iter().any(|&(low, high)| low <= c && c <= high)
}

/// A set of program states in insertion order, cleared in constant time (Briggs and Torczon's
/// sparse set), on the stack.
struct Set {
    dense: [u16; MAX_PROGRAM],
    sparse: [u16; MAX_PROGRAM],
    len: usize,
}

impl Set {
    fn new() -> Set {
        Set {
            dense: [0; MAX_PROGRAM],
            sparse: [0; MAX_PROGRAM],
            len: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds `pc`; false when it was there already.
    fn insert(&mut self, pc: u32) -> bool {
        let slot = usize::from(self.sparse[pc as usize]);
        if slot < self.len && u32::from(self.dense[slot]) == pc {
            return false;
        }
        self.sparse[pc as usize] = self.len as u16;
        self.dense[self.len] = pc as u16;
        self.len += 1;
        true
    }

    fn members(&self) -> impl Iterator<Item = u32> + '_ {
        self.dense[..self.len].iter().map(|&pc| u32::from(pc))
    }
}

/// A recursive-descent reader of ECMA-262's Pattern grammar (22.2.1); nesting is bounded by
/// [`MAX_GROUPS`], so its recursion is too.
struct Parser<'p> {
    chars: &'p [char],
    at: usize,
}

/// The deepest nesting of groups read.
const MAX_GROUPS: usize = 64;

impl Parser<'_> {
    fn error(&self, what: &str) -> RegexError {
        RegexError {
            at: self.at,
            what: what.to_string(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(c);
        self.at += usize::from(found);
        found
    }

    /// Disjunction :: Alternative ( `|` Alternative )*
    fn disjunction(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut branches = vec![self.alternative(depth)?];
        while self.eat('|') {
            branches.push(self.alternative(depth)?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alternate(branches)
        })
    }

    /// Alternative :: Term*
    fn alternative(&mut self, depth: usize) -> Result<Node, RegexError> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term(depth)?);
        }
        Ok(Node::Concat(terms))
    }

    /// Term :: Assertion | Atom Quantifier?
    fn term(&mut self, depth: usize) -> Result<Node, RegexError> {
        let atom = match self.peek() {
            Some('^') => {
                self.at += 1;
                return Ok(Node::Start);
            }
            Some('$') => {
                self.at += 1;
                return Ok(Node::End);
            }
            Some('\\') if matches!(self.peek_at(1), Some('b' | 'B')) => {
                let wanted = self.peek_at(1) == Some('b');
                self.at += 2;
                return Ok(Node::WordBoundary(wanted));
            }
            Some('(') => self.group(depth)?,
            Some('.') => {
                self.at += 1;
                Node::Class {
                    ranges: LINE_TERMINATORS.to_vec(),
                    negated: true,
                }
            }
            Some('[') => self.class()?,
            Some('\\') => {
                self.at += 1;
                self.atom_escape()?
            }
            Some('*' | '+' | '?') => {
                return Err(self.error("a quantifier must follow something to repeat"))
            }
            Some('{') if self.quantifier_ahead() => {
                return Err(self.error("a quantifier must follow something to repeat"))
            }
            Some(c @ ('{' | '}' | ']')) => {
                return Err(self.error(&format!("a lone '{c}'; write \\{c} for the character")))
            }
            Some(c) => {
                self.at += 1;
                Node::Class {
                    ranges: vec![(c, c)],
                    negated: false,
                }
            }
            None => return Err(self.error("the pattern ends where a term was expected")),
        };
        self.quantified(atom)
    }

    /// Whether a `{` here opens a counted quantifier: `{n}`, `{n,}` or `{n,m}`.
    fn quantifier_ahead(&self) -> bool {
        let mut i = self.at + 1;
        let digits = |i: &mut usize| {
            let from = *i;
            while self.chars.get(*i).is_some_and(char::is_ascii_digit) {
                *i += 1;
            }
            *i > from
        };
        if !digits(&mut i) {
            return false;
        }
        if self.chars.get(i) == Some(&',') {
            i += 1;
            digits(&mut i);
        }
        self.chars.get(i) == Some(&'}')
    }

    /// Quantifier :: ( `*` | `+` | `?` | `{n}` | `{n,}` | `{n,m}` ) `?`?
    fn quantified(&mut self, atom: Node) -> Result<Node, RegexError> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') if self.quantifier_ahead() => {
                self.at += 1;
                let min = self.number()?;
                let max = if self.eat(',') {
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.number()?)
                    }
                } else {
                    Some(min)
                };
                // `quantifier_ahead` saw the closing brace.
                self.at += 1;
                if max.is_some_and(|max| max < min) {
                    return Err(self.error("{n,m} with m less than n matches nothing"));
                }
                self.eat('?');
                return self.repeat(atom, min, max);
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        self.eat('?'); // lazy: the same set of matches
        self.repeat(atom, min, max)
    }

    fn repeat(&self, atom: Node, min: u32, max: Option<u32>) -> Result<Node, RegexError> {
        if matches!(atom, Node::Start | Node::End | Node::WordBoundary(_)) {
            return Err(self.error("an assertion cannot be repeated"));
        }
        if matches!(self.peek(), Some('*' | '+' | '?'))
            || self.peek() == Some('{') && self.quantifier_ahead()
        {
            return Err(self.error("a quantifier cannot follow another"));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        })
    }

    /// Decimal digits, as a count no larger than [`MAX_PROGRAM`].
    fn number(&mut self) -> Result<u32, RegexError> {
        let mut value: u32 = 0;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(digit);
            self.at += 1;
        }
        if value as usize > MAX_PROGRAM {
            return Err(self.error(&format!(
                "a count above {MAX_PROGRAM} cannot be matched in bounded memory"
            )));
        }
        Ok(value)
    }

    /// `(` Disjunction `)`, `(?:` Disjunction `)` or `(?<name>` Disjunction `)`.
    fn group(&mut self, depth: usize) -> Result<Node, RegexError> {
        if depth == MAX_GROUPS {
            return Err(self.error(&format!("groups nested deeper than {MAX_GROUPS}")));
        }
        let open = self.at;
        self.at += 1;
        if self.eat('?') {
            match (self.peek(), self.peek_at(1)) {
                (Some(':'), _) => self.at += 1,
                (Some('='), _) => return Err(self.lookaround(open, "lookahead (?=")),
                (Some('!'), _) => return Err(self.lookaround(open, "negative lookahead (?!")),
                (Some('<'), Some('=')) => return Err(self.lookaround(open, "lookbehind (?<=")),
                (Some('<'), Some('!')) => {
                    return Err(self.lookaround(open, "negative lookbehind (?<!"))
                }
                (Some('<'), _) => {
                    self.at += 1;
                    let name_start = self.at;
                    while self
                        .peek()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                    {
                        self.at += 1;
                    }
                    if self.at == name_start || !self.eat('>') {
                        return Err(self.error("a group name is (?<name>...)"));
                    }
                }
                _ => return Err(self.error("(? must be followed by :, = , !, <= , <! or <name>")),
            }
        }
        let inside = self.disjunction(depth + 1)?;
        if !self.eat(')') {
            return Err(RegexError {
                at: open,
                what: "this group is never closed".into(),
            });
        }
        Ok(inside)
    }

    fn lookaround(&self, open: usize, what: &str) -> RegexError {
        RegexError {
            at: open,
            what: format!("{what} is not supported: matching in linear time rules out lookaround"),
        }
    }

    /// After a `\` outside a class.
    fn atom_escape(&mut self) -> Result<Node, RegexError> {
        match self.peek() {
            Some(c @ '1'..='9') => Err(RegexError {
                at: self.at - 1,
                what: format!(
                    "backreference \\{c} is not supported: matching in linear time rules out \
                     backreferences"
                ),
            }),
            Some('k') => Err(RegexError {
                at: self.at - 1,
                what: "backreference \\k<name> is not supported: matching in linear time rules \
                       out backreferences"
                    .into(),
            }),
            _ => {
                let (ranges, negated) = self.escape(false)?;
                Ok(Node::Class { ranges, negated })
            }
        }
    }

    /// An escape after its `\`, as ranges: a class escape, or one code point. `\b` is a
    /// backspace inside a class.
    fn escape(&mut self, in_class: bool) -> Result<(Vec<(char, char)>, bool), RegexError> {
        let Some(c) = self.peek() else {
            return Err(self.error("the pattern ends in a lone \\"));
        };
        self.at += 1;
        let one = |c: char| Ok((vec![(c, c)], false));
        match c {
            'd' => Ok((DIGIT.to_vec(), false)),
            'D' => Ok((DIGIT.to_vec(), true)),
            'w' => Ok((WORD.to_vec(), false)),
            'W' => Ok((WORD.to_vec(), true)),
            's' => Ok((SPACE.to_vec(), false)),
            'S' => Ok((SPACE.to_vec(), true)),
            't' => one('\t'),
            'n' => one('\n'),
            'v' => one('\u{b}'),
            'f' => one('\u{c}'),
            'r' => one('\r'),
            'b' if in_class => one('\u{8}'),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => one('\0'),
            'c' => match self.peek() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    self.at += 1;
                    one(char::from(letter as u8 % 32))
                }
                _ => Err(self.error("\\c must be followed by a letter")),
            },
            'x' => {
                let value = self.hex(2)?;
                one(char::from_u32(value).unwrap_or('\0'))
            }
            'u' if self.eat('{') => {
                let start = self.at;
                let mut value: u32 = 0;
                while let Some(digit) = self.peek().and_then(|c| c.to_digit(16)) {
                    value = value.saturating_mul(16).saturating_add(digit);
                    self.at += 1;
                }
                match char::from_u32(value) {
                    Some(c) if self.at > start && self.eat('}') => one(c),
                    _ => Err(self.error("\\u{...} must hold a code point in hex")),
                }
            }
            'u' => {
                let value = self.hex(4)?;
                // A surrogate pair written as two escapes is one code point.
                if (0xD800..0xDC00).contains(&value)
                    && self.peek() == Some('\\')
                    && self.peek_at(1) == Some('u')
                {
                    let save = self.at;
                    self.at += 2;
                    if let Ok(low @ 0xDC00..=0xDFFF) = self.hex(4) {
                        let c = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
                        return one(char::from_u32(c).unwrap_or('\u{fffd}'));
                    }
                    self.at = save;
                }
                match char::from_u32(value) {
                    Some(c) => one(c),
                    None => Err(self.error("a lone surrogate cannot be matched in a string")),
                }
            }
            'p' | 'P' => Err(RegexError {
                at: self.at - 2,
                what: format!("Unicode property escape \\{c}{{...}} is not supported"),
            }),
            '-' if in_class => one('-'),
            c if SYNTAX.contains(c) => one(c),
            // Annex B's identity escapes: any other character that is not a letter, a digit
            // or `_` stands for itself (`\-`, `\@`), as engines without the `u` flag read it.
            c if !c.is_ascii_alphanumeric() && c != '_' => one(c),
            c => Err(RegexError {
                at: self.at - 2,
                what: format!("\\{c} is not an escape ECMA-262 defines"),
            }),
        }
    }

    fn hex(&mut self, digits: usize) -> Result<u32, RegexError> {
        let mut value = 0;
        for _ in 0..digits {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(digit) => {
                    value = value * 16 + digit;
                    self.at += 1;
                }
                None => return Err(self.error(&format!("expected {digits} hex digits"))),
            }
        }
        Ok(value)
    }

    /// CharacterClass :: `[` `^`? ClassRanges `]`
    fn class(&mut self) -> Result<Node, RegexError> {
        let open = self.at;
        self.at += 1;
        let negated = self.eat('^');
        let mut ranges = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(RegexError {
                    at: open,
                    what: "this class is never closed with ]".into(),
                });
            };
            if c == ']' {
                self.at += 1;
                break;
            }
            let low = self.class_atom()?;
            // `a-b` is a range; a `-` first, last, or next to a class escape is itself.
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.at += 1;
                let high = self.class_atom()?;
                match (&low[..], &high[..]) {
                    ([(a, a2)], [(b, b2)]) if a == a2 && b == b2 => {
                        if b < a {
                            return Err(self.error("a range whose end comes before its start"));
                        }
                        ranges.push((*a, *b));
                    }
                    _ => return Err(self.error("a class escape cannot bound a range")),
                }
            } else {
                ranges.extend(low);
            }
        }
        Ok(Node::Class { ranges, negated })
    }

    /// One class member: a code point, or the ranges of a class escape (negated ones turned
    /// into the ranges they leave).
    fn class_atom(&mut self) -> Result<Vec<(char, char)>, RegexError> {
        let c = self.peek().unwrap_or('\0');
        self.at += 1;
        if c != '\\' {
            return Ok(vec![(c, c)]);
        }
        let (ranges, negated) = self.escape(true)?;
        Ok(if negated { complement(&ranges) } else { ranges })
    }
}

/// Every code point outside `ranges` (sorted, not overlapping), surrogates aside.
fn complement(ranges: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(low, high) in ranges {
        if (low as u32) > next {
            push_range(&mut out, next, low as u32 - 1);
        }
        next = high as u32 + 1;
    }
    push_range(&mut out, next, char::MAX as u32);
    out
}

/// `low..=high` as char ranges, skipping the surrogates, which are not chars.
fn push_range(out: &mut Vec<(char, char)>, low: u32, high: u32) {
    for (from, to) in [(low, high.min(0xD7FF)), (low.max(0xE000), high)] {
        if let (Some(from), Some(to)) = (char::from_u32(from), char::from_u32(to)) {
            if from <= to {
                out.push((from, to));
            }
        }
    }
}
