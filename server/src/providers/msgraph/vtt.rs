//! Teams transcripts arrive as WebVTT (`$format=text/vtt`); a task keeps them as plain
//! "Speaker: words" lines. Written here rather than taken from a crate: the WebVTT crates
//! parse cue timings and styling, and all that is needed is the voice tags and the words.

/// A WebVTT transcript as plain text: one line per cue, `Speaker: words` where the cue has
/// a `<v Speaker>` voice tag; consecutive cues of one speaker joined. Timings, headers,
/// notes and other tags are dropped.
pub fn vtt_to_text(vtt: &str) -> String {
    let mut lines: Vec<(Option<String>, String)> = Vec::new();
    let mut in_cue = false;
    for raw in vtt.lines() {
        let line = raw.trim_start_matches('\u{feff}').trim();
        if line.is_empty() {
            in_cue = false;
            continue;
        }
        if line.contains("-->") {
            in_cue = true;
            continue;
        }
        if !in_cue {
            // WEBVTT header, NOTE/STYLE blocks, cue identifiers.
            continue;
        }
        let (speaker, words) = voice(line);
        let words = strip_tags(&words);
        let words = words.trim();
        if words.is_empty() {
            continue;
        }
        match lines.last_mut() {
            Some((last, text)) if *last == speaker => {
                text.push(' ');
                text.push_str(words);
            }
            _ => lines.push((speaker, words.to_owned())),
        }
    }
    lines
        .into_iter()
        .map(|(speaker, text)| match speaker {
            Some(s) => format!("{s}: {text}"),
            None => text,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `<v Speaker>` of a cue line, and the line.
fn voice(line: &str) -> (Option<String>, String) {
    if let Some(rest) = line.strip_prefix("<v") {
        if let Some(end) = rest.find('>') {
            let name = rest[..end].trim();
            // `<v.loud Speaker>`: classes before the name.
            let name =
                name.split_once(' ').map_or(
                    name,
                    |(first, tail)| {
                        if first.starts_with('.') {
                            tail
                        } else {
                            name
                        }
                    },
                );
            let name = (!name.is_empty()).then(|| decode_entities(name.trim()));
            return (name, rest[end + 1..].to_owned());
        }
    }
    (None, line.to_owned())
}

fn strip_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    decode_entities(&out)
}

fn decode_entities(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_teams_transcript_reads_as_speakers_lines() {
        let vtt = "WEBVTT\n\n\
            NOTE Confidence: 0.9\n\n\
            a1b2/3-0\n00:00:03.520 --> 00:00:07.110\n<v Mary Somerville>Good morning, everyone.</v>\n\n\
            00:00:07.200 --> 00:00:08.000\n<v Mary Somerville>Today: photosynthesis &amp; light.</v>\n\n\
            00:00:07.900 --> 00:00:09.020\n<v Ada Lovelace>Is that the one with <i>chlorophyll</i>?</v>\n\n\
            00:00:10.000 --> 00:00:11.000\nNo speaker here.\n";
        assert_eq!(
            vtt_to_text(vtt),
            "Mary Somerville: Good morning, everyone. Today: photosynthesis & light.\n\
             Ada Lovelace: Is that the one with chlorophyll?\n\
             No speaker here."
        );
        assert_eq!(vtt_to_text("WEBVTT\n\n"), "");
    }
}
