#pragma once
// @sect3{The problem: C = α op(A) op(B) + β C}
//
// Every kernel of this step, the CPU references and cuBLAS compute the same thing, the
// BLAS routine GEMM (GEneral Matrix-Matrix product):
// @f[ C \leftarrow \alpha\,\mathrm{op}(A)\,\mathrm{op}(B) + \beta\, C, @f]
// where C is m×n, op(A) is m×k and op(B) is k×n, and op(X) is X or its transpose
// @f$X^T@f$. The transposes cost nothing to ask for: the matrix is not moved, only read
// along the other direction. Later steps need exactly that (step-5 forms
// @f$H^TH@f$, step-2 updates a trailing matrix by @f$A - LL^T@f$).
//
// The operation is defined in the course's library, lab/gemm.h, not in this step:
// steps 2 and 3 run matrix products before this step teaches them, so the interface
// lives where every step can reach it. lab::GemmShape holds the sizes and the
// transposes, lab::GemmArgs the scalars and the device pointers, and lab::Gemm is
// "anything that computes one on a stream": cuBLAS in steps 2 and 3, and the kernels
// of this step when step-5 plugs them into the same algorithms (step4::gemm, at the
// end of the kernel list below). Matrices are stored row by row, like lab::Matrix:
// entry (r, c) of a matrix with leading dimension ld is at `data[r * ld + c]`. β = 0
// means "C is output only": C is then never read, so whatever it held (even NaN) does
// not matter, as in BLAS.

#include <lab/gemm.h>

namespace step4
{
  using lab::GemmArgs;
  using lab::GemmShape;
  using lab::Op;
  using lab::op_letter;
} // namespace step4
