#pragma once
// A test of any lab::Gemm's lower-triangle products (lab::Output::lower_triangle): one
// product C = α op(A) op(B) + β C on an m × m C with a padded leading dimension, C
// poisoned with NaN (β = 0) or random (β ≠ 0), against the product in double on the
// host. Shared by the tests of cuBLAS's products (common) and step-4's kernels.

#include <lab/compare.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/gemm.h>
#include <lab/matrix.h>
#include <lab/test_matrices.h>

#include <cmath>
#include <cstring>

namespace lab_test
{
  struct LowerTriangleResult
  {
    double worst_error = 0; // on and below the diagonal: as host_product_error; NaN if any is NaN
    long changed_too_far = 0; // entries changed at or beyond lab::lower_triangle_overhang right
                              // of the diagonal, or in the padding columns
  };

  template <typename T>
  LowerTriangleResult lower_triangle_product(const lab::Gemm<T> &gemm, int m, int k, lab::Op op_a, lab::Op op_b,
                                             T alpha, T beta)
  {
    const lab::GemmShape s{m, m, k, op_a, op_b};
    const lab::Matrix<T> a = lab::random_matrix<T>(s.a_rows(), s.a_cols(), 11);
    const lab::Matrix<T> b = lab::random_matrix<T>(s.b_rows(), s.b_cols(), 12);
    const int ldc = m + 3; // three padding columns, which must stay as they are
    lab::Matrix<T> c_in = lab::random_matrix<T>(m, ldc, 13);
    lab::DeviceBuffer<T> a_device(a), b_device(b), c_device(c_in);
    if (beta == T(0))
      {
        c_device.poison();
        c_device.download(c_in);
      }
    lab::GemmArgs<T> g = lab::gemm_args<T>(s, alpha, a_device.data(), a.ld(), b_device.data(), b.ld(), beta,
                                           c_device.data(), ldc);
    g.output = lab::Output::lower_triangle;
    gemm(g, nullptr);
    LAB_CHECK(cudaDeviceSynchronize());
    lab::Matrix<T> c_out(m, ldc);
    c_device.download(c_out);

    lab::GemmArgs<T> host = g; // the same product, reading the host's copies
    host.a = a.data();
    host.b = b.data();
    LowerTriangleResult result;
    for (int i = 0; i < m; ++i)
      {
        for (int j = 0; j <= i; ++j)
          {
            double sum = 0, size = 0;
            for (int p = 0; p < k; ++p)
              {
                const double term = double(host.op_a(i, p)) * double(host.op_b(p, j));
                sum += term;
                size += std::abs(term);
              }
            const double c = beta == T(0) ? 0.0 : double(c_in(i, j));
            const double reference = double(alpha) * sum + double(beta) * c;
            const double bound = std::abs(double(alpha)) * size + std::abs(double(beta)) * std::abs(c);
            result.worst_error =
              lab::nan_max(result.worst_error, lab::entry_error(double(c_out(i, j)), reference, bound));
          }
        for (int j = i + lab::lower_triangle_overhang; j < ldc; ++j)
          if (std::memcmp(&c_out(i, j), &c_in(i, j), sizeof(T)) != 0)
            ++result.changed_too_far;
        for (int j = m; j < ldc; ++j) // the padding, also where it is within the overhang
          if (j < i + lab::lower_triangle_overhang && std::memcmp(&c_out(i, j), &c_in(i, j), sizeof(T)) != 0)
            ++result.changed_too_far;
      }
    return result;
  }
} // namespace lab_test
