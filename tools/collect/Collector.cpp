// Collector.cpp - calibrate, warm up, measure, append; reset clocks on the way out.
#include "Collector.h"

#include <algorithm>
#include <cmath>

namespace ptxdvfs::tools::collect {

namespace {

/// Resets the clocks when it goes out of scope, if they were changed.
class ClockGuard {
public:
  explicit ClockGuard(GpuDevice &device) : device_(device) {}
  ~ClockGuard() {
    if (locked_)
      device_.resetClocks();
  }
  void lock(embeddings::VfPoint point) {
    locked_ = true; // a lock that fails halfway still gets reset
    device_.lockClocks(point);
  }

private:
  GpuDevice &device_;
  bool locked_ = false;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double relativeRange(const std::vector<double> &values, double centre) {
  auto [low, high] = std::minmax_element(values.begin(), values.end());
  return centre > 0 ? (*high - *low) / centre : 0;
}

/// The repeats that make one run last at least `seconds`, from a run of one.
int calibrate(GpuDevice &device, const std::string &kernel, const MeasurementSettings &settings) {
  KernelRun once = device.run(kernel, settings.bufferBytes, 1);
  double perRepeat = std::max(once.milliseconds, 1e-3);
  double repeats = std::ceil(settings.secondsPerRun * 1000.0 / perRepeat);
  return static_cast<int>(std::clamp(repeats, 1.0, 1e7));
}

} // namespace

std::size_t measuredPairs(const CollectPlan &plan, const ProgressLog &log) {
  std::size_t measured = 0;
  for (const embeddings::VfPoint &point : plan.points)
    for (const PlannedBenchmark &benchmark : plan.benchmarks)
      measured += log.has(benchmark.name, point);
  return measured;
}

CollectOutcome runCollection(GpuDevice &device, const CollectPlan &plan, ProgressLog &log,
                             bool changeClocks, const std::atomic<bool> &stop,
                             const CollectProgress &progress) {
  CollectOutcome outcome;
  std::size_t total = plan.points.size() * plan.benchmarks.size();
  outcome.alreadyDone = measuredPairs(plan, log);
  const MeasurementSettings &settings = plan.settings;
  ClockGuard clocks(device);
  try {
    for (const embeddings::VfPoint &point : plan.points) {
      bool clocksSet = false;
      for (const PlannedBenchmark &benchmark : plan.benchmarks) {
        if (log.has(benchmark.name, point))
          continue;
        if (stop) {
          outcome.stopped = true;
          return outcome;
        }
        if (changeClocks && !clocksSet) {
          clocks.lock(point);
          clocksSet = true;
        }
        int repeats = log.repeatsOf(benchmark.name);
        if (repeats == 0)
          repeats = calibrate(device, benchmark.name, settings);
        for (int i = 0; i < settings.warmups; ++i)
          device.run(benchmark.name, settings.bufferBytes, repeats);
        std::vector<double> times, powers;
        for (int i = 0; i < settings.runs && !stop; ++i) {
          KernelRun run = device.run(benchmark.name, settings.bufferBytes, repeats);
          times.push_back(run.milliseconds);
          powers.push_back(run.milliseconds > 0 ? run.joules / (run.milliseconds / 1000.0) : 0);
        }
        if (stop || times.empty()) {
          outcome.stopped = true;
          return outcome;
        }
        MeasuredPoint row;
        row.benchmark = benchmark.name;
        row.point = point;
        row.milliseconds = median(times);
        double powerSum = 0;
        for (double watts : powers)
          powerSum += watts;
        row.watts = powerSum / static_cast<double>(powers.size());
        row.timeSpread = relativeRange(times, row.milliseconds);
        row.powerSpread = relativeRange(powers, row.watts);
        row.repeats = repeats;
        row.runs = static_cast<int>(times.size());
        if (row.watts <= 0 || row.milliseconds <= 0) {
          outcome.error = benchmark.name + " at " + std::to_string(point.memoryMHz) + "/" +
                          std::to_string(point.coreMHz) + " MHz: the device reported no time or power";
          return outcome;
        }
        if (std::string failure = log.append(row); !failure.empty()) {
          outcome.error = failure;
          return outcome;
        }
        ++outcome.measured;
        if (progress)
          progress(row, total - outcome.alreadyDone - outcome.measured);
      }
    }
  } catch (const DeviceError &error) {
    outcome.error = error.what();
  }
  return outcome;
}

} // namespace ptxdvfs::tools::collect
