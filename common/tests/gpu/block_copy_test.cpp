// GPU tests of lab/block_copy.h: a block of a row-major matrix copied by a kernel, with
// different leading dimensions on both sides, into a poisoned destination: every entry
// of the block arrives, nothing beside it is written; more rows than the kernel has
// thread blocks; an empty block; the same copy captured in a CUDA graph.
#include <lab/block_copy.h>
#include <lab/device_buffer.h>
#include <lab/streams.h>
#include <lab_catch.h>

#include <cmath>

namespace
{
  // Copies a rows × columns block from a source with leading dimension columns + 3 into
  // a NaN-poisoned destination with leading dimension columns + 5 (directly, or as a
  // CUDA graph); returns how many entries of the destination are not what they should
  // be: the source's inside the block, NaN in its padding.
  template <typename T>
  int wrong_entries(int rows, int columns, bool in_graph)
  {
    const int ld_source = columns + 3, ld_destination = columns + 5;
    lab::Matrix<T> source(rows, columns, ld_source);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < ld_source; ++c)
        source.data()[static_cast<long>(r) * ld_source + c] = T(r) * 1000 + T(c) + T(0.25);
    lab::DeviceBuffer<T> from(source), to(static_cast<std::size_t>(rows) * ld_destination + 1);
    to.poison();
    if (in_graph)
      {
        lab::CudaGraph graph;
        graph.capture([&](cudaStream_t stream) {
          lab::copy_block(to.data(), ld_destination, from.data(), ld_source, rows, columns, stream);
        });
        graph.launch();
      }
    else
      lab::copy_block(to.data(), ld_destination, from.data(), ld_source, rows, columns, nullptr);
    lab::Matrix<T> result(rows, columns, ld_destination);
    to.download(result);
    int wrong = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < ld_destination; ++c)
        {
          const T value = result.data()[static_cast<long>(r) * ld_destination + c];
          wrong += c < columns ? !(value == source(r, c)) : !std::isnan(value);
        }
    return wrong;
  }
} // namespace

TEST_CASE("block_copy: the block arrives whole, and nothing beside it is written")
{
  for (const int rows : {0, 1, 5, 300, 5000})
    for (const int columns : {1, 7, 256, 300})
      for (const bool in_graph : {false, true})
        {
          INFO(rows << " x " << columns << (in_graph ? " in a graph" : ""));
          CHECK(wrong_entries<float>(rows, columns, in_graph) == 0);
          CHECK(wrong_entries<double>(rows, columns, in_graph) == 0);
        }
}
