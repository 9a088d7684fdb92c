#ifndef C_HEAP_STATISTICS_H
#define C_HEAP_STATISTICS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not yet had back: glibc's mallinfo2() `uordblks`
/// (chunks in use in every arena, headers included) plus `hblkhd` (chunks too large for an arena,
/// served by mmap). Swift's mallinfo2 is not imported by the Glibc module, hence this shim.
size_t heap_bytes_in_use(void);

#endif
