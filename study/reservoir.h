// A uniform random sample of at most `limit` items of a scan (`feerie mine --limit`):
// Algorithm R over the items in scan order, with a seeded generator whose output the C++
// standard fixes (std::mt19937_64), so the same seed gives the same sample anywhere.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace feerie {

template <class Item>
class Reservoir {
 public:
  Reservoir(std::uint64_t limit, std::uint64_t seed) : limit_(limit), rng_(seed) {}

  void offer(const Item& item) {
    if (kept_.size() < limit_) {
      kept_.push_back({seen_++, item});
      return;
    }
    // j uniform in [0, seen_]: the high bits of a 64x64-bit product (no modulo bias
    // worth naming, and no library distribution whose output could differ between
    // standard libraries).
    std::uint64_t j = std::uint64_t((unsigned __int128)rng_() * (seen_ + 1) >> 64);
    if (j < limit_) kept_[j] = {seen_, item};
    ++seen_;
  }

  // The sample in the order the scan offered it.
  std::vector<Item> in_scan_order() const {
    std::vector<Kept> sorted = kept_;
    std::sort(sorted.begin(), sorted.end(), [](const Kept& a, const Kept& b) { return a.order < b.order; });
    std::vector<Item> out;
    out.reserve(sorted.size());
    for (const Kept& k : sorted) out.push_back(k.item);
    return out;
  }

 private:
  struct Kept {
    std::uint64_t order;  // position in the scan
    Item item;
  };
  std::uint64_t limit_;
  std::mt19937_64 rng_;
  std::uint64_t seen_ = 0;
  std::vector<Kept> kept_;
};

}  // namespace feerie
