//! JSON numbers compared and divided exactly, as written: no floats.
//!
//! JSON Schema compares numbers by value (`enum`, `const` and `uniqueItems` take `1`, `1.0`,
//! `1e0` and `10e-1` as one value, and `-0` as `0`) and asks whether one is an integer multiple
//! of another (`multipleOf`: `0.3` is a multiple of `0.1`). A 64-bit float gets both wrong for
//! some literal a catalog or a model writes (`0.3 / 0.1` is `2.9999999999999996`, and two long
//! literals can round to one float), so this module works on the literal's decimal digits.
//!
//! A literal is read as `X·10^a`: its significant digits `X` (leading and trailing zeros
//! dropped) and the place `a` of the last of them. The digits are only walked, never copied, so
//! nothing here allocates, and an exponent is never used as a loop count: `1e999999999` costs
//! what `1e9` does. Exponents of any length are compared exactly (see [`compare`]).
//!
//! The literals are meant to be RFC 8259 numbers as the tokenizer passes them (`-`? then `0`
//! or a digit string without a leading zero, then an optional `.` and digits, then an
//! optional `e`/`E`, sign and digits). Anything else is called malformed here; each function
//! says what it makes of one, and none panics on any input.

use std::cmp::Ordering;

/// Where each part of a valid literal lies, as byte offsets into it, and where its significant
/// digits are among its digits (the integer part's then the fraction's, the `.` skipped).
#[derive(Clone, Copy)]
struct Parts {
    negative: bool,
    int_start: usize,
    int_end: usize,
    frac_start: usize,
    exp_negative: bool,
    exp_start: usize,
    exp_end: usize,
    /// Index of the first nonzero digit; 0 when there is none.
    first: usize,
    /// Index of the last nonzero digit; 0 when there is none.
    last: usize,
    /// No nonzero digit: the value is zero, whatever the sign and exponent.
    zero: bool,
}

impl Parts {
    /// The digit at `i` among the literal's digits, as a number; `i` must be below the count.
    const fn digit(&self, literal: &[u8], i: usize) -> u8 {
        let int_len = self.int_end - self.int_start;
        let at = if i < int_len {
            self.int_start + i
        } else {
            self.frac_start + (i - int_len)
        };
        literal[at].wrapping_sub(b'0')
    }

    /// How many significant digits: from the first nonzero one to the last, inclusive.
    const fn significant(&self) -> usize {
        self.last - self.first + 1
    }

    /// The place of the digit at `i` (0 for units, -1 for tenths), less the exponent: the
    /// integer part's length minus one minus `i`. Never overflows: lengths fit a usize.
    const fn place_offset(&self, i: usize) -> i128 {
        (self.int_end - self.int_start) as i128 - 1 - i as i128
    }
}

/// Beyond this magnitude an exponent (or a difference of two) is only known by its sign. A
/// literal's length fits a usize, so the places its digits add to an exponent are below
/// 2^64: nothing that size can bring a number past this back to zero or across it.
const BIG: i128 = 1 << 100;

/// Reads `literal` as an RFC 8259 number; `None` when it is malformed.
const fn parts(literal: &[u8]) -> Option<Parts> {
    let n = literal.len();
    let mut i = 0;
    let negative = n > 0 && literal[0] == b'-';
    if negative {
        i = 1;
    }
    let int_start = i;
    if i < n && literal[i] == b'0' {
        i += 1;
    } else if i < n && literal[i] >= b'1' && literal[i] <= b'9' {
        while i < n && literal[i].is_ascii_digit() {
            i += 1;
        }
    } else {
        return None;
    }
    let int_end = i;
    let mut frac_start = i;
    if i < n && literal[i] == b'.' {
        i += 1;
        frac_start = i;
        while i < n && literal[i].is_ascii_digit() {
            i += 1;
        }
        if i == frac_start {
            return None;
        }
    }
    let frac_end = i;
    let mut exp_negative = false;
    let mut exp_start = i;
    if i < n && (literal[i] == b'e' || literal[i] == b'E') {
        i += 1;
        if i < n && (literal[i] == b'+' || literal[i] == b'-') {
            exp_negative = literal[i] == b'-';
            i += 1;
        }
        exp_start = i;
        while i < n && literal[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return None;
        }
    }
    if i != n {
        return None;
    }
    let mut parts = Parts {
        negative,
        int_start,
        int_end,
        frac_start,
        exp_negative,
        exp_start,
        exp_end: i,
        first: 0,
        last: 0,
        zero: true,
    };
    let count = (int_end - int_start) + (frac_end - frac_start);
    let mut d = 0;
    while d < count {
        if parts.digit(literal, d) != 0 {
            if parts.zero {
                parts.first = d;
                parts.zero = false;
            }
            parts.last = d;
        }
        d += 1;
    }
    Some(parts)
}

