// nfqdelay: delay, jitter and random loss for packets sent to an NFQUEUE, for a kernel without
// sch_netem (this machine's has none, and cannot load modules). scripts/netchaos runs it.
//
//   nfqdelay -d DELAY_MS -t MAX_SECONDS [-j JITTER_MS] [-l LOSS_PERCENT] [-q QUEUE] [-o] [-s SEED]
//
// Each packet the kernel queues is dropped with probability LOSS_PERCENT / 100, or else held for
// DELAY_MS plus a uniform draw from [-JITTER_MS, +JITTER_MS] (never below zero) and then accepted.
// Jitter reorders packets, as netem's does; -o (keep order) releases each packet no earlier than
// the one before it, so the queue stays FIFO. After MAX_SECONDS, or on SIGINT / SIGTERM, every
// held packet is accepted at once and the counts are printed on stderr.
//
// The queue is opened fail-open (a full queue accepts instead of dropping) with a 32 MiB netlink
// receive buffer: with the default buffer a bulk TCP flow overruns it (ENOBUFS) and the packets
// whose notifications were lost stay queued for good. Only metadata is copied to user space.
//
// Build: gcc -O2 -Wall -o nfqdelay nfqdelay.c $(pkg-config --cflags --libs libnetfilter_queue) -lm
// (scripts/bootstrap --chaos does this). Exit status: 0, 64 on bad usage, 1 on a runtime error.

// <arpa/inet.h> (glibc's netinet/in.h) must come before the kernel headers that
// libnetfilter_queue pulls in, or struct ip_mreq_source and friends are defined twice.
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum { receive_buffer_bytes = 32 << 20, kernel_queue_packets = 65536 };

struct options {
    unsigned queue;
    double delay_ms, jitter_ms, loss_percent, max_seconds;
    bool keeps_order;
    uint64_t seed;
};

struct counts {
    unsigned long received, dropped, released, overruns;
    size_t peak_held;
};

// A held packet: the kernel's id and when to accept it. `order` breaks ties between equal release
// times, so that packets due at the same nanosecond leave in arrival order.
struct held_packet {
    uint64_t release_ns;
    uint64_t order;
    uint32_t id;
};

// A binary min-heap of held packets ordered by (release_ns, order).
struct release_heap {
    struct held_packet *items;
    size_t count, capacity;
};

static bool comes_first(const struct held_packet *a, const struct held_packet *b) {
    return a->release_ns != b->release_ns ? a->release_ns < b->release_ns : a->order < b->order;
}

static bool heap_push(struct release_heap *heap, struct held_packet packet) {
    if (heap->count == heap->capacity) {
        size_t capacity = heap->capacity ? heap->capacity * 2 : 4096;
        struct held_packet *items = realloc(heap->items, capacity * sizeof *items);
        if (!items) return false;
        heap->items = items;
        heap->capacity = capacity;
    }
    size_t child = heap->count++;
    while (child > 0) {
        size_t parent = (child - 1) / 2;
        if (!comes_first(&packet, &heap->items[parent])) break;
        heap->items[child] = heap->items[parent];
        child = parent;
    }
    heap->items[child] = packet;
    return true;
}

static struct held_packet heap_pop(struct release_heap *heap) {
    struct held_packet top = heap->items[0];
    struct held_packet last = heap->items[--heap->count];
    size_t hole = 0;
    for (;;) {
        size_t child = 2 * hole + 1;
        if (child >= heap->count) break;
        if (child + 1 < heap->count && comes_first(&heap->items[child + 1], &heap->items[child])) child++;
        if (!comes_first(&heap->items[child], &last)) break;
        heap->items[hole] = heap->items[child];
        hole = child;
    }
    if (heap->count > 0) heap->items[hole] = last;
    return top;
}

// SplitMix64: small, seedable, and good enough for loss and jitter draws.
static uint64_t random_state;

