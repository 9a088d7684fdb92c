// SQLite for Swift: SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift
// cannot import, so text binding that copies its argument gets a small wrapper.
#include <sqlite3.h>

/// Binds `count` bytes of UTF-8 text, copied by SQLite before the call returns.
static inline int interlude_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text,
                                              sqlite3_uint64 count) {
    return sqlite3_bind_text64(statement, index, text, count, SQLITE_TRANSIENT, SQLITE_UTF8);
}
