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
/// Bytes lws's HTTP parser cannot take for a request (no known method first: garbage, a TLS
/// hello, the HTTP/2 preface, an unknown method) go to the vhost's listen-accept role (raw
/// sockets, on NetworkIO's protocol) instead of getting lws's own HTML 403.
static inline uint64_t interlude_option_fallback_to_listen_accept_config(void) {
    return LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG;
}

/// NetworkIO creates each context's libev loop itself and hands it to lws as a "foreign" loop:
/// lws then starts no SIGINT watcher (on its own loop it would, and break the loop on Ctrl-C),
/// and the service thread decides when the loop stops.
static inline struct ev_loop *interlude_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO); }
/// Runs the loop until at least one event was handled; returns whether watchers remain.
static inline int interlude_ev_run_once(struct ev_loop *loop) { return ev_run(loop, EVRUN_ONCE); }
static inline void interlude_ev_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }

/// One libev timer per service loop, driving NetworkIO's own deadlines (WebSocket keep-alive,
/// the shutdown grace period). lws 4.1's libev glue cannot move its own timer earlier once it is
/// armed (ev_timer_start on an active watcher does nothing), so an lws timer set for 50 ms fires
/// when the timer armed for, say, 10 s does; this one is always re-armed for the earliest deadline.
typedef void (*interlude_timer_fired_t)(void *owner);

typedef struct interlude_ev_timer {
    ev_timer watcher; /* first, so the watcher pointer is also the struct pointer */
    void *owner;
    interlude_timer_fired_t fired;
} interlude_ev_timer_t;

static inline void interlude_ev_timer_trampoline(struct ev_loop *loop, ev_timer *watcher, int revents) {
    (void)loop;
    (void)revents;
    interlude_ev_timer_t *timer = (interlude_ev_timer_t *)watcher;
    timer->fired(timer->owner);
}

static inline void interlude_ev_timer_init(interlude_ev_timer_t *timer, void *owner, interlude_timer_fired_t fired) {
    timer->owner = owner;
    timer->fired = fired;
    ev_init(&timer->watcher, interlude_ev_timer_trampoline);
}

/// (Re)arms the timer to fire once, `seconds` from now.
static inline void interlude_ev_timer_arm(struct ev_loop *loop, interlude_ev_timer_t *timer, double seconds) {
    ev_timer_stop(loop, &timer->watcher);
    ev_now_update(loop);
    ev_timer_set(&timer->watcher, seconds, 0.);
    ev_timer_start(loop, &timer->watcher);
}

static inline void interlude_ev_timer_stop(struct ev_loop *loop, interlude_ev_timer_t *timer) {
    ev_timer_stop(loop, &timer->watcher);
}

/// A watcher on an accepted connection's socket that sees its first bytes before lws reads
/// them: it runs at the highest libev priority, so it is invoked before lws's own watcher on the
/// same descriptor, and it only peeks (MSG_PEEK), leaving the bytes to lws.
typedef void (*interlude_gate_readable_t)(void *owner, struct lws *wsi, int fd);

typedef struct interlude_gate {
    ev_io watcher; /* first, so the watcher pointer is also the struct pointer */
    void *owner;
    struct lws *wsi;
    interlude_gate_readable_t readable;
} interlude_gate_t;

static inline void interlude_gate_trampoline(struct ev_loop *loop, ev_io *watcher, int revents) {
    (void)loop;
    (void)revents;
    interlude_gate_t *gate = (interlude_gate_t *)watcher;
    gate->readable(gate->owner, gate->wsi, watcher->fd);
}

static inline void interlude_gate_start(struct ev_loop *loop, interlude_gate_t *gate, int fd, void *owner,
                                        struct lws *wsi, interlude_gate_readable_t readable) {
    gate->owner = owner;
    gate->wsi = wsi;
    gate->readable = readable;
    ev_io_init(&gate->watcher, interlude_gate_trampoline, fd, EV_READ);
    ev_set_priority(&gate->watcher, EV_MAXPRI);
    ev_io_start(loop, &gate->watcher);
}

static inline void interlude_gate_stop(struct ev_loop *loop, interlude_gate_t *gate) {
    ev_io_stop(loop, &gate->watcher);
}

/// Closes a connection at once, from outside any of its callbacks (a keep-alive deadline).
static inline void interlude_close_now(struct lws *wsi) {
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_SYNC);
}

#endif
