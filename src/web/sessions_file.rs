//! The sessions CSV file (`GET /reports/sessions.csv`, `web::reports`):
//! every session of a range, read a part at a time, and its groups kept
//! ready (issue 17).
//!
//! The file's rows go by gaming day, table and seating; a *group* is one
//! table's gaming day of them (a year of a 50-table room: some 18,000
//! groups, 390,000 sessions). Once every session of a group has ended and
//! its day is over, the [`Keeper`] (a thread of the server, every minute)
//! keeps the group's rows as the file writes them (`db::session_files`,
//! compressed with LZ4), with what they were made from. The file sends a
//! kept group as it is while it is *true*:
//!
//! - made from the group's session day as it is now: its sessions, their
//!   sums and its count of changes, which the database moves in the same
//!   statement as every change of the seatings' totals (a new seating, an
//!   add-on, a cash-out, a hand's rake, a void, a jackpot payout);
//! - under the table's name now, in this server's time zone, in this
//!   release's [`LAYOUT`] of a row;
//! - holding no session newer than the file (which holds the sessions
//!   there were when it began).
//!
//! Every other group (today's, one with a player still seated, one changed
//! or renamed since it was kept) is read from the seatings' totals as
//! before, and its rows are written the same way the kept ones were: a row
//! of the file reads the same whether or not its group was kept.

use std::collections::{HashMap, HashSet};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use chrono::{NaiveDate, NaiveDateTime};

use crate::db::reports::{self, Range, SessionRow, SessionTotals, TableInfo};
use crate::db::session_files::{self, Group, Kept, NewKept};
use crate::db::{Database, DbConnection};
use crate::domain::{AppError, SeatingId, TableId};

/// The layout of a row of the file. Any change to a row (its columns, their
/// order, the text of a value) bumps it, so that the groups an older
/// release kept are not sent (the file's tests pin a row by hand).
pub const LAYOUT: i32 = 1;

/// Groups a part of the file holds (about: a part is whole gaming days).
const PART_GROUPS: usize = 1_000;

/// Groups of a gaming day read one at a time when they are not kept true;
/// more are read with their day's other sessions, at once.
const ONE_BY_ONE: usize = 8;

/// The most a kept group unpacks to (a group's rows are kilobytes).
const MAX_GROUP_BYTES: usize = 64 << 20;

fn text_day(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

/// What the file is read with, once: its range, the tables (their names now),
/// the zone of its times and its newest session.
#[derive(Clone)]
pub struct FileOf {
    pub range: Range,
    tables: Arc<Vec<TableInfo>>,
    names: Arc<HashMap<i64, String>>,
    tz: chrono_tz::Tz,
    newest: SeatingId,
}

/// A part of the file: its rows as written (in pieces of about
/// [`PIECE`] bytes), their totals, and the first gaming day of the next part
/// (none after the last).
pub struct Part {
    pub pieces: Vec<Piece>,
    pub totals: SessionTotals,
    pub next: Option<NaiveDate>,
}

/// The size of a piece of a part as sent.
pub const PIECE: usize = 64 << 10;

/// Pieces' buffers kept for the next ones, at most (8 MiB): a year's file
/// holds about two parts' pieces at a time.
const SPARE_PIECES: usize = 128;

/// Buffers of pieces that have been sent. A new buffer of each piece came
/// as new pages from the system (the allocator gives freed memory back at
/// once, for a flat memory): zeroing and faulting in some 40 MB a year's
/// file took a fifth of its time.
static SPARE: std::sync::Mutex<Vec<Vec<u8>>> = std::sync::Mutex::new(Vec::new());

fn spare_piece(n: usize) -> Vec<u8> {
    if n <= PIECE {
        if let Some(buffer) = SPARE.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            return buffer;
        }
    }
    Vec::with_capacity(PIECE.max(n))
}

/// A piece of a part: its buffer is kept for another piece once sent.
pub struct Piece(Vec<u8>);

