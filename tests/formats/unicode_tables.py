"""Writes the Unicode tables of src/format.rs (the A-label rules of `hostname`), as Rust.

    python3 tests/formats/unicode_tables.py

Reads Unicode's properties through the `regex` package (2026.5.9 carries Unicode 17.0; check
with `pip show regex`). A range may span code points that are unassigned in that version: tables
are merged across them, which keeps them short, and an unassigned code point is DISALLOWED by
IDNA2008 whatever a table says of it.
"""

import regex

UNASSIGNED = regex.compile(r"\p{gc=Cn}")


def ranges(prop):
    """The code points with `prop`, as ranges merged across unassigned code points."""
    pattern = regex.compile(prop)
    out, merge = [], False
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        if pattern.match(chr(cp)):
            if merge:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
            merge = True
        elif not UNASSIGNED.match(chr(cp)):
            merge = False
    return out


def table(name, doc, prop):
    rows = ranges(prop)
    for line in doc:
        print(f"/// {line}")
    print(f"/// `{prop}`, Unicode 17.0.")
    print("#[rustfmt::skip]")
    print(f"const {name}: &[(u32, u32)] = &[")
    line = "   "
    for lo, hi in rows:
        item = f" (0x{lo:X}, 0x{hi:X}),"
        if len(line) + len(item) > 100:
            print(line)
            line = "   "
        line += item
    print(line)
    print("];")


print("// Written by tests/formats/unicode_tables.py; not edited by hand.")
table("GREEK", ["Script Greek: what must follow a KERAIA (RFC 5892 A.4)."], r"\p{Script=Greek}")
table("HEBREW", ["Script Hebrew: what must precede a GERESH or a GERSHAYIM (RFC 5892 A.5, A.6)."],
      r"\p{Script=Hebrew}")
table("KANA_HAN", ["Scripts Hiragana, Katakana and Han: a label with a KATAKANA MIDDLE DOT holds one",
                   "of them (RFC 5892 A.7)."],
      r"[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]")
table("VIRAMA", ["Canonical_Combining_Class Virama: what must precede a ZERO WIDTH JOINER",
                 "(RFC 5892 A.2)."], r"\p{ccc=9}")
