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
//   - an exercise is a region of code between two markers (below);
//   - everything else is code, including comments at the end of a code line and
//     Doxygen comments (`///`, `//!`), which document the code where it stands.
//
// An exercise is written like this, inside the braces of one function or kernel:
//
//     __global__ void scale(float *x, int n, float a)
//     {
//       // @exercise{scale_vector, 1}
//       // Multiply each of the n entries of x by a, one thread per entry.
//       const int i = blockIdx.x * blockDim.x + threadIdx.x;
//       if (i < n)
//         x[i] *= a;
//       // @end-exercise
//     }
//
//   - the name is a lowercase identifier (a-z, 0-9, _), unique in the whole course;
//   - the difficulty is 1 (easy), 2 or 3 (hard);
//   - the task is the one paragraph of `//` lines right after the opening marker: it
//     ends at the first line that is not such a comment (code, a blank line) or at
//     an empty `//`, which separates it from the region's own prose. Its first
//     sentence says what the exercise teaches; code in it is written in backticks;
//   - the region is a run of whole statements of one function or kernel body (most
//     often all of it, but for a final `return`), and nothing declared in it is used
//     after it: so the code between the task and `// @end-exercise` can be replaced
//     by a stub that compiles (the student edition). Regions do not nest, and each
//     holds code.
// On the page the opening marker and its task become a note ("Exercise scale_vector,
// difficulty ★☆☆: ..."), the end marker disappears, and the step's page gains an
// Exercises section listing them; the plain program keeps the code only. A marker
// that is malformed, unclosed or nested, or a name used twice, stops the filter with
// one line naming the file and the line.
//
// The tool has eight modes (run it without arguments to see them):
//
//   commented  the prose and code blocks of "The commented program";
//   plain      a source without its prose: "The plain program";
//   page       a step's whole page: Introduction, The commented program, Results,
//              Exercises, The plain program, plus the plain copies that the page
//              includes;
//   mainpage   the course's main page: what it is, the map of steps, how to build;
//   exercises  the exercises of the files given, one per line, tab-separated:
//              `file:first-last`, name, difficulty, the task's first sentence
//              (first and last are the lines of the two markers). It fails when a
//              name is used twice anywhere in those files;
//   student    the files of the student edition that differ from the course (the
//              exercises' code replaced by a stub, and the list of blanked names),
//              for `make student` (docs/student_edition.cmake);
//   teaching   the site's page for instructors: the README's section for them and
//              the list of every exercise, linked;
//   grading    the files of a student's grading edition: the course's files with
//              only the exercises' code taken from the student's copy, for
//              `make grade` (tools/grade).
//
// docs/CMakeLists.txt runs page and mainpage for `make docs`, and exercises over
// every step's sources as the test docs/exercises; commented and plain are there
// to look at one file's output, and for the test in docs/tests/. This file is
// written in the same convention: `lab_literate commented docs docs/literate.cpp`
// shows it the way a step's page would.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <fstream>
#include <iostream>
#include <regex>
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
  exercise_begin,
  exercise_end,
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
  // Any line that starts with one of the two markers is a marker, well formed or
  // not: read_exercises checks the form, so that a typo is an error and not prose.
  if (trimmed.rfind("@exercise", 0) == 0)
    return {line_kind::exercise_begin, trimmed};
  if (trimmed.rfind("@end-exercise", 0) == 0)
    return {line_kind::exercise_end, trimmed};
  if (trimmed.rfind("@sect3{", 0) == 0 && trimmed.back() == '}')
    return {line_kind::heading, trimmed.substr(7, trimmed.size() - 8)};
  return {line_kind::prose, text};
}

// @sect3{Exercises}

// One exercise as the markers give it. Lines are counted from 1, as an editor
// does: `first` is the line of `// @exercise{...}`, `task_last` the task's last
// line, `last` the line of `// @end-exercise`. The code a student writes is the
// lines from task_last + 1 to last - 1.
struct exercise
{
  std::string file;
  std::string name;
  int         difficulty = 0;
  std::size_t first      = 0;
  std::size_t task_last  = 0;
  std::size_t last       = 0;
  std::string task; // the task's lines, each ending in '\n'
};

// "★★☆, medium": the stars for the eye, the word for a screen reader and for grep.
std::string difficulty_text(int difficulty)
{
  static const char *const words[] = {"easy", "medium", "hard"};
  std::string              stars;
  for (int i = 1; i <= 3; ++i)
    stars += (i <= difficulty) ? "\u2605" : "\u2606";
  return stars + ", " + words[difficulty - 1];
}

