#ifndef HIG_AUDIT_CZLIB_SHIM_H
#define HIG_AUDIT_CZLIB_SHIM_H
// zlib's inflate, for gzip-compressed exports read by `import` and `--from` (SPEC §7).
#include <zlib.h>

// `inflateInit2` is a macro; Swift sees only functions.
static inline int hig_audit_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}
#endif
