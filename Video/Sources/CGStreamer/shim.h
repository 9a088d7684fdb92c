// GStreamer for Swift, for the VideoBackend module. Swift imports neither function-like and cast
// macros (GST_SECOND, GST_MESSAGE_SRC, G_OBJECT) nor variadic functions (g_object_set), so the
// few the module needs get plain inline forms here.
#ifndef CGSTREAMER_SHIM_H
#define CGSTREAMER_SHIM_H
#include <gst/gst.h>

static const GstClockTime CGSTREAMER_CLOCK_TIME_NONE = GST_CLOCK_TIME_NONE;

static inline void cgstreamer_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/// Sets an object-valued property; the object takes a floating reference as its own.
static inline void cgstreamer_set_object(gpointer object, const char *property, gpointer value) {
    g_object_set(object, property, value, NULL);
}

static inline GstObject *cgstreamer_message_source(GstMessage *message) {
    return GST_MESSAGE_SRC(message);
}

static inline const gchar *cgstreamer_message_source_name(GstMessage *message) {
    return GST_MESSAGE_SRC_NAME(message);
}

static inline GstMessageType cgstreamer_message_type(GstMessage *message) {
    return GST_MESSAGE_TYPE(message);
}

/// A GstBusFunc as the GSourceFunc that g_source_set_callback takes (C makes the same cast).
static inline void cgstreamer_set_bus_callback(GSource *source, GstBusFunc callback, gpointer data, GDestroyNotify notify) {
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))callback, data, notify);
}

#endif
