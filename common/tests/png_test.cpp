// Tests of lab/png.h. Where libpng was found: files of every colour type and depth,
// written by libpng's own writer, read back exactly; what write_png writes read back by
// libpng itself and by read_png; every damaged file refused in one line. Where it was
// not: reading and writing say so.
#include <lab/png.h>
#include <lab/program.h>
#include <lab_catch.h>

#include "refusal_checks.h"
#include "test_support.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#if LAB_HAVE_PNG
#include <png.h>
#endif

using lab_test::read_text;
using lab_test::TempDir;
using lab_test::write_text;

TEST_CASE("png: without libpng, reading and writing say so")
{
  CHECK(lab::have_png() == bool(LAB_HAVE_PNG));
  if (lab::have_png())
    return;
  TempDir dir;
  const std::string path = (dir / "image.png").string();
  CHECK_THROWS_AS(lab::write_png(path, lab::Matrix<double>(2, 2)), std::logic_error);
  write_text(path, "\x89PNG\r\n\x1a\n");
  lab_test::check_refusal(path, "no libpng", lab::read_png);
}

#if LAB_HAVE_PNG
namespace
{
  // @sect3{Test files of every kind, written by libpng itself}
  //
  // The course's write_png writes only 8- and 16-bit grey and RGB. A user's file can
  // be any of fifteen colour type and depth pairs, with or without transparency
  // (tRNS), interlaced or not. So the test writes each kind with libpng's classic
  // writer from samples it knows, and read_png must give back exactly those samples
  // divided by the largest one, 2^depth − 1 (a palette: its colours / 255).
  struct Kind
  {
    const char *name;
    int type;
    int depth;
    bool transparency;
    bool interlaced;
  };

  int samples_per_pixel(int type)
  {
    switch (type)
      {
        case PNG_COLOR_TYPE_GRAY_ALPHA:
          return 2;
        case PNG_COLOR_TYPE_RGB:
          return 3;
        case PNG_COLOR_TYPE_RGB_ALPHA:
          return 4;
        default:
          return 1;
      }
  }

  // Sample k of pixel (r, c) of an image whose samples go up to @p top: black and
  // full intensity in a fixed pattern (every fifth sample of each), the rest scattered
  // by a hash. For a palette image, an index below @p top + 1 entries.
  unsigned sample(int r, int c, int k, unsigned top)
  {
    const unsigned corner = unsigned(r + c + k) % 5;
    if (corner == 0)
      return 0;
    if (corner == 1)
      return top;
    return (unsigned(r) * 73856093u ^ unsigned(c) * 19349663u ^ unsigned(k) * 83492791u) % (top + 1);
  }

  // Palette entry i, and its alpha where the palette has tRNS: all different, some
  // alphas 0 (invisible pixels keep their colour too).
  png_color palette_colour(int i)
  {
    return {static_cast<png_byte>((i * 67 + 13) % 256), static_cast<png_byte>((i * 151 + 101) % 256),
            static_cast<png_byte>(255 - (i * 29) % 256)};
  }

