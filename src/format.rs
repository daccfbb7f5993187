//! JSON Schema's `format` keyword (2020-12 Validation, 7), asserted for ten formats: a tool
//! argument declared `"format": "date-time"` must be one. Any other format name is an
//! annotation, left unchecked, as the specification allows.
//!
//! Each format is checked against the grammar its specification gives:
//!
//! - `date-time`, `date`, `time`: RFC 3339 5.6 (`date-time`, `full-date`, `full-time`), with
//!   the month lengths and leap years of 5.7, an offset on every time, and second 60 only where
//!   5.7 puts a leap second: at 23:59 UTC, the offset taken off, as JSON-Schema-Test-Suite checks
//!   it (the date is not looked up in a list of leap seconds);
//! - `duration`: RFC 3339 Appendix A, the ISO 8601 durations it profiles;
//! - `email`: RFC 5321 4.1.2, `Mailbox` (a dot-string or quoted-string local part of at most 64
//!   octets, 4.5.3.1.1; a domain, as `hostname`, or an IPv4 or IPv6 address literal; no other
//!   address-literal tag is registered);
//! - `hostname`: RFC 1123 2.1, labels of letters, digits and inner hyphens, at most 63 octets
//!   each and 253 in all (RFC 1034 3.1), and not `#.#.#.#` (2.1 again). A label starting `xn--` must be an A-label (RFC 5890
//!   2.3.2.1): Punycode (RFC 3492) of a U-label that keeps RFC 5891 4.2.3.1's hyphen rules and
//!   RFC 5892's rules for the code points it names: the DISALLOWED exceptions (2.6) and the
//!   contextual rules (Appendix A), with the scripts and combining classes those need. Rules that
//!   take a property of every code point are not checked: PVALID itself, NFC, a leading
//!   combining mark (5891 4.2.3.2), Bidi (RFC 5893), and ZERO WIDTH NON-JOINER's joining types;
//!   their tables would be many times this module's size;
//! - `ipv4`: the dotted quad of RFC 2673 3.2, each part a `dec-octet` of RFC 3986 3.2.2 (no
//!   leading zeros);
//! - `ipv6`: RFC 4291 2.2's text forms, `::` and an embedded IPv4 address included, as RFC 3986
//!   3.2.2 writes them; no zone id;
//! - `uri`: RFC 3986 3, an absolute URI with its percent-encoding and IP literals;
//! - `uuid`: RFC 4122 3, 8-4-4-4-12 hex digits in either case.
//!
//! ABNF's quoted letters match either case (RFC 5234 2.3), so `t` and `z` in a date-time and
//! `p1d` are as good as `T`, `Z` and `P1D`, as RFC 3339 5.6 notes. A check reads the text once
//! from the start, never recurses, allocates nothing and cannot panic: every index into the text
//! is a `get`.

use std::cmp::Ordering;

/// A `format` this crate asserts: the set a call checker looks a schema's `format` up in, and
/// the verdict and wording it needs when an argument is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StringFormat {
    /// `date-time`: RFC 3339 `date-time`, such as `2024-05-01T12:00:00Z`.
    DateTime,
    /// `date`: RFC 3339 `full-date`, such as `2024-05-01`.
    Date,
    /// `time`: RFC 3339 `full-time`, offset included, such as `12:00:00+02:00`.
    Time,
    /// `duration`: RFC 3339 Appendix A, such as `P1DT12H` or `P2W`.
    Duration,
    /// `email`: RFC 5321 `Mailbox`, such as `user@example.com`.
    Email,
    /// `hostname`: RFC 1123 host name, such as `api.example.com`.
    Hostname,
    /// `ipv4`: a dotted quad, such as `192.0.2.1`.
    Ipv4,
    /// `ipv6`: RFC 4291 text form, such as `2001:db8::1`.
    Ipv6,
    /// `uri`: RFC 3986 absolute URI, such as `https://example.com/a?b#c`.
    Uri,
    /// `uuid`: RFC 4122 string form, such as `123e4567-e89b-12d3-a456-426614174000`.
    Uuid,
}

