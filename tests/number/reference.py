#!/usr/bin/env python3.11
"""Writes tests/number/cases.json: JSON number literals with the verdicts of Python's own exact
arithmetic, the independent reference for src/number.rs. Made with Python 3.11.7:

    python3.11 tests/number/reference.py        # from the repository root; then git diff

Nothing here runs the crate. The cases come from a fixed seed, so the file is the same on every
run. It is one JSON object:

    {"pairs":   [[a, b, same, order], ...],   same_value(a, b), and compare(a, b) as -1/0/1
     "divides": [[x, d, verdict], ...],       Divisor::parse(d) accepts d; its divides(x)
     "refused": [d, ...]}                     Divisor::parse(d) refuses d

with every literal written as a JSON number, spelled as the generator chose (signs, `e`/`E`,
`+`, leading zeros in exponents, trailing zeros, the point anywhere), and each verdict worked
out twice where both ways can: by `decimal.Decimal` (exact comparison and remainder, no
rounding at this precision) and by Python integers (a literal as N·10^E; for a divisor
D·10^F, x/d = (N/D)·10^(E-F), whose integrality is N·10^k mod D with pow(10, k, D) when k is
too large to write out). Exponents past Decimal's range (over 18 digits) take the integer way
only.

A divisor is refused, as the crate documents, when it is not above 0, has more than 19
significant digits, or the place of its last significant digit (its exponent once the
trailing zeros are taken out of the significand) is outside a signed 64-bit integer.
"""
import decimal
import json
import pathlib
import random
import re
import sys
from fractions import Fraction

sys.set_int_max_str_digits(0)
HERE = pathlib.Path(__file__).parent
SEED = 16_2026
LIMIT = 200_000  # shifts up to this are written out as integers; beyond, modular or by size
NUMBER = re.compile(r"(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?\Z")
CONTEXT = decimal.Context(
    prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[]
)
decimal.setcontext(CONTEXT)


def split(literal):
    """(negative, N, E) with value (-1 if negative)·N·10^E, from the RFC 8259 grammar."""
    match = NUMBER.match(literal)
    assert match, f"not an RFC 8259 number: {literal[:80]}"
    sign, whole, fraction, exponent = match.groups()
    fraction = fraction or ""
    return sign == "-", int(whole + fraction), int(exponent or "0") - len(fraction)


def normal(literal):
    """(sign, digits, E): sign -1/0/1, significant digits as a string without trailing zeros
    (empty for zero), and the exponent of the last one."""
    negative, n, e = split(literal)
    if n == 0:
        return 0, "", 0
    digits = str(n)
    stripped = digits.rstrip("0")
    return (-1 if negative else 1), stripped, e + len(digits) - len(stripped)


def as_decimal(literal):
    """The literal as a Decimal, exactly; None past Decimal's exponent range."""
    _, _, e = split(literal)
    if abs(e) > 10**17:
        return None
    value = decimal.Decimal(literal)
    assert value.is_finite()
    return value


def order_by_integers(a, b):
    (sa, da, ea), (sb, db, eb) = normal(a), normal(b)
    if sa != sb:
        return (sa > sb) - (sa < sb)
    if sa == 0:
        return 0
    # Place of the leading digit, then the digits, padded to one length.
    la, lb = ea + len(da) - 1, eb + len(db) - 1
    if la != lb:
        magnitude = (la > lb) - (la < lb)
    else:
        width = max(len(da), len(db))
        pa, pb = da.ljust(width, "0"), db.ljust(width, "0")
        magnitude = (pa > pb) - (pa < pb)
    return magnitude * sa


def order_by_decimal(a, b):
    x, y = as_decimal(a), as_decimal(b)
    if x is None or y is None:
        return None
    return (x > y) - (x < y)


def pair_verdict(a, b):
    by_integers = order_by_integers(a, b)
    by_decimal = order_by_decimal(a, b)
    assert by_decimal is None or by_decimal == by_integers, (a[:60], b[:60])
    same = by_integers == 0
    assert same == (normal(a) == normal(b))
    return same, by_integers


def refused(d):
    sign, digits, e = normal(d)
    return sign <= 0 or len(digits) > 19 or not -(2**63) <= e < 2**63


