// The FFT filter (see fft_filter.h).
#include "methods/fft_filter.h"

#include <lab/cuda_check.h>

#include <cuComplex.h>

#include <stdexcept>
#include <string>

namespace step5
{
  // @sect3{cuFFT in float and double}
  //
  // cuFFT names its real-to-complex transforms by precision: R2C and C2R in float, D2Z
  // and Z2D in double. A real input of R × C points has R × (C/2 + 1) complex outputs
  // (the other half is their mirror image).
  template <typename T>
  struct Fft;

  template <>
  struct Fft<float>
  {
    using Complex = cufftComplex;
    static constexpr cufftType forward = CUFFT_R2C, backward = CUFFT_C2R;
    static cufftResult exec_forward(cufftHandle plan, float *in, Complex *out) { return cufftExecR2C(plan, in, out); }
    static cufftResult exec_backward(cufftHandle plan, Complex *in, float *out) { return cufftExecC2R(plan, in, out); }
  };

  template <>
  struct Fft<double>
  {
    using Complex = cufftDoubleComplex;
    static constexpr cufftType forward = CUFFT_D2Z, backward = CUFFT_Z2D;
    static cufftResult exec_forward(cufftHandle plan, double *in, Complex *out) { return cufftExecD2Z(plan, in, out); }
    static cufftResult exec_backward(cufftHandle plan, Complex *in, double *out)
    {
      return cufftExecZ2D(plan, in, out);
    }
  };

  void check_cufft(cufftResult result, const char *call)
  {
    if (result != CUFFT_SUCCESS)
      throw std::runtime_error(std::string(call) + " failed (cuFFT error " + std::to_string(int(result)) + ")");
  }

  // @sect3{The kernels}
  //
  // The PSF goes into an array of the transform's size with its centre at (0, 0):
  // tap (u, v) at ((u − c_r) mod R, (v − c_c) mod C), where a circular convolution
  // with it is the model's blur with wrap-around.
  template <typename T>
  __global__ void place_psf_kernel(const T *taps, int psf_rows, int psf_cols, int centre_row, int centre_col,
                                   int rows, int cols, T *out)
  {
    const int tap = blockIdx.x * blockDim.x + threadIdx.x;
    if (tap >= psf_rows * psf_cols)
      return;
    const int u = tap / psf_cols, v = tap % psf_cols;
    const int r = ((u - centre_row) % rows + rows) % rows, c = ((v - centre_col) % cols + cols) % cols;
    out[static_cast<long>(r) * cols + c] += taps[tap];
  }

  // The image into the transform's array: as it is (periodic), or reflected into the
  // extension (pixel r ≥ R of the extension is pixel 2R − 1 − r of the image).
  template <typename T>
  __global__ void extend_kernel(const T *g, int rows, int cols, T *out, int extended_rows, int extended_cols)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= extended_rows || c >= extended_cols)
      return;
    const int source_row = r < rows ? r : 2 * rows - 1 - r;
    const int source_col = c < cols ? c : 2 * cols - 1 - c;
    out[static_cast<long>(r) * extended_cols + c] = g[static_cast<long>(source_row) * cols + source_col];
  }

  // f̂ = conj(p̂) ĝ / (|p̂|² + λ), and the 1/(R·C) that cuFFT's unnormalised inverse
  // transform needs, in one pass over the frequencies.
  template <typename T, typename Complex>
  __global__ void tikhonov_kernel(const Complex *psf_hat, Complex *image_hat, int count, T lambda, T scale)
  {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
      return;
    const Complex p = psf_hat[i], g = image_hat[i];
    const T denominator = (p.x * p.x + p.y * p.y + lambda) / scale;
    image_hat[i].x = (p.x * g.x + p.y * g.y) / denominator;
    image_hat[i].y = (p.x * g.y - p.y * g.x) / denominator;
  }

  // The top-left rows × cols part of the extended result.
  template <typename T>
  __global__ void crop_kernel(const T *extended, int extended_cols, int rows, int cols, T *f)
  {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
      f[static_cast<long>(r) * cols + c] = extended[static_cast<long>(r) * extended_cols + c];
  }

  dim3 image_grid(int rows, int cols, dim3 block) { return dim3((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y); }

  // @sect3{The filter}
  template <typename T>
  FftFilter<T>::FftFilter(const Psf &psf, int rows, int cols, FftBoundary boundary)
    : rows_(rows), cols_(cols), extended_rows_(boundary == FftBoundary::mirrored ? 2 * rows : rows),
      extended_cols_(boundary == FftBoundary::mirrored ? 2 * cols : cols),
      extended_(static_cast<std::size_t>(extended_rows_) * extended_cols_),
      psf_hat_(static_cast<std::size_t>(extended_rows_) * (extended_cols_ / 2 + 1) * sizeof(typename Fft<T>::Complex)),
      image_hat_(psf_hat_.count())
  {
    using Complex = typename Fft<T>::Complex;
    check_cufft(cufftPlan2d(&forward_, extended_rows_, extended_cols_, Fft<T>::forward), "cufftPlan2d");
    check_cufft(cufftPlan2d(&backward_, extended_rows_, extended_cols_, Fft<T>::backward), "cufftPlan2d");
    const lab::Matrix<T> taps = lab::convert<T>(psf.taps);
    lab::DeviceBuffer<T> device_taps(taps);
    LAB_CHECK(cudaMemset(extended_.data(), 0, extended_.bytes()));
    const int count = psf.rows() * psf.cols();
    place_psf_kernel<<<(count + 255) / 256, 256>>>(device_taps.data(), psf.rows(), psf.cols(), psf.centre_row(),
                                                  psf.centre_col(), extended_rows_, extended_cols_, extended_.data());
    LAB_CHECK_LAUNCH();
    check_cufft(Fft<T>::exec_forward(forward_, extended_.data(), reinterpret_cast<Complex *>(psf_hat_.data())),
                "forward FFT of the PSF");
    LAB_CHECK(cudaDeviceSynchronize());
  }

  template <typename T>
  FftFilter<T>::~FftFilter()
  {
    cufftDestroy(forward_);
    cufftDestroy(backward_);
  }

  template <typename T>
  void FftFilter<T>::apply(T lambda, const T *g, T *f)
  {
    using Complex = typename Fft<T>::Complex;
    const dim3 block(32, 8);
    extend_kernel<<<image_grid(extended_rows_, extended_cols_, block), block>>>(g, rows_, cols_, extended_.data(),
                                                                                extended_rows_, extended_cols_);
    LAB_CHECK_LAUNCH();
    Complex *const image_hat = reinterpret_cast<Complex *>(image_hat_.data());
    check_cufft(Fft<T>::exec_forward(forward_, extended_.data(), image_hat), "forward FFT of the image");
    const int count = extended_rows_ * (extended_cols_ / 2 + 1);
    const T scale = T(1) / (T(extended_rows_) * extended_cols_);
    tikhonov_kernel<<<(count + 255) / 256, 256>>>(reinterpret_cast<const Complex *>(psf_hat_.data()), image_hat,
                                                   count, lambda, scale);
    LAB_CHECK_LAUNCH();
    check_cufft(Fft<T>::exec_backward(backward_, image_hat, extended_.data()), "inverse FFT");
    crop_kernel<<<image_grid(rows_, cols_, block), block>>>(extended_.data(), extended_cols_, rows_, cols_, f);
    LAB_CHECK_LAUNCH();
  }

  template class FftFilter<float>;
  template class FftFilter<double>;
} // namespace step5
