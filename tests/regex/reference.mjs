// Writes tests/regex/cases.json: patterns and texts with the verdict of Node's own RegExp
// (ECMA-262, `u` flag: patterns read as code points), the independent reference for
// src/regex.rs. Run: node tests/regex/reference.mjs > tests/regex/cases.json
// The file is {"texts": [...], "cases": [[pattern, verdicts], ...]}: verdicts is null when
// RegExp refuses the pattern, else one character per text, "1" where it matches. Texts stay short: Node backtracks, and (a|a)*b on a long
// run of a is exponential there (which is why src/regex.rs does not backtrack).
const written = [
  "", "a", "abc", "^abc$", "^a|b$", "a|b|c", "(a|b)*c", "(?:ab)+", "(?<x>ab)c",
  "a*", "a+?", "a??b", "a{3}", "a{2,}", "a{1,3}b", "^a{0}$", "^(a{2}){2}$",
  ".", "^.$", "^..$", "[abc]", "[^abc]", "[a-c]+", "[-a]", "[a-]", "[\\-]", "[\\]]", "[]", "[^]",
  "\\d+", "\\D", "\\w+", "\\W", "\\s", "\\S", "[\\d\\s]", "[^\\d]", "[\\D]", "[\\W]", "[\\S]",
  "\\bfoo\\b", "\\Boo\\B", "[\\b]", "\\t\\n\\v\\f\\r", "\\0", "\\cJ", "\\x41", "\\u0041",
  "\\u{1F600}", "\\uD83D\\uDE00", "😀", "^😀$", "^.$", "é+", "[à-ÿ]", "\\.", "\\*\\+\\?",
  "\\(\\)\\[\\]\\{\\}\\|\\/\\\\\\^\\$", "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
  "^\\d{4}-\\d{2}-\\d{2}$", "^(\\d{1,3}\\.){3}\\d{1,3}$", "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
  "(a*)*b", "(a|a)*b", "(\\w+\\s?)*$", "^(a+)+$", "x*y*z*", "(|a)+", "()", "(?:)*",
  "a**", "a{2", "a{,2}", "{", "}", "]", "a)", "(a", "[a", "[b-a]", "a{3,2}", "*a", "\\", "\\p{L}",
  "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(a)\\1", "\\k<x>(?<x>a)", "\\q", "\\-", "^*",
];
const texts = ["", "a", "b", "c", "abc", "aab", "aaa", "aaaa", "ab ab", "xabcx", "A", "1", "123", "12-34",
  "2024-01-31", "192.168.0.1", "foo", "a foo b", "xfoox", " ", "\t", "\n", "\u00a0", "\u2028", "é", "ü",
  "😀", "a😀", "_", "-", "]", "\\", "\b", "\u000b\u000c", "user@example.com", "a@b", "\u0000", "\n\r",
  "123e4567-e89b-12d3-a456-426614174000", "(a)", "aaaaaaaaaaaaaaaaac"];
// A deterministic generator of patterns from the pieces the engine reads.
const pieces = ["a", "b", "é", "😀", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c]", "[\\d_]",
  "(", ")", "(?:", "|", "*", "+", "?", "*?", "{2}", "{1,3}", "{0,}", "^", "$", "\\b", "\\B", "-", "\\.", " "];
const alphabet = ["a", "b", "c", "1", " ", "é", "😀", "\n", "_", "-", "."];
let seed = 0x2545F491;
const rand = (n) => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed % n; };
const patterns = [...written];
for (let i = 0; i < 3000; i++) {
  let p = "";
  const len = 1 + rand(7);
  for (let j = 0; j < len; j++) p += pieces[rand(pieces.length)];
  patterns.push(p);
}
const randomTexts = [];
for (let i = 0; i < 12; i++) {
  let t = "";
  const len = rand(9);
  for (let j = 0; j < len; j++) t += alphabet[rand(alphabet.length)];
  randomTexts.push(t);
}
const all = [...texts, ...randomTexts];
const cases = [];
const seen = new Set();
for (const p of patterns) {
  if (seen.has(p)) continue;
  seen.add(p);
  let re;
  try { re = new RegExp(p, "u"); } catch { cases.push([p, null]); continue; }
  cases.push([p, all.map((t) => (re.test(t) ? "1" : "0")).join("")]);
}
process.stdout.write('{"texts":' + JSON.stringify(all) + ',\n"cases":[\n' +
  cases.map((c) => JSON.stringify(c)).join(",\n") + "\n]}\n");