impl StringFormat {
    /// Every asserted format, in the order of the enum: what a catalog reader can list when it
    /// tells which formats are checked.
    pub const ALL: [StringFormat; 10] = [
        StringFormat::DateTime,
        StringFormat::Date,
        StringFormat::Time,
        StringFormat::Duration,
        StringFormat::Email,
        StringFormat::Hostname,
        StringFormat::Ipv4,
        StringFormat::Ipv6,
        StringFormat::Uri,
        StringFormat::Uuid,
    ];

    /// The format's name as a schema spells it, `"date-time"` for [`StringFormat::DateTime`]:
    /// how it is found and how it is named in messages.
    pub const fn name(self) -> &'static str {
        match self {
            StringFormat::DateTime => "date-time",
            StringFormat::Date => "date",
            StringFormat::Time => "time",
            StringFormat::Duration => "duration",
            StringFormat::Email => "email",
            StringFormat::Hostname => "hostname",
            StringFormat::Ipv4 => "ipv4",
            StringFormat::Ipv6 => "ipv6",
            StringFormat::Uri => "uri",
            StringFormat::Uuid => "uuid",
        }
    }

    /// The asserted format a schema's `format` names; `None` for any other name, which is an
    /// annotation and checks nothing. Names are exact: `Date-Time` is not `date-time`.
    pub fn from_name(name: &str) -> Option<StringFormat> {
        StringFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether `text` is in the format: the verdict on a string argument. Linear in the text,
    /// with no allocation.
    pub fn accepts(self, text: &str) -> bool {
        let s = text.as_bytes();
        match self {
            // date-time = full-date "T" full-time
            StringFormat::DateTime => matches!(
                full_date(s).and_then(|s| byte(s, b'T')).and_then(full_time),
                Some([])
            ),
            StringFormat::Date => matches!(full_date(s), Some([])),
            StringFormat::Time => matches!(full_time(s), Some([])),
            StringFormat::Duration => duration(s),
            StringFormat::Email => email(s),
            StringFormat::Hostname => hostname(s),
            StringFormat::Ipv4 => ipv4(s),
            StringFormat::Ipv6 => ipv6(s),
            StringFormat::Uri => uri(s),
            StringFormat::Uuid => uuid(s),
        }
    }

    /// What a value of the format looks like, for the message that tells a model its argument
    /// is not one: "must be {expected}".
    pub const fn expected(self) -> &'static str {
        match self {
            StringFormat::DateTime => "an RFC 3339 date-time such as 2024-05-01T12:00:00Z",
            StringFormat::Date => "an RFC 3339 full-date such as 2024-05-01",
            StringFormat::Time => "an RFC 3339 full-time with its offset such as 12:00:00Z",
            StringFormat::Duration => "an ISO 8601 duration such as P1DT12H or P2W",
            StringFormat::Email => "an email address such as user@example.com",
            StringFormat::Hostname => "a host name such as api.example.com",
            StringFormat::Ipv4 => "an IPv4 address such as 192.0.2.1",
            StringFormat::Ipv6 => "an IPv6 address such as 2001:db8::1",
            StringFormat::Uri => "an absolute URI such as https://example.com/path",
            StringFormat::Uuid => "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
        }
    }
}

// ---- Small readers: each takes what it reads off the front of a slice and returns the rest.

/// `s` without its first byte when that byte is `want`, in either case: ABNF's quoted strings
/// match either case (RFC 5234 2.3).
fn byte(s: &[u8], want: u8) -> Option<&[u8]> {
    match s.split_first() {
        Some((b, rest)) if b.eq_ignore_ascii_case(&want) => Some(rest),
        _ => None,
    }
}

/// `s` without `want` at its start, in either case.
fn prefix<'a>(s: &'a [u8], want: &[u8]) -> Option<&'a [u8]> {
    s.get(..want.len())
        .filter(|head| head.eq_ignore_ascii_case(want))?;
    s.get(want.len()..)
}

/// Exactly `n` ASCII digits at the start of `s`, as a number (`n` is at most 4), and the rest.
fn digits(s: &[u8], n: usize) -> Option<(u32, &[u8])> {
    let mut value = 0;
    for &b in s.get(..n)? {
        if !b.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u32::from(b - b'0');
    }
    Some((value, s.get(n..)?))
}