impl AsRef<[u8]> for Piece {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Drop for Piece {
    fn drop(&mut self) {
        let mut buffer = std::mem::take(&mut self.0);
        if (PIECE..=2 * PIECE).contains(&buffer.capacity()) {
            let mut spare = SPARE.lock().unwrap_or_else(|e| e.into_inner());
            if spare.len() < SPARE_PIECES {
                buffer.clear();
                spare.push(buffer);
            }
        }
    }
}

/// A part's bytes as they are written: pieces of about [`PIECE`] bytes, and
/// places left for bytes written later ([`Pieces::place`]).
#[derive(Default)]
struct Pieces {
    done: Vec<Vec<u8>>,
    open: Vec<u8>,
}

impl Pieces {
    /// The piece to write `n` more bytes to (a new one if the open piece
    /// would pass [`PIECE`]).
    fn room(&mut self, n: usize) -> &mut Vec<u8> {
        if !self.open.is_empty() && self.open.len() + n > PIECE {
            let full = std::mem::replace(&mut self.open, spare_piece(n));
            self.done.push(full);
        } else if self.open.capacity() == 0 {
            self.open = spare_piece(n);
        }
        &mut self.open
    }

    /// A place here for bytes written later ([`Pieces::fill`]).
    fn place(&mut self) -> usize {
        if !self.open.is_empty() {
            let open = std::mem::take(&mut self.open);
            self.done.push(open);
        }
        self.done.push(Vec::new());
        self.done.len() - 1
    }

    fn fill(&mut self, place: usize, bytes: Vec<u8>) {
        self.done[place] = bytes;
    }

    fn into_pieces(mut self) -> Vec<Piece> {
        if !self.open.is_empty() {
            let open = std::mem::take(&mut self.open);
            self.done.push(open);
        }
        self.done.into_iter().filter(|p| !p.is_empty()).map(Piece).collect()
    }
}

impl FileOf {
    /// The file of `range`: `None` when there is no session at all.
    pub fn new(conn: &mut DbConnection, range: Range, tz: chrono_tz::Tz) -> Result<Option<FileOf>, AppError> {
        let Some(newest) = reports::newest_session(conn)? else { return Ok(None) };
        let tables = reports::all_tables(conn)?;
        let names = tables.iter().map(|t| (t.id, t.name.clone())).collect();
        Ok(Some(FileOf { range, tables: Arc::new(tables), names: Arc::new(names), tz, newest }))
    }

    /// The gaming days of the part that starts on `first`: the first part
    /// one day (so that the answer starts at once), then as many days as
    /// hold about [`PART_GROUPS`] groups.
    fn days_from(&self, first: NaiveDate) -> (NaiveDate, NaiveDate) {
        let tables = if self.range.table.is_some() { 1 } else { self.tables.len().max(1) };
        let days = if first == self.range.from { 1 } else { (PART_GROUPS / tables).max(1) };
        let last = (first + chrono::Duration::days(days as i64 - 1)).min(self.range.to);
        (first, last)
    }

    /// The first gaming day of each part of the file, in order.
    pub fn part_starts(&self) -> Vec<NaiveDate> {
        let mut starts = vec![self.range.from];
        loop {
            let (_, last) = self.days_from(*starts.last().unwrap_or(&self.range.from));
            if last >= self.range.to {
                return starts;
            }
            starts.push(last + chrono::Duration::days(1));
        }
    }

    /// Whether a group's kept rows are true: see the module's words.
    fn is_true(&self, g: &Group) -> bool {
        let Some(k) = &g.kept else { return false };
        k.layout == LAYOUT
            && k.made_from_now
            && k.newest_seating <= self.newest
            && k.time_zone == self.tz.name()
            && self.names.get(&g.table_id.get()) == Some(&k.table_name)
    }

    /// The part of the file that starts on the gaming day `first`. Its groups
    /// are read one after another (each row let go before the next: a
    /// part's rows held at once came as new memory each time), a kept group
    /// written out as it comes, a place left for each other group; those
    /// are read from the seatings' totals afterwards, into their places.
    pub fn part(&self, conn: &mut DbConnection, first: NaiveDate) -> Result<Part, AppError> {
        let (from, to) = self.days_from(first);
        let next = (to < self.range.to).then(|| to + chrono::Duration::days(1));
        let table = self.range.table.map(TableId);
        let mut bytes = Pieces::default();
        let mut totals = SessionTotals::default();
        // The groups read as before: (gaming day, table, their place).
        let mut stale: Vec<(String, TableId, usize)> = Vec::new();
        session_files::each_group(conn, &text_day(from), &text_day(to), table, |g| {
            if let Some(kept) = g.kept.as_ref().filter(|_| self.is_true(&g)) {
                match unpack(&kept.rows_lz4, &mut bytes) {
                    Ok(()) => {
                        totals.add_ended(&g.now);
                        return;
                    }
                    // Read as if it were not kept; the keeper makes it again.
                    Err(e) => {
                        log::error!("the sessions file's kept rows of {} at table {}: {e}", g.gaming_day, g.table_id)
                    }
                }
            }
            stale.push((g.gaming_day, g.table_id, bytes.place()));
        })?;
        let mut rows = self.rows_of(conn, &stale)?.into_iter().peekable();
        for (day, table, place) in &stale {
            let day = stored_day(day)?;
            let mut of_group = Vec::new();
            while let Some(row) = rows.next_if(|r| r.gaming_day == day && r.table_id == table.get()) {
                of_group.push(row);
            }
            bytes.fill(*place, super::reports::session_rows_bytes(&of_group, self.tz, &mut totals)?);
        }
        if let Some(left) = rows.next() {
            // Every session read belongs to a group read (the database makes
            // a seating's session day with its totals).
            return Err(AppError::internal(format!(
                "session {} ({} at table {}) is in no group of the file",
                left.seating_id, left.gaming_day, left.table_id
            )));
        }
        Ok(Part { pieces: bytes.into_pieces(), totals, next })
    }

