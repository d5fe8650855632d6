#include "lens_icu_regex.h"
#include <unicode/uregex.h>

static URegularExpression *icu(LensICURegex *regex) { return (URegularExpression *)regex; }

LensICURegex *lens_icu_regex_open(const uint16_t *pattern, int32_t length, int caseInsensitive, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *regex = uregex_open((const UChar *)pattern, length, caseInsensitive ? UREGEX_CASE_INSENSITIVE : 0, NULL, &code);
    *status = code;
    if (U_FAILURE(code)) {
        if (regex) uregex_close(regex);
        return NULL;
    }
    return (LensICURegex *)regex;
}

LensICURegex *lens_icu_regex_clone(const LensICURegex *regex, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    URegularExpression *copy = uregex_clone((const URegularExpression *)regex, &code);
    *status = code;
    return U_FAILURE(code) ? NULL : (LensICURegex *)copy;
}

void lens_icu_regex_close(LensICURegex *regex) { uregex_close(icu(regex)); }

int32_t lens_icu_regex_group_count(LensICURegex *regex, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    int32_t count = uregex_groupCount(icu(regex), &code);
    *status = code;
    return count;
}

void lens_icu_regex_set_text(LensICURegex *regex, const uint16_t *text, int32_t length, int32_t regionStart, int32_t regionLimit,
                             int transparentBounds, int anchoringBounds, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    uregex_setText(icu(regex), (const UChar *)text, length, &code);
    uregex_setRegion(icu(regex), regionStart, regionLimit, &code);
    uregex_useTransparentBounds(icu(regex), transparentBounds != 0, &code);
    uregex_useAnchoringBounds(icu(regex), anchoringBounds != 0, &code);
    *status = code;
}

int lens_icu_regex_find_next(LensICURegex *regex, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UBool found = uregex_findNext(icu(regex), &code);
    *status = code;
    return found && U_SUCCESS(code);
}

int lens_icu_regex_looking_at(LensICURegex *regex, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UBool found = uregex_lookingAt(icu(regex), -1, &code);
    *status = code;
    return found && U_SUCCESS(code);
}

int32_t lens_icu_regex_start(LensICURegex *regex, int32_t group, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    int32_t start = uregex_start(icu(regex), group, &code);
    *status = code;
    return U_FAILURE(code) ? -1 : start;
}

int32_t lens_icu_regex_end(LensICURegex *regex, int32_t group, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    int32_t end = uregex_end(icu(regex), group, &code);
    *status = code;
    return U_FAILURE(code) ? -1 : end;
}
