//! The comment bank (`commentBank.*`): personal and school scoping (another school sees
//! nothing), proposals reviewed by admins only, typeahead ranking, the three-times rule
//! fed by `feedback.mark`, and CSV import (errors, all or nothing) and export (round trip).

use serde_json::{json, Value};

use crate::dual_test;
use crate::submissions::{hand_in, mutate, pupil, query, submission_row, world, Answer};
use crate::support::TestApp;

async fn add(app: &TestApp, cookie: &str, text: &str, sentiment: &str) -> Answer {
    mutate(
        app,
        "commentBank.add",
        json!({"text": text, "sentiment": sentiment, "tags": []}),
        Some(cookie),
    )
    .await
}

async fn added_id(app: &TestApp, cookie: &str, text: &str) -> String {
    add(app, cookie, text, "POSITIVE").await.data()["id"]
        .as_str()
        .expect("an id")
        .to_owned()
}

async fn shelf(app: &TestApp, cookie: &str, shelf: &str) -> Vec<String> {
    let answer = query(
        app,
        "commentBank.list",
        json!({"shelf": shelf, "search": "", "sort": "USE"}),
        Some(cookie),
    )
    .await;
    texts(answer.data()["items"].clone())
}

fn texts(items: Value) -> Vec<String> {
    items
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item["text"].as_str().unwrap_or("").to_owned())
        .collect()
}

async fn search(app: &TestApp, cookie: &str, typed: &str) -> Vec<String> {
    let answer = query(
        app,
        "commentBank.search",
        json!({"query": typed}),
        Some(cookie),
    )
    .await;
    texts(answer.data().clone())
}

