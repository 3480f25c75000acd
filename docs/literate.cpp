// lab_literate: turns the course's commented sources into its Doxygen pages.
//
// Every step of the course is a literate program: the sources are written to be
// read, and their comments are the text of the step's web page. The convention is
// the one of the deal.II tutorial:
//
//   - a line that holds only a `//` comment is prose; an empty `//` line or a blank
//     line between comment lines starts a new paragraph;
//   - `// @sect3{Title}` is a section heading;
//   - the lines between `// @cond SKIP` and `// @endcond` are boilerplate: they are
//     hidden from "The commented program" (the plain program keeps them);
//   - everything else is code, including comments at the end of a code line and
//     Doxygen comments (`///`, `//!`), which document the code where it stands.
//
// The tool has four modes (run it without arguments to see them):
//
//   commented  the prose and code blocks of "The commented program";
//   plain      a source without its prose: "The plain program";
//   page       a step's whole page: Introduction, The commented program, Results,
//              The plain program, plus the plain copies that the page includes;
//   mainpage   the course's main page: what it is, the map of steps, how to build.
//
// docs/CMakeLists.txt runs the last two for `make docs`; the first two are there
// to look at one file's output, and for the test in docs/tests/. This file is
// written in the same convention: `lab_literate commented docs docs/literate.cpp`
// shows it the way a step's page would.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace
{
// @sect3{Reading files}

// Every failure (a file that cannot be read, a `@cond SKIP` without its
// `@endcond`) is thrown as this error; `main` prints it and exits with code 1.
struct literate_error : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

std::vector<std::string> read_lines(const fs::path &file)
{
  std::ifstream in(file);
  if (!in)
    throw literate_error("cannot read " + file.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    {
      // Sources written on Windows end their lines with "\r\n".
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      lines.push_back(line);
    }
  return lines;
}

std::string read_text(const fs::path &file)
{
  std::string text;
  for (const std::string &line : read_lines(file))
    text += line + '\n';
  return text;
}

// The one-line files of a step's doc/ folder (tooltip, builds-on), without the
// surrounding white space.
std::string read_one_line(const fs::path &file)
{
  const std::string text = read_text(file);
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos)
    return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

std::vector<std::string> split_words(const std::string &text)
{
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;)
    words.push_back(word);
  return words;
}

void write_file(const fs::path &file, const std::string &text)
{
  if (file.has_parent_path())
    fs::create_directories(file.parent_path());
  std::ofstream out(file);
  out << text;
  if (!out)
    throw literate_error("cannot write " + file.string());
}

// @sect3{Names and labels}

// Doxygen labels may not contain '-': the page of step-1 is called step_1.
std::string page_label(std::string step)
{
  std::replace(step.begin(), step.end(), '-', '_');
  return step;
}

// Every heading gets a label, so that other pages can link to it with @ref. The
// label is made from the title ("Copying the matrix to the GPU" becomes
// step_1_copying_the_matrix_to_the_gpu); a title used twice on one page gets a
// number appended, because Doxygen wants labels to be unique.
class label_maker
{
public:
  explicit label_maker(const std::string &step)
    : prefix(page_label(step) + '_')
  {}

  std::string operator()(const std::string &title)
  {
    std::string slug;
    for (const unsigned char c : title)
      if (std::isalnum(c))
        slug += static_cast<char>(std::tolower(c));
      else if (!slug.empty() && slug.back() != '_')
        slug += '_';
    while (!slug.empty() && slug.back() == '_')
      slug.pop_back();

    const std::string base = prefix + (slug.empty() ? "section" : slug);
    std::string label = base;
    for (int n = 2; used.count(label) != 0; ++n)
      label = base + '_' + std::to_string(n);
    used.insert(label);
    return label;
  }

private:
  std::string           prefix;
  std::set<std::string> used;
};

// A source file is shown under its path from the step's folder, with the step's
// name in front: step-1/cholesky_cpu.h, step-4/kernels/1_naive.cuh. A file outside
// a folder of that name (a test fixture, say) is shown by its file name.
std::string shown_name(const std::string &step, const fs::path &file)
{
  const fs::path path = fs::absolute(file).lexically_normal();
  fs::path       below = path.filename();
  for (fs::path dir = path.parent_path(); dir.has_relative_path();
       dir          = dir.parent_path())
    {
      if (dir.filename() == step)
        return step + '/' + below.generic_string();
      below = dir.filename() / below;
    }
  return step + '/' + path.filename().generic_string();
}

// The part of a shown name below the step: cholesky_cpu.h, kernels/1_naive.cuh.
std::string below_step(const std::string &shown)
{
  return shown.substr(shown.find('/') + 1);
}

// @sect3{Classifying the lines of a source file}

// The literate convention looks at one line at a time, and a line is one of these.
enum class line_kind
{
  blank,
  prose,
  heading,
  skip_begin,
  skip_end,
  code
};

struct source_line
{
  line_kind   kind;
  std::string text; // the prose without its "// ", the title, or the code line
};

source_line classify(const std::string &line)
{
  const auto first = line.find_first_not_of(" \t");
  if (first == std::string::npos)
    return {line_kind::blank, ""};

  // Only a line that *starts* with `//` is prose. `///` and `//!` are Doxygen's
  // comments on the code that follows, so they stay in the code.
  const std::string rest = line.substr(first);
  const bool is_comment = rest.rfind("//", 0) == 0 &&
                          rest.rfind("///", 0) != 0 && rest.rfind("//!", 0) != 0;
  if (!is_comment)
    return {line_kind::code, line};

  std::string text = rest.substr(2);
  if (!text.empty() && text.front() == ' ')
    text.erase(0, 1);
  const std::string trimmed = text.substr(0, text.find_last_not_of(" \t") + 1);

  if (trimmed == "@cond SKIP")
    return {line_kind::skip_begin, ""};
  if (trimmed == "@endcond")
    return {line_kind::skip_end, ""};
  if (trimmed.rfind("@sect3{", 0) == 0 && trimmed.back() == '}')
    return {line_kind::heading, trimmed.substr(7, trimmed.size() - 8)};
  return {line_kind::prose, text};
}

// @sect3{The commented program: a state machine}

// We read a file line by line and are always in one of three states: writing
// prose, writing a code block, or skipping boilerplate. A code line in the prose
// state opens a `@code` block; a prose line in the code state closes it. Blank
// lines inside code are held back until the next code line, so a code block never
// ends (or begins) with empty lines and no empty code block is ever written.
class commented_writer
{
public:
  commented_writer(std::ostream &out, label_maker &labels)
    : out(out)
    , labels(labels)
  {}

  void write_file(const std::string &shown, const fs::path &file)
  {
    write_heading("@subsection", shown, "file " + below_step(shown));
    const std::vector<std::string> lines = read_lines(file);
    for (std::size_t i = 0; i < lines.size(); ++i)
      try
        {
          feed(classify(lines[i]));
        }
      catch (const literate_error &e)
        {
          throw literate_error(file.string() + ':' + std::to_string(i + 1) +
                               ": " + e.what());
        }
    if (state == state_t::skip)
      throw literate_error(file.string() + ": `// @cond SKIP` without `// @endcond`");
    end_code();
    paragraph_break();
  }

private:
  enum class state_t
  {
    prose,
    code,
    skip
  };

  void feed(const source_line &line)
  {
    if (state == state_t::skip)
      {
        if (line.kind == line_kind::skip_begin)
          throw literate_error("`// @cond SKIP` inside a skipped part");
        if (line.kind == line_kind::skip_end)
          state = state_t::prose;
        return;
      }

    switch (line.kind)
      {
        case line_kind::blank:
          if (state == state_t::code)
            held_blank = true;
          else
            paragraph_break();
          break;
        case line_kind::prose:
          end_code();
          write_line(line.text);
          break;
        case line_kind::heading:
          end_code();
          write_heading("@subsubsection", line.text, line.text);
          break;
        case line_kind::skip_begin:
          end_code();
          state = state_t::skip;
          break;
        case line_kind::skip_end:
          throw literate_error("`// @endcond` without `// @cond SKIP`");
        case line_kind::code:
          if (state != state_t::code)
            {
              paragraph_break();
              write_line("@code{.cpp}");
              state = state_t::code;
            }
          else if (held_blank)
            write_line("");
          held_blank = false;
          write_line(line.text);
          break;
      }
  }

  void end_code()
  {
    if (state == state_t::code)
      {
        write_line("@endcode");
        paragraph_break();
        state = state_t::prose;
      }
    held_blank = false;
  }

  // Headings stand in their own paragraph; @sect3 becomes a third-level heading,
  // below the file's heading, as its name says.
  void write_heading(const std::string &command,
                     const std::string &title,
                     const std::string &label_from)
  {
    paragraph_break();
    write_line(command + ' ' + labels(label_from) + ' ' + title);
    paragraph_break();
  }

  // An empty line ends a paragraph in Doxygen; one is enough.
  void paragraph_break()
  {
    if (!last_blank)
      write_line("");
  }

  void write_line(const std::string &text)
  {
    out << text << '\n';
    last_blank = text.empty();
  }

  std::ostream &out;
  label_maker  &labels;
  state_t       state      = state_t::prose;
  bool          held_blank = false;
  bool          last_blank = true;
};

// @sect3{The plain program}

// The plain program is the code alone: prose, headings and the @cond markers go
// (the code between the markers stays), and the blank lines around removed prose
// collapse into one.
std::string plain_program(const fs::path &file)
{
  std::string plain;
  bool        held_blank = false;
  for (const std::string &line : read_lines(file))
    switch (classify(line).kind)
      {
        case line_kind::blank:
          held_blank = !plain.empty();
          break;
        case line_kind::code:
          if (held_blank)
            plain += '\n';
          held_blank = false;
          plain += line + '\n';
          break;
        default:
          break;
      }
  return plain;
}

// @sect3{Writing a page}

// "@ref step_1 "step-1", @ref step_2 "step-2" and @ref step_3 "step-3""
std::string step_links(const std::vector<std::string> &steps)
{
  std::string text;
  for (std::size_t i = 0; i < steps.size(); ++i)
    {
      if (i > 0)
        text += (i + 1 == steps.size()) ? " and " : ", ";
      text += "@ref " + page_label(steps[i]) + " \"" + steps[i] + '"';
    }
  return text;
}

// The page of one step, in the course's fixed order. The plain copies of its files
// go to plain_dir/<path below the step folder>, and the page includes them by
// their shown name (step-1/cholesky_cpu.h): docs/CMakeLists.txt puts the folder
// above plain_dir on Doxygen's EXAMPLE_PATH.
//
// The page is a Markdown file (.md), which Doxygen reads as it stands. In a C++
// file the page would have to be one comment, and real code inside a comment is
// fragile: a `*/` (in a string, or ending a C comment) closes a `/** */` block
// early, an unclosed `/*` in a string confuses Doxygen even in `///` lines, and a
// line that starts with `*` loses its star. The page's title is its first line, a
// Markdown heading, with the page's label in braces: `# Title {#step_1}`.
void make_page(const std::string              &step,
               const fs::path                 &step_dir,
               const fs::path                 &out_file,
               const fs::path                 &plain_dir,
               const std::vector<std::string> &files)
{
  const std::string label = page_label(step);
  const fs::path    doc   = step_dir / "doc";
  const auto        builds_on = split_words(read_text(doc / "builds-on"));

  std::ostringstream page;
  page << "# The " << step << " tutorial program {#" << label << "}\n\n";
  if (builds_on.empty())
    page << "This is the first program of the course.\n\n";
  else
    page << "This program builds on " << step_links(builds_on) << ".\n\n";
  page << "<em>In this step:</em> " << read_one_line(doc / "tooltip") << "\n\n"
       << "@tableofcontents\n\n";

  page << "@section " << label << "_intro Introduction\n\n"
       << read_text(doc / "intro.dox") << '\n';

  label_maker      labels(step);
  commented_writer commented(page, labels);
  page << "@section " << label << "_commented The commented program\n\n";
  for (const std::string &file : files)
    commented.write_file(shown_name(step, file), file);

  page << "@section " << label << "_results Results\n\n"
       << read_text(doc / "results.dox") << '\n';

  page << "@section " << label << "_plain The plain program\n\n";
  for (const std::string &file : files)
    {
      const std::string shown = shown_name(step, file);
      write_file(plain_dir / below_step(shown), plain_program(file));
      page << "@subsection " << labels("plain " + below_step(shown)) << ' ' << shown
           << "\n\n"
           << "@include " << shown << "\n\n";
    }

  write_file(out_file, page.str());
}

// @sect3{The main page}

struct step_info
{
  std::string              name;
  std::string              tooltip;
  std::vector<std::string> builds_on;
};

// Inside a dot graph, a tooltip is a string in double quotes.
std::string dot_string(const std::string &text)
{
  std::string quoted = "\"";
  for (const char c : text)
    quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return quoted + '"';
}

void make_mainpage(const fs::path &out_file, const std::vector<std::string> &dirs)
{
  std::vector<step_info> steps;
  std::set<std::string>  names;
  for (const std::string &dir : dirs)
    {
      const fs::path folder = fs::path(dir).lexically_normal();
      const fs::path doc    = folder / "doc";
      std::string    name   = folder.filename().string();
      if (name.empty())
        name = folder.parent_path().filename().string();
      steps.push_back({name,
                       read_one_line(doc / "tooltip"),
                       split_words(read_text(doc / "builds-on"))});
      names.insert(name);
    }
  // A step may only build on a step that is part of the course.
  for (const step_info &step : steps)
    for (const std::string &earlier : step.builds_on)
      if (names.count(earlier) == 0)
        throw literate_error(step.name + "/doc/builds-on names " + earlier +
                             ", which is not a step of the course");

  std::ostringstream page;
  page << R"(# The CUDA lab course {#mainpage}

Five progressive programs, each one a literate program: its comments are the text
you read here, next to the code they explain. The course starts with a single GPU
thread factorising a matrix and ends by deblurring an image with a dense direct
solve. Every step has a CPU reference to compare against, checks its own results,
and times its kernels against the vendor's libraries (cuBLAS, cuSOLVER) in the same
run. Each step's page has the same four parts: Introduction, The commented program,
Results (measured on a real GPU) and The plain program.

@section course_steps The steps

<table class="doxtable">
<tr><th>Step</th><th>What it teaches</th><th>Builds on</th></tr>
)";
  // The step columns do not wrap: the browser gives the long middle column all the
  // width it can and squeezes the others to their narrowest, and the narrowest
  // "step-1" breaks after its hyphen, as "step-" over "1".
  for (const step_info &step : steps)
    page << "<tr><td style=\"white-space:nowrap\">@ref " << page_label(step.name) << " \"" << step.name
         << "\"</td><td>" << step.tooltip << "</td><td style=\"white-space:nowrap\">"
         << (step.builds_on.empty() ? "&mdash;" : step_links(step.builds_on))
         << "</td></tr>\n";
  page << "</table>\n\n"
       << "An arrow leads from a step to the steps that build on it; click a step "
          "to open its page.\n\n"
       << "@dot\ndigraph steps {\n"
       << "  rankdir=LR;\n"
       << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8eef8\", "
          "fontname=Helvetica, fontsize=11];\n";
  for (const step_info &step : steps)
    page << "  " << page_label(step.name) << " [label=\"" << step.name
         << "\", URL=\"\\ref " << page_label(step.name)
         << "\", tooltip=" << dot_string(step.tooltip) << "];\n";
  for (const step_info &step : steps)
    for (const std::string &earlier : step.builds_on)
      page << "  " << page_label(earlier) << " -> " << page_label(step.name) << ";\n";
  page << "}\n@enddot\n\n";

  page << R"(@section course_build How to build, run, test and plot

From the top of the repository:
- `make run` installs what is missing, configures and builds everything, runs every
  step in quick mode and draws the plots;
- `make test` builds and runs the whole test suite (the GPU tests are reported as
  skipped on a machine without a GPU);
- `make bench` runs every step over its full size sweep, `make plots` draws the
  plots from the newest results;
- `make docs` builds this site into `build/docs/html/index.html`;
- `make help` lists all targets and options.

One step on its own: `./build/step-1/step-1 --help` lists its options (sizes,
precision, repetitions, output folder). A program writes its tables to
`results/local/step-N/*.dat`, which `make plots` turns into PNG and SVG plots.
)";
  write_file(out_file, page.str());
}

