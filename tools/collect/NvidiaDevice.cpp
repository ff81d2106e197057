// NvidiaDevice.cpp - the few CUDA driver and NVML calls collect makes, resolved with dlsym.
//
// The prototypes below are the stable C ABI of cuda.h and nvml.h; their headers are not
// needed to build (they are not in Debian), only the driver's libraries to run.
#include "NvidiaDevice.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <utility>
#include <vector>

namespace ptxdvfs::tools::collect {

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx *;
using CUmodule = struct CUmod *;
using CUfunction = struct CUfunc *;
using CUevent = struct CUevt *;
using CUstream = struct CUstr *;
constexpr int kMultiprocessorCount = 16; // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDev *;
constexpr int kNvmlClockGraphics = 0, kNvmlClockMemory = 2;
constexpr nvmlReturn_t kNvmlSuccess = 0, kNvmlNotSupported = 3, kNvmlNoPermission = 4;

/// The library handle and its functions; dlclose'd at the end.
class Library {
public:
  Library(const char *name) : handle_(dlopen(name, RTLD_NOW | RTLD_LOCAL)), name_(name) {}
  ~Library() {
    if (handle_)
      dlclose(handle_);
  }
  Library(const Library &) = delete;
  Library &operator=(const Library &) = delete;
  bool loaded() const { return handle_ != nullptr; }
  /// The first of `names` the library exports (newer ABI versions first).
  template <typename Function> Function get(std::initializer_list<const char *> names) const {
    if (auto function = find<Function>(names))
      return function;
    throw DeviceError(std::string(name_) + " has no " + *names.begin());
  }
  /// The same, or null where this driver version has none of them.
  template <typename Function> Function find(std::initializer_list<const char *> names) const {
    for (const char *symbol : names)
      if (void *address = dlsym(handle_, symbol))
        return reinterpret_cast<Function>(address);
    return nullptr;
  }

private:
  void *handle_;
  const char *name_;
};

struct Cuda {
  explicit Cuda(const Library &lib)
      : init(lib.get<CUresult (*)(unsigned)>({"cuInit"})),
        deviceGet(lib.get<CUresult (*)(CUdevice *, int)>({"cuDeviceGet"})),
        deviceName(lib.get<CUresult (*)(char *, int, CUdevice)>({"cuDeviceGetName"})),
        busId(lib.get<CUresult (*)(char *, int, CUdevice)>({"cuDeviceGetPCIBusId"})),
        attribute(lib.get<CUresult (*)(int *, int, CUdevice)>({"cuDeviceGetAttribute"})),
        retainContext(lib.get<CUresult (*)(CUcontext *, CUdevice)>({"cuDevicePrimaryCtxRetain"})),
        releaseContext(lib.get<CUresult (*)(CUdevice)>({"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"})),
        setCurrent(lib.get<CUresult (*)(CUcontext)>({"cuCtxSetCurrent"})),
        loadData(lib.get<CUresult (*)(CUmodule *, const void *)>({"cuModuleLoadData"})),
        getFunction(lib.get<CUresult (*)(CUfunction *, CUmodule, const char *)>({"cuModuleGetFunction"})),
        alloc(lib.get<CUresult (*)(CUdeviceptr *, size_t)>({"cuMemAlloc_v2"})),
        free(lib.get<CUresult (*)(CUdeviceptr)>({"cuMemFree_v2"})),
        copyToDevice(lib.get<CUresult (*)(CUdeviceptr, const void *, size_t)>({"cuMemcpyHtoD_v2"})),
        launch(lib.get<CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    unsigned, CUstream, void **, void **)>({"cuLaunchKernel"})),
        unloadModule(lib.get<CUresult (*)(CUmodule)>({"cuModuleUnload"})),
        eventCreate(lib.get<CUresult (*)(CUevent *, unsigned)>({"cuEventCreate"})),
        eventDestroy(lib.get<CUresult (*)(CUevent)>({"cuEventDestroy_v2"})),
        eventRecord(lib.get<CUresult (*)(CUevent, CUstream)>({"cuEventRecord"})),
        eventSynchronize(lib.get<CUresult (*)(CUevent)>({"cuEventSynchronize"})),
        eventElapsed(lib.get<CUresult (*)(float *, CUevent, CUevent)>({"cuEventElapsedTime_v2", "cuEventElapsedTime"})),
        errorString(lib.get<CUresult (*)(CUresult, const char **)>({"cuGetErrorString"})) {}

  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceName)(char *, int, CUdevice);
  CUresult (*busId)(char *, int, CUdevice);
  CUresult (*attribute)(int *, int, CUdevice);
  CUresult (*retainContext)(CUcontext *, CUdevice);
  CUresult (*releaseContext)(CUdevice);
  CUresult (*setCurrent)(CUcontext);
  CUresult (*loadData)(CUmodule *, const void *);
  CUresult (*getFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*alloc)(CUdeviceptr *, size_t);
  CUresult (*free)(CUdeviceptr);
  CUresult (*copyToDevice)(CUdeviceptr, const void *, size_t);
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                     CUstream, void **, void **);
  CUresult (*unloadModule)(CUmodule);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsed)(float *, CUevent, CUevent);
  CUresult (*errorString)(CUresult, const char **);

  void check(CUresult result, const char *call) const {
    if (result == 0)
      return;
    const char *text = nullptr;
    errorString(result, &text);
    throw DeviceError(std::string(call) + ": " + (text ? text : "CUDA error " + std::to_string(result)));
  }
};

