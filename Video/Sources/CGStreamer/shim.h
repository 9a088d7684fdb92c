// GStreamer for Swift, for the VideoBackend module. Swift imports neither function-like and cast
// macros (GST_SECOND, GST_MESSAGE_SRC, G_OBJECT) nor variadic functions (g_object_set), so the
// few the module needs get plain inline forms here.
#ifndef CGSTREAMER_SHIM_H
#define CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/video/videooverlay.h>

static const GstClockTime CGSTREAMER_CLOCK_TIME_NONE = GST_CLOCK_TIME_NONE;

static inline void cgstreamer_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

/// Sets an object-valued property; the object takes a floating reference as its own.
static inline void cgstreamer_set_object(gpointer object, const char *property, gpointer value) {
    g_object_set(object, property, value, NULL);
}

static inline void cgstreamer_set_bool(gpointer object, const char *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}

/// What a fakesink's "handoff" signal calls: the sink, the buffer it renders now, its sink pad.
typedef void (*cgstreamer_handoff_callback)(GstElement *sink, GstBuffer *buffer, GstPad *pad, gpointer data);

/// Connects `callback` to a fakesink's "handoff" signal; `notify` releases `data` with the sink.
static inline gulong cgstreamer_connect_handoff(gpointer sink, cgstreamer_handoff_callback callback, gpointer data, GClosureNotify notify) {
    return g_signal_connect_data(sink, "handoff", G_CALLBACK(callback), data, notify, (GConnectFlags)0);
}

/// An element (playbin3 implements it, handing it to its video sink) as the GstVideoOverlay
/// interface: GST_VIDEO_OVERLAY is a cast macro.
static inline GstVideoOverlay *cgstreamer_video_overlay(gpointer element) {
    return GST_VIDEO_OVERLAY(element);
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

/// The name of the application message a pipeline posts on its own bus just before a seek, so
/// that the bus thread knows which ASYNC_DONE is the seek's: the bus is first in, first out.
#define CGSTREAMER_SEEK_MARKER "interlude-seek"

/// Posts the seek marker with `seqnum` as its sequence number.
static inline gboolean cgstreamer_post_seek_marker(GstElement *pipeline, guint32 seqnum) {
    GstMessage *message = gst_message_new_application(GST_OBJECT(pipeline), gst_structure_new_empty(CGSTREAMER_SEEK_MARKER));
    gst_message_set_seqnum(message, seqnum);
    return gst_element_post_message(pipeline, message);
}

static inline gboolean cgstreamer_is_seek_marker(GstMessage *message) {
    if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_APPLICATION) return FALSE;
    const GstStructure *structure = gst_message_get_structure(message);
    return structure != NULL && gst_structure_has_name(structure, CGSTREAMER_SEEK_MARKER);
}

#endif
