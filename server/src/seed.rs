//! `voicemark seed --demo`: a demo organisation to try the product with.
//!
//! A trust with two schools (and a third school outside it); in the first, three year groups, six form groups, three
//! classes and 60 pupils with parent e-mails; one account per role; a few notifications
//! with receipts and submissions (some waiting in the Feedback Hub). It seeds only an
//! empty database, all in one transaction, so it never leaves half a demo behind.

use chrono::{Duration, NaiveDateTime};
use core_wasm::{FeedbackSentiment, NotificationFrequency, NotificationType, OrgType, UserRole};

use crate::db::{Db, DbConn, DbError};
use crate::ids::{new_id, new_token};
use crate::models::{
    deliveries, email_preferences, groups, notifications, now, organisations, receipts, students, templates,
    users,
};
use crate::transaction;

/// Every demo account signs in with this password (it meets the password rule).
pub const DEMO_PASSWORD: &str = "Voicemark1";

/// The demo accounts: e-mail, role, leader flag, forename, surname. One per role at
/// Northbridge Academy, plus a leader at Riverside Primary, a school that sends its users
/// straight to the leaders area (`redirectToLeaders`).
pub const DEMO_ACCOUNTS: &[(&str, UserRole, bool, &str, &str)] = &[
    (
        "superadmin@voicemark.test",
        UserRole::Superadmin,
        false,
        "Sam",
        "Super",
    ),
    (
        "admin@northbridge.test",
        UserRole::Admin,
        true,
        "Alex",
        "Morgan",
    ),
    (
        "teacher@northbridge.test",
        UserRole::Teacher,
        false,
        "Taylor",
        "Reid",
    ),
    (
        "orgadmin@northbridge.test",
        UserRole::OrgAdmin,
        true,
        "Olive",
        "Grant",
    ),
    (
        "matuser@northbridge.test",
        UserRole::MatUser,
        true,
        "Morgan",
        "Hale",
    ),
    (
        DEMO_RIVERSIDE_LEADER,
        UserRole::Admin,
        true,
        "Rowan",
        "Ellis",
    ),
    (DEMO_NEW_LEADER, UserRole::Admin, true, "Nia", "Okafor"),
];

/// The demo templates: (title, tags, visibility, questions as (text, required)).
type DemoTemplate = (&'static str, &'static [&'static str], &'static str, &'static [(&'static str, bool)]);
pub const DEMO_TEMPLATES: &[DemoTemplate] = &[
    (
        "Lesson observation",
        &["observation"],
        "SCHOOL",
        &[
            ("What went well in the lesson?", true),
            ("What would make the lesson even better?", true),
            ("Agreed next steps", false),
        ],
    ),
    (
        "Learning walk",
        &["learning walk"],
        "MAT",
        &[
            ("Which classes were visited, and what was the focus?", true),
            ("Strengths seen", false),
            ("Areas to develop", false),
        ],
    ),
];

/// The one demo account that has not completed the leaders' onboarding tour, so it starts
/// on /leaders; every other demo account has (a demo should not open with a tour for
/// everyone, and end-to-end tests must not meet one by surprise).
pub const DEMO_NEW_LEADER: &str = "newleader@northbridge.test";

/// The demo account whose school redirects it to the leaders area.
pub const DEMO_RIVERSIDE_LEADER: &str = "leader@riverside.test";

pub const DEMO_SCHOOL: &str = "Northbridge Academy";
const DEMO_SECOND_SCHOOL: &str = "Riverside Primary";
/// A school outside the demo trust, with no accounts: the MAT user cannot switch into it,
/// the superadmin can (docs/organisations.md).
pub const DEMO_OTHER_SCHOOL: &str = "Hillcrest School";
const DEMO_TRUST: &str = "Northbridge Learning Trust";
pub const DEMO_PUPILS: usize = 60;

const FORENAMES: &[&str] = &[
    "Amelia", "Oliver", "Isla", "George", "Ava", "Noah", "Mia", "Arthur", "Ivy", "Leo", "Freya",
    "Oscar", "Lily", "Harry", "Sophia", "Jack", "Grace", "Theo", "Ella", "Finley",
];
const SURNAMES: &[&str] = &[
    "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Patel",
    "Wright", "Khan", "Evans", "Thomas", "Roberts", "Walker",
];

/// What seeding did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedOutcome {
    /// The demo was written.
    Seeded,
    /// The database already held users; nothing was written. `demo_present` tells whether
    /// the demo accounts are among them.
    AlreadyPopulated { demo_present: bool },
}

