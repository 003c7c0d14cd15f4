//! The languages a person may choose for the e-mails Voicemark sends them
//! (`EmailPreference.language`; spec section 3: "about 100 selectable language names"):
//! ISO 639-1 codes with their English names. The database stores the code (`en`, the
//! default); the browser shows the name. One list, for the server's check and every
//! language select in the app.

/// Shown when a language is not one of [`LANGUAGES`].
pub const LANGUAGE_REFUSED: &str = "Choose a language.";

/// Every selectable language: (ISO 639-1 code, English name), sorted by name.
pub const LANGUAGES: &[(&str, &str)] = &[
    ("af", "Afrikaans"),
    ("sq", "Albanian"),
    ("am", "Amharic"),
    ("ar", "Arabic"),
    ("hy", "Armenian"),
    ("az", "Azerbaijani"),
    ("eu", "Basque"),
    ("be", "Belarusian"),
    ("bn", "Bengali"),
    ("bs", "Bosnian"),
    ("bg", "Bulgarian"),
    ("my", "Burmese"),
    ("ca", "Catalan"),
    ("ny", "Chichewa"),
    ("zh", "Chinese"),
    ("co", "Corsican"),
    ("hr", "Croatian"),
    ("cs", "Czech"),
    ("da", "Danish"),
    ("nl", "Dutch"),
    ("en", "English"),
    ("eo", "Esperanto"),
    ("et", "Estonian"),
    ("fi", "Finnish"),
    ("fr", "French"),
    ("ff", "Fula"),
    ("gl", "Galician"),
    ("ka", "Georgian"),
    ("de", "German"),
    ("el", "Greek"),
    ("gu", "Gujarati"),
    ("ht", "Haitian Creole"),
    ("ha", "Hausa"),
    ("he", "Hebrew"),
    ("hi", "Hindi"),
    ("hu", "Hungarian"),
    ("is", "Icelandic"),
    ("ig", "Igbo"),
    ("id", "Indonesian"),
    ("ga", "Irish"),
    ("it", "Italian"),
    ("ja", "Japanese"),
    ("jv", "Javanese"),
    ("kn", "Kannada"),
    ("kk", "Kazakh"),
    ("km", "Khmer"),
    ("rw", "Kinyarwanda"),
    ("ko", "Korean"),
    ("ku", "Kurdish"),
    ("ky", "Kyrgyz"),
    ("lo", "Lao"),
    ("la", "Latin"),
    ("lv", "Latvian"),
    ("ln", "Lingala"),
    ("lt", "Lithuanian"),
    ("lb", "Luxembourgish"),
    ("mk", "Macedonian"),
    ("mg", "Malagasy"),
    ("ms", "Malay"),
    ("ml", "Malayalam"),
    ("mt", "Maltese"),
    ("mi", "Maori"),
    ("mr", "Marathi"),
    ("mn", "Mongolian"),
    ("ne", "Nepali"),
    ("no", "Norwegian"),
    ("or", "Odia"),
    ("om", "Oromo"),
    ("ps", "Pashto"),
    ("fa", "Persian"),
    ("pl", "Polish"),
    ("pt", "Portuguese"),
    ("pa", "Punjabi"),
    ("qu", "Quechua"),
    ("ro", "Romanian"),
    ("ru", "Russian"),
    ("sm", "Samoan"),
    ("gd", "Scottish Gaelic"),
    ("sr", "Serbian"),
    ("sn", "Shona"),
    ("sd", "Sindhi"),
    ("si", "Sinhala"),
    ("sk", "Slovak"),
    ("sl", "Slovenian"),
    ("so", "Somali"),
    ("st", "Southern Sotho"),
    ("es", "Spanish"),
    ("su", "Sundanese"),
    ("sw", "Swahili"),
    ("sv", "Swedish"),
    ("tl", "Tagalog"),
    ("tg", "Tajik"),
    ("ta", "Tamil"),
    ("tt", "Tatar"),
    ("te", "Telugu"),
    ("th", "Thai"),
    ("bo", "Tibetan"),
    ("ti", "Tigrinya"),
    ("tr", "Turkish"),
    ("tk", "Turkmen"),
    ("tw", "Twi"),
    ("uk", "Ukrainian"),
    ("ur", "Urdu"),
    ("ug", "Uyghur"),
    ("uz", "Uzbek"),
    ("vi", "Vietnamese"),
    ("cy", "Welsh"),
    ("fy", "Western Frisian"),
    ("wo", "Wolof"),
    ("xh", "Xhosa"),
    ("yi", "Yiddish"),
    ("yo", "Yoruba"),
    ("zu", "Zulu"),
];

/// The English name of the language `code` (an ISO 639-1 code, any case), if listed.
pub fn language_name(code: &str) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, name)| *name)
}

/// Whether `tag` may be stored as a language: a listed code (`cy`), or a language tag whose
/// primary subtag is a listed code (`pt-BR`, `en-GB`: the server accepted any tag before
/// the list existed, and rows saved then keep saving). Letters, digits and `-`, at most 35
/// characters (BCP 47's practical limit).
pub fn is_supported_language(tag: &str) -> bool {
    let shaped = !tag.is_empty()
        && tag.len() <= 35
        && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let primary = tag.split('-').next().unwrap_or("");
    shaped && language_name(primary).is_some()
}

/// The rule's message when `tag` may not be stored, `None` when it may.
pub fn language_error(tag: &str) -> Option<&'static str> {
    (!is_supported_language(tag)).then_some(LANGUAGE_REFUSED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_a_hundred_languages_each_once() {
        assert!((95..=120).contains(&LANGUAGES.len()), "{}", LANGUAGES.len());
        let mut codes: Vec<_> = LANGUAGES.iter().map(|(c, _)| *c).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), LANGUAGES.len());
        assert!(LANGUAGES
            .iter()
            .all(|(c, _)| c.len() == 2 && c.bytes().all(|b| b.is_ascii_lowercase())));
        assert!(
            LANGUAGES.windows(2).all(|w| w[0].1 < w[1].1),
            "sorted by name"
        );
    }

    #[test]
    fn keeps_the_languages_offered_before() {
        for (code, name) in [
            ("en", "English"),
            ("cy", "Welsh"),
            ("fr", "French"),
            ("es", "Spanish"),
            ("de", "German"),
            ("pl", "Polish"),
            ("ur", "Urdu"),
        ] {
            assert_eq!(language_name(code), Some(name));
        }
    }

    #[test]
    fn accepts_codes_and_regional_tags_of_listed_languages() {
        assert!(is_supported_language("en"));
        assert!(is_supported_language("pt-BR"));
        assert!(is_supported_language("EN-gb"));
        for bad in [
            "",
            "xx",
            "english",
            "en_GB",
            "en gb",
            "-en",
            &"en-".repeat(20),
        ] {
            assert!(!is_supported_language(bad), "{bad:?}");
        }
        assert_eq!(language_error(""), Some("Choose a language."));
        assert_eq!(language_error("cy"), None);
    }
}
