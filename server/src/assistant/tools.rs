//! The assistant's tools: functions the model may call (OpenAI function calling), each
//! answered by the server from the caller's own data. Every tool is read-only and runs the
//! matching tRPC *query* handlers with the caller's own context (`Ctx`), so it sees exactly
//! what those procedures show the caller: a teacher's notifications are the ones they sent,
//! an admin's their whole school's, a pupil outside the school is not found. No tool writes:
//! `draft_message` only hands a draft to the browser, which opens it in the editor.

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::rpc::registry::parse_input;
use crate::rpc::{self, Ctx, RpcResult};

/// Lists longer than this are cut (the model's context is small on a local server).
const MAX_ITEMS: usize = 60;
/// Free text (feedback, submission text) is cut to this many characters.
const MAX_TEXT_CHARS: usize = 400;

/// What a tool answers: its result for the model (JSON text), and for `draft_message` the
/// draft for the browser.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutcome {
    pub content: String,
    pub draft: Option<Value>,
}

impl ToolOutcome {
    fn result(value: Value) -> ToolOutcome {
        ToolOutcome { content: value.to_string(), draft: None }
    }

    fn error(message: impl Into<String>) -> ToolOutcome {
        ToolOutcome::result(json!({ "error": message.into() }))
    }
}

fn function(name: &str, description: &str, parameters: Value) -> Value {
    json!({
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    })
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// The tools offered to the model, in OpenAI's `tools` format.
pub fn definitions() -> Vec<Value> {
    let notification_ref = json!({
        "notificationId": {"type": "string", "description": "The notification's id, from find_notifications."},
        "title": {"type": "string", "description": "Words of the assignment's title, when the id is not known (the newest match is used)."},
    });
    vec![
        function(
            "find_notifications",
            "Lists the messages and assignments the user may see, newest first (20 a page), with their status, dates and counts of recipients, hand-ins and marked work. Search by words of the title.",
            object(json!({
                "search": {"type": "string", "description": "Words of the title."},
                "page": {"type": "integer", "minimum": 1},
            }), &[]),
        ),
        function(
            "hand_ins",
            "For one assignment: which pupils handed in (when, late or not, marked or not, feedback sentiment) and which have not handed in.",
            object(notification_ref.clone(), &[]),
        ),
        function(
            "delivery",
            "For one message or assignment: each pupil it goes to and whether it has been sent to them (and their parents) yet.",
            object(notification_ref.clone(), &[]),
        ),
        function(
            "unmarked_work",
            "Work handed in and not yet marked that the user may mark, oldest first; optionally of one notification.",
            object(json!({"notificationId": {"type": "string"}}), &[]),
        ),
        function(
            "feedback_given",
            "For one assignment: the feedback given to each pupil whose work is marked, with its sentiment.",
            object(notification_ref, &[]),
        ),
        function(
            "pupils",
            "Finds pupils of the user's school by name, with their year and form group and their ids.",
            object(json!({"search": {"type": "string", "description": "Part of a forename or surname."}}), &[]),
        ),
        function(
            "pupil_work",
            "One pupil's assignments: handed in or not, late, marked, feedback and sentiment, newest first.",
            object(json!({"studentId": {"type": "string"}}), &["studentId"]),
        ),
        function(
            "overview",
            "The user's dashboard: how much work waits to be marked, assignments due in the next 7 days, and messages scheduled to send later.",
            object(json!({}), &[]),
        ),
        function(
            "leader_tasks",
            "Leaders' area: the user's tasks (learning walks, observations…) and those shared with them, optionally by words of the title.",
            object(json!({"search": {"type": "string"}}), &[]),
        ),
        function(
            "leader_reports",
            "Leaders' area: the user's saved reports.",
            object(json!({}), &[]),
        ),
        function(
            "draft_message",
            "Drafts a message or an assignment for the user to review in the editor. It is never sent by you: the user checks it and sends it. Address it with the pupils' ids (from hand_ins, pupils or other tools).",
            object(json!({
                "type": {"type": "string", "enum": ["GENERAL", "ASSIGNMENT"], "description": "GENERAL for a message, ASSIGNMENT for an assignment."},
                "title": {"type": "string"},
                "body": {"type": "string", "description": "Plain text; paragraphs separated by blank lines."},
                "studentIds": {"type": "array", "items": {"type": "string"}},
                "sendToParent": {"type": "boolean"},
                "sendToPupil": {"type": "boolean"},
            }), &["type", "title", "body", "studentIds"]),
        ),
    ]
}

/// The panel's line while `name` runs.
pub fn status_text(name: &str) -> &'static str {
    match name {
        "find_notifications" => "Looking up messages and assignments…",
        "hand_ins" => "Looking up who has handed in…",
        "delivery" => "Looking up who it was sent to…",
        "unmarked_work" => "Looking up work to mark…",
        "feedback_given" => "Looking up feedback…",
        "pupils" | "pupil_work" => "Looking up pupils…",
        "overview" => "Looking at your dashboard…",
        "leader_tasks" | "leader_reports" => "Looking up tasks and reports…",
        "draft_message" => "Drafting…",
        _ => "Working…",
    }
}