/// The literal's exponent (0 when it has none): exact up to [`BIG`], and past it a value with
/// the right sign and a magnitude above [`BIG`].
const fn exponent(literal: &[u8], parts: &Parts) -> i128 {
    let mut value: i128 = 0;
    let mut i = parts.exp_start;
    while i < parts.exp_end && value <= BIG {
        value = value * 10 + literal[i].wrapping_sub(b'0') as i128;
        i += 1;
    }
    if parts.exp_negative {
        -value
    } else {
        value
    }
}

/// `a`'s exponent minus `b`'s: exact up to [`BIG`] in magnitude, and past it a value with the
/// right sign and a magnitude above [`BIG`]. Both exponents may have any number of digits.
fn exponent_difference(a: &[u8], x: &Parts, b: &[u8], y: &Parts) -> i128 {
    let (a_len, b_len) = (x.exp_end - x.exp_start, y.exp_end - y.exp_start);
    let len = a_len.max(b_len);
    let signed = |negative: bool, digit: u8| {
        let digit = i128::from(digit.wrapping_sub(b'0'));
        if negative {
            -digit
        } else {
            digit
        }
    };
    let mut difference: i128 = 0;
    // The digits right-aligned, the shorter exponent's missing ones taken as 0. Once the
    // difference passes BIG (> 2), each further step (times 10, plus at most 18 either way)
    // only moves it further out on its side, so the loop stops there.
    for place in 0..len {
        if difference.abs() > BIG {
            break;
        }
        let from_a = (place + a_len >= len).then(|| a[x.exp_start + place + a_len - len]);
        let from_b = (place + b_len >= len).then(|| b[y.exp_start + place + b_len - len]);
        difference = difference * 10 + from_a.map_or(0, |d| signed(x.exp_negative, d))
            - from_b.map_or(0, |d| signed(y.exp_negative, d));
    }
    difference
}

/// The place of `a`'s digit `i` minus the place of `b`'s digit `j`, with the same guarantee as
/// [`exponent_difference`] (the offsets added are below 2^64, far under [`BIG`]).
fn place_difference(a: &[u8], x: &Parts, i: usize, b: &[u8], y: &Parts, j: usize) -> i128 {
    exponent_difference(a, x, b, y) + x.place_offset(i) - y.place_offset(j)
}

/// Whether two JSON number literals have the same value, as `enum`, `const` and `uniqueItems`
/// compare numbers: `1`, `1.0`, `1e0` and `10e-1` are one value, `-0` is `0`, and `0.1` is not
/// the float nearest to it. Exact for any length of digits or exponent; allocates nothing; time
/// linear in the literals' lengths.
///
/// A malformed literal (see the [module docs](self)) has the same value only as a literal of
/// exactly the same bytes.
///
/// ```
/// use tool_schema::number::same_value;
/// assert!(same_value(b"1", b"10e-1"));
/// assert!(same_value(b"-0", b"0.0e7"));
/// assert!(!same_value(b"0.1", b"0.1000000000000000055511151231257827"));
/// ```
pub fn same_value(a: &[u8], b: &[u8]) -> bool {
    let (Some(x), Some(y)) = (parts(a), parts(b)) else {
        return a == b;
    };
    if x.zero || y.zero {
        return x.zero && y.zero;
    }
    x.negative == y.negative
        && x.significant() == y.significant()
        && place_difference(a, &x, x.last, b, &y, y.last) == 0
        && (0..x.significant()).all(|k| x.digit(a, x.first + k) == y.digit(b, y.first + k))
}