struct Nvml {
  explicit Nvml(const Library &lib)
      : init(lib.get<nvmlReturn_t (*)()>({"nvmlInit_v2", "nvmlInit"})),
        shutdown(lib.get<nvmlReturn_t (*)()>({"nvmlShutdown"})),
        byBusId(lib.get<nvmlReturn_t (*)(const char *, nvmlDevice_t *)>({"nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"})),
        memoryClocks(lib.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned *, unsigned *)>({"nvmlDeviceGetSupportedMemoryClocks"})),
        coreClocks(lib.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned *, unsigned *)>({"nvmlDeviceGetSupportedGraphicsClocks"})),
        clockInfo(lib.get<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned *)>({"nvmlDeviceGetClockInfo"})),
        defaultClock(lib.get<nvmlReturn_t (*)(nvmlDevice_t, int, unsigned *)>({"nvmlDeviceGetDefaultApplicationsClock"})),
        lockCore(lib.find<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned)>({"nvmlDeviceSetGpuLockedClocks"})),
        resetCore(lib.find<nvmlReturn_t (*)(nvmlDevice_t)>({"nvmlDeviceResetGpuLockedClocks"})),
        lockMemory(lib.find<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned)>({"nvmlDeviceSetMemoryLockedClocks"})),
        resetMemory(lib.find<nvmlReturn_t (*)(nvmlDevice_t)>({"nvmlDeviceResetMemoryLockedClocks"})),
        setApplicationClocks(lib.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned, unsigned)>({"nvmlDeviceSetApplicationsClocks"})),
        resetApplicationClocks(lib.get<nvmlReturn_t (*)(nvmlDevice_t)>({"nvmlDeviceResetApplicationsClocks"})),
        energy(lib.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned long long *)>({"nvmlDeviceGetTotalEnergyConsumption"})),
        power(lib.get<nvmlReturn_t (*)(nvmlDevice_t, unsigned *)>({"nvmlDeviceGetPowerUsage"})),
        errorString(lib.get<const char *(*)(nvmlReturn_t)>({"nvmlErrorString"})) {}

  nvmlReturn_t (*init)();
  nvmlReturn_t (*shutdown)();
  nvmlReturn_t (*byBusId)(const char *, nvmlDevice_t *);
  nvmlReturn_t (*memoryClocks)(nvmlDevice_t, unsigned *, unsigned *);
  nvmlReturn_t (*coreClocks)(nvmlDevice_t, unsigned, unsigned *, unsigned *);
  nvmlReturn_t (*clockInfo)(nvmlDevice_t, int, unsigned *);
  nvmlReturn_t (*defaultClock)(nvmlDevice_t, int, unsigned *);
  nvmlReturn_t (*lockCore)(nvmlDevice_t, unsigned, unsigned);
  nvmlReturn_t (*resetCore)(nvmlDevice_t);
  nvmlReturn_t (*lockMemory)(nvmlDevice_t, unsigned, unsigned);
  nvmlReturn_t (*resetMemory)(nvmlDevice_t);
  nvmlReturn_t (*setApplicationClocks)(nvmlDevice_t, unsigned, unsigned);
  nvmlReturn_t (*resetApplicationClocks)(nvmlDevice_t);
  nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long *);
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned *);
  const char *(*errorString)(nvmlReturn_t);

  void check(nvmlReturn_t result, const char *call) const {
    if (result == kNvmlNoPermission)
      throw DeviceError(std::string(call) + ": " + errorString(result) +
                        " (changing clocks needs root; --current-clocks measures without changing them)");
    if (result != kNvmlSuccess)
      throw DeviceError(std::string(call) + ": " + errorString(result));
  }
};

