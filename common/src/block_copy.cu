// The block copy kernel (see lab/block_copy.h).
#include <lab/block_copy.h>
#include <lab/cuda_check.h>

#include <algorithm>

namespace lab
{
  namespace
  {
    // Each thread block copies rows of the block, its threads along a row (neighbouring
    // threads, neighbouring entries: whole 128-byte lines read and written), the grid
    // striding over the rows.
    template <typename T>
    __global__ void copy_rows(T *destination, int ld_destination, const T *source, int ld_source, int rows,
                              int columns)
    {
      for (int r = blockIdx.x; r < rows; r += gridDim.x)
        for (int c = threadIdx.x; c < columns; c += blockDim.x)
          destination[static_cast<long>(r) * ld_destination + c] = source[static_cast<long>(r) * ld_source + c];
    }
  } // namespace

  template <typename T>
  void copy_block(T *destination, int ld_destination, const T *source, int ld_source, int rows, int columns,
                  cudaStream_t stream)
  {
    if (rows <= 0 || columns <= 0)
      return;
    constexpr int threads = 256, most_blocks = 4096;
    copy_rows<<<std::min(rows, most_blocks), threads, 0, stream>>>(destination, ld_destination, source, ld_source,
                                                                   rows, columns);
    LAB_CHECK_LAUNCH();
  }

  template void copy_block(float *, int, const float *, int, int, int, cudaStream_t);
  template void copy_block(double *, int, const double *, int, int, int, cudaStream_t);
} // namespace lab
