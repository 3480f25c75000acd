#pragma once
// @sect3{The factorisations, as a list}
//
// Every variant of this step computes the same thing as step-1: the Cholesky factor
// L of a symmetric positive definite n×n matrix A, in place in the lower triangle
// (row-major, leading dimension ld), with LAPACK's `info` in device memory: 0 when A
// is positive definite, j + 1 when the factorisation stopped at column j because the
// pivot there was not positive. They differ in how they spread the work over the GPU.
//
// A variant is called through one signature, so that the program, the tests and
// step-5 treat them alike: the arguments below, enqueued on a stream, returning at
// once (the work runs asynchronously, like a kernel launch). Variants 4, 5 and 7 to 10
// spend their flops in matrix products and take the product as a lab::Gemm (cuBLAS in
// this step's program, step-4's kernels in step-4's and step-5's); variants 1 to 3 are
// the course's own kernels throughout and ignore it. Variants that need scratch memory
// say how much, so that the caller allocates it once, outside any timing. Variant 10
// runs variant 9's loop on parts of its matrix, through the two fields it sets.

#include <lab/gemm.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace step2
{
  // Per-kernel time of variant 1, summed over all launches of a factorisation (the
  // 2011 course's breakdown). Filled only when a variant is given one.
  struct KernelTimes
  {
    double factorize_diagonal_block_ms = 0;
    double strip_update_ms = 0;
    double diag_update_ms = 0;
    double lo_update_ms = 0;
  };

  template <typename T>
  struct CholeskyArgs
  {
    T *a = nullptr;                 // the matrix on the device; L on return
    int n = 0;
    int ld = 0;
    int *info = nullptr;            // device: 0, or the failing column + 1
    T *workspace = nullptr;         // workspace_elements(n) entries, or nullptr if 0
    lab::Gemm<T> gemm;              // the product variants 4, 5 and 7 to 10 use
    cudaStream_t stream = nullptr;
    int panel_width = 512;          // nb of variants 4 and 5: the width of a panel
                                    // (variants 7, 8: from it to twice it)
    KernelTimes *kernel_times = nullptr; // variant 1 only: time each kernel
    int bandwidth = -1;             // variants 4, 5, 7, 8: b ≥ 0 says A(i, j) = 0 for
                                    // i − j > b (a band matrix), and they skip what
                                    // lies outside the band; −1: a dense matrix
    // Set by variant 10 when it hands a part of its matrix to variant 9's loop:
    int first_column = 0;           // this matrix's first column in the whole one:
                                    // info reports columns from there, and a part
                                    // after the first (> 0) keeps the info it finds
    T *panel_inverses = nullptr;    // where each panel keeps X = L_11^{-1}: the panel
                                    // at p in rows p ... of this strip of nb columns
                                    // (nullptr: in the workspace, until the next panel)

    // One past the last row in which columns p ... p + w − 1 can hold nonzeros: n for
    // a dense matrix, p + w + b for a band (Cholesky creates no fill outside the band,
    // so L has A's bandwidth; step-5's band path).
    int rows_end(int p, int w) const
    {
      return bandwidth < 0 ? n : static_cast<int>(std::min<long>(n, static_cast<long>(p) + w + bandwidth));
    }
  };

  template <typename T>
  struct Variant
  {
    std::string name;               // file name without extension, e.g. "1_four_kernels_2011"
    std::string idea;               // one line
    bool uses_gemm;                 // whether its flops go through lab::Gemm
    std::size_t (*workspace_elements)(int n, int panel_width);
    void (*factorize)(const CholeskyArgs<T> &);
    // The width of the panels it factorises A of order n in, given
    // CholeskyArgs::panel_width: that width for variants 4 and 5, up to twice it for
    // 7 to 10 (panel_by_halves_width). A band storage (step-5) is laid out for it.
    int (*panel_width)(int n, int panel_width);
  };

  // The panel width nb of variants 4 and 5 when none is asked for: the best measured on an
  // H100 at n = 16384 (see the results page), 512 in float; 256 in double, where
  // variant 5's one-block diagonal factorisation is slower and a narrower block pays.
  // Step-5 uses the same.
  template <typename T>
  constexpr int default_panel_width()
  {
    return sizeof(T) == 4 ? 512 : 256;
  }

  // The arguments every variant reads: A (n×n, leading dimension ld) on the device,
  // the info flag, the workspace, the product and the panel width. The others keep
  // their defaults (the default stream, a dense matrix, no kernel timing, no separate
  // update product); a caller that needs one sets it afterwards.
  template <typename T>
  CholeskyArgs<T> cholesky_args(T *a, int n, int ld, int *info, T *workspace, lab::Gemm<T> gemm,
                                int panel_width = default_panel_width<T>())
  {
    CholeskyArgs<T> args;
    args.a = a;
    args.n = n;
    args.ld = ld;
    args.info = info;
    args.workspace = workspace;
    args.gemm = std::move(gemm);
    args.panel_width = panel_width;
    return args;
  }

  // Variants 1 to 5 and 7 to 10 in teaching order, for float and double.
  template <typename T>
  const std::vector<Variant<T>> &variants();

  // Whether @p name refers to the variant called @p variant_name: its number (the
  // name up to the first '_', such as "3") or its full name.
  inline bool is_named(const std::string &variant_name, const std::string &name)
  {
    return variant_name == name || variant_name.substr(0, variant_name.find('_')) == name;
  }

  // The variant a name refers to (is_named), or nullptr.
  template <typename T>
  const Variant<T> *find_variant(const std::string &name);

} // namespace step2
