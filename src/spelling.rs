//! How far one word is from another, for the "did you mean" of error messages: an op, a tool,
//! a catalog keyword. Only error paths call it.

/// Levenshtein distance between two strings of at most 64 bytes, in two rows on the stack.
#[cold]
pub(crate) fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    let mut previous = [0usize; 65];
    let mut current = [0usize; 65];
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let substitute = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            current[j] = substitute.min(previous[j] + 1).min(current[j - 1] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// The word of `words` closest to `asked`, when it is close enough to be the one meant: at most
/// two edits, and fewer than half of `asked`'s length (`propertes` finds `properties`; `if`
/// finds nothing).
#[cold]
pub(crate) fn closest_word<'a>(
    asked: &str,
    words: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let asked = &asked.as_bytes()[..asked.len().min(64)];
    let (distance, word) = (words.into_iter())
        .map(|word| {
            (
                edit_distance(asked, &word.as_bytes()[..word.len().min(64)]),
                word,
            )
        })
        .min_by_key(|&(distance, _)| distance)?;
    (distance <= 2 && distance * 2 < asked.len()).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_word_is_found_and_a_far_one_is_not() {
        let words = ["properties", "required", "type"];
        assert_eq!(closest_word("propertes", words), Some("properties"));
        assert_eq!(closest_word("requierd", words), Some("required"));
        assert_eq!(closest_word("if", words), None);
        assert_eq!(closest_word("patternProperties", words), None);
        assert_eq!(edit_distance(b"kitten", b"sitting"), 3);
    }
}
