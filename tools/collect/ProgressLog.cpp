// ProgressLog.cpp - reading and appending the collection's CSV log.
#include "ProgressLog.h"

#include "AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ptxdvfs::tools::collect {

namespace {

constexpr const char *kHeader =
    "benchmark,fmem_mhz,fcore_mhz,time_ms,power_w,energy_mj,time_spread,power_spread,repeats,runs";

std::string formatRow(const MeasuredPoint &row) {
  char numbers[256];
  std::snprintf(numbers, sizeof numbers, "%u,%u,%.9g,%.9g,%.9g,%.6g,%.6g,%d,%d", row.point.memoryMHz,
                row.point.coreMHz, row.milliseconds, row.watts, row.millijoules(), row.timeSpread,
                row.powerSpread, row.repeats, row.runs);
  return row.benchmark + "," + numbers + "\n";
}

bool parseRow(const std::string &line, MeasuredPoint &row) {
  std::istringstream in(line);
  std::string field;
  std::vector<std::string> fields;
  while (std::getline(in, field, ','))
    fields.push_back(field);
  if (fields.size() != 10 || fields[0].empty())
    return false;
  try {
    row.benchmark = fields[0];
    row.point = {static_cast<unsigned>(std::stoul(fields[1])), static_cast<unsigned>(std::stoul(fields[2]))};
    row.milliseconds = std::stod(fields[3]);
    row.watts = std::stod(fields[4]);
    row.timeSpread = std::stod(fields[6]);
    row.powerSpread = std::stod(fields[7]);
    row.repeats = std::stoi(fields[8]);
    row.runs = std::stoi(fields[9]);
  } catch (const std::exception &) {
    return false;
  }
  return row.milliseconds > 0 && row.watts > 0 && row.repeats > 0;
}

} // namespace

ptx::Expected<ProgressLog> ProgressLog::read(const std::string &path) {
  ProgressLog log;
  log.path_ = path;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return log; // nothing measured yet
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ptx::Diagnostics warnings;
  std::size_t lineNumber = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    bool complete = end != std::string::npos;
    std::string line = text.substr(start, complete ? end - start : std::string::npos);
    start = complete ? end + 1 : text.size();
    ++lineNumber;
    if (lineNumber == 1 && line == kHeader)
      continue;
    if (!complete) { // written when the process died
      warnings.push_back({path, {static_cast<std::uint32_t>(lineNumber), 1}, ptx::Severity::Warning,
                          "last line cut short (the run was interrupted while writing it); it is measured again"});
      log.rewrite_ = true;
      break;
    }
    MeasuredPoint row;
    if (!parseRow(line, row))
      return ptx::Expected<ProgressLog>::failure(
          ptx::Diagnostic{path, {static_cast<std::uint32_t>(lineNumber), 1}, ptx::Severity::Error,
                          "not a measurement row (" + std::string(kHeader) + "): '" + line + "'"});
    log.rows_.push_back(std::move(row));
  }
  return ptx::Expected<ProgressLog>(std::move(log), std::move(warnings));
}

bool ProgressLog::has(const std::string &benchmark, embeddings::VfPoint point) const {
  for (const MeasuredPoint &row : rows_)
    if (row.benchmark == benchmark && row.point == point)
      return true;
  return false;
}

int ProgressLog::repeatsOf(const std::string &benchmark) const {
  for (const MeasuredPoint &row : rows_)
    if (row.benchmark == benchmark)
      return row.repeats;
  return 0;
}

std::string ProgressLog::append(const MeasuredPoint &row) {
  if (rewrite_ || rows_.empty()) {
    // A new log, or one whose last line was cut short: write it whole.
    std::string text = std::string(kHeader) + "\n";
    for (const MeasuredPoint &kept : rows_)
      text += formatRow(kept);
    text += formatRow(row);
    if (std::string failure = writeFileAtomically(path_, text); !failure.empty())
      return failure;
    rewrite_ = false;
    rows_.push_back(row);
    return "";
  }
  // O_APPEND and one write: a crash leaves at most this line cut short.
  std::string line = formatRow(row);
  int file = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (file < 0)
    return path_ + ": cannot append: " + std::strerror(errno);
  bool ok = ::write(file, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
            ::fsync(file) == 0;
  int reason = errno;
  ::close(file);
  if (!ok)
    return path_ + ": cannot append: " + std::strerror(reason);
  rows_.push_back(row);
  return "";
}

} // namespace ptxdvfs::tools::collect