// The task's first sentence (up to the first full stop that ends a word), on one
// line: what the exercise teaches, for the lists.
std::string first_sentence(const std::string &task)
{
  std::string line;
  for (const char c : task)
    line += (c == '\n') ? ' ' : c;
  for (std::size_t dot = line.find('.'); dot != std::string::npos;
       dot             = line.find('.', dot + 1))
    if (dot + 1 == line.size() || line[dot + 1] == ' ')
      return line.substr(0, dot + 1);
  return line.substr(0, line.find_last_not_of(' ') + 1);
}

// Reads the exercises of one file and checks their markers: every error names the
// file and the line, and reads as one line. Both the page and the plain program
// call it first, so a broken marker fails every mode of the filter.
std::vector<exercise> read_exercises(const std::string              &file,
                                     const std::vector<std::string> &lines)
{
  static const std::regex header(
    R"(@exercise\{\s*([A-Za-z0-9_]*)\s*,\s*([0-9]+)\s*\})");
  static const std::regex lowercase_name("[a-z][a-z0-9_]*");

  std::vector<exercise>              found;
  std::map<std::string, std::size_t> first_line_of;
  exercise                           open;
  bool                               is_open  = false;
  bool                               has_code = false;
  bool                               skipped  = false;
  const auto where = [&](std::size_t line) {
    return file + ':' + std::to_string(line) + ": ";
  };

  for (std::size_t i = 0; i < lines.size(); ++i)
    {
      const source_line line = classify(lines[i]);
      const std::size_t number = i + 1;
      switch (line.kind)
        {
          case line_kind::skip_begin:
            skipped = true;
            break;
          case line_kind::skip_end:
            skipped = false;
            break;
          case line_kind::code:
            has_code = has_code || is_open;
            break;
          case line_kind::exercise_begin:
            {
              std::smatch match;
              if (!std::regex_match(line.text, match, header))
                throw literate_error(
                  where(number) + "malformed marker `// " + line.text +
                  "`: write `// @exercise{name, difficulty}`");
              const std::string name = match[1];
              if (is_open)
                throw literate_error(where(number) + "exercise '" + name +
                                     "' inside exercise '" + open.name +
                                     "' (line " + std::to_string(open.first) +
                                     "): exercises do not nest");
              if (skipped)
                throw literate_error(where(number) + "exercise '" + name +
                                     "' inside a `// @cond SKIP` part, which the "
                                     "page does not show");
              if (!std::regex_match(name, lowercase_name))
                throw literate_error(where(number) + "exercise name '" + name +
                                     "' is not a lowercase identifier (a-z, 0-9, _)");
              const std::string digits = match[2];
              if (digits.size() != 1 || digits[0] < '1' || digits[0] > '3')
                throw literate_error(where(number) + "exercise '" + name +
                                     "' has difficulty " + digits +
                                     ": it must be 1 (easy), 2 or 3 (hard)");
              if (first_line_of.count(name) != 0)
                throw literate_error(where(number) + "exercise '" + name +
                                     "' is already used at line " +
                                     std::to_string(first_line_of[name]));
              first_line_of[name] = number;

              // The task: the `//` lines that follow, up to the first line that is
              // not a non-empty comment.
              open            = exercise{file, name, digits[0] - '0', number, number,
                              0, ""};
              for (std::size_t j = i + 1; j < lines.size(); ++j)
                {
                  const source_line task = classify(lines[j]);
                  if (task.kind != line_kind::prose)
                    break;
                  // An empty `//` ends the task and belongs to it: it separates
                  // the task from the prose of the region, and goes with the task.
                  if (task.text.find_first_not_of(" \t") == std::string::npos)
                    {
                      if (!open.task.empty())
                        open.task_last = j + 1;
                      break;
                    }
                  open.task += task.text + '\n';
                  open.task_last = j + 1;
                }
              if (open.task.empty())
                throw literate_error(where(number) + "exercise '" + name +
                                     "' has no task: write it as `//` lines right "
                                     "after the marker");
              i        = open.task_last - 1;
              is_open  = true;
              has_code = false;
              break;
            }
          case line_kind::exercise_end:
            if (line.text != "@end-exercise")
              throw literate_error(where(number) + "malformed marker `// " +
                                   line.text + "`: write `// @end-exercise`");
            if (!is_open)
              throw literate_error(where(number) +
                                   "`// @end-exercise` without `// @exercise{...}`");
            if (skipped)
              throw literate_error(where(number) + "the end of exercise '" +
                                   open.name + "' is inside a `// @cond SKIP` part");
            if (!has_code)
              throw literate_error(where(number) + "exercise '" + open.name +
                                   "' holds no code");
            open.last = number;
            found.push_back(open);
            is_open = false;
            break;
          default:
            break;
        }
    }
  if (is_open)
    throw literate_error(where(open.first) + "`// @exercise{" + open.name +
                         ", ...}` without `// @end-exercise`");
  return found;
}

