//! The `voicemark` command line: serve, migrate, seed, user add.
//!
//! Every failure ends with one sentence on stderr and exit code 1.

use std::net::SocketAddr;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use core_wasm::UserRole;
use voicemark::config;
use voicemark::seed::{self, SeedOutcome};
use voicemark::user_admin::{self, AddUser};

/// mimalloc instead of the system allocator (issue 15): glibc's malloc and free were a
/// quarter of the roster's first read (thousands of short strings per answer).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "voicemark",
    version,
    about = "Feedback and communication for schools and businesses"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the app and the API (applies pending migrations first).
    Serve {
        /// Address to listen on (overrides VOICEMARK_BIND).
        #[arg(long, value_name = "ADDR")]
        bind: Option<SocketAddr>,
    },
    /// Apply pending database migrations.
    Migrate,
    /// Fill an empty database.
    Seed {
        /// Seed the demo organisation and print its sign-in accounts.
        #[arg(long, required = true)]
        demo: bool,
    },
    /// Manage users.
    #[command(subcommand)]
    User(UserCommand),
    /// Connect a school to its MIS and sync it once.
    #[command(subcommand)]
    Sync(SyncCommand),
}

#[derive(Subcommand)]
enum SyncCommand {
    /// Store the school's Wonde credentials (the token sealed) and run one full sync here,
    /// printing the counts; the server's jobs keep it in step afterwards.
    Wonde {
        /// The school's name in Voicemark.
        #[arg(long, value_name = "NAME")]
        school: String,
        /// The school's id at Wonde (e.g. A1930499544).
        #[arg(long, value_name = "ID")]
        wonde_id: String,
        /// The Wonde access token.
        #[arg(long, value_name = "TOKEN")]
        token: String,
    },
    /// Store the school's Groupcall Xporter credentials (the secret sealed; Wonde's are
    /// cleared, a school has one source) and run one full sync here, printing the counts.
    Groupcall {
        /// The school's name in Voicemark.
        #[arg(long, value_name = "NAME")]
        school: String,
        /// The school's Groupcall id (the OneRoster client id).
        #[arg(long, value_name = "ID")]
        groupcall_id: String,
        /// The school's Groupcall secret.
        #[arg(long, value_name = "SECRET")]
        secret: String,
    },
}

#[derive(Subcommand)]
enum UserCommand {
    /// Create a user, activated unless --not-activated (and the school, if it does not exist).
    Add(AddUserArgs),
}

#[derive(Args)]
struct AddUserArgs {
    #[arg(long)]
    email: String,
    #[arg(long)]
    password: String,
    /// TEACHER, ADMIN, SUPERADMIN, ORG_ADMIN or MAT_USER.
    #[arg(long, value_parser = parse_role)]
    role: UserRole,
    /// The school's name; created if it does not exist.
    #[arg(long, value_name = "NAME")]
    school: Option<String>,
    /// Mark the user as a leader (gives the leaders area).
    #[arg(long)]
    leader: bool,
    /// Leave the account waiting for activation by a school administrator.
    #[arg(long)]
    not_activated: bool,
    /// Create the account disabled.
    #[arg(long)]
    disabled: bool,
    #[arg(long, default_value = "New")]
    forename: String,
    #[arg(long, default_value = "User")]
    surname: String,
}