  // Writes a @p width × @p height file of @p kind at @p path with libpng. Every file
  // also gets a gamma of 1.0 (a gAMA chunk, which read_png must ignore) and a comment
  // (a tEXt chunk: an optional chunk whose CRC the damage test flips).
  void write_with_libpng(const std::string &path, const Kind &kind, int width, int height)
  {
    const int per_pixel = samples_per_pixel(kind.type);
    const unsigned top = (1u << kind.depth) - 1;
    const bool palette = kind.type == PNG_COLOR_TYPE_PALETTE;
    // Samples packed as the file stores them: several to a byte below 8 bits (the
    // first in the high bits), big-endian at 16 bits.
    const std::size_t row_bytes = (std::size_t(width) * per_pixel * kind.depth + 7) / 8;
    std::vector<std::vector<png_byte>> rows(height, std::vector<png_byte>(row_bytes, 0));
    std::vector<png_bytep> row_pointers;
    for (int r = 0; r < height; ++r)
      {
        for (int i = 0; i < width * per_pixel; ++i)
          {
            const unsigned v = sample(r, i / per_pixel, i % per_pixel, top);
            if (kind.depth == 16)
              {
                rows[r][2 * i] = static_cast<png_byte>(v >> 8);
                rows[r][2 * i + 1] = static_cast<png_byte>(v & 0xff);
              }
            else
              {
                const int bit = i * kind.depth;
                rows[r][bit / 8] |= static_cast<png_byte>(v << (8 - kind.depth - bit % 8));
              }
          }
        row_pointers.push_back(rows[r].data());
      }
    std::vector<png_color> colours;
    std::vector<png_byte> alphas;
    for (unsigned i = 0; palette && i <= top; ++i)
      {
        colours.push_back(palette_colour(int(i)));
        alphas.push_back(static_cast<png_byte>((i * 97) % 256));
      }
    png_color_16 transparent{};
    transparent.gray = transparent.red = static_cast<png_uint_16>(top / 3);
    transparent.green = transparent.blue = static_cast<png_uint_16>(top / 2);
    char key[] = "Comment", text[] = "a test file of lab::read_png";
    png_text comment{};
    comment.compression = PNG_TEXT_COMPRESSION_NONE;
    comment.key = key;
    comment.text = text;

    std::FILE *file = std::fopen(path.c_str(), "wb");
    REQUIRE(file != nullptr);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)))
      {
        png_destroy_write_struct(&png, &info);
        std::fclose(file);
        FAIL("libpng could not write the test file " << path);
      }
    png_init_io(png, file);
    png_set_IHDR(png, info, width, height, kind.depth, kind.type,
                 kind.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (palette)
      png_set_PLTE(png, info, colours.data(), int(colours.size()));
    if (kind.transparency)
      png_set_tRNS(png, info, palette ? alphas.data() : nullptr, palette ? int(alphas.size()) : 0,
                   palette ? nullptr : &transparent);
    png_set_gAMA_fixed(png, info, PNG_FP_1);
    png_set_text(png, info, &comment, 1);
    png_write_info(png, info);
    png_write_image(png, row_pointers.data());
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
  }

  // Every colour type at every depth PNG allows, some with tRNS, some interlaced.
  const Kind kinds[] = {
    {"grey 1-bit", PNG_COLOR_TYPE_GRAY, 1, false, false},
    {"grey 2-bit", PNG_COLOR_TYPE_GRAY, 2, false, false},
    {"grey 4-bit", PNG_COLOR_TYPE_GRAY, 4, false, false},
    {"grey 8-bit", PNG_COLOR_TYPE_GRAY, 8, false, false},
    {"grey 16-bit", PNG_COLOR_TYPE_GRAY, 16, false, false},
    {"grey 8-bit tRNS", PNG_COLOR_TYPE_GRAY, 8, true, false},
    {"grey 2-bit interlaced", PNG_COLOR_TYPE_GRAY, 2, false, true},
    {"grey+alpha 8-bit", PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, false},
    {"grey+alpha 16-bit", PNG_COLOR_TYPE_GRAY_ALPHA, 16, false, false},
    {"RGB 8-bit", PNG_COLOR_TYPE_RGB, 8, false, false},
    {"RGB 16-bit", PNG_COLOR_TYPE_RGB, 16, false, false},
    {"RGB 16-bit tRNS", PNG_COLOR_TYPE_RGB, 16, true, false},
    {"RGB 16-bit interlaced", PNG_COLOR_TYPE_RGB, 16, false, true},
    {"RGBA 8-bit", PNG_COLOR_TYPE_RGB_ALPHA, 8, false, false},
    {"RGBA 16-bit", PNG_COLOR_TYPE_RGB_ALPHA, 16, false, false},
    {"RGBA 8-bit interlaced", PNG_COLOR_TYPE_RGB_ALPHA, 8, false, true},
    {"palette 1-bit", PNG_COLOR_TYPE_PALETTE, 1, false, false},
    {"palette 2-bit", PNG_COLOR_TYPE_PALETTE, 2, false, false},
    {"palette 4-bit", PNG_COLOR_TYPE_PALETTE, 4, false, false},
    {"palette 8-bit", PNG_COLOR_TYPE_PALETTE, 8, false, false},
    {"palette 4-bit tRNS", PNG_COLOR_TYPE_PALETTE, 4, true, false},
    {"palette 8-bit tRNS interlaced", PNG_COLOR_TYPE_PALETTE, 8, true, true},
  };

  // @sect3{Damaged files}
  //
  // A PNG is the 8-byte signature, then chunks: a 4-byte length, a 4-byte type, the
  // data, and a CRC-32 of the type and the data. To damage a file in one place only,
  // the test finds the chunks and, where the damage is not meant to be a bad CRC,
  // writes the right CRC for the changed chunk.
  struct Chunk
  {
    std::size_t start;
    std::size_t length;
    std::string type;
  };

  std::vector<Chunk> chunks_of(const std::string &file)
  {
    std::vector<Chunk> chunks;
    for (std::size_t at = 8; at + 12 <= file.size();)
      {
        std::size_t length = 0;
        for (int i = 0; i < 4; ++i)
          length = 256 * length + static_cast<unsigned char>(file[at + i]);
        chunks.push_back({at, length, file.substr(at + 4, 4)});
        at += 12 + length;
      }
    return chunks;
  }

  // The CRC-32 of PNG (and zlib, and Ethernet), bit by bit.
  std::uint32_t crc32(const std::string &bytes)
  {
    std::uint32_t crc = 0xffffffffu;
    for (const char byte : bytes)
      {
        crc ^= static_cast<unsigned char>(byte);
        for (int bit = 0; bit < 8; ++bit)
          crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
      }
    return crc ^ 0xffffffffu;
  }

  void fix_crc(std::string &file, const Chunk &chunk)
  {
    const std::uint32_t crc = crc32(file.substr(chunk.start + 4, 4 + chunk.length));
    for (int i = 0; i < 4; ++i)
      file[chunk.start + 8 + chunk.length + i] = static_cast<char>(crc >> (24 - 8 * i));
  }

  void put_big_endian(std::string &file, std::size_t at, std::uint32_t value)
  {
    for (int i = 0; i < 4; ++i)
      file[at + i] = static_cast<char>(value >> (24 - 8 * i));
  }

  // Reading @p path must throw lab::bad_input: one line, naming the file, saying @p says.
  void check_refused(const std::string &path, const std::string &says)
  {
    lab_test::check_refusal(path, says, lab::read_png);
  }
} // namespace

