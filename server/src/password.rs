//! Password hashing with argon2id (the argon2 crate's defaults follow OWASP's advice), and the
//! one process-wide pool every hash and verify goes through.
//!
//! Each argon2 run holds about 19 MiB and a core for tens of milliseconds. Unbounded, 96
//! concurrent sign-ups took the server from 13 MiB to 2.1 GiB (issue 10). [`hash`] and
//! [`verify`] therefore run on at most [`pool_size`] blocking threads at once (the available
//! parallelism, between 1 and 4); at most [`MAX_WAITING`] callers queue for a turn, each for at
//! most [`MAX_WAIT`]. Anyone beyond that gets [`PoolError::Busy`] at once, which callers
//! answer as "too many attempts" (429): memory stays bounded whatever arrives.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::Semaphore;

/// Callers allowed to wait for a turn at once; the next one is refused.
pub const MAX_WAITING: usize = 32;
/// The longest a caller waits for a turn before it is refused.
pub const MAX_WAIT: Duration = Duration::from_secs(5);

/// Why a pooled hash or verify did not run.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Too many hashes are running or waiting: try again later (answered as 429).
    #[error("the password hashing pool is busy")]
    Busy,
    /// The hash could not be made (never expected; the detail is for the log).
    #[error("password hashing failed: {0}")]
    Failed(String),
}

struct HashingPool {
    permits: Semaphore,
    waiting: AtomicUsize,
    /// argon2's working memory, one buffer per running turn, kept and reused: allocating
    /// 19 MiB per run from whichever blocking thread ran it left freed copies in every
    /// malloc arena (RSS grew to ~370 MiB after 34 hashes on 2 turns).
    memory: Mutex<Vec<Vec<Block>>>,
}

static POOL: LazyLock<HashingPool> = LazyLock::new(|| HashingPool {
    permits: Semaphore::new(pool_size()),
    waiting: AtomicUsize::new(0),
    memory: Mutex::new(Vec::new()),
});

/// How many argon2 runs may proceed at once: the available parallelism, 1 to 4.
pub fn pool_size() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
        .clamp(1, 4)
}

/// Runs `work` with a reused working-memory buffer on a blocking thread once the pool gives
/// it a turn; the turn is held until the work has finished (also when the caller gave up
/// waiting for the answer).
async fn run_pooled<T: Send + 'static>(
    work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
) -> Result<T, PoolError> {
    let pool = &*POOL;
    let permit = match pool.permits.try_acquire() {
        Ok(permit) => permit,
        Err(_) => {
            // Count ourselves in the queue first, so the bound holds under a burst.
            if pool.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING {
                pool.waiting.fetch_sub(1, Ordering::SeqCst);
                return Err(PoolError::Busy);
            }
            let turn = tokio::time::timeout(MAX_WAIT, pool.permits.acquire()).await;
            pool.waiting.fetch_sub(1, Ordering::SeqCst);
            match turn {
                Ok(Ok(permit)) => permit,
                Ok(Err(_)) | Err(_) => return Err(PoolError::Busy),
            }
        }
    };
    tokio::task::spawn_blocking(move || {
        let _turn = permit;
        let lock = || pool.memory.lock().unwrap_or_else(|p| p.into_inner());
        // At most one buffer per turn exists: taken here, given back below.
        let mut memory = lock().pop().unwrap_or_default();
        let result = work(&mut memory);
        lock().push(memory);
        result
    })
    .await
    .map_err(|e| PoolError::Failed(e.to_string()))
}

/// Hashes `password` through the pool.
pub async fn hash(password: String) -> Result<String, PoolError> {
    run_pooled(move |memory| hash_with_memory(&password, memory))
        .await?
        .map_err(|e| PoolError::Failed(e.to_string()))
}

/// Checks `password` against `hash` through the pool.
pub async fn verify(password: String, hash: String) -> Result<bool, PoolError> {
    run_pooled(move |memory| verify_with_memory(&password, &hash, memory)).await
}

/// Runs a verify of `password` that cannot succeed, against a dummy hash made once (through
/// the pool) with the same parameters as every real one: a sign-in for an address with no
/// account (or no password) so takes as long as a real wrong password, and timing does not
/// tell a stranger which addresses have accounts.
pub async fn verify_dummy(password: String) -> Result<(), PoolError> {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    let hash = DUMMY
        .get_or_try_init(|| hash(crate::ids::new_token()))
        .await?
        .clone();
    verify(password, hash).await.map(drop)
}