/// Runs the tool `name` with the model's `arguments` (JSON text) as the caller of `ctx`.
/// A refusal (not found, not allowed, bad arguments) is the tool's answer, for the model
/// to explain; it never ends the conversation.
pub async fn run(ctx: &Ctx, name: &str, arguments: &str) -> ToolOutcome {
    let args: Value = match arguments.trim() {
        "" => json!({}),
        text => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => value,
            _ => return ToolOutcome::error("The arguments are not a JSON object."),
        },
    };
    let outcome = match name {
        "find_notifications" => find_notifications(ctx, &args).await.map(ToolOutcome::result),
        "hand_ins" => hand_ins(ctx, &args).await.map(ToolOutcome::result),
        "delivery" => delivery(ctx, &args).await.map(ToolOutcome::result),
        "unmarked_work" => unmarked_work(ctx, &args).await.map(ToolOutcome::result),
        "feedback_given" => feedback_given(ctx, &args).await.map(ToolOutcome::result),
        "pupils" => pupils(ctx, &args).await.map(ToolOutcome::result),
        "pupil_work" => pupil_work(ctx, &args).await.map(ToolOutcome::result),
        "overview" => query(ctx, rpc::dashboard::summary::handler, json!({})).await.map(ToolOutcome::result),
        "leader_tasks" => leader_tasks(ctx, &args).await.map(ToolOutcome::result),
        "leader_reports" => first_rows(ctx, rpc::report::list::handler, json!({}), "reports").await.map(ToolOutcome::result),
        "draft_message" => draft_message(ctx, &args).await,
        other => return ToolOutcome::error(format!("There is no tool called {other}.")),
    };
    outcome.unwrap_or_else(ToolOutcome::error)
}

/// Runs a query handler with `input` (checked as the procedure checks it) and answers its
/// output as plain JSON (dates as ISO text), or the procedure's refusal as a sentence.
async fn query<'a, In, Out, Fut>(
    ctx: &'a Ctx,
    handler: impl FnOnce(&'a Ctx, In) -> Fut,
    input: Value,
) -> Result<Value, String>
where
    In: DeserializeOwned,
    Out: rpc::encoded::RpcOutput,
    Fut: std::future::Future<Output = RpcResult<Out>>,
{
    let input: In = parse_input(input).map_err(|err| refusal(&err))?;
    let output = handler(ctx, input).await.map_err(|err| refusal(&err))?;
    plain(output)
}

/// The output as the browser would read it: superjson's `json` part.
fn plain(output: impl rpc::encoded::RpcOutput) -> Result<Value, String> {
    let encoded = output.into_encoded().map_err(|err| err.to_string())?;
    let mut encoded: Value = serde_json::from_slice(encoded.text()).map_err(|err| err.to_string())?;
    Ok(encoded.get_mut("json").map(Value::take).unwrap_or(encoded))
}

fn refusal(err: &rpc::RpcError) -> String {
    if err.message.is_empty() {
        format!("{:?}", err.code)
    } else {
        err.message.clone()
    }
}

fn text_arg<'a>(args: &'a Value, key: &str) -> Option<&'a str> {
    args.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// A list cut to [`MAX_ITEMS`], saying so.
fn capped(value: Value) -> Value {
    match value {
        Value::Array(items) if items.len() > MAX_ITEMS => {
            let total = items.len();
            json!({"items": items.into_iter().take(MAX_ITEMS).collect::<Vec<_>>(), "total": total, "truncated": true})
        }
        other => other,
    }
}

