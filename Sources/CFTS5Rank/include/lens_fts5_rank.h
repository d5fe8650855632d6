#ifndef LENS_FTS5_RANK_H
#define LENS_FTS5_RANK_H
// An FTS5 ranking function, `lens_rank`, registered on a connection.
#include <sqlite3.h>

/// Registers `lens_rank(fts_table, weight..., rows...)` on `db`: what FTS5's `bm25(weight...)`
/// computes (k1 1.2, b 0.75, one weight per column), except that the number of rows holding each
/// phrase (for its IDF) is taken from the arguments after the weights, in the order the phrases
/// appear in the MATCH expression, when one is given for every phrase. A NULL, or an argument
/// count that does not match, makes it count the phrase's rows as `bm25()` always does (a walk
/// of every row holding it). Returns an SQLite result code.
int lens_fts5_register_rank(sqlite3 *db);

#endif