static uint64_t next_random(void) {
    uint64_t z = (random_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A uniform double in [0, 1).
static double unit_random(void) { return (double)(next_random() >> 11) * 0x1.0p-53; }

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

struct delayer {
    struct options options;
    struct nfq_q_handle *queue;
    struct release_heap held;
    struct counts counts;
    uint64_t last_release_ns, arrivals;
    bool out_of_memory;
};

static int on_packet(struct nfq_q_handle *queue, struct nfgenmsg *message, struct nfq_data *data,
                     void *context) {
    (void)message;
    struct delayer *delayer = context;
    struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(data);
    if (!header) return 0;
    uint32_t id = ntohl(header->packet_id);
    delayer->counts.received++;

    const struct options *options = &delayer->options;
    if (options->loss_percent > 0 && unit_random() * 100.0 < options->loss_percent) {
        delayer->counts.dropped++;
        return nfq_set_verdict(queue, id, NF_DROP, 0, NULL);
    }
    double hold_ms = options->delay_ms + options->jitter_ms * (2.0 * unit_random() - 1.0);
    uint64_t release_ns = monotonic_ns() + (uint64_t)llround(fmax(hold_ms, 0.0) * 1e6);
    if (options->keeps_order && release_ns < delayer->last_release_ns) release_ns = delayer->last_release_ns;
    delayer->last_release_ns = release_ns;

    struct held_packet packet = {.release_ns = release_ns, .order = delayer->arrivals++, .id = id};
    if (!heap_push(&delayer->held, packet)) {
        // Out of memory: let the packet through now rather than lose it.
        delayer->out_of_memory = true;
        delayer->counts.released++;
        return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL);
    }
    if (delayer->held.count > delayer->counts.peak_held) delayer->counts.peak_held = delayer->held.count;
    return 0;
}

// Accepts every held packet due at or before `now_ns`; returns the next release time, or 0.
static uint64_t release_due(struct delayer *delayer, uint64_t now_ns) {
    while (delayer->held.count > 0 && delayer->held.items[0].release_ns <= now_ns) {
        struct held_packet packet = heap_pop(&delayer->held);
        nfq_set_verdict(delayer->queue, packet.id, NF_ACCEPT, 0, NULL);
        delayer->counts.released++;
    }
    return delayer->held.count > 0 ? delayer->held.items[0].release_ns : 0;
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int signal_number) {
    (void)signal_number;
    stop_requested = 1;
}

static void usage(FILE *stream) {
    fputs("usage: nfqdelay -d DELAY_MS -t MAX_SECONDS [-j JITTER_MS] [-l LOSS_PERCENT] [-q QUEUE] [-o] [-s SEED]\n"
          "  -d  added delay in milliseconds            -j  uniform jitter, +/- milliseconds (0)\n"
          "  -l  random loss in percent, 0-100 (0)      -q  NFQUEUE number (0)\n"
          "  -t  stop after this many seconds (required; held packets are released)\n"
          "  -o  keep order: never release a packet before an earlier one\n"
          "  -s  seed for the loss and jitter draws (default: from the clock)\n",
          stream);
}

static bool parse_number(const char *text, double low, double high, double *value) {
    char *end;
    errno = 0;
    double parsed = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(parsed) || parsed < low || parsed > high) return false;
    *value = parsed;
    return true;
}

static int parse_options(int argc, char **argv, struct options *options) {
    *options = (struct options){.delay_ms = -1, .max_seconds = -1, .seed = monotonic_ns()};
    double queue = 0;
    int option;
    while ((option = getopt(argc, argv, "d:j:l:q:t:os:h")) != -1) {
        bool ok = true;
        switch (option) {
        case 'd': ok = parse_number(optarg, 0, 600000, &options->delay_ms); break;
        case 'j': ok = parse_number(optarg, 0, 600000, &options->jitter_ms); break;
        case 'l': ok = parse_number(optarg, 0, 100, &options->loss_percent); break;
        case 'q': ok = parse_number(optarg, 0, 65535, &queue) && queue == floor(queue); break;
        case 't': ok = parse_number(optarg, 0.001, 86400, &options->max_seconds); break;
        case 'o': options->keeps_order = true; break;
        case 's': options->seed = strtoull(optarg, NULL, 10); break;
        case 'h': usage(stdout); exit(0);
        default: usage(stderr); return 64;
        }
        if (!ok) {
            fprintf(stderr, "nfqdelay: bad value '%s' for -%c\n", optarg, option);
            return 64;
        }
    }
    if (optind != argc || options->delay_ms < 0 || options->max_seconds < 0) {
        usage(stderr);
        return 64;
    }
    options->queue = (unsigned)queue;
    return 0;
}

static void set_timer(int timer_fd, uint64_t release_ns) {
    // An absolute CLOCK_MONOTONIC expiry; zero disarms the timer.
    struct itimerspec when = {0};
    if (release_ns) {
        when.it_value.tv_sec = (time_t)(release_ns / 1000000000ull);
        when.it_value.tv_nsec = (long)(release_ns % 1000000000ull);
    }
    timerfd_settime(timer_fd, TFD_TIMER_ABSTIME, &when, NULL);
}

