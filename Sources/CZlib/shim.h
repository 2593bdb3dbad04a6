#ifndef FOOTLIGHT_CZLIB_SHIM_H
#define FOOTLIGHT_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 is a function-like macro, which Swift cannot import. Window bits 15 + 16
// ask zlib for a gzip wrapper (RFC 1952) around the deflate stream.
static inline int footlight_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
