// CPU tests of the band storage (band_matrix.h): the layout's invariants (the reach
// covers the band and a panel, reach and leading dimension are multiples of 4, the
// window holds two panels above the diagonal, every window entry of every row has its
// own address inside its row's elements, and together they fill the storage), the
// figures the header quotes, the refusals, and the normal matrix's bandwidth against
// the widest nonzero of the dense HᵀH.
#include "gpu/band_matrix.h"
#include "model/blur_model.h"
#include "model/psf.h"
#include "test_support.h"

#include <lab/gemm.h>

#include <lab_catch.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace
{
  using namespace step5_test;

  // Counts the (i, j) with j − i in the window that break the layout's promises: an
  // address outside row i's elements, or one that another entry has too. Every
  // element of the storage must be the address of exactly one entry.
  int broken_addresses(const step5::BandLayout &layout)
  {
    const long s = layout.row_length;
    std::vector<int> hits(layout.elements(), 0);
    int broken = 0;
    for (int i = 0; i < layout.n; ++i)
      for (int j = i - layout.reach; j <= i + layout.row_length - 1 - layout.reach; ++j)
        {
          const long address = layout.index(i, j);
          if (address < i * s || address >= i * s + s || hits[address]++ != 0)
            ++broken;
        }
    broken += static_cast<int>(std::count(hits.begin(), hits.end(), 0));
    return broken;
  }
} // namespace

TEST_CASE("step-5 CPU: the band layout covers the band and a panel, aligned, every window entry at its own address")
{
  for (const int n : {1, 2, 5, 7, 77, 300})
    for (const int bandwidth : {0, 1, 2, 3, 4, 13, 48, 299})
      for (const int panel : {1, 2, 3, 4, 5, 16, 64})
        {
          CAPTURE(n, bandwidth, panel);
          const step5::BandLayout layout = step5::BandLayout::make(n, bandwidth, panel);
          CHECK(layout.n == n);
          CHECK(layout.bandwidth == bandwidth);
          CHECK(layout.panel == panel);
          CHECK(layout.reach >= bandwidth + panel - 1);
          CHECK(layout.reach < bandwidth + panel - 1 + 4);
          CHECK(layout.reach % 4 == 0);
          CHECK(layout.ld() == layout.row_length - 1);
          CHECK(layout.ld() % 4 == 0);
          // Above the diagonal: variant 5's block columns and the lower-triangle products.
          const int above = std::max(2 * panel, lab::lower_triangle_overhang);
          CHECK(layout.row_length - layout.reach >= above);
          CHECK(layout.row_length - 1 - layout.reach < above + 4);
          CHECK(layout.elements() == std::size_t(n) * layout.row_length);
          CHECK(broken_addresses(layout) == 0);
        }
}

TEST_CASE("step-5 CPU: the band layout of the header's picture and of a 512 x 512 image")
{
  // The picture's rows have 3 columns above the diagonal; the layout's have 256 − 1 (the
  // overhang of a lower-triangle product), so S = 4 + 256 + 1 and A(i, j) is at 4 + 260 i + j.
  const step5::BandLayout small = step5::BandLayout::make(6, 2, 2);
  CHECK(small.reach == 4);
  CHECK(small.row_length == 261);
  CHECK(small.ld() == 260);
  CHECK(small.elements() == 6 * 261);
  CHECK(small.index(0, 0) == 4);
  CHECK(small.index(3, 1) == 4 + 260 * 3 + 1);
  CHECK(small.index(5, 5) == 4 + 260 * 5 + 5);

  const step5::Psf psf = step5::box_psf(9);
  const int bandwidth = step5::normal_matrix_bandwidth(psf, 512);
  CHECK(bandwidth == 4104);
  const step5::BandLayout large = step5::BandLayout::make(512 * 512, bandwidth, 512);
  CHECK(large.reach == 4616);
  CHECK(large.row_length == 5641);
  const double gigabytes = large.elements() * sizeof(float) / 1e9;
  CHECK(gigabytes > 5.85);
  CHECK(gigabytes < 5.95);
  // The last entry of the last row's window is the storage's last element.
  CHECK(large.index(large.n - 1, large.n - 1 + large.row_length - 1 - large.reach) == long(large.elements()) - 1);
}

TEST_CASE("step-5 CPU: the band layout refuses a negative order or bandwidth and an empty panel")
{
  CHECK_THROWS_AS(step5::BandLayout::make(-1, 2, 2), std::invalid_argument);
  CHECK_THROWS_AS(step5::BandLayout::make(6, -1, 2), std::invalid_argument);
  CHECK_THROWS_AS(step5::BandLayout::make(6, 2, 0), std::invalid_argument);
  CHECK_NOTHROW(step5::BandLayout::make(0, 0, 1));
}

// The widest nonzero of the dense HᵀH is b exactly when the PSF's first and last
// taps, p(0, 0) and p(rows − 1, cols − 1), are both nonzero: the entry b away from
// the diagonal is their product (the pixel that sees i through one and j through the
// other). The 3 × 3 shape PSF has p(0, 0) = 0, and its band is narrower than b.
TEST_CASE("step-5 CPU: the normal matrix's bandwidth bounds the dense H^T H's nonzeros, and is reached")
{
  std::vector<Psf> psfs = shape_test_psfs();
  psfs.push_back(step5::trail_psf(3, 30));
  psfs.push_back(step5::sharpen_psf());
  int reached = 0;
  for (const Psf &psf : psfs)
    for (const auto &[rows, cols] : std::vector<std::pair<int, int>>{{7, 11}, {6, 5}, {9, 12}, {5, 9}})
      {
        if (psf.rows() > rows || psf.cols() > cols)
          continue;
        CAPTURE(psf.name, rows, cols);
        const Image h = step5::blur_matrix<double>(psf, rows, cols);
        const Image a = product(lab::transposed(h), h);
        int widest = 0;
        for (int i = 0; i < a.rows(); ++i)
          for (int j = 0; j < a.cols(); ++j)
            if (a(i, j) != 0)
              widest = std::max(widest, std::abs(i - j));
        const int bandwidth = step5::normal_matrix_bandwidth(psf, cols);
        CHECK(bandwidth == (psf.rows() - 1) * cols + psf.cols() - 1);
        CHECK(widest <= bandwidth);
        const bool corners = psf.taps(0, 0) != 0 && psf.taps(psf.rows() - 1, psf.cols() - 1) != 0;
        CHECK((widest == bandwidth) == corners);
        reached += widest == bandwidth;
      }
  CHECK(reached >= 10);
}
