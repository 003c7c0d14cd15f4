//! `crate::cache`'s rules, one test each.

use super::*;

#[test]
fn the_setting_names_the_caches_kept() {
    assert_eq!(CacheKind::parse_setting("on"), Some(CacheKind::ALL.to_vec()));
    assert_eq!(CacheKind::parse_setting("off"), Some(Vec::new()));
    assert_eq!(
        CacheKind::parse_setting("sessions, hub-count"),
        Some(vec![CacheKind::Sessions, CacheKind::HubCount])
    );
    assert_eq!(CacheKind::parse_setting("roster"), Some(vec![CacheKind::Roster]));
    assert_eq!(CacheKind::parse_setting("sessions,rosters"), None);
    assert_eq!(CacheKind::parse_setting(""), None);
}

#[test]
fn an_entry_is_kept_until_its_time_is_up_or_it_is_unusable() {
    let cache = ProcessCache::new(CacheKind::HubCount, Duration::from_millis(200), Duration::from_millis(100), 10);
    cache.put("a", 1, cache.generation());
    assert_eq!(cache.get(&"a", |_| true), Some(1));
    assert_eq!(cache.get(&"b", |_| true), None);
    assert_eq!(cache.get(&"a", |v| *v > 1), None, "the caller may refuse an entry (an expired session)");
    std::thread::sleep(Duration::from_millis(250));
    assert_eq!(cache.get(&"a", |_| true), None, "older than the TTL");
}

#[test]
fn an_invalidation_forgets_everything_and_refuses_reads_that_began_before_it() {
    let cache = ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), Duration::from_millis(100), 10);
    cache.put("a", 1, cache.generation());
    let before = cache.generation();
    cache.invalidate();
    assert_eq!(cache.get(&"a", |_| true), None);
    assert!(cache.is_empty());
    cache.put("a", 1, before);
    assert!(cache.is_empty(), "a read that began before the write");
    cache.put("a", 1, cache.generation());
    assert!(cache.is_empty(), "a read while the write may still be committing");
    std::thread::sleep(Duration::from_millis(150));
    cache.put("a", 2, cache.generation());
    assert_eq!(cache.get(&"a", |_| true), Some(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_miss_together_share_one_fill() {
    let cache: Arc<ProcessCache<String, u32>> =
        Arc::new(ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), Duration::ZERO, 10));
    let fills = Arc::new(AtomicU64::new(0));
    let requests = (0..50).map(|_| {
        let (cache, fills) = (cache.clone(), fills.clone());
        tokio::spawn(async move {
            cache
                .get_or_fill("roster", || async {
                    fills.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    Ok::<_, ()>(7)
                })
                .await
        })
    });
    for answer in futures_util::future::join_all(requests).await {
        assert_eq!(answer.expect("joined"), Ok(7));
    }
    assert_eq!(fills.load(Ordering::SeqCst), 1, "one read for fifty requests");
    assert_eq!(cache.get("roster", |_| true), Some(7));
    assert!(cache.flights.lock().expect("lock").is_empty(), "the flight is over");
}

#[tokio::test]
async fn a_request_after_a_write_does_not_join_a_fill_that_began_before_it() {
    let cache: Arc<ProcessCache<String, u32>> =
        Arc::new(ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), Duration::ZERO, 10));
    let (started, release) = (Arc::new(tokio::sync::Notify::new()), Arc::new(tokio::sync::Notify::new()));
    let early = {
        let (cache, started, release) = (cache.clone(), started.clone(), release.clone());
        tokio::spawn(async move {
            cache
                .get_or_fill("roster", || async move {
                    started.notify_one();
                    release.notified().await;
                    Ok::<_, ()>(1)
                })
                .await
        })
    };
    started.notified().await;
    cache.invalidate();
    let late = cache.get_or_fill("roster", || async { Ok::<_, ()>(2) }).await;
    assert_eq!(late, Ok(2), "read after the write");
    release.notify_one();
    assert_eq!(early.await.expect("joined"), Ok(1));
    assert_eq!(cache.get("roster", |_| true), Some(2), "the older read is not kept");
}

#[tokio::test]
async fn a_failed_fill_is_not_kept_and_the_next_request_fills_again() {
    let cache: ProcessCache<String, u32> = ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), Duration::ZERO, 10);
    assert_eq!(cache.get_or_fill("roster", || async { Err::<u32, _>("down") }).await, Err("down"));
    assert!(cache.is_empty());
    assert_eq!(cache.get_or_fill("roster", || async { Ok::<_, &str>(3) }).await, Ok(3));
}

