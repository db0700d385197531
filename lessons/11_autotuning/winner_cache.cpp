#include "winner_cache.hpp"

#include <ostream>

namespace lesson11 {

std::optional<tuning::Point> load_winner(const std::filesystem::path& file, const CacheKey& key,
                                         const tuning::Space& space, std::ostream& out) {
  const auto winner = course::stored_winner(file, key, out);
  if (!winner) return std::nullopt;
  tuning::Point p(space.axes.size(), -1);
  for (std::size_t a = 0; a < space.axes.size(); ++a) {
    const std::string value = course::tuned_value(*winner, space.axes[a].name);
    for (std::size_t i = 0; i < space.axes[a].values.size() && p[a] < 0; ++i) {
      tuning::Point q(space.axes.size(), 0);
      q[a] = static_cast<int>(i);
      if (space.text(q, a) == value) p[a] = q[a];
    }
    if (p[a] < 0) {
      out << "ignoring the cached winner for " << key.operation << ": " << space.axes[a].name << " '" << value
          << "' is not in this search space\n";
      return std::nullopt;
    }
  }
  return p;
}

void store_winner(const std::filesystem::path& file, const CacheKey& key, const tuning::Space& space,
                  const tuning::Point& winner, double kernel_ms) {
  course::TunedValues values;
  for (std::size_t a = 0; a < space.axes.size(); ++a) values.emplace_back(space.axes[a].name, space.text(winner, a));
  course::store_winner(file, key, values, kernel_ms);
}

}  // namespace lesson11