/// Seeds the demo organisation when the database has no users.
pub async fn seed_demo(db: &Db) -> Result<SeedOutcome, DbError> {
    let mut pooled = db.conn().await?;
    let mut conn = pooled.db();
    if users::count(&mut conn).await? > 0 {
        let demo_present = users::find_by_email(&mut conn, DEMO_ACCOUNTS[0].0)
            .await?
            .is_some();
        return Ok(SeedOutcome::AlreadyPopulated { demo_present });
    }
    // Hash before the transaction: it is slow on purpose and needs no lock.
    let hash = crate::password::hash(DEMO_PASSWORD.to_owned())
        .await
        .map_err(|e| DbError::Pool(format!("cannot hash: {e}")))?;
    transaction!(&mut conn, |c| write_demo(c, &hash).await)?;
    Ok(SeedOutcome::Seeded)
}

/// The lines printed after seeding: where to go and how to sign in.
pub fn demo_accounts_text(public_url: &str) -> String {
    let mut text =
        format!("Demo sign-in accounts (password {DEMO_PASSWORD}) at {public_url}/login:\n");
    for (email, role, _, _, _) in DEMO_ACCOUNTS {
        text.push_str(&format!("  {:<11} {email}\n", role.as_str()));
    }
    text
}

async fn write_demo(c: &mut DbConn<'_>, password_hash: &str) -> Result<(), DbError> {
    let at = now();
    let trust = organisations::NewTrust {
        id: new_id(),
        name: DEMO_TRUST.into(),
        created_at: at,
        updated_at: at,
    };
    organisations::insert_trust(c, &trust).await?;
    let school_id = new_id();
    let second_school_id = new_id();
    for (id, name, postcode, redirect_to_leaders) in [
        (&school_id, DEMO_SCHOOL, "NB1 2AB", false),
        (&second_school_id, DEMO_SECOND_SCHOOL, "NB3 4CD", true),
    ] {
        organisations::insert_school(
            c,
            &organisations::NewSchool {
                id: id.clone(),
                trust_id: Some(trust.id.clone()),
                created_at: at,
                updated_at: at,
                name: name.into(),
                postcode: Some(postcode.into()),
                org_type: OrgType::School,
                redirect_to_leaders,
                notifications_frequency: NotificationFrequency::Immediately,
            },
        )
        .await?;
    }

    organisations::insert_school(
        c,
        &organisations::NewSchool {
            id: new_id(),
            trust_id: None,
            created_at: at,
            updated_at: at,
            name: DEMO_OTHER_SCHOOL.into(),
            postcode: Some("HC5 6EF".into()),
            org_type: OrgType::School,
            redirect_to_leaders: false,
            notifications_frequency: NotificationFrequency::Weekly,
        },
    )
    .await?;

    // Staff: one account per role.
    let mut staff_ids = Vec::new();
    for (email, role, leader, forename, surname) in DEMO_ACCOUNTS {
        let id = new_id();
        users::insert(
            c,
            &users::NewUser {
                id: id.clone(),
                created_at: at,
                updated_at: at,
                forename: (*forename).into(),
                surname: (*surname).into(),
                title: None,
                email: (*email).into(),
                email_verified: Some(at),
                password_updated_at: Some(at),
                password: Some(password_hash.to_owned()),
                activated: true,
                disabled: false,
                leader: *leader,
                school_id: match (*role, *email) {
                    (UserRole::Superadmin, _) => None,
                    (_, DEMO_RIVERSIDE_LEADER) => Some(second_school_id.clone()),
                    _ => Some(school_id.clone()),
                },
                role: *role,
            },
        )
        .await?;
        if *email != DEMO_NEW_LEADER {
            users::mark_tutorial_complete(c, &id).await?;
        }
        staff_ids.push((id, *role));
    }
    // The first account of each role (the Northbridge one).
    let staff = |role: UserRole| {
        staff_ids
            .iter()
            .find(|(_, r)| *r == role)
            .map(|(id, _)| id.clone())
            .unwrap_or_default()
    };
    let teacher_id = staff(UserRole::Teacher);
    let admin_id = staff(UserRole::Admin);
    // The MAT user works across both of the trust's schools.
    crate::models::organisations::add_membership(
        c,
        &staff(UserRole::MatUser),
        &school_id,
        UserRole::MatUser,
        at,
    )
    .await?;
    crate::models::organisations::add_membership(
        c,
        &staff(UserRole::MatUser),
        &second_school_id,
        UserRole::MatUser,
        at,
    )
    .await?;

    // Year groups, form groups and classes.
    let mut classes = Vec::new();
    let mut forms = Vec::new();
    for year in [7, 8, 9] {
        let year_group_id = groups::year_group_id(c, &school_id, &format!("Year {year}")).await?;
        for letter in ["A", "B"] {
            let form = groups::NewFormGroup {
                id: new_id(),
                created_at: at,
                updated_at: at,
                name: format!("{year}{letter}"),
                school_id: school_id.clone(),
            };
            groups::insert_form_group(c, &form).await?;
            forms.push((year_group_id.clone(), form.id));
        }
        let subject = match year {
            7 => "English",
            8 => "Maths",
            _ => "Science",
        };
        let class = groups::NewClass {
            id: new_id(),
            created_at: at,
            updated_at: at,
            name: format!("Year {year} {subject}"),
            school_id: school_id.clone(),
        };
        groups::insert_class(c, &class).await?;
        users::add_to_class(c, &teacher_id, &class.id).await?;
        classes.push(class.id);
    }
    users::add_to_class(c, &admin_id, &classes[2]).await?;

    // Two templates for the leaders' tasks: one for the school, one shared with the trust.
    for (title, tags, visibility, questions) in DEMO_TEMPLATES {
        let questions: Vec<templates::QuestionInput> = questions
            .iter()
            .map(|(text, required)| templates::QuestionInput {
                id: None,
                text: (*text).into(),
                required: *required,
            })
            .collect();
        templates::insert_template(
            c,
            &admin_id,
            &school_id,
            &templates::TemplateFields {
                title: (*title).into(),
                tags: serde_json::to_string(tags).unwrap_or_else(|_| "[]".into()),
                visibility: (*visibility).into(),
            },
            &questions,
        )
        .await?;
    }

    // 60 pupils: ten in each form group, each form's year in its year's class.
    let mut pupils: Vec<DemoPupil> = Vec::with_capacity(DEMO_PUPILS);
    for n in 0..DEMO_PUPILS {
        let forename = FORENAMES[n % FORENAMES.len()];
        let surname = SURNAMES[(n * 7 + n / FORENAMES.len()) % SURNAMES.len()];
        let form_index = n / 10;
        let (year_group_id, form_group_id) = &forms[form_index];
        let id = new_id();
        let handle = format!(
            "{}.{}{}",
            forename.to_lowercase(),
            surname.to_lowercase(),
            n + 1
        );
        let parent_email = format!("parent.{handle}@families.test");
        let pupil_email = format!("{handle}@pupils.northbridge.test");
        students::insert(
            c,
            &students::NewStudent {
                id: id.clone(),
                created_at: at,
                updated_at: at,
                forename: forename.into(),
                surname: surname.into(),
                email: Some(pupil_email.clone()),
                parent_email: Some(parent_email.clone()),
                upn: Some(format!("N{:012}", 100_000 + n)),
                school_id: school_id.clone(),
                year_group_id: Some(year_group_id.clone()),
                form_group_id: Some(form_group_id.clone()),
            },
        )
        .await?;
        students::add_to_class(c, &id, &classes[form_index / 2]).await?;
        email_preferences::insert(
            c,
            &email_preferences::NewEmailPreference {
                email: parent_email.clone(),
                language: "en".into(),
                general: true,
                assignment: n % 9 != 0,
                frequency: if n % 5 == 0 {
                    NotificationFrequency::Daily
                } else {
                    NotificationFrequency::Immediately
                },
                token: new_token(),
                created_at: at,
                updated_at: at,
            },
        )
        .await?;
        pupils.push(DemoPupil {
            id,
            class: form_index / 2,
            email: pupil_email,
            parent_email,
            assignments_to_parent: n % 9 != 0,
        });
    }

    write_demo_notifications(c, at, &school_id, &teacher_id, &classes[0], &pupils).await
}