class NvidiaDevice final : public GpuDevice {
public:
  NvidiaDevice(std::unique_ptr<Library> cudaLibrary, std::unique_ptr<Library> nvmlLibrary, int ordinal)
      : cudaLibrary_(std::move(cudaLibrary)), nvmlLibrary_(std::move(nvmlLibrary)),
        cuda_(*cudaLibrary_), nvml_(*nvmlLibrary_) {
    cuda_.check(cuda_.init(0), "cuInit");
    cuda_.check(cuda_.deviceGet(&device_, ordinal), "cuDeviceGet");
    cuda_.check(cuda_.retainContext(&context_, device_), "cuDevicePrimaryCtxRetain");
    cuda_.check(cuda_.setCurrent(context_), "cuCtxSetCurrent");
    cuda_.check(cuda_.attribute(&multiprocessors_, kMultiprocessorCount, device_), "cuDeviceGetAttribute");
    char busId[64] = {};
    cuda_.check(cuda_.busId(busId, sizeof busId, device_), "cuDeviceGetPCIBusId");
    nvml_.check(nvml_.init(), "nvmlInit");
    nvml_.check(nvml_.byBusId(busId, &nvmlDevice_), "nvmlDeviceGetHandleByPciBusId");
    cuda_.check(cuda_.eventCreate(&start_, 0), "cuEventCreate");
    cuda_.check(cuda_.eventCreate(&stop_, 0), "cuEventCreate");
  }

  ~NvidiaDevice() override {
    if (module_)
      cuda_.unloadModule(module_);
    if (start_)
      cuda_.eventDestroy(start_);
    if (stop_)
      cuda_.eventDestroy(stop_);
    if (in_)
      cuda_.free(in_);
    if (out_)
      cuda_.free(out_);
    cuda_.releaseContext(device_);
    nvml_.shutdown();
  }

  std::string name() override {
    char text[256] = {};
    cuda_.check(cuda_.deviceName(text, sizeof text, device_), "cuDeviceGetName");
    return text;
  }

  unsigned computeCapability() override {
    int major = 0, minor = 0;
    cuda_.check(cuda_.attribute(&major, kComputeCapabilityMajor, device_), "cuDeviceGetAttribute");
    cuda_.check(cuda_.attribute(&minor, kComputeCapabilityMinor, device_), "cuDeviceGetAttribute");
    return static_cast<unsigned>(10 * major + minor);
  }

  embeddings::GpuClocks clockTable() override {
    embeddings::GpuClocks clocks;
    std::vector<unsigned> memory(64);
    unsigned count = static_cast<unsigned>(memory.size());
    nvml_.check(nvml_.memoryClocks(nvmlDevice_, &count, memory.data()), "nvmlDeviceGetSupportedMemoryClocks");
    memory.resize(count);
    std::sort(memory.begin(), memory.end());
    for (unsigned fmem : memory) {
      std::vector<unsigned> core(512);
      unsigned cores = static_cast<unsigned>(core.size());
      nvml_.check(nvml_.coreClocks(nvmlDevice_, fmem, &cores, core.data()),
                  "nvmlDeviceGetSupportedGraphicsClocks");
      core.resize(cores);
      std::sort(core.begin(), core.end());
      core.erase(std::unique(core.begin(), core.end()), core.end());
      if (!core.empty()) {
        clocks.memoryMHz.push_back(fmem);
        clocks.coreMHz[fmem] = core;
      }
    }
    if (clocks.memoryMHz.empty())
      throw DeviceError("nvmlDeviceGetSupportedMemoryClocks: no clocks reported");
    unsigned defaultMemory = 0, defaultCore = 0;
    if (nvml_.defaultClock(nvmlDevice_, kNvmlClockMemory, &defaultMemory) != kNvmlSuccess ||
        nvml_.defaultClock(nvmlDevice_, kNvmlClockGraphics, &defaultCore) != kNvmlSuccess ||
        !clocks.coreMHz.count(defaultMemory)) {
      defaultMemory = clocks.memoryMHz.back();
      defaultCore = clocks.coreMHz[defaultMemory].back();
    }
    clocks.defaultPoint = {defaultMemory, nearest(clocks.coreMHz[defaultMemory], defaultCore)};
    clocks.fmax = {clocks.memoryMHz.back(), clocks.coreMHz[clocks.memoryMHz.back()].back()};
    return clocks;
  }

