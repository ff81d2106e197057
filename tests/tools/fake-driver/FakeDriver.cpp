// FakeDriver.cpp - a stand-in for the NVIDIA driver's libcuda.so.1 and libnvidia-ml.so.1, so that
// `ptxdvfs collect` runs its real driver code (dlopen, dlsym, the calls and their arguments) on a
// machine without a GPU.
//
// One library serves both names (two symlinks to it): the dynamic loader maps one file once, so
// the clocks NVML locks are the clocks the fake kernels run at. It exports only the C ABI that
// cuda.h and nvml.h declare, with those headers' types spelled out.
//
// The GPU it pretends to be: 2 memory clocks (1000, 3000 MHz), core clocks 300-1500 MHz, 4
// multiprocessors, compute capability 8.0, running now at 3000/1500 MHz. A kernel named *compute* takes time in
// proportion to 1/core clock, any other kernel to 1/memory clock; power is 50 W + core/10.
//
// Environment:
//   FAKE_DRIVER_LOG=FILE           appends one line per clock change and kernel launch;
//   FAKE_DRIVER_FAIL=CALL          that call fails (e.g. cuLaunchKernel);
//   FAKE_DRIVER_LAUNCH_MS=N        each launch also takes N ms of real time;
//   FAKE_DRIVER_NO_ENERGY=1        no energy counter (a GPU before Volta);
//   FAKE_DRIVER_NO_LOCKED_CLOCKS=1 locked clocks not supported, application clocks are.
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kCudaSuccess = 0, kCudaInvalidValue = 1, kCudaNotFound = 500, kCudaLaunchFailed = 719;
constexpr int kNvmlSuccess = 0, kNvmlInvalidArgument = 2, kNvmlNotSupported = 3,
              kNvmlInsufficientSize = 7, kNvmlUnknown = 999;
constexpr int kMultiprocessors = 4;
const char *const kBusId = "00000000:17:00.0";

struct FakeGpu {
  std::mutex mutex;
  unsigned memoryMHz = 3000, coreMHz = 1500;
  double nowMs = 0;           // the GPU's own clock, advanced by kernels
  double energyMilliJoules = 0;
  std::string module;         // the PTX text loaded
  std::map<unsigned long long, unsigned long long> allocations; // address -> bytes
  unsigned long long nextAddress = 0x10000000;
  std::set<std::string> functions;
  double pendingKernelMs = 0; // the launch since the last event
};

FakeGpu &gpu() {
  static FakeGpu instance;
  return instance;
}

const std::map<unsigned, std::vector<unsigned>> &clockTable() {
  static const std::map<unsigned, std::vector<unsigned>> table{
      {1000, {300, 600, 900}}, {3000, {300, 600, 900, 1200, 1500}}};
  return table;
}

bool enabled(const char *variable) {
  const char *value = std::getenv(variable);
  return value && std::strcmp(value, "1") == 0;
}

bool failing(const char *call) {
  const char *value = std::getenv("FAKE_DRIVER_FAIL");
  return value && std::strcmp(value, call) == 0;
}

void log(const char *format, ...) {
  const char *path = std::getenv("FAKE_DRIVER_LOG");
  if (!path)
    return;
  FILE *file = std::fopen(path, "a");
  if (!file)
    return;
  va_list arguments;
  va_start(arguments, format);
  std::vfprintf(file, format, arguments);
  va_end(arguments);
  std::fputc('\n', file);
  std::fclose(file);
}

bool supported(unsigned memoryMHz, unsigned coreMHz) {
  auto found = clockTable().find(memoryMHz);
  if (found == clockTable().end())
    return false;
  for (unsigned core : found->second)
    if (core == coreMHz)
      return true;
  return false;
}

int fillList(const std::vector<unsigned> &values, unsigned *count, unsigned *out) {
  if (*count < values.size()) {
    *count = static_cast<unsigned>(values.size());
    return kNvmlInsufficientSize;
  }
  *count = static_cast<unsigned>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    out[i] = values[i];
  return kNvmlSuccess;
}

} // namespace