/// How many of `s`'s first bytes are ASCII digits.
fn leading_digits(s: &[u8]) -> usize {
    s.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// `s` split at its first `sep`, which belongs to neither part: the part after is `None` when
/// there is no `sep`.
fn split(s: &[u8], sep: u8) -> (&[u8], Option<&[u8]>) {
    let mut parts = s.splitn(2, |&b| b == sep);
    (parts.next().unwrap_or_default(), parts.next())
}

// ---- RFC 3339 5.6: date-time, full-date, full-time.

/// `full-date = date-fullyear "-" date-month "-" date-mday`, with `date-fullyear = 4DIGIT`,
/// `date-month = 2DIGIT ; 01-12` and `date-mday = 2DIGIT ; 01-28, 01-29, 01-30, 01-31 based on
/// month/year`.
fn full_date(s: &[u8]) -> Option<&[u8]> {
    let (year, s) = digits(s, 4)?;
    let (month, s) = digits(byte(s, b'-')?, 2)?;
    let (day, s) = digits(byte(s, b'-')?, 2)?;
    (1..=days_in_month(year, month)).contains(&day).then_some(s)
}

/// The days of a month, 0 for a month that is not one (RFC 3339 5.7, and Appendix C's leap
/// years: every fourth, but not centuries, but every fourth century).
fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    }
}

/// `full-time = partial-time time-offset`, where
/// `partial-time = time-hour ":" time-minute ":" time-second [time-secfrac]`,
/// `time-secfrac = "." 1*DIGIT`, `time-offset = "Z" / time-numoffset` and
/// `time-numoffset = ("+" / "-") time-hour ":" time-minute`; hours 00-23, minutes 00-59, and
/// `time-second = 2DIGIT ; 00-58, 00-59, 00-60 based on leap second rules`.
fn full_time(s: &[u8]) -> Option<&[u8]> {
    let (hour, s) = digits(s, 2)?;
    let (minute, s) = digits(byte(s, b':')?, 2)?;
    let (second, s) = digits(byte(s, b':')?, 2)?;
    let s = match byte(s, b'.') {
        Some(fraction) if leading_digits(fraction) > 0 => {
            fraction.get(leading_digits(fraction)..)?
        }
        Some(_) => return None,
        None => s,
    };
    // The offset, in minutes east of UTC.
    let (offset, s) = match s.split_first()? {
        (b'Z' | b'z', rest) => (0, rest),
        (&sign @ (b'+' | b'-'), rest) => {
            let (hours, rest) = digits(rest, 2)?;
            let (minutes, rest) = digits(byte(rest, b':')?, 2)?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = (hours * 60 + minutes) as i32;
            (if sign == b'+' { offset } else { -offset }, rest)
        }
        _ => return None,
    };
    // A leap second is the last second of a UTC day: the local 23:59, the offset taken off.
    let utc = ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60);
    let second_ok = second <= 59 || (second == 60 && utc == 23 * 60 + 59);
    (hour <= 23 && minute <= 59 && second_ok).then_some(s)
}

// ---- RFC 3339 Appendix A: duration.

/// `duration = "P" (dur-date / dur-time / dur-week)`, where
/// `dur-date = (dur-day / dur-month / dur-year) [dur-time]`,
/// `dur-time = "T" (dur-hour / dur-minute / dur-second)` and `dur-week = 1*DIGIT "W"`.
fn duration(s: &[u8]) -> bool {
    let Some(s) = byte(s, b'P') else {
        return false;
    };
    if let (1, []) = units(s, b"W") {
        return true;
    }
    let (date, s) = units(s, b"YMD");
    let (time, s) = match byte(s, b'T') {
        Some(s) => match units(s, b"HMS") {
            (0, _) => return false,
            found => found,
        },
        None => (0, s),
    };
    s.is_empty() && date + time > 0
}

