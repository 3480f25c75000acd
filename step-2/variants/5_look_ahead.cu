#include "4_right_looking_gemm.cuh"
#include "5_look_ahead.cuh"
#include "diagonal_block_one_kernel.cuh"
#include "tiles.cuh"

#include <lab/streams.h>

#include <algorithm>

namespace step2
{
  namespace
  {
    // The second stream and the two events that tie it to the caller's stream, made
    // once and kept for the life of the program (creating a stream costs more than a
    // small factorisation).
    struct SideStream
    {
      lab::CudaStream stream{lab::CudaStream::Priority::high};
      lab::CudaEvent columns_ready, panel_done;
    };

    SideStream &side_stream()
    {
      static SideStream side;
      return side;
    }

    // Step 3 beyond the next panel: the trailing matrix from column q on loses the
    // product of the panel at p, in block columns @p width wide, or (variant 9) as one
    // lower-triangle product.
    template <typename T>
    void update_rest(const CholeskyArgs<T> &args, int p, int q, int width, const lab::Gemm<T> &update,
                     cudaStream_t s)
    {
      const int nb = std::min(args.n, args.panel_width), end = args.rows_end(p, nb);
      if (width == one_lower_triangle_product)
        update_lower_triangle(args, p, nb, q, update, s);
      else
        for (; q < end; q += width)
          update_block_column(args, p, nb, q, std::min(width, end - q), update, s);
    }
  } // namespace

  template <typename T>
  void factorize_looking_ahead(const CholeskyArgs<T> &args, PanelFactorization<T> panel, int update_width)
  {
    const int n = args.n, nb = std::min(args.n, args.panel_width);
    const cudaStream_t s = args.stream;
    SideStream &side = side_stream();
    if (args.first_column == 0) // a later part of variant 10's matrix keeps the info
      clear_info(args.info, s);
    panel(args, 0, s);
    // @exercise{look_ahead_order, 3}
    // Overlapping two streams in the right order with events. For each panel p (nb
    // columns wide, from 0 while p + nb < n), with end = `args.rows_end(p, nb)`, next
    // = p + nb and next_width = min(nb, n - next): update the next panel's columns
    // on s (update_block_column, min(next_width, end - next) columns wide); make
    // side.stream wait for that with lab::wait_for
    // and the event `side.columns_ready`, and factorise the next panel on side.stream
    // (`panel(args, next, ...)`); meanwhile update the rest of the trailing matrix,
    // from column next + next_width, on s (`update_rest`); last, make s wait for
    // side.stream through `side.panel_done`.
    // No other waits: each one you add serialises work the look-ahead overlaps.
    for (int p = 0; p + nb < n; p += nb)
      {
        const int next = p + nb, next_width = std::min(nb, n - next);
        const int end = args.rows_end(p, nb); // n, or where the band of the panel ends
        // 1. The next panel's columns.
        update_block_column(args, p, nb, next, std::min(next_width, end - next), args.gemm, s);
        // 2. The next panel, on the second stream ...
        lab::wait_for(s, side.columns_ready, side.stream.get());
        panel(args, next, side.stream.get());
        // 3. ... while the rest of the trailing matrix is updated here.
        update_rest(args, p, next + next_width, update_width, args.gemm, s);
        // 4. Both done before the next step.
        lab::wait_for(side.stream.get(), side.panel_done, s);
      }
    // @end-exercise
  }

  namespace
  {
    // Variant 5's panel: variant 4's, with the diagonal block in one launch.
    template <typename T>
    void panel_with_one_kernel_diagonal(const CholeskyArgs<T> &args, int p, cudaStream_t stream)
    {
      factorize_panel(args, p, factorize_diagonal_block_one_kernel<T>, stream);
    }
  } // namespace

  template <typename T>
  void factorize_5_look_ahead(const CholeskyArgs<T> &args)
  {
    // The trailing update in block columns twice as wide as a panel.
    factorize_looking_ahead(args, panel_with_one_kernel_diagonal<T>, 2 * std::min(args.n, args.panel_width));
  }

  template void factorize_looking_ahead(const CholeskyArgs<float> &, PanelFactorization<float>, int);
  template void factorize_looking_ahead(const CholeskyArgs<double> &, PanelFactorization<double>, int);
  template void factorize_5_look_ahead(const CholeskyArgs<float> &);
  template void factorize_5_look_ahead(const CholeskyArgs<double> &);
} // namespace step2