dual_test!(
    async fn a_teacher_sees_their_own_and_their_schools_approved_comments_only(app: TestApp) {
        let w = world(&app).await;
        let mine = added_id(&app, &w.teacher.cookie, "Great use of evidence.").await;
        added_id(&app, &w.colleague.cookie, "Colin's own comment here.").await;
        added_id(&app, &w.stranger.cookie, "Another school's comment.").await;

        assert_eq!(
            shelf(&app, &w.teacher.cookie, "MINE").await,
            vec!["Great use of evidence."]
        );
        assert!(shelf(&app, &w.teacher.cookie, "SCHOOL").await.is_empty());
        // The same text twice in one bank is refused.
        let twice = add(&app, &w.teacher.cookie, "great  use of EVIDENCE", "NEUTRAL").await;
        assert_eq!(
            twice.field_error("text"),
            "This comment is already in your comment bank."
        );
        // Bad input, field by field.
        let bad = add(&app, &w.teacher.cookie, "  ", "HAPPY").await;
        assert_eq!(bad.code(), "BAD_REQUEST");
        assert_eq!(bad.field_error("text"), "Write the comment.");
        assert_eq!(
            bad.field_error("sentiment"),
            "Choose Neutral, Positive or Negative."
        );
        let long = add(&app, &w.teacher.cookie, &"a".repeat(10_001), "NEUTRAL").await;
        assert_eq!(long.field_error("text"), "Use at most 10000 characters.");

        // Another teacher or another school can neither use, edit, delete nor propose it.
        for cookie in [&w.colleague.cookie, &w.stranger.cookie] {
            for (path, input) in [
                ("commentBank.use", json!({"id": mine})),
                ("commentBank.delete", json!({"id": mine})),
                ("commentBank.propose", json!({"id": mine})),
                (
                    "commentBank.update",
                    json!({"id": mine, "text": "Stolen", "sentiment": "NEUTRAL", "tags": []}),
                ),
            ] {
                let answer = mutate(&app, path, input, Some(cookie)).await;
                assert_eq!(answer.code(), "NOT_FOUND", "{path}");
            }
            assert!(search(&app, cookie, "evidence").await.is_empty());
        }

        // Proposing: the teacher proposes, a teacher cannot review, the admin approves.
        let proposal = mutate(
            &app,
            "commentBank.propose",
            json!({"id": mine}),
            Some(&w.teacher.cookie),
        )
        .await;
        let proposal_id = proposal.data()["id"].as_str().expect("id").to_owned();
        assert_eq!(proposal.data()["shelf"], "PROPOSED");
        let again = mutate(
            &app,
            "commentBank.propose",
            json!({"id": mine}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(again.code(), "BAD_REQUEST");
        // Not yet in the school's bank: the colleague cannot find it.
        assert!(search(&app, &w.colleague.cookie, "evidence").await.is_empty());
        let teacher_lists_proposals = query(
            &app,
            "commentBank.list",
            json!({"shelf": "PROPOSED"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(teacher_lists_proposals.code(), "FORBIDDEN");
        let teacher_reviews = mutate(
            &app,
            "commentBank.review",
            json!({"id": proposal_id, "approve": true}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(teacher_reviews.code(), "FORBIDDEN");
        let stranger_admin = crate::support::leader_in(
            &app,
            &crate::support::make_school(&app, "Faraway").await,
            core_wasm::UserRole::Admin,
        )
        .await;
        let foreign_review = mutate(
            &app,
            "commentBank.review",
            json!({"id": proposal_id, "approve": true}),
            Some(&stranger_admin.1),
        )
        .await;
        assert_eq!(foreign_review.code(), "NOT_FOUND");

        let listing = query(
            &app,
            "commentBank.list",
            json!({"shelf": "PROPOSED"}),
            Some(&w.admin.cookie),
        )
        .await;
        assert_eq!(listing.data()["canReview"], true);
        assert_eq!(listing.data()["proposedCount"], 1);
        assert_eq!(
            listing.data()["items"][0]["proposedBy"],
            "Tess Staff",
            "{}",
            listing.body
        );
        let approved = mutate(
            &app,
            "commentBank.review",
            json!({"id": proposal_id, "approve": true}),
            Some(&w.admin.cookie),
        )
        .await;
        assert_eq!(approved.data()["approved"], true);
        assert_eq!(
            shelf(&app, &w.colleague.cookie, "SCHOOL").await,
            vec!["Great use of evidence."]
        );
        assert_eq!(
            search(&app, &w.colleague.cookie, "evid").await,
            vec!["Great use of evidence."]
        );
        // The colleague may use the school's comment but not change it; the admin may.
        let used = mutate(
            &app,
            "commentBank.use",
            json!({"id": proposal_id}),
            Some(&w.colleague.cookie),
        )
        .await;
        assert_eq!(used.data()["useCount"], 1);
        let colleague_deletes = mutate(
            &app,
            "commentBank.delete",
            json!({"id": proposal_id}),
            Some(&w.colleague.cookie),
        )
        .await;
        assert_eq!(colleague_deletes.code(), "NOT_FOUND");
        // The other school sees nothing of it.
        assert!(shelf(&app, &w.stranger.cookie, "SCHOOL").await.is_empty());
        assert!(search(&app, &w.stranger.cookie, "evid").await.is_empty());

        // A rejected proposal goes; the teacher's own comment stays.
        let second = added_id(&app, &w.teacher.cookie, "Check your full stops.").await;
        let proposal = mutate(
            &app,
            "commentBank.propose",
            json!({"id": second}),
            Some(&w.teacher.cookie),
        )
        .await;
        let rejected = mutate(
            &app,
            "commentBank.review",
            json!({"id": proposal.data()["id"], "approve": false}),
            Some(&w.admin.cookie),
        )
        .await;
        assert_eq!(rejected.data()["approved"], false);
        assert!(shelf(&app, &w.admin.cookie, "PROPOSED").await.is_empty());
        assert_eq!(shelf(&app, &w.teacher.cookie, "MINE").await.len(), 2);

        // Edit and delete the teacher's own.
        let edited = mutate(
            &app,
            "commentBank.update",
            json!({"id": second, "text": "Check your full stops, {name}.", "sentiment": "NEGATIVE", "tags": ["English", "Year 7"]}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(edited.data()["tags"], json!(["English", "Year 7"]));
        assert_eq!(edited.data()["sentiment"], "NEGATIVE");
        let deleted = mutate(
            &app,
            "commentBank.delete",
            json!({"id": second}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(deleted.data(), &json!(true));
        assert_eq!(
            shelf(&app, &w.teacher.cookie, "MINE").await,
            vec!["Great use of evidence."]
        );
    }
);

dual_test!(
    async fn the_typeahead_ranks_prefixes_then_word_starts_then_use_and_stops_at_eight(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let substring = added_id(&app, cookie, "Recommended: read more.").await;
        added_id(&app, cookie, "Your ending is strong.").await;
        added_id(&app, cookie, "Ending with a question works well.").await;
        let word_start = added_id(&app, cookie, "A clear ending, well done.").await;
        // Use raises a comment within its rank, never above a better match.
        for _ in 0..3 {
            mutate(&app, "commentBank.use", json!({"id": word_start}), Some(cookie))
                .await
                .data();
        }
        for _ in 0..5 {
            mutate(&app, "commentBank.use", json!({"id": substring}), Some(cookie))
                .await
                .data();
        }
        let found = search(&app, cookie, "end").await;
        assert_eq!(
            found,
            vec![
                "Ending with a question works well.",
                "A clear ending, well done.",
                "Your ending is strong.",
                "Recommended: read more.",
            ],
            "the comment's start, then a word's start (more used first), then inside a word"
        );
        // Every typed word starting a word matches too.
        assert_eq!(
            search(&app, cookie, "ques wor").await,
            vec!["Ending with a question works well."]
        );
        // Fewer than three letters: nothing.
        assert!(search(&app, cookie, "en").await.is_empty());
        // At most eight.
        for i in 0..10 {
            added_id(&app, cookie, &format!("Ending number {i} of many.")).await;
        }
        assert_eq!(search(&app, cookie, "ending").await.len(), 8);
    }
);

/// A third handed-in submission for the world's teacher.
async fn third_submission(app: &TestApp, w: &crate::submissions::World) -> (String, String) {
    let third = pupil(app, &w.school, "Isla").await;
    submission_row(app, &w.notification, &third).await
}

dual_test!(
    async fn a_phrase_written_three_times_is_suggested_once_and_never_after_not_now(app: TestApp) {
        let w = world(&app).await;
        let third = third_submission(&app, &w).await;
        let submissions = [w.submissions[0].clone(), w.submissions[1].clone(), third];
        let feedbacks = [
            "Great use of evidence. Well done.",
            "great  use of EVIDENCE!  Check spelling.",
            "Some new point here. Great use, of evidence",
        ];
        let suggestions = |cookie: String| {
            let app = &app;
            async move {
                query(app, "commentBank.suggestions", Value::Null, Some(&cookie))
                    .await
                    .data()
                    .clone()
            }
        };
        for (i, (submission, feedback)) in submissions.iter().zip(feedbacks).enumerate() {
            hand_in(&app, submission, "My letter").await.data();
            let marked = mutate(
                &app,
                "feedback.mark",
                json!({"submissionId": submission.0, "feedback": feedback, "sentiment": "POSITIVE"}),
                Some(&w.teacher.cookie),
            )
            .await;
            // The mark's answer keeps its shape.
            let mut keys: Vec<&String> =
                marked.data().as_object().expect("object").keys().collect();
            keys.sort();
            assert_eq!(
                keys,
                vec![
                    "feedback",
                    "feedbackSentiment",
                    "markedAt",
                    "releasedAt",
                    "submissionId"
                ]
            );
            let pending = suggestions(w.teacher.cookie.clone()).await;
            if i < 2 {
                assert_eq!(pending, json!([]), "not yet after {} marks", i + 1);
            }
        }
        let pending = suggestions(w.teacher.cookie.clone()).await;
        let list = pending.as_array().expect("a list");
        assert_eq!(list.len(), 1, "one suggestion: {pending}");
        assert_eq!(list[0]["text"], "Great use of evidence.");
        assert_eq!(list[0]["count"], 3);
        // Only the teacher who wrote it is asked.
        assert_eq!(suggestions(w.admin.cookie.clone()).await, json!([]));
        assert_eq!(suggestions(w.stranger.cookie.clone()).await, json!([]));
        let foreign = mutate(
            &app,
            "commentBank.dismissSuggestion",
            json!({"id": list[0]["id"]}),
            Some(&w.stranger.cookie),
        )
        .await;
        assert_eq!(foreign.code(), "NOT_FOUND");

        // Not now: gone, and never again however often it is written.
        let dismissed = mutate(
            &app,
            "commentBank.dismissSuggestion",
            json!({"id": list[0]["id"]}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(dismissed.data(), &json!(true));
        assert_eq!(suggestions(w.teacher.cookie.clone()).await, json!([]));
        voicemark_record(&app, &w, "Great use of evidence.").await;
        assert_eq!(suggestions(w.teacher.cookie.clone()).await, json!([]));

        // Another phrase, three times: Add puts it in the bank and it is not asked again.
        for _ in 0..3 {
            voicemark_record(&app, &w, "Check your spelling of key words.").await;
        }
        let pending = suggestions(w.teacher.cookie.clone()).await;
        assert_eq!(pending[0]["text"], "Check your spelling of key words.");
        let accepted = mutate(
            &app,
            "commentBank.acceptSuggestion",
            json!({"id": pending[0]["id"], "sentiment": "NEGATIVE"}),
            Some(&w.teacher.cookie),
        )
        .await;
        assert_eq!(accepted.data()["sentiment"], "NEGATIVE");
        assert_eq!(suggestions(w.teacher.cookie.clone()).await, json!([]));
        assert_eq!(
            shelf(&app, &w.teacher.cookie, "MINE").await,
            vec!["Check your spelling of key words."]
        );

        // A phrase already in the bank is not suggested; nor are short ones.
        added_id(&app, &w.teacher.cookie, "Lovely neat handwriting throughout.").await;
        for _ in 0..3 {
            voicemark_record(&app, &w, "Lovely neat handwriting throughout! Well done.").await;
        }
        assert_eq!(suggestions(w.teacher.cookie.clone()).await, json!([]));
    }
);

/// Counts `feedback`'s phrases for the world's teacher as a saved mark does.
async fn voicemark_record(app: &TestApp, w: &crate::submissions::World, feedback: &str) {
    let mut pooled = app.db.conn().await.expect("connection");
    voicemark::models::comment_bank::record_phrases(
        &mut pooled.db(),
        &w.school,
        &w.teacher.id,
        feedback,
        voicemark::models::now(),
    )
    .await
    .expect("phrases");
}

dual_test!(
    async fn csv_import_reports_every_bad_row_writes_nothing_and_round_trips(app: TestApp) {
        let w = world(&app).await;
        let cookie = &w.teacher.cookie;
        let import = |csv: String| {
            let app = &app;
            let cookie = cookie.clone();
            async move {
                mutate(app, "commentBank.importCsv", json!({"csv": csv}), Some(&cookie)).await
            }
        };
        let errors = |answer: &Answer| -> Vec<String> {
            answer.body["error"]["json"]["data"]["zodError"]["fieldErrors"]["csv"]
                .as_array()
                .map(|a| a.iter().map(|v| v.as_str().unwrap_or("").to_owned()).collect())
                .unwrap_or_default()
        };
        let bad = import(
            "text,sentiment,tags\nGood work.,POSITIVE,English\n,NEUTRAL,\nNice.,HAPPY,\n\"Fine\",NEUTRAL,a;b;c;d;e;f\n"
                .into(),
        )
        .await;
        assert_eq!(bad.code(), "BAD_REQUEST");
        assert_eq!(
            errors(&bad),
            vec![
                "Line 3: the text is empty.",
                "Line 4: the sentiment \"HAPPY\" is not NEUTRAL, POSITIVE or NEGATIVE.",
                "Line 5: the tags: Use at most 5 tags.",
            ]
        );
        assert!(
            shelf(&app, cookie, "MINE").await.is_empty(),
            "nothing half-imported"
        );
        let header = import("words,sentiment\nHello there.,NEUTRAL\n".into()).await;
        assert_eq!(
            errors(&header),
            vec![
                "Line 1: unknown column \"words\". The columns are text,sentiment,tags.",
                "Line 1: the column \"text\" is missing."
            ]
        );
        assert_eq!(
            errors(&import("text\n".into()).await),
            vec!["The file has no comments after its header line."]
        );
        let too_many: String = std::iter::once("text".to_owned())
            .chain((0..2_001).map(|i| format!("Comment {i}")))
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(
            errors(&import(too_many).await),
            vec!["The file has 2,001 comments; at most 2,000 can be imported at once. Split it into smaller files."]
        );
        assert_eq!(
            errors(&import("x".repeat(1024 * 1024 + 1)).await),
            vec!["The file is larger than 1 MB. Split it into smaller files."]
        );

        // A clean file: quotes, commas, line breaks, tags, a blank sentiment, a formula-like
        // cell and a repeated row (skipped).
        let good = "\u{feff}Text,Tags,Sentiment\n\"Well argued, {name}.\",\"English; Year 7\",positive\n\"Two\nlines here.\",,\n=SUM(A1) is not a formula,,NEGATIVE\nwell argued {name},,\n";
        let imported = import(good.into()).await;
        assert_eq!(imported.data()["imported"], 3);
        assert_eq!(imported.data()["skipped"], 1);
        let exported = query(
            &app,
            "commentBank.exportCsv",
            json!({"shelf": "MINE"}),
            Some(cookie),
        )
        .await;
        let csv = exported.data()["csv"].as_str().expect("csv").to_owned();
        assert_eq!(exported.data()["rows"], 3);
        assert!(csv.starts_with("text,sentiment,tags\n"), "{csv}");
        assert!(csv.contains("\"Well argued, {name}.\",POSITIVE,English; Year 7\n"), "{csv}");
        assert!(csv.contains("'=SUM(A1) is not a formula,NEGATIVE,\n"), "{csv}");
        assert!(csv.contains("\"Two\nlines here.\",NEUTRAL,\n"), "{csv}");

        // The export imports into another teacher's bank as it was.
        let before = query(
            &app,
            "commentBank.list",
            json!({"shelf": "MINE", "sort": "NEWEST"}),
            Some(cookie),
        )
        .await
        .data()["items"]
            .clone();
        let again = mutate(
            &app,
            "commentBank.importCsv",
            json!({"csv": csv}),
            Some(&w.colleague.cookie),
        )
        .await;
        assert_eq!(again.data()["imported"], 3);
        let after = query(
            &app,
            "commentBank.list",
            json!({"shelf": "MINE", "sort": "NEWEST"}),
            Some(&w.colleague.cookie),
        )
        .await
        .data()["items"]
            .clone();
        let shape = |items: &Value| -> Vec<(Value, Value, Value)> {
            let mut rows: Vec<(Value, Value, Value)> = items
                .as_array()
                .expect("items")
                .iter()
                .map(|i| (i["text"].clone(), i["sentiment"].clone(), i["tags"].clone()))
                .collect();
            rows.sort_by_key(|r| r.0.to_string());
            rows
        };
        assert_eq!(shape(&before), shape(&after));
        // Importing the same file again adds nothing.
        let repeat = mutate(
            &app,
            "commentBank.importCsv",
            json!({"csv": csv}),
            Some(&w.colleague.cookie),
        )
        .await;
        assert_eq!(repeat.data()["imported"], 0);
        assert_eq!(repeat.data()["skipped"], 3);
    }
);