extern "C" {

// --- CUDA driver API -------------------------------------------------------------------------
int cuInit(unsigned flags) { return failing("cuInit") ? 100 : flags == 0 ? kCudaSuccess : kCudaInvalidValue; }
int cuDeviceGet(int *device, int ordinal) {
  if (ordinal != 0)
    return 101; // CUDA_ERROR_INVALID_DEVICE
  *device = 0;
  return kCudaSuccess;
}
int cuDeviceGetName(char *name, int length, int) {
  std::snprintf(name, static_cast<std::size_t>(length), "Fake GPU 4SM");
  return kCudaSuccess;
}
int cuDeviceGetPCIBusId(char *busId, int length, int) {
  std::snprintf(busId, static_cast<std::size_t>(length), "%s", kBusId);
  return kCudaSuccess;
}
int cuDeviceGetAttribute(int *value, int attribute, int) {
  switch (attribute) {
  case 16: *value = kMultiprocessors; return kCudaSuccess; // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  case 75: *value = 8; return kCudaSuccess;                // ..._COMPUTE_CAPABILITY_MAJOR
  case 76: *value = 0; return kCudaSuccess;                // ..._COMPUTE_CAPABILITY_MINOR
  default: return kCudaInvalidValue;
  }
}
int cuDevicePrimaryCtxRetain(void **context, int) {
  static int primary;
  *context = &primary;
  return kCudaSuccess;
}
int cuDevicePrimaryCtxRelease_v2(int) { return kCudaSuccess; }
int cuCtxSetCurrent(void *context) { return context ? kCudaSuccess : kCudaInvalidValue; }
int cuModuleLoadData(void **module, const void *image) {
  std::lock_guard lock(gpu().mutex);
  gpu().module = static_cast<const char *>(image);
  if (gpu().module.find(".entry") == std::string::npos)
    return 218; // CUDA_ERROR_INVALID_PTX
  *module = &gpu().module;
  return kCudaSuccess;
}
int cuModuleGetFunction(void **function, void *module, const char *name) {
  std::lock_guard lock(gpu().mutex);
  if (module != &gpu().module)
    return kCudaInvalidValue;
  std::string entry = ".entry " + std::string(name) + "(";
  if (gpu().module.find(entry) == std::string::npos)
    return kCudaNotFound;
  *function = const_cast<char *>(gpu().functions.insert(name).first->c_str());
  return kCudaSuccess;
}
int cuMemAlloc_v2(unsigned long long *address, std::size_t bytes) {
  std::lock_guard lock(gpu().mutex);
  *address = gpu().nextAddress;
  gpu().allocations[*address] = bytes;
  gpu().nextAddress += (bytes + 0xffff) & ~0xffffULL;
  return kCudaSuccess;
}
int cuMemFree_v2(unsigned long long address) {
  std::lock_guard lock(gpu().mutex);
  return gpu().allocations.erase(address) ? kCudaSuccess : kCudaInvalidValue;
}
int cuMemcpyHtoD_v2(unsigned long long destination, const void *, std::size_t bytes) {
  std::lock_guard lock(gpu().mutex);
  for (auto [address, size] : gpu().allocations)
    if (destination >= address && destination + bytes <= address + size)
      return kCudaSuccess;
  return kCudaInvalidValue;
}
int cuLaunchKernel(void *function, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                   unsigned blockY, unsigned blockZ, unsigned sharedBytes, void *, void **parameters,
                   void **extra) {
  std::lock_guard lock(gpu().mutex);
  if (failing("cuLaunchKernel"))
    return kCudaLaunchFailed;
  if (!function || !parameters || extra || gridY != 1 || gridZ != 1 || blockY != 1 || blockZ != 1 ||
      sharedBytes != 0 || blockX == 0 || blockX > 1024 || gridX == 0)
    return kCudaInvalidValue;
  // The suite's signature: (void *out, const void *in, unsigned long long bytes, int repeats).
  auto out = *static_cast<unsigned long long *>(parameters[0]);
  auto in = *static_cast<unsigned long long *>(parameters[1]);
  auto bytes = *static_cast<unsigned long long *>(parameters[2]);
  int repeats = *static_cast<int *>(parameters[3]);
  auto &allocations = gpu().allocations;
  if (!allocations.count(out) || !allocations.count(in) || allocations[out] < bytes ||
      allocations[in] < bytes || repeats < 1)
    return kCudaInvalidValue;
  std::string name = static_cast<const char *>(function);
  bool compute = name.find("compute") != std::string::npos;
  double msPerRepeat = compute ? 1500.0 / gpu().coreMHz * 1e-3 : 3000.0 / gpu().memoryMHz * 1e-3;
  gpu().pendingKernelMs = msPerRepeat * repeats;
  gpu().energyMilliJoules += (50.0 + gpu().coreMHz / 10.0) * gpu().pendingKernelMs;
  if (const char *wait = std::getenv("FAKE_DRIVER_LAUNCH_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(wait)));
  log("launch %s grid=%u block=%u bytes=%llu repeats=%d at %u/%u", name.c_str(), gridX, blockX, bytes,
      repeats, gpu().memoryMHz, gpu().coreMHz);
  return kCudaSuccess;
}
int cuEventCreate(void **event, unsigned) {
  *event = new double(0);
  return kCudaSuccess;
}
int cuEventDestroy_v2(void *event) {
  delete static_cast<double *>(event);
  log("destroy event");
  return kCudaSuccess;
}
int cuModuleUnload(void *module) {
  std::lock_guard lock(gpu().mutex);
  if (module != &gpu().module)
    return kCudaInvalidValue;
  gpu().module.clear();
  log("unload module");
  return kCudaSuccess;
}
int cuEventRecord(void *event, void *) {
  std::lock_guard lock(gpu().mutex);
  gpu().nowMs += gpu().pendingKernelMs;
  gpu().pendingKernelMs = 0;
  *static_cast<double *>(event) = gpu().nowMs;
  return kCudaSuccess;
}
int cuEventSynchronize(void *event) { return event ? kCudaSuccess : kCudaInvalidValue; }
int cuEventElapsedTime_v2(float *milliseconds, void *start, void *end) {
  *milliseconds = static_cast<float>(*static_cast<double *>(end) - *static_cast<double *>(start));
  return kCudaSuccess;
}
int cuGetErrorString(int error, const char **text) {
  static thread_local std::string message;
  message = "fake CUDA error " + std::to_string(error);
  *text = message.c_str();
  return kCudaSuccess;
}

// --- NVML ------------------------------------------------------------------------------------
int nvmlInit_v2() { return failing("nvmlInit") ? kNvmlUnknown : kNvmlSuccess; }
int nvmlShutdown() { return kNvmlSuccess; }
int nvmlDeviceGetHandleByPciBusId_v2(const char *busId, void **device) {
  if (std::strcmp(busId, kBusId) != 0)
    return kNvmlInvalidArgument;
  *device = &gpu();
  return kNvmlSuccess;
}
int nvmlDeviceGetSupportedMemoryClocks(void *, unsigned *count, unsigned *clocks) {
  std::vector<unsigned> memory;
  for (auto &[fmem, cores] : clockTable())
    memory.push_back(fmem);
  return fillList(memory, count, clocks);
}
int nvmlDeviceGetSupportedGraphicsClocks(void *, unsigned memoryMHz, unsigned *count, unsigned *clocks) {
  auto found = clockTable().find(memoryMHz);
  if (found == clockTable().end())
    return kNvmlInvalidArgument;
  // NVML lists them highest first.
  return fillList(std::vector<unsigned>(found->second.rbegin(), found->second.rend()), count, clocks);
}
int nvmlDeviceGetClockInfo(void *, int type, unsigned *clock) {
  std::lock_guard lock(gpu().mutex);
  *clock = type == 2 ? gpu().memoryMHz : gpu().coreMHz;
  return kNvmlSuccess;
}
int nvmlDeviceGetDefaultApplicationsClock(void *, int type, unsigned *clock) {
  *clock = type == 2 ? 3000 : 1200;
  return kNvmlSuccess;
}
int nvmlDeviceSetGpuLockedClocks(void *, unsigned low, unsigned high) {
  if (enabled("FAKE_DRIVER_NO_LOCKED_CLOCKS"))
    return kNvmlNotSupported;
  std::lock_guard lock(gpu().mutex);
  if (low != high || !supported(gpu().memoryMHz, low))
    return kNvmlInvalidArgument;
  gpu().coreMHz = low;
  log("lock core %u", low);
  return kNvmlSuccess;
}
int nvmlDeviceSetMemoryLockedClocks(void *, unsigned low, unsigned high) {
  if (enabled("FAKE_DRIVER_NO_LOCKED_CLOCKS"))
    return kNvmlNotSupported;
  std::lock_guard lock(gpu().mutex);
  if (low != high || !clockTable().count(low))
    return kNvmlInvalidArgument;
  gpu().memoryMHz = low;
  log("lock memory %u", low);
  return kNvmlSuccess;
}
int nvmlDeviceSetApplicationsClocks(void *, unsigned memoryMHz, unsigned coreMHz) {
  std::lock_guard lock(gpu().mutex);
  if (!supported(memoryMHz, coreMHz))
    return kNvmlInvalidArgument;
  gpu().memoryMHz = memoryMHz;
  gpu().coreMHz = coreMHz;
  log("application clocks %u/%u", memoryMHz, coreMHz);
  return kNvmlSuccess;
}
int nvmlDeviceResetGpuLockedClocks(void *) {
  log("reset core");
  std::lock_guard lock(gpu().mutex);
  gpu().coreMHz = 1500;
  return kNvmlSuccess;
}
int nvmlDeviceResetMemoryLockedClocks(void *) {
  log("reset memory");
  std::lock_guard lock(gpu().mutex);
  gpu().memoryMHz = 3000;
  return kNvmlSuccess;
}
int nvmlDeviceResetApplicationsClocks(void *) {
  log("reset application clocks");
  std::lock_guard lock(gpu().mutex);
  gpu().memoryMHz = 3000;
  gpu().coreMHz = 1500;
  return kNvmlSuccess;
}
int nvmlDeviceGetTotalEnergyConsumption(void *, unsigned long long *milliJoules) {
  if (enabled("FAKE_DRIVER_NO_ENERGY"))
    return kNvmlNotSupported;
  std::lock_guard lock(gpu().mutex);
  *milliJoules = static_cast<unsigned long long>(gpu().energyMilliJoules);
  return kNvmlSuccess;
}
int nvmlDeviceGetPowerUsage(void *, unsigned *milliWatts) {
  std::lock_guard lock(gpu().mutex);
  *milliWatts = 50000 + gpu().coreMHz * 100;
  return kNvmlSuccess;
}
const char *nvmlErrorString(int result) {
  switch (result) {
  case kNvmlNotSupported: return "Not Supported";
  case kNvmlInvalidArgument: return "Invalid Argument";
  default: return "Unknown Error";
  }
}

} // extern "C"
