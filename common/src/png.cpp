#include <lab/png.h>
#include <lab/program.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <vector>

#if LAB_HAVE_PNG
#include <png.h>
#endif

namespace lab
{
  bool have_png() { return LAB_HAVE_PNG; }

#if LAB_HAVE_PNG
  namespace
  {
    // libpng is a C library, and C has no exceptions. When libpng finds an error it
    // calls an error function that must not return; the way out is longjmp, back to a
    // setjmp the caller placed. A longjmp skips C++ destructors, and C++ allows it only
    // where a throw in its place would run none: between the setjmp and the error no
    // object that owns something may live in the frames being skipped.
    //
    // The course keeps that rule by construction. Every libpng call that can fail runs
    // inside survives() below, as a lambda that calls libpng and nothing else; the
    // buffers it reads or writes, and the structures of libpng itself, are owned by
    // the caller, outside the jump. When libpng fails, survives() returns false and
    // plain C++ goes on: the owners free what they own as usual, and the caller throws
    // lab::bad_input with the reason libpng gave.
    void on_error(png_structp png, png_const_charp message);
    void on_warning(png_structp png, png_const_charp message);

    // One libpng reader or writer: its two structures, freed however the work ends,
    // and the reason libpng gave when it failed, with the warning before it, which
    // often says more ("Invalid IHDR data" comes after "Image width is zero in IHDR").
    struct Session
    {
      explicit Session(bool for_writing) : writing(for_writing)
      {
        png = writing ? png_create_write_struct(PNG_LIBPNG_VER_STRING, this, on_error, on_warning)
                      : png_create_read_struct(PNG_LIBPNG_VER_STRING, this, on_error, on_warning);
        if (png != nullptr)
          info = png_create_info_struct(png);
        if (info == nullptr)
          {
            destroy();
            throw std::runtime_error("libpng cannot start (out of memory, or another version than it was built with)");
          }
      }
      ~Session() { destroy(); }
      Session(const Session &) = delete;
      Session &operator=(const Session &) = delete;

      void destroy()
      {
        if (writing)
          png_destroy_write_struct(&png, &info);
        else
          png_destroy_read_struct(&png, &info, nullptr);
      }

      const bool writing;
      png_structp png = nullptr;
      png_infop info = nullptr;
      char reason[256] = "";
      char warning[256] = "";

      // Why libpng failed, in its words.
      std::string why() const { return warning[0] ? std::string(reason) + ": " + warning : std::string(reason); }
    };

    // libpng's error function: keep the reason, jump back to survives().
    void on_error(png_structp png, png_const_charp message)
    {
      Session &session = *static_cast<Session *>(png_get_error_ptr(png));
      std::snprintf(session.reason, sizeof session.reason, "%s", message);
      png_longjmp(png, 1);
    }

    // Warnings (a questionable but readable value) do not stop the work, and the
    // course keeps them off stderr: its programs say what matters in their own lines.
    // The last one is kept, to explain an error that follows it.
    void on_warning(png_structp png, png_const_charp message)
    {
      Session &session = *static_cast<Session *>(png_get_error_ptr(png));
      std::snprintf(session.warning, sizeof session.warning, "%s", message);
    }

    // Runs @p stage and returns false when libpng gave up in it. A stage calls libpng
    // and makes nothing that needs a destructor (no std::string, no std::vector, not
    // even as a temporary); this frame holds nothing either, so the jump skips nothing.
    template <typename Stage>
    bool survives(Session &session, Stage &&stage)
    {
      session.warning[0] = '\0';
      if (setjmp(png_jmpbuf(session.png)))
        return false;
      stage();
      return true;
    }

    // libpng reads the file through this function from bytes already in memory. Doing
    // the reading ourselves tells a file that ends early (truncated) apart from one
    // that is damaged, which libpng's own reading reports alike ("Read Error").
    struct Input
    {
      const std::vector<unsigned char> &bytes;
      std::size_t taken = 0;
      bool ran_out = false;
    };

