#include <lab/png.h>
#include <lab/program.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#if LAB_HAVE_PNG
#include <png.h>
#endif

namespace lab
{
  bool have_png() { return LAB_HAVE_PNG; }

  void write_png(const std::string &path, const Matrix<double> &image)
  {
    if (!have_png())
      throw std::logic_error("write_png: this build has no libpng (see have_png)");
    if (image.rows() == 0 || image.cols() == 0)
      throw std::invalid_argument("write_png: an empty image");
    std::vector<unsigned char> pixels;
    pixels.reserve(static_cast<std::size_t>(image.rows()) * image.cols());
    for (int r = 0; r < image.rows(); ++r)
      for (int c = 0; c < image.cols(); ++c)
        {
          if (std::isnan(image(r, c)))
            throw std::invalid_argument("write_png: pixel (" + std::to_string(r) + ", " + std::to_string(c) +
                                        ") is NaN");
          pixels.push_back(static_cast<unsigned char>(std::lround(std::clamp(image(r, c), 0.0, 1.0) * 255)));
        }
#if LAB_HAVE_PNG
    // libpng's simplified interface: describe the image, hand over the rows.
    png_image description{};
    description.version = PNG_IMAGE_VERSION;
    description.width = static_cast<png_uint_32>(image.cols());
    description.height = static_cast<png_uint_32>(image.rows());
    description.format = PNG_FORMAT_GRAY;
    if (!png_image_write_to_file(&description, path.c_str(), 0, pixels.data(), 0, nullptr))
      throw bad_input(path + ": cannot write the PNG file (" + description.message + ")");
#endif
  }
} // namespace lab