    /// The sessions of groups not kept true (gaming day, table), in the
    /// file's order: a day's such groups each by itself when they are few,
    /// else every session of that day (of the range's table, if it has one),
    /// keeping theirs. (One query over the days from the first such group to
    /// the last read a month of sessions for a player seated since the
    /// month's first day.)
    fn rows_of(
        &self,
        conn: &mut DbConnection,
        stale: &[(String, TableId, usize)],
    ) -> Result<Vec<SessionRow>, AppError> {
        let mut rows = Vec::new();
        for day in stale.chunk_by(|a, b| a.0 == b.0) {
            let on = (day[0].0.as_str(), day[0].0.as_str());
            if day.len() <= ONE_BY_ONE {
                for (_, table, _) in day {
                    rows.extend(reports::sessions_of_days(conn, &self.tables, on, Some(*table), self.newest)?);
                }
                continue;
            }
            let wanted: HashSet<i64> = day.iter().map(|g| g.1.get()).collect();
            let mut of_day =
                reports::sessions_of_days(conn, &self.tables, on, self.range.table.map(TableId), self.newest)?;
            of_day.retain(|r| wanted.contains(&r.table_id));
            rows.extend(of_day);
        }
        Ok(rows)
    }
}

fn stored_day(text: &str) -> Result<NaiveDate, AppError> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| AppError::internal(format!("stored gaming day {text:?}")))
}

/// A group's rows as kept: LZ4 (a block, its length first).
fn pack(rows: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress_prepend_size(rows)
}

/// Appends a kept group's rows to `pieces`.
fn unpack(blob: &[u8], pieces: &mut Pieces) -> Result<(), String> {
    let Some((size, block)) = blob.split_first_chunk::<4>() else { return Err("no length".to_string()) };
    let size = u32::from_le_bytes(*size) as usize;
    if size > MAX_GROUP_BYTES {
        return Err(format!("a length of {size} bytes"));
    }
    let out = pieces.room(size);
    let start = out.len();
    out.resize(start + size, 0);
    match lz4_flex::block::decompress_into(block, &mut out[start..]) {
        Ok(n) if n == size => Ok(()),
        Ok(n) => {
            out.truncate(start);
            Err(format!("{n} bytes where {size} were kept"))
        }
        Err(e) => {
            out.truncate(start);
            Err(e.to_string())
        }
    }
}

/// Keeps ended groups that are not kept true: at most `limit` of them, in
/// the file's order. A group has ended when its gaming day is before its
/// table's gaming day at `now` and none of its players is seated. Each is
/// read as the file reads it, then written with the session day it was read
/// from (read before and after its sessions: a group that changed meanwhile
/// is left for the next time). Answers how many were kept and whether more
/// are left.
pub fn keep(db: &Database, tz: chrono_tz::Tz, now: NaiveDateTime, limit: usize) -> Result<(usize, bool), AppError> {
    let mut conn = db.conn()?;
    let conn: &mut DbConnection = &mut conn;
    let tables = reports::all_tables(conn)?;
    let today: HashMap<i64, NaiveDate> = tables.iter().map(|t| (t.id, t.clock.day(now))).collect();
    let open = reports::open_groups(conn)?;
    let mut ended = Vec::new();
    for (day, table) in session_files::not_kept(conn, tz.name(), LAYOUT)? {
        let over = today.get(&table.get()).is_some_and(|t| stored_day(&day).is_ok_and(|d| d < *t));
        if over && !open.contains(&(day.clone(), table)) {
            ended.push((day, table));
        }
    }
    let more = ended.len() > limit;
    let mut made = Vec::new();
    for (day, table) in ended.into_iter().take(limit) {
        if let Some(group) = read_group(conn, &tables, tz, &day, table, now)? {
            made.push(group);
        }
    }
    for chunk in made.chunks(100) {
        let chunk = chunk.to_vec();
        db.write(None, move |c| Ok(session_files::put(c, &chunk)?))?;
    }
    Ok((made.len(), more))
}