// Names are unique in the whole course, not only in one file: the student edition
// and the grading find an exercise by its name alone.
void check_unique_names(const std::vector<exercise> &exercises)
{
  std::map<std::string, const exercise *> seen;
  for (const exercise &e : exercises)
    {
      const auto [earlier, is_new] = seen.emplace(e.name, &e);
      if (!is_new)
        throw literate_error(e.file + ':' + std::to_string(e.first) +
                             ": exercise name '" + e.name + "' is already used at " +
                             earlier->second->file + ':' +
                             std::to_string(earlier->second->first));
    }
}

// The note that stands on the page where the exercise begins. Its anchor lets the
// Exercises section link to it.
std::string exercise_note(const exercise &e)
{
  return "@anchor exercise_" + e.name + "\n@note **Exercise `" + e.name +
         "`** (difficulty " + difficulty_text(e.difficulty) + "): " + e.task;
}

// @sect3{The commented program: a state machine}

// We read a file line by line and are always in one of three states: writing
// prose, writing a code block, or skipping boilerplate. A code line in the prose
// state opens a `@code` block; a prose line in the code state closes it. Blank
// lines inside code are held back until the next code line, so a code block never
// ends (or begins) with empty lines and no empty code block is ever written.
std::string link_step_names(const std::string &text, const std::string &own,
                            const std::vector<std::string> &steps);

class commented_writer
{
public:
  commented_writer(std::ostream &out, label_maker &labels)
    : out(out)
    , labels(labels)
  {}

  // Links the other steps named in the prose (link_step_names) on the page of
  // @p own, the course's steps being @p steps.
  void link_steps(const std::string &own, const std::vector<std::string> &steps)
  {
    own_step = own;
    course   = steps;
  }

  // Writes one file and returns its exercises. An exercise's opening marker and
  // its task become a note, which ends the code block before it.
  std::vector<exercise> write_file(const std::string &shown, const fs::path &file)
  {
    const std::vector<std::string> lines     = read_lines(file);
    const std::vector<exercise>    exercises = read_exercises(file.string(), lines);
    std::map<std::size_t, const exercise *> opening;
    for (const exercise &e : exercises)
      opening[e.first] = &e;

    write_heading("@subsection", shown, "file " + below_step(shown));
    for (std::size_t i = 0; i < lines.size(); ++i)
      try
        {
          if (const auto e = opening.find(i + 1); e != opening.end())
            {
              end_code();
              paragraph_break();
              write_text(exercise_note(*e->second));
              paragraph_break();
              i = e->second->task_last - 1;
              continue;
            }
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
    return exercises;
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
          if (course.empty())
            write_line(line.text);
          else
            {
              std::string linked = link_step_names(line.text + '\n', own_step, course);
              linked.pop_back();
              write_line(linked);
            }
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
        case line_kind::exercise_begin:
        case line_kind::exercise_end:
          // write_file has written the note of an opening marker; the end marker
          // leaves no trace, and the code goes on in the same block.
          break;
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

  // Several lines, each ending in '\n'.
  void write_text(const std::string &text)
  {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      write_line(line);
  }

  void write_line(const std::string &text)
  {
    out << text << '\n';
    last_blank = text.empty();
  }

  std::ostream &out;
  label_maker  &labels;
  std::string   own_step;
  std::vector<std::string> course; // empty: no step is linked
  state_t       state      = state_t::prose;
  bool          held_blank = false;
  bool          last_blank = true;
};

// @sect3{The plain program}

// The plain program is the code alone: prose, headings, the @cond markers and the
// exercise markers with their tasks go (the code between the markers stays), and
// the blank lines around removed prose collapse into one. A broken exercise marker
// fails here too.
std::string plain_program(const fs::path &file)
{
  const std::vector<std::string> lines = read_lines(file);
  read_exercises(file.string(), lines);
  std::string plain;
  bool        held_blank = false;
  for (const std::string &line : lines)
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

// The prose of a step's doc/ files with every other step named in it linked to that
// step's page: "as step-2 showed" becomes "as @ref step_2 "step-2" showed". Only a
// name that stands as a word is linked: not a path or a file (step-5/data,
// step-5.cu, build/step-1/step-1), not inside code (a `span`, a @code or @verbatim
// block, a <code> or <pre> element), a formula (\f$ ... \f$, \f[ ... \f]), a
// command's line (@image, @verbinclude, @include, @ref's quoted text), and not the
// page's own step. @p steps are the course's step names (step-1 … step-5).
std::string link_step_names(const std::string &text, const std::string &own,
                            const std::vector<std::string> &steps)
{
  std::string out;
  std::istringstream lines(text);
  bool in_block = false; // a @code / @verbatim block, or a \f[ formula over lines
  for (std::string line; std::getline(lines, line);)
    {
      const auto first = line.find_first_not_of(" \t");
      const std::string start = first == std::string::npos ? "" : line.substr(first);
      const auto starts = [&](const char *word) { return start.rfind(word, 0) == 0; };
      if (starts("@code") || starts("@verbatim") || starts("\\f["))
        in_block = true;
      const bool command_line = starts("@image") || starts("@verbinclude") || starts("@include") ||
                                starts("@dontinclude") || starts("@snippet");
      if (in_block || command_line)
        {
          out += line + '\n';
          if (starts("@endcode") || starts("@endverbatim") || line.find("\\f]") != std::string::npos)
            in_block = false;
          continue;
        }
      // Within the line: skip `code`, \f$ formulas \f$, <code>…</code>, "quoted" text
      // after @ref, and names that are parts of paths or files.
      bool in_span = false, in_formula = false, in_code_element = false, in_quote = false;
      for (std::size_t i = 0; i < line.size();)
        {
          if (line[i] == '`')
            in_span = !in_span;
          else if (line.compare(i, 3, "\\f$") == 0)
            {
              in_formula = !in_formula;
              out += "\\f$";
              i += 3;
              continue;
            }
          else if (line.compare(i, 6, "<code>") == 0 || line.compare(i, 5, "<pre>") == 0)
            in_code_element = true;
          else if (line.compare(i, 7, "</code>") == 0 || line.compare(i, 6, "</pre>") == 0)
            in_code_element = false;
          else if (line[i] == '"')
            in_quote = !in_quote;
          const bool free = !in_span && !in_formula && !in_code_element && !in_quote;
          if (free && line.compare(i, 5, "step-") == 0)
            {
              std::size_t end = i + 5;
              while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])))
                ++end;
              const std::string name = line.substr(i, end - i);
              const char before = i > 0 ? line[i - 1] : ' ';
              const char after = end < line.size() ? line[end] : ' ';
              const char after2 = end + 1 < line.size() ? line[end + 1] : ' ';
              const bool part_of_word = std::isalnum(static_cast<unsigned char>(before)) || before == '/' ||
                                        before == '_' || before == '-' || before == '.' ||
                                        std::isalnum(static_cast<unsigned char>(after)) || after == '/' ||
                                        after == '_' || after == '-' ||
                                        (after == '.' && std::isalnum(static_cast<unsigned char>(after2)));
              const bool known = std::find(steps.begin(), steps.end(), name) != steps.end();
              if (end > i + 5 && known && name != own && !part_of_word)
                {
                  out += "@ref " + page_label(name) + " \"" + name + "\"";
                  i = end;
                  continue;
                }
            }
          out += line[i];
          ++i;
        }
      out += '\n';
    }
  return out;
}

