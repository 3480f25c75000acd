#pragma once
// The check that every reader of files shares: a bad file is refused with lab::bad_input,
// in one line that names the file and says what is wrong with it (lab/program.h). The
// tests of PGM, PPM, PNG and of the reader that chooses between them use it.

#include <lab/program.h>
#include <lab_catch.h>

#include "test_support.h"

#include <string>
#include <vector>

namespace lab_test
{
  /// A file a reader must refuse: its name, its content, and words its refusal must
  /// contain.
  struct BadFile
  {
    std::string name, content, says;
  };

  /// Checks that @p read (called with a path) refuses the file @p path with
  /// lab::bad_input: one line, naming the file, containing @p says.
  template <typename Read>
  void check_refusal(const std::string &path, const std::string &says, Read read)
  {
    const std::string message = message_of<lab::bad_input>([&] { read(path); });
    INFO(message);
    CHECK(contains(message, path));
    CHECK(contains(message, says));
    CHECK(message.find('\n') == std::string::npos);
  }

  /// Writes each of @p files into @p dir and checks its refusal by @p read.
  template <typename Read>
  void check_refusals(const TempDir &dir, const std::vector<BadFile> &files, Read read)
  {
    for (const BadFile &bad : files)
      {
        INFO(bad.name);
        const std::string path = (dir / bad.name).string();
        write_text(path, bad.content);
        check_refusal(path, bad.says, read);
      }
  }
} // namespace lab_test