#[test]
fn a_full_cache_starts_again() {
    let cache = ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), Duration::ZERO, 2);
    for key in ["a", "b", "c"] {
        cache.put(key, 0, cache.generation());
    }
    assert_eq!(cache.len(), 1);
    assert_eq!(cache.get(&"c", |_| true), Some(0));
}

/// A cache whose keys are (school, n).
fn by_school(settle: Duration) -> Arc<ProcessCache<(String, u32), u32>> {
    let cache = ProcessCache::new(CacheKind::HubCount, Duration::from_secs(60), settle, 100)
        .with_schools(|key: &(String, u32)| key.0.as_str());
    Arc::new(cache)
}

fn key(school: &str, n: u32) -> (String, u32) {
    (school.to_owned(), n)
}

#[test]
fn a_school_invalidation_forgets_that_school_only_and_refuses_its_reads_that_began_before_it() {
    let cache = by_school(Duration::from_millis(100));
    for school in ["a", "b"] {
        cache.put(key(school, 1), 1, cache.generation());
    }
    let before = cache.generation();
    cache.invalidate_school("a");
    assert_eq!(cache.get(&key("a", 1), |_| true), None);
    assert_eq!(cache.get(&key("b", 1), |_| true), Some(1), "another school's entry stays");
    cache.put(key("a", 2), 2, before);
    assert_eq!(cache.get(&key("a", 2), |_| true), None, "a read of the school that began before its write");
    cache.put(key("b", 2), 2, before);
    assert_eq!(cache.get(&key("b", 2), |_| true), Some(2), "another school's read is kept");
    cache.put(key("a", 3), 3, cache.generation());
    assert_eq!(cache.get(&key("a", 3), |_| true), None, "a read while the school's write may still be committing");
    std::thread::sleep(Duration::from_millis(150));
    cache.put(key("a", 3), 3, cache.generation());
    assert_eq!(cache.get(&key("a", 3), |_| true), Some(3));
    // Everything forgotten after a school: no older read of any school is kept.
    let before = cache.generation();
    cache.invalidate_school("a");
    cache.invalidate();
    assert!(cache.is_empty());
    std::thread::sleep(Duration::from_millis(150));
    cache.put(key("b", 4), 4, before);
    assert!(cache.is_empty(), "a read that began before everything was forgotten");
}

