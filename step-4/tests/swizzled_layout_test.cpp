// Tests of kernel 19's tile layout (kernels/swizzled_layout.h), on the CPU: for every
// thread of a warp, every load of its fragments, in both layouts,
// - the thread's offset moved by the constant XOR and addition reaches the byte where
//   the value really lies, offset(physical(f), k), and
// - the 16 threads of each half-warp, which the hardware serves in one go for 8-byte
//   loads, hit 16 different 8-byte slots of the 32 banks (no bank conflict).
// A planted layout without the permutation (fragment row g in tile row g) must fail
// the second check: the check can fail.
#include "kernels/swizzled_layout.h"

#include <lab_catch.h>

#include <set>

namespace
{
  // The value a thread (group g = lane / 4, t = lane % 4) loads for block `block`,
  // half h, step q: fragment index f = 16 block + 8 h + g, k = 4 q + t.
  struct Load
  {
    int lane, block, h, q;
    int f() const { return 16 * block + 8 * h + lane / 4; }
    int k() const { return 4 * q + lane % 4; }
  };

  // The byte the kernel reads (its thread offset, moved by the constants).
  template <typename Layout>
  std::uint32_t kernel_offset(const Load &load)
  {
    const std::uint32_t thread = Layout::offset(Layout::physical(load.lane / 4), load.lane % 4);
    return (thread ^ Layout::xor_part(load.h, load.q)) + Layout::add_part(load.block, load.h, load.q);
  }

  // How many of the 16 loads of a half-warp share an 8-byte slot of the banks with
  // another (0: one wavefront).
  template <typename Physical>
  int worst_conflicts(bool k_major, Physical physical)
  {
    int worst = 0;
    for (int block = 0; block < 8; ++block)
      for (int h = 0; h < 2; ++h)
        for (int q = 0; q < 4; ++q)
          for (int half = 0; half < 2; ++half)
            {
              std::set<std::uint32_t> slots;
              for (int lane = 16 * half; lane < 16 * half + 16; ++lane)
                {
                  const Load load{lane, block, h, q};
                  const int outer = load.f() / 16 * 16 + physical(load.f() % 16);
                  const std::uint32_t byte = k_major ? step4::SwizzledLayout<true>::offset(outer, load.k())
                                                     : step4::SwizzledLayout<false>::offset(outer, load.k());
                  slots.insert(byte % 128 / 8);
                }
              worst = std::max(worst, 16 - int(slots.size()));
            }
    return worst;
  }

  template <bool k_major>
  void check_layout()
  {
    using Layout = step4::SwizzledLayout<k_major>;
    // physical() permutes each 16 (and, k-major, each 8) onto itself.
    std::set<int> seen;
    for (int f = 0; f < 16; ++f)
      seen.insert(Layout::physical(f));
    CHECK(seen.size() == 16);
    CHECK(*seen.begin() == 0);
    CHECK(*seen.rbegin() == 15);
    // The kernel's moves reach every value where it lies.
    int wrong = 0;
    for (int lane = 0; lane < 32; ++lane)
      for (int block = 0; block < 8; ++block)
        for (int h = 0; h < 2; ++h)
          for (int q = 0; q < 4; ++q)
            {
              const Load load{lane, block, h, q};
              if (kernel_offset<Layout>(load) != Layout::offset(Layout::physical(load.f()), load.k()))
                ++wrong;
            }
    CHECK(wrong == 0);
    // No bank conflicts.
    CHECK(worst_conflicts(k_major, [](int f) { return Layout::physical(f); }) == 0);
  }
} // namespace

TEST_CASE("kernel 19's k-major tiles: the moves reach every value, no bank conflicts", "[cpu]")
{
  check_layout<true>();
}

TEST_CASE("kernel 19's other tiles: the moves reach every value, no bank conflicts", "[cpu]")
{
  check_layout<false>();
}

TEST_CASE("planted: tiles read without the permutation have bank conflicts", "[cpu]")
{
  CHECK(worst_conflicts(true, [](int f) { return f; }) > 0);
  CHECK(worst_conflicts(false, [](int f) { return f; }) > 0);
}