/// A demo pupil: id, index of their class, their and their parent's addresses, and
/// whether the parent gets assignment e-mails.
struct DemoPupil {
    id: String,
    class: usize,
    email: String,
    parent_email: String,
    assignments_to_parent: bool,
}

/// The Reach tab's rows of a sent demo message (docs/reach.md): every pupil's and parent's
/// e-mail sent, a parent who turned assignments off not sent, and every third parent opened.
async fn write_demo_deliveries(
    c: &mut DbConn<'_>,
    notification: &notifications::NewNotification,
    sent: NaiveDateTime,
    pupils: &[&DemoPupil],
) -> Result<(), DbError> {
    let opted_out = |p: &DemoPupil| {
        notification.kind == NotificationType::Assignment && !p.assignments_to_parent
    };
    let row = |p: &DemoPupil, audience: &str, address: &str, reason: Option<&str>| deliveries::NewDelivery {
        id: new_id(),
        school_id: notification.school_id.clone(),
        notification_id: notification.id.clone(),
        student_id: p.id.clone(),
        audience: audience.into(),
        address: Some(address.into()),
        not_sent_reason: reason.map(Into::into),
        created_at: sent,
    };
    let mut rows = Vec::with_capacity(pupils.len() * 2);
    for &p in pupils {
        rows.push(row(p, "pupil", &p.email, None));
        let reason = opted_out(p).then_some(deliveries::OPTED_OUT);
        rows.push(row(p, "parent", &p.parent_email, reason));
    }
    let parents: Vec<String> = rows.iter().filter(|r| r.audience == "parent").map(|r| r.id.clone()).collect();
    deliveries::insert_new(c, rows).await?;
    for (i, &p) in pupils.iter().enumerate() {
        deliveries::mark_sent(c, &notification.id, &p.id, "pupil", sent).await?;
        if !opted_out(p) {
            deliveries::mark_sent(c, &notification.id, &p.id, "parent", sent).await?;
            if i % 3 == 0 {
                deliveries::mark_opened(c, &parents[i], sent + Duration::hours(2)).await?;
            }
        }
    }
    Ok(())
}

