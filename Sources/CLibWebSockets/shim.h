#ifndef INTERLUDE_CLIBWEBSOCKETS_SHIM_H
#define INTERLUDE_CLIBWEBSOCKETS_SHIM_H

// The one header NetworkIO imports. libwebsockets exposes some of what Swift needs as macros
// (LWS_PRE, the LWS_SERVER_OPTION_* bit masks, the kill-now timeout), which Swift cannot import;
// each gets a static inline wrapper here.

#include <libwebsockets.h>
#include <ev.h>

/// The headroom lws_write needs in front of every payload it frames.
static inline size_t interlude_lws_pre(void) { return LWS_PRE; }

/// Context options NetworkIO uses: the libev event loop, UTF-8 validation of text frames,
/// IPv4 only (for numeric IPv4 listen addresses) and failing loudly when the port is taken.
static inline uint64_t interlude_option_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
static inline uint64_t interlude_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t interlude_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
static inline uint64_t interlude_option_fail_upon_unable_to_bind(void) {
    return LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
}

/// Closes a connection from outside its own callback, on the next turn of the loop.
static inline void interlude_close_async(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

/// NetworkIO creates each context's libev loop itself and hands it to lws as a "foreign" loop:
/// lws then installs no SIGINT watcher (with its own loop it would swallow Ctrl-C for the whole
/// process), and the service thread decides when the loop stops.
static inline struct ev_loop *interlude_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO); }
/// Runs the loop until at least one event was handled; returns whether watchers remain.
static inline int interlude_ev_run_once(struct ev_loop *loop) { return ev_run(loop, EVRUN_ONCE); }
static inline void interlude_ev_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }

/// A libwebsockets timer that knows its owner: the sorted-usec-list node comes first, so the
/// pointer lws hands the timer callback is also a pointer to this struct.
typedef struct interlude_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
} interlude_timer_t;

#endif
