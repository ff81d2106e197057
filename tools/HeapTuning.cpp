// HeapTuning.cpp - one madvise over a pre-grown heap.
#include "HeapTuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptxdvfs::tools {

void backHeapWithHugePages() {
  if (const char *setting = std::getenv("PTXDVFS_HUGE_PAGES"); setting && std::strcmp(setting, "0") == 0)
    return;
  constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
  constexpr int kReserve = 256 << 20;
  // Keep the heap in one advised stretch: allocations up to 64 MiB come
  // from it (not from separate mmaps), it grows 256 MiB at a time, and
  // freed memory at its top is kept for reuse instead of trimmed.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, kReserve);
  auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
  // volatile: the compiler may not drop the malloc/free pair that grows the heap.
  void *volatile probe = std::malloc(std::size_t(1) << 20);
  auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(probe);
  std::uintptr_t start = (before + kHugePage - 1) & ~(kHugePage - 1);
  if (after > start)
    madvise(reinterpret_cast<void *>(start), after - start, MADV_HUGEPAGE);
}

} // namespace ptxdvfs::tools
