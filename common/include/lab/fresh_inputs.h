#pragma once
/// @file
/// @brief Fresh inputs for every timed run: the problem scaled by a power of two that
/// the code under test cannot know.
///
/// A benchmark that runs the same code on the same input many times invites a
/// shortcut: remember the answer of the first run and hand it back afterwards, in the
/// time of a copy. Public autograders have seen it (a kernel that kept its result in a
/// static buffer topped one leaderboard). Poisoning the output before every run does
/// not stop it, the copy overwrites the poison; checking every run does not stop it
/// either, the remembered answer is right. What stops it is an input that is not the
/// same twice running.
///
/// The course makes each run's input the problem scaled by 2^e, with e drawn before
/// the run from a seed taken from the operating system's entropy (std::random_device):
/// no program can know it in advance, and it is never the previous run's e. Scaling by
/// a power of two changes only the exponents of the numbers, never their significands,
/// so every rounding of every algorithm happens exactly as on the unscaled problem and
/// the answer scales exactly: A B → 2^e A B, A = L Lᵀ → 4^e A = (2^e L)(2^e L)ᵀ,
/// L⁻¹ → (2^e L)⁻¹ = 2^-e L⁻¹, a linear solve f = M g → 2^e f. Each run's result,
/// multiplied back by the inverse power, is then exactly what the same code gives on
/// the unscaled problem, and the step's checks apply to it unchanged. A remembered
/// answer is off by a factor of at least 2 and fails them. (Exponents stay within
/// ±3 so that nothing overflows or underflows that did not before, the one case in
/// which a power of two would change a result.)
///
/// What this does not stop: code that reads its input, recognises it as a scaled copy
/// of one it has seen, and scales a remembered answer to match. That is computing
/// something, and the step's physical limit (tools/physical-limit) still refuses
/// a time below what the work allows.
/// @code
///   lab::FreshScale fresh;
///   prepare = [&] { fresh.next(); scale_on_gpu(work, count, fresh.exponent()); };
///   after   = [&] { scale_on_gpu(work, count, -fresh.exponent()); check(work); };
/// @endcode

#include <lab/matrix.h>

#include <cmath>
#include <cstddef>
#include <random>

#include <cuda_runtime.h>

namespace lab
{
  /// A seed no program can know in advance: from the operating system's entropy.
  inline unsigned unpredictable_seed() { return std::random_device{}(); }

  /// The exponent e of the power of two 2^e by which the next run's input is scaled:
  /// drawn from [-3, 3], never the same twice running.
  class FreshScale
  {
  public:
    FreshScale() : engine_(unpredictable_seed()) {}

    /// Draws the next run's exponent.
    void next()
    {
      // One of the six exponents other than the current one, uniformly.
      std::uniform_int_distribution<int> other(0, 5);
      const int e = other(engine_) - 3;
      exponent_ = e >= exponent_ ? e + 1 : e;
    }

    /// The current exponent e (0 before the first next()).
    int exponent() const { return exponent_; }

  private:
    std::mt19937 engine_;
    int exponent_ = 0;
  };

  /// Multiplies every number of @p m by 2^@p exponent, on the host: exactly, by
  /// changing their exponents (ldexp).
  template <typename T>
  void scale(Matrix<T> &m, int exponent)
  {
    T *values = m.data();
    for (std::size_t e = 0; e < m.size(); ++e)
      values[e] = std::ldexp(values[e], exponent);
  }

  /// Multiplies the @p count numbers at @p data on the device by 2^@p exponent, on
  /// @p stream: exactly, by changing their exponents (ldexp).
  template <typename T>
  void scale_on_gpu(T *data, std::size_t count, int exponent, cudaStream_t stream = nullptr);
} // namespace lab
