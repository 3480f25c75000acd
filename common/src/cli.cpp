#include <lab/cli.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace lab
{
  namespace
  {
    // CLI11's own PositiveNumber check accepts 2.5 and prints its range as a
    // 300-digit number. Ours says what is wrong in words.
    const CLI::Validator positive_integer(
      [](std::string &text) -> std::string {
        const bool digits_only =
          !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
            return c >= '0' && c <= '9';
          });
        if (!digits_only || text.size() > 9 || std::stol(text) < 1)
          return "'" + text + "' is not a positive integer";
        return {};
      },
      // No description: --help shows the type name alone ("N"), and the error
      // message says what is wrong.
      "");

    // "usage: step-1 [--sizes N,...] [--precision float|double|both] ..." in one line.
    std::string usage_line(const CLI::App &app)
    {
      std::string line = "usage: " + app.get_name();
      for (const CLI::Option *option : app.get_options())
        {
          // CLI11 appends the checks to the type name ("N:N>0"); the usage line shows
          // only the type.
          std::string type = option->get_type_name();
          type = type.substr(0, type.find(':'));
          line += " [" + option->get_name() + (type.empty() ? "" : " " + type) + "]";
        }
      return line;
    }
  } // namespace

  void add_common_options(CLI::App &app, CommonOptions &options)
  {
    // CLI11 splits a list at its delimiter itself, but drops the empty pieces: "3,,4"
    // would run sizes 3 and 4 without a word about the slip. So --sizes takes the
    // words as typed and splits them here, where an empty piece is an error.
    app
      .add_option_function<std::vector<std::string>>(
        "--sizes",
        [&options](const std::vector<std::string> &words) {
          options.sizes.clear();
          for (const std::string &word : words)
            for (std::size_t start = 0; start <= word.size();)
              {
                const std::size_t comma = std::min(word.find(',', start), word.size());
                std::string piece = word.substr(start, comma - start);
                if (piece.empty())
                  throw CLI::ValidationError("--sizes", "'" + word + "' has an empty size (a comma too many)");
                const std::string error = positive_integer(piece);
                if (!error.empty())
                  throw CLI::ValidationError("--sizes", error);
                options.sizes.push_back(std::stoi(piece));
                start = comma + 1;
              }
        },
        "Matrix sizes, comma-separated")
      ->type_name("N,N,...");
    app.add_option("--max-size", options.max_size, "End the default sweep at this size (cut, or extended by doubling)")
      ->check(positive_integer)
      ->type_name("N");
    app.add_option("--precision", options.precision, "Number type")
      ->check(CLI::IsMember({"float", "double", "both"}).description(""))
      ->type_name("float|double|both")
      ->capture_default_str();
    app.add_option("--reps", options.reps, "Timed repetitions per median")
      ->check(positive_integer)
      ->type_name("N")
      ->capture_default_str();
    app.add_option("--out", options.out, "Folder for the result tables")
      ->type_name("DIR")
      ->capture_default_str();
    app.add_flag("--quick", options.quick, "A short sweep that finishes in seconds");
    app.add_flag("--cpu-only", options.cpu_only, "Run only the CPU parts");
  }

  std::optional<int> parse_command_line(CLI::App &app, int argc, char **argv)
  {
    try
      {
        app.parse(argc, argv);
        return std::nullopt;
      }
    catch (const CLI::CallForHelp &)
      {
        std::cout << app.help();
        return 0;
      }
    catch (const CLI::ParseError &error)
      {
        // CLI11 names the option in most messages already ("--precision: half not in
        // {float,double,both}"); what it cannot name (an unexpected argument) it quotes.
        std::cerr << app.get_name() << ": error: " << error.what() << '\n'
                  << usage_line(app) << '\n';
        return 2;
      }
  }

  std::vector<int> choose_sizes(const CommonOptions &options,
                                const std::vector<int> &full_sweep,
                                const std::vector<int> &quick_sweep)
  {
    if (!options.sizes.empty())
      return options.sizes;
    std::vector<int> sizes = options.quick ? quick_sweep : full_sweep;
    if (options.max_size > 0)
      {
        sizes.erase(std::remove_if(sizes.begin(), sizes.end(),
                                   [&](int n) { return n > options.max_size; }),
                    sizes.end());
        // A cut above the sweep's end extends it: the sweep goes on doubling up to N.
        while (!sizes.empty() && 2L * sizes.back() < options.max_size)
          sizes.push_back(2 * sizes.back());
        if (sizes.empty() || sizes.back() != options.max_size)
          sizes.push_back(options.max_size);
      }
    return sizes;
  }
} // namespace lab