/// How many `1*DIGIT unit` elements start `s`, with units that follow each other in `order`,
/// and what follows them. The nesting of the ABNF,
/// `dur-year = 1*DIGIT "Y" [dur-month]`, `dur-month = 1*DIGIT "M" [dur-day]`,
/// `dur-day = 1*DIGIT "D"`, and `dur-hour = 1*DIGIT "H" [dur-minute]`,
/// `dur-minute = 1*DIGIT "M" [dur-second]`, `dur-second = 1*DIGIT "S"`, comes to this: the
/// first unit may be any of `order`, and each further one must be the next in it.
fn units<'a>(mut s: &'a [u8], order: &[u8]) -> (usize, &'a [u8]) {
    let mut count = 0;
    let mut next = None;
    loop {
        let n = leading_digits(s);
        let unit = s.get(n).map(u8::to_ascii_uppercase);
        let Some(at) = order.iter().position(|&u| Some(u) == unit) else {
            break;
        };
        if n == 0 || next.is_some_and(|next| next != at) {
            break;
        }
        count += 1;
        next = Some(at + 1);
        s = s.get(n + 1..).unwrap_or_default();
    }
    (count, s)
}

// ---- RFC 5321 4.1.2: email.

/// `Mailbox = Local-part "@" ( Domain / address-literal )`, where
/// `address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
/// General-address-literal ) "]"` and `IPv6-address-literal = "IPv6:" IPv6-addr`. A
/// `General-address-literal` needs a tag registered with IANA, and only `IPv6` is. A `Domain`
/// is a host name.
fn email(s: &[u8]) -> bool {
    let Some(local) = local_part(s) else {
        return false;
    };
    let Some(domain) = s.get(local..).and_then(|rest| byte(rest, b'@')) else {
        return false;
    };
    let literal = domain.strip_prefix(b"[").and_then(|d| d.strip_suffix(b"]"));
    let domain_ok = match literal {
        Some(literal) => prefix(literal, b"IPv6:").map_or_else(|| ipv4(literal), ipv6),
        None => hostname(domain),
    };
    local <= 64 && domain_ok
}

/// The length of the `Local-part = Dot-string / Quoted-string` that starts `s`, where
/// `Dot-string = Atom *("." Atom)`, `Atom = 1*atext`,
/// `Quoted-string = DQUOTE *QcontentSMTP DQUOTE`, `QcontentSMTP = qtextSMTP / quoted-pairSMTP`,
/// `quoted-pairSMTP = %d92 %d32-126` and `qtextSMTP = %d32-33 / %d35-91 / %d93-126`.
fn local_part(s: &[u8]) -> Option<usize> {
    if s.first() == Some(&b'"') {
        let mut i = 1;
        loop {
            match *s.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' if (32..=126).contains(s.get(i + 1)?) => i += 2,
                b'\\' => return None,
                32..=126 => i += 1,
                _ => return None,
            }
        }
    }
    let len = s.iter().take_while(|&&b| atext(b) || b == b'.').count();
    let dot_string = s.get(..len)?;
    let atoms_ok = dot_string
        .split(|&b| b == b'.')
        .all(|atom| !atom.is_empty());
    (len > 0 && atoms_ok).then_some(len)
}

/// `atext = ALPHA / DIGIT / "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "/" / "=" /
/// "?" / "^" / "_" / "`" / "{" / "|" / "}" / "~"` (RFC 5322 3.2.3, which RFC 5321 cites).
fn atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

// ---- RFC 1123 2.1 and RFC 1034: hostname.

/// A host name: labels joined by `.`, at most 253 octets (RFC 1034 3.1's 255, less the length
/// octets of the wire form), with no trailing dot. RFC 1123 2.1: "a valid host name can never
/// have the dotted-decimal form #.#.#.#".
fn hostname(s: &[u8]) -> bool {
    if s.len() > 253 {
        return false;
    }
    let dots = s.iter().filter(|&&b| b == b'.').count();
    let dotted_decimal = dots == 3 && s.iter().all(|&b| b == b'.' || b.is_ascii_digit());
    !dotted_decimal && s.split(|&b| b == b'.').all(label)
}

/// `<label> ::= <let-dig> [ [ <ldh-str> ] <let-dig> ]` (RFC 1034 3.5, with the leading digit
/// RFC 1123 2.1 allows), at most 63 octets; one that starts `xn--` must be an A-label.
fn label(l: &[u8]) -> bool {
    let let_dig = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    let ldh = l.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-');
    let_dig(l.first())
        && let_dig(l.last())
        && ldh
        && l.len() <= 63
        && prefix(l, b"xn--").is_none_or(a_label)
}

/// Whether the text after `xn--` is the Punycode of a U-label (RFC 5890 2.3.2.1): it decodes,
/// and what it decodes to passes [`u_label`].
fn a_label(encoded: &[u8]) -> bool {
    let mut buffer = ['\0'; 63];
    punycode(encoded, &mut buffer).is_some_and(u_label)
}