/// The exact order of two JSON number literals' values, for bounds such as `minimum` and
/// `exclusiveMaximum` where a float could round a value onto its bound. [`Ordering::Equal`]
/// exactly when [`same_value`] holds. Allocates nothing; time linear in the literals' lengths.
///
/// Malformed literals sort after every number and among themselves by their bytes, so that the
/// order stays total; the callers never pass one.
///
/// ```
/// use std::cmp::Ordering;
/// use tool_schema::number::compare;
/// assert_eq!(compare(b"0.30000000000000001", b"0.3"), Ordering::Greater);
/// assert_eq!(compare(b"-1e999999999", b"-1e999999998"), Ordering::Less);
/// assert_eq!(compare(b"1E2", b"100.0"), Ordering::Equal);
/// ```
pub fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let (x, y) = match (parts(a), parts(b)) {
        (Some(x), Some(y)) => (x, y),
        (Some(_), None) => return Ordering::Less,
        (None, Some(_)) => return Ordering::Greater,
        (None, None) => return a.cmp(b),
    };
    let sign = |p: &Parts| match (p.zero, p.negative) {
        (true, _) => 0,
        (false, true) => -1,
        (false, false) => 1,
    };
    match sign(&x).cmp(&sign(&y)) {
        Ordering::Equal if x.zero => Ordering::Equal,
        Ordering::Equal if x.negative => compare_magnitudes(a, &x, b, &y).reverse(),
        Ordering::Equal => compare_magnitudes(a, &x, b, &y),
        other => other,
    }
}

/// The order of two nonzero literals' absolute values: the places of their leading digits
/// first, then their significant digits from the leading one down.
fn compare_magnitudes(a: &[u8], x: &Parts, b: &[u8], y: &Parts) -> Ordering {
    let places = place_difference(a, x, x.first, b, y, y.first);
    if places != 0 {
        return places.cmp(&0);
    }
    for k in 0..x.significant().min(y.significant()) {
        let order = x.digit(a, x.first + k).cmp(&y.digit(b, y.first + k));
        if order != Ordering::Equal {
            return order;
        }
    }
    // One is the other's digits followed by more, the last of them nonzero.
    x.significant().cmp(&y.significant())
}

/// A `multipleOf` value, read once when the catalog is read, so that checking a call only walks
/// the call's digits. It holds the divisor as `significand·10^place`, the significand without
/// trailing zeros; 16 bytes, `Copy`, and [`Divisor::parse`] is a `const fn`, so a table built at
/// compile time can hold one:
///
/// ```
/// use tool_schema::number::Divisor;
/// const TENTH: Divisor = match Divisor::parse(b"0.1") {
///     Ok(divisor) => divisor,
///     Err(_) => panic!("0.1 is a divisor"),
/// };
/// assert!(TENTH.divides(b"0.3"));
/// assert!(!TENTH.divides(b"0.35"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Divisor {
    /// The significant digits, without trailing zeros: at least 1.
    significand: u64,
    /// The place of the significand's last digit (-1 for tenths).
    place: i64,
}

/// Whether a number literal is an integer, whatever its spelling: `1.0`, `1e2` and `-0` are.
/// JSON Schema's data model counts any number with a zero fractional part as an integer
/// (json-schema.org/draft/2020-12/json-schema-core, 4.2.1, "Instance Data Model"), for `type`
/// and for the keywords that take one. A malformed literal is none.
pub(crate) fn is_integer(literal: &[u8]) -> bool {
    match parts(literal) {
        None => false,
        Some(parts) if parts.zero => true,
        Some(parts) => exponent(literal, &parts) + parts.place_offset(parts.last) >= 0,
    }
}

/// A count keyword's value (`maxItems`, `minLength`...): 2020-12's validation vocabulary asks
/// for "a non-negative integer", which `2.0` and `1e1` are ([`is_integer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    /// The integer it is.
    Of(u64),
    /// A non-negative integer beyond `u64`.
    TooLarge,
    /// A fraction, a negative number, or a malformed literal.
    Refused,
}

/// Reads a count keyword's literal exactly, in time linear in its length.
pub(crate) fn count(literal: &[u8]) -> Count {
    let Some(parts) = parts(literal) else {
        return Count::Refused;
    };
    if parts.zero {
        return Count::Of(0);
    }
    if parts.negative || !is_integer(literal) {
        return Count::Refused;
    }
    // `X·10^place`, the last significant digit's place at least 0 (an integer).
    let place = exponent(literal, &parts) + parts.place_offset(parts.last);
    let mut value: u64 = 0;
    for i in parts.first..=parts.last {
        let digit = u64::from(parts.digit(literal, i));
        match value.checked_mul(10).and_then(|v| v.checked_add(digit)) {
            Some(next) => value = next,
            None => return Count::TooLarge,
        }
    }
    let scale = u32::try_from(place)
        .ok()
        .and_then(|place| 10u64.checked_pow(place));
    match scale.and_then(|scale| value.checked_mul(scale)) {
        Some(value) => Count::Of(value),
        None => Count::TooLarge,
    }
}

