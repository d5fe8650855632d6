#ifndef LENS_ICU_REGEX_H
#define LENS_ICU_REGEX_H
// ICU's regular expressions (Debian's libicu-dev) behind a C interface of plain types.
// (ICU's own headers stay in regex.c: Foundation brings a copy of ICU whose types have the same
// names and other members, and Swift cannot import both; ICU also renames every function with
// its version, `uregex_open` being `uregex_open_72`, which Swift cannot call through.)
#include <stdint.h>

typedef struct LensICURegex LensICURegex;

/// Compiles `pattern` (UTF-16); nil and `*status` > 0 on failure.
LensICURegex *lens_icu_regex_open(const uint16_t *pattern, int32_t length, int caseInsensitive, int32_t *status);
/// A matcher of its own for one search at a time (`uregex_clone`).
LensICURegex *lens_icu_regex_clone(const LensICURegex *regex, int32_t *status);
void lens_icu_regex_close(LensICURegex *regex);
int32_t lens_icu_regex_group_count(LensICURegex *regex, int32_t *status);
/// Sets the text (kept by pointer until the next call), the region searched and the bounds.
void lens_icu_regex_set_text(LensICURegex *regex, const uint16_t *text, int32_t length, int32_t regionStart, int32_t regionLimit,
                             int transparentBounds, int anchoringBounds, int32_t *status);
/// The next match in the region; 0 when none.
int lens_icu_regex_find_next(LensICURegex *regex, int32_t *status);
/// A match at the region's start; 0 when none.
int lens_icu_regex_looking_at(LensICURegex *regex, int32_t *status);
/// Where group `group` of the last match starts and ends (-1 when it took no part).
int32_t lens_icu_regex_start(LensICURegex *regex, int32_t group, int32_t *status);
int32_t lens_icu_regex_end(LensICURegex *regex, int32_t group, int32_t *status);
#endif