#[test]
fn a_cache_without_schools_forgets_everything_for_a_school() {
    let cache: ProcessCache<&str, u32> = ProcessCache::new(CacheKind::Roster, Duration::from_secs(60), Duration::ZERO, 10);
    cache.put("a", 1, cache.generation());
    cache.invalidate_school("b");
    assert!(cache.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fill_is_still_shared_after_another_schools_invalidation_but_not_after_its_own() {
    use tokio::sync::Semaphore;
    let cache = by_school(Duration::ZERO);
    let fills = Arc::new(AtomicU64::new(0));
    let (started, release) = (Arc::new(Semaphore::new(0)), Arc::new(Semaphore::new(0)));
    let fill_of = |school: &'static str, value: u32| {
        let (cache, fills, started, release) = (cache.clone(), fills.clone(), started.clone(), release.clone());
        tokio::spawn(async move {
            cache
                .get_or_fill(&key(school, 0), || async move {
                    fills.fetch_add(1, Ordering::SeqCst);
                    started.add_permits(1);
                    release.acquire().await.expect("open").forget();
                    Ok::<_, ()>(value)
                })
                .await
        })
    };
    let (early_a, early_b) = (fill_of("a", 1), fill_of("b", 1));
    started.acquire_many(2).await.expect("both fills began").forget();
    cache.invalidate_school("a");
    let late_b = fill_of("b", 2);
    let late_a = cache.get_or_fill(&key("a", 0), || async { Ok::<_, ()>(2) }).await;
    assert_eq!(late_a, Ok(2), "read after its school's write, not joined to the older fill");
    // Time for the late request for b to find the fill under way.
    tokio::time::sleep(Duration::from_millis(100)).await;
    release.add_permits(10);
    assert_eq!(early_a.await.expect("joined"), Ok(1));
    assert_eq!(early_b.await.expect("joined"), Ok(1));
    assert_eq!(late_b.await.expect("joined"), Ok(1), "joined the fill under way for its school");
    assert_eq!(fills.load(Ordering::SeqCst), 2, "one fill each for a and b, begun before the write");
    assert_eq!(cache.get(&key("a", 0), |_| true), Some(2), "the older read of a is not kept");
    assert_eq!(cache.get(&key("b", 0), |_| true), Some(1), "b's read is kept");
}

#[test]
fn a_cache_bounded_by_bytes_drops_the_least_recently_used_first() {
    let cache: ProcessCache<&str, String> =
        ProcessCache::bounded_by_bytes(CacheKind::Roster, Duration::from_secs(60), Duration::ZERO, 10, |text: &String| text.len());
    cache.put("a", "aaaa".into(), cache.generation());
    cache.put("b", "bbbb".into(), cache.generation());
    assert_eq!(cache.get(&"a", |_| true).as_deref(), Some("aaaa"), "a is now used after b");
    cache.put("c", "cccc".into(), cache.generation());
    assert_eq!((cache.len(), cache.bytes()), (2, 8));
    assert_eq!(cache.get(&"b", |_| true), None, "b, the least recently used, went");
    assert!(cache.get(&"a", |_| true).is_some() && cache.get(&"c", |_| true).is_some());
    cache.put("c", "cccccc".into(), cache.generation());
    assert_eq!((cache.len(), cache.bytes()), (2, 10), "a key kept again counts once");
    cache.put("d", "d".repeat(11), cache.generation());
    assert_eq!(cache.get(&"d", |_| true), None, "larger than the whole bound: not kept");
    assert_eq!(cache.len(), 2);
}

#[test]
fn a_cache_bounded_by_bytes_drops_expired_entries_before_fresh_ones() {
    let cache: ProcessCache<&str, String> =
        ProcessCache::bounded_by_bytes(CacheKind::Roster, Duration::from_millis(100), Duration::ZERO, 10, |text: &String| text.len());
    cache.put("old", "oooo".into(), cache.generation());
    std::thread::sleep(Duration::from_millis(60));
    cache.put("a", "aaaa".into(), cache.generation());
    assert!(cache.get(&"old", |_| true).is_some(), "used after a was kept");
    std::thread::sleep(Duration::from_millis(60));
    // "old" has expired and "a" has not: "old" goes, though "a" is less recently used.
    cache.put("b", "bbbb".into(), cache.generation());
    assert_eq!(cache.len(), 2);
    assert!(cache.get(&"a", |_| true).is_some() && cache.get(&"b", |_| true).is_some());
}

#[test]
fn a_cache_bounded_by_bytes_lets_go_of_expired_entries_before_it_is_full() {
    let cache: ProcessCache<&str, String> =
        ProcessCache::bounded_by_bytes(CacheKind::Roster, Duration::from_millis(50), Duration::ZERO, 100, |text: &String| text.len());
    cache.put("old", "oooo".into(), cache.generation());
    cache.put("older", "oooo".into(), cache.generation());
    assert_eq!((cache.len(), cache.bytes()), (2, 8));
    std::thread::sleep(Duration::from_millis(80));
    // Far from the bound, the next insertion still lets the expired ones go.
    cache.put("new", "nnnn".into(), cache.generation());
    assert_eq!((cache.len(), cache.bytes()), (1, 4));
    assert_eq!(cache.get(&"new", |_| true).as_deref(), Some("nnnn"));
}

/// A cache kept 100 ms and answered stale for a second more, for `get_or_refresh`.
fn refreshing() -> &'static ProcessCache<String, u32> {
    Box::leak(Box::new(
        ProcessCache::new(CacheKind::TrustInsights, Duration::from_millis(100), Duration::ZERO, 10)
            .serving_stale_for(Duration::from_secs(1)),
    ))
}

type BoxFuture<T> = std::pin::Pin<Box<dyn Future<Output = T> + Send>>;

/// A fill that counts itself, waits `wait` ms and answers `value` (fails when it is 0).
fn counted(fills: &Arc<AtomicU64>, wait: u64, value: u32) -> impl FnOnce() -> BoxFuture<Result<u32, &'static str>> + Send + 'static {
    let fills = fills.clone();
    move || {
        Box::pin(async move {
            fills.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            if value == 0 { Err("down") } else { Ok(value) }
        })
    }
}

