// The timing harness of step-3's triangular inverse (Problem::time_on_fresh_inputs,
// inverse_table.h) against the faults it exists to catch. (A .cu file: the table's
// header holds the kernels of its checks.)
#include "triangular/inverse_table.h"

#include <first_answer_kept.h>
#include <lab/cuda_check.h>
#include <lab_catch.h>

// The faults a timing harness must not let through (issue 54), in step-3's: a variant
// that inverts on its first call only and then hands back the X it kept (in a buffer of
// its own, beyond the reach of the poison), and one that writes X on its first call
// only (later runs leave the poison). Each run's L is fresh, 2^e L
// (Problem::time_on_fresh_inputs), and every run's X is probed: both must fail, and the
// honest variant beside them pass. (A variant is a plain function, so what the two
// remember lives here.)
namespace
{
  lab_test::FirstAnswerKept<float> *first_inverse = nullptr;
  int inversions_so_far = 0;

  const step3::InverseVariant<float> &honest_inverse() { return step3::inverse_variants<float>().front(); }

  void replays_its_first_inverse(const step3::InverseArgs<float> &args)
  {
    (*first_inverse)(args.x, std::size_t(args.n) * args.ldx, [&] { honest_inverse().invert(args); });
    LAB_CHECK(cudaMemset(args.info, 0, sizeof(int)));
  }

  void inverts_only_once(const step3::InverseArgs<float> &args)
  {
    if (inversions_so_far++ == 0)
      return honest_inverse().invert(args);
    LAB_CHECK(cudaMemset(args.info, 0, sizeof(int)));
  }
} // namespace

TEST_CASE("planted: a variant that replays its first inverse, or inverts only once, FAILs the probe of every run",
          "[gpu]")
{
  step3::Settings settings;
  settings.use_gpu = true;
  settings.options.reps = 3;
  lab::Cublas cublas;
  step3::Problem<float> problem(settings, 257, &cublas);
  lab_test::FirstAnswerKept<float> kept;
  first_inverse = &kept;
  step3::InverseVariant<float> planted = honest_inverse();
  const step3::Measurement right = step3::run_inverse_variant(problem, planted);
  REQUIRE(right.probe);
  CHECK(right.probe->worst <= right.probe->tolerance);
  for (auto fault : {replays_its_first_inverse, inverts_only_once})
    {
      planted.invert = fault;
      const step3::Measurement wrong = step3::run_inverse_variant(problem, planted);
      REQUIRE(wrong.probe);
      INFO("the probe: " << wrong.probe->worst << ", the last run's residual: " << wrong.residual);
      CHECK_FALSE(wrong.probe->worst <= wrong.probe->tolerance);
    }
}
