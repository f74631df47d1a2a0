//! "Did you mean": the one place that ranks names by how close they are to
//! a mistyped one (an unknown type in a field, an unknown root).

/// The edit distance between `a` and `b` (insertions, deletions,
/// substitutions and swaps of two neighbours each cost 1; a difference in
/// ASCII case only costs nothing, so `String` is closest to `string`).
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Three rows of the optimal-string-alignment table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            cur[j] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// True when `candidate` is close enough to `word` to be suggested: at
/// most a third of the longer name differs (at least one edit), or one
/// contains the other.
fn close(word: &str, candidate: &str) -> bool {
    let longest = word.chars().count().max(candidate.chars().count());
    let lw = word.to_ascii_lowercase();
    let lc = candidate.to_ascii_lowercase();
    distance(word, candidate) <= (longest / 3).max(1)
        || (lw.len() >= 3 && lc.contains(&lw))
        || (lc.len() >= 3 && lw.contains(&lc))
}

/// `candidates` ranked closest to `word` first (ties keep their order),
/// each once.
pub(crate) fn ranked<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let mut out: Vec<(usize, usize, &str)> = Vec::new();
    for (i, c) in candidates.into_iter().enumerate() {
        if out.iter().all(|(_, _, d)| *d != c) {
            out.push((distance(word, c), i, c));
        }
    }
    out.sort();
    out.into_iter().map(|(_, _, c)| c).collect()
}

/// The candidate closest to `word`, when it is close enough to suggest.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    ranked(word, candidates)
        .into_iter()
        .find(|c| *c != word && close(word, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("ok.piont", "ok.point"), 1, "a swap costs 1");
        assert_eq!(distance("String", "string"), 0);
        assert_eq!(distance("Strng", "string"), 1);
    }

    #[test]
    fn suggestions() {
        let names = ["bool", "i32", "i64", "string", "Bytes", "Point"];
        assert_eq!(did_you_mean("Strng", names), Some("string"));
        assert_eq!(did_you_mean("String", names), Some("string"));
        assert_eq!(did_you_mean("i46", names), Some("i64"));
        assert_eq!(did_you_mean("Pont", names), Some("Point"));
        assert_eq!(did_you_mean("Completely", names), None);
        assert_eq!(did_you_mean("Point", names), None, "never the word itself");
        assert_eq!(
            ranked("ok.piont", ["ok.plan", "ok.point", "other.thing"]),
            ["ok.point", "ok.plan", "other.thing"]
        );
    }
}
