#ifndef FOOTLIGHT_CJANSSON_SHIM_H
#define FOOTLIGHT_CJANSSON_SHIM_H

#include <jansson.h>

// JSON_REAL_PRECISION(n) is a function-like macro, which Swift cannot import.
static inline size_t footlight_json_real_precision(int digits) {
    return JSON_REAL_PRECISION(digits);
}

// JSON_INDENT(n) is a function-like macro, which Swift cannot import.
static inline size_t footlight_json_indent(int spaces) {
    return JSON_INDENT(spaces);
}

// JSON_PARSER_MAX_DEPTH is jansson's compile-time nesting limit; exported so the
// Swift side can document and check against the value it was built with.
static inline int footlight_json_parser_max_depth(void) {
    return JSON_PARSER_MAX_DEPTH;
}

#endif