/// RFC 3492 6.2, Punycode's decoding procedure, with its parameters (5): the code points
/// before the last `-` are copied, and each generalized variable-length integer after it says
/// where to insert which code point. `None` where the RFC says "fail", on overflow, and on a
/// code point that is basic or not a Unicode scalar value.
fn punycode<'b>(input: &[u8], out: &'b mut [char; 63]) -> Option<&'b [char]> {
    const BASE: u32 = 36;
    const TMIN: u32 = 1;
    const TMAX: u32 = 26;
    let (basic, deltas) = match input.iter().rposition(|&b| b == b'-') {
        Some(at) if at > 0 => (input.get(..at)?, input.get(at + 1..)?),
        _ => (&b""[..], input),
    };
    let mut len = 0;
    for &b in basic {
        *out.get_mut(len)? = char::from(b);
        len += 1;
    }
    let (mut n, mut i, mut bias) = (0x80_u32, 0_u32, 72_u32);
    let mut digits = deltas.iter();
    while !digits.as_slice().is_empty() {
        let (old_i, mut w, mut k) = (i, 1_u32, BASE);
        loop {
            let digit = match *digits.next()? {
                b @ b'a'..=b'z' => b - b'a',
                b @ b'A'..=b'Z' => b - b'A',
                b @ b'0'..=b'9' => b - b'0' + 26,
                _ => return None,
            };
            let digit = u32::from(digit);
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = k.saturating_sub(bias).clamp(TMIN, TMAX);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let count = len as u32 + 1;
        bias = adapt(i - old_i, count, old_i == 0);
        n = n.checked_add(i / count)?;
        i %= count;
        let c = char::from_u32(n).filter(|c| !c.is_ascii())?;
        let tail = out.get_mut(i as usize..=len)?;
        tail.rotate_right(1);
        *tail.first_mut()? = c;
        len += 1;
        i += 1;
    }
    out.get(..len)
}

/// RFC 3492 6.1, bias adaptation, with `damp = 700` and `skew = 38`.
fn adapt(delta: u32, count: u32, first: bool) -> u32 {
    let mut delta = if first { delta / 700 } else { delta / 2 };
    delta += delta / count;
    let mut k = 0;
    while delta > (35 * 26) / 2 {
        delta /= 35;
        k += 36;
    }
    k + (36 * delta) / (delta + 38)
}

/// The checks of a U-label that need no table of every code point: it has a non-ASCII code
/// point (RFC 5890 2.3.2.1), no `--` in its third and fourth positions and no `-` at either
/// end (RFC 5891 4.2.3.1), and every code point keeps RFC 5892's rule for it, if any.
fn u_label(u: &[char]) -> bool {
    u.iter().any(|c| !c.is_ascii())
        && u.get(2..4) != Some(&['-', '-'][..])
        && u.first() != Some(&'-')
        && u.last() != Some(&'-')
        && (0..u.len()).all(|at| code_point_ok(u, at))
}

