// Wraps libphonenumber's C++ matcher behind the C interface in include/lens_phone.h.
#include "lens_phone.h"

#include <phonenumbers/phonenumbermatch.h>
#include <phonenumbers/phonenumbermatcher.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <set>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberMatch;
using i18n::phonenumbers::PhoneNumberMatcher;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {
void copy(char *destination, size_t size, const std::string &value) {
    std::strncpy(destination, value.c_str(), size - 1);
    destination[size - 1] = '\0';
}
}  // namespace

extern "C" int lens_phone_is_supported_region(const char *region) {
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();  // a thread-safe singleton
    return region != nullptr && util.GetCountryCodeForRegion(region) != 0;
}

extern "C" int lens_phone_find(const char *text, size_t length, const char *region,
                               lens_phone_match *matches, int capacity) {
    return lens_phone_find_grouped(text, length, region, 0, matches, capacity);
}

extern "C" int lens_phone_find_grouped(const char *text, size_t length, const char *region, int exact_grouping,
                                       lens_phone_match *matches, int capacity) {
    if (!lens_phone_is_supported_region(region)) return -1;
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    PhoneNumberMatcher matcher(util, std::string(text, length), region,
                               exact_grouping ? PhoneNumberMatcher::EXACT_GROUPING : PhoneNumberMatcher::VALID,
                               /* max_tries */ 65535);
    int found = 0;
    PhoneNumberMatch match;
    while (matcher.HasNext() && matcher.Next(&match)) {
        if (found < capacity) {
            lens_phone_match &out = matches[found];
            out.start = static_cast<size_t>(match.start());
            out.end = static_cast<size_t>(match.end());
            const PhoneNumber &number = match.number();
            std::string e164;
            util.Format(number, PhoneNumberUtil::E164, &e164);
            copy(out.e164, sizeof out.e164, e164);
            copy(out.extension, sizeof out.extension, number.has_extension() ? number.extension() : "");
            std::string owner;
            util.GetRegionCodeForNumber(number, &owner);
            copy(out.region, sizeof out.region, owner);
        }
        ++found;
    }
    return found;
}

extern "C" int lens_phone_grouped_regions(const char *text, size_t length, char *regions, int capacity) {
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    static const std::set<std::string> all = [&util] {
        std::set<std::string> out;
        util.GetSupportedRegions(&out);
        return out;
    }();
    const std::string written(text, length);
    int found = 0;
    for (const std::string &region : all) {
        // Parsing is cheap; the matcher (which checks the grouping) runs only where the digits
        // are a valid number of the region.
        PhoneNumber number;
        if (util.Parse(written, region, &number) != PhoneNumberUtil::NO_PARSING_ERROR
            || !util.IsValidNumberForRegion(number, region)) continue;
        PhoneNumberMatcher matcher(util, written, region, PhoneNumberMatcher::EXACT_GROUPING, 1);
        PhoneNumberMatch match;
        if (!(matcher.HasNext() && matcher.Next(&match)) || match.start() != 0
            || static_cast<size_t>(match.end()) != length) continue;
        if (found < capacity) copy(regions + 3 * found, 3, region);
        ++found;
    }
    return found;
}

static int format_e164(const char *e164, PhoneNumberUtil::PhoneNumberFormat format, char *out, size_t size) {
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (e164 == nullptr || size == 0 || util.Parse(e164, "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    std::string formatted;
    util.Format(number, format, &formatted);
    copy(out, size, formatted);
    return 1;
}

extern "C" int lens_phone_national_format(const char *e164, char *out, size_t size) {
    return format_e164(e164, PhoneNumberUtil::NATIONAL, out, size);
}

extern "C" int lens_phone_international_format(const char *e164, char *out, size_t size) {
    return format_e164(e164, PhoneNumberUtil::INTERNATIONAL, out, size);
}
