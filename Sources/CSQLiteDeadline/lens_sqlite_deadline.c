// SQLite has no per-statement timeout; its progress handler is the documented way to interrupt
// one connection's statements (sqlite3_interrupt stops every statement of the connection, from
// another thread). GRDB exposes neither per query, hence these few lines.
#include "lens_sqlite_deadline.h"
#include <time.h>

static long long now_nanoseconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int past_deadline(void *context) {
    const lens_sqlite_deadline *deadline = context;
    return now_nanoseconds() > deadline->nanoseconds ? 1 : 0;
}

void lens_sqlite_set_deadline(sqlite3 *db, lens_sqlite_deadline *deadline, int milliseconds) {
    deadline->nanoseconds = now_nanoseconds() + (long long)milliseconds * 1000000LL;
    sqlite3_progress_handler(db, 1000, past_deadline, deadline);
}

void lens_sqlite_clear_deadline(sqlite3 *db) {
    sqlite3_progress_handler(db, 0, 0, 0);
}
