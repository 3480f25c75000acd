// Tests of lab/gemm.h on the host: the shape, the element access through op(), the
// store with α and β, and what converts to a lab::Gemm.
#include <lab/gemm.h>
#include <lab_catch.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace
{
  int calls = 0;
  void count_call(const lab::GemmArgs<float> &, cudaStream_t) { ++calls; }
} // namespace

TEST_CASE("gemm: the stored shapes follow the transposes")
{
  const lab::GemmShape plain{2, 3, 5};
  CHECK(plain.a_rows() == 2);
  CHECK(plain.a_cols() == 5);
  CHECK(plain.b_rows() == 5);
  CHECK(plain.b_cols() == 3);
  const lab::GemmShape both{2, 3, 5, lab::Op::transpose, lab::Op::transpose};
  CHECK(both.a_rows() == 5);
  CHECK(both.a_cols() == 2);
  CHECK(both.b_rows() == 3);
  CHECK(both.b_cols() == 5);
  CHECK(plain.flops() == 60);
  CHECK(std::string(lab::op_letter(lab::Op::none)) == "N");
  CHECK(std::string(lab::op_letter(lab::Op::transpose)) == "T");
}

TEST_CASE("gemm: op_a and op_b read the stored matrix along the right direction")
{
  // A stored 2x3 with ld 4 (one padding column): op(A) = Aᵀ is 3x2.
  const std::vector<double> a = {1, 2, 3, -1, 4, 5, 6, -1};
  lab::GemmArgs<double> g;
  g.shape = {3, 1, 2, lab::Op::transpose, lab::Op::none};
  g.a = a.data();
  g.lda = 4;
  CHECK(g.op_a(0, 0) == 1);
  CHECK(g.op_a(2, 1) == 6);
  CHECK(g.op_a(1, 0) == 2);
  g.shape.op_a = lab::Op::none;
  CHECK(g.op_a(1, 0) == 4);
  g.b = a.data();
  g.ldb = 4;
  g.shape.op_b = lab::Op::transpose;
  CHECK(g.op_b(2, 1) == 6);
  CHECK(g.op_b(1, 0) == 2);
}

TEST_CASE("gemm: store applies alpha and beta, and beta = 0 never reads C")
{
  std::vector<float> c = {std::numeric_limits<float>::quiet_NaN(), 10};
  lab::GemmArgs<float> g;
  g.c = c.data();
  g.ldc = 2;
  g.alpha = 2;
  g.beta = 0;
  g.store(0, 0, 3); // NaN in C does not matter with beta = 0
  CHECK(c[0] == 6);
  g.beta = 0.5f;
  g.store(0, 1, 3);
  CHECK(c[1] == 11);
}

TEST_CASE("gemm: launchers and lambdas convert to lab::Gemm")
{
  calls = 0;
  const lab::Gemm<float> from_function = count_call;
  const lab::Gemm<float> from_lambda = [](const lab::GemmArgs<float> &g, cudaStream_t) {
    calls += g.shape.m;
  };
  from_function({}, nullptr);
  from_lambda(lab::GemmArgs<float>{{10, 1, 1}}, nullptr);
  CHECK(calls == 11);
}

TEST_CASE("gemm: block is the part of the product that computes one block of C")
{
  // A 4x3 (ld 5), B 3x6 (ld 7), C 4x6 (ld 8): the block of C at (1, 2), 2 x 3.
  std::vector<double> a(20), b(21), c(32);
  std::iota(a.begin(), a.end(), 0.0); // every entry its own index, so that reads can be told apart
  std::iota(b.begin(), b.end(), 100.0);
  lab::GemmArgs<double> g = lab::gemm_args<double>({4, 6, 3}, 2, a.data(), 5, b.data(), 7, 0.5, c.data(), 8);
  g.output = lab::Output::lower_triangle;
  const lab::GemmArgs<double> part = g.block(1, 2, 2, 3);
  CHECK(part.shape.m == 2);
  CHECK(part.shape.n == 3);
  CHECK(part.shape.k == 3);
  CHECK(part.alpha == 2);
  CHECK(part.beta == 0.5);
  CHECK(part.output == lab::Output::whole);
  CHECK(part.a == a.data() + 5);      // row 1 of A
  CHECK(part.b == b.data() + 2);      // column 2 of B
  CHECK(part.c == c.data() + 8 + 2);  // entry (1, 2) of C
  // Transposed operands: op(A)'s row 1 is A's column 1, op(B)'s column 2 is B's row 2.
  g.shape.op_a = lab::Op::transpose;
  g.shape.op_b = lab::Op::transpose;
  const lab::GemmArgs<double> transposed = g.block(1, 2, 2, 3);
  CHECK(transposed.a == a.data() + 1);
  CHECK(transposed.b == b.data() + 2 * 7);
  CHECK(transposed.op_a(0, 0) == g.op_a(1, 0));
  CHECK(transposed.op_b(0, 0) == g.op_b(0, 2));
}