    void read_bytes(png_structp png, png_bytep out, std::size_t count)
    {
      Input &input = *static_cast<Input *>(png_get_io_ptr(png));
      if (count > input.bytes.size() - input.taken)
        {
          input.ran_out = true;
          png_error(png, "the file ends early");
        }
      std::memcpy(out, input.bytes.data() + input.taken, count);
      input.taken += count;
    }

    [[noreturn]] void refuse(const std::string &path, const Session &session, const Input &input)
    {
      if (input.ran_out)
        throw bad_input(path + ": the file ends before the PNG does (truncated)");
      throw bad_input(path + ": a damaged PNG file (libpng: " + session.why() + ")");
    }

    // The names lab::PictureFile gives to the five colour types of PNG.
    const char *colour_type_name(int type)
    {
      switch (type)
        {
          case PNG_COLOR_TYPE_GRAY:
            return "grey";
          case PNG_COLOR_TYPE_GRAY_ALPHA:
            return "grey+alpha";
          case PNG_COLOR_TYPE_RGB:
            return "RGB";
          case PNG_COLOR_TYPE_RGB_ALPHA:
            return "RGBA";
          default:
            return "palette";
        }
    }
  } // namespace
#endif

  // Reading a PNG takes three stages, each behind survives(): the header; the
  // transformations that make every colour type and depth into 8- or 16-bit samples;
  // the pixels. Between the first two the course checks the size, so that a file
  // claiming 100000 × 100000 pixels is refused before libpng allocates anything for
  // its rows.
  Picture read_png(const std::string &path)
  {
#if !LAB_HAVE_PNG
    throw bad_input(path + ": cannot read a PNG: this build has no libpng (install libpng-dev and configure again)");
#else
    std::ifstream file(path, std::ios::binary);
    if (!file)
      throw bad_input(path + ": cannot open the file");
    const std::vector<unsigned char> bytes(std::istreambuf_iterator<char>(file), {});
    if (bytes.size() < 8 || png_sig_cmp(bytes.data(), 0, 8) != 0)
      throw bad_input(path + ": not a PNG file (it does not start with the 8 bytes of the PNG signature)");

    Session session(false);
    Input input{bytes};
    png_set_read_fn(session.png, &input, read_bytes);

    // The header. Before it, what the course asks of libpng beyond its defaults: no
    // size limit of its own (the course's comes next, with its own message); a bad
    // CRC is an error in every chunk, also in the optional ones libpng would skip with
    // a warning; every chunk except those that make the picture (IHDR, PLTE, tRNS,
    // IDAT, IEND) is skipped unread but for its CRC, so that a colour profile or a
    // comment libpng finds questionable cannot matter; and what libpng calls "benign"
    // errors (the pixels' checksum wrong at the end of the data, data after it) are
    // errors: a damaged file is refused, not half trusted.
    if (!survives(session, [&] {
          png_set_user_limits(session.png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
          png_set_crc_action(session.png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
          png_set_keep_unknown_chunks(session.png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
          png_set_benign_errors(session.png, 0);
          png_read_info(session.png, session.info);
        }))
      refuse(path, session, input);
    const png_uint_32 width = png_get_image_width(session.png, session.info);
    const png_uint_32 height = png_get_image_height(session.png, session.info);
    const int type = png_get_color_type(session.png, session.info);
    const int depth = png_get_bit_depth(session.png, session.info);
    const bool transparency = png_get_valid(session.png, session.info, PNG_INFO_tRNS) != 0;
    if (std::uint64_t(width) * height > std::uint64_t(most_picture_pixels))
      throw bad_input(path + ": " + std::to_string(width) + " x " + std::to_string(height) +
                      " pixels is too large (at most 2^28)");

    // The transformations: a palette index becomes its RGB colour (RGBA where a tRNS
    // chunk gives the palette transparency), a grey of 1, 2 or 4 bits becomes 8 bits
    // (scaled: 2-bit 1 becomes 85 = 255/3, so s / (2^b − 1) does not change), and
    // interlaced rows are put in their places. Everything else stays as the file has
    // it, 16-bit samples too, most significant byte first.
    if (!survives(session, [&] {
          if (type == PNG_COLOR_TYPE_PALETTE)
            png_set_palette_to_rgb(session.png);
          if (type == PNG_COLOR_TYPE_GRAY && depth < 8)
            png_set_expand_gray_1_2_4_to_8(session.png);
          png_set_interlace_handling(session.png);
          png_read_update_info(session.png, session.info);
        }))
      refuse(path, session, input);
    const std::size_t row_bytes = png_get_rowbytes(session.png, session.info);
    const int samples_per_pixel = png_get_channels(session.png, session.info);
    const int sample_bytes = png_get_bit_depth(session.png, session.info) / 8;

    // The pixels, and the rest of the file after them (png_read_end), whose CRCs are
    // checked too.
    std::vector<unsigned char> pixels(height * row_bytes);
    std::vector<png_bytep> rows(height);
    for (png_uint_32 r = 0; r < height; ++r)
      rows[r] = pixels.data() + r * row_bytes;
    if (!survives(session, [&] {
          png_read_image(session.png, rows.data());
          png_read_end(session.png, nullptr);
        }))
      refuse(path, session, input);

    // Samples to values. A pixel holds 1 to 4 samples: grey, grey + alpha, RGB or RGBA;
    // the first one or three are the picture, an alpha after them is dropped.
    Picture picture;
    picture.file = {"PNG", depth, colour_type_name(type), (type & PNG_COLOR_MASK_ALPHA) != 0 || transparency};
    const int channels = (type & PNG_COLOR_MASK_COLOR) != 0 ? 3 : 1;
    picture.channels.assign(channels, Matrix<double>(static_cast<int>(height), static_cast<int>(width)));
    const double top = sample_bytes == 2 ? 65535 : 255;
    for (int r = 0; r < static_cast<int>(height); ++r)
      for (int c = 0; c < static_cast<int>(width); ++c)
        for (int k = 0; k < channels; ++k)
          {
            const unsigned char *sample = rows[r] + (std::size_t(c) * samples_per_pixel + k) * sample_bytes;
            const int value = sample_bytes == 2 ? 256 * sample[0] + sample[1] : sample[0];
            picture.channels[k](r, c) = value / top;
          }
    return picture;
#endif
  }

  // Writing is one stage: the header, the rows from lab::file_samples (already in the
  // file's byte order), the end. libpng writes straight into the file; if that fails
  // (a full disk), the half-written file is removed (when it is a plain file: a
  // device such as /dev/full is left alone).
  void write_png(const std::string &path, const Picture &picture, int bits)
  {
    if (!have_png())
      throw std::logic_error("write_png: this build has no libpng (see have_png), so " + path + " cannot be written");
    std::vector<unsigned char> samples = file_samples(picture, bits, "write_png");
#if LAB_HAVE_PNG
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(std::fopen(path.c_str(), "wb"), std::fclose);
    if (!file)
      throw bad_input(path + ": cannot write the file");
    const std::size_t row_bytes = samples.size() / picture.rows();
    std::vector<png_bytep> rows(picture.rows());
    for (int r = 0; r < picture.rows(); ++r)
      rows[r] = samples.data() + r * row_bytes;
    const int type = picture.is_colour() ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY;

    Session session(true);
    png_init_io(session.png, file.get());
    const bool written = survives(session, [&] {
      png_set_IHDR(session.png, session.info, picture.cols(), picture.rows(), bits, type, PNG_INTERLACE_NONE,
                   PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_write_info(session.png, session.info);
      png_write_image(session.png, rows.data());
      png_write_end(session.png, nullptr);
    });
    const bool closed = std::fclose(file.release()) == 0;
    if (!written || !closed)
      {
        std::error_code ignored;
        if (std::filesystem::is_regular_file(path, ignored))
          std::filesystem::remove(path, ignored);
        throw bad_input(path + ": cannot write the file" +
                        (written ? std::string() : " (libpng: " + session.why() + ")"));
      }
#endif
  }

  void write_png(const std::string &path, const Matrix<double> &image) { write_png(path, Picture{{image}, {}}, 8); }
} // namespace lab