/// RFC 5892's rules for the code point at `at` of U-label `u` that name it: the exceptions
/// (2.6) that are DISALLOWED, and the contextual rules (Appendix A).
fn code_point_ok(u: &[char], at: usize) -> bool {
    let before = at.checked_sub(1).and_then(|b| u.get(b)).copied();
    let after = u.get(at + 1).copied();
    let any = |table: &[(u32, u32)]| u.iter().any(|&c| in_table(table, c));
    match u.get(at).map_or(0, |&c| u32::from(c)) {
        // 2.6: ARABIC TATWEEL, NKO LAJANYALAN, two HANGUL tone marks, five VERTICAL KANA
        // REPEAT marks and VERTICAL IDEOGRAPHIC ITERATION MARK.
        0x0640 | 0x07FA | 0x302E | 0x302F | 0x3031..=0x3035 | 0x303B => false,
        // A.1, ZERO WIDTH NON-JOINER: after a virama, or between letters that join. Telling
        // the second needs every code point's Joining_Type, which is not checked: it passes.
        0x200C => true,
        // A.2, ZERO WIDTH JOINER: `If Canonical_Combining_Class(Before(cp)) .eq. Virama Then True`.
        0x200D => before.is_some_and(|c| in_table(VIRAMA, c)),
        // A.3, MIDDLE DOT: `If Before(cp) .eq. U+006C And After(cp) .eq. U+006C Then True`.
        0x00B7 => before == Some('l') && after == Some('l'),
        // A.4, GREEK LOWER NUMERAL SIGN (KERAIA): `If Script(After(cp)) .eq. Greek Then True`.
        0x0375 => after.is_some_and(|c| in_table(GREEK, c)),
        // A.5 and A.6, HEBREW PUNCTUATION GERESH and GERSHAYIM:
        // `If Script(Before(cp)) .eq. Hebrew Then True`.
        0x05F3 | 0x05F4 => before.is_some_and(|c| in_table(HEBREW, c)),
        // A.7, KATAKANA MIDDLE DOT: `For All Characters: If Script(cp) .in. {Hiragana, Katakana,
        // Han} Then True`.
        0x30FB => any(KANA_HAN),
        // A.8 and A.9, ARABIC-INDIC DIGITS and EXTENDED ARABIC-INDIC DIGITS: never both kinds.
        0x0660..=0x0669 => !any(&[(0x06F0, 0x06F9)]),
        0x06F0..=0x06F9 => !any(&[(0x0660, 0x0669)]),
        _ => true,
    }
}

/// Whether `c` is in one of a table's sorted, disjoint, inclusive ranges.
fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = u32::from(c);
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                Ordering::Less
            } else if lo > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

// ---- RFC 2673 3.2, RFC 4291 2.2 and RFC 3986 3.2.2: ipv4 and ipv6.

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`, where
/// `dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35`: 0 to
/// 255, with no leading zero.
fn ipv4(s: &[u8]) -> bool {
    let mut parts = 0;
    s.split(|&b| b == b'.').all(|part| {
        parts += 1;
        matches!(part.len(), 1..=3)
            && (part.len() == 1 || part.first() != Some(&b'0'))
            && digits(part, part.len()).is_some_and(|(value, _)| value <= 255)
    }) && parts == 4
}

/// RFC 4291 2.2's text forms, as RFC 3986 3.2.2 writes them:
/// `IPv6address = 6( h16 ":" ) ls32 / "::" 5( h16 ":" ) ls32 / [ h16 ] "::" 4( h16 ":" ) ls32 /
/// ... / [ *6( h16 ":" ) h16 ] "::"`, with `h16 = 1*4HEXDIG` and
/// `ls32 = ( h16 ":" h16 ) / IPv4address`. That is, eight 16-bit pieces, the last two of which
/// may be written as an IPv4 address, or fewer around one `::` that stands for at least one.
fn ipv6(s: &[u8]) -> bool {
    match s.windows(2).position(|w| w == b"::") {
        Some(at) => {
            let head = pieces(s.get(..at).unwrap_or_default(), false);
            let tail = pieces(s.get(at + 2..).unwrap_or_default(), true);
            matches!((head, tail), (Some(h), Some(t)) if h + t <= 7)
        }
        None => pieces(s, true) == Some(8),
    }
}

/// How many 16-bit pieces `s` writes: `h16`s joined by `:`, the last of which may be an
/// `IPv4address` (two pieces) when `v4` says it may. Empty `s` writes none.
fn pieces(s: &[u8], v4: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut count = 0;
    let mut parts = s.split(|&b| b == b':').peekable();
    while let Some(part) = parts.next() {
        if (1..=4).contains(&part.len()) && part.iter().all(u8::is_ascii_hexdigit) {
            count += 1;
        } else if v4 && parts.peek().is_none() && ipv4(part) {
            count += 2;
        } else {
            return None;
        }
    }
    Some(count)
}

// ---- RFC 3986: uri.

/// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (3), where
/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (3.1) and
/// `query = *( pchar / "/" / "?" )`, `fragment = *( pchar / "/" / "?" )` (3.4, 3.5).
fn uri(s: &[u8]) -> bool {
    let (scheme, Some(rest)) = split(s, b':') else {
        return false;
    };
    let scheme_ok = scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b));
    let (rest, fragment) = split(rest, b'#');
    let (hier, query) = split(rest, b'?');
    let after_ok = [query, fragment]
        .into_iter()
        .flatten()
        .all(|part| uri_chars(part, b":@/?"));
    scheme_ok && after_ok && hier_part(hier)
}

