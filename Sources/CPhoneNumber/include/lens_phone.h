#ifndef LENS_PHONE_H
#define LENS_PHONE_H
// A C interface to the few libphonenumber calls Lens needs, so Swift can call them.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One phone number found in a text.
typedef struct {
    size_t start;          ///< UTF-8 byte offset of the number as written
    size_t end;            ///< UTF-8 byte offset just past it
    char e164[24];         ///< normalized, e.g. "+14155550132"
    char extension[16];    ///< "204" for "ext. 204"; empty when none
    char region[4];        ///< the region the number belongs to, e.g. "US"; "ZZ" when unknown
} lens_phone_match;

/// Runs libphonenumber's matcher (leniency VALID) over `length` bytes of UTF-8 `text`, reading
/// numbers without a country code as numbers of `region` (ISO 3166 alpha-2, e.g. "US").
/// Writes at most `capacity` matches to `matches` and returns how many were found in all,
/// which may be more than `capacity` (call again with more room), or -1 for an unknown region.
int lens_phone_find(const char *text, size_t length, const char *region,
                    lens_phone_match *matches, int capacity);

/// The same with a stricter leniency when `exact_grouping` is non-zero: a number counts only
/// when its digits are grouped as `region` formats its numbers (`030 901820` in Germany, not
/// `222 384 8847`), which tells a national number of that region from digits that merely fit.
int lens_phone_find_grouped(const char *text, size_t length, const char *region, int exact_grouping,
                            lens_phone_match *matches, int capacity);

/// The regions in which all of `length` bytes of `text` (one number written without a country
/// code) is a valid number written with that region's grouping (`020 7946 0018`: GB, CN, IN,
/// JP…). Writes at most `capacity` two-letter codes to `regions`, 3 bytes each (NUL-ended), and
/// returns how many regions there are in all.
int lens_phone_grouped_regions(const char *text, size_t length, char *regions, int capacity);

/// Writes the national form of an E.164 number (`+442079460018` → `020 7946 0018`) to `out`
/// (`size` bytes, NUL-ended); returns 0 when `e164` is no number.
int lens_phone_national_format(const char *e164, char *out, size_t size);
/// `e164` in libphonenumber's international format (`+1 415-555-0132`); 1 on success, else 0.
int lens_phone_international_format(const char *e164, char *out, size_t size);

/// Whether libphonenumber knows `region` (e.g. "US", "GB", "DE").
int lens_phone_is_supported_region(const char *region);

#ifdef __cplusplus
}
#endif
#endif
