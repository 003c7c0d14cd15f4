//! The enumerations of spec section 3. Each is stored as TEXT (its SCREAMING_CASE name)
//! with a CHECK constraint, and crosses to the browser under the same name.

use serde::{Deserialize, Serialize};

/// Declares an enumeration with its stored/wire names, `as_str`, `FromStr` and `ALL`.
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "diesel", derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow))]
        #[cfg_attr(feature = "diesel", diesel(sql_type = diesel::sql_types::Text))]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stored and wire name.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::enums::UnknownValue;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(crate::enums::UnknownValue {
                        kind: stringify!($name),
                        value: s.to_owned(),
                    }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        #[cfg(feature = "diesel")]
        crate::sql::text_sql!($name);
    };
}

/// A stored or submitted value that is not one of an enumeration's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    pub kind: &'static str,
    pub value: String,
}

impl std::fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}' is not a valid {}", self.value, self.kind)
    }
}

impl std::error::Error for UnknownValue {}

text_enum!(
    /// A user's role. Superadmins are Voicemark's own staff.
    UserRole {
        Teacher => "TEACHER",
        Admin => "ADMIN",
        Superadmin => "SUPERADMIN",
        OrgAdmin => "ORG_ADMIN",
        MatUser => "MAT_USER",
    }
);

text_enum!(
    /// What kind of organisation a school record is.
    OrgType { School => "SCHOOL", Business => "BUSINESS" }
);

text_enum!(
    /// How often a recipient wants e-mail: each message, or a digest.
    NotificationFrequency { Daily => "DAILY", Weekly => "WEEKLY", Immediately => "IMMEDIATELY" }
);

text_enum!(
    /// A plain message, or an assignment that collects submissions.
    NotificationType { General => "GENERAL", Assignment => "ASSIGNMENT" }
);

text_enum!(
    /// The tone of a piece of feedback.
    FeedbackSentiment { Neutral => "NEUTRAL", Positive => "POSITIVE", Negative => "NEGATIVE" }
);

text_enum!(
    /// Who can see a task template.
    TemplateVisibility { Personal => "PERSONAL", School => "SCHOOL", Mat => "MAT" }
);

text_enum!(
    /// The kind of answer a task question takes.
    QuestionType { Textarea => "TEXTAREA" }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for role in UserRole::ALL {
            assert_eq!(role.as_str().parse::<UserRole>(), Ok(*role));
            let json = serde_json_like(role.as_str());
            assert_eq!(json, format!("\"{}\"", role));
        }
        assert_eq!(
            "teacher".parse::<UserRole>(),
            Err(UnknownValue {
                kind: "UserRole",
                value: "teacher".into()
            })
        );
    }

    fn serde_json_like(s: &str) -> String {
        format!("\"{s}\"")
    }
}