def divides_by_integers(x, d):
    _, nx, ex = split(x)
    _, nd, ed = split(d)
    if nx == 0:
        return True
    k = ex - ed
    if 0 <= k <= LIMIT:
        return nx * 10**k % nd == 0
    if k > LIMIT:
        return nx * pow(10, k, nd) % nd == 0
    if k >= -LIMIT:
        return nx % (nd * 10**-k) == 0
    # |nx| < 10^digits <= 10^LIMIT < nd·10^-k, and nx is not 0.
    assert len(str(nx)) < LIMIT
    return False


def divides_by_decimal(x, d):
    """x % d == 0 by Decimal, where the quotient is short enough to be worth it."""
    a, b = as_decimal(x), as_decimal(d)
    if a is None or b is None or a == 0:
        return None
    if abs(a.adjusted() - b.adjusted()) > 5_000 or len(x) > 5_000:
        return None
    context = decimal.Context(prec=20_000, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)
    remainder = context.remainder(a, b)
    assert not context.flags[decimal.InvalidOperation], (x, d)
    return remainder == 0


def divides_by_fraction(x, d):
    _, _, ex = split(x)
    _, _, ed = split(d)
    if abs(ex) > 2_000 or abs(ed) > 2_000 or len(x) > 2_000:
        return None
    return (Fraction(decimal.Decimal(x)) / Fraction(decimal.Decimal(d))).denominator == 1


def divide_verdict(x, d):
    verdict = divides_by_integers(x, d)
    for other in (divides_by_decimal(x, d), divides_by_fraction(x, d)):
        assert other is None or other == verdict, (x[:60], d)
    return verdict


class Spell:
    """Random spellings of N·10^E (N >= 0) as RFC 8259 literals."""

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, negative, n, e, plain=False):
        rng = self.rng
        if not plain and rng.random() < 0.3:
            t = rng.choice([1, 1, 2, 3, 7])
            n, e = n * 10**t, e - t
        digits = str(n)
        # How many digits go after the point: none, some, all, or more (leading "0.00").
        if plain:
            after = 0
        else:
            after = rng.choice([0, 0, rng.randint(0, len(digits)), len(digits), len(digits) + rng.randint(1, 4)])
        if after >= len(digits):
            whole, fraction = "0", "0" * (after - len(digits)) + digits
        else:
            whole, fraction = digits[: len(digits) - after], digits[len(digits) - after :]
        if whole != "0":
            whole = whole.lstrip("0") or "0"
        written = e + after
        literal = ("-" if negative else "") + whole + ("." + fraction if fraction else "")
        if written != 0 or (not plain and rng.random() < 0.3):
            mark = rng.choice("eE")
            sign = "-" if written < 0 else rng.choice(["", "", "+"])
            zeros = "0" * rng.choice([0, 0, 0, 1, 3])
            literal += mark + sign + zeros + str(abs(written))
        # The fraction written out may need a nonzero integer part's digits moved: check.
        assert NUMBER.match(literal), literal
        assert normal(literal) == normal_of(negative, n, e), (literal, n, e)
        return literal


def normal_of(negative, n, e):
    if n == 0:
        return 0, "", 0
    digits = str(n)
    stripped = digits.rstrip("0")
    return (-1 if negative else 1), stripped, e + len(digits) - len(stripped)


HUGE_EXPONENTS = [
    10**9 - 1,
    10**9,
    999_999_999_999_999_999,
    2**63 - 1,
    2**63,
    2**64,
    10**40,
    10**40 - 1,
    int("7" * 300),
    10**400,
    10**400 + 1,
]