// The course's steps, from the folders beside @p step_dir that have a doc/ folder
// (step-1, step-2, …), in their order.
std::vector<std::string> course_steps(const fs::path &step_dir)
{
  std::vector<std::pair<int, std::string>> found;
  for (const auto &entry : fs::directory_iterator(step_dir.parent_path()))
    {
      const std::string name = entry.path().filename().string();
      if (name.rfind("step-", 0) == 0 && name.size() > 5 &&
          std::all_of(name.begin() + 5, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
          fs::is_directory(entry.path() / "doc"))
        found.emplace_back(std::stoi(name.substr(5)), name);
    }
  std::sort(found.begin(), found.end());
  std::vector<std::string> steps;
  for (const auto &[number, name] : found)
    steps.push_back(name);
  return steps;
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
// The file of a step's notebook page, beside its page: step-2.md → step-2_notebook.md.
fs::path notebook_page(const fs::path &page)
{
  return page.parent_path() / (page.stem().string() + "_notebook" + page.extension().string());
}

void make_page(const std::string              &step,
               const fs::path                 &step_dir,
               const fs::path                 &out_file,
               const fs::path                 &plain_dir,
               const std::vector<std::string> &files)
{
  const std::string label = page_label(step);
  const fs::path    doc   = step_dir / "doc";
  const auto        builds_on = split_words(read_text(doc / "builds-on"));
  const std::vector<std::string> steps = course_steps(step_dir);

  std::ostringstream page;
  page << "# The " << step << " tutorial program {#" << label << "}\n\n";
  if (builds_on.empty())
    page << "This is the first program of the course.\n\n";
  else
    page << "This program builds on " << step_links(builds_on) << ".\n\n";
  // The table of contents lists the page's sections, not its subsections: those of
  // The commented program and The plain program are its files, a hundred on step-5.
  page << "<em>In this step:</em> " << read_one_line(doc / "tooltip") << "\n\n"
       << "@tableofcontents{html:1}\n\n";

  page << "@section " << label << "_intro Introduction\n\n"
       << link_step_names(read_text(doc / "intro.dox"), step, steps) << '\n';

  label_maker           labels(step);
  commented_writer      commented(page, labels);
  commented.link_steps(step, steps);
  std::vector<exercise> exercises;
  page << "@section " << label << "_commented The commented program\n\n";
  for (const std::string &file : files)
    for (exercise &e : commented.write_file(shown_name(step, file), file))
      {
        e.file = shown_name(step, file);
        exercises.push_back(e);
      }
  check_unique_names(exercises);

  // Which results folder the Results show (docs/CMakeLists.txt chooses it and names
  // it in LAB_RESULTS_FOLDER), so that a reader knows the GPU of every figure.
  page << "@section " << label << "_results Results\n\n";
  if (const char *folder = std::getenv("LAB_RESULTS_FOLDER"); folder && *folder)
    page << "<em>The figures, tables and console output of this section are the "
            "committed results in <code>"
         << folder << "/</code>.</em>\n\n";
  page << link_step_names(read_text(doc / "results.dox"), step, steps) << '\n';
  // The lab notebook, where the step has one: the record behind the Results (every
  // measurement in the order it was made, the designs tried and dropped), a page of
  // its own beside the step's, linked from the end of the Results.
  if (fs::exists(doc / "notebook.dox"))
    {
      page << "The record behind these results, every measurement in the order it was "
              "made and the designs tried and dropped, is @ref "
           << label << "_notebook \"" << step << "'s lab notebook\".\n\n";
      std::ostringstream notebook;
      notebook << "# The " << step << " lab notebook {#" << label << "_notebook}\n\n"
               << "This page keeps the record behind @ref " << label << "_results \"the Results of "
               << step << "\": the measurements in the order they were made, the revisions they were "
                          "made at, and the designs that were tried and dropped. The Results say what "
                          "the step achieves and why; this page says how it got there.\n\n"
               << "@tableofcontents\n\n"
               << link_step_names(read_text(doc / "notebook.dox"), step, steps) << '\n';
      write_file(notebook_page(out_file), notebook.str());
    }

  // The Exercises section is made from the markers, so it never disagrees with
  // the code.
  if (!exercises.empty())
    {
      page << "@section " << label << "_exercises Exercises\n\n"
           << "Each exercise is a region of the code above that you can write "
              "yourself: its note in The commented program states the task, and "
              "the step's checks tell you when your code is right. "
              "<code>make exercise NAME=</code><em>name</em> runs the tests that "
              "cover it and times it beside the course's solution and the vendor, "
              "ending in one PASS or FAIL line (the README says more).\n\n"
           << "<table class=\"doxtable\">\n"
           << "<tr><th>Exercise</th><th>Difficulty</th><th>Where</th>"
              "<th>What it teaches</th></tr>\n";
      for (const exercise &e : exercises)
        page << "<tr><td>@ref exercise_" << e.name << " \"" << e.name
             << "\"</td><td style=\"white-space:nowrap\">"
             << difficulty_text(e.difficulty) << "</td><td><code>"
             << below_step(e.file) << "</code></td><td>" << first_sentence(e.task) << "</td></tr>\n";
      page << "</table>\n\n";
    }

  page << "@section " << label << "_plain The plain program\n\n";
  for (const std::string &file : files)
    {
      const std::string shown = shown_name(step, file);
      write_file(plain_dir / below_step(shown), plain_program(file));
      page << "@subsection " << labels("plain " + below_step(shown)) << ' ' << shown
           << "\n\n"
           << "@include " << shown << "\n\n";
    }

  // The path through the course: the next step, or the way back to the start.
  const auto at = std::find(steps.begin(), steps.end(), step);
  if (at != steps.end() && at + 1 != steps.end())
    page << "<hr>\n\n<b>Next:</b> " << step_links({*(at + 1)}) << ".\n\n";
  else if (!steps.empty())
    page << "<hr>\n\nThis is the course's last step. Back to @ref index \"the map of the course\".\n\n";

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

@section course_teaching Teaching with it

The student edition, feedback on one exercise, grading a class, and the list of every
exercise: @ref teaching "Teaching with this course".
)";
  write_file(out_file, page.str());
}

// @sect3{Teaching with this course}

// The site's page for instructors: the README's section "For instructors" (the one
// text of it, so that the two never disagree), then every exercise of the course
// made from the markers, each linked to its note in its step's commented program.
void make_teaching_page(const fs::path &out_file, const fs::path &readme, const std::vector<std::string> &files)
{
  const std::string heading = "## For instructors: exercises";
  std::string section;
  bool inside = false;
  for (const std::string &line : read_lines(readme))
    {
      if (line == heading)
        {
          inside = true;
          continue;
        }
      if (inside && line.rfind("## ", 0) == 0)
        break;
      if (inside)
        section += line + '\n';
    }
  if (section.empty())
    throw literate_error(readme.string() + ": no section `" + heading + "` to make the teaching page from");

  std::vector<exercise> exercises;
  for (const std::string &file : files)
    for (const exercise &e : read_exercises(file, read_lines(file)))
      exercises.push_back(e);
  check_unique_names(exercises);

  std::ostringstream page;
  page << "# Teaching with this course {#teaching}\n\n"
       << "What an instructor needs: the student edition (the course with the exercises "
          "left to the students), feedback on one exercise, and grading a class on the "
          "course's own tests. This text is the README's section \"For instructors\"; the "
          "list of exercises at the end is made from the markers in the code.\n\n"
       << "@tableofcontents{html:1}\n\n"
       << "@section teaching_editions The student edition, feedback and grading\n\n"
       << section << '\n'
       << "@section teaching_exercises The exercises\n\n"
       << "Every exercise of the course, in the order of the steps: its name links to "
          "its note in the step's commented program, where the task stands above the "
          "code it blanks.\n\n"
       << "<table class=\"doxtable\">\n"
       << "<tr><th>Exercise</th><th>Step</th><th>Difficulty</th><th>What it teaches</th></tr>\n";
  for (const exercise &e : exercises)
    {
      const std::string step = e.file.substr(0, e.file.find('/'));
      page << "<tr><td>@ref exercise_" << e.name << " \"" << e.name << "\"</td><td style=\"white-space:nowrap\">@ref "
           << page_label(step) << " \"" << step << "\"</td><td style=\"white-space:nowrap\">"
           << difficulty_text(e.difficulty) << "</td><td>" << first_sentence(e.task) << "</td></tr>\n";
    }
  page << "</table>\n";
  write_file(out_file, page.str());
}

// @sect3{The list of exercises}

// One line per exercise, fields separated by tabs, in the order of the files and
// of the lines: what the student edition reads to know which regions to replace.
void list_exercises(const std::vector<std::string> &files)
{
  std::vector<exercise> exercises;
  for (const std::string &file : files)
    for (const exercise &e : read_exercises(file, read_lines(file)))
      exercises.push_back(e);
  check_unique_names(exercises);
  for (const exercise &e : exercises)
    std::cout << e.file << ':' << e.first << '-' << e.last << '\t' << e.name << '\t'
              << e.difficulty << '\t' << first_sentence(e.task) << '\n';
}

// @sect3{The student edition}

// The stub that replaces an exercise's code in the student edition: a comment and one
// statement that does nothing, in the host's code and the device's alike, so that the
// function still compiles, the region still holds code (the page and this filter
// still read it), and nothing is written: the exercise's checks then fail. The
// message "exercise NAME not done" is printed by the checks (lab::Checks and the
// test programs' main), from the list of blanked names below.
std::string stub(const std::string &indent, const std::string &name)
{
  return indent + "// Not done yet: write your code here (the task above says what).\n" +
         indent + "static_cast<void>(\"exercise " + name + " not done\");\n";
}

// Writes @p changed (file → its lines) under @p out.
void write_changed_files(const fs::path &out, const std::map<std::string, std::vector<std::string>> &changed)
{
  for (const auto &[file, lines] : changed)
    {
      std::string text;
      for (const std::string &line : lines)
        text += line.empty() || line.back() != '\n' ? line + '\n' : line;
      write_file(out / file, text);
    }
}

// Writes the course's list of blanked names, common/src/exercises.cpp (read from
// @p root), under @p out with @p names in it.
void write_blanked_list(const fs::path &root, const fs::path &out, const std::vector<std::string> &names)
{
  const std::string list_file = "common/src/exercises.cpp";
  const std::string slot      = "/* the names of the blanked exercises */";
  std::string       list_text;
  for (const std::string &line : read_lines(root / list_file))
    list_text += line + '\n';
  const auto at = list_text.find(slot);
  if (at == std::string::npos)
    throw literate_error(list_file + ": no `" + slot + "` to write the names into");
  std::string quoted;
  for (const std::string &name : names)
    quoted += '"' + name + "\", ";
  list_text.replace(at, slot.size(), quoted + slot);
  write_file(out / list_file, list_text);
}

// Writes the student edition's changed files into `out` (the copy of the tree itself
// is made by docs/student_edition.cmake, which then lays these files over it): every
// exercise of the files (read from `root`) whose name is in `only` (all when it is
// empty; `-` reads it from the environment variable LAB_EXERCISES, which is how
// `make student EXERCISES=...` reaches the build target) with its code replaced by the stub, markers and task kept; and the course's
// list of blanked names, common/src/exercises.cpp, with those names in it. Every
// marker and name is checked, and an unknown name in `only` refused, before anything
// is written. Prints the names blanked, one per line.
void student_edition(const fs::path &root, const fs::path &out, std::string only,
                     const std::vector<std::string> &files)
{
  if (only == "-")
    {
      const char *from_environment = std::getenv("LAB_EXERCISES");
      only = from_environment ? from_environment : "";
    }
  std::vector<exercise>                 exercises;
  std::map<std::string, std::vector<std::string>> lines_of;
  for (const std::string &file : files)
    {
      lines_of[file] = read_lines(root / file);
      for (const exercise &e : read_exercises(file, lines_of[file]))
        exercises.push_back(e);
    }
  check_unique_names(exercises);

  std::set<std::string> wanted;
  for (std::size_t begin = 0; begin <= only.size() && !only.empty();)
    {
      std::size_t end = only.find(',', begin);
      if (end == std::string::npos)
        end = only.size();
      std::string name = only.substr(begin, end - begin);
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      const bool known = std::any_of(exercises.begin(), exercises.end(),
                                     [&](const exercise &e) { return e.name == name; });
      if (!known)
        throw literate_error("no exercise named '" + name +
                             "' in the course (`lab_literate exercises` lists them)");
      wanted.insert(name);
      begin = end + 1;
    }

  // Per file, from the last exercise to the first, so that the line numbers of the
  // ones above stay right.
  std::vector<std::string> blanked;
  std::map<std::string, std::vector<std::string>> changed;
  for (auto e = exercises.rbegin(); e != exercises.rend(); ++e)
    {
      if (!wanted.empty() && wanted.count(e->name) == 0)
        continue;
      std::vector<std::string> &lines =
        changed.count(e->file) ? changed[e->file] : (changed[e->file] = lines_of[e->file]);
      const std::string &marker = lines[e->first - 1];
      const std::string  indent = marker.substr(0, marker.find_first_not_of(" \t"));
      lines.erase(lines.begin() + e->task_last, lines.begin() + e->last - 1);
      lines.insert(lines.begin() + e->task_last, stub(indent, e->name));
      blanked.insert(blanked.begin(), e->name);
    }

  write_changed_files(out, changed);
  write_blanked_list(root, out, blanked);
  for (const std::string &name : blanked)
    std::cout << name << '\n';
}

// @sect3{Grading on the course's ground}

// What a student's copy holds in place of one exercise.
enum class handed_in
{
  written, // code of the student's own
  stub,    // the student edition's stub, untouched: not done
  missing, // no region of that name in the file (markers deleted or renamed)
  course   // the course's own code, line for line (an exercise not handed out, or copied)
};

// The code between an exercise's task and its end marker (lines task_last + 1 to
// last - 1), as the lines of the file hold it.
std::vector<std::string> region_code(const std::vector<std::string> &lines, const exercise &e)
{
  return {lines.begin() + static_cast<long>(e.task_last), lines.begin() + static_cast<long>(e.last - 1)};
}

// Whether @p code is the stub of exercise @p name, whatever its indentation. (The
// stub's comment joins the task's paragraph when the file is read back, so only its
// statement is left in the region; a copy of it in the region counts the same.)
bool is_stub(const std::vector<std::string> &code, const std::string &name)
{
  std::vector<std::string> meaningful;
  for (const std::string &line : code)
    {
      const auto begin = line.find_first_not_of(" \t");
      if (begin != std::string::npos)
        meaningful.push_back(line.substr(begin, line.find_last_not_of(" \t") + 1 - begin));
    }
  std::istringstream       text(stub("", name));
  std::string              comment, statement;
  std::getline(text, comment);
  std::getline(text, statement);
  meaningful.erase(std::remove(meaningful.begin(), meaningful.end(), comment), meaningful.end());
  return meaningful == std::vector<std::string>{statement};
}

// The lines after an exercise's opening marker up to its end marker: the task and the
// code.
std::vector<std::string> region_with_task(const std::vector<std::string> &lines, const exercise &e)
{
  return {lines.begin() + static_cast<long>(e.first), lines.begin() + static_cast<long>(e.last - 1)};
}

// The grading edition of one student's copy: the course's files with only the
// exercises' code taken from @p student, so that everything else (the tests, the
// checks, the timer, the harness, the build) is the course's. For every exercise of
// the course's files (read from @p course) the student's region of the same name in
// the same file replaces the course's code; where it is missing or still the stub,
// the course's file keeps the stub (the exercise is not done), and the list of
// blanked names, common/src/exercises.cpp, holds exactly those, so that "exercise
// NAME not done" is said only of them. Writes the changed files into @p out and
// prints one line per exercise, `name <TAB> written|stub|missing|course` (course: the
// course's own code, line for line), then one line per
// exercise file whose student copy differs from the course outside its regions,
// `file <TAB> changed outside the exercises` (what the grading ignores). A student's
// file whose markers are broken counts as missing all its exercises, and says why.
void grading_edition(const fs::path &course, const fs::path &student, const fs::path &out,
                     const std::vector<std::string> &files)
{
  std::vector<std::string> blanked;
  std::map<std::string, std::vector<std::string>> changed;
  std::vector<std::string> report, changed_outside;
  for (const std::string &file : files)
    {
      std::vector<std::string> lines = read_lines(course / file);
      const std::vector<exercise> ours = read_exercises(file, lines);
      std::vector<std::string> theirs_lines;
      std::vector<exercise>    theirs;
      std::string              why_missing;
      if (!fs::exists(student / file))
        why_missing = "the file is missing";
      else
        try
          {
            theirs_lines = read_lines(student / file);
            theirs       = read_exercises(file, theirs_lines);
          }
        catch (const literate_error &broken)
          {
            why_missing = broken.what();
            theirs.clear();
          }
      // The student's file with the course's code in every region it shares with the
      // course: equal to the course's file unless something outside changed.
      std::vector<std::string> outside = theirs_lines;
      for (auto e = ours.rbegin(); e != ours.rend(); ++e)
        {
          const auto match = std::find_if(theirs.begin(), theirs.end(),
                                          [&](const exercise &t) { return t.name == e->name; });
          handed_in state = handed_in::missing;
          std::vector<std::string> code;
          if (match != theirs.end())
            {
              code  = region_code(theirs_lines, *match);
              state = is_stub(code, e->name)             ? handed_in::stub
                      : code == region_code(lines, *e) ? handed_in::course
                                                         : handed_in::written;
              const std::vector<std::string> course_region = region_with_task(lines, *e);
              outside.erase(outside.begin() + static_cast<long>(match->first),
                            outside.begin() + static_cast<long>(match->last - 1));
              outside.insert(outside.begin() + static_cast<long>(match->first), course_region.begin(),
                             course_region.end());
            }
          const std::string &marker = lines[e->first - 1];
          if (state == handed_in::stub || state == handed_in::missing)
            code = {stub(marker.substr(0, marker.find_first_not_of(" \t")), e->name)};
          lines.erase(lines.begin() + static_cast<long>(e->task_last), lines.begin() + static_cast<long>(e->last - 1));
          lines.insert(lines.begin() + static_cast<long>(e->task_last), code.begin(), code.end());
          if (state == handed_in::stub || state == handed_in::missing)
            blanked.insert(blanked.begin(), e->name);
          static const char *const words[] = {"written", "stub", "missing", "course"};
          report.insert(report.begin(), e->name + '\t' + words[static_cast<int>(state)] +
                                          (state == handed_in::missing && !why_missing.empty()
                                             ? " (" + why_missing + ")"
                                             : ""));
        }
      changed[file] = lines;
      if (why_missing.empty() && outside != read_lines(course / file))
        changed_outside.push_back(file + "\tchanged outside the exercises");
    }
  write_changed_files(out, changed);
  write_blanked_list(course, out, blanked);
  for (const std::string &line : report)
    std::cout << line << '\n';
  for (const std::string &line : changed_outside)
    std::cout << line << '\n';
}

int usage()
{
  std::cerr << "usage:\n"
               "  lab_literate commented <step-name> <file>...\n"
               "  lab_literate plain <file>\n"
               "  lab_literate page <step-name> <step-dir> <out.md> <plain-dir> "
               "<file>...\n"
               "  lab_literate mainpage <out.md> <step-dir>...\n"
               "  lab_literate exercises <file>...\n"
               "  lab_literate student <root> <out-dir> <name,name,...|''|-> <file>...\n"
               "  lab_literate grading <course> <student-copy> <out-dir> <file>...\n"
               "  lab_literate teaching <out.md> <README.md> <file>...\n";
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
      else if (mode == "exercises" && args.size() >= 2)
        list_exercises(std::vector<std::string>(args.begin() + 1, args.end()));
      else if (mode == "student" && args.size() >= 5)
        student_edition(args[1], args[2], args[3],
                        std::vector<std::string>(args.begin() + 4, args.end()));
      else if (mode == "teaching" && args.size() >= 4)
        make_teaching_page(args[1], args[2], std::vector<std::string>(args.begin() + 3, args.end()));
      else if (mode == "grading" && args.size() >= 5)
        grading_edition(args[1], args[2], args[3],
                        std::vector<std::string>(args.begin() + 4, args.end()));
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