  embeddings::VfPoint currentClocks() override {
    unsigned memory = 0, core = 0;
    nvml_.check(nvml_.clockInfo(nvmlDevice_, kNvmlClockMemory, &memory), "nvmlDeviceGetClockInfo");
    nvml_.check(nvml_.clockInfo(nvmlDevice_, kNvmlClockGraphics, &core), "nvmlDeviceGetClockInfo");
    return {memory, core};
  }

  // Locked clocks where the GPU has them (memory locks: Ampere and newer); else application
  // clocks, the older interface (the only one of the GTX Titan X the paper measured).
  void lockClocks(embeddings::VfPoint point) override {
    bool locks = nvml_.lockMemory && nvml_.lockCore && nvml_.resetMemory && nvml_.resetCore;
    nvmlReturn_t memory =
        locks ? nvml_.lockMemory(nvmlDevice_, point.memoryMHz, point.memoryMHz) : kNvmlNotSupported;
    if (memory == kNvmlNotSupported) {
      applicationClocksSet_ = true;
      nvml_.check(nvml_.setApplicationClocks(nvmlDevice_, point.memoryMHz, point.coreMHz),
                  "nvmlDeviceSetApplicationsClocks");
    } else {
      lockedClocksSet_ = true;
      nvml_.check(memory, "nvmlDeviceSetMemoryLockedClocks");
      nvml_.check(nvml_.lockCore(nvmlDevice_, point.coreMHz, point.coreMHz), "nvmlDeviceSetGpuLockedClocks");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // let the clocks settle
  }

  void resetClocks() noexcept override {
    if (lockedClocksSet_) {
      nvml_.resetCore(nvmlDevice_);
      nvml_.resetMemory(nvmlDevice_);
    }
    if (applicationClocksSet_)
      nvml_.resetApplicationClocks(nvmlDevice_);
    lockedClocksSet_ = applicationClocksSet_ = false;
  }

  void loadModule(const std::string &ptx) override {
    if (module_)
      cuda_.unloadModule(std::exchange(module_, nullptr));
    cuda_.check(cuda_.loadData(&module_, ptx.c_str()), "cuModuleLoadData");
  }

  // Grid-stride kernels: 8 blocks of 256 threads per multiprocessor fill any GPU.
  LaunchShape launchShape() override { return {static_cast<unsigned>(multiprocessors_) * 8, 256}; }

  KernelRun run(const std::string &kernel, unsigned long long bytes, int repeats) override {
    prepareBuffers(bytes);
    CUfunction function = nullptr;
    cuda_.check(cuda_.getFunction(&function, module_, kernel.c_str()), "cuModuleGetFunction");
    void *arguments[] = {&out_, &in_, &bytes, &repeats};
    unsigned long long energyBefore = 0, energyAfter = 0;
    bool counter = nvml_.energy(nvmlDevice_, &energyBefore) == kNvmlSuccess;
    PowerSampler sampler(nvml_, nvmlDevice_, !counter);
    cuda_.check(cuda_.eventRecord(start_, nullptr), "cuEventRecord");
    const LaunchShape shape = launchShape();
    cuda_.check(cuda_.launch(function, shape.blocks, 1, 1, shape.threadsPerBlock, 1, 1, 0, nullptr, arguments,
                             nullptr),
                "cuLaunchKernel");
    cuda_.check(cuda_.eventRecord(stop_, nullptr), "cuEventRecord");
    cuda_.check(cuda_.eventSynchronize(stop_), "cuEventSynchronize");
    float milliseconds = 0;
    cuda_.check(cuda_.eventElapsed(&milliseconds, start_, stop_), "cuEventElapsedTime");
    KernelRun run;
    run.milliseconds = milliseconds;
    double watts = sampler.meanWatts();
    if (counter && nvml_.energy(nvmlDevice_, &energyAfter) == kNvmlSuccess && energyAfter > energyBefore) {
      run.joules = static_cast<double>(energyAfter - energyBefore) / 1000.0;
      return run;
    }
    // No counter, or a run shorter than its update interval: sampled power,
    // or at least one reading now.
    unsigned milliwatts = 0;
    if (watts == 0 && nvml_.power(nvmlDevice_, &milliwatts) == kNvmlSuccess)
      watts = milliwatts / 1000.0;
    run.joules = watts * milliseconds / 1000.0;
    return run;
  }

private:
  /// Power sampled every 5 ms in the background, where the GPU has no energy counter.
  class PowerSampler {
  public:
    PowerSampler(const Nvml &nvml, nvmlDevice_t device, bool active) : nvml_(nvml), device_(device) {
      if (active)
        thread_ = std::thread([this] {
          while (!done_) {
            unsigned milliwatts = 0;
            if (nvml_.power(device_, &milliwatts) == kNvmlSuccess) {
              sum_ += milliwatts / 1000.0;
              ++count_;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
        });
    }
    ~PowerSampler() { finish(); }
    double meanWatts() {
      finish();
      return count_ ? sum_ / static_cast<double>(count_) : 0;
    }

  private:
    void finish() {
      done_ = true;
      if (thread_.joinable())
        thread_.join();
    }
    const Nvml &nvml_;
    nvmlDevice_t device_;
    std::atomic<bool> done_{false};
    double sum_ = 0;
    std::size_t count_ = 0;
    std::thread thread_;
  };

  static unsigned nearest(const std::vector<unsigned> &clocks, unsigned wanted) {
    return *std::min_element(clocks.begin(), clocks.end(), [&](unsigned a, unsigned b) {
      return (a > wanted ? a - wanted : wanted - a) < (b > wanted ? b - wanted : wanted - b);
    });
  }

  /// Two buffers of `bytes`, the input filled with random floats in [0, 1).
  void prepareBuffers(unsigned long long bytes) {
    if (bytes == bufferBytes_)
      return;
    if (in_)
      cuda_.free(in_);
    if (out_)
      cuda_.free(out_);
    in_ = out_ = 0;
    cuda_.check(cuda_.alloc(&in_, bytes), "cuMemAlloc");
    cuda_.check(cuda_.alloc(&out_, bytes), "cuMemAlloc");
    std::vector<float> block(std::size_t(1) << 20);
    std::mt19937 random(16);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    for (float &value : block)
      value = uniform(random);
    std::size_t blockBytes = block.size() * sizeof(float);
    for (unsigned long long at = 0; at < bytes; at += blockBytes)
      cuda_.check(cuda_.copyToDevice(in_ + at, block.data(), std::min<unsigned long long>(blockBytes, bytes - at)),
                  "cuMemcpyHtoD");
    bufferBytes_ = bytes;
  }

  std::unique_ptr<Library> cudaLibrary_, nvmlLibrary_;
  Cuda cuda_;
  Nvml nvml_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  int multiprocessors_ = 1;
  nvmlDevice_t nvmlDevice_ = nullptr;
  CUmodule module_ = nullptr;
  CUevent start_ = nullptr, stop_ = nullptr;
  CUdeviceptr in_ = 0, out_ = 0;
  unsigned long long bufferBytes_ = 0;
  bool lockedClocksSet_ = false, applicationClocksSet_ = false;
};

} // namespace

ptx::Expected<std::unique_ptr<GpuDevice>> openNvidiaDevice(int ordinal) {
  using Result = ptx::Expected<std::unique_ptr<GpuDevice>>;
  auto fail = [](std::string message) {
    return Result::failure(ptx::Diagnostic{"ptxdvfs collect", {}, ptx::Severity::Error, std::move(message)});
  };
  auto cuda = std::make_unique<Library>("libcuda.so.1");
  if (!cuda->loaded())
    return fail("cannot open libcuda.so.1 (the NVIDIA driver): " + std::string(dlerror()) +
                "; collect runs kernels only where the driver is installed (plan without it: "
                "--dry-run --clock-table DIR)");
  auto nvml = std::make_unique<Library>("libnvidia-ml.so.1");
  if (!nvml->loaded())
    return fail("cannot open libnvidia-ml.so.1 (NVML, part of the NVIDIA driver): " + std::string(dlerror()));
  try {
    return Result(std::make_unique<NvidiaDevice>(std::move(cuda), std::move(nvml), ordinal));
  } catch (const DeviceError &error) {
    return fail(error.what());
  }
}

} // namespace ptxdvfs::tools::collect
