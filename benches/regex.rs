//! `pattern`'s engine on hostile input: patterns that make a backtracking engine take time
//! exponential in the text, against texts of 16 KiB and 64 KiB. `cargo bench --bench regex`.
//! Linear time shows as a ratio near 4 between the two sizes. Every run checks its verdict.

use std::hint::black_box;
use std::time::{Duration, Instant};
use tool_schema::regex::Regex;

/// A pattern, the hostile text of a given length for it, and whether it matches.
type Case = (&'static str, fn(usize) -> String, bool);

fn main() {
    let cases: [Case; 3] = [
        ("(a|a)*b", |n| "a".repeat(n), false),
        ("(a*)*b", |n| "a".repeat(n), false),
        ("(\\w+\\s?)*$", |n| "a".repeat(n - 1) + "!", true),
    ];
    println!("median of 11 runs each");
    println!(
        "  {:<14} {:>12} {:>12} {:>8}",
        "pattern", "16 KiB", "64 KiB", "ratio"
    );
    for (pattern, text, want) in cases {
        let regex = Regex::new(pattern).unwrap();
        let time = |len: usize| {
            let text = text(len);
            let mut times: Vec<Duration> = (0..11)
                .map(|_| {
                    let started = Instant::now();
                    let found = regex.is_match(black_box(&text));
                    let elapsed = started.elapsed();
                    assert_eq!(found, want, "{pattern}");
                    elapsed
                })
                .collect();
            times.sort();
            times[5]
        };
        let (small, large) = (time(16 * 1024), time(64 * 1024));
        println!(
            "  {:<14} {:>9.3} ms {:>9.3} ms {:>8.2}",
            pattern,
            small.as_secs_f64() * 1e3,
            large.as_secs_f64() * 1e3,
            large.as_secs_f64() / small.as_secs_f64()
        );
    }
}