int main(int argc, char **argv) {
    struct delayer delayer = {0};
    int status = parse_options(argc, argv, &delayer.options);
    if (status) return status;
    random_state = delayer.options.seed;

    struct sigaction action = {.sa_handler = on_signal};
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    struct nfq_handle *handle = nfq_open();
    if (!handle) {
        perror("nfqdelay: nfq_open");
        return 1;
    }
    delayer.queue = nfq_create_queue(handle, (uint16_t)delayer.options.queue, on_packet, &delayer);
    if (!delayer.queue) {
        fprintf(stderr, "nfqdelay: cannot bind queue %u (another reader, or not root): %s\n",
                delayer.options.queue, strerror(errno));
        nfq_close(handle);
        return 1;
    }
    if (nfq_set_mode(delayer.queue, NFQNL_COPY_META, 0) < 0) {
        perror("nfqdelay: nfq_set_mode");
        return 1;
    }
    nfq_set_queue_maxlen(delayer.queue, kernel_queue_packets);
    // Fail open: when the queue is full the kernel accepts the packet instead of dropping it.
    // GSO: take whole offloaded packets rather than have the kernel segment them first.
    uint32_t flags = NFQA_CFG_F_FAIL_OPEN | NFQA_CFG_F_GSO;
    if (nfq_set_queue_flags(delayer.queue, flags, flags) < 0)
        fprintf(stderr, "nfqdelay: this kernel refuses the fail-open flag; a full queue will drop\n");

    int fd = nfq_fd(handle);
    int buffer = receive_buffer_bytes;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buffer, sizeof buffer) < 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer);
    socklen_t length = sizeof buffer;
    if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, &length) == 0 && buffer < receive_buffer_bytes)
        fprintf(stderr, "nfqdelay: receive buffer is only %d bytes; bulk flows may overrun it\n", buffer);

    int timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (timer_fd < 0) {
        perror("nfqdelay: timerfd_create");
        return 1;
    }

    fprintf(stderr, "nfqdelay: queue %u, delay %g ms, jitter %g ms, loss %g %%, %s, for %g s\n",
            delayer.options.queue, delayer.options.delay_ms, delayer.options.jitter_ms,
            delayer.options.loss_percent, delayer.options.keeps_order ? "in order" : "may reorder",
            delayer.options.max_seconds);

    const uint64_t deadline_ns = monotonic_ns() + (uint64_t)llround(delayer.options.max_seconds * 1e9);
    static char message[1 << 16] __attribute__((aligned));
    uint64_t armed_ns = 0;
    status = 0;
    while (!stop_requested && !delayer.out_of_memory) {
        uint64_t now_ns = monotonic_ns();
        if (now_ns >= deadline_ns) break;
        uint64_t next_ns = release_due(&delayer, now_ns);
        if (next_ns != armed_ns) {
            set_timer(timer_fd, next_ns);
            armed_ns = next_ns;
        }
        uint64_t left_ms = (deadline_ns - now_ns + 999999) / 1000000;
        struct pollfd ready[2] = {{.fd = fd, .events = POLLIN}, {.fd = timer_fd, .events = POLLIN}};
        int woken = poll(ready, 2, left_ms < 1000 ? (int)left_ms : 1000);
        if (woken < 0) {
            if (errno == EINTR) continue;
            perror("nfqdelay: poll");
            status = 1;
            break;
        }
        if (ready[1].revents & POLLIN) {
            uint64_t expirations;
            if (read(timer_fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN) perror("nfqdelay: timer");
            armed_ns = 0;
        }
        if (!(ready[0].revents & POLLIN)) continue;
        // Read what the kernel has queued, at most a batch, then go back to releasing.
        for (int batch = 0; batch < 256; batch++) {
            ssize_t received = recv(fd, message, sizeof message, MSG_DONTWAIT);
            if (received > 0) {
                nfq_handle_packet(handle, message, (int)received);
            } else if (received < 0 && errno == ENOBUFS) {
                delayer.counts.overruns++;
            } else {
                break;
            }
        }
    }

    while (delayer.held.count > 0) {
        struct held_packet packet = heap_pop(&delayer.held);
        nfq_set_verdict(delayer.queue, packet.id, NF_ACCEPT, 0, NULL);
        delayer.counts.released++;
    }
    if (delayer.out_of_memory) {
        fprintf(stderr, "nfqdelay: out of memory\n");
        status = 1;
    }
    fprintf(stderr, "nfqdelay: received=%lu dropped=%lu released=%lu peak_held=%zu overruns=%lu\n",
            delayer.counts.received, delayer.counts.dropped, delayer.counts.released,
            delayer.counts.peak_held, delayer.counts.overruns);
    free(delayer.held.items);
    close(timer_fd);
    nfq_destroy_queue(delayer.queue);
    nfq_close(handle);
    return status;
}
