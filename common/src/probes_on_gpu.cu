#include <lab/probes.h>

#include <lab/compare.h>
#include <lab/cuda_check.h>
#include <lab/device_buffer.h>
#include <lab/fresh_inputs.h>
#include <lab/random.h>

#include <cmath>
#include <vector>

namespace lab
{
  namespace
  {
    // The probes need two products of a triangle of M (n × n, by rows) with a vector,
    // each also with magnitudes: y = M x and y_abs = |M| x_abs, from which the bound
    // of the error is built. Both read M once, in the order it is stored.

    // Along the rows, y_i = Σ_{j ≤ i} m_ij x_j: a warp per row, its 32 threads
    // reading 32 neighbouring entries at a time, their sums added by shuffles.
    constexpr int warps_per_block = 8;

    template <typename T>
    __global__ void lower_times(const T *m, int n, int ld, const double *x, const double *x_abs, double *y,
                                double *y_abs)
    {
      const int i = blockIdx.x * warps_per_block + threadIdx.x / 32, lane = threadIdx.x % 32;
      if (i >= n)
        return;
      double sum = 0, sum_abs = 0;
      for (int j = lane; j <= i; j += 32)
        {
          const double mij = m[static_cast<std::size_t>(i) * ld + j];
          sum += mij * x[j];
          sum_abs += fabs(mij) * x_abs[j];
        }
      for (int offset = 16; offset > 0; offset /= 2)
        {
          sum += __shfl_down_sync(0xffffffff, sum, offset);
          sum_abs += __shfl_down_sync(0xffffffff, sum_abs, offset);
        }
      if (lane == 0)
        {
          y[i] = sum;
          y_abs[i] = sum_abs;
        }
    }

    // Down the columns, y_j = Σ_{i ≥ first(j)} m_ij x_i with first(j) = j, or j + 1
    // for the strict triangle: a thread per column, so that a warp reads 32
    // neighbouring entries of one row at a time, and the rows cut into chunks of
    // `rows_per_block`, one block each, whose sums are added into y by atomics
    // (y set to 0 before). Without the chunks only n threads would work.
    constexpr int columns_per_block = 256, rows_per_block = 256;

    template <typename T>
    __global__ void lower_transposed_times(const T *m, int n, int ld, bool strict, const double *x,
                                           const double *x_abs, double *y, double *y_abs)
    {
      const int j = blockIdx.x * columns_per_block + threadIdx.x;
      const int first = blockIdx.y * rows_per_block, last = min(n, first + rows_per_block);
      if (j >= n)
        return;
      double sum = 0, sum_abs = 0;
      for (int i = max(first, strict ? j + 1 : j); i < last; ++i)
        {
          const double mij = m[static_cast<std::size_t>(i) * ld + j];
          sum += mij * x[i];
          sum_abs += fabs(mij) * x_abs[i];
        }
      atomicAdd(&y[j], sum);
      atomicAdd(&y_abs[j], sum_abs);
    }

    // A vector and its magnitudes, on the host.
    struct HostVectors
    {
      std::vector<double> values, magnitudes;
    };

    // The same on the device.
    struct Vectors
    {
      explicit Vectors(int n) : values(n), magnitudes(n) {}
      explicit Vectors(const HostVectors &host) : Vectors(static_cast<int>(host.values.size()))
      {
        values.copy_from_host(host.values.data(), host.values.size());
        magnitudes.copy_from_host(host.magnitudes.data(), host.magnitudes.size());
      }
      DeviceBuffer<double> values, magnitudes;

      HostVectors download() const
      {
        HostVectors host{std::vector<double>(values.count()), std::vector<double>(values.count())};
        values.copy_to_host(host.values.data(), values.count());
        magnitudes.copy_to_host(host.magnitudes.data(), values.count());
        return host;
      }
    };

    template <typename T>
    void lower_times(const T *m, int n, int ld, const Vectors &x, Vectors &y)
    {
      lower_times<<<(n + warps_per_block - 1) / warps_per_block, 32 * warps_per_block>>>(
        m, n, ld, x.values.data(), x.magnitudes.data(), y.values.data(), y.magnitudes.data());
      LAB_CHECK_LAUNCH();
    }

    template <typename T>
    void lower_transposed_times(const T *m, int n, int ld, bool strict, const Vectors &x, Vectors &y)
    {
      LAB_CHECK(cudaMemset(y.values.data(), 0, n * sizeof(double)));
      LAB_CHECK(cudaMemset(y.magnitudes.data(), 0, n * sizeof(double)));
      const dim3 grid((n + columns_per_block - 1) / columns_per_block, (n + rows_per_block - 1) / rows_per_block);
      lower_transposed_times<<<grid, columns_per_block>>>(m, n, ld, strict, x.values.data(), x.magnitudes.data(),
                                                          y.values.data(), y.magnitudes.data());
      LAB_CHECK_LAUNCH();
    }

    // x with entries in [1, 2) from an unpredictable seed; |x| = x.
    HostVectors random_probe(int n)
    {
      Random random(unpredictable_seed());
      std::vector<double> x(n);
      for (double &xi : x)
        xi = random.uniform(1, 2);
      return {x, x};
    }
  } // namespace

  template <typename T>
  double cholesky_probe_on_gpu(const T *a, const T *factor, int n, int ld)
  {
    if (n == 0)
      return 0;
    const Vectors x(random_probe(n));
    Vectors v(n), w(n), lower(n), upper(n);
    lower_transposed_times(factor, n, ld, false, x, v); // Lᵀx
    lower_times(factor, n, ld, v, w);                   // L(Lᵀx)
    lower_times(a, n, ld, x, lower);                    // A x from A's lower triangle,
    lower_transposed_times(a, n, ld, true, x, upper);   // ... and from its upper one
    const HostVectors llt_x = w.download(), a_x_lower = lower.download(), a_x_upper = upper.download();
    double worst = 0;
    for (int i = 0; i < n; ++i)
      worst = nan_max(worst, std::abs(a_x_lower.values[i] + a_x_upper.values[i] - llt_x.values[i]) /
                               (a_x_lower.magnitudes[i] + a_x_upper.magnitudes[i] + llt_x.magnitudes[i]));
    return worst;
  }

  template <typename T>
  double inverse_probe_on_gpu(const T *l, const T *x, int n, int ld)
  {
    if (n == 0)
      return 0;
    const HostVectors probe = random_probe(n);
    const Vectors on_device(probe);
    Vectors v(n), w(n);
    lower_times(x, n, ld, on_device, v); // X x
    lower_times(l, n, ld, v, w);         // L(Xx)
    const HostVectors l_x_x = w.download();
    double residual = 0, bound = 0;
    for (int i = 0; i < n; ++i)
      {
        residual = nan_max(residual, std::abs(l_x_x.values[i] - probe.values[i]));
        bound = nan_max(bound, l_x_x.magnitudes[i]);
      }
    return residual / bound;
  }

  template double cholesky_probe_on_gpu(const float *, const float *, int, int);
  template double cholesky_probe_on_gpu(const double *, const double *, int, int);
  template double inverse_probe_on_gpu(const float *, const float *, int, int);
  template double inverse_probe_on_gpu(const double *, const double *, int, int);
} // namespace lab
