//! The data layer's promises: atomic transactions and queries scoped to one school.

use core_wasm::{NotificationFrequency, OrgType};
use voicemark::db::DbError;
use voicemark::ids::new_id;
use voicemark::models::{now, organisations, students};
use voicemark::transaction;

use crate::dual_test;

fn school(name: &str) -> organisations::NewSchool {
    let at = now();
    organisations::NewSchool {
        id: new_id(),
        trust_id: None,
        created_at: at,
        updated_at: at,
        name: name.into(),
        postcode: None,
        org_type: OrgType::School,
        redirect_to_leaders: false,
        notifications_frequency: NotificationFrequency::Immediately,
    }
}

fn pupil(school_id: &str, forename: &str) -> students::NewStudent {
    let at = now();
    students::NewStudent {
        id: new_id(),
        created_at: at,
        updated_at: at,
        forename: forename.into(),
        surname: "Pupil".into(),
        email: None,
        parent_email: Some(format!("parent.{}@families.test", forename.to_lowercase())),
        upn: None,
        school_id: school_id.into(),
        year_group_id: None,
        form_group_id: None,
    }
}

dual_test!(
    async fn a_failed_transaction_leaves_nothing_behind(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let first = school("Half Written School");
        let outcome: Result<(), DbError> = transaction!(&mut conn, |c| {
            organisations::insert_school(c, &first).await?;
            // The same id again breaks the primary key: the whole transaction must roll back.
            organisations::insert_school(c, &first).await?;
            Ok(())
        });
        assert!(outcome.is_err());
        let found = organisations::find_school_by_name(&mut conn, "Half Written School")
            .await
            .expect("query");
        assert!(found.is_none(), "the first insert was rolled back");

        let second = school("Whole School");
        let outcome: Result<(), DbError> = transaction!(&mut conn, |c| {
            organisations::insert_school(c, &second).await?;
            Ok(())
        });
        assert!(outcome.is_ok());
        assert!(
            organisations::find_school_by_name(&mut conn, "Whole School")
                .await
                .expect("query")
                .is_some()
        );
    }
);

dual_test!(
    async fn pupils_are_listed_only_for_their_own_school(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let (north, south) = (school("North"), school("South"));
        organisations::insert_school(&mut conn, &north)
            .await
            .expect("north");
        organisations::insert_school(&mut conn, &south)
            .await
            .expect("south");
        for name in ["Zoe", "Adam"] {
            students::insert(&mut conn, &pupil(&north.id, name))
                .await
                .expect("pupil");
        }
        students::insert(&mut conn, &pupil(&south.id, "Sam"))
            .await
            .expect("pupil");

        let northern = students::list_for_school(&mut conn, &north.id)
            .await
            .expect("list");
        let names: Vec<&str> = northern.iter().map(|s| s.forename).collect();
        assert_eq!(names, ["Adam", "Zoe"], "sorted, and only North's pupils");
        let southern = students::list_for_school(&mut conn, &south.id)
            .await
            .expect("list");
        assert_eq!(southern.len(), 1);
        assert_eq!(southern.iter().next().map(|s| s.forename), Some("Sam"));
    }
);

dual_test!(
    async fn concurrent_writers_do_not_see_database_is_locked(app: TestApp) {
        let target = school("Busy School");
        {
            let mut pooled = app.db.conn().await.expect("connection");
            organisations::insert_school(&mut pooled.db(), &target)
                .await
                .expect("school");
        }
        let mut tasks = Vec::new();
        for n in 0..16 {
            let db = app.db.clone();
            let school_id = target.id.clone();
            tasks.push(tokio::spawn(async move {
                let mut pooled = db.conn().await?;
                let mut conn = pooled.db();
                transaction!(&mut conn, |c| {
                    // Read, then write: the pattern that fails under deferred SQLite transactions.
                    let before = students::list_for_school(c, &school_id).await?.len();
                    students::insert(c, &pupil(&school_id, &format!("P{n}"))).await?;
                    Ok::<usize, DbError>(before)
                })
            }));
        }
        for task in tasks {
            task.await.expect("task").expect("no lock error");
        }
        let mut pooled = app.db.conn().await.expect("connection");
        assert_eq!(
            students::list_for_school(&mut pooled.db(), &target.id)
                .await
                .expect("list")
                .len(),
            16
        );
    }
);

dual_test!(
    async fn a_job_with_the_same_idempotency_key_is_queued_once(app: TestApp) {
        use voicemark::models::jobs::{insert as enqueue, NewJob};
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let job = NewJob {
            kind: "notification.send".into(),
            payload: serde_json::json!({ "notificationId": "n1" }),
            run_at: now(),
            idempotency_key: Some("notification.send:n1".into()),
        };
        let first = enqueue(&mut conn, &job).await.expect("enqueue");
        assert!(first.is_some());
        assert_eq!(enqueue(&mut conn, &job).await.expect("enqueue again"), None);
        let unkeyed = NewJob {
            idempotency_key: None,
            ..job
        };
        assert!(enqueue(&mut conn, &unkeyed)
            .await
            .expect("enqueue")
            .is_some());
        assert!(
            enqueue(&mut conn, &unkeyed)
                .await
                .expect("enqueue")
                .is_some(),
            "no key, no dedup"
        );
    }
);

dual_test!(
    async fn batch_insert_and_upsert_write_each_row_once(app: TestApp) {
        use voicemark::db::schema::email_preferences;
        use voicemark::models::email_preferences::{find_many, NewEmailPreference};
        let mut pooled = app.db.conn().await.expect("connection");
        let mut conn = pooled.db();
        let at = now();
        let row = |i: usize, language: &str| NewEmailPreference {
            email: format!("p{i}@batch.test"),
            language: language.into(),
            general: true,
            assignment: true,
            frequency: NotificationFrequency::Immediately,
            token: new_id(),
            created_at: at,
            updated_at: at,
        };
        // More rows than one statement may carry, so the batch is cut in two.
        let per_statement = voicemark::db::rows_per_statement(8);
        let rows: Vec<_> = (0..per_statement + 3).map(|i| row(i, "en")).collect();
        let written =
            voicemark::batch_insert!(&mut conn, email_preferences::table, rows, columns = 8)
                .expect("insert");
        assert_eq!(written, per_statement + 3);

        let again: Vec<_> = (0..2).map(|i| row(i, "fr")).collect();
        let skipped = voicemark::batch_insert!(
            &mut conn,
            email_preferences::table,
            again,
            columns = 8,
            |q| q.on_conflict_do_nothing()
        )
        .expect("insert again");
        assert_eq!(skipped, 0, "existing rows are left alone");

        let changed: Vec<_> = (0..2)
            .map(|i| row(i, "de"))
            .chain([row(per_statement + 10, "de")])
            .collect();
        voicemark::batch_upsert!(
            &mut conn,
            email_preferences::table,
            changed,
            columns = 8,
            on = email_preferences::email,
            set = (email_preferences::language)
        )
        .expect("upsert");
        let new_one = format!("p{}@batch.test", per_statement + 10);
        let emails = vec![
            "p0@batch.test".to_owned(),
            "p1@batch.test".to_owned(),
            "p2@batch.test".to_owned(),
            new_one.clone(),
        ];
        let found = find_many(&mut conn, &emails).await.expect("read back");
        assert_eq!(found.len(), 4);
        assert_eq!(found["p0@batch.test"].language, "de", "updated");
        assert_eq!(found["p1@batch.test"].language, "de", "updated");
        assert_eq!(found["p2@batch.test"].language, "en", "untouched");
        assert_eq!(found[&new_one].language, "de", "inserted");
    }
);