int usage()
{
  std::cerr << "usage:\n"
               "  lab_literate commented <step-name> <file>...\n"
               "  lab_literate plain <file>\n"
               "  lab_literate page <step-name> <step-dir> <out.md> <plain-dir> "
               "<file>...\n"
               "  lab_literate mainpage <out.md> <step-dir>...\n";
  return 2;
}
} // namespace

// The mode is the first argument. Wrong arguments print the usage and exit with
// code 2, like the course's programs; a failure prints one line and exits with 1.
int main(int argc, char *argv[])
{
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string              mode = args.empty() ? "" : args[0];
  try
    {
      if (mode == "commented" && args.size() >= 3)
        {
          label_maker      labels(args[1]);
          commented_writer commented(std::cout, labels);
          for (auto file = args.begin() + 2; file != args.end(); ++file)
            commented.write_file(shown_name(args[1], *file), *file);
        }
      else if (mode == "plain" && args.size() == 2)
        std::cout << plain_program(args[1]);
      else if (mode == "page" && args.size() >= 6)
        make_page(args[1], args[2], args[3], args[4],
                  std::vector<std::string>(args.begin() + 5, args.end()));
      else if (mode == "mainpage" && args.size() >= 3)
        make_mainpage(args[1], std::vector<std::string>(args.begin() + 2, args.end()));
      else
        return usage();
    }
  catch (const std::exception &e)
    {
      std::cerr << "lab_literate: " << e.what() << '\n';
      return 1;
    }
  return 0;
}