/// `hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty` (3),
/// with `path-abempty = *( "/" segment )`, `segment = *pchar` and
/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"` (3.3). Without `//`, each of the
/// other three is a run of `pchar` and `/` that does not start `//`.
fn hier_part(s: &[u8]) -> bool {
    match s.strip_prefix(b"//") {
        Some(rest) => {
            let end = rest.iter().position(|&b| b == b'/').unwrap_or(rest.len());
            let (authority_part, path) = rest.split_at_checked(end).unwrap_or_default();
            authority(authority_part) && uri_chars(path, b":@/")
        }
        None => uri_chars(s, b":@/"),
    }
}

/// `authority = [ userinfo "@" ] host [ ":" port ]` (3.2), with
/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`,
/// `host = IP-literal / IPv4address / reg-name`, `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`,
/// `reg-name = *( unreserved / pct-encoded / sub-delims )` (which takes in every IPv4address)
/// and `port = *DIGIT`.
fn authority(s: &[u8]) -> bool {
    let (userinfo, host_port) = match split(s, b'@') {
        (userinfo, Some(host_port)) => (userinfo, host_port),
        (host_port, None) => (&b""[..], host_port),
    };
    let host_end = match host_port.first() {
        Some(b'[') => host_port.iter().position(|&b| b == b']').map(|end| end + 1),
        _ => Some(
            host_port
                .iter()
                .position(|&b| b == b':')
                .unwrap_or(host_port.len()),
        ),
    };
    let Some((host, port)) = host_end.and_then(|end| host_port.split_at_checked(end)) else {
        return false;
    };
    let host_ok = match host.strip_prefix(b"[").and_then(|h| h.strip_suffix(b"]")) {
        Some(literal) => ipv6(literal) || ip_future(literal),
        None => uri_chars(host, b""),
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(b":")
            .is_some_and(|p| p.iter().all(u8::is_ascii_digit));
    uri_chars(userinfo, b":") && host_ok && port_ok
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )` (3.2.2).
fn ip_future(s: &[u8]) -> bool {
    let Some(s) = byte(s, b'v') else {
        return false;
    };
    let hex = s.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    match s.get(hex..).and_then(|rest| byte(rest, b'.')) {
        Some(rest) => hex > 0 && !rest.is_empty() && !rest.contains(&b'%') && uri_chars(rest, b":"),
        None => false,
    }
}

