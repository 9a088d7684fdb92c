// Xlib for Swift, for the VideoWindow module: the plain function forms (XDefaultScreen,
// XRootWindow, …) import as they are; nothing else is needed.
#ifndef CX11_SHIM_H
#define CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#endif
