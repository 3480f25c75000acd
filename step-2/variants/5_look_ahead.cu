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
  } // namespace

  template <typename T>
  void lower_rank_update(const CholeskyArgs<T> &args, int p, int w, int r, int m,
                         const lab::Gemm<T> &gemm, cudaStream_t s)
  {
    const int nb = args.panel_width;
    const auto entry = [&](int row, int col) { return args.a + static_cast<long>(row) * args.ld + col; };
    lab::GemmArgs<T> g;
    g.alpha = -1;
    g.beta = 1;
    g.lda = g.ldb = g.ldc = args.ld;
    if (m <= nb)
      {
        // A diagonal block, computed whole.
        g.shape = {m, m, w, lab::Op::none, lab::Op::transpose};
        g.a = g.b = entry(r, p);
        g.c = entry(r, r);
        gemm(g, s);
        return;
      }
    // The split falls on a multiple of nb, so that the diagonal blocks are panels'.
    const int top = (m / 2 + nb - 1) / nb * nb;
    lower_rank_update(args, p, w, r, top, gemm, s);
    g.shape = {m - top, top, w, lab::Op::none, lab::Op::transpose};
    g.a = entry(r + top, p);
    g.b = entry(r, p);
    g.c = entry(r + top, r);
    gemm(g, s);
    lower_rank_update(args, p, w, r + top, m - top, gemm, s);
  }

  template <typename T>
  void factorize_5_look_ahead(const CholeskyArgs<T> &args)
  {
    const int n = args.n, nb = std::min(args.n, args.panel_width);
    const lab::Gemm<T> &update = args.update_gemm ? args.update_gemm : args.gemm;
    const cudaStream_t s = args.stream;
    SideStream &side = side_stream();
    clear_info(args.info, s);
    const DiagonalBlockFactorization<T> diagonal = factorize_diagonal_block_one_kernel<T>;
    factorize_panel(args, 0, diagonal, s);
    for (int p = 0; p + nb < n; p += nb)
      {
        const int next = p + nb, next_width = std::min(nb, n - next);
        // 1. The next panel's columns.
        update_block_column(args, p, nb, next, next_width, update, s);
        // 2. The next panel, on the second stream ...
        lab::wait_for(s, side.columns_ready, side.stream.get());
        factorize_panel(args, next, diagonal, side.stream.get());
        // 3. ... while the rest of the trailing matrix is updated here.
        const int rest = next + next_width;
        lower_rank_update(args, p, nb, rest, n - rest, update, s);
        // 4. Both done before the next step.
        lab::wait_for(side.stream.get(), side.panel_done, s);
      }
  }

  template void lower_rank_update(const CholeskyArgs<float> &, int, int, int, int,
                                  const lab::Gemm<float> &, cudaStream_t);
  template void lower_rank_update(const CholeskyArgs<double> &, int, int, int, int,
                                  const lab::Gemm<double> &, cudaStream_t);
  template void factorize_5_look_ahead(const CholeskyArgs<float> &);
  template void factorize_5_look_ahead(const CholeskyArgs<double> &);
} // namespace step2