TEST_CASE("png: every colour type and depth reads back exactly")
{
  TempDir dir;
  const int width = 11, height = 6; // odd widths end rows inside a byte below 8 bits
  for (const Kind &kind : kinds)
    {
      INFO(kind.name);
      const std::string path = (dir / "test.png").string();
      write_with_libpng(path, kind, width, height);
      const lab::Picture picture = lab::read_png(path);
      const bool palette = kind.type == PNG_COLOR_TYPE_PALETTE;
      const bool colour = (kind.type & PNG_COLOR_MASK_COLOR) != 0;
      REQUIRE(picture.channels.size() == (colour ? 3u : 1u));
      REQUIRE(picture.rows() == height);
      REQUIRE(picture.cols() == width);
      CHECK(picture.file.format == "PNG");
      CHECK(picture.file.bits == kind.depth);
      CHECK(picture.file.alpha == (kind.transparency || (kind.type & PNG_COLOR_MASK_ALPHA) != 0));
      const unsigned top = (1u << kind.depth) - 1;
      const int per_pixel = samples_per_pixel(kind.type);
      for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c)
          for (int k = 0; k < int(picture.channels.size()); ++k)
            {
              double expected = sample(r, c, k, top) / double(top);
              if (palette)
                {
                  const png_color entry = palette_colour(int(sample(r, c, 0, top)));
                  expected = (k == 0 ? entry.red : k == 1 ? entry.green : entry.blue) / 255.0;
                }
              INFO("pixel (" << r << ", " << c << ") channel " << k << " of " << per_pixel << " samples");
              CHECK(picture.channels[k](r, c) == expected);
            }
    }
}

