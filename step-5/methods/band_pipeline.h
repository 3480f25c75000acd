#pragma once
// @sect3{The band pipeline: the same equations, only the band}
//
// The dense pipeline spends n² numbers on A = HᵀH + λI and n³/3 flops on its Cholesky
// factor, although all but a band of A is zero: pixel i and pixel j interact only when
// they are less than a PSF's height apart in rows and its width in columns, so with
// the pixels stacked row by row A(i, j) = 0 for |i − j| > b = (p.rows − 1)·C +
// p.cols − 1 (band_matrix.h). A Cholesky factor creates no fill outside the band of the
// matrix it factorises (each entry of L is a combination of entries of A and of L to
// its left, all inside the band), so L has A's bandwidth, and the whole computation
// can live in the band:
//  1. assemble A straight from the PSF into a storage of n·S numbers, S ≈ b + 3nb
//     (band_matrix.h), and b = Hᵀg by the correlation kernel of blur_gpu.h;
//  2. factorise it with step-2's variant 9, told the bandwidth
//     (CholeskyArgs::bandwidth): the same panels, the same products through
//     lab::Gemm, only the loops stop where the band ends, about n·b² flops;
//  3. two triangular solves by step-3's substitution, told the bandwidth too, about
//     4·n·b flops.
// No H and no dense product.
//
// The band's products are small (b rows, one panel deep) and many: a 512 × 512 image
// takes a thousand panel steps, each a few launches. The pipeline records the
// factorisation and the two solves once, each into a CUDA graph (lab::CudaGraph, as
// step-2's program does for its last variant), outside the timed stages like a cuFFT
// plan, and every run launches the two graphs: the same kernels on the same data,
// without the host in between. What limits the band is the latency of those small
// kernels on the GPU itself, not the host: step-4's kernel 15 runs products too small
// for its 128 × 128 tiles on 64 × 64 ones, each step's trailing update is one launch
// (variant 9's lower-triangle product), step-3's chained substitution solves a
// triangle in one kernel, and the panels are fitted to the band (band_pipeline.cu;
// the results page tells what each of these gained). For a 256 × 256 image and a 9 × 9 PSF, b = 2056: the factorisation does
// n·b² ≈ 2.8·10¹¹ flops where the dense one did n³/3 ≈ 9.4·10¹³, and the storage is
// 0.7 GB (float) instead of 16 GiB for A alone. The band is still wide (the stacking
// puts vertical neighbours C pixels apart) and mostly zeros inside: of each row's
// 2b + 1 entries at most (2p.rows − 1)(2p.cols − 1) are not zero. A sparse direct
// solver with a fill-reducing ordering exploits that too; this pipeline exploits only
// the band, which keeps every product dense and large, the shape a GPU wants.
//
// As the dense pipeline, a band pipeline made for k channels (a colour picture)
// factorises once and solves for the k channels one after another.

#include "gpu/band_matrix.h"
#include "gpu/blur_gpu.h"
#include "methods/pipeline_stages.h"
#include "model/psf.h"
#include "model/psf_field.h"

#include <lab/device_buffer.h>
#include <lab/gemm.h>
#include <lab/streams.h>

namespace step5
{
  template <typename T>
  class BandPipeline
  {
  public:
    // Allocates the band storage and the workspaces for rows × cols images restored
    // with @p psf (its size sets the bandwidth), the products @p gemm and panels at
    // least @p panel_width wide (variant 9 takes up to twice that; 0: the width measured
    // best for the band, band_pipeline.cu; else at least 64, a substitution block), and
    // records the factorisation and the solves of @p channels channels.
    BandPipeline(const Psf &psf, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width = 0,
                 int channels = 1);

    // The same for a PSF field (psf_field.h): its picture's size sets the bandwidth,
    // as one PSF's does (varying_blur.h), and run() is then given the field's
    // DevicePsf.
    BandPipeline(const PsfField &field, int rows, int cols, const lab::Gemm<T> &gemm, int panel_width = 0,
                 int channels = 1);

    // The GPU memory the constructor takes.
    static double device_bytes(const Psf &psf, int rows, int cols, int panel_width = 0, int channels = 1);
    static double device_bytes(const PsfField &field, int rows, int cols, int panel_width = 0, int channels = 1);

    // f from g (images on the device, the pipeline's channels one after another). The
    // times: normal (A assembled from the PSF, and each Hᵀg_c), factor, solve; build
    // stays 0 (there is no H).
    StageTimes run(const DevicePsf<T> &psf, T lambda, const T *g, T *f);

  private:
    int rows_, cols_, channels_;
    int least_panel_;   // the panel width variant 9 is given (it takes up to twice that)
    BandLayout layout_; // laid out for the width it takes
    lab::Gemm<T> gemm_;
    // b_: the channels' Hᵀg_c one after another, each solved in place.
    lab::DeviceBuffer<T> band_, b_, cholesky_workspace_, solve_workspace_;
    lab::DeviceBuffer<int> info_;
    lab::CudaGraph factorisation_, solves_;
  };
} // namespace step5
