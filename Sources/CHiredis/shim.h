// hiredis (Debian 12: 0.14.1), the Redis client under the shared session store. Its variadic
// `redisCommand` cannot be called from Swift; the store uses the argv forms only.
#include <hiredis/hiredis.h>