TEST_CASE("png: the file is described as it was stored")
{
  TempDir dir;
  const std::string path = (dir / "test.png").string();
  const struct
  {
    Kind kind;
    const char *says;
  } cases[] = {
    {{"", PNG_COLOR_TYPE_GRAY, 8, false, false}, "8-bit grey PNG"},
    {{"", PNG_COLOR_TYPE_GRAY_ALPHA, 16, false, false}, "16-bit grey+alpha PNG (alpha dropped)"},
    {{"", PNG_COLOR_TYPE_RGB_ALPHA, 16, false, false}, "16-bit RGBA PNG (alpha dropped)"},
    {{"", PNG_COLOR_TYPE_PALETTE, 4, true, false}, "4-bit palette PNG (alpha dropped)"},
    {{"", PNG_COLOR_TYPE_RGB, 8, false, true}, "8-bit RGB PNG"},
  };
  for (const auto &one : cases)
    {
      write_with_libpng(path, one.kind, 3, 2);
      CHECK(lab::read_png(path).file.describe() == one.says);
    }
}

TEST_CASE("png: written grey and colour pictures read back, 8 and 16 bits")
{
  TempDir dir;
  const std::string path = (dir / "written.png").string();
  for (const int channels : {1, 3})
    for (const int bits : {8, 16})
      {
        INFO(channels << " channels, " << bits << " bits");
        const double top = bits == 8 ? 255 : 65535;
        // Values on the file's levels come back exactly; values between them, to the
        // nearest level; values outside [0, 1], clamped.
        lab::Picture picture;
        for (int k = 0; k < channels; ++k)
          {
            lab::Matrix<double> m(4, 7); // not square: rows and columns kept apart
            for (int r = 0; r < 4; ++r)
              for (int c = 0; c < 7; ++c)
                m(r, c) = r < 2 ? sample(r, c, k, unsigned(top)) / top : (r * 7 + c + k) / 27.0 * 1.2 - 0.1;
            picture.channels.push_back(m);
          }
        lab::write_png(path, picture, bits);
        const lab::Picture back = lab::read_png(path);
        REQUIRE(back.channels.size() == std::size_t(channels));
        REQUIRE(back.rows() == 4);
        REQUIRE(back.cols() == 7);
        CHECK(back.file.bits == bits);
        CHECK(back.file.colours == (channels == 3 ? "RGB" : "grey"));
        for (int k = 0; k < channels; ++k)
          for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 7; ++c)
              {
                INFO("(" << r << ", " << c << ") channel " << k);
                const double v = picture.channels[k](r, c);
                CHECK(back.channels[k](r, c) == std::lround(std::min(1.0, std::max(0.0, v)) * top) / top);
              }
      }
}

TEST_CASE("png: write_png of a grey matrix, read back by libpng's simplified reader")
{
  TempDir dir;
  const std::string path = (dir / "image.png").string();
  lab::Matrix<double> image(3, 5);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      image(r, c) = (r * 5 + c) / 14.0 * 1.2 - 0.1;
  lab::write_png(path, image);
  png_image description{};
  description.version = PNG_IMAGE_VERSION;
  REQUIRE(png_image_begin_read_from_file(&description, path.c_str()));
  REQUIRE(description.width == 5);
  REQUIRE(description.height == 3);
  description.format = PNG_FORMAT_GRAY;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(description));
  REQUIRE(png_image_finish_read(&description, nullptr, pixels.data(), 0, nullptr));
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      CHECK(pixels[r * 5 + c] == std::lround(std::min(1.0, std::max(0.0, image(r, c))) * 255));
}

