#pragma once
// @sect3{Copying tiles from global to shared memory}
//
// From kernel 7 on, the kernels move tiles of A and B into shared memory in chunks of
// 16 bytes (four floats, two doubles): one instruction per chunk instead of four
// (`LDG.E.128` in the machine code, where kernel 6 issues four `LDG.E`). The helpers
// here do that for every later kernel, so that each kernel file shows its own idea and
// not the bookkeeping. They cover two cases a real GEMM cannot avoid:
// - Edges. A tile that hangs over the edge of the matrix gets zeros there (they add
//   nothing to the sums). A chunk that is only partly inside is read element by
//   element.
// - Alignment. A 16-byte load needs a 16-byte aligned address: the matrix must start
//   on one and its leading dimension must be a multiple of the chunk (for example
//   k = 65 floats per row is not). The `vectorized` template parameter chooses: the
//   launchers check the alignment at run time and pick the 16-byte version only where
//   it is valid, else a version that reads single elements.
//
// A tile is a rows×cols block of a row-major matrix, cut into chunks of consecutive
// elements of a row; the threads of the block share the chunks out round-robin, so
// that neighbouring threads read neighbouring chunks (coalesced).

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace step4
{
  // The elements in 16 bytes, and the 16-byte vector type that holds them.
  template <typename T>
  struct Chunk;
  template <>
  struct Chunk<float>
  {
    static constexpr int size = 4;
    using Vector = float4;
  };
  template <>
  struct Chunk<double>
  {
    static constexpr int size = 2;
    using Vector = double2;
  };

  // Reads the 16-byte chunk at @p source into registers, as one vector load.
  template <typename T>
  __device__ __forceinline__ void load_vector(const T *source, T *destination)
  {
    using Vector = typename Chunk<T>::Vector;
    *reinterpret_cast<Vector *>(destination) = *reinterpret_cast<const Vector *>(source);
  }

  // Four consecutive elements from shared memory (a float4, or two double2): how
  // the fast kernels read their fragments.
  template <typename T>
  __device__ __forceinline__ void load_four(const T *source, T (&destination)[4])
  {
    for (int part = 0; part < 4; part += Chunk<T>::size)
      load_vector(source + part, destination + part);
  }

  // Where the chunks of a rows×cols tile are, and how many each thread copies.
  template <typename T, int rows, int cols, int threads>
  struct TileChunks
  {
    static constexpr int size = Chunk<T>::size;
    static constexpr int per_row = cols / size;
    static constexpr int per_thread = rows * per_row / threads;
    static_assert(cols % size == 0, "a tile row must hold whole chunks");
    static_assert(rows * per_row % threads == 0, "every thread copies as many chunks");

    // Chunk number @p index of the tile starts at (row, col) of the tile.
    __device__ static int row(int index) { return index / per_row; }
    __device__ static int col(int index) { return index % per_row * size; }
    // The chunk this thread copies in round @p round.
    __device__ static int index(int round) { return round * threads + threadIdx.x; }
  };

  // The matrix a tile is read from: its start, leading dimension and size, for the
  // edge checks.
  template <typename T>
  struct MatrixView
  {
    const T *data;
    int ld;
    int rows;
    int cols;
  };

  // Loads one chunk, (row, col ... col + size - 1) of @p matrix, into registers; what
  // lies outside the matrix becomes zero.
  template <typename T, bool vectorized>
  __device__ __forceinline__ void load_chunk(const MatrixView<T> &matrix, int row, int col,
                                             T (&values)[Chunk<T>::size])
  {
    constexpr int size = Chunk<T>::size;
    if (row >= matrix.rows)
      {
        for (int q = 0; q < size; ++q)
          values[q] = T(0);
        return;
      }
    const T *source = matrix.data + static_cast<long>(row) * matrix.ld + col;
    if (vectorized && col + size <= matrix.cols)
      load_vector(source, values);
    else
      for (int q = 0; q < size; ++q)
        values[q] = col + q < matrix.cols ? source[q] : T(0);
  }

  // A tile copy through registers, in two halves: load() reads the chunks from global
  // memory into registers, store() writes them to shared memory, as they are or
  // transposed (element (r, c) of the tile to row c, column r of shared memory). Kept
  // apart, the two halves let a kernel start the loads of the next tile, compute on
  // the current one while they travel, and only then store (kernel 10).
  template <typename T, int rows, int cols, int threads, bool vectorized, bool transpose>
  struct StagedTileCopy
  {
    using Chunks = TileChunks<T, rows, cols, threads>;
    T staged[Chunks::per_thread][Chunk<T>::size];

    // Reads the tile whose top-left entry is (row0, col0) of @p matrix.
    __device__ __forceinline__ void load(const MatrixView<T> &matrix, int row0, int col0)
    {
#pragma unroll
      for (int round = 0; round < Chunks::per_thread; ++round)
        {
          const int index = Chunks::index(round);
          load_chunk<T, vectorized>(matrix, row0 + Chunks::row(index),
                                    col0 + Chunks::col(index), staged[round]);
        }
    }

    // Writes the tile to @p tile, a shared-memory array with rows of @p ld elements.
    __device__ __forceinline__ void store(T *tile, int ld) const
    {
#pragma unroll
      for (int round = 0; round < Chunks::per_thread; ++round)
        {
          const int index = Chunks::index(round);
          const int r = Chunks::row(index), c = Chunks::col(index);
          if (transpose)
            for (int q = 0; q < Chunk<T>::size; ++q)
              tile[(c + q) * ld + r] = staged[round][q];
          else
            *reinterpret_cast<typename Chunk<T>::Vector *>(tile + r * ld + c) =
              *reinterpret_cast<const typename Chunk<T>::Vector *>(staged[round]);
        }
    }
  };

  // A tile copy that bypasses the registers: `cp.async` (through CUDA's
  // __pipeline_memcpy_async) asks the memory system to copy global memory straight
  // into shared memory and returns at once; the thread computes while the copy
  // travels, and waits for it (__pipeline_wait_prior) only when it needs the data. It
  // cannot transpose: it copies bytes as they lie. Its last argument, "bytes to fill
  // with zeros", handles the edges: a chunk outside the matrix reads nothing and
  // becomes zeros. (With nothing to read, the source address is still passed valid:
  // the matrix's start.)
  template <typename T, int rows, int cols, int threads, bool vectorized>
  __device__ __forceinline__ void copy_tile_async(const MatrixView<T> &matrix, int row0,
                                                  int col0, T *tile, int ld)
  {
    using Chunks = TileChunks<T, rows, cols, threads>;
    constexpr int size = Chunk<T>::size;
#pragma unroll
    for (int round = 0; round < Chunks::per_thread; ++round)
      {
        const int index = Chunks::index(round);
        const int r = Chunks::row(index), c = Chunks::col(index);
        const int row = row0 + r, col = col0 + c;
        int inside = row < matrix.rows ? matrix.cols - col : 0;
        inside = inside < 0 ? 0 : (inside > size ? size : inside);
        const T *source =
          inside > 0 ? matrix.data + static_cast<long>(row) * matrix.ld + col : matrix.data;
        T *destination = tile + r * ld + c;
        if (vectorized)
          __pipeline_memcpy_async(destination, source, 16, (size - inside) * sizeof(T));
        else
          for (int q = 0; q < size; ++q)
            __pipeline_memcpy_async(destination + q, q < inside ? source + q : matrix.data,
                                    sizeof(T), q < inside ? 0 : sizeof(T));
      }
  }

  // Whether 16-byte loads are valid for a matrix: its start aligned to 16 bytes and
  // its leading dimension a whole number of chunks.
  template <typename T>
  bool allows_vector_loads(const T *data, int ld)
  {
    return reinterpret_cast<unsigned long>(data) % 16 == 0 && ld % Chunk<T>::size == 0;
  }
} // namespace step4