fn parse_role(value: &str) -> Result<UserRole, String> {
    value
        .trim()
        .to_uppercase()
        .replace('-', "_")
        .parse::<UserRole>()
        .map_err(|_| "expected one of TEACHER, ADMIN, SUPERADMIN, ORG_ADMIN, MAT_USER".to_owned())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli.command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(command: Command) -> anyhow::Result<()> {
    let bind = match &command {
        Command::Serve { bind } => *bind,
        _ => None,
    };
    let config = config::from_env(bind)?;
    voicemark::telemetry::init(config.log_json);
    match command {
        Command::Serve { .. } => voicemark::serve::run(config).await,
        Command::Migrate => {
            let db = voicemark::db::Db::connect(&config.database.url, 1).await?;
            let applied = db.migrate().await?;
            println!(
                "Applied {applied} migration(s) to {}.",
                config.database.url.display_target()
            );
            Ok(())
        }
        Command::Seed { .. } => {
            let db = voicemark::serve::open_database(&config).await?;
            match seed::seed_demo(&db).await? {
                SeedOutcome::Seeded => {
                    println!("Seeded the demo organisation ({}).", seed::DEMO_SCHOOL);
                    print!("{}", seed::demo_accounts_text(&config.public_url));
                }
                SeedOutcome::AlreadyPopulated { demo_present: true } => {
                    println!("The database already holds the demo organisation.");
                    print!("{}", seed::demo_accounts_text(&config.public_url));
                }
                SeedOutcome::AlreadyPopulated {
                    demo_present: false,
                } => {
                    println!("The database already holds users; the demo was not added.");
                }
            }
            Ok(())
        }
        Command::Sync(SyncCommand::Wonde {
            school,
            wonde_id,
            token,
        }) => sync_once(config, &school, voicemark::mis::Source::Wonde, &wonde_id, &token).await,
        Command::Sync(SyncCommand::Groupcall {
            school,
            groupcall_id,
            secret,
        }) => {
            sync_once(config, &school, voicemark::mis::Source::Groupcall, &groupcall_id, &secret).await
        }
        Command::User(UserCommand::Add(args)) => {
            let db = voicemark::serve::open_database(&config).await?;
            let role = args.role;
            let email = args.email.clone();
            user_admin::add_user(
                &db,
                AddUser {
                    email: args.email,
                    password: args.password,
                    role,
                    school: args.school,
                    leader: args.leader,
                    forename: args.forename,
                    surname: args.surname,
                    not_activated: args.not_activated,
                    disabled: args.disabled,
                },
            )
            .await?;
            println!("Created {role} {email}.");
            Ok(())
        }
    }
}

/// `voicemark sync wonde|groupcall`: stores the school's credentials for `source` (sealed),
/// schedules its syncs and runs one full sync here, printing the counts.
async fn sync_once(
    config: voicemark::config::Config,
    school: &str,
    source: voicemark::mis::Source,
    mis_id: &str,
    secret: &str,
) -> anyhow::Result<()> {
    use voicemark::mis::{sync, Source};
    let db = voicemark::serve::open_database(&config).await?;
    let state = voicemark::state::AppState::new(db, config)?;
    let mut pooled = state.db.conn().await?;
    let Some(found) =
        voicemark::models::organisations::find_school_by_name(&mut pooled.db(), school).await?
    else {
        anyhow::bail!("There is no school called \"{school}\".");
    };
    match source {
        Source::Wonde => {
            sync::save_wonde_credentials(&mut pooled.db(), &state.secrets, &found.id, mis_id, secret)
                .await?
        }
        Source::Groupcall => {
            sync::save_groupcall_credentials(&mut pooled.db(), &state.secrets, &found.id, mis_id, secret)
                .await?
        }
    };
    voicemark::jobs::mis_sync::schedule_next(
        &mut pooled.db(),
        &state.config,
        &found.id,
        voicemark::models::now(),
    )
    .await?;
    drop(pooled);
    let kind = voicemark::mis::SyncKind::Full;
    match sync::run(&state, &found.id, kind).await? {
        None => anyhow::bail!("A sync of {school} is already running; try again when it ends."),
        Some(report) => {
            let a = &report.applied;
            println!(
                "Synced {school} from {}: {} added, {} updated, {} archived, {} staff invited.",
                source.label(),
                a.added,
                a.updated,
                a.archived,
                a.staff_invited
            );
            for problem in &a.problems {
                println!("  {problem}");
            }
        }
    }
    Ok(())
}