/// Hashes `password` into a PHC string that records its own parameters. Blocking and
/// unbounded: call [`hash`] from the server.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    hash_with_memory(password, &mut Vec::new())
}

/// Whether `password` matches `hash`; a malformed hash never matches. Blocking and
/// unbounded: call [`verify`] from the server.
pub fn verify_password(password: &str, hash: &str) -> bool {
    verify_with_memory(password, hash, &mut Vec::new())
}

/// argon2id with the crate's default parameters, computed in `memory` (grown as needed).
fn hash_with_memory(
    password: &str,
    memory: &mut Vec<Block>,
) -> Result<String, argon2::password_hash::Error> {
    let argon = Argon2::default();
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt.as_salt().decode_b64(&mut salt_buf)?;
    let params = argon.params().clone();
    let output_len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let output = Output::init_with(output_len, |out| {
        run_argon(&argon, &params, password, salt_bytes, out, memory)
    })?;
    Ok(PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params)?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    }
    .to_string())
}

/// Recomputes the hash with the stored algorithm, version, parameters and salt in `memory`
/// and compares in constant time (`Output`'s equality).
fn verify_with_memory(password: &str, hash: &str, memory: &mut Vec<Block>) -> bool {
    let mut check = || -> Result<bool, argon2::password_hash::Error> {
        let parsed = PasswordHash::new(hash)?;
        let algorithm = Algorithm::try_from(parsed.algorithm)?;
        let version = match parsed.version {
            Some(v) => Version::try_from(v)?,
            None => Version::default(),
        };
        let params = Params::try_from(&parsed)?;
        let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
            return Ok(false);
        };
        let mut salt_buf = [0u8; 64];
        let salt_bytes = salt.decode_b64(&mut salt_buf)?;
        let argon = Argon2::new(algorithm, version, params.clone());
        let computed = Output::init_with(expected.len(), |out| {
            run_argon(&argon, &params, password, salt_bytes, out, memory)
        })?;
        Ok(computed == expected)
    };
    check().unwrap_or(false)
}

fn run_argon(
    argon: &Argon2<'_>,
    params: &Params,
    password: &str,
    salt: &[u8],
    out: &mut [u8],
    memory: &mut Vec<Block>,
) -> Result<(), argon2::password_hash::Error> {
    if memory.len() < params.block_count() {
        memory.resize(params.block_count(), Block::default());
    }
    argon
        .hash_password_into_with_memory(
            password.as_bytes(),
            salt,
            out,
            &mut memory[..params.block_count()],
        )
        .map_err(argon2::password_hash::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_are_argon2id() {
        let hash = hash_password("Voicemark1").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("Voicemark1", &hash));
        assert!(!verify_password("voicemark1", &hash));
        assert!(!verify_password("Voicemark1", "not a hash"));
        // The crate's own verifier agrees with ours, both ways.
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let parsed = PasswordHash::new(&hash).expect("phc");
        assert!(Argon2::default()
            .verify_password(b"Voicemark1", &parsed)
            .is_ok());
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let theirs = Argon2::default()
            .hash_password(b"Voicemark1", &salt)
            .expect("hash")
            .to_string();
        assert!(verify_password("Voicemark1", &theirs));
        assert!(!verify_password("Voicemark2", &theirs));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_refuses_what_it_cannot_queue() {
        // More callers than turns plus queue places: some are refused, none fails otherwise,
        // and the ones let through hash correctly.
        let callers = pool_size() + MAX_WAITING + 40;
        let runs: Vec<_> = (0..callers)
            .map(|_| tokio::spawn(hash("Voicemark1".to_owned())))
            .collect();
        let (mut hashed, mut busy) = (0, 0);
        for run in runs {
            match run.await.expect("join") {
                Ok(h) => {
                    assert!(verify("Voicemark1".into(), h).await.expect("verify"));
                    hashed += 1;
                }
                Err(PoolError::Busy) => busy += 1,
                Err(other) => panic!("{other}"),
            }
        }
        eprintln!("pool {}: {hashed} hashed, {busy} refused", pool_size());
        assert!(busy >= 1, "{callers} callers, none refused");
        assert!(hashed >= pool_size(), "only {hashed} hashed");
    }
}