/// A group's rows to keep, read with its session day; `None` when it may
/// not be kept now (a player seated again, a change while it was read).
fn read_group(
    conn: &mut DbConnection,
    tables: &[TableInfo],
    tz: chrono_tz::Tz,
    day: &str,
    table: TableId,
    now: NaiveDateTime,
) -> Result<Option<NewKept>, AppError> {
    let Some(before) = session_files::day_sums(conn, day, table)? else { return Ok(None) };
    let rows = reports::sessions_of_days(conn, tables, (day, day), Some(table), SeatingId(i64::MAX))?;
    if session_files::day_sums(conn, day, table)? != Some(before) || rows.iter().any(|r| r.status == "seated") {
        return Ok(None);
    }
    let Some(name) = tables.iter().find(|t| t.id == table.get()).map(|t| t.name.clone()) else { return Ok(None) };
    let mut totals = SessionTotals::default();
    let bytes = super::reports::session_rows_bytes(&rows, tz, &mut totals)?;
    let mut said = SessionTotals::default();
    said.add_ended(&before);
    if totals != said {
        // The session day is kept by the database with its seatings' totals:
        // they always agree.
        log::warn!("the sessions of {day} at table {table} do not sum to their session day: not kept");
        return Ok(None);
    }
    let newest = rows.iter().map(|r| r.seating_id).max().map_or(SeatingId(0), SeatingId);
    Ok(Some(NewKept {
        gaming_day: day.to_string(),
        table_id: table,
        kept: Kept {
            made_from: before,
            newest_seating: newest,
            table_name: name,
            time_zone: tz.name().to_string(),
            layout: LAYOUT,
            rows_lz4: pack(&bytes),
        },
        built_at: now,
    }))
}

/// Groups the keeper keeps at a time (then it pauses a moment).
const KEEP_AT_ONCE: usize = 200;

/// How often the keeper looks for groups to keep.
pub const KEEP_EVERY: Duration = Duration::from_secs(60);

/// The keeper: a thread that keeps the ended groups every `every` (and, while
/// more are left, a batch after another), until it is dropped.
pub struct Keeper {
    _stop: mpsc::Sender<()>,
}

impl Keeper {
    /// Starts the keeper on `db` for the file's times in `tz`, with the
    /// gaming days of `clock` (the service's: `db::now`). Its first look is
    /// a few seconds after the start.
    pub fn start(db: Database, tz: chrono_tz::Tz, every: Duration, clock: fn() -> NaiveDateTime) -> Keeper {
        let (stop, stopped) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name("sessions-file".to_string()).spawn(move || {
            let mut wait = every.min(Duration::from_secs(5));
            // Groups kept since the last look that found none left (one
            // line in the log for a catch-up of many batches).
            let mut kept_now = 0;
            // Nothing is ever sent: the keeper's end is the sender dropped.
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(wait) {
                wait = match keep(&db, tz, clock(), KEEP_AT_ONCE) {
                    // (More left and none of these kept: not at once again.)
                    Ok((kept, true)) if kept > 0 => {
                        kept_now += kept;
                        Duration::from_millis(100)
                    }
                    Ok((kept, _)) => {
                        kept_now += kept;
                        if kept_now > 0 {
                            log::info!("the sessions file: {kept_now} tables' gaming days kept ready");
                        }
                        kept_now = 0;
                        every
                    }
                    Err(e) => {
                        log::warn!("the sessions file: keeping its gaming days failed ({kept_now} kept before): {e}");
                        kept_now = 0;
                        every
                    }
                };
            }
        });
        if let Err(e) = spawned {
            log::warn!("the sessions file's keeper did not start ({e}): every file is read as it is asked for");
        }
        Keeper { _stop: stop }
    }
}
