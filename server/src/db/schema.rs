//! The database schema, hand-written: one definition serves SQLite and PostgreSQL (migrations/ keeps the two in step).
//!
//! Each `table!` lists its columns in the order of the SQL in
//! `migrations/{postgres,sqlite}/*/up.sql`. Enumerations are `Text` columns with a
//! CHECK constraint in SQL; JSON values (`filters`, `tags`, `payload`) are `Text`.
//! Timestamps are `Timestamp` (no time zone, UTC by convention). A column that SQL
//! calls `type` is `type_` here. See `docs/data-model.md`.

diesel::table! {
    trusts (id) {
        id -> Text,
        name -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    schools (id) {
        id -> Text,
        trust_id -> Nullable<Text>,
        wonde_id -> Nullable<Text>,
        wonde_token -> Nullable<Text>,
        groupcall_id -> Nullable<Text>,
        groupcall_secret -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        last_full_sync -> Nullable<Timestamp>,
        name -> Text,
        postcode -> Nullable<Text>,
        #[sql_name = "type"]
        type_ -> Text,
        stripe_customer_id -> Nullable<Text>,
        stripe_subscription_id -> Nullable<Text>,
        stripe_product_id -> Nullable<Text>,
        seats -> Nullable<Integer>,
        subscription_last_updated_at -> Nullable<Timestamp>,
        redirect_to_leaders -> Bool,
        notify_parents_general -> Bool,
        notify_parents_assignment -> Bool,
        notifications_frequency -> Text,
        assistant_history -> Bool,
        reach_pixel -> Bool,
    }
}

diesel::table! {
    users (id) {
        id -> Text,
        groupcall_id -> Nullable<Text>,
        wonde_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        forename -> Text,
        surname -> Text,
        title -> Nullable<Text>,
        email -> Text,
        email_verified -> Nullable<Timestamp>,
        staff_code -> Nullable<Text>,
        password_updated_at -> Nullable<Timestamp>,
        password -> Nullable<Text>,
        pro -> Bool,
        activated -> Bool,
        send_all_cohorts -> Bool,
        has_completed_tutorial -> Bool,
        leader -> Bool,
        disabled -> Bool,
        last_active -> Nullable<Timestamp>,
        school_id -> Nullable<Text>,
        role -> Text,
    }
}

diesel::table! {
    organisation_memberships (user_id, school_id) {
        user_id -> Text,
        school_id -> Text,
        role -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    year_groups (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        name -> Text,
        school_id -> Text,
    }
}

diesel::table! {
    form_groups (id) {
        id -> Text,
        wonde_id -> Nullable<Text>,
        groupcall_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        name -> Text,
        school_id -> Text,
    }
}

diesel::table! {
    classes (id) {
        id -> Text,
        wonde_id -> Nullable<Text>,
        groupcall_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        name -> Text,
        school_id -> Text,
    }
}

diesel::table! {
    students (id) {
        id -> Text,
        wonde_id -> Nullable<Text>,
        groupcall_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        forename -> Text,
        surname -> Text,
        email -> Nullable<Text>,
        parent_email -> Nullable<Text>,
        upn -> Nullable<Text>,
        school_id -> Text,
        year_group_id -> Nullable<Text>,
        form_group_id -> Nullable<Text>,
        /// Set when the pupil left the MIS (docs/mis-sync.md); archived pupils keep their
        /// submissions but leave lists, the roster and audiences.
        archived_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// One MIS sync run of a school (docs/mis-sync.md).
    mis_sync_runs (id) {
        id -> Text,
        school_id -> Text,
        source -> Text,
        kind -> Text,
        status -> Text,
        started_at -> Timestamp,
        heartbeat_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        progress -> Text,
        added -> Integer,
        updated -> Integer,
        archived -> Integer,
        problems -> Text,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    class_students (class_id, student_id) {
        class_id -> Text,
        student_id -> Text,
    }
}

diesel::table! {
    class_staff (class_id, user_id) {
        class_id -> Text,
        user_id -> Text,
    }
}

diesel::table! {
    student_comments (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        user_id -> Text,
        student_id -> Text,
        comment -> Text,
    }
}

diesel::table! {
    notifications (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        #[sql_name = "type"]
        type_ -> Text,
        title -> Text,
        custom_title -> Nullable<Text>,
        body -> Text,
        send_date -> Nullable<Timestamp>,
        submission_due_date -> Nullable<Timestamp>,
        send_to_parent -> Bool,
        send_to_pupil -> Bool,
        filters -> Text,
        sender_id -> Text,
        school_id -> Text,
        feedback_release -> Text,
        feedback_release_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    notification_receipts (notification_id, student_id) {
        notification_id -> Text,
        student_id -> Text,
        sent_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    submissions (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        received_at -> Nullable<Timestamp>,
        marked_at -> Nullable<Timestamp>,
        content -> Nullable<Text>,
        s3_key -> Nullable<Text>,
        feedback -> Nullable<Text>,
        feedback_sentiment -> Nullable<Text>,
        token -> Text,
        notification_id -> Text,
        student_id -> Text,
        feedback_released_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    accounts (provider, provider_account_id) {
        user_id -> Text,
        #[sql_name = "type"]
        type_ -> Text,
        provider -> Text,
        provider_account_id -> Text,
        refresh_token -> Nullable<Text>,
        access_token -> Nullable<Text>,
        expires_at -> Nullable<BigInt>,
        ext_expires_in -> Nullable<Integer>,
        token_type -> Nullable<Text>,
        scope -> Nullable<Text>,
        id_token -> Nullable<Text>,
        session_state -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    email_preferences (email) {
        email -> Text,
        language -> Text,
        general -> Bool,
        assignment -> Bool,
        frequency -> Text,
        token -> Text,
        last_digest_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    assistant_queries (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        filter_id -> Nullable<Text>,
        query -> Text,
        response -> Nullable<Text>,
        user_id -> Text,
    }
}

diesel::table! {
    tasks (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        title -> Text,
        visibility -> Text,
        tags -> Text,
        user_id -> Text,
        school_id -> Text,
        archived_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    questions (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        text -> Text,
        #[sql_name = "type"]
        type_ -> Text,
        required -> Bool,
        position -> Integer,
        task_id -> Text,
    }
}

diesel::table! {
    task_submissions (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        draft -> Bool,
        title -> Text,
        submitted_at -> Nullable<Timestamp>,
        tags -> Text,
        task_id -> Text,
        user_id -> Text,
        school_id -> Nullable<Text>,
    }
}

diesel::table! {
    question_responses (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        submission_id -> Text,
        question_id -> Text,
        answer -> Text,
        version -> Integer,
        updated_by_id -> Nullable<Text>,
    }
}

diesel::table! {
    task_collaborators (submission_id, user_id) {
        submission_id -> Text,
        user_id -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    task_items (id) {
        id -> Text,
        submission_id -> Text,
        user_id -> Text,
        kind -> Text,
        file_id -> Nullable<Text>,
        name -> Text,
        content_type -> Nullable<Text>,
        notes -> Nullable<Text>,
        status -> Text,
        error -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    resource_transcripts (key) {
        key -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        transcript -> Text,
    }
}

diesel::table! {
    sessions (token_hash) {
        token_hash -> Text,
        user_id -> Text,
        created_at -> Timestamp,
        expires_at -> Timestamp,
        last_seen_at -> Timestamp,
        ip_address -> Nullable<Text>,
        user_agent -> Nullable<Text>,
        /// The school the session acts in (a MAT user's or superadmin's choice), if any.
        active_school_id -> Nullable<Text>,
    }
}

diesel::table! {
    /// The organisation a registrant asked for, created when the address is confirmed.
    pending_signups (user_id) {
        user_id -> Text,
        organisation_name -> Text,
        postcode -> Text,
        #[sql_name = "type"]
        type_ -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    verification_tokens (token_hash) {
        token_hash -> Text,
        identifier -> Text,
        purpose -> Text,
        user_id -> Nullable<Text>,
        expires_at -> Timestamp,
        used_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    stored_files (id) {
        id -> Text,
        key -> Text,
        school_id -> Nullable<Text>,
        user_id -> Nullable<Text>,
        task_id -> Nullable<Text>,
        submission_id -> Nullable<Text>,
        filename -> Text,
        content_type -> Text,
        size_bytes -> Nullable<BigInt>,
        expires_at -> Nullable<Timestamp>,
        uploaded_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        kind -> Text,
        in_personal_folder -> Bool,
        updated_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    multipart_uploads (id) {
        id -> Text,
        file_id -> Text,
        store_upload_id -> Text,
        part_size -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::table! {
    voice_notes (id) {
        id -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        user_id -> Text,
        school_id -> Nullable<Text>,
        file_id -> Text,
        filename -> Text,
        personal_folder -> Bool,
        task_id -> Nullable<Text>,
        duration_ms -> Nullable<Integer>,
    }
}

diesel::table! {
    jobs (id) {
        id -> Text,
        kind -> Text,
        payload -> Text,
        status -> Text,
        run_at -> Timestamp,
        attempts -> Integer,
        max_attempts -> Integer,
        locked_at -> Nullable<Timestamp>,
        locked_by -> Nullable<Text>,
        last_error -> Nullable<Text>,
        finished_at -> Nullable<Timestamp>,
        idempotency_key -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Text,
        at -> Timestamp,
        user_id -> Nullable<Text>,
        school_id -> Nullable<Text>,
        action -> Text,
        entity -> Text,
        entity_id -> Text,
        detail -> Nullable<Text>,
        request_id -> Nullable<Text>,
    }
}

diesel::table! {
    /// A leader's report (Markdown), written with the chat model from tasks and voice notes.
    reports (id) {
        id -> Text,
        school_id -> Text,
        user_id -> Text,
        title -> Text,
        instructions -> Text,
        body -> Text,
        task_ids -> Text,
        voice_note_ids -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// One row (id 1) that `GET /api/health` updates to prove the database takes writes.
    health_checks (id) {
        id -> Integer,
        checked_at -> Timestamp,
    }
}

diesel::table! {
    /// A receipt of a message sent to a pupil who was later erased, without the pupil.
    erased_receipts (id) {
        id -> Text,
        notification_id -> Text,
        sent_at -> Nullable<Timestamp>,
        erased_at -> Timestamp,
    }
}

diesel::table! {
    /// A Stripe webhook event, stored once by its id (docs/billing.md); `payload` is the
    /// verified raw body, `processed_at` set when the `stripe.event` job applied it.
    stripe_events (id) {
        id -> Text,
        #[sql_name = "type"]
        type_ -> Text,
        created -> Timestamp,
        payload -> Text,
        received_at -> Timestamp,
        processed_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    /// A notification's title and body translated into one language, made once and reused
    /// by every e-mail in that language (docs/translation.md); `source_hash` names the text
    /// it was made from.
    notification_translations (id) {
        id -> Text,
        notification_id -> Text,
        language -> Text,
        source_hash -> Text,
        title -> Text,
        body -> Text,
        notice -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// The outbox's idempotency keys: the first answer to each (user, key).
    idempotency_keys (user_id, key) {
        user_id -> Text,
        key -> Text,
        procedure -> Text,
        request_hash -> Text,
        response -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    bank_comments (id) {
        id -> Text,
        school_id -> Text,
        user_id -> Nullable<Text>,
        proposed_by -> Nullable<Text>,
        text -> Text,
        normalised -> Text,
        sentiment -> Text,
        tags -> Text,
        status -> Text,
        use_count -> BigInt,
        last_used_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    phrase_counts (id) {
        id -> Text,
        school_id -> Text,
        user_id -> Text,
        normalised -> Text,
        sample -> Text,
        count -> BigInt,
        state -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    deliveries (id) {
        id -> Text,
        school_id -> Text,
        notification_id -> Text,
        student_id -> Text,
        audience -> Text,
        address -> Nullable<Text>,
        not_sent_reason -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        bounced_at -> Nullable<Timestamp>,
        bounce_reason -> Nullable<Text>,
        opened_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    address_refusals (address) {
        address -> Text,
        reason -> Text,
        refused_at -> Timestamp,
    }
}

diesel::table! {
    attempts (id) {
        id -> Text,
        limit_key -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    /// A trust's Insights answers by the hash of their key, shared by every process.
    insight_answers (key_hash) {
        key_hash -> Text,
        body -> Text,
        worked_out_at -> Timestamp,
    }
}

diesel::joinable!(schools -> trusts (trust_id));
diesel::joinable!(users -> schools (school_id));
diesel::joinable!(organisation_memberships -> users (user_id));
diesel::joinable!(organisation_memberships -> schools (school_id));
diesel::joinable!(year_groups -> schools (school_id));
diesel::joinable!(form_groups -> schools (school_id));
diesel::joinable!(classes -> schools (school_id));
diesel::joinable!(students -> schools (school_id));
diesel::joinable!(mis_sync_runs -> schools (school_id));
diesel::joinable!(notification_translations -> notifications (notification_id));
diesel::joinable!(students -> year_groups (year_group_id));
diesel::joinable!(students -> form_groups (form_group_id));
diesel::joinable!(class_students -> classes (class_id));
diesel::joinable!(class_students -> students (student_id));
diesel::joinable!(class_staff -> classes (class_id));
diesel::joinable!(class_staff -> users (user_id));
diesel::joinable!(student_comments -> users (user_id));
diesel::joinable!(student_comments -> students (student_id));
diesel::joinable!(notifications -> users (sender_id));
diesel::joinable!(notifications -> schools (school_id));
diesel::joinable!(notification_receipts -> notifications (notification_id));
diesel::joinable!(notification_receipts -> students (student_id));
diesel::joinable!(erased_receipts -> notifications (notification_id));
diesel::joinable!(submissions -> notifications (notification_id));
diesel::joinable!(submissions -> students (student_id));
diesel::joinable!(accounts -> users (user_id));
diesel::joinable!(assistant_queries -> users (user_id));
diesel::joinable!(tasks -> users (user_id));
diesel::joinable!(tasks -> schools (school_id));
diesel::joinable!(questions -> tasks (task_id));
diesel::joinable!(task_submissions -> tasks (task_id));
diesel::joinable!(task_submissions -> users (user_id));
diesel::joinable!(question_responses -> task_submissions (submission_id));
diesel::joinable!(question_responses -> questions (question_id));
diesel::joinable!(task_submissions -> schools (school_id));
diesel::joinable!(task_collaborators -> task_submissions (submission_id));
diesel::joinable!(task_collaborators -> users (user_id));
diesel::joinable!(task_items -> task_submissions (submission_id));
diesel::joinable!(task_items -> stored_files (file_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(verification_tokens -> users (user_id));
diesel::joinable!(multipart_uploads -> stored_files (file_id));
diesel::joinable!(stored_files -> schools (school_id));
diesel::joinable!(stored_files -> users (user_id));
diesel::joinable!(stored_files -> tasks (task_id));
diesel::joinable!(stored_files -> submissions (submission_id));
diesel::joinable!(voice_notes -> users (user_id));
diesel::joinable!(voice_notes -> schools (school_id));
diesel::joinable!(voice_notes -> stored_files (file_id));
diesel::joinable!(voice_notes -> tasks (task_id));
diesel::joinable!(audit_log -> users (user_id));
diesel::joinable!(audit_log -> schools (school_id));
diesel::joinable!(reports -> users (user_id));
diesel::joinable!(reports -> schools (school_id));
diesel::joinable!(pending_signups -> users (user_id));
diesel::joinable!(bank_comments -> schools (school_id));
diesel::joinable!(bank_comments -> users (user_id));
diesel::joinable!(phrase_counts -> schools (school_id));
diesel::joinable!(phrase_counts -> users (user_id));
diesel::joinable!(deliveries -> notifications (notification_id));
diesel::joinable!(deliveries -> students (student_id));
diesel::joinable!(deliveries -> schools (school_id));

diesel::allow_tables_to_appear_in_same_query!(
    multipart_uploads,
    erased_receipts,
    trusts,
    schools,
    users,
    organisation_memberships,
    pending_signups,
    year_groups,
    form_groups,
    classes,
    students,
    class_students,
    class_staff,
    student_comments,
    notifications,
    notification_receipts,
    submissions,
    accounts,
    email_preferences,
    assistant_queries,
    tasks,
    questions,
    task_submissions,
    question_responses,
    task_collaborators,
    task_items,
    resource_transcripts,
    sessions,
    verification_tokens,
    stored_files,
    voice_notes,
    jobs,
    audit_log,
    reports,
    health_checks,
    stripe_events,
    mis_sync_runs,
    notification_translations,
    idempotency_keys,
    bank_comments,
    phrase_counts,
    deliveries,
    address_refusals,
    attempts,
    insight_answers,
);