TEST_CASE("png: what cannot be written is refused, and nothing is left behind")
{
  TempDir dir;
  lab::Matrix<double> image(2, 2);
  CHECK_THROWS_AS(lab::write_png((dir / "no" / "folder.png").string(), image), lab::bad_input);
  CHECK_THROWS_AS(lab::write_png((dir / "empty.png").string(), lab::Matrix<double>()), std::invalid_argument);
  image(0, 1) = std::nan("");
  CHECK_THROWS_AS(lab::write_png((dir / "nan.png").string(), image), std::invalid_argument);
  lab::Picture two{{lab::Matrix<double>(2, 2), lab::Matrix<double>(2, 2)}, {}};
  CHECK_THROWS_AS(lab::write_png((dir / "two.png").string(), two, 8), std::invalid_argument);
  CHECK_THROWS_AS(lab::write_png((dir / "twelve.png").string(), lab::Picture{{image}, {}}, 12),
                  std::invalid_argument);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("png: every damaged file is refused in one line naming it")
{
  TempDir dir;
  const std::string good_path = (dir / "good.png").string();
  write_with_libpng(good_path, {"palette 4-bit tRNS", PNG_COLOR_TYPE_PALETTE, 4, true, false}, 40, 30);
  const std::string good = read_text(good_path);
  REQUIRE(lab::read_png(good_path).rows() == 30);
  const std::vector<Chunk> chunks = chunks_of(good);
  const auto find = [&](const std::string &type) {
    for (const Chunk &chunk : chunks)
      if (chunk.type == type)
        return chunk;
    FAIL("no " << type << " chunk");
    return chunks.front();
  };
  const Chunk header = find("IHDR"), data = find("IDAT");
  const auto damaged = [&](const std::string &name, const std::string &content) {
    const std::string path = (dir / (name + ".png")).string();
    write_text(path, content);
    return path;
  };

  SECTION("not a PNG")
  {
    check_refused(damaged("text", "P5 1 1 255\n\x01"), "not a PNG file");
    check_refused(damaged("short", good.substr(0, 5)), "not a PNG file");
    std::string flipped = good;
    flipped[1] = 'p';
    check_refused(damaged("signature", flipped), "not a PNG file");
    check_refused((dir / "missing.png").string(), "cannot open");
  }
  SECTION("truncated anywhere: in the header, in the pixels, before the end")
  {
    for (const std::size_t length : {std::size_t(8), header.start + 10, data.start + 8 + data.length / 2,
                                     good.size() - 12, good.size() - 1})
      {
        INFO("the first " << length << " of " << good.size() << " bytes");
        check_refused(damaged("truncated", good.substr(0, length)), "truncated");
      }
  }
  SECTION("a flipped bit in the CRC of any chunk, critical or optional")
  {
    for (const Chunk &chunk : chunks)
      {
        INFO(chunk.type);
        std::string flipped = good;
        flipped[chunk.start + 8 + chunk.length] ^= 0x10;
        check_refused(damaged("crc", flipped), "CRC error");
      }
  }
  SECTION("corrupt compressed pixels under a right CRC")
  {
    // The last 4 bytes of the zlib stream are the Adler-32 checksum of the pixels:
    // changed, every pixel still decodes and only the checksum tells. libpng calls
    // that a "benign" error; read_png refuses it.
    std::string checksum = good;
    checksum[data.start + 8 + data.length - 1] ^= 0x01;
    fix_crc(checksum, data);
    check_refused(damaged("adler", checksum), "damaged PNG file (libpng: ");
    std::string garbage = good;
    for (std::size_t i = 2; i < data.length - 4; ++i)
      garbage[data.start + 8 + i] = static_cast<char>(0xff - i);
    fix_crc(garbage, data);
    check_refused(damaged("deflate", garbage), "damaged PNG file (libpng: ");
  }
  SECTION("a size of zero, or larger than the course takes")
  {
    const struct
    {
      std::uint32_t width, height;
      const char *says;
    } sizes[] = {
      {0, 30, "width is zero"},
      {40, 0, "height is zero"},
      {100000, 100000, "100000 x 100000 pixels is too large (at most 2^28)"},
      {16385, 16384, "16385 x 16384 pixels is too large"},
      {0x80000000u, 1, "damaged PNG file (libpng: "},
    };
    for (const auto &size : sizes)
      {
        INFO(size.width << " x " << size.height);
        std::string resized = good;
        put_big_endian(resized, header.start + 8, size.width);
        put_big_endian(resized, header.start + 12, size.height);
        fix_crc(resized, header);
        check_refused(damaged("size", resized), size.says);
      }
  }
}
#endif