/// The first [`MAX_ITEMS`] rows of a list that comes a page at a time (docs/scaling.md
/// "Paged lists"): the `field` rows of each page, following `nextCursor`, shaped as
/// [`capped`] shapes a whole list (a list; or the first rows, the total and `truncated`).
async fn first_rows<'a, In, Out, Fut>(
    ctx: &'a Ctx,
    handler: impl Fn(&'a Ctx, In) -> Fut,
    input: Value,
    field: &str,
) -> Result<Value, String>
where
    In: DeserializeOwned,
    Out: rpc::encoded::RpcOutput,
    Fut: std::future::Future<Output = RpcResult<Out>>,
{
    let mut rows = Vec::new();
    let mut cursor = Value::Null;
    let mut total;
    loop {
        let mut asked = input.clone();
        asked["cursor"] = cursor;
        let page = query(ctx, &handler, asked).await?;
        total = page["total"].clone();
        rows.extend(page[field].as_array().cloned().unwrap_or_default());
        cursor = page["nextCursor"].clone();
        if cursor.is_null() || rows.len() >= MAX_ITEMS {
            break;
        }
    }
    Ok(if cursor.is_null() && rows.len() <= MAX_ITEMS {
        Value::Array(rows)
    } else {
        rows.truncate(MAX_ITEMS);
        json!({"items": rows, "total": total, "truncated": true})
    })
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn full_name(row: &Value) -> String {
    let part = |key: &str| row.get(key).and_then(Value::as_str).unwrap_or_default().trim().to_owned();
    format!("{} {}", part("forename"), part("surname")).trim().to_owned()
}

async fn find_notifications(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let page = args.get("page").and_then(Value::as_i64).unwrap_or(1).max(1);
    let list = query(
        ctx,
        rpc::notification::list::handler,
        json!({"search": text_arg(args, "search"), "page": page, "pageSize": 20}),
    )
    .await?;
    let items: Vec<Value> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|n| {
            json!({
                "id": n["id"], "type": n["type"], "title": n["title"], "status": n["status"],
                "sender": n["senderName"], "sendDate": n["sendDate"], "createdAt": n["createdAt"],
                "dueDate": n["submissionDueDate"], "recipients": n["recipients"],
                "handedIn": n["submissions"], "marked": n["marked"],
            })
        })
        .collect();
    Ok(json!({"items": items, "total": list["total"], "page": list["page"]}))
}

/// The notification a tool is about: by id, or the newest the caller may see whose title
/// matches (assignments before messages).
async fn resolve_notification(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let id = match text_arg(args, "notificationId") {
        Some(id) => id.to_owned(),
        None => {
            let title = text_arg(args, "title").ok_or("Give the notification's id or words of its title.")?;
            let list = query(
                ctx,
                rpc::notification::list::handler,
                json!({"search": title, "page": 1, "pageSize": 20}),
            )
            .await?;
            let items = list["items"].as_array().cloned().unwrap_or_default();
            let best = items
                .iter()
                .find(|n| n["type"] == "ASSIGNMENT")
                .or_else(|| items.first())
                .ok_or_else(|| format!("Nothing you can see has a title matching \"{title}\"."))?;
            best["id"].as_str().unwrap_or_default().to_owned()
        }
    };
    query(ctx, rpc::notification::get::handler, json!({ "id": id })).await
}

fn notification_summary(n: &Value) -> Value {
    json!({
        "id": n["id"], "type": n["type"], "title": n["title"], "status": n["status"],
        "sendDate": n["sendDate"], "dueDate": n["submissionDueDate"], "sender": n["senderName"],
    })
}

async fn hand_ins(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let notification = resolve_notification(ctx, args).await?;
    let id = json!({ "id": notification["id"] });
    let recipients = query(ctx, rpc::notification::recipients::handler, id.clone()).await?;
    let submissions = query(ctx, rpc::notification::submissions::handler, id).await?;
    let due = notification["submissionDueDate"].as_str().map(str::to_owned);
    let submissions = submissions.as_array().cloned().unwrap_or_default();
    let handed_in: Vec<Value> = submissions
        .iter()
        .filter(|s| !s["receivedAt"].is_null())
        .map(|s| {
            let received = s["receivedAt"].as_str().unwrap_or_default();
            json!({
                "studentId": s["studentId"], "name": full_name(s), "receivedAt": received,
                // ISO texts of the same shape compare as their instants.
                "late": due.as_deref().is_some_and(|due| received > due),
                "marked": !s["markedAt"].is_null(), "sentiment": s["sentiment"],
            })
        })
        .collect();
    let not_handed_in: Vec<Value> = recipients
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| !handed_in.iter().any(|s| s["studentId"] == r["studentId"]))
        .map(|r| json!({"studentId": r["studentId"], "name": full_name(r)}))
        .collect();
    Ok(json!({
        "notification": notification_summary(&notification),
        "handedIn": handed_in,
        "notHandedIn": not_handed_in,
    }))
}

async fn delivery(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let notification = resolve_notification(ctx, args).await?;
    let recipients = query(ctx, rpc::notification::recipients::handler, json!({ "id": notification["id"] })).await?;
    let recipients: Vec<Value> = recipients
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| json!({"studentId": r["studentId"], "name": full_name(r), "state": r["state"], "sentAt": r["sentAt"]}))
        .collect();
    Ok(json!({
        "notification": notification_summary(&notification),
        "sendToPupil": notification["sendToPupil"], "sendToParent": notification["sendToParent"],
        "recipients": capped(Value::Array(recipients)),
    }))
}

