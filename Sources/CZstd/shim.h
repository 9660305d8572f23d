#ifndef HIG_AUDIT_CZSTD_SHIM_H
#define HIG_AUDIT_CZSTD_SHIM_H
// The frame-header and dictionary helpers we use are in libzstd's "static linking only" section;
// Debian's shared libzstd exports them all the same.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
#endif
