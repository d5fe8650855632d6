// FTS5's bm25() computes each phrase's IDF by walking every row that holds the phrase, once per
// query: 10-40 ms at 100,000 screenshots for the words most screenshots hold, whatever the LIMIT.
// Lens keeps a vocabulary table with the number of screenshots holding each word, so the IDF of a
// word is one lookup; this function takes those counts as arguments and otherwise computes exactly
// what bm25() computes (fts5_aux.c, fts5Bm25Function). No library offers an FTS5 ranking function
// with given IDFs; FTS5's API for one is C, hence this file.
#include "lens_fts5_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int phrases;
    int columns;
    double *weight;     // per column
    double *idf;
    double averageLength;
    double *frequency;  // per phrase, for the current row
} RankData;

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *context) {
    (void)api; (void)fts;
    (*(sqlite3_int64 *)context)++;
    return SQLITE_OK;
}

static void freeData(void *pointer) {
    RankData *data = pointer;
    if (data == NULL) return;
    free(data->weight);
    free(data->idf);
    free(data->frequency);
    free(data);
}

static double idfOf(sqlite3_int64 rows, sqlite3_int64 hits) {
    double idf = log((rows - hits + 0.5) / (hits + 0.5));
    return idf <= 0.0 ? 1e-6 : idf;
}

/// The per-query data: column weights and IDFs (given or counted), the average row length.
/// Arguments: one weight per column, then (optionally) for each phrase the number of rows that
/// hold it.
static int queryData(const Fts5ExtensionApi *api, Fts5Context *fts, int argc, sqlite3_value **argv, RankData **out) {
    RankData *data = api->xGetAuxdata(fts, 0);
    if (data != NULL) { *out = data; return SQLITE_OK; }
    int phrases = api->xPhraseCount(fts);
    data = calloc(1, sizeof(RankData));
    if (data == NULL) return SQLITE_NOMEM;
    int columns = api->xColumnCount(fts);
    data->phrases = phrases;
    data->columns = columns;
    data->weight = calloc((size_t)(columns > 0 ? columns : 1), sizeof(double));
    data->idf = calloc((size_t)(phrases > 0 ? phrases : 1), sizeof(double));
    data->frequency = calloc((size_t)(phrases > 0 ? phrases : 1), sizeof(double));
    if (data->weight == NULL || data->idf == NULL || data->frequency == NULL) { freeData(data); return SQLITE_NOMEM; }
    for (int c = 0; c < columns; c++) data->weight[c] = argc > c ? sqlite3_value_double(argv[c]) : 1.0;
    sqlite3_int64 rows = 0, tokens = 0;
    int rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
    data->averageLength = rows > 0 ? (double)tokens / (double)rows : 1.0;
    for (int i = 0; rc == SQLITE_OK && i < phrases; i++) {
        sqlite3_value *given = argc == columns + phrases ? argv[columns + i] : NULL;
        if (given != NULL && sqlite3_value_type(given) != SQLITE_NULL) {
            data->idf[i] = idfOf(rows, sqlite3_value_int64(given));
        } else {
            sqlite3_int64 hits = 0;
            rc = api->xQueryPhrase(fts, i, &hits, countRow);
            data->idf[i] = idfOf(rows, hits);
        }
    }
    if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, data, freeData);
    if (rc != SQLITE_OK) { freeData(data); return rc; }
    *out = data;
    return SQLITE_OK;
}

static void lensRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *result, int argc, sqlite3_value **argv) {
    RankData *data = NULL;
    int rc = queryData(api, fts, argc, argv, &data);
    int instances = 0, length = 0;
    if (rc == SQLITE_OK) {
        memset(data->frequency, 0, sizeof(double) * (size_t)(data->phrases > 0 ? data->phrases : 1));
        rc = api->xInstCount(fts, &instances);
    }
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK && phrase >= 0 && phrase < data->phrases) {
            data->frequency[phrase] += column >= 0 && column < data->columns ? data->weight[column] : 1.0;
        }
    }
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &length);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(result, rc); return; }
    const double k1 = 1.2, b = 0.75;
    double score = 0.0;
    for (int i = 0; i < data->phrases; i++) {
        double f = data->frequency[i];
        score += data->idf[i] * (f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * (double)length / data->averageLength));
    }
    // Equal scores (the same text captured again and again) are ordered newest first: FTS5 orders
    // equal ranks as it meets them, which depends on the LIMIT, so pages of a search could repeat
    // some rows and skip others. 1e-12 a rowid shifts a score by 1e-6 at a million screenshots,
    // far below what a token more or less in a text changes bm25 by (some 1e-2), so only exact
    // ties are decided by it; re-ranking the window to find them tripled common words' p95.
    sqlite3_result_double(result, -1.0 * score - 1e-12 * (double)api->xRowid(fts));
}

int lens_fts5_register_rank(sqlite3 *db) {
    fts5_api *fts = NULL;
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&fts, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (fts == NULL || fts->iVersion < 2) return SQLITE_ERROR;
    return fts->xCreateFunction(fts, "lens_rank", NULL, lensRank, NULL);
}