/// Waits (up to 5 s) until `done`, for what a background task does.
async fn until(what: &str, done: impl Fn() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never: {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_entry_is_answered_at_once_and_read_again_once_in_the_background() {
    let cache = refreshing();
    let fills = Arc::new(AtomicU64::new(0));
    let key = || "trust".to_owned();
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 1)).await, Ok(1), "nothing kept: waits for the read");
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 9)).await, Ok(1), "fresh: no read");
    assert_eq!(fills.load(Ordering::SeqCst), 1);

    tokio::time::sleep(Duration::from_millis(150)).await;
    for _ in 0..20 {
        // The read answers 2 after 100 ms: an answer of 1 did not wait for it.
        assert_eq!(cache.get_or_refresh(key(), counted(&fills, 100, 2)).await, Ok(1), "stale: the kept answer");
    }
    until("the background read is kept", || cache.get("trust", |_| true) == Some(2)).await;
    assert_eq!(fills.load(Ordering::SeqCst), 2, "one background read for twenty stale answers");
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 9)).await, Ok(2), "the read replaced it");
    until("the refresh is over", || cache.flights.lock().expect("lock").is_empty()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_refresh_keeps_the_stale_answer_and_one_too_old_is_waited_for() {
    let cache = refreshing();
    let fills = Arc::new(AtomicU64::new(0));
    let key = || "trust".to_owned();
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 1)).await, Ok(1));
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 0)).await, Ok(1), "stale, and its refresh fails");
    until("the failed refresh is over", || cache.flights.lock().expect("lock").is_empty()).await;
    assert_eq!(fills.load(Ordering::SeqCst), 2);
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 3)).await, Ok(1), "still the kept answer");
    until("the next stale request read again", || cache.get("trust", |_| true) == Some(3)).await;
    assert_eq!(fills.load(Ordering::SeqCst), 3);

    // Past ttl + stale_for the kept answer is not given: the request waits for a new one.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(cache.get_or_refresh(key(), counted(&fills, 0, 4)).await, Ok(4));
    assert_eq!(cache.get("trust", |_| true), Some(4));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalidation_forgets_stale_entries_too() {
    let cache = refreshing();
    let fills = Arc::new(AtomicU64::new(0));
    assert_eq!(cache.get_or_refresh("a".to_owned(), counted(&fills, 0, 1)).await, Ok(1));
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(cache.get("a", |_| true), None, "get answers fresh entries only");
    cache.invalidate();
    assert_eq!(cache.get_or_refresh("a".to_owned(), counted(&fills, 0, 2)).await, Ok(2), "read afresh, not the stale 1");
    assert_eq!(fills.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_kept_elsewhere_is_fresh_for_what_is_left_of_its_ttl_then_read_again() {
    let cache = refreshing();
    let fills = Arc::new(AtomicU64::new(0));
    assert!(!cache.holds("a"));
    cache.put_aged("a".to_owned(), 1, cache.generation(), Duration::from_millis(20));
    assert!(cache.holds("a"));
    assert_eq!(cache.get_or_refresh("a".to_owned(), counted(&fills, 0, 9)).await, Ok(1), "fresh: no read");
    assert_eq!(fills.load(Ordering::SeqCst), 0);

    // Worked out past the ttl: answered at once, and read again in the background.
    cache.put_aged("b".to_owned(), 1, cache.generation(), Duration::from_millis(150));
    assert!(cache.holds("b"));
    assert_eq!(cache.get("b", |_| true), None, "not fresh");
    assert!(!cache.reading("b"));
    assert_eq!(cache.get_or_refresh("b".to_owned(), counted(&fills, 50, 2)).await, Ok(1), "stale: the kept answer");
    assert!(cache.reading("b"), "its read is under way");
    until("the background read is kept", || cache.get("b", |_| true) == Some(2)).await;
    until("the read is over", || !cache.reading("b")).await;
    assert_eq!(fills.load(Ordering::SeqCst), 1);

    // Older than ttl + stale_for: not held, so the request waits.
    cache.put_aged("c".to_owned(), 1, cache.generation(), Duration::from_secs(2));
    assert!(!cache.holds("c"));
    assert_eq!(cache.get_or_refresh("c".to_owned(), counted(&fills, 0, 3)).await, Ok(3));
    until("the refreshes are over", || cache.flights.lock().expect("lock").is_empty()).await;
}
