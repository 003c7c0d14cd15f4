//! The demo organisation.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use voicemark::db::schema::{email_preferences, students, users};
use voicemark::models::{
    notifications, organisations, students as student_model, users as user_model,
};
use voicemark::seed::{
    seed_demo, SeedOutcome, DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_PUPILS, DEMO_SCHOOL,
};
use voicemark::with_conn;

use crate::dual_test;

dual_test!(
    async fn demo_seed_fills_an_empty_database_once(app: TestApp) {
        assert_eq!(seed_demo(&app.db).await.expect("seed"), SeedOutcome::Seeded);
        assert_eq!(
            seed_demo(&app.db).await.expect("seed again"),
            SeedOutcome::AlreadyPopulated { demo_present: true }
        );

        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let school = organisations::find_school_by_name(&mut conn, DEMO_SCHOOL)
            .await
            .expect("query")
            .expect("demo school");
        let pupils = student_model::list_for_school(&mut conn, &school.id)
            .await
            .expect("pupils");
        assert_eq!(pupils.len(), DEMO_PUPILS);
        assert!(pupils
            .iter()
            .all(|p| p.year_group.is_some() && p.form_group.is_some()));

        let without_parent: i64 = with_conn!(&mut conn, |c| students::table
            .filter(students::parent_email.is_null())
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(without_parent, 0, "every pupil has a parent e-mail");
        let preferences: i64 = with_conn!(&mut conn, |c| email_preferences::table
            .count()
            .get_result(c)
            .await)
        .expect("count");
        assert_eq!(preferences, DEMO_PUPILS as i64);

        // One account per role (three admins: Northbridge's, Riverside's and the one with the
        // tour ahead), each activated, with a password that verifies.
        let roles: Vec<String> = with_conn!(&mut conn, |c| users::table
            .select(users::role)
            .order(users::role)
            .load(c)
            .await)
        .expect("roles");
        assert_eq!(
            roles,
            [
                "ADMIN",
                "ADMIN",
                "ADMIN",
                "MAT_USER",
                "ORG_ADMIN",
                "SUPERADMIN",
                "TEACHER"
            ]
        );
        let riverside =
            user_model::find_by_email(&mut conn, voicemark::seed::DEMO_RIVERSIDE_LEADER)
                .await
                .expect("query")
                .expect("leader");
        let redirect: bool = with_conn!(&mut conn, |c| voicemark::db::schema::schools::table
            .filter(
                voicemark::db::schema::schools::id
                    .eq(riverside.school_id.clone().unwrap_or_default())
            )
            .select(voicemark::db::schema::schools::redirect_to_leaders)
            .first(c)
            .await)
        .expect("school");
        assert!(redirect, "Riverside sends its users to the leaders area");
        for (email, role, leader, _, _) in DEMO_ACCOUNTS {
            let user = user_model::find_by_email(&mut conn, email)
                .await
                .expect("query")
                .expect("account");
            assert_eq!(user.role, *role);
            assert_eq!(user.leader, *leader);
            assert!(user.activated && !user.disabled);
            assert_eq!(
                user.has_completed_tutorial,
                *email != voicemark::seed::DEMO_NEW_LEADER,
                "only {} still has the tour ahead",
                voicemark::seed::DEMO_NEW_LEADER
            );
            let hash = user.password.expect("a password");
            assert!(voicemark::password::verify_password(DEMO_PASSWORD, &hash));
        }

        // The scheduled assignment waits in the job queue for its send date.
        let queued: Vec<(String, String)> =
            with_conn!(&mut conn, |c| voicemark::db::schema::jobs::table
                .select((
                    voicemark::db::schema::jobs::kind,
                    voicemark::db::schema::jobs::status
                ))
                .load(c)
                .await)
            .expect("jobs");
        assert_eq!(
            queued,
            [("notification.send".to_owned(), "QUEUED".to_owned())]
        );

        // The two sent messages have their Reach rows: 20 pupils and 20 parents each; three
        // parents turned assignment e-mails off; every third parent who got one opened it.
        use voicemark::db::schema::deliveries;
        let rows: Vec<(Option<String>, Option<chrono::NaiveDateTime>, Option<chrono::NaiveDateTime>)> =
            with_conn!(&mut conn, |c| deliveries::table
                .select((deliveries::not_sent_reason, deliveries::sent_at, deliveries::opened_at))
                .load(c)
                .await)
            .expect("deliveries");
        assert_eq!(rows.len(), 80);
        let not_sent: Vec<_> = rows.iter().filter(|r| r.0.is_some()).collect();
        assert_eq!(not_sent.len(), 3);
        assert!(not_sent.iter().all(|r| r.0.as_deref() == Some("OPTED_OUT") && r.1.is_none()));
        assert_eq!(rows.iter().filter(|r| r.1.is_some()).count(), 77);
        assert_eq!(rows.iter().filter(|r| r.2.is_some()).count(), 11);

        // The teacher has three submissions waiting to be marked.
        let teacher = user_model::find_by_email(&mut conn, "teacher@northbridge.test")
            .await
            .expect("query")
            .expect("teacher");
        assert_eq!(
            notifications::feedback_hub_count(
                &mut conn,
                &voicemark::models::submissions::MarkerScope::for_user(&teacher).expect("school")
            )
            .await
            .expect("count"),
            3
        );
        let admin = user_model::find_by_email(&mut conn, "admin@northbridge.test")
            .await
            .expect("query")
            .expect("admin");
        assert_eq!(
            notifications::feedback_hub_count(
                &mut conn,
                &voicemark::models::submissions::MarkerScope::for_user(&admin).expect("school")
            )
            .await
            .expect("count"),
            3,
            "admins see their whole school's Feedback Hub"
        );
    }
);