/// The largest integer magnitude a call's argument may hold: 2^53 − 1, beyond which a 64-bit
/// float (what most harnesses parse into) no longer holds every integer.
pub(crate) const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A number literal of a call as a harness reads it, a 64-bit float: infinite when it is beyond
/// one (`1e400`), or is no number at all.
pub(crate) fn float(literal: &[u8]) -> f64 {
    std::str::from_utf8(literal)
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .unwrap_or(f64::INFINITY)
}

/// The offset of the first number of the JSON value at `at` (valid JSON, read already) that a
/// 64-bit float cannot hold, if one is: byte by byte, to any depth, with no stack.
pub(crate) fn overflowing_number(text: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while let Some(&byte) = text.get(i) {
        match byte {
            b'"' => {
                i += 1;
                while let Some(&inside) = text.get(i) {
                    match inside {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let number = text[i..]
                    .iter()
                    .position(|&b| !matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                    .map_or(&text[i..], |len| &text[i..i + len]);
                if !float(number).is_finite() {
                    return Some(i);
                }
                i += number.len();
            }
            _ => i += 1,
        }
        if depth == 0 {
            break;
        }
    }
    None
}

/// The most significant digits a divisor may have: any 19-digit significand fits a u64.
pub const MAX_DIVISOR_DIGITS: usize = 19;

impl Divisor {
    /// Reads a `multipleOf` literal. The error is a one-line reason, for the catalog reader's
    /// refusal: the literal is malformed, not above 0, has more than [`MAX_DIVISOR_DIGITS`]
    /// significant digits (trailing zeros are not significant: `1000` and `0.0010` have one),
    /// or is so large or small that the place of its last significant digit is outside an i64
    /// (beyond `1e9223372036854775807`, say), which no schema writes.
    pub const fn parse(literal: &[u8]) -> Result<Divisor, &'static str> {
        let Some(parts) = parts(literal) else {
            return Err("multipleOf must be a JSON number");
        };
        if parts.zero || parts.negative {
            return Err("multipleOf must be greater than 0");
        }
        if parts.significant() > MAX_DIVISOR_DIGITS {
            return Err("multipleOf may have at most 19 significant digits");
        }
        let place = exponent(literal, &parts) + parts.place_offset(parts.last);
        if place < i64::MIN as i128 || place > i64::MAX as i128 {
            return Err("multipleOf's exponent is too large or too small");
        }
        let mut significand: u64 = 0;
        let mut k = parts.first;
        while k <= parts.last {
            significand = significand * 10 + parts.digit(literal, k) as u64;
            k += 1;
        }
        Ok(Divisor {
            significand,
            place: place as i64,
        })
    }

    /// Whether the value of `literal` is an integer multiple of this divisor, exactly: `0.3` of
    /// `0.1`, any integer of `1e-8`, and `1e308` of `0.5` but not of `0.123456789`. Zero is a
    /// multiple of every divisor; the sign does not matter. Allocates nothing; time linear in
    /// the literal's length, whatever its exponent. A malformed literal is no multiple.
    ///
    /// With `literal` = `X·10^a` and the divisor `D·10^b` (`X` and `D` without trailing
    /// zeros): when `a < b`, the quotient is `X / (D·10^(b-a))`, not an integer since 10 does
    /// not divide `X`. Otherwise it is one when `D` divides `X·10^(a-b)`. That is computed as
    /// `X mod D`, digit by digit, times `10^min(a-b, 64) mod D`: with `D = 2^p·5^q·m`, `m`
    /// prime to 10, `p ≤ 63` and `q ≤ 27` since `D < 2^64`, so for `a-b ≥ 64` the power holds
    /// all of `D`'s twos and fives and the answer is whether `m` divides `X`, as it is at 64.
    pub fn divides(&self, literal: &[u8]) -> bool {
        let Some(parts) = parts(literal) else {
            return false;
        };
        if parts.zero {
            return true;
        }
        let place = exponent(literal, &parts) + parts.place_offset(parts.last);
        let shift = place - i128::from(self.place);
        if shift < 0 {
            return false;
        }
        let divisor = u128::from(self.significand);
        // 18 digits at a time: the remainder is below 2^64, times 10^18 below 2^124.
        let mut remainder: u128 = 0;
        let (mut chunk, mut width): (u128, u32) = (0, 0);
        for k in parts.first..=parts.last {
            chunk = chunk * 10 + u128::from(parts.digit(literal, k));
            width += 1;
            if width == 18 {
                remainder = (remainder * 10u128.pow(18) + chunk) % divisor;
                (chunk, width) = (0, 0);
            }
        }
        remainder = (remainder * 10u128.pow(width) + chunk) % divisor;
        for _ in 0..shift.min(64) {
            remainder = remainder * 10 % divisor;
        }
        remainder == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_spellings() {
        for (a, b) in [
            ("1", "1.0"),
            ("1", "1e0"),
            ("1", "10e-1"),
            ("1", "0.001E+3"),
            ("-0", "0"),
            ("-0.0e-5", "0E999999999999999999999999"),
            ("100", "1e2"),
            ("123.4500", "12345e-2"),
            ("1e999999999", "10e999999998"),
            (
                "1e99999999999999999999999999999999999999999",
                "0.1e100000000000000000000000000000000000000000",
            ),
            ("-5e-00007", "-0.0000005"),
        ] {
            assert!(same_value(a.as_bytes(), b.as_bytes()), "{a} = {b}");
            assert!(same_value(b.as_bytes(), a.as_bytes()), "{b} = {a}");
            assert_eq!(
                compare(a.as_bytes(), b.as_bytes()),
                Ordering::Equal,
                "{a} = {b}"
            );
        }
    }

    #[test]
    fn different_values() {
        // (smaller, larger)
        for (a, b) in [
            ("0", "1e-999999999999999999999999"),
            ("-1e-999999999999999999999999", "0"),
            ("-1", "1"),
            ("1", "1.0000000000000000000000000001"),
            (
                "1e99999999999999999999999999999999999999999",
                "1e100000000000000000000000000000000000000000",
            ),
            (
                "1e-100000000000000000000000000000000000000000",
                "1e-99999999999999999999999999999999999999999",
            ),
            ("0.3", "0.30000000000000001"),
            ("-2", "-1.99"),
            ("9", "10"),
            ("0.99", "1"),
            ("12", "12.5"),
        ] {
            let (a, b) = (a.as_bytes(), b.as_bytes());
            assert!(!same_value(a, b));
            assert_eq!(compare(a, b), Ordering::Less);
            assert_eq!(compare(b, a), Ordering::Greater);
        }
    }

    #[test]
    fn divisors() {
        let d = |s: &str| Divisor::parse(s.as_bytes()).unwrap();
        assert_eq!(d("0.1"), d("1e-1"));
        assert_eq!(
            d("100"),
            Divisor {
                significand: 1,
                place: 2
            }
        );
        assert!(d("0.1").divides(b"0.3"));
        assert!(d("0.1").divides(b"-3e5"));
        assert!(!d("0.1").divides(b"0.31"));
        assert!(d("1e-8").divides(b"12391239123"));
        assert!(!d("0.123456789").divides(b"1e308"));
        assert!(d("0.5").divides(b"1e308"));
        assert!(d("3").divides(b"3e999999999999999999999999999999"));
        assert!(!d("3").divides(b"1e999999999999999999999999999999"));
        assert!(d("7").divides(b"7e-0"));
        assert!(!d("7").divides(b"7e-1"));
        assert!(d("1e2").divides(b"0"));
        assert!(d("1e2").divides(b"-0.0e-9999999999999999999999999"));
        assert!(!d("1e2").divides(b"1e-9999999999999999999999999"));
        assert!(d("9999999999999999999").divides(b"99999999999999999990000000000000"));
        assert!(d("9223372036854775808").divides(b"1e63"));
        assert!(!d("9223372036854775808").divides(b"1e62"));
        assert!(d("7450580596923828125").divides(b"1e27"));
        assert!(!d("7450580596923828125").divides(b"1e26"));
        assert!(d("1e9223372036854775807").divides(b"1e9223372036854775808"));
        assert!(!d("1e9223372036854775807").divides(b"9e9223372036854775806"));
    }

    #[test]
    fn refused_divisors() {
        for literal in [
            "0",
            "-0",
            "0.000e5",
            "-1",
            "-0.1",
            "12345678901234567891",
            "1.2345678901234567891",
            "1e9223372036854775808",
            "10e9223372036854775807",
            "1e-9223372036854775809",
            "1e99999999999999999999999999999999999999999999",
            "",
            "1.",
            ".5",
            "+1",
            "01",
            "1e",
            "0x10",
        ] {
            assert!(Divisor::parse(literal.as_bytes()).is_err(), "{literal}");
        }
        for literal in [
            "1234567890123456789",
            "1234567890123456789000",
            "0.000001234567890123456789",
            "1e9223372036854775807",
            "1e-9223372036854775808",
            "0.1e-9223372036854775807",
        ] {
            assert!(Divisor::parse(literal.as_bytes()).is_ok(), "{literal}");
        }
    }

    #[test]
    fn malformed_literals_are_only_themselves() {
        let bad: &[&[u8]] = &[
            b"", b"-", b"01", b"1.", b".1", b"1e", b"1e+", b"--1", b"+1", b"1 ", b"NaN", b"1.2.3",
            b"\xff", b"0x1", b"1e1e1",
        ];
        let one = Divisor::parse(b"1").unwrap();
        for &a in bad {
            assert!(same_value(a, a));
            assert!(!same_value(a, b"1"));
            assert!(!one.divides(a));
            assert_eq!(compare(a, b"1e999999999"), Ordering::Greater);
            assert_eq!(compare(b"1e999999999", a), Ordering::Less);
            for &b in bad {
                assert_eq!(same_value(a, b), a == b);
                assert_eq!(compare(a, b), a.cmp(b));
            }
        }
    }

    /// Every literal of up to four characters from a small alphabet, valid or not, through
    /// every function: no panic, `same_value` agrees with `compare`, and both are symmetric.
    #[test]
    fn short_inputs_never_panic() {
        let alphabet = b"-+.eE019";
        let mut all: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| {
                    alphabet.iter().map(move |&c| {
                        let mut t = s.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            all.extend(last.iter().cloned());
        }
        let divisors: Vec<Divisor> = ["1", "0.1", "7", "1e2"]
            .iter()
            .map(|d| Divisor::parse(d.as_bytes()).unwrap())
            .collect();
        let probes: Vec<&[u8]> = vec![b"0", b"1", b"-1", b"0.1", b"1e1", b"9e-1", b"x"];
        for a in &all {
            let _ = Divisor::parse(a);
            for d in &divisors {
                let _ = d.divides(a);
            }
            for &b in &probes {
                let same = same_value(a, b);
                assert_eq!(same, same_value(b, a));
                assert_eq!(same, compare(a, b) == Ordering::Equal);
                assert_eq!(compare(a, b), compare(b, a).reverse());
            }
        }
    }

    #[test]
    fn integers_whatever_their_spelling() {
        for yes in [
            "0",
            "-0",
            "1",
            "1.0",
            "1e2",
            "10e-1",
            "2.50e1",
            "-3.000",
            "0.1e1",
            "1e999999999999",
        ] {
            assert!(is_integer(yes.as_bytes()), "{yes}");
        }
        for no in [
            "1.5",
            "1e-1",
            "0.01e1",
            "1.00000000000000000001",
            "-2.5e0",
            "x",
            "",
            "1.",
        ] {
            assert!(!is_integer(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn counts_exactly() {
        for (literal, value) in [
            ("0", 0),
            ("-0", 0),
            ("-0.0e5", 0),
            ("2.0", 2),
            ("1e1", 10),
            ("20E-1", 2),
            ("18446744073709551615", u64::MAX),
            ("1.8446744073709551615e19", u64::MAX),
        ] {
            assert_eq!(count(literal.as_bytes()), Count::Of(value), "{literal}");
        }
        for literal in ["18446744073709551616", "1e20", "1e999999999999"] {
            assert_eq!(count(literal.as_bytes()), Count::TooLarge, "{literal}");
        }
        for literal in ["-1", "1.5", "-1e1", "1e-1", "x", "01"] {
            assert_eq!(count(literal.as_bytes()), Count::Refused, "{literal}");
        }
    }
}
