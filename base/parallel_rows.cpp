#include "parallel_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace course {

void parallel_rows(int rows, unsigned threads, const std::function<void(int, int)>& body) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const int bands = static_cast<int>(std::min<std::int64_t>(threads, std::max(rows, 1)));
  std::vector<std::exception_ptr> failed(bands);
  auto band = [&](int b) {
    try {
      body(static_cast<int>(std::int64_t(rows) * b / bands), static_cast<int>(std::int64_t(rows) * (b + 1) / bands));
    } catch (...) {
      failed[b] = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  for (int b = 1; b < bands; ++b) try {
      workers.emplace_back(band, b);
    } catch (const std::system_error&) {
      band(b);  // no thread to be had: this one does the band
    }
  band(0);
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace course
