// sd-bus (libsystemd) for Swift, for the MPRIS module. Swift cannot use the SD_BUS_* vtable macros
// (designated initialisers of a union) or call the variadic functions, so the two MPRIS vtables
// are built here, pointing at one method handler, one getter and one setter each, and the
// variadic calls the module needs get fixed-argument wrappers.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <systemd/sd-bus.h>

#define INTERLUDE_MPRIS_OBJECT_PATH "/org/mpris/MediaPlayer2"
#define INTERLUDE_MPRIS_ROOT_INTERFACE "org.mpris.MediaPlayer2"
#define INTERLUDE_MPRIS_PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"

// A property clients are told about with PropertiesChanged.
#define INTERLUDE_RO(name, signature, get) \
    SD_BUS_PROPERTY(name, signature, get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
#define INTERLUDE_RW(name, signature, get, set) \
    SD_BUS_WRITABLE_PROPERTY(name, signature, get, set, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

/// A copy of `table` on the heap: sd-bus keeps the pointer for as long as the object is
/// registered. Free it with `free` once the bus is closed.
static inline sd_bus_vtable *interlude_copy_vtable(const sd_bus_vtable *table, size_t size) {
    sd_bus_vtable *copy = malloc(size);
    if (copy != NULL) memcpy(copy, table, size);
    return copy;
}

/// `org.mpris.MediaPlayer2`: every method goes to `method`, every property to `get`.
static inline sd_bus_vtable *interlude_mpris_root_vtable(sd_bus_message_handler_t method, sd_bus_property_get_t get) {
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Raise", "", "", method, 0),
        SD_BUS_METHOD("Quit", "", "", method, 0),
        SD_BUS_PROPERTY("CanQuit", "b", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("CanRaise", "b", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("HasTrackList", "b", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Identity", "s", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("SupportedUriSchemes", "as", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("SupportedMimeTypes", "as", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_VTABLE_END
    };
    return interlude_copy_vtable(table, sizeof table);
}

/// `org.mpris.MediaPlayer2.Player`: every method goes to `method`, every property to `get`, Rate
/// is set through `set`. Position never emits PropertiesChanged (the spec: clients extrapolate it
/// from Rate and are told of jumps by Seeked); Volume is read-only (the player has no output).
static inline sd_bus_vtable *interlude_mpris_player_vtable(sd_bus_message_handler_t method, sd_bus_property_get_t get,
                                                           sd_bus_property_set_t set) {
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Next", "", "", method, 0),
        SD_BUS_METHOD("Previous", "", "", method, 0),
        SD_BUS_METHOD("Pause", "", "", method, 0),
        SD_BUS_METHOD("PlayPause", "", "", method, 0),
        SD_BUS_METHOD("Stop", "", "", method, 0),
        SD_BUS_METHOD("Play", "", "", method, 0),
        SD_BUS_METHOD("Seek", "x", "", method, 0),
        SD_BUS_METHOD("SetPosition", "ox", "", method, 0),
        SD_BUS_METHOD("OpenUri", "s", "", method, 0),
        SD_BUS_SIGNAL("Seeked", "x", 0),
        INTERLUDE_RO("PlaybackStatus", "s", get),
        INTERLUDE_RW("Rate", "d", get, set),
        INTERLUDE_RO("Metadata", "a{sv}", get),
        SD_BUS_PROPERTY("Volume", "d", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("Position", "x", get, 0, 0),
        SD_BUS_PROPERTY("MinimumRate", "d", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_PROPERTY("MaximumRate", "d", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        INTERLUDE_RO("CanGoNext", "b", get),
        INTERLUDE_RO("CanGoPrevious", "b", get),
        INTERLUDE_RO("CanPlay", "b", get),
        INTERLUDE_RO("CanPause", "b", get),
        INTERLUDE_RO("CanSeek", "b", get),
        SD_BUS_PROPERTY("CanControl", "b", get, 0, SD_BUS_VTABLE_PROPERTY_CONST),
        SD_BUS_VTABLE_END
    };
    return interlude_copy_vtable(table, sizeof table);
}

/// An empty method return (`sd_bus_reply_method_return` is variadic).
static inline int interlude_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}

/// The `Seeked` signal with the new position in microseconds.
static inline int interlude_emit_seeked(sd_bus *bus, int64_t position) {
    return sd_bus_emit_signal(bus, INTERLUDE_MPRIS_OBJECT_PATH, INTERLUDE_MPRIS_PLAYER_INTERFACE, "Seeked", "x", position);
}

/// An eventfd that wakes the bus thread from `poll` (Glibc's module does not export eventfd).
static inline int interlude_make_wake_descriptor(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
