#ifndef LENS_SQLITE_DEADLINE_H
#define LENS_SQLITE_DEADLINE_H
// A time limit for the statements of one connection, through SQLite's progress handler.
#include <sqlite3.h>

/// When statements on a connection must stop. Owned by the caller for as long as it is set.
typedef struct lens_sqlite_deadline {
    long long nanoseconds; // CLOCK_MONOTONIC
} lens_sqlite_deadline;

/// Makes every statement run on `db` from now on stop with SQLITE_INTERRUPT once `milliseconds`
/// have passed: SQLite calls a handler every 1,000 virtual-machine steps, which reads the clock.
/// `deadline` must stay valid until ``lens_sqlite_clear_deadline`` is called.
void lens_sqlite_set_deadline(sqlite3 *db, lens_sqlite_deadline *deadline, int milliseconds);

/// Removes the limit.
void lens_sqlite_clear_deadline(sqlite3 *db);

#endif
