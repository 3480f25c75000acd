// Conjugate gradients, matrix-free (see conjugate_gradients.h).
#include "methods/conjugate_gradients.h"

#include <lab/cuda_check.h>

#include <cmath>

namespace step5
{
  // @sect3{The vector kernels}
  //
  // Every vector operation of an iteration is one pass over the n pixels, fused with
  // the dot product that follows it, so that a vector is read once. A dot product is
  // summed in double (a float sum of 65536 terms loses digits the iteration needs):
  // per warp by shuffles, then one atomicAdd per warp into a double on the device,
  // which the host reads back (the one synchronisation per dot product).
  __device__ void add_to_dot(double value, double *dot)
  {
    for (int offset = 16; offset > 0; offset /= 2)
      value += __shfl_down_sync(0xffffffffu, value, offset);
    if (threadIdx.x % 32 == 0)
      atomicAdd(dot, value);
  }

  constexpr int block_size = 256;

  int blocks_for(int n) { return (n + block_size - 1) / block_size; }

  // q = blurred_back + λ v, and vᵀq.
  template <typename T>
  __global__ void add_shift_and_dot_kernel(int n, T lambda, const T *v, T *q, double *dot)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double product = 0;
    if (i < n)
      {
        q[i] += lambda * v[i];
        product = double(v[i]) * q[i];
      }
    add_to_dot(product, dot);
  }

  // f += α p, r −= α q, and rᵀr.
  template <typename T>
  __global__ void step_and_dot_kernel(int n, T alpha, const T *p, const T *q, T *f, T *r, double *dot)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double square = 0;
    if (i < n)
      {
        f[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        square = double(r[i]) * r[i];
      }
    add_to_dot(square, dot);
  }

  // p = r + β p.
  template <typename T>
  __global__ void new_direction_kernel(int n, T beta, const T *r, T *p)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
      p[i] = r[i] + beta * p[i];
  }

  // r = b − q, and rᵀr (the true residual at the end).
  template <typename T>
  __global__ void residual_and_dot_kernel(int n, const T *b, const T *q, T *r, double *dot)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double square = 0;
    if (i < n)
      {
        r[i] = b[i] - q[i];
        square = double(r[i]) * r[i];
      }
    add_to_dot(square, dot);
  }

  // Waits for the kernel that summed into @p dot, returns its value and clears it.
  double take_dot(lab::DeviceBuffer<double> &dot)
  {
    double value = 0;
    dot.copy_to_host(&value, 1);
    LAB_CHECK(cudaMemsetAsync(dot.data(), 0, sizeof(double)));
    return value;
  }

  template <typename T>
  ConjugateGradients<T>::ConjugateGradients(int rows, int cols)
    : rows_(rows), cols_(cols), n_(rows * cols), b_(n_), r_(n_), p_(n_), q_(n_), blurred_(n_), dot_(1)
  {
    LAB_CHECK(cudaMemset(dot_.data(), 0, sizeof(double)));
  }

  template <typename T>
  double ConjugateGradients<T>::apply_normal_matrix(const DevicePsf<T> &psf, T lambda, const T *v, T *q)
  {
    // @exercise{cg_normal_operator, 1}
    // The matrix-free operator: A v = H^T H v + lambda v without forming H. Blur v
    // into the work vector `blurred_` with `blur_on_device`, blur that back with
    // `blur_transpose_on_device` into q, then add lambda v to q and start the dot
    // product v^T q in `dot_` with one launch of `add_shift_and_dot_kernel`
    // (`blocks_for(n_)` blocks of `block_size` threads, checked). All on the
    // default stream; the return below reads the dot product.
    blur_on_device(psf, rows_, cols_, v, blurred_.data(), nullptr);
    blur_transpose_on_device(psf, rows_, cols_, blurred_.data(), q, nullptr);
    add_shift_and_dot_kernel<<<blocks_for(n_), block_size>>>(n_, lambda, v, q, dot_.data());
    LAB_CHECK_LAUNCH();
    // @end-exercise
    return take_dot(dot_);
  }

  // @sect3{The iteration}
  template <typename T>
  IterationReport ConjugateGradients<T>::solve(const DevicePsf<T> &psf, T lambda, const T *g, T *f,
                                                double tolerance, int max_iterations)
  {
    const int n = n_;
    blur_transpose_on_device(psf, rows_, cols_, g, b_.data(), nullptr);
    LAB_CHECK(cudaMemsetAsync(f, 0, n * sizeof(T)));
    LAB_CHECK(cudaMemcpyAsync(r_.data(), b_.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
    LAB_CHECK(cudaMemcpyAsync(p_.data(), b_.data(), n * sizeof(T), cudaMemcpyDeviceToDevice));
    // ‖b‖², by the residual kernel with q = 0 (r = b − 0): one kernel for both jobs.
    LAB_CHECK(cudaMemsetAsync(q_.data(), 0, n * sizeof(T)));
    residual_and_dot_kernel<<<blocks_for(n), block_size>>>(n, b_.data(), q_.data(), r_.data(), dot_.data());
    LAB_CHECK_LAUNCH();
    const double b_squared = take_dot(dot_);
    const double target = tolerance * tolerance * b_squared;

    IterationReport report;
    double r_squared = b_squared;
    // @exercise{cg_iteration, 3}
    // The conjugate gradient iteration, with one synchronisation per dot product.
    // Starting from f = 0, r = p = b and r_squared = r^T r, iterate while fewer than
    // max_iterations steps were made and r_squared is above target: q = A p and
    // p^T q by `apply_normal_matrix`; alpha = r_squared / p^T q; f += alpha p,
    // r -= alpha q and the new r^T r in one launch of `step_and_dot_kernel`, read by
    // `take_dot`; beta = new r^T r / r_squared; p = r + beta p by
    // `new_direction_kernel`. Count the steps in `report.iterations`.
    while (report.iterations < max_iterations && r_squared > target)
      {
        const double pq = apply_normal_matrix(psf, lambda, p_.data(), q_.data());
        const T alpha = static_cast<T>(r_squared / pq);
        step_and_dot_kernel<<<blocks_for(n), block_size>>>(n, alpha, p_.data(), q_.data(), f, r_.data(),
                                                            dot_.data());
        LAB_CHECK_LAUNCH();
        const double new_r_squared = take_dot(dot_);
        const T beta = static_cast<T>(new_r_squared / r_squared);
        new_direction_kernel<<<blocks_for(n), block_size>>>(n, beta, r_.data(), p_.data());
        LAB_CHECK_LAUNCH();
        r_squared = new_r_squared;
        ++report.iterations;
      }
    // @end-exercise

    // The true residual b − A f, from f.
    apply_normal_matrix(psf, lambda, f, q_.data());
    residual_and_dot_kernel<<<blocks_for(n), block_size>>>(n, b_.data(), q_.data(), r_.data(), dot_.data());
    LAB_CHECK_LAUNCH();
    report.relative_residual = b_squared > 0 ? std::sqrt(take_dot(dot_) / b_squared) : 0.0;
    report.converged = report.relative_residual <= tolerance;
    return report;
  }

  template class ConjugateGradients<float>;
  template class ConjugateGradients<double>;
} // namespace step5
