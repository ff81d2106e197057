// HeapTuning.h - backs the process heap with transparent huge pages.
//
// A parsed module is hundreds of thousands of small AST nodes (a 12 MB file
// needs about 150 MB of them). With 4 KiB pages, first touching that memory
// is 40,000 page faults, which on virtual machines cost more than the parse
// itself: 0.75 s against 0.2 s with 2 MiB pages. Debian's kernels give huge
// pages only to memory that asks for them (THP mode `madvise`), and glibc's
// malloc asks only when told (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a
// program cannot set for itself after it started). So the tool reserves a
// large stretch of the heap at once and advises it itself.
#pragma once

namespace ptxdvfs::tools {

/// Grows the main malloc arena by 256 MiB of address space (no memory is
/// committed until touched) and marks it MADV_HUGEPAGE. Harmless where THP
/// is off or unsupported. PTXDVFS_HUGE_PAGES=0 in the environment skips it.
/// Call once, early, from the main thread.
void backHeapWithHugePages();

} // namespace ptxdvfs::tools