def values(rng):
    """One random value, (negative, N, E), from a mix of shapes."""
    shape = rng.random()
    negative = rng.random() < 0.4
    if shape < 0.35:
        return negative, rng.randint(0, 10 ** rng.randint(1, 6)), rng.randint(-12, 12)
    if shape < 0.5:
        n = rng.choice([0, 1, 9, 10, 99, 100, 2**53, 2**53 + 1, 2**63, 2**64 - 1, 5**27, 10**19 - 1])
        return negative, n, rng.randint(-25, 25)
    if shape < 0.65:
        return negative, rng.randint(1, 10**rng.randint(15, 25)), rng.randint(-30, 30)
    if shape < 0.8:
        e = rng.choice(HUGE_EXPONENTS) * rng.choice([1, -1])
        return negative, rng.randint(1, 10 ** rng.randint(1, 5)), e
    if shape < 0.98:
        return negative, rng.randint(1, 10**rng.randint(20, 120)), rng.randint(-400, 400)
    return negative, rng.randint(1, 10**rng.randint(500, 1500)), rng.randint(-3000, 3000)


def nearby(rng, negative, n, e):
    """A value next to (negative, n, e), or equal to it written otherwise."""
    change = rng.randrange(9)
    if change == 0:
        return not negative, n, e
    if change == 1:
        return negative, n + 1, e
    if change == 2:
        return negative, max(n - 1, 0), e
    if change == 3:
        return negative, n, e + rng.choice([1, -1])
    if change == 4:
        return negative, n * 10 + rng.randint(1, 9), e - 1
    if change == 5:
        return negative, n * 10, e - 1  # the same value
    if change == 6:
        return negative, n * 10 ** rng.randint(1, 40), e  # a power of ten away
    if change == 7:
        return negative, n, e + rng.choice([10**9, -(10**9), 2**64, -(2**64)])
    return negative, n, e


def make_pairs(rng, spell):
    pairs = []
    written = [
        ("1", "1.0"), ("1", "1e0"), ("1", "10e-1"), ("-0", "0"), ("-0.0", "0e999999999"),
        ("0", "-0E-99999999999999999999999999999999999999"), ("1e308", "1E+308"),
        ("1e999999999", "10e999999998"), ("1e999999999", "1e999999998"),
        ("0.1", "0.1000000000000000055511151231257827"), ("0.3", "0.30000000000000001"),
        ("9007199254740992", "9007199254740993"), ("9007199254740992", "9007199254740992.0"),
        ("1" + "0" * 400, "1e400"), ("0." + "0" * 400 + "1", "1e-401"), ("-1", "1"),
        ("1e" + "9" * 5000, "10e" + "9" * 4999 + "8"), ("1e" + "9" * 5000, "1e" + "9" * 4999 + "8"),
        ("-1e-" + "9" * 5000, "-0.1e-" + "9" * 4999 + "8"), ("1e-" + "9" * 5000, "0"),
        ("123.4500", "12345e-2"), ("0.000", "0e1"), ("100", "1e2"), ("100", "1e+0002"),
        ("1" * 4096, "1" * 4095 + ".1e1"), ("9" * 4000, "1e4000"),
        ("0." + "0" * 4000 + "5", "5e-4001"),
    ]
    pairs += written
    for _ in range(2400):
        negative, n, e = values(rng)
        a = spell(negative, n, e)
        kind = rng.random()
        if kind < 0.45:
            b = spell(negative, n, e)
        elif kind < 0.9:
            b = spell(*nearby(rng, negative, n, e))
        else:
            b = spell(*values(rng))
        pairs.append((a, b))
    return [(a, b, *pair_verdict(a, b)) for a, b in pairs]


DIVISORS = [
    "0.1", "0.01", "1e-8", "3", "7", "1e2", "0.0001", "1.5", "2", "5", "0.5", "1", "0.3",
    "0.123456789", "12", "10", "100.00", "0.70", "1E+2", "2.5e-3", "1e308", "1e-300",
    "9999999999999999999", "9223372036854775808", "7450580596923828125", "1844674407370955161",
    "0.0000000000000000000000000000000000000000000000000001234567890123456789",
    "1e9223372036854775807", "0.1e-9223372036854775807", "1e-9223372036854775808",
    "4.000000000000000000000", "6.25e-2", "11", "13e1", "999999937",
]

REFUSED = [
    "0", "-0", "0.0", "0e5", "-0.0e-3", "-1", "-0.1", "-1e-8", "-7",
    "12345678901234567891", "1.2345678901234567891", "99999999999999999999e-5",
    "18446744073709551616", "1e9223372036854775808", "10e9223372036854775807",
    "1e-9223372036854775809", "0.01e-9223372036854775807", "1e" + "9" * 50, "1e-" + "9" * 50,
    "3e" + "1" * 3000, "1" * 20 + "e-3", "1." + "1" * 19,
]