/// A sent message, a sent assignment with submissions, and a scheduled assignment.
async fn write_demo_notifications(
    c: &mut DbConn<'_>,
    at: NaiveDateTime,
    school_id: &str,
    teacher_id: &str,
    year7_class_id: &str,
    pupils: &[DemoPupil],
) -> Result<(), DbError> {
    let year7_pupils: Vec<&DemoPupil> = pupils.iter().filter(|p| p.class == 0).collect();
    let year7: Vec<&String> = year7_pupils.iter().map(|p| &p.id).collect();
    let week_ago = at - Duration::days(7);
    let demo = [
        (
            NotificationType::General,
            "Welcome back",
            "Welcome back to the new term! Reading books are due on Friday.",
            Some(week_ago),
            None,
        ),
        (
            NotificationType::Assignment,
            "Persuasive letter",
            "Write a one-page letter persuading the council to build a new library.",
            Some(at - Duration::days(3)),
            Some(at + Duration::days(4)),
        ),
        (
            NotificationType::Assignment,
            "Poetry reading log",
            "Read three poems and write a short reflection on each.",
            Some(at + Duration::days(2)),
            Some(at + Duration::days(9)),
        ),
    ];
    for (index, (kind, title, body, send_date, due)) in demo.into_iter().enumerate() {
        let notification = notifications::NewNotification {
            id: new_id(),
            created_at: week_ago,
            updated_at: week_ago,
            kind,
            title: title.into(),
            custom_title: None,
            body: format!("<p>{body}</p>"),
            send_date,
            submission_due_date: due,
            send_to_parent: true,
            send_to_pupil: true,
            // The receipts below went to the Year 7 English class: the filters say so.
            filters: crate::models::recipients::Filters {
                classes: vec![year7_class_id.to_owned()],
                ..Default::default()
            }
            .to_stored(),
            sender_id: teacher_id.to_owned(),
            school_id: school_id.to_owned(),
        };
        notifications::insert(c, &notification).await?;
        let sent = send_date.filter(|d| *d <= at);
        let Some(sent) = sent else {
            // Scheduled: no receipts yet; the job queue sends it at its send date.
            crate::jobs::notification_send::SendNotification::schedule(
                c,
                &notification.id,
                notification.updated_at,
                send_date.unwrap_or(at),
            )
            .await?;
            continue;
        };
        for student_id in &year7 {
            receipts::insert_receipt(
                c,
                &receipts::NewReceipt {
                    notification_id: notification.id.clone(),
                    student_id: (*student_id).clone(),
                    sent_at: Some(sent),
                },
            )
            .await?;
        }
        write_demo_deliveries(c, &notification, sent, &year7_pupils).await?;
        if index != 1 {
            continue;
        }
        // The assignment: five handed in, two of them already marked.
        for (n, student_id) in year7.iter().take(5).enumerate() {
            let received = at - Duration::hours(30 - n as i64 * 4);
            let marked = n < 2;
            notifications::insert_submission(
                c,
                &notifications::NewSubmission {
                    id: new_id(),
                    created_at: received,
                    updated_at: received,
                    received_at: Some(received),
                    marked_at: marked.then_some(at - Duration::hours(2)),
                    content: Some(
                        "Dear Councillor, our town needs a new library because...".into(),
                    ),
                    feedback: marked.then(|| {
                        "A clear, well-argued letter. Add one more piece of evidence.".into()
                    }),
                    feedback_sentiment: marked.then_some(if n == 0 {
                        FeedbackSentiment::Positive
                    } else {
                        FeedbackSentiment::Neutral
                    }),
                    token: new_token(),
                    notification_id: notification.id.clone(),
                    student_id: (*student_id).clone(),
                },
            )
            .await?;
        }
    }
    Ok(())
}
