// λ from the field's own equations (see field_lambda.h).
#include "methods/field_lambda.h"

#include "gpu/blur_gpu.h"
#include "methods/conjugate_gradients.h"
#include "methods/restoration.h"

#include <lab/device_buffer.h>
#include <lab/format.h>
#include <lab/program.h>
#include <lab/timer.h>

#include <cmath>
#include <string>

namespace step5
{
  // The field and g go to the device once; every trial λ is one CG solve from f = 0
  // and one blur of its result, whose distance from g is summed in double on the host
  // (n numbers: a millisecond beside the solve).
  template <typename T>
  ResidualSearch choose_field_lambda_by_discrepancy(const SampledField &field, const lab::Matrix<double> &g,
                                                    double sigma, const LambdaRange &range, double start)
  {
    if (!(std::isfinite(sigma) && sigma > 0))
      throw lab::bad_input("the discrepancy principle needs the noise's standard deviation sigma > 0, not " +
                           lab::format_or_dash(sigma, "%g"));
    const int rows = g.rows(), cols = g.cols();
    const DevicePsf<T> psf(field);
    const lab::DeviceBuffer<T> g_on_device(lab::convert<T>(g));
    lab::DeviceBuffer<T> f(g.size()), blurred(g.size());
    ConjugateGradients<T> cg(rows, cols);
    lab::Matrix<T> values(rows, cols);
    const auto residual_norm2 = [&](double lambda) {
      cg.solve(psf, static_cast<T>(lambda), g_on_device.data(), f.data(), iterative_tolerance<T>(),
               10 * rows * cols);
      blur_on_device(psf, rows, cols, f.data(), blurred.data(), nullptr);
      blurred.download(values);
      double sum = 0;
      for (std::size_t i = 0; i < values.size(); ++i)
        {
          const double difference = static_cast<double>(values.data()[i]) - g.data()[i];
          sum += difference * difference;
        }
      return sum;
    };
    lab::HostTimer timer;
    timer.start();
    ResidualSearch search =
      find_lambda_where_residual_meets(residual_norm2, static_cast<double>(g.size()) * sigma * sigma, range, start);
    search.how = "discrepancy principle (the field's own equations, CG): ||H f - g||^2 = n sigma^2 with sigma = " +
                 lab::format_or_dash(sigma, "%.3g") + " " + search.how + " (" +
                 lab::format_milliseconds(timer.milliseconds()) + " ms)";
    return search;
  }

  template ResidualSearch choose_field_lambda_by_discrepancy<float>(const SampledField &, const lab::Matrix<double> &,
                                                                    double, const LambdaRange &, double);
  template ResidualSearch choose_field_lambda_by_discrepancy<double>(const SampledField &,
                                                                     const lab::Matrix<double> &, double,
                                                                     const LambdaRange &, double);
} // namespace step5