def make_divides(rng, spell):
    triples = [
        ("0.3", "0.1"), ("0.0075", "0.0001"), ("0.00751", "0.0001"), ("1e308", "0.123456789"),
        ("12391239123", "1e-8"), ("1e308", "0.5"), ("4.5", "1.5"), ("-4.5", "1.5"), ("35", "1.5"),
        ("10", "2"), ("7", "2"), ("0", "1.5"), ("-0", "7"), ("0e-99999999999999999999999", "0.1"),
        ("1e999999999", "3"), ("3e999999999", "3"), ("1e" + "9" * 5000, "7"),
        ("7e" + "9" * 5000, "7"), ("1e-" + "9" * 5000, "1e-8"), ("1" * 65536, "11"),
        ("1" * 4095 + "2", "11"), ("1" * 4096, "3"), ("1" * 4096 + "e-4090", "0.01"),
        ("1e63", "9223372036854775808"), ("1e62", "9223372036854775808"),
        ("1e27", "7450580596923828125"), ("1e26", "7450580596923828125"),
        ("1e9223372036854775808", "1e9223372036854775807"),
        ("9e9223372036854775806", "1e9223372036854775807"),
        ("1e-9223372036854775808", "1e-9223372036854775808"),
        ("1e-9223372036854775809", "1e-9223372036854775808"),
    ]
    for d in DIVISORS:
        assert not refused(d), d
        _, nd, ed = split(d)
        for _ in range(70):
            kind = rng.random()
            negative = rng.random() < 0.3
            if kind < 0.35:  # a multiple
                m = rng.randint(0, 10 ** rng.choice([1, 2, 3, 6, 20, 60, 300]))
                n, e = nd * m, ed
            elif kind < 0.6:  # a multiple, off by a little
                m = rng.randint(0, 10 ** rng.choice([1, 2, 6, 20]))
                off = rng.choice([1, -1, 5, nd // 2 or 1])
                shift = rng.choice([0, 1, 3])
                n, e = (nd * m) * 10**shift + off, ed - shift
                if n < 0:
                    n, negative = -n, not negative
            elif kind < 0.75:  # powers of ten, far out
                n = rng.choice([1, 3, 7, 9, 2**10, 5**5, 123456789])
                e = rng.choice(HUGE_EXPONENTS + [0, 8, 63, 64, 65, 300]) * rng.choice([1, -1])
            else:
                negative, n, e = values(rng)
            triples.append((spell(negative, n, e), d))
    triples += [(spell(*values(rng)), d) for d in DIVISORS for _ in range(15)]
    return [(x, d, divide_verdict(x, d)) for x, d in triples]


def make_refused(rng, spell):
    out = list(REFUSED)
    for _ in range(60):
        negative, n, e = values(rng)
        d = spell(negative, n, e)
        if refused(d):
            out.append(d)
    for literal in out:
        assert refused(literal), literal
    return out


def main():
    rng = random.Random(SEED)
    spell = Spell(rng)
    pairs = make_pairs(rng, spell)
    divides = make_divides(rng, spell)
    refusals = make_refused(rng, spell)
    lines = ['{"pairs":[']
    lines.append(",\n".join(f'[{a},{b},{json.dumps(same)},{order}]' for a, b, same, order in pairs))
    lines.append('],\n"divides":[')
    lines.append(",\n".join(f"[{x},{d},{json.dumps(verdict)}]" for x, d, verdict in divides))
    lines.append('],\n"refused":[')
    lines.append(",\n".join(refusals))
    lines.append("]}\n")
    (HERE / "cases.json").write_text("\n".join(lines))
    same = sum(1 for p in pairs if p[2])
    multiples = sum(1 for t in divides if t[2])
    print(
        f"{len(pairs)} pairs ({same} the same value), {len(divides)} divisions "
        f"({multiples} multiples), {len(refusals)} refused divisors",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