async fn unmarked_work(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let hub = query(
        ctx,
        rpc::feedback::list::handler,
        json!({"notificationId": text_arg(args, "notificationId")}),
    )
    .await?;
    let items: Vec<Value> = hub["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            json!({
                "submissionId": item["submissionId"], "studentId": item["studentId"],
                "name": format!("{} {}", item["studentForename"].as_str().unwrap_or_default(), item["studentSurname"].as_str().unwrap_or_default()),
                "notificationId": item["notificationId"], "notification": item["notificationTitle"],
                "receivedAt": item["receivedAt"], "late": item["late"],
                "text": item["content"].as_str().map(clip), "files": item["files"].as_array().map_or(0, Vec::len),
            })
        })
        .collect();
    Ok(capped(Value::Array(items)))
}

async fn feedback_given(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let notification = resolve_notification(ctx, args).await?;
    let submissions = query(ctx, rpc::notification::submissions::handler, json!({ "id": notification["id"] })).await?;
    let mut feedback = Vec::new();
    for s in submissions.as_array().into_iter().flatten().filter(|s| !s["markedAt"].is_null()).take(MAX_ITEMS) {
        // The pupil's timeline holds the feedback's text; the same procedure the pupil's
        // page reads, so a pupil the caller may not see is not read.
        let timeline = query(ctx, rpc::student::timeline::handler, json!({ "id": s["studentId"] })).await?;
        let entry = timeline
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["notificationId"] == notification["id"]);
        feedback.push(json!({
            "studentId": s["studentId"], "name": full_name(s), "markedAt": s["markedAt"],
            "sentiment": s["sentiment"],
            "feedback": entry.and_then(|e| e["feedback"].as_str()).map(clip),
        }));
    }
    Ok(json!({"notification": notification_summary(&notification), "feedback": feedback}))
}

async fn pupils(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let all = query(ctx, rpc::school::list_students::handler, json!({})).await?;
    let search = text_arg(args, "search").map(str::to_lowercase);
    let found: Vec<Value> = all
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| search.as_deref().is_none_or(|words| {
            let name = full_name(p).to_lowercase();
            words.split_whitespace().all(|word| name.contains(word))
        }))
        .map(|p| {
            json!({
                "id": p["id"], "name": full_name(p),
                "yearGroup": p["yearGroup"]["name"], "formGroup": p["formGroup"]["name"],
            })
        })
        .collect();
    Ok(capped(Value::Array(found)))
}

async fn pupil_work(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    let id = text_arg(args, "studentId").ok_or("Give the pupil's id (from the pupils tool).")?;
    let timeline = query(ctx, rpc::student::timeline::handler, json!({ "id": id })).await?;
    let entries: Vec<Value> = timeline
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            json!({
                "notificationId": e["notificationId"], "title": e["notificationTitle"],
                "dueDate": e["submissionDueDate"], "receivedAt": e["receivedAt"], "late": e["late"],
                "markedAt": e["markedAt"], "feedback": e["feedback"].as_str().map(clip),
                "sentiment": e["feedbackSentiment"],
            })
        })
        .collect();
    Ok(capped(Value::Array(entries)))
}

async fn leader_tasks(ctx: &Ctx, args: &Value) -> Result<Value, String> {
    first_rows(ctx, rpc::task::list::handler, json!({"search": text_arg(args, "search")}), "tasks").await
}

/// Checks the draft's pupils against the school's (`school.listStudents`) and hands the
/// draft to the browser. Nothing is saved or sent.
async fn draft_message(ctx: &Ctx, args: &Value) -> Result<ToolOutcome, String> {
    let kind = match text_arg(args, "type") {
        Some("ASSIGNMENT") => "ASSIGNMENT",
        _ => "GENERAL",
    };
    let title = text_arg(args, "title").ok_or("Give the draft a title.")?;
    let body = args.get("body").and_then(Value::as_str).unwrap_or_default().trim();
    let wanted: Vec<&str> = args
        .get("studentIds")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let all = query(ctx, rpc::school::list_students::handler, json!({})).await?;
    let students: Vec<Value> = all
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["id"].as_str().is_some_and(|id| wanted.contains(&id)))
        .map(|p| json!({"id": p["id"], "name": full_name(p)}))
        .collect();
    let unknown = wanted.len() - students.len();
    let send_to_parent = args.get("sendToParent").and_then(Value::as_bool).unwrap_or(true);
    let send_to_pupil = args.get("sendToPupil").and_then(Value::as_bool).unwrap_or(!send_to_parent);
    let draft = json!({
        "type": kind, "title": clip(title), "body": body, "students": students,
        "sendToPupil": send_to_pupil, "sendToParent": send_to_parent,
    });
    let mut result = json!({
        "draft": "ready",
        "students": draft["students"],
        "note": "The user reviews the draft in the editor and sends it; it has not been sent.",
    });
    if unknown > 0 {
        result["notFound"] = json!(format!("{unknown} of the pupil ids are not pupils of this school and were left out."));
    }
    Ok(ToolOutcome { content: result.to_string(), draft: Some(draft) })
}