/// Whether `s` is only `unreserved`, `sub-delims`, `pct-encoded` and bytes of `extra`:
/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"` (2.3),
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="` (2.2) and
/// `pct-encoded = "%" HEXDIG HEXDIG` (2.1).
fn uri_chars(s: &[u8], extra: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if b == b'%' {
            let hex = s.get(i + 1..i + 3);
            if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
        } else if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b) || extra.contains(&b)
        {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

// ---- RFC 4122 3: uuid.

/// `UUID = time-low "-" time-mid "-" time-high-and-version "-" clock-seq-and-reserved
/// clock-seq-low "-" node`: 8, 4, 4, 4 and 12 hex digits, which "are case insensitive on input".
fn uuid(s: &[u8]) -> bool {
    s.len() == 36
        && s.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

// ---- Unicode tables for the contextual rules of RFC 5892 Appendix A.

/// Whether a table's ranges are each in order and sorted without overlap, as
/// [`in_table`]'s binary search needs: checked when the crate is compiled.
const fn sorted(table: &[(u32, u32)]) -> bool {
    let mut i = 0;
    while i < table.len() {
        if table[i].0 > table[i].1 || (i > 0 && table[i - 1].1 >= table[i].0) {
            return false;
        }
        i += 1;
    }
    true
}

const _: () = assert!(sorted(GREEK) && sorted(HEBREW) && sorted(KANA_HAN) && sorted(VIRAMA));

// Written by tests/formats/unicode_tables.py; not edited by hand.
/// Script Greek: what must follow a KERAIA (RFC 5892 A.4).
/// `\p{Script=Greek}`, Unicode 17.0.
#[rustfmt::skip]
const GREEK: &[(u32, u32)] = &[
    (0x370, 0x373), (0x375, 0x37D), (0x37F, 0x384), (0x386, 0x386), (0x388, 0x3E1), (0x3F0, 0x3FF),
    (0x1D26, 0x1D2A), (0x1D5D, 0x1D61), (0x1D66, 0x1D6A), (0x1DBF, 0x1DBF), (0x1F00, 0x1FFE),
    (0x2126, 0x2126), (0xAB65, 0xAB65), (0x10140, 0x1018E), (0x101A0, 0x101A0), (0x1D200, 0x1D245),
];
/// Script Hebrew: what must precede a GERESH or a GERSHAYIM (RFC 5892 A.5, A.6).
/// `\p{Script=Hebrew}`, Unicode 17.0.
#[rustfmt::skip]
const HEBREW: &[(u32, u32)] = &[
    (0x591, 0x5F4), (0xFB1D, 0xFB4F),
];
/// Scripts Hiragana, Katakana and Han: a label with a KATAKANA MIDDLE DOT holds one
/// of them (RFC 5892 A.7).
/// `[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]`, Unicode 17.0.
#[rustfmt::skip]
const KANA_HAN: &[(u32, u32)] = &[
    (0x2E80, 0x2FD5), (0x3005, 0x3005), (0x3007, 0x3007), (0x3021, 0x3029), (0x3038, 0x303B),
    (0x3041, 0x3096), (0x309D, 0x309F), (0x30A1, 0x30FA), (0x30FD, 0x30FF), (0x31F0, 0x31FF),
    (0x32D0, 0x32FE), (0x3300, 0x3357), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAD9),
    (0xFF66, 0xFF6F), (0xFF71, 0xFF9D), (0x16FE2, 0x16FE3), (0x16FF0, 0x16FF6), (0x1AFF0, 0x1B167),
    (0x1F200, 0x1F200), (0x20000, 0x33479),
];
/// Canonical_Combining_Class Virama: what must precede a ZERO WIDTH JOINER
/// (RFC 5892 A.2).
/// `\p{ccc=9}`, Unicode 17.0.
#[rustfmt::skip]
const VIRAMA: &[(u32, u32)] = &[
    (0x94D, 0x94D), (0x9CD, 0x9CD), (0xA4D, 0xA4D), (0xACD, 0xACD), (0xB4D, 0xB4D), (0xBCD, 0xBCD),
    (0xC4D, 0xC4D), (0xCCD, 0xCCD), (0xD3B, 0xD3C), (0xD4D, 0xD4D), (0xDCA, 0xDCA), (0xE3A, 0xE3A),
    (0xEBA, 0xEBA), (0xF84, 0xF84), (0x1039, 0x103A), (0x1714, 0x1715), (0x1734, 0x1734),
    (0x17D2, 0x17D2), (0x1A60, 0x1A60), (0x1B44, 0x1B44), (0x1BAA, 0x1BAB), (0x1BF2, 0x1BF3),
    (0x2D7F, 0x2D7F), (0xA806, 0xA806), (0xA82C, 0xA82C), (0xA8C4, 0xA8C4), (0xA953, 0xA953),
    (0xA9C0, 0xA9C0), (0xAAF6, 0xAAF6), (0xABED, 0xABED), (0x10A3F, 0x10A3F), (0x11046, 0x11046),
    (0x11070, 0x11070), (0x1107F, 0x1107F), (0x110B9, 0x110B9), (0x11133, 0x11134),
    (0x111C0, 0x111C0), (0x11235, 0x11235), (0x112EA, 0x112EA), (0x1134D, 0x1134D),
    (0x113CE, 0x113D0), (0x11442, 0x11442), (0x114C2, 0x114C2), (0x115BF, 0x115BF),
    (0x1163F, 0x1163F), (0x116B6, 0x116B6), (0x1172B, 0x1172B), (0x11839, 0x11839),
    (0x1193D, 0x1193E), (0x119E0, 0x119E0), (0x11A34, 0x11A34), (0x11A47, 0x11A47),
    (0x11A99, 0x11A99), (0x11C3F, 0x11C3F), (0x11D44, 0x11D45), (0x11D97, 0x11D97),
    (0x11F41, 0x11F42), (0x1612F, 0x1612F),
];
